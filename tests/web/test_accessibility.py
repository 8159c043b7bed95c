"""axe-core (pinned in tests/web/axe/package.json, installed by .ci/run with `npm ci`) inside a real
Chromium over every game's seat page, a spectator page and a replay, in the light theme, the dark
one (`prefers-color-scheme: dark` emulated) and Telegram's dark theme (the Mini App's themeParams):
no critical and no serious violation. The script is never fetched at test time: without it the
test skips on a developer's machine and fails in CI (CI=true)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.web.browser import Served, played
from tests.web.tables import RK_DECK, two_player_table
from tests.web.test_browser import R500_DECK, css, finished_match, loaded, wait

AXE = Path(__file__).with_name("axe") / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ("rummikub", "rummy101", "rummy500", "canasta", "three_thirteen")
# Telegram's night theme as its clients send it to a Mini App (tgWebAppThemeParams).
TELEGRAM_DARK = {"bg_color": "#17212b", "secondary_bg_color": "#232e3c", "text_color": "#f5f5f5",
                 "hint_color": "#708499", "link_color": "#6ab3f3", "button_color": "#5288c1",
                 "button_text_color": "#ffffff", "header_bg_color": "#17212b", "accent_text_color": "#6ab2f2",
                 "section_bg_color": "#17212b", "section_header_text_color": "#6ab3f3",
                 "subtitle_text_color": "#708499", "destructive_text_color": "#ec3942"}
THEMES = ("light", "dark", "telegram-dark")


def axe_or_skip() -> str:
    if AXE.exists():
        return AXE.read_text(encoding="utf-8")
    why = f"no axe-core at {AXE}: run `npm ci --prefix tests/web/axe` (.ci/run does)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {why}", pytrace=False)
    pytest.skip(why)


def violations(b: Any, axe: str) -> list[dict]:
    """The page's critical and serious axe violations, each with the nodes it names."""
    b.execute_script(axe)
    found = b.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map((v) => ("
        "{id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => "
        "({target: n.target.join(' '), summary: n.failureSummary}))}))), (e) => done([{id: 'axe-error', "
        "impact: 'critical', help: String(e), nodes: []}]));")
    return [v for v in found if v["impact"] in ("critical", "serious")]


def themed(url: str, theme: str) -> str:
    if theme != "telegram-dark":
        return url
    return f"{url}#tgWebAppThemeParams={quote(json.dumps(TELEGRAM_DARK))}&tgWebAppVersion=7.0"


@pytest.mark.parametrize("theme", THEMES)
def test_no_serious_accessibility_violation_on_any_page(served: Served, browsers, theme: str) -> None:
    axe = axe_or_skip()
    tables = {game: served.run(played(served.service, game, moves=6)) for game in GAMES}
    replayed = served.run(finished_match(served, "axe-replay"))
    pages = [(f"{game} seat", served.url(rec.id, 0)) for game, rec in tables.items()]
    pages.append(("canasta spectator", served.url(tables["canasta"].id, None)))
    pages.append(("rummikub spectator", served.url(tables["rummikub"].id, None)))
    pages.append(("replay", served.url(replayed, 0).replace("/table/", "/replay/") + "&step=3"))
    # On turn and mid-move: a Rummikub tile held by keyboard ("new meld" a button), a card picked (its moves).
    held = served.run(two_player_table(served.service, deck=RK_DECK, chat="axe-held"))
    picked = served.run(two_player_table(served.service, "rummy500", deck=R500_DECK, chat="axe-picked"))
    pages.append(("rummikub, a tile held", served.url(held.id, 0)))
    pages.append(("rummy500, a card picked", served.url(picked.id, 0)))
    b = browsers()
    b.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark" if theme == "dark" else "light"}]})
    report: dict[str, list[dict]] = {}
    for name, url in pages:
        b.get("about:blank")
        b.get(themed(url, theme))
        if name == "replay":
            wait(b, lambda b: b.execute_script("return document.body.dataset.step") == "3")
        else:
            loaded(b)
        if name == "rummikub, a tile held":
            b.execute_script("document.querySelector('#hand .tile').focus()")
            b.switch_to.active_element.send_keys(" ")
            wait(b, lambda b: css(b, ".held") and css(b, '#newmeld[role="button"]'))
        if name == "rummy500, a card picked":
            css(b, '#hand .card[data-item="7H"]')[0].click()
            wait(b, lambda b: css(b, '#hand .card[aria-pressed="true"]') and css(b, 'button[data-kind="action"]'))
        if theme == "telegram-dark":
            assert b.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(23, 33, 43)"
        if found := violations(b, axe):
            report[name] = found
    for name, found in report.items():
        print(f"--- {theme}: {name}")
        for v in found:
            print(f"  {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
            for n in v["nodes"][:3]:
                print(f"    {n['target']}: {n['summary'].splitlines()[-1] if n['summary'] else ''}")
    assert not report, f"{theme}: serious or critical axe violations on {sorted(report)} (printed above)"
