"""Issue 29, item 6: several games kept side by side at the full screen — F6 deals another game
without ending the one in play, F7 switches between them, and each resumes exactly (its table, its
picks and sort, what happened there meanwhile told), in this session and after a restart."""

from __future__ import annotations

from bot.console.app import CHAT_ID, PLATFORM
from bot.console.tui.app import TableApp
from bot.console.tui.picker import Choice, Picker
from bot.core.presenter import HandUI
from storage import MemoryStore
from tests.console.tui.driver import log_text, new_app, planned_keys, screen_text, settle


async def picker_shown(pilot: object, app: TableApp) -> None:
    for _ in range(50):
        await pilot.pause()  # type: ignore[attr-defined]
        if isinstance(app.screen, Picker):
            return
    raise AssertionError("no picker")


async def ui_of(app: TableApp, table_id: str) -> HandUI:
    seat = app.table.seat
    assert seat is not None
    return await app.table.uis.get(table_id, seat)


async def test_another_game_beside_the_first_and_back(store: MemoryStore) -> None:
    app = new_app(store, "rummy500", seed=2)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        first = app.table.rec
        assert first is not None
        await pilot.press("b", "a")  # two picks, in that order, and the hand sorted by number
        await app.run_line("sort number")
        await settle(pilot, app)
        first_ui = await ui_of(app, first.id)
        assert first_ui.picks == (1, 0) and first_ui.by_number
        first_screen = screen_text(app)

        app.choice = Choice("three_thirteen", 1, "normal", {"turn_timer_s": 0, "rounds": 1}, seed=4)
        await pilot.press("f6")
        await picker_shown(pilot, app)
        await pilot.press("f5")  # Play: dealt beside the Rummy 500 game
        await settle(pilot, app)
        second = app.table.rec
        assert second is not None and second.game == "three_thirteen" and second.id != first.id
        in_play = await app.table.in_play()
        assert [r.id for r in in_play] == [first.id, second.id]
        assert (await store.get_table(first.id)).version == first.version  # untouched
        assert "Your Rummy 500 game is kept as it is" in log_text(app)
        await pilot.press(*planned_keys(app))  # a move in the second game
        await settle(pilot, app)
        second_version = app.table.rec.version
        assert second_version > second.version

        await pilot.press("f7")  # back to the first, exactly as it was left
        await settle(pilot, app)
        assert app.table.rec.id == first.id and app.table.rec.version == first.version
        assert await ui_of(app, first.id) == first_ui
        assert app.shown is not None and app.shown.hand is not None and app.shown.hand.controls.picks == (1, 0)
        assert "— Your Rummy 500 game, as you left it" in log_text(app)
        assert screen_text(app).split("━")[-1] == first_screen.split("━")[-1]  # the hand pane as it was

        await pilot.press("f7")  # and on to the second
        await settle(pilot, app)
        assert app.table.rec.id == second.id and app.table.rec.version == second_version

    again = new_app(store, "rummy500", seed=2)  # the terminal closed and opened again (`rummyclub run`)
    again.start_at_once, again.choice = False, None
    async with again.run_test(size=(100, 40)) as pilot:
        await settle(pilot, again)
        assert again.table.rec is not None and again.table.rec.id == first.id
        assert await ui_of(again, first.id) == first_ui
        await pilot.press("f7")
        await settle(pilot, again)
        assert again.table.rec.id == second.id and again.table.rec.version == second_version
    assert await store.active_table_for_chat(PLATFORM, CHAT_ID) is not None


async def test_switching_with_one_game_says_how_to_deal_another(store: MemoryStore) -> None:
    app = new_app(store, "canasta", seed=2)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        rec = app.table.rec
        await pilot.press("f7")
        await settle(pilot, app)
        assert app.table.rec is rec
        assert "No other game in play: F6 deals one beside this one." in log_text(app)


async def test_a_finished_game_is_replaced_in_its_place(store: MemoryStore) -> None:
    app = new_app(store, "three_thirteen", seed=5)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        assert app.table.rec is not None
        await app.table.service.end_table(app.table.rec.id, app.table.user, is_admin=True)
        await app._open(Choice("rummy500", 1, "normal", {"turn_timer_s": 0}, seed=1))  # noqa: SLF001
        await settle(pilot, app)
        assert app.table.rec.topic_id is None  # the first place was free again
        assert "kept as it is" not in log_text(app)
