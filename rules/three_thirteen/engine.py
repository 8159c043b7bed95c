"""The Three-Thirteen engine: deals, draw/discard turns, going out, last turns, scoring and the match.

State is a JSON-native dict (see `new_game`). `apply` works on a private copy, so a rejected action
never leaves a half-changed state behind. Rule IDs refer to shared/rules/three_thirteen.md.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.cards import card_deck, parse_card, sorted_cards
from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.state import clone
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard, Timeout, format_action, parse
from rules.three_thirteen.deadwood import (
    arrange,
    card_value,
    fully_melded,
    rank_of,
    suit_of,
    wild_rank_for_round,
)
from rules.three_thirteen.levels import POLICIES
from rules.three_thirteen.moves import moves as legal_moves
from rules.three_thirteen.options import ThreeThirteenOptions
from rules.three_thirteen.pile_record import DISCARD, REBUILD, TAKE, UP
from rules.three_thirteen.views import can_draw_stock, hand_size, public_view, seat_view

DECKS = 2  # T13-01 / D-01


def _clone_state(state: State) -> State:
    """`clone` for a whole state, spelled out for the big card lists that every action copies."""
    new = dict(state)
    new["hands"] = [list(h) for h in state["hands"]]
    new["stock"] = list(state["stock"])
    new["discard"] = list(state["discard"])
    new["options"] = dict(state["options"])
    new["totals"] = list(state["totals"])
    new["history"] = [list(h) for h in state["history"]]
    new["match_winners"] = list(state["match_winners"])
    new["deck"] = None if state["deck"] is None else list(state["deck"])
    new["round_over"] = None if state["round_over"] is None else clone(state["round_over"])
    new["pile_log"] = list(state.get("pile_log", []))  # entries are never changed, only appended
    return new


def full_deck(jokers: int) -> list[str]:
    return card_deck(decks=DECKS, jokers=jokers)


def match_leaders(totals: list[int]) -> list[int]:
    """Seats sharing the lowest total (T13-50/51)."""
    low = min(totals)
    return [s for s, v in enumerate(totals) if v == low]


def standings(totals: list[int]) -> list[int]:
    """T13-52: the place of each seat (1 = best); tied totals share a place."""
    return [1 + sum(1 for other in totals if other < mine) for mine in totals]


class ThreeThirteenEngine(MatchEngine):
    name = "three_thirteen"
    title = "Three-Thirteen"
    min_seats = 2
    max_seats = 6
    options_model = ThreeThirteenOptions
    hidden_zones = ("hands", "stock")

    # ---- setup -------------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State:
        self.check_seats(seats)
        opts = ThreeThirteenOptions.parse_options(options)
        if isinstance(opts.first_dealer, int) and opts.first_dealer > seats:
            raise SetupError(f"bad option first_dealer: seat {opts.first_dealer} but only {seats} players",
                             "seat", option="first_dealer", got=opts.first_dealer, lo=1, hi=seats)
        prefix = [_card_for_deck(c) for c in deck] if deck else None
        if prefix is not None and len(prefix) > DECKS * 52 + opts.jokers:
            raise SetupError("deck: longer than the two decks")
        if isinstance(opts.first_dealer, int):  # T13-12
            dealer = opts.first_dealer - 1
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
        self._deal(state, round_number=1, dealer=dealer)
        return state

    def _deal(self, state: State, round_number: int, dealer: int) -> None:
        """T13-13/14: shuffle, deal n each in seat blocks, turn the up-card, the rest is the stock."""
        n = hand_size(round_number)
        prefix = state["deck"] if round_number == 1 else None
        cards = build_deck(full_deck(state["options"]["jokers"]), rng_for(state["seed"], "deal", round_number), prefix)
        hands, rest = deal_blocks(cards, [n] * state["seats"])
        state.update(
            round=round_number,
            dealer=dealer,
            turn=(dealer + 1) % state["seats"],
            phase="draw",
            hands=hands,
            discard=rest[:1],
            stock=rest[1:],
            taken=None,
            drawn=None,
            out=None,
            last_turns=None,
            rebuilds=0,
            round_over=None,
            pile_log=[[None, UP, rest[0]]],
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = _clone_state(state)
        self._deal(new, round_number=state["round"] + 1, dealer=(state["dealer"] + 1) % state["seats"])
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        cards = list(state["stock"]) + list(state["discard"])
        for hand in state["hands"]:
            cards.extend(hand)
        return cards

    def timeout_action(self, state: State) -> Action:
        return Timeout()

    def wild_rank(self, state: State) -> int:
        return wild_rank_for_round(state["round"])

    def result(self, state: State) -> RoundResult | None:
        over = state["round_over"]
        if over is None:
            return None
        return RoundResult(
            round_scores=list(over["scores"]),
            totals=list(state["totals"]),
            winners=[over["out"]],
            match_over=state["match_over"],
            match_winners=list(state["match_winners"]),
            details={
                "reason": "out",  # a Three-Thirteen round always ends with someone going out
                "round": state["round"],
                "wild_rank": over["wild_rank"],
                "deadwood": list(over["deadwood"]),
                "tied": list(over.get("tied", [])),
                "standings": standings(state["totals"]),
            },
        )

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:  # T13-28; also the out player during last turns
            raise IllegalAction("E_NOT_YOUR_TURN", seat=seat)
        new = _clone_state(state)
        events: list[Event] = []
        match action:
            case DrawStock():
                self._need_phase(new, "draw", "draw")
                self._draw_stock(new, seat, events)
            case TakeDiscard():
                self._need_phase(new, "draw", "take")
                self._take_discard(new, seat, events)
            case Discard(card=card):
                self._need_phase(new, "discard", "discard")
                self._discard(new, seat, card, events)
            case Timeout():
                self._timeout(new, seat, events)
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Three-Thirteen action")
        return new, events

    @staticmethod
    def _need_phase(state: State, phase: str, verb: str) -> None:
        if state["phase"] != phase:  # T13-20/21: draw first, then discard
            raise IllegalAction("E_PHASE", action=verb, phase=state["phase"])

    def _draw_stock(self, state: State, seat: int, events: list[Event]) -> None:
        if not state["stock"]:
            if len(state["discard"]) <= 1:
                raise IllegalAction("E_STOCK_EMPTY")  # T13-26: take the discard instead
            # T13-26 / D-04: every discard but the top card is shuffled into a new stock.
            under, top = state["discard"][:-1], state["discard"][-1]
            rng_for(state["seed"], "rebuild", state["round"], state["rebuilds"]).shuffle(under)
            state["rebuilds"] += 1
            state["stock"], state["discard"] = under, [top]
            state["pile_log"].append([seat, REBUILD, top])
            events.append(Event("StockRebuilt", {"seat": seat, "stock": len(under)}))
        card = state["stock"].pop(0)
        state["hands"][seat].append(card)
        state["phase"], state["drawn"], state["taken"] = "discard", card, None
        events.append(Event("CardDrawn", {"seat": seat, "source": "stock", "stock": len(state["stock"])}))
        events.append(Event("CardReceived", {"card": card}, seat=seat))

    def _take_discard(self, state: State, seat: int, events: list[Event]) -> None:
        if not state["discard"]:
            raise IllegalAction("E_EMPTY_DISCARD")
        card = state["discard"].pop()
        state["hands"][seat].append(card)
        state["phase"], state["taken"], state["drawn"] = "discard", card, None
        state["pile_log"].append([seat, TAKE, card])
        events.append(Event("CardDrawn", {"seat": seat, "source": "discard", "card": card}))

    def _discard(self, state: State, seat: int, card: str, events: list[Event]) -> None:
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction("E_NOT_IN_HAND", tiles=[card])
        if card == state["taken"] and hand.count(card) < 2:  # T13-22 / D-02
            raise IllegalAction("E_DISCARD_TAKEN_CARD", card=card)
        hand.remove(card)
        state["discard"].append(card)
        state["pile_log"].append([seat, DISCARD, card])
        state["phase"], state["taken"], state["drawn"] = "draw", None, None
        events.append(Event("CardDiscarded", {"seat": seat, "card": card}))
        opts = state["options"]
        if state["out"] is None:
            # T13-23/39: going out is checked after every discard, never before (T13-24).
            if fully_melded(hand, self.wild_rank(state), opts["ace_high"]):
                arr = arrange(hand, self.wild_rank(state), opts["ace_high"])
                state["out"] = seat
                state["last_turns"] = state["seats"] - 1
                events.append(Event("WentOut", {"seat": seat, "melds": [list(m) for m in arr.melds]}))
        else:
            state["last_turns"] -= 1  # T13-25: one last turn each
            if state["last_turns"] <= 0:
                self._end_round(state, events)
                return
        state["turn"] = (seat + 1) % state["seats"]
        events.append(Event("TurnStarted", {"seat": state["turn"], "last_turn": state["out"] is not None}))

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """T13-29 / D-06: draw from the stock (the pile if no stock can be rebuilt), then discard the
        card drawn from the stock, or the highest-value card that may be discarded."""
        events.append(Event("TimedOut", {"seat": seat}))
        if state["phase"] == "draw":
            if can_draw_stock(state):
                self._draw_stock(state, seat, events)
            else:
                self._take_discard(state, seat, events)
        card = state["drawn"] or self._auto_discard(state, seat)
        self._discard(state, seat, card, events)

    def _auto_discard(self, state: State, seat: int) -> str:
        hand = state["hands"][seat]
        wild, ace_high = self.wild_rank(state), state["options"]["ace_high"]
        allowed = [c for c in hand if c != state["taken"] or hand.count(c) > 1]

        def key(card: str) -> tuple[int, int, int]:
            r = rank_of(card)
            rank = 14 if ace_high and r == 1 else r
            suit = -suit_of(card) if r else 0  # S before H before D before C
            return (card_value(card, wild, ace_high), rank, suit)

        return max(allowed, key=key)

    # ---- round and match end -----------------------------------------------------------------

    def _end_round(self, state: State, events: list[Event]) -> None:
        """T13-41..45: the player out scores 0, everyone else their deadwood; totals; match end."""
        opts = state["options"]
        wild = self.wild_rank(state)
        out = state["out"]
        revealed, scores, dead = [], [], []
        for seat, hand in enumerate(state["hands"]):
            arr = arrange(hand, wild, opts["ace_high"])
            revealed.append(
                {
                    "hand": sorted_cards(hand),
                    "melds": [list(m) for m in arr.melds],
                    "deadwood_cards": list(arr.deadwood_cards),
                    "deadwood_values": [card_value(c, wild, opts["ace_high"]) for c in arr.deadwood_cards],
                }
            )
            dead.append(arr.deadwood)
            scores.append(0 if seat == out else arr.deadwood)
        state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append(scores)
        state["turn"] = None
        state["phase"] = None
        over: dict[str, Any] = {
            "out": out,
            "scores": scores,
            "deadwood": dead,
            "wild_rank": wild,
            "revealed": revealed,
        }
        state["round_over"] = over
        events.append(
            Event(
                "RoundScored",
                {
                    "round": state["round"],
                    "out": out,
                    "wild_rank": wild,
                    "scores": scores,
                    "deadwood": dead,
                    "revealed": clone(revealed),
                    "totals": list(state["totals"]),
                },
            )
        )
        if state["round"] >= opts["rounds"]:  # T13-50/51: a tie for the lowest total: nobody wins
            leaders = match_leaders(state["totals"])
            state["match_over"] = True
            state["match_winners"] = leaders if len(leaders) == 1 else []
            over["tied"] = leaders if len(leaders) > 1 else []
            events.append(
                Event(
                    "MatchEnded",
                    {"winners": list(state["match_winners"]), "tied": list(over["tied"]),
                     "totals": list(state["totals"])},
                )
            )

    # ---- views (rules/three_thirteen/views.py) ---------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return public_view(state, self.name, self.current_seat(state))

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return seat_view(state, seat, public)

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def help_text(self) -> list[tuple[str, str]]:
        return [
            ("draw", "help.three_thirteen.draw"),
            ("take", "help.three_thirteen.take"),
            ("discard 10H", "help.three_thirteen.discard"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        view = self.public_view(state)
        view["you"] = seat
        view.update(seat_view(state, seat, view, hint=False))  # `view`, less the hint the AI never reads
        return policy_for(POLICIES, level)(view, rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.ai_action(state, seat, rng)  # the spec names no policy for absent players (T13-29 is the timer)


def _card_for_deck(token: str) -> str:
    try:
        return parse_card(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a card") from err


ENGINE = ThreeThirteenEngine()
