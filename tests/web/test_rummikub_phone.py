"""Rummikub on a phone (360x640, touch) and a desktop (1280x800), in a real headless Chromium: eleven
melds wrapped several to a row with their table numbers, the rack and Done kept in view, a drag that
waits near the top of the view scrolls the page to a meld above it, the rack sorted by colour or by
number and rearranged by drag, Undo one step at a time, and the table's numbers kept across a turn
that rearranged a meld (rules/rummikub/table_order.py)."""

from __future__ import annotations

from typing import Any

from tests.web.browser import Served
from tests.web.rk_positions import ELEVEN, restaged
from tests.web.test_browser import css, loaded, rack_tile, tap, wait

COLOURS = "rbky"


def rack(b: Any) -> list[str]:
    return [t.get_attribute("data-tile") for t in css(b, "#hand .tile")]


def meld(b: Any, index: int) -> list[str]:
    return [t.get_attribute("data-tile") for t in css(b, f'#board .meld[data-meld="{index}"] .tile')]


def rect(b: Any, selector: str) -> dict[str, float]:
    return b.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                            "return {top: r.top, bottom: r.bottom, height: r.height};", selector)


def finger(b: Any) -> Any:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    return ActionChains(b, devices=[PointerInput(interaction.POINTER_TOUCH, "finger")])


def centre(b: Any, selector: str) -> tuple[float, float]:
    return tuple(b.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                  "return [r.left + r.width / 2, r.top + r.height / 2];", selector))


def touch(b: Any, kind: str, at: tuple[float, float]) -> None:
    points = [] if kind == "touchEnd" else [{"x": at[0], "y": at[1]}]
    b.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def touch_drag(b: Any, tile: Any, target: Any) -> None:
    finger(b).click_and_hold(tile).move_by_offset(5, 5).move_to_element(target).move_by_offset(1, 1).release().perform()


def test_eleven_melds_fit_a_phone_and_a_drag_waiting_at_the_top_scrolls_to_meld_three(served: Served,
                                                                                          browsers) -> None:
    rec = served.run(restaged(served))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    assert [n.text for n in css(b, "#board .meld .meld-n")] == [str(n) for n in range(1, 12)]
    tops = b.execute_script("return [...document.querySelectorAll('#board .meld')].map((m) => "
                            "Math.round(m.getBoundingClientRect().top))")
    assert len(set(tops)) <= 6, f"eleven melds in at most six rows: {tops}"
    assert rect(b, ".rk-table")["height"] < 640, "the whole table within one screen's height"
    assert b.execute_script("return [innerWidth, document.documentElement.scrollWidth]") == [360, 360]
    assert rect(b, "#done")["bottom"] <= 640 and rect(b, "#hand")["bottom"] <= 640, "rack and Done in view"
    # Scrolled to the end, melds 1-3 are above the view; a finger holding a tile near the top scrolls up.
    b.execute_script("scrollTo(0, document.documentElement.scrollHeight)")
    assert rect(b, '#board .meld[data-meld="2"]')["bottom"] < 0
    assert rect(b, "#done")["bottom"] <= 640, "the rack and Done stay in view while the table scrolls"
    # The finger's steps as Chrome's touch input (CDP), each its own call: the finger stays down while
    # the test waits for the page to scroll, with no time of its own.
    start = centre(b, '#hand .tile[data-tile="k12"]')
    touch(b, "touchStart", start)
    touch(b, "touchMove", (start[0] + 3, start[1] - 100))
    touch(b, "touchMove", (180, 20))  # held near the top edge: the page scrolls up under it
    wait(b, lambda b: b.execute_script("return scrollY") == 0)
    end = centre(b, '#board .meld[data-meld="2"] .meld-n')  # the meld's number: dropped at its end
    touch(b, "touchMove", end)
    touch(b, "touchEnd", end)
    wait(b, lambda b: meld(b, 2) == ["k9", "k10", "k11", "k12"])
    assert "k12" not in rack(b)
    wait(b, lambda b: css(b, '#board .meld[data-meld="2"].valid'))


