"""The page in a real Chromium without a pointer and without colour: a Rummikub opening, a Rummy 500
discard and a Three-Thirteen draw and discard by the keyboard alone (Tab, Enter, Space), the focus
always visible, every tile marked with its colour's letter and named in words, tiles keeping their
palette on Telegram's dark theme, 44 px tap targets on a phone, the turn in a live region, and no
motion when it is refused."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from tests.web.browser import Served
from tests.web.tables import RK_DECK, two_player_table
from tests.web.test_browser import R500_DECK, css, loaded, wait

MAX_TABS = 80


def focused(b: Any) -> Any:
    return b.execute_script("return document.activeElement")


def tab_to(b: Any, selector: str) -> Any:
    """Tab (forward, or back with Shift when the target comes earlier) until `selector` has the focus."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(MAX_TABS):
        if b.execute_script("return !!document.activeElement && document.activeElement.matches(arguments[0])", selector):
            return focused(b)
        back = b.execute_script(
            "const t = document.querySelector(arguments[0]); const a = document.activeElement;"
            "return !!t && !!a && a !== document.body && !!(t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING)",
            selector)
        chain = ActionChains(b)
        (chain.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT) if back else chain.send_keys(Keys.TAB)).perform()
    raise AssertionError(f"{selector} never took the focus in {MAX_TABS} tabs")


def press(b: Any, key: str = "\ue007") -> None:  # Enter
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(b).send_keys(key).perform()


def outline(b: Any) -> tuple[str, float]:
    style, width = b.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]")
    return style, width


def test_a_rummikub_opening_by_the_keyboard_alone(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    for meld in (["r10", "r11", "r12"], ["k9", "b9", "y9"]):
        tab_to(b, f'#hand .tile[data-tile="{meld[0]}"]')
        assert outline(b)[0] != "none" and outline(b)[1] >= 2, "the focus is visible"
        press(b, " ")  # Space picks it up
        wait(b, lambda b: css(b, '#hand .tile.held[aria-pressed="true"]'))
        tab_to(b, "#newmeld")
        press(b)
        for tile in meld[1:]:
            tab_to(b, f'#hand .tile[data-tile="{tile}"]')
            press(b)
            last = len(css(b, ".meld")) - 1
            tab_to(b, f'.meld[data-meld="{last}"] button.put')
            press(b)
            wait(b, lambda b, tile=tile: css(b, f'.meld .tile[data-tile="{tile}"]'))
    wait(b, lambda b: len(css(b, ".meld.valid")) == 2)
    tab_to(b, "#done")
    press(b)
    wait(b, lambda b: int(b.execute_script("return document.body.dataset.version")) > rec.version)
    after = served.run(served.service.get(rec.id))
    assert sorted(sorted(m["tiles"]) for m in after.state["table"]) == [["b9", "k9", "y9"], ["r10", "r11", "r12"]]


def test_escape_puts_a_held_tile_down_and_a_held_meld_tile_goes_back_to_the_rack(served: Served, browsers) -> None:
    from selenium.webdriver.common.keys import Keys

    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    tab_to(b, '#hand .tile[data-tile="r10"]')
    press(b)
    wait(b, lambda b: css(b, "#hand .tile.held"))
    press(b, Keys.ESCAPE)
    wait(b, lambda b: not css(b, ".held"))
    tab_to(b, '#hand .tile[data-tile="r10"]')
    press(b)
    tab_to(b, "#newmeld")
    press(b)
    wait(b, lambda b: css(b, '.meld .tile[data-tile="r10"]'))
    tab_to(b, '.meld .tile[data-tile="r10"]')
    press(b)
    tab_to(b, "#hand button.put")  # the rack takes it back
    press(b)
    wait(b, lambda b: not css(b, ".meld") and len(css(b, "#hand .tile")) == 14)


def test_a_card_game_turn_by_the_keyboard_alone(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, "rummy500", deck=R500_DECK))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    tab_to(b, '#hand .card[data-item="7H"]')
    assert focused(b).get_attribute("role") == "button" and focused(b).get_attribute("aria-pressed") == "false"
    press(b)
    wait(b, lambda b: css(b, '#hand .card[data-item="7H"][aria-pressed="true"]'))
    assert focused(b).get_attribute("data-item") == "7H", "the focus stays on the picked card after the redraw"
    tab_to(b, 'button[data-kind="action"]')
    press(b)
    wait(b, lambda b: int(b.execute_script("return document.body.dataset.version")) > rec.version)
    after = served.run(served.service.get(rec.id))
    assert "7H" not in after.state["hands"][0] and after.state["turn"] == 1


