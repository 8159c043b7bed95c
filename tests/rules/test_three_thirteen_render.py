"""Three-Thirteen text (bot/core/render/three_thirteen.py): hand grouped into the best melds with its
deadwood, the wild rank, top discard, totals, and a round summary revealing every hand; en and ru."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest

from bot.core.i18n import available_languages, catalog
from bot.core.render import three_thirteen as render
from tests.rules.three_thirteen_scenario import ENG, act, scenario

NAMES = ["Ann", "Bob", "Cy"]
ROOT = Path(__file__).resolve().parents[2]


def test_hand_shows_melds_deadwood_and_wild() -> None:
    state = scenario(round_number=5, hands={0: "4H 5H 6H 6C 6D 9S KD"}, turn=0)
    text = render.render_hand(ENG.view(state, 0), "en")
    assert "Melds: [6H 6D 6C]" in text
    assert "Deadwood: 9S 4H 5H KD = 28" in text  # T-06
    assert "wild: 7s" in text and "Your turn" in text


def test_table_shows_piles_and_totals() -> None:
    state = scenario(discard="QS", turn=1, options={"jokers": 2})
    text = render.render_table(ENG.view(state, None), NAMES, "en", 42)
    assert "round 1 of 11" in text and "wild: 3s and jokers" in text
    assert "QS on top" in text and f"stock {len(state['stock'])}" in text
    assert "Bob · 42s left" in text or "42" in text
    assert "total 0" in text


def test_round_summary_reveals_every_hand() -> None:
    state = scenario(hands={0: "8D 8S 8H", 1: "2C 4D 6S", 2: "KC KD 9H"}, stock="QH 10C 3C", turn=0)
    lines = []
    for seat, cmd in [(0, "draw"), (0, "discard QH"), (1, "draw"), (1, "discard 10C"), (2, "draw"),
                      (2, "discard 9H")]:
        state, events = act(state, seat, cmd)
        lines += [render.render_event(e, NAMES, 1, "en") for e in events if e.visible_to(1)]
    text = "\n".join(line for line in lines if line)
    assert "Ann went out with [8S 8H 8D]" in text
    assert "Round 1 over (Ann went out):" in text
    assert "Bob: — · loose 6S(6) 4D(4) 2C(2) · deadwood 12 · scores 12 · total 12" in text
    assert "Cy: [KD KC 3C] · loose — · deadwood 0 · scores 0 · total 0" in text
    table = render.render_table(ENG.view(state, None), NAMES, "ru", None)
    assert "Раунд 1 окончен" in table


@pytest.mark.parametrize("lang", available_languages())
def test_every_event_renders(lang: str) -> None:
    state = ENG.new_game(3, options={"rounds": 2, "jokers": 2}, seed=11)
    seen: set[str] = set()
    for step in range(2000):
        seat = ENG.current_seat(state)
        if seat is None:
            if state["match_over"]:
                break
            state = ENG.next_round(state)
            continue
        action = ENG.timeout_action(state) if step % 9 == 0 else ENG.ai_action(state, seat, Random(step))
        state, events = ENG.apply(state, seat, action)
        for e in events:
            seen.add(e.type)
            line = render.render_event(e, NAMES, seat, lang)
            assert line is None or "{" not in line
        for viewer in range(3):
            assert "{" not in render.render_hand(ENG.view(state, viewer), lang)
        assert "{" not in render.render_table(ENG.view(state, None), NAMES, lang, None)
    assert {"CardDrawn", "CardDiscarded", "WentOut", "RoundScored", "MatchEnded", "TimedOut"} <= seen


def test_catalogs_cover_every_key_used() -> None:
    source = (ROOT / "bot/core/render/three_thirteen.py").read_text(encoding="utf-8")
    keys = set(re.findall(r'"(three_thirteen\.[a-z_.]+)"', source))
    assert keys
    en, ru = catalog("en"), catalog("ru")
    for key in keys | {"game.three_thirteen", "error.E_DISCARD_TAKEN_CARD", "error.E_EMPTY_DISCARD",
                       "error.E_STOCK_EMPTY"}:
        assert key in en and key in ru, key
    for _, key in ENG.help_text():
        assert key in en and key in ru
