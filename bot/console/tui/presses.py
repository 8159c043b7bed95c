"""The hand pane's staging and suggestion presses (issue 25's seam, as the chats have them): `+`
stages the picks as a meld of a compound move, a staged meld goes back to the hand by its number,
`-` clears the staging, and a suggested move is sent as the command the engine's suggestion list
names for this table version. The presses mean what they mean on every platform
(bot/core/presenter/press.py); a press that no longer fits the table changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.console.tui.table import TuiTable
from bot.core.codec import CodecError
from bot.core.presenter import HandUI
from bot.core.presenter import press as presses


async def _screen(table: TuiTable, change: Callable[[HandUI], HandUI]) -> None:
    async with table.busy:
        seat = table.seat
        if table.rec is None or seat is None or table.view_and_moves() is None:
            return
        ui = await table.uis.get(table.rec.id, seat)
        try:
            await table.uis.put(table.rec.id, seat, change(ui))
        except CodecError:
            return  # a stale key (the table moved on): nothing changes


async def stage(table: TuiTable) -> None:
    """The picks, in pick order, become the next staged meld."""
    def change(ui: HandUI) -> HandUI:
        found = table.view_and_moves()
        assert found is not None
        return presses.stage(ui, found[0], found[1])
    await _screen(table, change)


async def unstage(table: TuiTable, number: int) -> None:
    """Staged meld `number` (from 1) back to the hand."""
    await _screen(table, lambda ui: presses.unstage(ui, number))


async def unstage_all(table: TuiTable) -> None:
    """Every staged meld back to the hand, the picks dropped."""
    await _screen(table, presses.clear)


async def suggestion(table: TuiTable, index: int) -> None:
    """Suggested move `index`, recomputed from the view (the engine's list is the same for a view)."""
    found = table.view_and_moves()
    if table.rec is None or found is None:
        return
    try:
        command = presses.suggestion(table.rec.game, found[0], index)
    except CodecError:
        return
    await table.send(command)