def test_the_rack_sorted_rearranged_by_drag_and_the_draft_undone_step_by_step(served: Served, browsers) -> None:
    rec = served.run(restaged(served))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    number = sorted(rack(b), key=lambda t: (int(t[1:]), COLOURS.index(t[0])))
    colour = sorted(rack(b), key=lambda t: (COLOURS.index(t[0]), int(t[1:])))
    css(b, 'button[data-kind="sort-number"]')[0].click()
    wait(b, lambda b: rack(b) == number)
    assert css(b, 'button[data-kind="sort-number"]')[0].get_attribute("aria-pressed") == "true"
    first, last = number[0], number[-1]
    touch_drag(b, rack_tile(b, last), rack_tile(b, first))  # dropped on the first tile: it goes before it
    wait(b, lambda b: rack(b) == [last, *number[:-1]])
    assert css(b, 'button[data-kind="sort-number"]')[0].get_attribute("aria-pressed") == "false", "own order now"
    css(b, 'button[data-kind="undo"]')[0].click()
    wait(b, lambda b: rack(b) == number)
    css(b, 'button[data-kind="sort-colour"]')[0].click()
    wait(b, lambda b: rack(b) == colour)
    # The draft: k12 onto meld 3, r13 to a new meld; Undo takes them back one by one.
    touch_drag(b, rack_tile(b, "k12"), css(b, '#board .meld[data-meld="2"] .meld-n')[0])
    wait(b, lambda b: meld(b, 2) == ["k9", "k10", "k11", "k12"])
    b.execute_script("document.getElementById('newmeld').scrollIntoView({block: 'center'})")  # above the rack
    touch_drag(b, rack_tile(b, "r13"), css(b, "#newmeld")[0])
    wait(b, lambda b: meld(b, 11) == ["r13"])
    css(b, 'button[data-kind="undo"]')[0].click()
    wait(b, lambda b: not meld(b, 11) and "r13" in rack(b))
    assert meld(b, 2) == ["k9", "k10", "k11", "k12"], "only the last step was undone"
    css(b, 'button[data-kind="undo"]')[0].click()
    wait(b, lambda b: meld(b, 2) == ["k9", "k10", "k11"] and rack(b) == colour)
    css(b, 'button[data-kind="undo"]')[0].click()  # the sort by colour
    wait(b, lambda b: rack(b) == number)
    css(b, 'button[data-kind="undo"]')[0].click()
    wait(b, lambda b: not css(b, 'button[data-kind="undo"]')[0].is_enabled())
    assert served.run(served.service.get(rec.id)).version == rec.version, "a draft is the page's own"


# The rack holds b3 and b8: b3 b4 b5 | b6 b7 b8 out of meld 2 (b4 b5 b6 b7).
SPLIT_RACK = "r8 r9 b8 k1 y1 y2 k3 b9 y9 r13 k13 b3 b11 k12"


def test_a_meld_split_on_the_page_keeps_every_number_and_its_tail_comes_last(served: Served, browsers) -> None:
    rec = served.run(restaged(served, SPLIT_RACK))
    b = browsers()
    b.get(served.url(rec.id, 0))
    loaded(b)
    touch_drag(b, rack_tile(b, "b8"), css(b, '#board .meld[data-meld="1"] .meld-n')[0])
    wait(b, lambda b: meld(b, 1) == ["b4", "b5", "b6", "b7", "b8"])
    touch_drag(b, rack_tile(b, "b3"), css(b, '#board .meld[data-meld="1"] .tile[data-tile="b4"]')[0])
    wait(b, lambda b: meld(b, 1) == ["b3", "b4", "b5", "b6", "b7", "b8"])
    tap(b, css(b, '#board .meld[data-meld="1"] .gap[data-at="3"]')[0])
    wait(b, lambda b: meld(b, 1) == ["b3", "b4", "b5"] and meld(b, 11) == ["b6", "b7", "b8"])
    wait(b, lambda b: len(css(b, "#board .meld.valid")) == 12)
    css(b, "#done")[0].click()
    loaded(b, rec.version + 1)
    after = served.run(served.service.get(rec.id))
    table = [m["tiles"] for m in after.state["table"]]
    assert table[1] == ["b3", "b4", "b5"] and table[11] == ["b6", "b7", "b8"]
    assert [t for i, t in enumerate(table) if i not in (1, 11)] == [m.split() for i, m in enumerate(ELEVEN) if i != 1]
    wait(b, lambda b: [meld(b, i) for i in range(12)] == table)  # the page shows the table in that order
    assert [n.text for n in css(b, "#board .meld .meld-n")] == [str(n) for n in range(1, 13)]


def test_on_a_desktop_the_rack_and_done_stay_in_view(served: Served, browsers) -> None:
    rec = served.run(restaged(served))
    b = browsers((1280, 800))
    b.get(served.url(rec.id, 0))
    loaded(b)
    height = b.execute_script("return innerHeight")
    tops = b.execute_script("return [...document.querySelectorAll('#board .meld')].map((m) => "
                            "Math.round(m.getBoundingClientRect().top))")
    assert len(set(tops)) <= 3, tops
    assert rect(b, "#done")["bottom"] <= height and rect(b, "#hand")["bottom"] <= height
    b.execute_script("document.getElementById('textbox').open = true; scrollTo(0, 0)")
    assert rect(b, "#done")["bottom"] <= height, "in view with the table's text opened below"
