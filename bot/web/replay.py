"""A finished match move by move, rebuilt from the stored log (seed + options + deck + actions, the
source of truth) and shown as the public view, or a player's own view to that player. The steps
of a match never change once it is finished, so the last few replayed matches are kept."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.core.presenter import Presenter
from bot.core.render import render_events, render_hand
from rules import Event, State, get_engine
from storage import Store, TableRecord

KEPT = 8  # replayed matches kept in memory


@dataclass(frozen=True)
class Step:
    state: State
    events: tuple[Event, ...]
    seat: int | None  # who acted (None: the deal, a new round)


def rebuild(rec: TableRecord, log: list[Any]) -> list[Step]:
    engine = get_engine(rec.game)
    state = engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
    steps = [Step(state, (), None)]
    for entry in log:
        if entry.kind == "start":
            continue
        if entry.kind == "next_round":
            state, events = engine.next_round(state), []
        else:
            state, events = engine.apply(state, entry.seat, engine.parse(entry.text))
        steps.append(Step(state, tuple(events), entry.seat))
    return steps


@dataclass
class Replays:
    store: Store
    _kept: OrderedDict[str, list[Step]] = field(default_factory=OrderedDict)

    async def steps(self, rec: TableRecord) -> list[Step]:
        if rec.id in self._kept:
            self._kept.move_to_end(rec.id)
            return self._kept[rec.id]
        steps = rebuild(rec, await self.store.log(rec.id))
        self._kept[rec.id] = steps
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return steps


async def frame(replays: Replays, presenter: Presenter, rec: TableRecord, seat: int | None, lang: str,
                index: int) -> dict[str, Any]:
    """Step `index` (clamped) as `seat` sees it: the table, that seat's hand, what happened."""
    steps = await replays.steps(rec)
    index = max(0, min(index, len(steps) - 1))
    step = steps[index]
    engine = get_engine(rec.game)
    at = rec.model_copy(update={"state": step.state})
    view = engine.view(step.state, seat)
    public = view if seat is None else engine.view(step.state, None)
    panel = presenter.table(at, lang, public)
    return {
        "table": rec.id, "game": rec.game, "lang": lang, "seat": seat, "step": index, "steps": len(steps),
        "title": panel.title, "body": panel.body, "names": [s.name for s in rec.seats],
        "lines": render_events(at, list(step.events), seat, lang),
        "hand": render_hand(at, view, lang) if seat is not None else None,
    }
