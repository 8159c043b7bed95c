"""The seat page in every language on a phone (issue 30): real headless Chromium at 360×640 opens a
seat of every game some moves in, an ended match and its replay, with the link's language; nothing
sticks out sideways — the page does not scroll horizontally, no button's label is wider than the
button, no visible element reaches past the viewport's right edge, and no element cuts its content."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.i18n import available_languages
from bot.core.presenter.games import turn_of
from rules import engine_names
from tests.web.browser import PHONE, Served, played
from tests.web.test_browser import css, finished_match, loaded, wait

# Each visible element that reaches past the viewport, and each button whose label is clipped
# (scrollWidth > clientWidth): described by tag, id/class and text, so a failure names it.
OVERFLOWING = """
const width = document.documentElement.clientWidth, out = [];
const name = e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className ? '.' + String(e.className).split(' ').join('.') : ''} "${(e.innerText || '').slice(0, 60)}"`;
for (const e of document.querySelectorAll('body *')) {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
  let clipped = false;
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
  }
  if (!clipped && r.right > width + 0.5) out.push(`${name(e)} ends at ${r.right.toFixed(0)} of ${width}`);
  if (e.tagName === 'BUTTON' && e.scrollWidth > e.clientWidth) out.push(`${name(e)}: label ${e.scrollWidth} px in ${e.clientWidth}`);
  else if (['hidden', 'clip'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    out.push(`${name(e)}: content ${e.scrollWidth} px cut to ${e.clientWidth}`);
}
const buttons = [...document.querySelectorAll('button')].filter(e => e.getBoundingClientRect().width).length;
return {scroll: document.documentElement.scrollWidth, width, lang: document.documentElement.lang, out, buttons};
"""


def fits(b: Any, where: str, lang: str) -> dict[str, Any]:
    got: dict[str, Any] = b.execute_script(OVERFLOWING)
    assert got["lang"] in (lang, lang.replace("_", "-")), (where, got["lang"])
    assert got["width"] == PHONE[0], got
    assert got["scroll"] <= got["width"], (where, lang, got)
    assert got["out"] == [], (where, lang, got["out"])
    return got


@pytest.mark.parametrize("lang", available_languages())
def test_every_game_page_fits_a_phone_in_every_language(served: Served, browsers, lang: str) -> None:
    b = browsers(PHONE)
    for game in engine_names():
        rec = served.run(played(served.service, game, 12))
        seat = turn_of(rec)  # the seat on turn: its page shows the move buttons
        b.get(served.url(rec.id, seat if seat in (0, 1) else 0, lang=lang))
        loaded(b)
        if seat in (0, 1) and not css(b, "button"):
            css(b, "#hand > *")[0].click()  # a pick: the moves it makes show as buttons
            wait(b, lambda b: css(b, "button"))
        got = fits(b, game, lang)
        assert got["buttons"] or seat not in (0, 1), (game, "no button measured on the page of the seat on turn")
    # An ended match (its result and standings) and its replay (the step buttons).
    table = served.run(finished_match(served, f"ended-{lang}"))
    wait(b, lambda _: served.run(served.service.get(table)).status == "finished")
    b.get(served.url(table, 0, lang=lang))
    loaded(b)
    fits(b, "the ended match", lang)
    b.get(served.url(table, 0, lang=lang).replace("/table/", "/replay/"))
    wait(b, lambda b: css(b, 'button[data-kind="next"]'))
    assert fits(b, "the replay", lang)["buttons"]
