"""Issue 29: what the full screen does between moves — the changes of the last turn marked, a draft
not dropped by `draw` without a word, wild cards marked, `sort colour|number`, the turn timer counted
down and its expiry told, moves made by another process told, NO_COLOR, the language from the
locale, the command line's history and completion, the picker, help and the rules."""

from __future__ import annotations

import pytest
from textual.widgets import MarkdownViewer

from bot.console.app import CHAT_ID, PLATFORM
from bot.console.tui.app import CommandLine, TableApp, TextScreen
from bot.console.tui.hand import coloured, item_label
from bot.console.tui.mode import full_screen_wanted
from bot.console.tui.picker import Picker
from bot.console.tui.table import TuiTable
from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from storage import MemoryStore
from tests.console.driver import ai_move
from tests.console.tui.driver import log_text, new_app, screen_text, settle


async def test_the_last_turns_changes_are_marked(store: MemoryStore) -> None:
    app = new_app(store, "rummy500", seed=2)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        assert not app.shown.changed  # the first look: nothing to compare with
        rec = app.table.rec
        await app.run_line(ai_move(rec.game, rec.state, rec.log_seq))
        await settle(pilot, app)
        shown = app.shown
        assert shown.changed  # your move and the AI's answer changed the table
        body = shown.body.splitlines()
        marked = [line for n, line in enumerate(screen_text(app).splitlines()) if line.startswith("▌")]
        assert len(marked) == len(shown.changed) and all(body[n] for n in shown.changed)
        await pilot.press("a")  # a pick changes the hand, not the table: the marks stay
        await settle(pilot, app)
        assert app.shown.changed == shown.changed


async def test_draw_over_a_draft_is_said_before_anything_is_dropped(store: MemoryStore) -> None:
    app = new_app(store, "rummikub", seed=3)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        hand = app.shown.hand
        new = next(k for k, a in enumerate(app.table._view()[1]) if a.verb == "new")  # noqa: SLF001
        assert new is not None
        await pilot.press("a")
        await settle(pilot, app)
        label = next(a for a in app.shown.hand.controls.actions if a.label.startswith("new"))
        await app.action_press(app.shown.hand.controls.actions.index(label))
        await settle(pilot, app)
        assert app.shown.hand.view["draft"]  # a draft meld of one tile
        version = app.table.rec.version
        await app.run_line("draw")
        assert app.table.rec.version == version
        assert "draw drops your draft (it lays 1 tile of your rack)" in log_text(app)
        await app.run_line("draw")
        await settle(pilot, app)
        assert app.table.rec.version > version  # the second draw draws
        assert hand is not None


def test_wild_cards_are_marked_with_a_letter_not_colour() -> None:
    view = {"wild": "3"}
    assert item_label("three_thirteen", "3H", view) == "3H*"
    assert item_label("three_thirteen", "JK", view) == "JK*"
    assert item_label("three_thirteen", "4H", view) == "4H"
    assert item_label("rummy500", "3H", view) == "3H"
    # The table pane too: the discard pile's top and the melds laid down.
    table = coloured("Discard pile: 3S on top (2 cards)\n  [3H 4H 5H] JK 13S", False, wild="3").plain
    assert table.splitlines() == [" Discard pile: 3S* on top (2 cards)", "   [3H* 4H 5H] JK* 13S"]
    assert "3S*" not in coloured("Discard pile: 3S on top", False).plain  # other games: no wild rank


async def test_sort_colour_and_number(store: MemoryStore) -> None:
    app = new_app(store, "rummy101", seed=4)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        view = app.shown.hand.view
        await app.run_line("sort number")
        shown = app.shown
        assert [view["hand"][i] for i in shown.order] == view["hand_by_number"]
        await app.run_line("sort colour")
        assert list(app.shown.order) == list(range(len(view["hand"])))
        await app.run_line("sort sideways")
        assert "'sideways' is not an order" in log_text(app)
        await pilot.press("f3")  # F3 flips
        await settle(pilot, app)
        assert [view["hand"][i] for i in app.shown.order] == view["hand_by_number"]


async def test_the_timer_counts_down_warns_and_its_end_is_told(store: MemoryStore) -> None:
    clock = FakeClock()
    app = new_app(store, "three_thirteen", seed=5, clock=clock, options={"turn_timer_s": 30})
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        status = app.query_one("#status")
        assert "⏱ 0:30" in str(status.render())
        clock.advance(25)
        app.tick_status()
        assert "⏱ 0:05" in str(status.render()) and status.has_class("warn")
        clock.advance(10)
        app.tick_status()
        assert "time is up" in str(status.render())
        version = app.table.rec.version
        await app.clock_outcomes(await app.table.service.tick())
        await settle(pilot, app)
        assert app.table.rec.version > version
        assert "You ran out of time" in log_text(app)


async def test_moves_made_by_another_process_are_told(store: MemoryStore) -> None:
    app = new_app(store, "rummy500", seed=6)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        rec = app.table.rec
        other = TableService(store, FakeClock())  # the web page's process, on the same store
        now = rec
        while now.version == rec.version or app.table.service.engine_for(now).current_seat(now.state) == 0:
            now = (await other.act(rec.id, Player(PLATFORM, "you", "You"), ai_move(now.game, now.state, now.log_seq))).table
        assert app.table.rec.version == rec.version
        app._committed_elsewhere(rec.id)  # noqa: SLF001 — what the change feed calls
        await settle(pilot, app)
        for _ in range(20):
            if app.table.rec.version > rec.version:
                break
            await pilot.pause()
        assert app.table.rec.version == (await store.get_table(rec.id)).version
        told = log_text(app).split("(the game is saved).")[-1]
        assert told.lstrip().startswith("You ")  # your move made on the page
        assert "AI 1" in told  # and the AI's answers to it


