"""The moves a table makes by itself (AI seats, seats whose player is away), as a pure function.

`play_automatic(job)` depends on its argument only: the game, the state, each seat's kind, level
and away flag, the seed and the log position. An AI's randomness is `rng_for(seed, "ai", n)`, n
being the number of log entries before the move, so the same job gives the same moves in this
process, in a worker process (bot/core/ai_pool.py) or after a crash in another bot process. Jobs
and their answers are plain picklable data for that reason. `views_of` builds an outcome's views
there as well.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules import Engine, Event, IllegalAction, RoundResult, State, get_engine
from rules.core.deck import rng_for


@dataclass(frozen=True)
class SeatPlay:
    """What the automatic moves need of a seat."""

    kind: str  # "human" or "ai"
    level: str = "normal"
    away: bool = False


@dataclass(frozen=True)
class AutoJob:
    game: str
    state: State
    seats: tuple[SeatPlay, ...]
    seed: int
    log_seq: int  # the table's last stored log position (entries so far)
    limit: int  # at most this many moves (a chunk: one commit's worth)
    # With these seats, the views of the table as the run leaves it, when it ends there (a human on
    # turn, the match over): one trip to a worker for the moves and their views.
    views_for: tuple[int, ...] | None = None


@dataclass
class AutoRun:
    """What a job played: the state after it, the log lines to store, what happened."""

    state: State
    moves: list[tuple[str, int | None, str]] = field(default_factory=list)  # (kind, seat, text), in log order
    events: list[Event] = field(default_factory=list)
    results: list[RoundResult] = field(default_factory=list)
    finished: bool = False  # the match ended
    played: int = 0  # automatic moves, the deals between them not counted
    views: tuple[dict[str, Any], dict[int, dict[str, Any]]] | None = None  # see AutoJob.views_for


@functools.cache
def _engine(game: str) -> Engine:
    # get_engine goes through importlib on every call; a worker plays the same few games all day.
    return get_engine(game)


class PlaysSeat(Protocol):
    """A seat as far as whether the table plays it itself: a SeatPlay, or the stored SeatRecord
    (the service asks about those directly, without building SeatPlays first)."""

    @property
    def kind(self) -> str: ...
    @property
    def away(self) -> bool: ...


def automatic_seat(engine: Engine, seats: Sequence[PlaysSeat], state: State) -> int | None:
    """The seat on turn if the table plays it itself (an AI, or a player who is away)."""
    seat = engine.current_seat(state)
    if seat is None:
        return None
    s = seats[seat]
    return seat if s.kind == "ai" or s.away else None


def end_of_round(engine: Engine, state: State) -> tuple[State, RoundResult | None, Event | None]:
    """After a move: the round's result if it ended, and the next round dealt unless the match is
    over (then the event is None and the state unchanged)."""
    result = engine.result(state)
    if result is None or result.match_over:
        return state, result, None
    state = engine.next_round(state)
    return state, result, Event("NextRound", {"round": state.get("round"), "seat": engine.current_seat(state)})


def views_of(game: str, state: State, humans: tuple[int, ...]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The public view and each human seat's (`Engine.views`): pure too, and for some games as dear
    as an AI move (Rummy 101's opening search for a seat that has not opened)."""
    return _engine(game).views(state, humans)


def play_automatic(job: AutoJob) -> AutoRun:
    """Up to `job.limit` automatic moves, until a present human is on turn or the match ends."""
    engine = _engine(job.game)
    state = job.state
    run = AutoRun(state=state)
    while run.played < job.limit and not run.finished:
        seat = automatic_seat(engine, job.seats, state)
        if seat is None:
            break
        # Keyed by the log entries before the move, as when every move was its own commit.
        rng = rng_for(job.seed, "ai", job.log_seq + len(run.moves))
        try:
            if job.seats[seat].kind == "ai":
                action = engine.ai_action(state, seat, rng, job.seats[seat].level)
            else:  # a player who is away: the game's stand-in (AI or the spec's auto-play)
                action = engine.stand_in_action(state, seat, rng)
            state, events = engine.apply(state, seat, action)
        except IllegalAction:
            # An AI bug must not stall the table: the timeout rule is always legal.
            action = engine.timeout_action(state)
            state, events = engine.apply(state, seat, action)
        run.events.extend(events)
        run.moves.append(("ai", seat, engine.format(action)))
        run.played += 1
        state, result, dealt = end_of_round(engine, state)
        if result is not None:
            run.results.append(result)
            run.finished = result.match_over
        if dealt is not None:
            run.moves.append(("next_round", None, "next_round"))
            run.events.append(dealt)
    run.state = state
    if job.views_for is not None and (run.finished or automatic_seat(engine, job.seats, state) is None):
        run.views = engine.views(state, job.views_for)
    return run
