"""The Rummikub text grammar (spec §13, RK-03): every command, both meld-list forms, prefixes,
case-insensitivity, `parse(format(a)) == a`, and E_PARSE naming the bad token."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.core.tiles import COLOURS, JOKER
from rules.rummikub.actions import (
    AddTiles,
    Done,
    Draw,
    MeldSpec,
    MoveTile,
    NewMeld,
    Pass,
    Play,
    Reset,
    Split,
    Timeout,
    ToRack,
)
from tests.rules.scenario import ENG


def M(text: str, prefix: str | None = None) -> MeldSpec:  # noqa: N802 - reads like the notation
    return MeldSpec(tiles=tuple(text.split()), prefix=prefix)


# ---- every command parses (§13) -----------------------------------------------------------------

COMMANDS = [
    ("play r10 r11 r12 | k9 b9 y9", Play(melds=(M("r10 r11 r12"), M("k9 b9 y9")))),
    ("play r10 r11 r12", Play(melds=(M("r10 r11 r12"),))),
    ("play G:r5 j j | k12 b12 y12", Play(melds=(M("r5 j j", "G"), M("k12 b12 y12")))),
    ("play R:r13 j j", Play(melds=(M("r13 j j", "R"),))),
    ("draw", Draw()),
    ("pass", Pass()),
    ("new r5 r6 r7", NewMeld(tiles=("r5", "r6", "r7"))),
    ("new G:r5 j j", NewMeld(tiles=("r5", "j", "j"), prefix="G")),
    ("add 2 r8", AddTiles(meld=2, tiles=("r8",))),
    ("add 1 r8 j b8", AddTiles(meld=1, tiles=("r8", "j", "b8"))),
    ("move k6 1 new", MoveTile(tile="k6", src=1, dst=None)),
    ("move k6 1 3", MoveTile(tile="k6", src=1, dst=3)),
    ("move j 2 1", MoveTile(tile="j", src=2, dst=1)),
    ("split 1 3", Split(meld=1, pos=3)),
    ("reset", Reset()),
    ("done", Done()),
    ("timeout", Timeout()),
]


@pytest.mark.parametrize(("text", "action"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_parses_and_formats_back(text: str, action: object) -> None:
    assert ENG.parse(text) == action
    assert ENG.format(action) == text  # these are the canonical forms
    assert ENG.parse(ENG.format(action)) == action


def test_help_lists_only_commands_that_parse() -> None:
    for command, _key in ENG.help_text():
        ENG.parse(command)


def test_timeout_is_service_only() -> None:  # §13: never accepted from a player (the service refuses it)
    assert ENG.parse("timeout").service_only
    assert not any(ENG.parse(t).service_only for t, _ in COMMANDS if t != "timeout")


# ---- meld lists: `|` and brackets, prefixes (RK-03) ---------------------------------------------


@pytest.mark.parametrize(
    ("bars", "brackets"),
    [
        ("play r10 r11 r12 | k9 b9 y9", "play [r10 r11 r12] [k9 b9 y9]"),
        ("play r3 r4 r5 | k7 b7 y7 | r1 r2 r3", "play [r3 r4 r5][k7 b7 y7]  [r1 r2 r3]"),
        ("play G:r5 j j | k12 b12 y12", "play G:[r5 j j] [k12 b12 y12]"),
        ("play R:r5 j j", "play R:[r5 j j]"),
        ("play k13 j j | G:r5 j j", "play [k13 j j] G:[r5 j j]"),
        ("new G:r5 j j", "new G:[r5 j j]"),
        ("new r5 r6 r7", "new [r5 r6 r7]"),
    ],
)
def test_bar_and_bracket_forms_are_equal(bars: str, brackets: str) -> None:
    assert ENG.parse(bars) == ENG.parse(brackets)


@pytest.mark.parametrize(
    "text",
    [
        "play G:[r5 j j]",
        "play G: [r5 j j]",
        "play g:[r5 j j]",
        "play G:r5 j j",
        "play G: r5 j j",
        "play g:r5 j j",
        "play [G:r5 j j]",
        "PLAY G:[R5 J J]",
    ],
)
def test_group_prefix_in_every_spelling(text: str) -> None:
    assert ENG.parse(text) == Play(melds=(M("r5 j j", "G"),))


@pytest.mark.parametrize("text", ["play R:[r13 j j]", "play r:r13 j j", "play R: [R13 J J]"])
def test_run_prefix_in_every_spelling(text: str) -> None:
    assert ENG.parse(text) == Play(melds=(M("r13 j j", "R"),))


def test_brackets_may_be_separated_by_bars_too() -> None:
    assert ENG.parse("play [r1 r2 r3] | [k7 b7 y7]") == ENG.parse("play r1 r2 r3 | k7 b7 y7")


# ---- case and spellings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("PLAY R10 R11 R12 | K9 B9 Y9", "play r10 r11 r12 | k9 b9 y9"),
        ("Play [r10 R11 r12]", "play r10 r11 r12"),
        ("DRAW", "draw"),
        ("  Pass  ", "pass"),
        ("New g:R5 J j", "new G:r5 j j"),
        ("ADD 2 R8", "add 2 r8"),
        ("Move K6 1 NEW", "move k6 1 new"),
        ("SPLIT 1 3", "split 1 3"),
        ("Reset", "reset"),
        ("DONE", "done"),
        ("play o5 o6 o7", "play y5 y6 y7"),  # orange is yellow (RK-01)
        ("play   r1   r2  r3   |  k1 k2 k3 ", "play r1 r2 r3 | k1 k2 k3"),
    ],
)
def test_input_is_case_insensitive(text: str, canonical: str) -> None:
    action = ENG.parse(text)
    assert action == ENG.parse(canonical)
    assert ENG.format(action) == canonical


# ---- parse(format(a)) == a ----------------------------------------------------------------------

TILES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + [JOKER]
tile = st.sampled_from(TILES)
tile_list = st.lists(tile, min_size=1, max_size=6).map(tuple)
prefix = st.sampled_from([None, "G", "R"])
number = st.integers(min_value=0, max_value=999)
meld_spec = st.builds(MeldSpec, tiles=tile_list, prefix=prefix)
actions = st.one_of(
    st.builds(Play, melds=st.lists(meld_spec, min_size=1, max_size=5).map(tuple)),
    st.builds(NewMeld, tiles=tile_list, prefix=prefix),
    st.builds(AddTiles, meld=number, tiles=tile_list),
    st.builds(MoveTile, tile=tile, src=number, dst=st.none() | number),
    st.builds(ToRack, tile=tile, src=number),
    st.builds(Split, meld=number, pos=number),
    st.sampled_from([Draw(), Pass(), Reset(), Done(), Timeout()]),
)


@settings(max_examples=300, deadline=None)
@given(actions)
def test_parse_format_round_trip(action: object) -> None:
    text = ENG.format(action)
    assert ENG.parse(text) == action
    assert ENG.parse(text.upper()) == action
    if isinstance(action, Play):
        bracketed = "play " + " ".join(
            f"{m.prefix + ':' if m.prefix else ''}[{' '.join(m.tiles)}]" for m in action.melds
        )
        assert ENG.parse(bracketed) == action


# ---- malformed commands: E_PARSE naming the token ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("play [r5 r6 x7]", "x7"),
        ("play r5 r6 r14", "r14"),
        ("play r5 r0 r6", "r0"),
        ("play r5 r6 r7 |", "|"),
        ("play | r5 r6 r7", "|"),
        ("play r5 r6 r7 || k1 k2 k3", "|"),
        ("play [r5 r6 r7", "[r5"),
        ("play [r5 r6 r7] junk", "junk"),
        ("play G:", "G:"),
        ("play r5 r6 r7 G:", "G:"),
        ("play", ""),
        ("", ""),
        ("fly r5", "fly"),
        ("draw 2", "2"),
        ("pass now", "now"),
        ("done it", "it"),
        ("reset all", "all"),
        ("add x r5", "x"),
        ("add 1 q5", "q5"),
        ("add -1 r5", "-1"),
        ("add ² r5", "²"),
        ("add 1", "1"),
        ("move r5 a new", "a"),
        ("move zz 1 2", "zz"),
        ("move r5 1 newer", "newer"),
        ("split 1 a", "a"),
        ("split 1 -1", "-1"),
        ("split 1 2.5", "2.5"),
        ("new r5 x1", "x1"),
        ("new", ""),
        ("new r5 r6 r7 | k1 k2 k3", "r5 r6 r7 | k1 k2 k3"),
    ],
)
def test_malformed_commands_name_the_token(text: str, token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        ENG.parse(text)
    assert info.value.code == "E_PARSE"
    assert info.value.params["token"] == token


@pytest.mark.parametrize("text", ["move r5 1", "split 1", "move r5 1 2 3", "split 1 2 3", "play [r5 r6 r7] [ ]"])
def test_wrong_argument_count_or_empty_meld_is_E_PARSE(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        ENG.parse(text)
    assert info.value.code == "E_PARSE"
    assert "token" in info.value.params


def test_numbers_that_name_nothing_parse_and_are_refused_later() -> None:  # RK-26, RK-90
    # A well-formed number is not a parse error: the draft answers E_BAD_REF (see the rules tests).
    assert ENG.parse("split 1 0") == Split(meld=1, pos=0)
    assert ENG.parse("add 0 r5") == AddTiles(meld=0, tiles=("r5",))
    assert ENG.parse("move r5 0 new") == MoveTile(tile="r5", src=0, dst=None)
