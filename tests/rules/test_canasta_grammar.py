"""The text grammar of spec §13: every command, case-insensitive, brackets, team prefixes, and
`parse(format(a)) == a`."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.canasta.actions import Add, Discard, Draw, JokerButton, Meld, Open, TakePile, Timeout
from tests.rules.canasta_scenario import ENG


@pytest.mark.parametrize(("text", "action"), [
    ("draw", Draw()),
    ("DRAW", Draw()),
    ("joker", JokerButton()),
    ("timeout", Timeout()),
    ("take with r13 k13", TakePile(tiles=("r13", "k13"))),
    ("take with r13 k13 | r1 b1 y1", TakePile(tiles=("r13", "k13"), melds=(("r1", "b1", "y1"),))),
    ("Take With [R13 K13] [r1 b1 y1]", TakePile(tiles=("r13", "k13"), melds=(("r1", "b1", "y1"),))),
    ("take r13 k13", TakePile(tiles=("r13", "k13"))),
    ("open r8 b8 k8 | r10 b10 j", Open(melds=(("r8", "b8", "k8"), ("r10", "b10", "j")))),
    ("open [r8 b8 k8] | [r10 b10 JK]", Open(melds=(("r8", "b8", "k8"), ("r10", "b10", "j")))),
    ("meld r5 b5 k5", Meld(melds=(("r5", "b5", "k5"),))),
    ("meld [r2 b2 j]", Meld(melds=(("r2", "b2", "j"),))),
    ("add 8 y8 r2", Add(number=8, tiles=("y8", "r2"))),
    ("add A:8 y8", Add(number=8, tiles=("y8",), team="A")),
    ("add b:2 j", Add(number=2, tiles=("j",), team="B")),
    ("add 13s k13", Add(number=13, tiles=("k13",))),
    ("add 8 [y8 r2]", Add(number=8, tiles=("y8", "r2"))),
    ("discard k3", Discard(tile="k3")),
    ("/discard J", Discard(tile="j")),
])
def test_commands(text: str, action: object) -> None:
    parsed = ENG.parse(text)
    assert parsed == action
    assert ENG.parse(ENG.format(parsed)) == parsed


def test_formats() -> None:
    assert ENG.format(TakePile(tiles=("r13", "k13"), melds=(("r1", "b1", "y1"),))) == "take with r13 k13 | r1 b1 y1"
    assert ENG.format(Add(number=8, tiles=("y8",), team="B")) == "add B:8 y8"
    assert ENG.format(Open(melds=(("r8", "b8", "k8"), ("r10", "b10", "j")))) == "open r8 b8 k8 | r10 b10 j"


@pytest.mark.parametrize("text", [
    "", "   ", "fly", "draw now", "joker 2", "take", "take with", "take with |", "open", "open r5 | | b5",
    "open [r5 b5", "open [r5 b5] x", "meld", "add", "add 8", "add 14 r5", "add 0 r5", "add C:8 r5", "add 8 q5",
    "add x r5", "discard", "discard r5 r6", "discard r14", "timeout now", "meld []",
])
def test_parse_errors(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        ENG.parse(text)
    assert err.value.code == "E_PARSE" and "token" in err.value.params


def test_help_lists_every_verb() -> None:
    verbs = {cmd.split()[0] for cmd, _ in ENG.help_text()}
    assert verbs == {"draw", "take", "open", "meld", "add", "discard", "joker"}
    for cmd, _ in ENG.help_text():
        ENG.parse(cmd)
