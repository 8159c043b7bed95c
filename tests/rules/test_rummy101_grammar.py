"""The §13 text grammar of Rummy 101: every command of the table parses as specified and
`parse(format(a)) == a`."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.rummy101.actions import (
    Add,
    Discard,
    Draw,
    JokerButton,
    Meld,
    MeldSpec,
    Open,
    Swap,
    Take,
    Timeout,
)
from tests.rules.rummy101_scenario import ENG


def spec(text: str) -> MeldSpec:
    return MeldSpec(tiles=tuple(text.split()))


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", Draw()),
        ("DRAW", Draw()),
        ("/draw", Draw()),
        ("joker", JokerButton()),
        ("timeout", Timeout()),
        ("take", Take()),
        ("take open r10 r11 r12 | k11 b11 y11", Take(use=Open(melds=(spec("r10 r11 r12"), spec("k11 b11 y11"))))),
        ("take meld r6 r7 r8", Take(use=Meld(melds=(spec("r6 r7 r8"),)))),
        ("take add 3 r6", Take(use=Add(meld=3, tiles=("r6",)))),
        ("take swap 2 r11", Take(use=Swap(meld=2, tile="r11"))),
        ("take add 1 j=b12", Take(use=Add(meld=1, tiles=("j=b12",)))),
        ("open r5 r5 | b7 b7 | k9 j", Open(melds=(spec("r5 r5"), spec("b7 b7"), spec("k9 j")))),
        ("open (r5 r5)(b7 b7)(k9 j=k9)", Open(melds=(spec("r5 r5"), spec("b7 b7"), spec("k9 j=k9")))),
        ("open [r10 j=r11 r12] [r8 b8 j=8]", Open(melds=(spec("r10 j=r11 r12"), spec("r8 b8 j=8")))),
        ("Open R10 J=R11 R12", Open(melds=(spec("r10 j=r11 r12"),))),
        ("meld r3 r4 r5", Meld(melds=(spec("r3 r4 r5"),))),
        ("meld O5 o6 o7", Meld(melds=(spec("y5 y6 y7"),))),
        ("add 3 r6", Add(meld=3, tiles=("r6",))),
        ("add 3 r7 r6", Add(meld=3, tiles=("r7", "r6"))),
        ("add 2 j", Add(meld=2, tiles=("j",))),
        ("swap 2 r11", Swap(meld=2, tile="r11")),
        ("discard k2", Discard(tile="k2")),
        ("discard J", Discard(tile="j")),
        ("discard joker", Discard(tile="j")),
    ],
)
def test_commands(text: str, action: object) -> None:
    # §13
    parsed = ENG.parse(text)
    assert parsed == action
    assert ENG.parse(ENG.format(parsed)) == parsed


@pytest.mark.parametrize(
    "text",
    [
        "", "   ", "dance", "draw r5", "joker now", "take dance", "take open", "open", "open r5 | | r6",
        "add", "add 3", "add x r6", "add 3 q9", "add -1 r5", "swap 2", "swap 2 r5 r6", "swap two r5",
        "discard", "discard r5 r6", "discard r14", "open [r5 r6", "open r5 j=", "open r5 j=r0", "open r5 j=14",
        "open r5 r5=r5", "meld j=j r5 r6", "add 3 ²", "take take draw",
    ],
)
def test_bad_text_is_E_PARSE(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        ENG.parse(text)
    assert err.value.code == "E_PARSE"


def test_format_is_canonical() -> None:
    assert ENG.format(ENG.parse("OPEN [R10 J=R11 r12] (k9 j)")) == "open r10 j=r11 r12 | k9 j"
    assert ENG.format(ENG.parse("take add 1 J=b12")) == "take add 1 j=b12"
    assert ENG.format(Take()) == "take"


def test_timeout_is_service_only_and_help_lists_the_grammar() -> None:
    assert Timeout.service_only
    commands = " ".join(cmd for cmd, _ in ENG.help_text())
    for verb in ("draw", "joker", "take", "open", "meld", "add", "swap", "discard"):
        assert verb in commands
    for command, _ in ENG.help_text():
        ENG.parse(command)
