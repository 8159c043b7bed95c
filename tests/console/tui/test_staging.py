"""Issue 29 with issue 25's seam: the hand pane's suggested moves (the AI's play, one key) and the
staging of a compound move (`+` stages the picks, a digit takes a staged meld back, `-` clears), by
keys and by the mouse, with the engine's word on the staged melds in the hand pane."""

from __future__ import annotations

from bot.console.tui.app import HandPane, TableApp
from bot.console.tui.hand import STAGE_KEY, UNSTAGE_ALL_KEY
from bot.console.tui.keys import keys_for
from bot.core.presenter.games import moves_of, suggested, view_of
from storage import MemoryStore
from tests.console.driver import ai_move
from tests.console.tui.driver import log_text, new_app, screen_text, settle


def key_of(app: TableApp, action: str) -> str:
    keys = {a: k for k, a in app.query_one(HandPane).layout_.keys.items()}
    assert action in keys, (action, screen_text(app))
    return keys[action]


def item_keys(app: TableApp, *codes: str) -> list[str]:
    """The keys that pick these items of your hand (the first free one of each code)."""
    shown = app.shown
    assert shown is not None and shown.hand is not None
    used: set[int] = set()
    out = []
    for code in codes:
        item = next(i for i in shown.hand.controls.items if i.label == code and i.index not in used)
        used.add(item.index)
        out.append(key_of(app, f"app.pick({item.index})"))
    return out


async def test_the_ais_play_is_one_key_away(store: MemoryStore) -> None:
    app = new_app(store, "rummikub", seed=11)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        shown, rec = app.shown, app.table.rec
        assert shown is not None and shown.hand is not None and rec is not None and rec.state is not None
        view = view_of(rec, app.table.seat)
        (command, _), = suggested("rummikub", view)
        assert command == ai_move("rummikub", rec.state, rec.log_seq)  # the suggestion is the AI's own play
        suggestion = shown.hand.controls.suggestions[0]
        assert f"Suggested: 1 {suggestion.label}" in screen_text(app)
        assert keys_for(shown.hand, shown.order, moves_of(rec, view), command, "en",
                        app.suggester.complete_now) == ["1"]
        await pilot.press("1")
        await settle(pilot, app)
        assert app.table.rec.version > rec.version
        assert "You opened" in log_text(app)


async def test_staging_by_keys(store: MemoryStore) -> None:
    app = new_app(store, "rummy101", seed=11)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press(key_of(app, "app.press(0)"))  # draw: the lay moves open
        await settle(pilot, app)
        assert app.table.rec is not None
        table_id, seat = app.table.rec.id, app.table.seat
        assert seat is not None

        async def staged() -> tuple[tuple[int, ...], ...]:
            return (await app.table.uis.get(table_id, seat)).staged

        await pilot.press(*item_keys(app, "y1", "y1"), STAGE_KEY)  # a pair staged
        await settle(pilot, app)
        assert len(await staged()) == 1
        text = screen_text(app)
        assert "1. y1 y1 ✓ 2" in text and "Staged: 1 of 5 pairs" in text and "Staging: 1 ↩1 y1 y1" in text, text
        await pilot.press(*item_keys(app, "y4", "y4"), STAGE_KEY)
        await settle(pilot, app)
        assert len(await staged()) == 2
        assert "2. y4 y4" in screen_text(app)
        await pilot.press(key_of(app, "app.unstage(1)"))  # the first pair back to the hand
        await settle(pilot, app)
        hand = app.shown.hand
        assert hand is not None and [[hand.view["hand"][i] for i in g] for g in await staged()] == [["y4", "y4"]]
        await pilot.press(UNSTAGE_ALL_KEY)
        await settle(pilot, app)
        assert await staged() == ()
        assert "Staging:" not in screen_text(app)
        version = app.table.rec.version
        await pilot.press(*item_keys(app, "y1", "y1"), STAGE_KEY)  # (a staged item leaves the row: letters move)
        await settle(pilot, app)
        await pilot.press(*item_keys(app, "y4", "y4"))
        await settle(pilot, app)
        open_key = key_of(app, "app.press(0)")
        assert app.shown.hand.controls.actions[0].label.startswith("open")
        await pilot.press(open_key)  # the staged pair and the picked one sent together: 2 pairs of 5
        await settle(pilot, app)
        assert app.table.rec.version == version  # refused, nothing changed
        assert "That opening counts 2; you need at least 5" in log_text(app)


async def test_staging_by_mouse(store: MemoryStore) -> None:
    app = new_app(store, "rummy101", seed=11)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)

        async def click(action: str) -> None:
            pane = app.query_one(HandPane)
            key = key_of(app, action)
            x, y = pane.offset_of(action)
            assert await pilot.click(HandPane, offset=(x + len(key) + 1, y))
            await settle(pilot, app)

        await click("app.press(0)")  # draw
        for key in item_keys(app, "y1", "y1"):
            await click(app.query_one(HandPane).layout_.keys[key])
        await click("app.stage")
        assert app.table.rec is not None and app.table.seat is not None
        assert len((await app.table.uis.get(app.table.rec.id, app.table.seat)).staged) == 1
        await click("app.unstage_all")
        assert (await app.table.uis.get(app.table.rec.id, app.table.seat)).staged == ()


async def test_the_hint_names_the_suggestions_key(store: MemoryStore) -> None:
    app = new_app(store, "rummikub", seed=11, options={"hints": True})
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("f4")
        await settle(pilot, app)
        assert log_text(app).split("Keys for it: ")[-1].split()[:1] == ["1"]
