"""The table picture's caption (issue 26, item 1): whose turn with the deadline and the newest event
lines come first and are never the part cut to Telegram's 1 024, over the states of seeded 4-player
Rummikub matches (long event lines, a round's result kept in the caption)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from random import Random

import pytest

from bot.core.presenter import ANNOUNCED, Presenter
from bot.core.presenter.panels import TABLE_LINES, TablePanel
from bot.core.render import renderer
from bot.core.render.common import names
from bot.core.text import utf16_len
from bot.telegram.common import deadline_html
from bot.telegram.limits import CAPTION_MAX
from bot.telegram.pictures import table_caption
from rules import get_engine
from tests.bot.pictures.positions import record

DEADLINE = 1_800_000_000.0


def panels(seed: int, lang: str) -> Iterator[tuple[TablePanel, str | None]]:
    """Every state of a 4-player, 3-game Rummikub match between AI players, as the group's table
    panel (the newest public event lines, the deadline) and the last round's result."""
    engine = get_engine("rummikub")
    state = engine.new_game(4, options={"match_games": 3}, seed=seed)
    presenter = Presenter(None)  # type: ignore[arg-type] - tables only: no hand screens
    lines: list[str] = []
    last_round: str | None = None
    for step in range(600):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is None or result.match_over:
                return
            state = engine.next_round(state)
            continue
        state, events = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
        rec = record("rummikub", state, version=step + 1).model_copy(update={"deadline": DEADLINE})
        shown = names(rec, None, lang)
        said = [(e.type, line) for e in events
                if e.seat is None and (line := renderer("rummikub").render_event(e, shown, None, lang))]
        lines = (lines + [line for kind, line in said if kind not in ANNOUNCED])[-TABLE_LINES:]
        announced = "\n\n".join(line for kind, line in said if kind in ANNOUNCED)
        last_round = announced or last_round
        yield presenter.table(rec, lang, engine.view(state, None), lines), last_round


def old_caption(panel: TablePanel, last_round: str | None) -> str:
    """The caption as it was before: title, turn, events oldest first, deadline, the round's result."""
    parts = [f"<b>{html.escape(panel.title)}</b>", html.escape(panel.table.seats[panel.turn].name)
             if panel.turn is not None else ""]
    parts += [html.escape(line) for line in panel.lines]
    if panel.deadline is not None:
        parts.append(deadline_html(panel.deadline, panel.lang))
    return "\n".join(parts) + (f"\n\n{html.escape(last_round)}" if last_round else "")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_deadline_and_the_newest_events_come_first_and_are_never_cut(lang: str) -> None:
    states = cut_before = 0
    for seed in range(3):
        for panel, last_round in panels(seed, lang):
            states += 1
            caption = table_caption(panel, last_round)
            assert utf16_len(caption) <= CAPTION_MAX
            deadline = deadline_html(DEADLINE, lang)
            if panel.turn is not None:
                assert caption.index(deadline) < 150, "the deadline in the first line"
            newest = [html.escape(line) for line in reversed(panel.lines)]
            if newest:
                assert newest[0] in caption, "the newest event whole"
                title = caption.find(f"<b>{html.escape(panel.title)}</b>")  # left off when events fill it
                assert title == -1 or caption.index(newest[0]) < title
            body = caption.split("\n", 1)[1] if panel.turn is not None else caption  # after the turn line
            shown = max(k for k in range(len(newest) + 1) if body.startswith("\n".join(newest[:k])))
            assert shown >= 1 or not newest
            after = body[len("\n".join(newest[:shown])):]
            assert after == "" or after.startswith(("\n<b>", "\n\n")), "newest first; only the oldest left off"
            if last_round and utf16_len(table_caption(panel)) <= CAPTION_MAX - 160:
                assert html.escape(last_round)[:40] in caption, "the round's result follows, cut if it must be"
            cut_before += utf16_len(old_caption(panel, last_round)) > CAPTION_MAX
    assert states > 100
    print(f"{lang}: {states} states; the old caption was cut in {100 * cut_before / states:.0f} % of them")
