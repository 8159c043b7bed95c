"""The Rummy 101 renderer: every event and view renders in English and Russian with no key left
untranslated and no `{param}` left unfilled."""

from __future__ import annotations

import re
from random import Random

import pytest

from bot.core.i18n import available_languages, has
from bot.core.render import rummy101 as R
from bot.core.render.common import render_error
from rules import IllegalAction
from tests.rules.rummy101_scenario import ENG, act, scenario

NAMES = ["Ann", "Bob", "Cid", "Dee"]
LEFTOVER = re.compile(r"\{[a-z_]+\}|rummy101\.|meld_reason\.|error\.")


def clean(text: str) -> None:
    assert not LEFTOVER.search(text), text


@pytest.mark.parametrize("lang", available_languages())
def test_a_whole_round_renders(lang: str) -> None:
    state = ENG.new_game(4, seed=21, options={"joker_button": "on"})
    seen: set[str] = set()
    for step in range(2000):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        state, events = ENG.apply(state, seat, ENG.ai_action(state, seat, Random(step)))
        for event in events:
            line = R.render_event(event, NAMES, seat, lang)
            if line:
                clean(line)
                seen.add(event.type)
        if step % 10 == 0:
            clean(R.render_table(ENG.view(state, None), NAMES, lang, 42))
            clean(R.render_hand(ENG.view(state, seat), lang, by_number=step % 20 == 0))
    assert {"Discarded", "Opened", "RoundScored"} <= seen
    clean(R.render_table(ENG.view(state, None), NAMES, lang, None))


@pytest.mark.parametrize("lang", available_languages())
def test_special_events_render(lang: str) -> None:
    state = scenario(hands={0: "r11 y2 k5"}, table=[("r10 j r12", 1)], status={0: "series", 1: "series"})
    state, events = act(state, 0, "swap 1 r11")
    clean(R.render_event(events[-1], NAMES, 0, lang) or "")
    state = scenario(hands={1: "r1 r2"}, status={1: "series"}, stock="r3", turn=1, phase="draw")
    state, events = act(state, 1, "draw")
    for e in events:
        clean(R.render_event(e, NAMES, 1, lang) or "")
    view = ENG.view(state, None)
    assert view["last_stock"]
    clean(R.render_table(view, NAMES, lang, 10))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_hand_shows_best_opening_and_take(lang: str) -> None:
    state = scenario(hands={1: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1"}, discard="r9", turn=1, phase="draw")
    text = R.render_hand(ENG.view(state, 1), lang)
    clean(text)
    assert "102" in text and "r9" in text
    table = R.render_table(ENG.view(state, None), NAMES, lang, None)
    assert "r9" in table and "101" in table


@pytest.mark.parametrize("lang", available_languages())
def test_every_reason_code_renders(lang: str) -> None:
    codes = {
        "E_PHASE": {"phase": "draw", "action": "open"}, "E_NOT_IN_HAND": {"tiles": ["r5"]},
        "E_INVALID_MELD": {"index": 1, "meld": ["r1", "b2", "k3"], "reason": "rummy101_mixed_colours"},
        "E_NOT_OPENED": {"threshold": 101}, "E_ALREADY_OPENED": {}, "E_THRESHOLD": {"value": 90, "required": 101},
        "E_MIXED_OPENING": {}, "E_MELD_TYPE": {"index": 1, "status": "pairs", "meld": ["r1", "r2", "r3"], "why": "pairs"}, "E_DUPLICATE_PAIR": {"tile": "r5"},
        "E_HAND_FLOOR": {"left": 0}, "E_TAKE_UNAVAILABLE": {}, "E_TAKE_UNUSED": {"tile": "r5"},
        "E_NO_SUCH_MELD": {"meld": 4, "number": 4}, "E_DOES_NOT_FIT": {"meld": 2, "tiles": ["b6"]},
        "E_JOKER_BUTTON": {"why": "used"},
    }
    for code, params in codes.items():
        assert has(f"rummy101.error.{code}", lang) or has(f"error.{code}", lang), code
        text = render_error(IllegalAction(code, **params), lang, "rummy101")
        clean(text)
        assert "(E_" not in text, text  # a real sentence, not the unknown-code fallback


def test_meld_reasons_have_sentences() -> None:
    import inspect

    from rules.rummy101 import melds

    reasons = set(re.findall(r'InvalidMeld\("([a-z_]+)"\)', inspect.getsource(melds)))
    assert reasons
    for lang in available_languages():
        assert all(has(f"meld_reason.rummy101_{r}", lang) for r in reasons)
