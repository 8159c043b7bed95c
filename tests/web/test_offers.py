"""Only legal offers (bot/web/offers.py): a page's buttons for the picks are the moves the engine
would accept, picks that make no move say why in one line, and Canasta's pile is tappable when the
picks make a take."""

from __future__ import annotations

from bot.core.grammar import hand_items
from bot.core.presenter import HandUI, hand_controls
from bot.core.presenter.games import moves_of, turn_of, view_of
from tests.web.browser import played
from tests.web.conftest import Web


async def page(web: Web, table: str, seat: int, picks: list[int]) -> dict:
    params = {"k": web.link(table, seat)}
    if picks:
        params["picks"] = ",".join(map(str, picks))
    return await (await web.client.get(f"/api/table/{table}", params=params)).json()


async def test_canasta_offers_add_only_to_the_melds_the_picked_tile_goes_on(web: Web) -> None:
    # Seed 11, 16 moves in: seat 0 (Alice) is to play, her team has melds 1 4 5 9 13, she holds
    # y2 r7 b7 r8 b11 r12 b13 j.
    rec = await played(web.service, "canasta", 16)
    seat = turn_of(rec)
    view = view_of(rec, seat)
    assert seat == 0 and view["phase"] == "play"
    hand = hand_items(view)
    r7, b13 = hand.index("r7"), hand.index("b13")
    # What the move templates alone offer for r7: `add` to every meld.
    offered = hand_controls("canasta", view, seat, HandUI(picks=(r7,)), "en", True, moves_of(rec, view))
    assert len([a for a in offered.actions if a.label.startswith("add")]) == 5
    r7_page = await page(web, rec.id, seat, [r7])
    labels = [a["label"] for a in r7_page["hand"]["actions"] if a["with_items"]]
    assert labels and not [x for x in labels if x.startswith("add")], labels  # r7 goes on no meld
    assert any(x.startswith("discard") for x in labels) and r7_page["hand"]["why_not"] == ""
    b13_page = await page(web, rec.id, seat, [b13])
    adds = [a["label"] for a in b13_page["hand"]["actions"] if a["label"].startswith("add")]
    assert adds == ["add →13"], adds
    # Every offer is accepted by the engine: press each one on a copy of the table.
    from bot.core.grammar import command
    from bot.core.presenter.games import refusal

    for a in b13_page["hand"]["actions"]:
        text = command(moves_of(rec, view), a["index"], a["option"], ["b13"] if a["with_items"] else [])
        assert refusal(rec, seat, text) is None, text


async def test_picks_that_make_no_move_say_why_and_change_nothing(web: Web) -> None:
    rec = await played(web.service, "canasta", 16)
    hand = hand_items(view_of(rec, 0))
    two = [hand.index("r7"), hand.index("b11")]
    data = await page(web, rec.id, 0, two)
    assert not [a for a in data["hand"]["actions"] if a["with_items"]], "no move takes r7 and b11"
    why = data["hand"]["why_not"]
    # The meld and the engine's reason, worded for the page (no chat "command" to send again).
    assert why == "r7 b11: a meld needs at least 3 tiles", why
    assert (await web.service.get(rec.id)).version == rec.version


# ---- in a real Chromium (tests/web/browser.py) ----------------------------------------------------


def test_on_a_phone_canasta_buttons_are_only_legal_moves_and_dead_picks_say_why(served, browsers) -> None:
    from tests.web.test_browser import action, css, loaded, wait

    rec = served.run(played(served.service, "canasta", 16))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)

    def pick(tile: str) -> None:
        before = len(css(b, "#hand .selected"))
        css(b, f'#hand [data-item="{tile}"]')[0].click()
        wait(b, lambda b: len(css(b, "#hand .selected")) != before)

    def moves(b) -> list[str]:
        return [x.text for x in css(b, 'button[data-kind="action"]')]

    pick("r7")
    wait(b, lambda b: any(m.startswith("discard") for m in moves(b)))
    assert not [m for m in moves(b) if m.startswith("add")], "r7 goes on none of the team's melds"
    pick("b11")
    line = wait(b, lambda b: css(b, "#why-not"))[0]
    assert line.text and line.get_attribute("role") == "status" and not moves(b)
    pick("r7")
    pick("b11")
    pick("b13")
    wait(b, lambda b: [m for m in moves(b) if m.startswith("add")] == ["add →13"])
    assert not css(b, "#why-not")
    action(b, "add").click()
    loaded(b, rec.version + 1)
    after = served.run(served.service.get(rec.id))
    assert "b13" not in after.state["hands"][0]


def test_the_canasta_pile_is_tapped_to_take_it(served, browsers) -> None:
    from tests.web.tables import ALICE
    from tests.web.test_browser import css, loaded, wait

    async def table() -> str:
        # Seed 4 deals Alice (seat 0, on turn after seat 3) the pair that takes the pile at once.
        rec = await served.service.open_table("canasta", "telegram", "c4", ALICE, seed=4)
        for _ in range(3):
            await served.service.add_ai(rec.id, ALICE, level="easy")
        await served.service.start(rec.id, ALICE)
        return rec.id

    table_id = served.run(table())
    before = served.run(served.service.get(table_id))
    b = browsers()
    b.get(served.url(table_id, 0))
    loaded(b)
    pile = wait(b, lambda b: css(b, '.zone[data-zone="pile"] .takes'))[0]
    assert pile.get_attribute("role") == "button" and pile.get_attribute("aria-label").startswith("Tap to take")
    pile.click()
    loaded(b, before.version + 1)
    after = served.run(served.service.get(table_id))
    assert not after.state["pile"] and after.state["turn"] == 0
