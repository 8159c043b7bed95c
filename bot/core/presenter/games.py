"""What adapters may know of the games, without importing rules/: the games there are, their seat
counts and options, whose turn it is, the views and legal moves of a stored table, the refusal type,
a move tried without committing it, a Rummikub layout judged by the rules' draft view, and a
finished match rebuilt step by step from its log (the web table's replay)."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.options_text import bad_option
from rules import Event, IllegalAction, SetupError, State, engine_names, get_engine
from rules.core.engine import GameOptions, RoundResult
from rules.core.hints import Hint
from rules.core.moves import MoveTemplate
from rules.core.staging import StageReport
from rules.rummikub.views import draft_view
from storage import LogEntry, TableRecord


def games() -> list[str]:
    return engine_names()


def canonical(game: str) -> str:
    """The game's own name for a name it answers to (`KeyError` naming the games otherwise)."""
    return get_engine(game).name


def max_seats(game: str) -> int:
    return get_engine(game).max_seats


def seat_range(game: str) -> tuple[int, int]:
    engine = get_engine(game)
    return engine.min_seats, engine.max_seats


def options_model(game: str) -> type[GameOptions]:
    """The game's options (pydantic): what the lobby's option screens offer."""
    return get_engine(game).options_model


def read_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option as the game reads `options` (defaults filled in); a refused one is
    `ServiceError("E_BAD_OPTION")` with what its sentence needs."""
    engine = get_engine(game)
    try:
        return engine.options_model.parse_options(options).model_dump()
    except SetupError as err:
        raise bad_option(err, engine) from None


def dealt_view(game: str, players: int, seed: int = 0) -> dict[str, Any]:
    """The public view of a fresh deal for `players` (what a table of that size starts with)."""
    engine = get_engine(game)
    return engine.view(engine.new_game(players, seed=seed), None)


def turn_of(rec: TableRecord) -> int | None:
    """Whose turn it is in a stored table (None outside play)."""
    if rec.state is None or rec.status != "playing":
        return None
    return get_engine(rec.game).current_seat(rec.state)


def view_of(rec: TableRecord, seat: int | None) -> dict[str, Any]:
    """A seat's view of a stored table (None: the public's); {} before the deal."""
    return get_engine(rec.game).view(rec.state, seat) if rec.state is not None else {}


def moves_of(rec: TableRecord, view: dict[str, Any]) -> list[MoveTemplate]:
    return get_engine(rec.game).moves(view)


def stage_report(game: str, view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
    """The engine's word on staged melds (issue 25), from the seat's view alone."""
    return get_engine(game).stage_report(view, groups)


SUGGESTIONS_KEPT = 512  # views whose suggestions are kept: a hand is drawn again at every pick


_suggestions: OrderedDict[tuple[str, str], list[tuple[str, Hint]]] = OrderedDict()


def suggested(game: str, view: dict[str, Any]) -> list[tuple[str, Hint]]:
    """The engine's suggested moves for the seat whose view this is, each with its command text (the
    game's grammar: what the press sends), in the engine's order. The engine's search runs once per
    view: the hand is drawn again at every press that changes only the screen (a pick, a staging),
    and a press is decoded against the same view, so those are answered from the last views'."""
    key = (game, json.dumps(view, sort_keys=True, default=str))
    found = _suggestions.get(key)
    if found is None:
        engine = get_engine(game)
        found = [(engine.format(h.action), h) for h in engine.suggestions(view)]
        _suggestions[key] = found
        if len(_suggestions) > SUGGESTIONS_KEPT:
            _suggestions.popitem(last=False)
    else:
        _suggestions.move_to_end(key)
    return list(found)


def refusal(rec: TableRecord, seat: int, text: str) -> IllegalAction | None:
    """What the engine would answer `text` from `seat` on the stored table, nothing committed
    (`apply` works on a copy): None when the move would be accepted."""
    engine = get_engine(rec.game)
    try:
        engine.apply(rec.state or {}, seat, engine.parse(text))
    except IllegalAction as err:
        return err
    return None


def drafted(rec: TableRecord, layout: Sequence[Sequence[str]]) -> dict[str, Any]:
    """A Rummikub table laid out as `layout`, judged by the rules' own draft view (RK-26): each
    meld valid or not with its reason, and `new_value`, the value of the melds not kept as they
    stood on the table (only those count toward the opening)."""
    state = rec.state or {}
    return draft_view({**state, "draft": {"table": [{"tiles": list(m), "prefix": None} for m in layout], "rack": []}})


@dataclass(frozen=True)
class Step:
    """One step of a replayed match: the state after it, what happened, and who acted (None: the
    deal, a new round)."""

    state: State
    events: tuple[Event, ...]
    seat: int | None


@dataclass(frozen=True)
class Told:
    """A stored log entry played again for the page's story: its seq, the step, and the round's
    result when the entry ended one (read before the next round is dealt)."""

    seq: int
    step: Step
    result: RoundResult | None = None


def first_state(rec: TableRecord) -> State:
    """The match's state before its first log entry: the deal from seed + options + deck."""
    return get_engine(rec.game).new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)


def told(game: str, state: State, log: Sequence[LogEntry]) -> tuple[State, list[Told]]:
    """The entries played on from `state`, each with its events as the outcome that stored it had
    them (a dealt round tells `NextRound`, as bot/core/automoves.py's end_of_round does)."""
    engine = get_engine(game)
    out: list[Told] = []
    for entry in log:
        if entry.kind == "start":
            continue
        result = None
        if entry.kind == "next_round":
            state = engine.next_round(state)
            events = [Event("NextRound", {"round": state.get("round"), "seat": engine.current_seat(state)})]
        else:
            state, events = engine.apply(state, entry.mover(), engine.parse(entry.text))
            if any(e.type == "RoundScored" for e in events):
                result = engine.result(state)
        out.append(Told(entry.seq, Step(state, tuple(events), entry.seat), result))
    return state, out


def replayed(rec: TableRecord, log: Sequence[LogEntry]) -> list[Step]:
    """The match again from seed + options + deck + its action log, the source of truth."""
    engine = get_engine(rec.game)
    state = engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
    steps = [Step(state, (), None)]
    for entry in log:
        if entry.kind == "start":
            continue
        events: list[Event]
        if entry.kind == "next_round":
            state, events = engine.next_round(state), []
        else:
            state, events = engine.apply(state, entry.mover(), engine.parse(entry.text))
        steps.append(Step(state, tuple(events), entry.seat))
    return steps


def step_view(game: str, state: State, seat: int | None) -> dict[str, Any]:
    """A seat's view (None: the public's) of a state that is not stored (a replay step)."""
    return get_engine(game).view(state, seat)


__all__ = ["Event", "IllegalAction", "MoveTemplate", "RoundResult", "SetupError", "State", "Step", "Told", "canonical",
           "dealt_view", "drafted", "first_state", "games",
           "max_seats", "moves_of", "options_model", "read_options", "refusal", "replayed", "seat_range", "stage_report",
           "step_view", "suggested", "told", "turn_of", "view_of"]
