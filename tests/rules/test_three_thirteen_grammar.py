"""The §13 text grammar: every command and alias, case, suit symbols, round trips, E_PARSE."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import IllegalAction
from rules.core.cards import RANKS, SUITS
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard, Timeout
from tests.rules.three_thirteen_scenario import ENG


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DrawStock()),
        ("draw stock", DrawStock()),
        ("DRAW Stock", DrawStock()),
        ("/draw", DrawStock()),
        ("take", TakeDiscard()),
        ("draw discard", TakeDiscard()),
        ("Draw DISCARD", TakeDiscard()),
        ("discard 10H", Discard(card="10H")),
        ("discard 10h", Discard(card="10H")),
        ("discard q♠", Discard(card="QS")),
        ("discard A♦", Discard(card="AD")),
        ("discard jk", Discard(card="JK")),
        ("  discard   kc  ", Discard(card="KC")),
        ("timeout", Timeout()),
    ],
)
def test_commands(text: str, action: object) -> None:  # §13
    assert ENG.parse(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "   ", "pass", "draw pile", "draw stock now", "take 5H", "discard", "discard 11H", "discard 5H 6H",
     "discard XX", "timeout now", "meld 3H 4H 5H", "draw discard stock"],
)
def test_garbage_is_e_parse(text: str) -> None:  # §13, ARCHITECTURE E_PARSE
    with pytest.raises(IllegalAction) as err:
        ENG.parse(text)
    assert err.value.code == "E_PARSE"


def test_format_round_trips() -> None:  # §13: parse(format(a)) == a
    actions = [DrawStock(), TakeDiscard(), Timeout()] + [Discard(card=r + s) for r in RANKS for s in SUITS]
    actions.append(Discard(card="JK"))
    for action in actions:
        assert ENG.parse(ENG.format(action)) == action
    assert ENG.format(DrawStock()) == "draw" and ENG.format(TakeDiscard()) == "take"
    assert ENG.format(Discard(card="10H")) == "discard 10H"


def test_help_lists_the_grammar() -> None:  # §13
    commands = [cmd for cmd, _ in ENG.help_text()]
    assert commands == ["draw", "take", "discard 10H"]
    for cmd in commands:
        ENG.parse(cmd)


@given(st.text(max_size=30))
def test_parse_never_crashes(text: str) -> None:
    try:
        action = ENG.parse(text)
    except IllegalAction as err:
        assert err.code == "E_PARSE"
    else:
        assert ENG.parse(ENG.format(action)) == action
