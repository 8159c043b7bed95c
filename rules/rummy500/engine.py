"""The Rummy 500 engine: deal, bank and market takes, placements, discards, round end, match.

State is a JSON-native dict (see `new_game`). `apply` works on a private copy, so a rejected
action never leaves a half-changed state behind. Phases of a turn: "take" (R500-20), "bank" (after a
bank take or on the dealer's first turn: lays, then a discard) and "market" (after a market take:
lays, then `end`).
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.core.cards import JOKER, card_deck, parse_card, sort_key, sorted_cards
from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError, not_held
from rules.core.hints import Hint
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.state import clone
from rules.rummy500 import melds, views
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeBank, TakeMarket, Timeout, format_action, parse
from rules.rummy500.hints import suggestions as suggested
from rules.rummy500.levels import POLICIES
from rules.rummy500.moves import moves as legal_moves
from rules.rummy500.options import Rummy500Options


def _parse_deck_card(token: str) -> str:
    try:
        return parse_card(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a card") from err


def auto_discard(hand: list[str], drawn: str | None) -> str | None:
    """R500-27: the drawn card if still held (not a joker), else the highest hand value;
    ties: higher rank, then suit order S H D C. None when only jokers are left."""
    if drawn is not None and drawn != JOKER and drawn in hand:
        return drawn
    naturals = [c for c in hand if c != JOKER]
    if not naturals:
        return None
    return min(naturals, key=lambda c: (-melds.card_value(c), -melds.rank_of(c), sort_key(c)[0]))


class Rummy500Engine(MatchEngine):
    name = "rummy500"
    title = "Rummy 500"
    min_seats = 2
    max_seats = 4
    options_model = Rummy500Options
    hidden_zones = ("hands", "bank")

    # ---- setup -------------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State:
        self.check_seats(seats)
        opts = Rummy500Options.parse_options(options)
        if isinstance(opts.first_dealer, int) and opts.first_dealer > seats:
            raise SetupError(f"bad option first_dealer: seat {opts.first_dealer} but only {seats} players",
                             "seat", option="first_dealer", got=opts.first_dealer, lo=1, hi=seats)
        prefix = [_parse_deck_card(c) for c in deck] if deck else None
        if prefix is not None and len(prefix) > 52 + opts.jokers:
            raise SetupError("deck: longer than the deck")
        if isinstance(opts.first_dealer, int):
            dealer = opts.first_dealer - 1  # R500-11
        elif deck:
            dealer = 0
        else:
            dealer = rng_for(seed, "dealer").randrange(seats)
        state: State = {
            "game": self.name,
            "options": opts.model_dump(),
            "seed": seed,
            "deck": prefix,
            "seats": seats,
            "round": 0,
            "dealer": dealer,
            "totals": [0] * seats,
            "history": [],
            "match_over": False,
            "match_winners": [],
        }
        self._deal(state, 1, dealer)
        return state

    def _deal(self, state: State, round_number: int, dealer: int) -> None:
        """R500-12: dealer hand_size + 1, others hand_size, in blocks in seat order; rest is the bank."""
        opts = state["options"]
        full = card_deck(jokers=opts["jokers"])
        prefix = state["deck"] if round_number == 1 else None
        cards = build_deck(full, rng_for(state["seed"], "deal", round_number), prefix, _parse_deck_card)
        sizes = [opts["hand_size"] + (1 if s == dealer else 0) for s in range(state["seats"])]
        hands, bank = deal_blocks(cards, sizes)
        state.update(
            round=round_number,
            dealer=dealer,
            turn=dealer,
            phase="bank",  # R500-13: the dealer's 10th card counts as a bank draw
            first=True,
            drawn=None,
            hands=hands,
            bank=bank,
            market=[],
            table=[],
            next_id=1,
            round_over=None,
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = clone(state)
        self._deal(new, state["round"] + 1, (state["dealer"] + 1) % state["seats"])  # R500-11/73
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        """Hands, bank, market and table (burned cards are physically in one of those zones)."""
        cards = list(state["bank"]) + list(state["market"])
        for hand in state["hands"]:
            cards.extend(hand)
        cards.extend(melds.table_cards(state["table"]))
        return cards

    def timeout_action(self, state: State) -> Action:
        return Timeout()

    def result(self, state: State) -> RoundResult | None:
        over = state["round_over"]
        if over is None:
            return None
        return RoundResult(
            round_scores=list(over["scores"]),
            totals=list(state["totals"]),
            winners=list(over["winners"]),
            match_over=state["match_over"],
            match_winners=list(state["match_winners"]),
            details={
                "reason": over["reason"],
                "how": over["how"],
                "round": state["round"],
                "laid": list(over["laid"]),
                "hand_values": list(over["hand_values"]),
                "bonus": list(over["bonus"]),
            },
        )

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state, self.current_seat(state))

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return views.seat_view(state, seat, public)

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        return suggested(view)

    def help_text(self) -> list[tuple[str, str]]:
        return [
            ("take bank", "help.rummy500.take_bank"),
            ("take market 7D leave 3H; lay 7D 8D 9D 10D; lay KS KC KH", "help.rummy500.take_market"),
            ("take #2; lay 3H 3S 3D", "help.rummy500.take_pos"),
            ("lay 9S 9H 9C", "help.rummy500.lay"),
            ("lay 8H 9H on S1", "help.rummy500.lay_on"),
            ("discard KS", "help.rummy500.discard"),
            ("end", "help.rummy500.end"),
            ("stop", "help.rummy500.stop"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        return policy_for(POLICIES, level)(self.view(state, seat), rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.ai_action(state, seat, rng)  # R500-27 covers the timer only: absent players get the AI

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:
            raise IllegalAction("E_PHASE", why="not_your_turn", seat=seat)  # R500-26
        new = clone(state)
        events: list[Event] = []
        match action:
            case TakeBank():
                self._take_bank(new, seat, events)
            case TakeMarket():
                self._take_market(new, seat, action, events)
            case Lay():
                if new["phase"] == "take":
                    raise IllegalAction("E_PHASE", action="lay", phase=new["phase"])
                self._lay(new, seat, action, events, check_discard=new["phase"] == "bank")
                self._after_lay(new, seat, events)
            case Discard(card=card):
                self._discard(new, seat, card, events)
            case End():
                if new["phase"] != "market":
                    raise IllegalAction("E_PHASE", action="end", phase=new["phase"])
                events.append(Event("TurnEnded", {"seat": seat}))
                self._end_turn(new, seat, events)
            case Stop():
                if new["phase"] != "take" or new["bank"]:
                    # `why` tells the player stop waits for an empty bank (the usual surprise).
                    why = {"why": "bank_not_empty", "bank": len(new["bank"])} if new["phase"] == "take" else {}
                    raise IllegalAction("E_PHASE", action="stop", phase=new["phase"], **why)  # R500-25
                events.append(Event("Stopped", {"seat": seat}))
                self._end_round(new, events, out=None, how="stop")
            case Timeout():
                self._timeout(new, seat, events)
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Rummy 500 action")
        return new, events

    def _take_bank(self, state: State, seat: int, events: list[Event]) -> None:
        if state["phase"] != "take":
            # R500-13: the dealer's 10th card was the take; saying so beats "not in this part of the turn".
            why = {"why": "dealer_first"} if state["first"] and state["phase"] == "bank" else {}
            raise IllegalAction("E_PHASE", action="take", phase=state["phase"], **why)
        if not state["bank"]:
            raise IllegalAction("E_BANK_EMPTY")  # R500-25
        card = state["bank"].pop(0)
        hand = state["hands"][seat]
        hand.append(card)
        state["phase"] = "bank"
        state["drawn"] = card
        events.append(Event("CardDrawn", {"seat": seat, "bank": len(state["bank"])}))
        events.append(Event("CardsReceived", {"cards": [card]}, seat=seat))
        if all(c == JOKER for c in hand):
            # R500-24: a lone joker drew another; nothing can be laid or discarded.
            events.append(Event("NoDiscard", {"seat": seat}))
            self._end_turn(state, seat, events)

    def _take_market(self, state: State, seat: int, action: TakeMarket, events: list[Event]) -> None:
        """R500-30/31: checks in the spec's order; any failure rejects the whole command."""
        if state["phase"] != "take":
            why = {"why": "dealer_first"} if state["first"] and state["phase"] == "bank" else {}
            raise IllegalAction("E_PHASE", action="take", phase=state["phase"], **why)
        market = state["market"]
        if action.pos is not None:
            p = action.pos - 1
            if p >= len(market):
                raise IllegalAction("E_NOT_IN_MARKET", target=f"#{action.pos}", size=len(market))
            target = market[p]
        else:
            target = str(action.target)
            if target not in market:
                raise IllegalAction("E_NOT_IN_MARKET", target=target, size=len(market))
            p = market.index(target)
        if target in melds.burned_cards(state["table"]):
            raise IllegalAction("E_BURNED", cards=[target])  # R500-35
        after = market[p + 1 :]
        leave = action.leave
        if state["options"]["market_leave_one"] and after:
            if leave is None or leave not in after:
                raise IllegalAction("E_BAD_LEAVE", leave=leave, after=after, why="pick_one")
        elif leave is not None:
            # Nothing may stay behind: no card after the target, or the option is off.
            raise IllegalAction("E_BAD_LEAVE", leave=leave, after=after, why="none")
        taken = [target] + [c for c in after if c != leave]
        state["market"] = market[:p] + ([leave] if leave is not None else [])
        hand = state["hands"][seat]
        hand.extend(taken)
        state["phase"] = "market"
        state["drawn"] = None
        events.append(Event("MarketTaken", {"seat": seat, "pos": p + 1, "target": target, "taken": taken,
                                            "leave": leave, "market": list(state["market"])}))
        for index, lay in enumerate(action.lays, start=1):
            self._lay(state, seat, lay, events, check_discard=False, index=index)
        if target in hand:
            raise IllegalAction("E_TARGET_NOT_LAID", target=target)  # R500-31
        self._after_lay(state, seat, events)

    def _lay(self, state: State, seat: int, lay: Lay, events: list[Event], check_discard: bool,
             index: int = 1) -> None:
        hand = state["hands"][seat]
        missing = Counter(lay.cards) - Counter(hand)
        if missing:
            raise not_held("E_NOT_IN_HAND", hand, lay.cards, sorted_cards(missing.elements()))
        before = state["next_id"]
        value, state["next_id"] = melds.place(state["table"], lay.cards, lay.on, seat, before, index)
        rest = Counter(hand)
        rest.subtract(lay.cards)
        left = list(rest.elements())
        if check_discard and left and all(c == JOKER for c in left):
            raise IllegalAction("E_NO_DISCARD_LEFT", cards=list(lay.cards))  # R500-24
        for c in lay.cards:
            hand.remove(c)
        created = list(range(before, state["next_id"]))
        events.append(Event("CardsLaid", {"seat": seat, "cards": list(lay.cards), "on": lay.on, "created": created,
                                          "value": value, "hand": len(hand)}))

    def _after_lay(self, state: State, seat: int, events: list[Event]) -> None:
        if not state["hands"][seat]:
            # R500-23/63: out by placements; the bonus only after a bank take (or the first turn).
            how = "lay" if state["phase"] == "bank" else "market"
            self._end_round(state, events, out=seat, how=how)

    def _discard(self, state: State, seat: int, card: str, events: list[Event]) -> None:
        if state["phase"] != "bank":
            raise IllegalAction("E_PHASE", action="discard", phase=state["phase"])
        if card == JOKER:
            raise IllegalAction("E_JOKER_DISCARD")  # R500-54
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction("E_NOT_IN_HAND", tiles=[card])
        hand.remove(card)
        state["market"].append(card)
        events.append(Event("Discarded", {"seat": seat, "card": card, "hand": len(hand)}))
        if not hand:
            self._end_round(state, events, out=seat, how="discard")
            return
        self._end_turn(state, seat, events)

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """R500-27: take bank (or end the round on an empty bank), lay nothing, discard."""
        events.append(Event("TimedOut", {"seat": seat, "phase": state["phase"]}))
        if state["phase"] == "take":
            if not state["bank"]:
                self._end_round(state, events, out=None, how="stop")
                return
            self._take_bank(state, seat, events)
            if state["turn"] != seat or state["phase"] == "take":
                return  # the lone-joker case already ended the turn
        if state["phase"] == "market":
            events.append(Event("TurnEnded", {"seat": seat}))
            self._end_turn(state, seat, events)
            return
        hand = state["hands"][seat]
        card = auto_discard(hand, None if state["first"] else state["drawn"])
        if card is None:
            events.append(Event("NoDiscard", {"seat": seat}))
            self._end_turn(state, seat, events)
            return
        self._discard(state, seat, card, events)

    def _end_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state["turn"] = (seat + 1) % state["seats"]
        state["phase"] = "take"
        state["first"] = False
        state["drawn"] = None
        events.append(Event("TurnStarted", {"seat": state["turn"]}))

    # ---- round and match end -----------------------------------------------------------------

    def _end_round(self, state: State, events: list[Event], out: int | None, how: str) -> None:
        """R500-62/63: T - H + B for everyone; then R500-71/72 for the match."""
        opts = state["options"]
        n = state["seats"]
        laid = melds.laid_points(state["table"], n)
        hand_values = [melds.hand_value(h, opts["joker_hand_penalty"]) for h in state["hands"]]
        bonus = [0] * n
        if out is not None and how == "lay":
            bonus[out] = opts["go_out_bonus"]
        scores = [laid[p] - hand_values[p] + bonus[p] for p in range(n)]
        state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append(scores)
        winners = [] if out is None else [out]
        reason = "stop" if out is None else "out"
        state["turn"] = None
        state["phase"] = None
        state["drawn"] = None
        state["round_over"] = {"reason": reason, "how": how, "winners": winners, "scores": scores, "laid": laid,
                               "hand_values": hand_values, "bonus": bonus,
                               "revealed": [sorted_cards(h) for h in state["hands"]]}
        events.append(Event("RoundScored", {"round": state["round"], "reason": reason, "how": how,
                                            "winners": winners, "scores": scores, "laid": laid,
                                            "hand_values": hand_values, "bonus": bonus,
                                            "revealed": [sorted_cards(h) for h in state["hands"]],
                                            "totals": list(state["totals"])}))
        best = max(state["totals"])
        if best < opts["target_score"]:
            return
        leaders = [p for p, t in enumerate(state["totals"]) if t == best]
        if len(leaders) == 1 or opts["allow_draw"]:
            state["match_over"] = True
            state["match_winners"] = leaders
            events.append(Event("MatchEnded", {"winners": leaders, "totals": list(state["totals"])}))
        else:
            events.append(Event("TieBreakNeeded", {"leaders": leaders}))  # R500-72: another round


ENGINE = Rummy500Engine()
