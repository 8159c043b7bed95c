"""The hand pane's layout: the presenter's `HandControls` as lines of clickable cells, each with the
key that presses it. Items get letters (a–z, then A–Z), buttons digits (1–9, 0); every cell is an
`@click` link to the same action as its key, so keys and the mouse do the same thing.

Laid out here, not by a widget per button, so a redraw after a move is one text build: the cells'
places are kept (`Layout.spots`) for the mouse tests. The controls are read field by field through
`control_rows`, one row per kind of control: the items, the engine's suggested moves (the AI's
play, one key away), the staging of a compound move (`+` stages the picks as a meld, a digit takes a
staged meld back, `-` clears them) and the moves, in the order the chats show them.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from textual.content import Content

from bot.console.colour import token_style, tokens
from bot.core.i18n import t
from bot.core.pictures.three_thirteen import wild_card
from bot.core.presenter import HandControls, HandPanel

ITEM_KEYS = string.ascii_lowercase + string.ascii_uppercase
BUTTON_KEYS = "1234567890"
STAGE_KEY = "+"  # the picks become a staged meld
UNSTAGE_ALL_KEY = "-"  # every staged meld back to the hand
GAP = "  "
SELECTED = "▸"  # a picked item reads as picked without colour too (UX.md: never colour alone)
WILD = "*"  # Three-Thirteen: a card of the round's wild rank, or a joker


@dataclass(frozen=True)
class Cell:
    key: str  # the key that presses it ("" when it has none: more items than letters)
    label: str
    action: str  # the app action a click runs
    colour: str | None = None
    selected: bool = False


@dataclass
class Layout:
    lines: list[Content] = field(default_factory=list)
    spots: dict[str, tuple[int, int]] = field(default_factory=dict)  # action → (x, y) of its cell
    keys: dict[str, str] = field(default_factory=dict)  # key → action


def item_label(game: str, code: str, view: dict[str, Any] | None) -> str:
    if game == "three_thirteen" and view is not None and wild_card(code, view).wild:
        return code + WILD
    return code


def control_rows(hand: HandPanel, order: Sequence[int], lang: str) -> list[tuple[str, list[Cell]]]:
    """(row title, cells) for every kind of control the hand offers now."""
    c: HandControls = hand.controls
    rows: list[tuple[str, list[Cell]]] = []
    buttons = iter(BUTTON_KEYS)
    if c.moving is not None:
        rows.append((t("tui.row.targets", lang),
                     [Cell(next(buttons, ""), d.label if d.new else f"→{d.label}", f"app.press({k})")
                      for k, d in enumerate(c.targets)]))
        rows.append(("", [Cell("esc", t("tg.btn.back", lang), "app.clear")]))
        return rows
    if c.choosing:
        rows.append((t("tui.row.pieces", lang),
                     [Cell(next(buttons, ""), p.label, f"app.press({k})") for k, p in enumerate(c.pieces)]))
        rows.append(("", [Cell("esc", t("tg.btn.back", lang), "app.clear")]))
        return rows
    by_index = {i.index: i for i in c.items}
    items = []
    for n, index in enumerate(i for i in order if i in by_index):
        item = by_index[index]
        label = item_label(hand.table.game, item.label, hand.view)
        items.append(Cell(ITEM_KEYS[n] if n < len(ITEM_KEYS) else "", label, f"app.pick({index})",
                          token_style(item.label), item.selected))
    if items:
        rows.append((t("tui.row.items", lang), items))
    if c.suggestions:
        rows.append((t("tui.row.suggested", lang),
                     [Cell(next(buttons, ""), s.label, f"app.suggest({s.index})") for s in c.suggestions]))
    staging = _staging_cells(c, buttons, lang)
    if staging:
        rows.append((t("tui.row.staged", lang), staging))
    actions = [Cell(next(buttons, ""), a.label, f"app.press({k})") for k, a in enumerate(c.actions)]
    if c.move_index is not None and not c.picks:
        actions.append(Cell(next(buttons, ""), c.move_label + "…", f"app.press({len(c.actions)})"))
    if actions:
        rows.append((t("tui.row.moves", lang), actions))
    if c.picks:
        rows.append(("", [Cell("esc", t("tui.clear", lang), "app.clear")]))
    return rows


def _staging_cells(c: HandControls, buttons: Iterator[str], lang: str) -> list[Cell]:
    """Stage the picks, take a staged meld back (by its number), clear the staging."""
    # The chats' label starts with its own "+", which is the key here.
    cells = [Cell(STAGE_KEY, t("stage.btn.stage", lang).removeprefix("+ "), "app.stage")] if c.can_stage else []
    if c.staging is not None:
        cells += [Cell(next(buttons, ""), t("stage.btn.unstage", lang, number=m.number) + " " + " ".join(m.items),
                       f"app.unstage({m.number})") for m in c.staging.melds]
        cells.append(Cell(UNSTAGE_ALL_KEY, t("stage.btn.clear", lang), "app.unstage_all"))
    return cells


def lay_out(rows: Sequence[tuple[str, list[Cell]]], width: int, colour: bool) -> Layout:
    """Cells in lines of at most `width` columns, each row starting on a line of its own."""
    out = Layout()
    width = max(width, 20)
    for title, cells in rows:
        parts: list[str | tuple[str, str]] = []
        x = 0
        if title:
            parts.append((title + " ", "dim"))
            x = len(title) + 1
        for cell in cells:
            text = _cell_text(cell)
            if x > 0 and x + len(text) > width:
                out.lines.append(Content.assemble(*parts))
                parts, x = [], 2
                parts.append("  ")
            out.spots[cell.action] = (x, len(out.lines))
            if cell.key:
                out.keys[cell.key] = cell.action
            parts += _cell_parts(cell, colour)
            parts.append(GAP)
            x += len(text) + len(GAP)
        out.lines.append(Content.assemble(*parts))
    return out


def _cell_text(cell: Cell) -> str:
    key = f"{cell.key} " if cell.key else ""
    return f"{key}{SELECTED if cell.selected else ''}{cell.label}"


def _cell_parts(cell: Cell, colour: bool) -> list[str | tuple[str, str]]:
    link = f"@click={cell.action}"
    parts: list[str | tuple[str, str]] = []
    if cell.key:
        parts.append((f"{cell.key} ", f"dim {link}"))
    body = f"{SELECTED if cell.selected else ''}{cell.label}"
    style = " ".join(s for s in ("reverse" if cell.selected else "", link) if s)
    if colour and cell.colour:
        style = f"{cell.colour} {style}"
    parts.append((body, style))
    return parts


def coloured(text: str, colour: bool, changed: frozenset[int] = frozenset(), wild: str | None = None) -> Content:
    """The table's text with every tile and card in its colour (its letters stay: colour is never
    alone); lines in `changed` are marked (a bar in the margin, bold) as the last turn's changes.
    `wild`: Three-Thirteen's wild rank this round — its cards and the jokers get WILD after them."""
    lines = [_line(line, colour, n in changed, wild) for n, line in enumerate(text.splitlines())]
    return Content("\n").join([*lines, Content()]) if lines else Content()


@lru_cache(maxsize=4096)
def _line(line: str, colour: bool, mark: bool, wild: str | None = None) -> Content:
    """One line coloured; kept, since a move changes few lines of the table and the hand."""
    parts: list[str | tuple[str, str]] = [("▌" if mark else " ", "bold" if mark else "")]
    for piece, style in tokens(line):
        styles = " ".join(s for s in (style if colour else None, "bold" if mark else None) if s)
        shown = piece + WILD if wild is not None and style is not None and wild_card(piece, {"wild": wild}).wild \
            else piece
        parts.append((shown, styles))
    return Content.assemble(*parts)
