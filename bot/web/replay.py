"""A finished match move by move, rebuilt from the stored log (seed + options + deck + actions, the
source of truth) and shown as the public view, or a player's own view to that player. The steps
of a match never change once it is finished, so the last few replayed matches are kept."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.core.grammar import hand_items
from bot.core.presenter import Presenter
from bot.core.presenter.games import Step, replayed, step_view
from bot.core.render import render_events, render_hand
from bot.web.board import board, item_piece
from storage import Store, TableRecord

KEPT = 8  # replayed matches kept in memory


@dataclass
class Replays:
    store: Store
    _kept: OrderedDict[str, list[Step]] = field(default_factory=OrderedDict)

    async def steps(self, rec: TableRecord) -> list[Step]:
        if rec.id in self._kept:
            self._kept.move_to_end(rec.id)
            return self._kept[rec.id]
        steps = replayed(rec, await self.store.log(rec.id))
        self._kept[rec.id] = steps
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return steps


async def frame(replays: Replays, presenter: Presenter, rec: TableRecord, seat: int | None, lang: str,
                index: int) -> dict[str, Any]:
    """Step `index` (clamped) as `seat` sees it: the table, that seat's hand, what happened — as text
    and as the pieces the live page draws (the card games' board, Rummikub's melds, the hand)."""
    steps = await replays.steps(rec)
    index = max(0, min(index, len(steps) - 1))
    step = steps[index]
    at = rec.model_copy(update={"state": step.state})
    view = step_view(rec.game, step.state, seat)
    public = view if seat is None else step_view(rec.game, step.state, None)
    panel = presenter.table(at, lang, public)
    names = [s.name for s in rec.seats]
    return {
        "table": rec.id, "game": rec.game, "lang": lang, "seat": seat, "step": index, "steps": len(steps),
        "title": panel.title, "body": panel.body, "names": names,
        "lines": render_events(at, list(step.events), seat, lang),
        "hand": render_hand(at, view, lang) if seat is not None else None,
        "board": board(rec.game, public, names, lang),
        "melds": [list(m["tiles"]) for m in public.get("table", [])] if rec.game == "rummikub" else None,
        "pieces": [item_piece(rec.game, code, view) for code in hand_items(view)] if seat is not None else None,
    }
