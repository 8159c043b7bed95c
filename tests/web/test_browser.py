"""The page in a real headless Chromium: Rummikub by drag and drop (pointer events), a refused
layout shown invalid and leaving the table unchanged, a Rummy 500 market take by taps, refused
credentials, and two browsers seeing each other's moves live."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.web.auth import sign_init_data
from tests.web.browser import Served
from tests.web.tables import RK_DECK, two_player_table

WAIT_S = 10


def wait(b: Any, what: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(b, WAIT_S).until(what)


def css(b: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return b.find_elements(By.CSS_SELECTOR, selector)


def drag(b: Any, tile: Any, target: Any, touch: bool = False) -> None:
    """Press, move, release — with the mouse, or with a finger (a touch pointer) when `touch`."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    devices = [PointerInput(interaction.POINTER_TOUCH, "finger")] if touch else None
    ActionChains(b, devices=devices).click_and_hold(tile).move_by_offset(5, 5).move_to_element(target) \
        .move_by_offset(1, 1).release().perform()


def rack_tile(b: Any, tile: str) -> Any:
    return css(b, f'#hand .tile[data-tile="{tile}"]')[0]


def new_meld_from(b: Any, tiles: list[str], touch: bool = False) -> None:
    """Drag the first tile onto "new meld", the rest onto the meld it made (the last row)."""
    drag(b, rack_tile(b, tiles[0]), css(b, "#newmeld")[0], touch)
    for tile in tiles[1:]:
        wait(b, lambda b: css(b, ".meld"))
        drag(b, rack_tile(b, tile), css(b, ".meld")[-1], touch)


def count_pointers(b: Any) -> None:
    b.execute_script("window.kinds = new Set(); document.addEventListener('pointerdown', "
                     "e => window.kinds.add(e.pointerType), true)")


def pointers(b: Any) -> list[str]:
    return sorted(b.execute_script("return [...window.kinds]"))


async def finished_match(served: Served, chat: str) -> str:
    """A two-round Three-Thirteen of Alice and an AI in `chat`, played to its end by her stand-in."""
    from tests.web.tables import ALICE

    rec = await served.service.open_table("three_thirteen", "telegram", chat, ALICE, options={"rounds": 2})
    await served.service.add_ai(rec.id, ALICE)
    await served.service.start(rec.id, ALICE)
    await served.service.set_away(rec.id, ALICE, True)
    return rec.id


def loaded(b: Any, version: int | None = None) -> None:
    wait(b, lambda b: b.execute_script("return document.body.dataset.version") not in (None, "")
         and (version is None or int(b.execute_script("return document.body.dataset.version")) >= version))


def test_a_rummikub_opening_by_drag_and_drop(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    assert b.execute_script("return [innerWidth, document.documentElement.scrollWidth]") == [360, 360], \
        "a phone's width, and nothing sticks out sideways"
    count_pointers(b)
    new_meld_from(b, ["r10", "r11", "r12"], touch=True)  # a finger on the phone
    new_meld_from(b, ["k9", "b9", "y9"], touch=True)
    wait(b, lambda b: len(css(b, ".meld.valid")) == 2)
    assert pointers(b) == ["touch"]
    wait(b, lambda b: "60" in css(b, "#opening")[0].text and "30" in css(b, "#opening")[0].text)
    css(b, "#done")[0].click()
    wait(b, lambda b: int(b.execute_script("return document.body.dataset.version")) > rec.version)
    after = served.run(served.service.get(rec.id))
    assert sorted(sorted(m["tiles"]) for m in after.state["table"]) == [["b9", "k9", "y9"], ["r10", "r11", "r12"]]
    assert len(after.state["racks"][0]) == 8 and after.state["opened"][0]


def test_an_invalid_meld_is_shown_invalid_and_a_refused_done_changes_nothing(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK, turn_timer_s=90))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    assert re.fullmatch(r"1:[23]\d", css(b, "#clock")[0].text), "the turn's time, from the server's clock"
    new_meld_from(b, ["r10", "r11", "b2"])
    wait(b, lambda b: css(b, ".meld.invalid"))
    assert css(b, ".meld.invalid .why")[0].text, "the engine's reason is shown on the meld"
    css(b, "#done")[0].click()
    wait(b, lambda b: css(b, "#message")[0].is_displayed() and css(b, "#message")[0].text)
    assert css(b, ".meld.refused .why")[-1].text == css(b, "#message")[0].text, "the refusal sits on its meld"
    after = served.run(served.service.get(rec.id))
    assert after.version == rec.version and after.state["table"] == [] and len(after.state["racks"][0]) == 14
    css(b, 'button[data-kind="reset"]')[0].click()
    wait(b, lambda b: not css(b, ".meld") and len(css(b, "#hand .tile")) == 14)


