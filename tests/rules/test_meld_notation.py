"""One meld-list notation in every game (rules/core/meld_list.py): `|`, brackets, or both mixed."""

from __future__ import annotations

import pytest

from rules import IllegalAction, get_engine
from rules.core.meld_list import MeldText, format_melds, split_melds


def tokens(text: str, prefixes: str = "") -> list[tuple[str, ...]]:
    return [m.tokens for m in split_melds(text, prefixes)]


ABC_DEF = [("a", "b", "c"), ("d", "e", "f")]


@pytest.mark.parametrize(
    "text",
    [
        "a b c | d e f",
        "[a b c] [d e f]",
        "[a b c] | [d e f]",
        "(a b c) (d e f)",
        "a b c | [d e f]",
        "[a b c] | d e f",
        "a b c [d e f]",
        "[a b c] d e f",
        "(a b c) | [d e f]",
        "  a   b c|d e   f ",
        "[a b c][d e f]",
    ],
)
def test_bars_brackets_and_both_mixed_read_the_same(text: str) -> None:
    assert tokens(text) == ABC_DEF


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("", ""),
        ("| a b c", "|"),
        ("a b c |", "|"),
        ("[a b c] |", "|"),
        ("a b c | | d e f", "|"),
        ("a b c || d e f", "|"),
        ("[a b c", "[a"),
        ("a b c ]", "]"),
        ("[ ]", "[]"),
        ("[a [b] c]", "["),
        ("[a b | c]", "|"),
        ("[a b c)", "[a"),
    ],
)
def test_misplaced_bars_and_brackets_name_the_token(text: str, token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        split_melds(text)
    assert info.value.code == "E_PARSE"
    assert info.value.params["token"] == token


@pytest.mark.parametrize(
    "text",
    ["G:r5 j j | k1 k2 k3", "G:[r5 j j] k1 k2 k3", "[G:r5 j j] | [k1 k2 k3]", "g : r5 j j | [k1 k2 k3]"],
)
def test_prefixes_before_a_meld_its_bracket_or_inside_it(text: str) -> None:
    assert split_melds(text, "GR") == (MeldText(("r5", "j", "j"), "G"), MeldText(("k1", "k2", "k3")))


@pytest.mark.parametrize(("text", "token"), [("G:", "G:"), ("r5 r6 G:", "G:"), ("G: | r5", "G:"), ("G:[R:r5]", "R:")])
def test_a_prefix_needs_its_own_meld(text: str, token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        split_melds(text, "GR")
    assert info.value.params["token"] == token


def test_without_prefixes_a_colon_is_an_ordinary_token() -> None:
    assert tokens("G:r5 j") == [("G:r5", "j")]


def test_format_is_bars_with_prefixes() -> None:
    melds = split_melds("[G:r5 j j] (k1 k2 k3)", "GR")
    assert format_melds(melds) == "G:r5 j j | k1 k2 k3"
    assert split_melds(format_melds(melds), "GR") == melds


# ---- every game with meld lists reads the mixed form: the README's `meld r5 b5 k5 | [r2 b2 j]` ----

MIXED = {
    "rummikub": ("play r5 b5 k5 | [r2 b2 j]", "play [r5 b5 k5] [r2 b2 j]", "play r5 b5 k5 | r2 b2 j"),
    "rummy101": ("meld r5 b5 k5 | [r2 b2 j]", "meld (r5 b5 k5) [r2 b2 j]", "meld r5 b5 k5 | r2 b2 j"),
    "canasta": ("meld r5 b5 k5 | [r2 b2 j]", "meld [r5 b5 k5] (r2 b2 j)", "meld r5 b5 k5 | r2 b2 j"),
}


@pytest.mark.parametrize("game", sorted(MIXED))
def test_every_game_reads_the_mixed_notation(game: str) -> None:
    engine = get_engine(game)
    mixed, brackets, bars = MIXED[game]
    assert engine.parse(mixed) == engine.parse(brackets) == engine.parse(bars)
    assert engine.format(engine.parse(mixed)) == bars


def test_rummy101_declared_jokers_inside_brackets() -> None:
    engine = get_engine("rummy101")
    assert engine.parse("open r10 j=r11 r12 | [r8 b8 j=8]") == engine.parse("open [r10 j=r11 r12] (r8 b8 j=8)")


def test_canasta_pile_take_with_mixed_melds() -> None:
    engine = get_engine("canasta")
    assert engine.parse("take with r13 k13 | [r1 b1 y1]") == engine.parse("take with [r13 k13] [r1 b1 y1]")