async def test_no_color_keeps_every_letter(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = coloured("r5 b6 QS", colour=False)
    assert plain.plain.strip() == "r5 b6 QS" and not [s for s in plain.spans if s.style]
    assert {s.style for s in coloured("r5 QS", colour=True).spans} >= {"red", "bold"}
    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app(store, "rummikub", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.colour is False
        assert "Pick: a " in screen_text(app)


def test_pipes_keep_the_line_mode() -> None:
    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    assert full_screen_wanted(Stream(True), Stream(True), {"TERM": "xterm"})  # type: ignore[arg-type]
    assert not full_screen_wanted(Stream(False), Stream(True), {"TERM": "xterm"})  # type: ignore[arg-type]
    assert not full_screen_wanted(Stream(True), Stream(False), {})  # type: ignore[arg-type]
    assert not full_screen_wanted(Stream(True), Stream(True), {"TERM": "dumb"})  # type: ignore[arg-type]


async def test_russian_screen(store: MemoryStore) -> None:
    app = new_app(store, "three_thirteen", seed=5, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        text = screen_text(app)
        assert "ВАШ ХОД" in text and "Выбор:" in text


async def test_the_command_line_has_history_and_completion(store: MemoryStore) -> None:
    app = new_app(store, "three_thirteen", seed=5)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press(":", "h", "e", "l", "p", "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape")
        await pilot.press(":")
        line = app.query_one(CommandLine)
        assert app.focused is line
        await pilot.press("up")
        assert line.value == "help"
        line.value = ""
        await pilot.press("d", "r")
        await settle(pilot, app)
        await pilot.press("tab")
        assert line.value == "draw"
        await pilot.press("enter")
        await settle(pilot, app)
        assert "You drew" in log_text(app)


async def test_the_picker_deals_with_hints_on_by_keys(store: MemoryStore) -> None:
    clock = FakeClock()
    app = TableApp(TuiTable(TableService(store, clock), lambda text: None), clock, status_every_s=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_picker(pilot, app)
        assert isinstance(app.screen, Picker)
        app.screen.query_one("#game").focus()
        await pilot.press("enter", "down", "enter")  # the second game
        await pilot.pause()
        await pilot.press("f5")
        await settle(pilot, app)
        rec = await store.active_table_for_chat(PLATFORM, CHAT_ID)
        assert rec is not None and rec.game == "rummy101"
        assert rec.options["hints"] is True and rec.options["turn_timer_s"] == 0
        await pilot.press("f4")  # hints are on: the hint is told
        await settle(pilot, app)
        assert "hint" in log_text(app).lower()


async def settle_picker(pilot: object, app: TableApp) -> None:
    for _ in range(20):
        await pilot.pause()  # type: ignore[attr-defined]
        if isinstance(app.screen, Picker):
            return


async def test_the_rules_are_rendered_from_markdown(store: MemoryStore) -> None:
    app = new_app(store, "canasta", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert app.screen.query(MarkdownViewer)
        assert "#" not in screen_text(app).splitlines()[1]  # headings drawn, not their Markdown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TextScreen)


async def test_the_hint_names_its_keys(store: MemoryStore) -> None:
    app = new_app(store, "three_thirteen", seed=5, options={"hints": True})
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("f4")
        await settle(pilot, app)
        told = log_text(app)
        assert "Keys for it: " in told
        keys = told.split("Keys for it: ")[-1].split()
        version = app.table.rec.version
        await pilot.press(*keys)  # the keys named make the hinted move
        await settle(pilot, app)
        assert app.table.rec.version > version


async def test_play_asking_for_another_game_keeps_the_unfinished_one_beside(store: MemoryStore) -> None:
    first = new_app(store, "rummy500", seed=2)
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot, first)
    unfinished = await store.active_table_for_chat(PLATFORM, CHAT_ID)
    assert unfinished is not None
    second = new_app(store, "three_thirteen", seed=2)
    second.start_at_once = False  # `play three_thirteen` with a Rummy 500 game unfinished
    async with second.run_test(size=(80, 24)) as pilot:
        await settle_picker(pilot, second)
        assert isinstance(second.screen, Picker)
        assert "unfinished Rummy 500 game" in log_text(second)
        await pilot.press("escape")  # go on with it
        await settle(pilot, second)
        assert second.table.rec is not None and second.table.rec.id == unfinished.id
        await pilot.press("f6")
        await settle_picker(pilot, second)
        await pilot.press("f5")  # Play: the asked-for game is dealt beside the unfinished one
        await settle(pilot, second)
        assert second.table.rec is not None and second.table.rec.game == "three_thirteen"
        kept = await store.active_table_for_chat(PLATFORM, CHAT_ID)
        assert kept is not None and kept.id == unfinished.id and kept.version == unfinished.version
        assert "Your Rummy 500 game is kept as it is: F7 switches back to it." in log_text(second)