# Rummy 500: Alice deals (10 cards, 7H first), Bob holds 7S 7D and can take the 7H she discards.
R500_DECK = ["7H", "2C", "4C", "6C", "8C", "10C", "QC", "KC", "3D", "5D",
             "7S", "7D", "AC", "3C", "5C", "9C", "JC", "4D", "6D"]


def test_two_browsers_see_each_others_moves_and_a_market_take_by_taps(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, "rummy500", deck=R500_DECK))
    alice, bob = browsers(), browsers()
    alice.get(served.url(rec.id, 0))
    bob.get(served.url(rec.id, 1, lang="ru"))
    loaded(alice)
    loaded(bob)
    assert "Ваш ход" not in css(bob, "#status")[0].text
    css(alice, '#hand .card[data-item="7H"]')[0].click()
    wait(alice, lambda b: css(b, 'button[data-kind="action"]'))
    css(alice, 'button[data-kind="action"]')[0].click()  # the one move for one picked card: discard it
    loaded(bob, rec.version + 1)  # pushed: Bob never reloaded
    wait(bob, lambda b: "Ваш ход" in css(b, "#status")[0].text)
    assert wait(bob, lambda b: [x for x in css(b, 'button[data-kind="action"]') if "7H" in x.text]), "as a button"
    slot = css(bob, '.zone[data-zone="market"] .slot[data-pos="1"]')[0]
    assert slot.find_element("css selector", "[data-code]").get_attribute("data-code") == "7H"
    slot.click()  # and on the table: a tap on the market's position #1 takes from there
    loaded(alice, rec.version + 2)  # and Alice sees Bob's take
    after = served.run(served.service.get(rec.id))
    assert not {"7S", "7D", "7H"} & set(after.state["hands"][1])
    wait(alice, lambda b: sorted(x.get_attribute("data-code") for x in css(b, ".tablemeld .card")) == ["7D", "7H", "7S"]
         and not css(b, 'button[data-kind="action"]'))  # Bob's set, drawn as cards on Alice's table
    wait(bob, lambda b: not css(b, '#hand .card[data-item="7S"]'))


