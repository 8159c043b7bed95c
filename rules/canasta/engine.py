"""The Tile Canasta engine: the 14/15 deal with bonus threes, team melds and opening, the pile take,
going out, stock exhaustion, the Joker button, auto-play, team scoring and matches.

State is a JSON-native dict (see `new_game`). `apply` works on a private copy, so a rejected action
can never leave a half-changed state behind.

The stock is stored in two parts (`rules.canasta.stock`): its regular tiles in draw order, and the
bonus threes in it with their positions, because a bonus three is revealed publicly when drawn
(CAN-14) while the next regular tile is secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta import views
from rules.canasta.actions import (
    Add,
    Discard,
    Draw,
    JokerButton,
    Meld,
    Open,
    TakePile,
    Timeout,
    format_action,
    parse,
)
from rules.canasta.hints import suggestions as suggested
from rules.canasta.laying import add_tiles, check_in_hand, lay_melds, open_melds, require_play, take_pile
from rules.canasta.levels import POLICIES
from rules.canasta.moves import moves as legal_moves
from rules.canasta.options import CanastaOptions
from rules.canasta.scoring import SEATS, TEAMS, end_round, team_of, threshold
from rules.canasta.staging import stage_report as judge_staged
from rules.canasta.stock import pop_stock, split_stock, stock_count
from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError
from rules.core.hints import Hint
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.staging import StageReport
from rules.core.state import clone
from rules.core.tiles import parse_tile, tile_set

HAND_SIZE = 14


# Keys of the state that hold a flat list (of tiles, flags or numbers): copied with one slice.
_FLAT_LISTS = ("stock", "pile", "opened", "thresholds", "joker_used", "totals", "ledger", "match_winners")


def _clone_state(state: State) -> State:
    """A deep copy of a state, written for its known shape (the generic `clone` covers the rest):
    `apply` copies the state on every call, and this is several times faster."""
    new = dict(state)
    new["hands"] = [h[:] for h in state["hands"]]
    new["stock_threes"] = [e[:] for e in state["stock_threes"]]
    new["melds"] = [{n: ts[:] for n, ts in team.items()} for team in state["melds"]]
    new["bonus"] = [z[:] for z in state["bonus"]]
    new["history"] = [r[:] for r in state["history"]]
    new["options"] = dict(state["options"])
    for key in _FLAT_LISTS:
        new[key] = state[key][:]
    for key in ("deck", "round_over"):
        new[key] = clone(state[key])
    return new


class CanastaEngine(MatchEngine):
    name = "canasta"
    title = "Tile Canasta"
    min_seats = SEATS
    max_seats = SEATS
    options_model = CanastaOptions
    hidden_zones = ("hands", "stock")

    # ---- setup -------------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State:
        if seats != SEATS:
            raise SetupError(f"seats: Tile Canasta takes exactly 4 players in two teams, not {seats}")
        opts = CanastaOptions.parse_options(options)
        prefix = [_deck_tile(t) for t in deck] if deck else None
        if prefix is not None and len(prefix) > 106:
            raise SetupError("deck: longer than the tile set")
        if isinstance(opts.first_dealer, int):
            dealer = opts.first_dealer - 1
        elif deck:
            dealer = 0  # CAN-07: a stacked deck deals from P1, so P2 starts
        else:
            dealer = rng_for(seed, "dealer").randrange(SEATS)
        state: State = {
            "game": self.name,
            "options": opts.model_dump(),
            "seed": seed,
            "deck": prefix,
            "seats": SEATS,
            "round": 0,
            "totals": [0, 0],
            "history": [],
            "match_over": False,
            "match_winners": [],
            "ledger": [0] * SEATS,
        }
        self._deal(state, 1, dealer)
        return state

    def _deal(self, state: State, round_number: int, dealer: int) -> None:
        prefix = state["deck"] if round_number == 1 else None
        tiles = build_deck(tile_set(jokers=2), rng_for(state["seed"], "deal", round_number), prefix, _deck_tile)
        starter = (dealer + 1) % SEATS
        hands, stock = deal_blocks(tiles, [HAND_SIZE + (s == starter) for s in range(SEATS)])
        bonus: list[list[str]] = [[], []]
        # CAN-09: in turn order from the starter, bonus threes go to the team zone and are replaced
        # from the stock front, again while replacements are bonus threes.
        for i in range(SEATS):
            seat = (starter + i) % SEATS
            hand = hands[seat]
            while True:
                threes = [t for t in hand if m.is_bonus_three(t)]
                if not threes:
                    break
                for t in threes:
                    hand.remove(t)
                    bonus[team_of(seat)].append(t)
                hand.extend(stock[: len(threes)])
                del stock[: len(threes)]
        regular, stock_threes = split_stock(stock)
        state.update(
            round=round_number,
            dealer=dealer,
            starter=starter,
            turn=starter,
            phase="play",  # CAN-13: the starter's first turn has no DRAW
            first_turn=True,
            hands=hands,
            stock=regular,
            stock_threes=stock_threes,
            pile=[],
            melds=[{}, {}],
            bonus=bonus,
            opened=[False, False],
            thresholds=[threshold(t) for t in state["totals"]],
            joker_used=[False] * SEATS,
            extra_jokers=0,
            exhausted=False,
            round_over=None,
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = clone(state)
        self._deal(new, state["round"] + 1, (state["dealer"] + 1) % SEATS)  # CAN-63
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        tiles = list(state["stock"]) + [t for _, t in state["stock_threes"]] + list(state["pile"])
        for hand in state["hands"]:
            tiles.extend(hand)
        for team in range(2):
            tiles.extend(state["bonus"][team])
            for meld in state["melds"][team].values():
                tiles.extend(meld)
        return tiles

    def timeout_action(self, state: State) -> Action:
        return Timeout()

    def result(self, state: State) -> RoundResult | None:
        over = state["round_over"]
        if over is None:
            return None
        return RoundResult(
            round_scores=[over["scores"][team_of(s)] for s in range(SEATS)],
            totals=[state["totals"][team_of(s)] for s in range(SEATS)],
            winners=list(over["winners"]),
            match_over=state["match_over"],
            match_winners=list(state["match_winners"]),
            teams=[list(t) for t in TEAMS],
            details={
                "round": state["round"],
                "reason": over["reason"],
                "out": over["out"],
                "teams": clone(over["teams"]),
                "team_scores": list(over["scores"]),
                "team_totals": list(state["totals"]),
                "ledger": list(state["ledger"]),
                "drawn": over.get("drawn", False),
            },
        )

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:
            raise IllegalAction("E_NOT_YOUR_TURN", seat=seat)
        new = _clone_state(state)
        events: list[Event] = []
        match action:
            case Draw():
                self._draw(new, seat, events)
            case JokerButton():
                self._joker(new, seat, events)
            case TakePile():
                take_pile(new, seat, action, events)
            case Open(melds=melds):
                open_melds(new, seat, melds, events)
            case Meld(melds=melds):
                lay_melds(new, seat, melds, events)
            case Add():
                add_tiles(new, seat, action, events)
            case Discard(tile=tile):
                self._discard(new, seat, tile, events)
            case Timeout():
                self._timeout(new, seat, events)
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Canasta action")
        return new, events

    # DRAW phase -------------------------------------------------------------------------------

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        if state["phase"] != "draw":
            raise IllegalAction("E_PHASE", phase=state["phase"], action="draw")
        self._draw_tile(state, seat, events, reason="draw")

    def _draw_tile(self, state: State, seat: int, events: list[Event], reason: str) -> None:
        """One regular tile from the stock; bonus threes met on the way go to the team zone
        (CAN-14); the draw that empties the stock triggers its exhaustion (CAN-52)."""
        team = team_of(seat)
        revealed: list[str] = []
        while True:
            tile = pop_stock(state)
            if m.is_bonus_three(tile):
                state["bonus"][team].append(tile)
                revealed.append(tile)
                if stock_count(state) == 0:
                    events.append(Event("BonusThrees", {"seat": seat, "team": team, "tiles": revealed}))
                    events.append(Event("StockExhausted", {"seat": seat, "at_once": True}))
                    end_round(state, events, out_seat=None)
                    return
                continue
            break
        state["hands"][seat].append(tile)
        state["phase"] = "play"
        state["first_turn"] = False
        if revealed:
            events.append(Event("BonusThrees", {"seat": seat, "team": team, "tiles": revealed}))
        events.append(Event("TileDrawn", {"seat": seat, "stock": stock_count(state), "reason": reason}))
        events.append(Event("TilesReceived", {"tiles": [tile]}, seat=seat))
        if stock_count(state) == 0:
            state["exhausted"] = True
            events.append(Event("StockExhausted", {"seat": seat, "at_once": False}))

    def _joker(self, state: State, seat: int, events: list[Event]) -> None:
        # D-24 (1): a press on one's own turn outside DRAW is E_JOKER_BUTTON, not E_PHASE.
        if state["options"]["joker_button"] != "on":
            raise IllegalAction("E_JOKER_BUTTON", reason="off", why="off")
        if state["phase"] != "draw":
            raise IllegalAction("E_JOKER_BUTTON", reason="phase", why="phase")
        if state["joker_used"][seat]:
            raise IllegalAction("E_JOKER_BUTTON", reason="used", why="used")
        state["joker_used"][seat] = True
        state["extra_jokers"] += 1
        state["hands"][seat].append(m.JOKER)
        state["phase"] = "play"
        events.append(Event("JokerCreated", {"seat": seat}))

    def _discard(self, state: State, seat: int, tile: str, events: list[Event]) -> None:
        require_play(state, "discard")
        hand, team = state["hands"][seat], team_of(seat)
        check_in_hand(hand, [tile])
        if len(hand) == 1 and not self._has_canasta(state, team):
            raise IllegalAction("E_NO_CANASTA", tile=tile)  # CAN-50
        hand.remove(tile)
        state["pile"].append(tile)
        out = not hand
        events.append(Event("Discarded", {"seat": seat, "tile": tile, "out": out}))
        if out:
            end_round(state, events, out_seat=seat)
        elif state["exhausted"]:
            end_round(state, events, out_seat=None)  # CAN-52: the drawer's turn was the last
        else:
            state["turn"] = (seat + 1) % SEATS
            state["phase"] = "draw"
            state["first_turn"] = False
            events.append(Event("TurnStarted", {"seat": state["turn"]}))

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """CAN-54/55: draw if not done (never the pile or the button), keep what was done, no melds,
        then the priority discard; a legal last-tile discard is an ordinary going out."""
        events.append(Event("AutoPlayed", {"seat": seat, "phase": state["phase"]}))
        if state["phase"] == "draw":
            self._draw_tile(state, seat, events, reason="auto")
            if state["round_over"] is not None:
                return
        # The hand floor (CAN-17) guarantees this discard is legal: ≥2 tiles, or a team canasta.
        self._discard(state, seat, auto_discard(state["hands"][seat]), events)

    # ---- round and match end -----------------------------------------------------------------

    @staticmethod
    def _has_canasta(state: State, team: int) -> bool:
        return any(len(t) >= m.CANASTA_SIZE for t in state["melds"][team].values())

    # ---- views -------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return views.seat_view(state, seat, public)

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def stage_report(self, view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
        return judge_staged(view, groups)

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        return suggested(view)

    def help_text(self) -> list[tuple[str, str]]:
        return [
            ("draw", "help.canasta.draw"),
            ("take with r13 k13 | r1 b1 y1", "help.canasta.take"),
            ("open r8 b8 k8 | r10 b10 j", "help.canasta.open"),
            ("meld r5 b5 k5 | r2 b2 j", "help.canasta.meld"),
            ("add 8 y8 r2", "help.canasta.add"),
            ("discard k3", "help.canasta.discard"),
            ("joker", "help.canasta.joker"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        return policy_for(POLICIES, level)(views.build_view(state, seat, hints=False), rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.timeout_action(state)  # CAN-54/55: an away player's turns are auto-played


def auto_discard(hand: list[str]) -> str:
    """CAN-55's discard: b3, then k3; then the cheapest natural (ties: lowest number, then colour);
    then a two before a joker."""
    for t in m.BLOCK_THREES:
        if t in hand:
            return t
    naturals = [t for t in hand if m.is_natural(t)]
    if naturals:
        return min(naturals, key=lambda t: (m.value(t), m.num(t), m.sort_key(t)))
    twos = [t for t in hand if m.is_two(t)]
    if twos:
        return min(twos, key=m.sort_key)
    return hand[0]


def _deck_tile(token: str) -> str:
    try:
        return parse_tile(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a tile") from err


ENGINE = CanastaEngine()