def test_every_tile_has_its_colour_letter_and_a_name_in_words(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    b.get(served.url(rec.id, 0, lang="de"))
    loaded(b)
    tiles = css(b, "#hand .tile")
    assert len(tiles) == 14
    for t in tiles:
        code = t.get_attribute("data-tile")
        mark = t.find_element("css selector", ".mark")
        assert mark.text.lower() == code[0], "the colour's letter, as typed in the chat"
        assert mark.get_attribute("aria-hidden") == "true"
    labels = {t.get_attribute("data-tile"): t.get_attribute("aria-label") for t in tiles}
    assert labels["r10"] == "rot 10" and labels["k9"] == "schwarz 9" and labels["y9"] == "orange 9", labels
    unnamed_role = b.execute_script(
        "return [...document.querySelectorAll('span[aria-label]')].filter((e) => !e.getAttribute('role')).length")
    assert unnamed_role == 0, "no aria-label on a span without a role"


def test_tiles_keep_their_palette_on_telegram_dark_and_text_stays_readable(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers()
    theme = quote('{"bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","button_color":"#5288c1",'
                  '"button_text_color":"#ffffff","secondary_bg_color":"#232e3c"}')
    b.get(served.url(rec.id, 0) + f"#tgWebAppThemeParams={theme}")
    loaded(b)
    black = css(b, '#hand .tile[data-tile="k9"]')[0]
    assert black.value_of_css_property("background-color") == "rgba(255, 253, 248, 1)", "cream, not the theme's"
    assert black.value_of_css_property("color") == "rgba(33, 33, 33, 1)"
    hint = b.execute_script("return getComputedStyle(document.documentElement).getPropertyValue('--hint').trim()")
    assert hint != "#708499", "Telegram's night hint (4.2:1) is lightened to AA"
    button = b.execute_script("return getComputedStyle(document.documentElement).getPropertyValue('--button').trim()")
    assert button != "#5288c1", "its button under white text (3.7:1) is darkened to AA"


def test_on_a_phone_tiles_cards_and_buttons_are_44_px_tap_targets(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    cards = served.run(two_player_table(served.service, "rummy500", deck=R500_DECK, chat="chat2"))
    b = browsers()  # 360x640 with touch
    for url, pieces in ((served.url(rec.id, 0), "#hand .tile"), (served.url(cards.id, 0), "#hand .card")):
        b.get("about:blank")
        b.get(url)
        loaded(b)
        if pieces == "#hand .card":
            css(b, pieces)[0].click()  # a pick: its moves appear as buttons
        wait(b, lambda b: css(b, "button"))
        sizes = b.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ', button')].map((e) => {"
            "const r = e.getBoundingClientRect(); return [e.className || e.tagName, r.width, r.height]; })", pieces)
        small = [s for s in sizes if s[1] < 44 or s[2] < 44]
        assert not small, small
        assert b.execute_script("return [innerWidth, document.documentElement.scrollWidth]") == [360, 360]


def test_the_turn_is_in_a_live_region_and_reduced_motion_is_respected(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, "rummy500", deck=R500_DECK))
    b = browsers((1280, 800))
    b.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    b.get(served.url(rec.id, 1))
    loaded(b)
    status = css(b, "#status")[0]
    assert status.get_attribute("aria-live") == "polite" and "Alice" in status.text
    assert css(b, "#message")[0].get_attribute("role") == "alert", "refusals are announced"
    from tests.web.tables import ALICE

    served.run(served.service.act(rec.id, ALICE, "discard 7H"))
    wait(b, lambda b: "Alice" not in css(b, "#status")[0].text and css(b, "#status")[0].text)
    picked = css(b, "#hand .card")[0]
    picked.click()
    wait(b, lambda b: css(b, "#hand .card.selected"))
    assert css(b, "#hand .card.selected")[0].value_of_css_property("transform") == "none", "no lift when motion is reduced"


def test_three_thirteen_draws_and_discards_by_the_keyboard_alone(served: Served, browsers) -> None:
    from bot.core.presenter.games import turn_of

    rec = served.run(two_player_table(served.service, "three_thirteen", chat="t13-keys"))
    seat = turn_of(rec)
    b = browsers((1280, 800))
    b.get(served.url(rec.id, seat))
    loaded(b)
    tab_to(b, '.zone[data-zone="stock"] .back[role="button"]')
    assert outline(b)[0] != "none", "the focus on the stock is visible"
    press(b)
    loaded(b, rec.version + 1)
    hand = served.run(served.service.get(rec.id)).state["hands"][seat]
    card = hand[-1]
    tab_to(b, f'#hand .card[data-item="{card}"]')
    press(b)
    discard = 'button[data-kind="action"][data-focus*="discard" i]'
    wait(b, lambda b: css(b, discard))
    tab_to(b, discard)
    press(b)
    loaded(b, rec.version + 2)
    after = served.run(served.service.get(rec.id))
    assert card not in after.state["hands"][seat] and len(after.state["hands"][seat]) == len(hand) - 1


def test_rummikub_sort_and_undo_by_the_keyboard_alone(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    rack = lambda b: [t.get_attribute("data-tile") for t in css(b, "#hand .tile")]  # noqa: E731
    tab_to(b, 'button[data-kind="sort-number"]')
    press(b)
    by_number = sorted(RK_DECK, key=lambda t: (int(t[1:]), "rbky".index(t[0])))
    wait(b, lambda b: rack(b) == by_number)
    assert focused(b).get_attribute("data-kind") == "sort-number", "the focus stays on the button pressed"
    tab_to(b, '#hand .tile[data-tile="r10"]')
    press(b)
    tab_to(b, "#newmeld")
    press(b)
    wait(b, lambda b: css(b, '.meld .tile[data-tile="r10"]'))
    tab_to(b, 'button[data-kind="undo"]')
    press(b)
    wait(b, lambda b: not css(b, ".meld") and rack(b) == by_number)
    press(b)  # the sort, undone too
    wait(b, lambda b: rack(b) != by_number and not css(b, 'button[data-kind="undo"]')[0].is_enabled())
