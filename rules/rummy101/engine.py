"""The Rummy 101 engine: deal, draw / take / Joker button, opening, melds, finishing, scoring, matches.

State is a JSON-native dict (see `_deal`). `apply` works on a private copy, so a rejected action can
never leave a half-changed state behind. Checks run in the fixed order of D-25 (R101-62), so the
reason code for an action that breaks several rules is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError
from rules.core.hints import Hint
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.staging import StageReport
from rules.core.state import clone
from rules.core.tiles import JOKER, parse_tile, sorted_tiles, tile_set
from rules.rummy101.actions import (
    Add,
    Discard,
    Draw,
    JokerButton,
    Meld,
    Open,
    Swap,
    Take,
    Timeout,
    format_action,
    parse,
)
from rules.rummy101.hints import suggestions as suggested
from rules.rummy101.levels import POLICIES
from rules.rummy101.moves import moves as legal_moves
from rules.rummy101.options import Rummy101Options
from rules.rummy101.scoring import match_leaders, multiplier, round_scores
from rules.rummy101.staging import stage_report as judge_staged
from rules.rummy101.uses import apply_use, canonical
from rules.rummy101.views import public_view, seat_view

HAND_SIZE = 21
SERIES_THRESHOLD, PAIRS_THRESHOLD = 101, 5
UNOPENED, SERIES, PAIRS = "unopened", "series", "pairs"


def _copy_state(state: State) -> State:
    """A copy sharing nothing mutable with `state`, built per field: `apply` runs this on every
    action, and a generic deep copy was the engine's largest cost."""
    new = dict(state)
    for key in ("hands", "history"):
        new[key] = [list(x) for x in state[key]]
    for key in ("stock", "discard", "status", "joker_used", "totals", "match_winners"):
        new[key] = list(state[key])
    new["table"] = [{**m, "tiles": list(m["tiles"])} for m in state["table"]]
    new["thresholds"] = dict(state["thresholds"])
    new["options"] = dict(state["options"])
    new["deck"] = None if state["deck"] is None else list(state["deck"])
    new["round_over"] = clone(state["round_over"])
    return new


