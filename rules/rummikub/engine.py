"""The Rummikub engine: turn flow, draft, timeouts, empty-pool endings, scoring and matches.

State is a JSON-native dict (see `new_game`). `apply` works on a private copy, so a rejected
action can never leave a half-changed state behind.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError
from rules.core.hints import Hint
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.state import clone
from rules.core.tiles import parse_tile, sorted_tiles, tile_set
from rules.rummikub import draft as drafting
from rules.rummikub.actions import (
    AddTiles,
    Done,
    Draw,
    MoveTile,
    NewMeld,
    Pass,
    Play,
    Reset,
    Split,
    Timeout,
    ToRack,
    format_action,
    parse,
)
from rules.rummikub.changes import table_changes
from rules.rummikub.draft_view import draft_step
from rules.rummikub.hints import suggestions as suggested
from rules.rummikub.levels import POLICIES
from rules.rummikub.moves import moves as legal_moves
from rules.rummikub.options import RummikubOptions
from rules.rummikub.scoring import match_leaders, rack_value, score_empty_pool, score_going_out
from rules.rummikub.table_order import stable_table
from rules.rummikub.validate import meld_tiles, validate_play
from rules.rummikub.views import best_opening, draft_view, meld_view, rack_orders

RACK_SIZE = 14


class RummikubEngine(MatchEngine):
    name = "rummikub"
    title = "Rummikub"
    min_seats = 2
    max_seats = 4
    options_model = RummikubOptions
    hidden_zones = ("racks", "pool")

    # ---- setup -------------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State:
        self.check_seats(seats)
        opts = RummikubOptions.parse_options(options)
        if isinstance(opts.first_player, int) and opts.first_player > seats:
            raise SetupError(f"bad option first_player: seat {opts.first_player} but only {seats} players",
                             "seat", option="first_player", got=opts.first_player, lo=1, hi=seats)
        prefix = [parse_tile_for_deck(t) for t in deck] if deck else None
        if prefix is not None and len(prefix) > 104 + opts.jokers:
            raise SetupError("deck: longer than the tile set")
        if isinstance(opts.first_player, int):
            starter = opts.first_player - 1
        elif deck:
            starter = 0
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
        opts = state["options"]
        full = tile_set(jokers=opts["jokers"])
        prefix = state["deck"] if round_number == 1 else None
        tiles = build_deck(full, rng_for(state["seed"], "deal", round_number), prefix)
        racks, pool = deal_blocks(tiles, [RACK_SIZE] * state["seats"])
        state.update(
            round=round_number,
            starter=starter,
            turn=starter,
            pool=pool,
            racks=racks,
            table=[],
            opened=[False] * state["seats"],
            draft=None,
            passes=0,
            turns_left=None,
            round_over=None,
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = clone(state)
        self._deal(new, round_number=state["round"] + 1, starter=(state["starter"] + 1) % state["seats"])
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        tiles = list(state["pool"])
        for rack in state["racks"]:
            tiles.extend(rack)
        tiles.extend(meld_tiles(state["table"]).elements())
        return tiles

    def timeout_action(self, state: State) -> Action:
        return Timeout()

    def result(self, state: State) -> RoundResult | None:
        over = state["round_over"]
        if over is None:
            return None
        return RoundResult(
            round_scores=over["scores"],
            totals=list(state["totals"]),
            winners=over["winners"],
            match_over=state["match_over"],
            match_winners=list(state["match_winners"]),
            details={"reason": over["reason"], "rack_values": over["values"], "round": state["round"]},
        )

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:
            raise IllegalAction("E_NOT_YOUR_TURN", seat=seat)
        new = clone(state)
        events: list[Event] = []
        match action:
            case Play(melds=melds):
                layout = [{"tiles": list(m.tiles), "prefix": m.prefix} for m in melds]
                self._play(new, seat, layout, events)
            case Done():
                current = new["draft"] or drafting.start(new["table"], new["racks"][seat])
                self._play(new, seat, current["table"], events)
            case Draw():
                self._draw(new, seat, events)
            case Pass():
                self._pass(new, seat, events)
            case Timeout():
                self._timeout(new, seat, events)
            case NewMeld() | AddTiles() | MoveTile() | ToRack() | Split() | Reset():
                before = [list(m["tiles"]) for m in (new["draft"] or {"table": new["table"]})["table"]]
                self._edit_draft(new, seat, action)
                events.append(Event("DraftChanged", {"seat": seat, **draft_step(new, seat, before)}, seat=seat))
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Rummikub action")
        return new, events

    def _play(self, state: State, seat: int, layout: list[dict], events: list[Event]) -> None:
        opts = state["options"]
        accepted = validate_play(
            state["table"], state["racks"][seat], layout, state["opened"][seat], opts["initial_meld_min"]
        )
        rack = state["racks"][seat]
        for t in accepted.added:
            rack.remove(t)
        table = stable_table(state["table"], accepted.table, accepted.added)
        changes = table_changes(state["table"], table, accepted.added)
        state["table"] = table
        state["opened"][seat] = True
        state["draft"] = None
        events.append(
            Event(
                "MeldsPlayed",
                {"seat": seat, "added": accepted.added, "opened_now": accepted.opened_now, "rack_size": len(rack),
                 "changes": changes},
            )
        )
        if not rack:
            self._end_round(state, events, winner=seat)
            return
        state["passes"] = 0
        self._end_turn(state, seat, events)

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        if not state["pool"]:
            raise IllegalAction("E_DRAW_EMPTY_POOL")
        self._give(state, seat, 1, events, reason="draw")
        self._end_turn(state, seat, events)

    def _pass(self, state: State, seat: int, events: list[Event]) -> None:
        if state["pool"]:
            raise IllegalAction("E_PASS_NOT_ALLOWED", pool=len(state["pool"]))
        events.append(Event("Passed", {"seat": seat}))
        self._count_pass(state, seat, events)

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """RK-23: the table stays as it was; penalty tiles, or a pass when the pool is empty."""
        penalty = state["options"]["timeout_penalty_tiles"]
        if not state["pool"]:
            events.append(Event("TimedOut", {"seat": seat, "penalty": 0}))
            self._count_pass(state, seat, events)
            return
        count = min(penalty, len(state["pool"]))
        events.append(Event("TimedOut", {"seat": seat, "penalty": count}))
        if count:
            self._give(state, seat, count, events, reason="timeout")
        self._end_turn(state, seat, events)

    def _count_pass(self, state: State, seat: int, events: list[Event]) -> None:
        state["passes"] += 1
        if state["options"]["empty_pool_end"] == "blocked" and state["passes"] >= state["seats"]:
            self._end_round(state, events, winner=None)
            return
        self._end_turn(state, seat, events)

    def _give(self, state: State, seat: int, count: int, events: list[Event], reason: str) -> None:
        drawn, state["pool"] = state["pool"][:count], state["pool"][count:]
        state["racks"][seat].extend(drawn)
        events.append(Event("TileDrawn", {"seat": seat, "count": count, "reason": reason, "pool": len(state["pool"])}))
        events.append(Event("TilesReceived", {"tiles": drawn}, seat=seat))
        if not state["pool"] and state["options"]["empty_pool_end"] == "one_more_turn":
            # RK-62: everyone takes one more turn after this one, the drawer last.
            state["turns_left"] = state["seats"] + 1
        if not state["pool"]:
            state["passes"] = 0
            events.append(Event("PoolEmptied", {"seat": seat}))

    def _end_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state["draft"] = None
        if state["turns_left"] is not None:
            state["turns_left"] -= 1
            if state["turns_left"] <= 0:
                self._end_round(state, events, winner=None)
                return
        state["turn"] = (seat + 1) % state["seats"]
        events.append(Event("TurnStarted", {"seat": state["turn"]}))

    def _edit_draft(self, state: State, seat: int, action: Action) -> None:
        if isinstance(action, Reset):
            state["draft"] = None
            return
        current = state["draft"] or drafting.start(state["table"], state["racks"][seat])
        match action:
            case NewMeld(tiles=tiles, prefix=prefix):
                drafting.new_meld(current, tiles, prefix)
            case AddTiles(meld=meld, tiles=tiles):
                drafting.add_tiles(current, meld, tiles)
            case MoveTile(tile=tile, src=src, dst=dst):
                drafting.move_tile(current, tile, src, dst)
            case ToRack(tile=tile, src=src):
                drafting.to_rack(current, tile, src, state["racks"][seat])
            case Split(meld=meld, pos=pos):
                drafting.split(current, meld, pos)
        state["draft"] = current

    # ---- game and match end ------------------------------------------------------------------

    def _end_round(self, state: State, events: list[Event], winner: int | None) -> None:
        opts = state["options"]
        values = [rack_value(r, opts["joker_rack_penalty"]) for r in state["racks"]]
        if winner is not None:
            scores, winners, reason = score_going_out(values, winner), [winner], "out"
        else:
            scores, winners = score_empty_pool(values)
            reason = "empty_pool"
        state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append(scores)
        state["draft"] = None
        state["turn"] = None
        state["round_over"] = {"reason": reason, "winners": winners, "scores": scores, "values": values}
        events.append(
            Event(
                "RoundScored",
                {
                    "round": state["round"],
                    "reason": reason,
                    "winners": winners,
                    "scores": scores,
                    "values": values,
                    "racks": [sorted_tiles(r) for r in state["racks"]],
                    "totals": list(state["totals"]),
                },
            )
        )
        leaders = match_leaders(state["totals"])
        if state["round"] >= opts["match_games"] and (len(leaders) == 1 or opts["allow_draw"]):
            state["match_over"] = True
            state["match_winners"] = leaders
            events.append(Event("MatchEnded", {"winners": leaders, "totals": list(state["totals"])}))
        elif state["round"] >= opts["match_games"]:
            events.append(Event("TieBreakNeeded", {"leaders": leaders}))  # RK-82: one more game

    # ---- views -------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        """What everyone sees: never a rack while a game is in play, never the pool order or the seed."""
        over = state["round_over"]
        v: dict[str, Any] = {
            "game": self.name,
            "round": state["round"],
            "match_games": state["options"]["match_games"],
            "seats": state["seats"],
            "turn": self.current_seat(state),
            "table": [meld_view(m) for m in state["table"]],
            "pool": len(state["pool"]),
            "rack_sizes": [len(r) for r in state["racks"]],
            "opened": list(state["opened"]),
            "totals": list(state["totals"]),
            "initial_meld_min": state["options"]["initial_meld_min"],
            "empty_pool_end": state["options"]["empty_pool_end"],
            "passes": state["passes"],
            # How long the game still runs once the pool is empty (RK-61/62), for the table message.
            "passes_left": (
                state["seats"] - state["passes"]
                if not state["pool"] and state["options"]["empty_pool_end"] == "blocked"
                else None
            ),
            "turns_left": state["turns_left"],
            "round_over": clone(over) if over else None,
            "match_over": state["match_over"],
            "match_winners": list(state["match_winners"]),
        }
        if over:
            v["revealed_racks"] = [sorted_tiles(r) for r in state["racks"]]
        return v

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """`seat`'s rack, its draft while on turn, and before opening the best initial meld it holds."""
        rack = state["racks"][seat]
        by_colour, by_number = rack_orders(rack)
        return {
            "rack": by_colour,
            "rack_by_number": by_number,
            "draft": draft_view(state) if state["draft"] and state["turn"] == seat else None,
            # Before opening, the number that helps decide (cached by rack content: the search is the
            # dearest part of a view, and most turns leave a rack as it was).
            "best_opening": None if state["opened"][seat] else best_opening(rack),
        }

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        return suggested(view)

    def help_text(self) -> list[tuple[str, str]]:
        return [
            ("play r10 r11 r12 | k9 b9 y9", "help.rummikub.play"),
            ("draw", "help.rummikub.draw"),
            ("pass", "help.rummikub.pass"),
            ("new r5 r6 r7", "help.rummikub.new"),
            ("add 2 r8", "help.rummikub.add"),
            ("move k6 1 new", "help.rummikub.move"),
            ("split 1 3", "help.rummikub.split"),
            ("reset", "help.rummikub.reset"),
            ("done", "help.rummikub.done"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        return policy_for(POLICIES, level)(self.view(state, seat), rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.ai_action(state, seat, rng)  # the spec names no policy for absent players


def parse_tile_for_deck(token: str) -> str:
    try:
        return parse_tile(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a tile") from err


ENGINE = RummikubEngine()