def test_an_expired_link_and_a_forged_init_data_are_refused(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    b.get(served.url(rec.id, 0, ttl=-5))
    wait(b, lambda b: b.execute_script("return document.body.dataset.state") == "denied")
    assert not css(b, "#hand .tile"), "nothing of the seat is shown"
    fields = {"auth_date": str(int(served.clock.now())), "user": '{"id": 101, "first_name": "Alice"}'}
    fields["hash"] = sign_init_data(fields, "42:NOT-THE-BOT")
    from urllib.parse import quote, urlencode

    b.get(f"http://127.0.0.1:{served.port}/table/{rec.id}#tgWebAppData={quote(urlencode(fields))}")
    wait(b, lambda b: b.execute_script("return document.body.dataset.state") == "denied")
    assert not css(b, "#hand .tile")



def test_inside_telegram_the_mini_app_signs_in_with_init_data_and_takes_the_theme(served: Served, browsers) -> None:
    """telegram.org cannot be reached here: the page must work from the launch hash alone."""
    from urllib.parse import quote

    from tests.web.tables import BOB, init_data

    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    theme = quote('{"bg_color":"#102030","text_color":"#fafafa"}')
    b.get(f"http://127.0.0.1:{served.port}/?x=1#tgWebAppData={quote(init_data(BOB, served.clock.now(), start_param=rec.id))}"
          f"&tgWebAppThemeParams={theme}&tgWebAppVersion=7.0")
    loaded(b)
    assert b.execute_script("return document.body.dataset.game") == "rummikub"
    assert "Ходит Alice" in css(b, "#status")[0].text, "Bob's seat, in his Telegram language"
    assert len(css(b, "#hand .tile")) == 14 and not css(b, "#newmeld"), "his rack; off turn nothing to drop on"
    assert b.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(16, 32, 48)"


# Alice opens with a joker in her run; next turn she wins it back with r11 and lays it with b5 b6.
JOKER_DECK = ["r10", "j", "r12", "k9", "b9", "y9", "r11", "b5", "b6", "r1", "b2", "k3", "y5", "k1"]


def test_a_rearrangement_that_wins_back_a_joker(served: Served, browsers) -> None:
    from tests.web.tables import ALICE, BOB

    rec = served.run(two_player_table(served.service, deck=JOKER_DECK))
    rec = served.run(served.service.act(rec.id, ALICE, "play r10 j r12 | k9 b9 y9")).table
    rec = served.run(served.service.act(rec.id, BOB, "draw")).table
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    count_pointers(b)
    joker_meld = next(i for i, m in enumerate(rec.state["table"]) if "j" in m["tiles"])
    row = css(b, ".meld")[joker_meld]
    drag(b, row.find_element("css selector", '.tile[data-tile="j"]'), css(b, "#newmeld")[0])
    wait(b, lambda b: len(css(b, ".meld")) == 3)
    for tile in ("b5", "b6"):
        drag(b, rack_tile(b, tile), css(b, ".meld")[-1])
    wait(b, lambda b: len(css(b, ".meld")[-1].find_elements("css selector", ".tile")) == 3)
    target = css(b, ".meld")[joker_meld].find_element("css selector", '.tile[data-tile="r12"]')
    drag(b, rack_tile(b, "r11"), target)  # dropped on r12: in between r10 and r12
    wait(b, lambda b: len(css(b, ".meld.valid")) == 3)
    assert pointers(b) == ["mouse"], "on the desktop, the mouse"
    css(b, "#done")[0].click()
    wait(b, lambda b: int(b.execute_script("return document.body.dataset.version")) > rec.version)
    after = served.run(served.service.get(rec.id))
    assert sorted(sorted(m["tiles"]) for m in after.state["table"]) == [
        ["b5", "b6", "j"], ["b9", "k9", "y9"], ["r10", "r11", "r12"]]


def test_a_replay_steps_through_a_finished_match(served: Served, browsers) -> None:

    table = served.run(finished_match(served, "c9"))
    b = browsers()
    b.get(served.url(table, 0).replace("/table/", "/replay/"))
    step = lambda b: int(b.execute_script("return document.body.dataset.step || -1"))  # noqa: E731
    text = lambda b: b.execute_script("return document.getElementById('body').textContent")  # noqa: E731
    wait(b, lambda b: step(b) == 0 and css(b, 'button[data-kind="next"]'))
    first_body = text(b)
    css(b, 'button[data-kind="next"]')[0].click()
    wait(b, lambda b: step(b) == 1)
    css(b, 'button[data-kind="next"]')[0].click()
    wait(b, lambda b: step(b) == 2 and text(b) != first_body)
    css(b, 'button[data-kind="back"]')[0].click()
    wait(b, lambda b: step(b) == 1)
    css(b, 'button[data-kind="play"]')[0].click()
    wait(b, lambda b: step(b) >= 3)  # playing on by itself
    css(b, 'button[data-kind="play"]')[0].click()
    assert css(b, "#hand .card[data-code]"), "Alice's own hand at that step, as cards"
    assert css(b, '#replay-table .zone[data-zone="stock"] .back'), "the table as pieces"


def test_a_canasta_pile_take_by_a_tap(served: Served, browsers) -> None:
    from tests.web.tables import ALICE

    async def table() -> str:
        # Seed 4 deals Alice (seat 0, on turn after seat 3) the pairs that take the pile at once. The
        # AI seats play easy: the normal AI's discards avoid feeding the next player's pile take.
        rec = await served.service.open_table("canasta", "telegram", "c4", ALICE, seed=4)
        for _ in range(3):
            await served.service.add_ai(rec.id, ALICE, level="easy")
        await served.service.start(rec.id, ALICE)
        return rec.id

    table_id = served.run(table())
    before = served.run(served.service.get(table_id))
    b = browsers((1280, 800))
    b.get(served.url(table_id, 0))
    loaded(b)
    takes = wait(b, lambda b: [x for x in css(b, 'button[data-kind="action"]') if "k12 k12" in x.text])
    takes[0].click()
    loaded(b, before.version + 1)
    after = served.run(served.service.get(table_id))
    assert not after.state["pile"] and after.state["turn"] == 0, "the pile is Alice's, and she plays on"
    assert len(css(b, "#hand .tile")) == len(after.state["hands"][0])


# Alice opens with the run r3..r8 and keeps a second r5; next turn she puts it in the run between r5
# and r6 and splits the run between the two fives: r3 r4 r5 | r5 r6 r7 r8.
SPLIT_DECK = ["r3", "r4", "r5", "r6", "r7", "r8", "r5", "b1", "k2", "y4", "b6", "k8", "y11", "b13"]


def tap(b: Any, target: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    ActionChains(b, devices=[PointerInput(interaction.POINTER_TOUCH, "finger")]).click(target).perform()


def test_a_tile_dropped_between_two_tiles_and_a_run_split_at_a_gap_make_one_play(served: Served, browsers) -> None:
    from tests.web.tables import ALICE, BOB

    rec = served.run(two_player_table(served.service, deck=SPLIT_DECK))
    rec = served.run(served.service.act(rec.id, ALICE, "play r3 r4 r5 r6 r7 r8")).table
    rec = served.run(served.service.act(rec.id, BOB, "draw")).table
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    run = lambda b: [t.get_attribute("data-tile") for t in css(b, '.meld[data-meld="0"] .tile')]  # noqa: E731
    assert run(b) == ["r3", "r4", "r5", "r6", "r7", "r8"]
    drag(b, rack_tile(b, "r5"), css(b, '.meld[data-meld="0"] .gap[data-at="3"]')[0], touch=True)
    wait(b, lambda b: run(b) == ["r3", "r4", "r5", "r5", "r6", "r7", "r8"] and css(b, ".meld.invalid"))
    tap(b, css(b, '.meld[data-meld="0"] .gap[data-at="3"]')[0])  # between the two fives
    wait(b, lambda b: len(css(b, ".meld.valid")) == 2 and not css(b, ".meld.invalid"))
    assert run(b) == ["r3", "r4", "r5"]
    assert b.execute_script("return [innerWidth, document.documentElement.scrollWidth]") == [360, 360]
    css(b, "#done")[0].click()
    wait(b, lambda b: int(b.execute_script("return document.body.dataset.version")) > rec.version)
    after = served.run(served.service.get(rec.id))
    assert sorted(m["tiles"] for m in after.state["table"]) == [["r3", "r4", "r5"], ["r5", "r6", "r7", "r8"]]
    assert "r5" not in after.state["racks"][0], "the rack's five went into the play"


def action(b: Any, label: str) -> Any:
    """The move button of that name (`discard ✓` for the picked items)."""
    return wait(b, lambda b: [x for x in css(b, 'button[data-kind="action"]') if x.text.split(" ")[0] == label])[0]


def pile_top(b: Any) -> str | None:
    tops = css(b, '.zone[data-zone="pile"] [data-code]')
    return tops[0].get_attribute("data-code") if tops else None


def test_rummy101_by_taps_a_discard_then_a_draw_and_a_discard_seen_on_the_other_page(served: Served,
                                                                                       browsers) -> None:
    rec = served.run(two_player_table(served.service, "rummy101", deck=["r1"]))  # seat 0 starts, 22 tiles
    alice, bob = browsers((1280, 800)), browsers()
    alice.get(served.url(rec.id, 0))
    bob.get(served.url(rec.id, 1))
    loaded(alice)
    loaded(bob)
    assert pile_top(bob) is None and css(bob, '.zone[data-zone="stock"] .back')[0].text == str(len(rec.state["stock"]))
    css(alice, '#hand .tile[data-item="r1"]')[0].click()
    action(alice, "discard").click()  # the starter opens the round with a discard
    loaded(bob, rec.version + 1)
    wait(bob, lambda b: pile_top(b) == "r1" and css(b, '.zone[data-zone="stock"] .back.takes'))
    css(bob, '.zone[data-zone="stock"] .back.takes')[0].click()  # tap the stock: draw
    loaded(bob, rec.version + 2)
    wait(bob, lambda b: len(css(b, "#hand .tile")) == 22)
    tile = css(bob, "#hand .tile")[0]
    gone = tile.get_attribute("data-item")
    tile.click()
    action(bob, "discard").click()
    loaded(alice, rec.version + 3)  # pushed to Alice's page
    wait(alice, lambda b: pile_top(b) == gone and "Your turn" in css(b, "#status")[0].text)
    after = served.run(served.service.get(rec.id))
    assert len(after.state["hands"][1]) == 21 and after.state["discard"][-1] == gone


def test_three_thirteen_by_taps_a_take_from_the_discard_then_a_discard_seen_on_the_other_page(
        served: Served, browsers) -> None:
    # Alice deals AH 2D 9C to herself and 5S 5H KD to Bob, then 5C face up: Bob takes it, throws KD.
    rec = served.run(two_player_table(served.service, "three_thirteen",
                                      deck=["AH", "2D", "9C", "5S", "5H", "KD", "5C"]))
    alice, bob = browsers((1280, 800)), browsers()
    alice.get(served.url(rec.id, 0))
    bob.get(served.url(rec.id, 1))
    loaded(alice)
    loaded(bob)
    assert pile_top(bob) == "5C" and [c.text for c in css(bob, ".zone .card")] == ["5\n♣"]
    assert [c.get_attribute("data-code") for c in css(bob, "#hand .card")] == ["5S", "5H", "KD"]
    assert [c.get_attribute("class").split()[1] for c in css(bob, "#hand .card")] == ["black", "red", "red"]
    assert not css(alice, ".takes"), "off turn nothing on the table to tap"
    css(bob, '.zone[data-zone="pile"] .takes')[0].click()  # tap the discard's top: take it
    loaded(bob, rec.version + 1)
    css(bob, '#hand .card[data-item="KD"]')[0].click()
    action(bob, "discard").click()
    loaded(alice, rec.version + 2)
    wait(alice, lambda b: pile_top(b) == "KD" and "Your turn" in css(b, "#status")[0].text)
    after = served.run(served.service.get(rec.id))
    assert sorted(after.state["hands"][1]) == ["5C", "5H", "5S"]


def test_each_card_games_table_as_cards_fits_a_phone(served: Served, browsers) -> None:
    from bot.core.presenter.games import turn_of
    from tests.web.browser import played

    b = browsers()
    for game, moves in (("rummy500", 14), ("canasta", 16), ("rummy101", 12), ("three_thirteen", 3)):
        rec = served.run(played(served.service, game, moves))
        b.get(served.url(rec.id, turn_of(rec) or 0))
        wait(b, lambda b, rec=rec: b.execute_script("return document.body.dataset.version") == str(rec.version))
        assert b.execute_script("return [innerWidth, document.documentElement.scrollWidth]") == [360, 360], game
        faces = css(b, "#board [data-code]") + css(b, "#hand [data-code]")
        assert faces and all(f.rect["x"] >= 0 and f.rect["x"] + f.rect["width"] <= 360 for f in faces), game
        if game in ("rummy500", "three_thirteen"):
            suits = "".join(f.text for f in css(b, "#hand .card .suit"))
            assert suits and set(suits) <= set("♠♥♦♣★"), "suit symbols"
        if game != "three_thirteen":
            assert css(b, ".tablemeld"), f"{game}: melds on the table"


def test_a_finished_tables_page_leads_to_its_rematch(served: Served, browsers) -> None:
    from tests.web.tables import ALICE

    async def rematch() -> str:
        again = await served.service.rematch("telegram", "c7", ALICE)
        await served.service.start(again.id, ALICE)
        return again.id

    table = served.run(finished_match(served, "c7"))
    b = browsers()
    b.get(served.url(table, 0))
    wait(b, lambda b: b.execute_script("return document.body.dataset.version"))
    assert not css(b, "#next-table"), "nothing follows the table yet"
    again = served.run(rematch())
    link = wait(b, lambda b: css(b, "#next-table"))[0]
    assert link.text == "The next game is on: open it" and f"/table/{again}?k=" in link.get_attribute("href")
    link.click()
    wait(b, lambda b: f"/table/{again}" in b.current_url and css(b, "#hand [data-code]"))
    assert b.execute_script("return document.body.dataset.game") == "three_thirteen"
    assert css(b, "#status")[0].text not in ("", "The match is over."), "the new table, in play"


def test_a_draft_begun_in_the_chat_is_on_the_page_and_reset_goes_back_to_the_turns_table(served: Served,
                                                                                         browsers) -> None:
    from tests.web.tables import ALICE

    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    assert not css(b, ".meld"), "an empty table"
    served.run(served.service.act(rec.id, ALICE, "new r10 r11 r12", expected_version=rec.version))  # typed in the chat
    wait(b, lambda b: [[t.get_attribute("data-tile") for t in css(m, ".tile")] for m in css(b, ".meld")]
         == [["r10", "r11", "r12"]])
    assert not [t for t in css(b, "#hand [data-tile]") if t.get_attribute("data-tile") in ("r10", "r11", "r12")]
    new_meld_from(b, ["k9", "b9", "y9"])  # and finished on the page
    wait(b, lambda b: len(css(b, ".meld.valid")) == 2 and "60" in css(b, "#opening")[0].text)
    css(b, 'button[data-kind="reset"]')[0].click()
    wait(b, lambda b: not css(b, ".meld") and len(css(b, "#hand [data-tile]")) == 14)