class Rummy101Engine(MatchEngine):
    name = "rummy101"
    title = "Rummy 101"
    min_seats = 2
    max_seats = 4
    options_model = Rummy101Options
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
        opts = Rummy101Options.parse_options(options)
        if isinstance(opts.first_player, int) and opts.first_player > seats:
            raise SetupError(f"bad option first_player: seat {opts.first_player} but only {seats} players",
                             "seat", option="first_player", got=opts.first_player, lo=1, hi=seats)
        prefix = [_deck_tile(t) for t in deck] if deck else None
        if prefix is not None and len(prefix) > 106:
            raise SetupError("deck: longer than the tile set")
        if isinstance(opts.first_player, int):
            starter = opts.first_player - 1
        elif deck:
            starter = 0  # R101-06: a stacked deck starts with P1
        else:
            starter = rng_for(seed, "starter").randrange(seats)
        state: State = {
            "game": self.name,
            "options": opts.model_dump(),
            "seed": seed,
            "deck": prefix,
            "seats": seats,
            "round": 0,
            "starter": starter,
            "totals": [0] * seats,
            "history": [],
            "match_over": False,
            "match_winners": [],
        }
        self._deal(state, round_number=1, starter=starter)
        return state

    def _deal(self, state: State, round_number: int, starter: int) -> None:
        """R101-07: blocks from P1 in seat order, the starter's block holds 22; the rest is the stock."""
        prefix = state["deck"] if round_number == 1 else None
        tiles = build_deck(tile_set(jokers=2), rng_for(state["seed"], "deal", round_number), prefix)
        sizes = [HAND_SIZE + (1 if s == starter else 0) for s in range(state["seats"])]
        hands, stock = deal_blocks(tiles, sizes)
        state.update(
            round=round_number,
            starter=starter,
            turn=starter,
            phase="play",  # R101-12: the starter's first turn has no DRAW
            first_turn=True,
            hands=hands,
            stock=stock,
            discard=[],
            takable=False,
            table=[],
            status=[UNOPENED] * state["seats"],
            thresholds={"series": SERIES_THRESHOLD, "pairs": PAIRS_THRESHOLD},
            joker_used=[False] * state["seats"],
            opened_before_turn=False,
            last_stock=False,
            round_over=None,
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = clone(state)
        # R101-55: everything but the scoreboard resets; the starter moves one seat on.
        self._deal(new, round_number=state["round"] + 1, starter=(state["starter"] + 1) % state["seats"])
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        tiles = list(state["stock"]) + list(state["discard"])
        for hand in state["hands"]:
            tiles.extend(hand)
        for meld in state["table"]:
            tiles.extend(meld["tiles"])
        return tiles

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
                "round": state["round"],
                "multiplier": over["multiplier"],
                "joker_finish": over["joker_finish"],
                "one_turn": over["one_turn"],
                "hand_values": over["values"],
                "penalties": over["bases"],
                "statuses": over["statuses"],
            },
        )

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:
            raise IllegalAction("E_NOT_YOUR_TURN", seat=seat)
        new = _copy_state(state)
        events: list[Event] = []
        match action:
            case Draw():
                self._draw(new, seat, events)
            case JokerButton():
                self._joker_button(new, seat, events)
            case Take(use=use):
                self._take(new, seat, use, events)
            case Open() | Meld() | Add() | Swap():
                if new["phase"] != "play":
                    raise IllegalAction("E_PHASE", phase=new["phase"], action=format_action(action).split()[0])
                apply_use(new, seat, action, None, events)
            case Discard(tile=tile):
                self._discard(new, seat, tile, events)
            case Timeout():
                self._timeout(new, seat, events)
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Rummy 101 action")
        return new, events

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        if state["phase"] != "draw" or not state["stock"]:
            raise IllegalAction("E_PHASE", phase=state["phase"], action="draw")
        tile = state["stock"].pop(0)
        state["hands"][seat].append(tile)
        state["phase"], state["takable"] = "play", False
        events.append(Event("TileDrawn", {"seat": seat, "stock": len(state["stock"])}))
        events.append(Event("TileReceived", {"tile": tile}, seat=seat))
        if not state["stock"]:
            state["last_stock"] = True  # R101-47: this turn is the round's last unless it finishes
            events.append(Event("StockEmptied", {"seat": seat}))

    def _joker_button(self, state: State, seat: int, events: list[Event]) -> None:
        """R101-19: a new joker, created outside the stock, as this turn's draw."""
        if state["phase"] != "draw":
            raise IllegalAction("E_JOKER_BUTTON", why="phase")
        if state["options"]["joker_button"] != "on":
            raise IllegalAction("E_JOKER_BUTTON", why="off")
        if state["joker_used"][seat]:
            raise IllegalAction("E_JOKER_BUTTON", why="used")
        state["hands"][seat].append(JOKER)
        state["joker_used"][seat] = True
        state["phase"], state["takable"] = "play", False
        events.append(Event("JokerButtonPressed", {"seat": seat}))

    def _take(self, state: State, seat: int, use: Action | None, events: list[Event]) -> None:
        if state["phase"] != "draw":
            raise IllegalAction("E_PHASE", phase=state["phase"], action="take")
        if not state["takable"] or not state["discard"]:
            raise IllegalAction("E_TAKE_UNAVAILABLE")
        top = state["discard"][-1]
        if use is None:
            raise IllegalAction("E_TAKE_UNUSED", tile=top)
        apply_use(state, seat, use, top, events)
        state["discard"].pop()
        state["phase"], state["takable"] = "play", False

    # ---- discard, timeout, turn and round end ------------------------------------------------------------

    def _discard(self, state: State, seat: int, tile: str, events: list[Event]) -> None:
        if state["phase"] != "play":
            raise IllegalAction("E_PHASE", phase=state["phase"], action="discard")
        canonical([tile])
        hand = state["hands"][seat]
        if tile not in hand:
            raise IllegalAction("E_NOT_IN_HAND", tiles=[tile])
        hand.remove(tile)
        state["discard"].append(tile)
        state["takable"] = True
        events.append(Event("Discarded", {"seat": seat, "tile": tile, "hand": len(hand)}))
        if not hand:
            # R101-46: a one-turn finish needs that nobody had opened before this turn.
            self._end_round(state, events, seat, tile == JOKER, not state["opened_before_turn"])
        elif state["last_stock"]:
            self._end_round(state, events, None, False, False)  # R101-47
        else:
            self._next_turn(state, seat, events)

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """R101-49: draw if not drawn yet, never meld, discard the highest numbered tile."""
        events.append(Event("TimedOut", {"seat": seat}))
        if state["phase"] == "draw":
            self._draw(state, seat, events)
        self._discard(state, seat, auto_discard(state["hands"][seat]), events)

    def _next_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state["turn"] = (seat + 1) % state["seats"]
        state["phase"], state["first_turn"] = "draw", False
        state["opened_before_turn"] = any(s != UNOPENED for s in state["status"])
        events.append(Event("TurnStarted", {"seat": state["turn"]}))

    def _end_round(self, state: State, events: list[Event], winner: int | None, joker: bool, one_turn: bool) -> None:
        m = multiplier(joker, one_turn) if winner is not None else 1
        scores, values, bases = round_scores(state["status"], state["hands"], winner, m)
        state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append(scores)
        state["turn"] = None
        reason = "stock" if winner is None else "finish"
        state["round_over"] = {
            "reason": reason,
            "winners": [] if winner is None else [winner],
            "scores": scores,
            "values": values,
            "bases": bases,
            "multiplier": m,
            "joker_finish": joker,
            "one_turn": one_turn,
            "statuses": list(state["status"]),
        }
        events.append(
            Event(
                "RoundScored",
                {
                    "round": state["round"],
                    "reason": reason,
                    "winners": list(state["round_over"]["winners"]),
                    "joker_finish": joker,
                    "one_turn": one_turn,
                    "multiplier": m,
                    "statuses": list(state["status"]),
                    "revealed": [sorted_tiles(h) for h in state["hands"]],
                    "values": values,
                    "bases": bases,
                    "scores": scores,
                    "totals": list(state["totals"]),
                },
            )
        )
        opts = state["options"]
        leaders = match_leaders(state["totals"])
        if state["round"] >= opts["match_rounds"] and (len(leaders) == 1 or opts["allow_draw"]):
            state["match_over"] = True
            state["match_winners"] = leaders
            events.append(Event("MatchEnded", {"winners": leaders, "totals": list(state["totals"])}))
        elif state["round"] >= opts["match_rounds"]:
            events.append(Event("TieBreakNeeded", {"leaders": leaders}))  # R101-61: one more round

    # ---- views (rules/rummy101/views.py) ------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return public_view(state, self.name, self.current_seat(state))

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return seat_view(state, seat, self.apply)

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def stage_report(self, view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
        return judge_staged(view, groups)

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        return suggested(view)

    def help_text(self) -> list[tuple[str, str]]:
        # Every example parses; chat adapters also turn the simple ones into buttons.
        return [
            ("draw", "help.rummy101.draw"),
            ("joker", "help.rummy101.joker"),
            ("take meld [r6 r7 r8]", "help.rummy101.take"),
            ("open r10 j=r11 r12 | k11 b11 y11 j=11 | b9 b10 b11", "help.rummy101.open"),
            ("open r5 r5 | b7 b7 | k9 j | y1 y1 | r13 r13", "help.rummy101.open_pairs"),
            ("meld r3 r4 r5", "help.rummy101.meld"),
            ("add 3 r6", "help.rummy101.add"),
            ("swap 2 r11", "help.rummy101.swap"),
            ("discard k2", "help.rummy101.discard"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        view = self.public_view(state)
        view["you"] = seat
        view.update(seat_view(state, seat, None))  # `view`, less the take hint the AI never reads
        return policy_for(POLICIES, level)(view, rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.timeout_action(state)  # R101-48/49: an away player's turns are auto-played


def auto_discard(hand: list[str]) -> str:
    """R101-49: the highest numbered tile (ties r, b, k, y); a joker only if nothing else is left."""
    numbered = [t for t in hand if t != JOKER]
    if not numbered:
        return JOKER
    return min(numbered, key=lambda t: (-int(t[1:]), "rbky".index(t[0])))


def _deck_tile(token: str) -> str:
    try:
        return parse_tile(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a tile") from err


ENGINE = Rummy101Engine()
