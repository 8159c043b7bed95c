"""Meld validity (T13-30..36) and the exact minimum deadwood (T13-37/38/40), including a property
test against a brute-force minimum on random hands with many wilds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.cards import RANKS, SUITS
from rules.three_thirteen.deadwood import (
    arrange,
    card_value,
    deadwood,
    fully_melded,
    is_valid_meld,
    is_wild,
    wild_rank_for_round,
)
from tests.rules.three_thirteen_scenario import cards


def valid(text: str, round_number: int, ace_high: bool = False) -> bool:
    return is_valid_meld(cards(text), wild_rank_for_round(round_number), ace_high)


def dw(text: str, round_number: int, ace_high: bool = False) -> int:
    return deadwood(cards(text), wild_rank_for_round(round_number), ace_high)


def check_arrangement(hand: list[str], wild: int, ace_high: bool) -> int:
    """The arrangement is a real split of the hand into valid melds + leftover worth D."""
    arr = arrange(hand, wild, ace_high)
    assert all(is_valid_meld(m, wild, ace_high) for m in arr.melds), arr
    assert sorted([c for m in arr.melds for c in m] + list(arr.deadwood_cards)) == sorted(hand)
    assert sum(card_value(c, wild, ace_high) for c in arr.deadwood_cards) == arr.deadwood
    assert fully_melded(hand, wild, ace_high) == (arr.deadwood == 0)
    return arr.deadwood


# ---- T13-04 ------------------------------------------------------------------------------------------


def test_t01_wild_rank_per_round() -> None:  # T-01, T13-04
    assert [RANKS[wild_rank_for_round(r) - 1] for r in (1, 8, 9, 10, 11)] == ["3", "10", "J", "Q", "K"]
    assert is_wild("JK", 3) and is_wild("3C", 3) and not is_wild("4C", 3)


# ---- meld validity -----------------------------------------------------------------------------------


def test_t03_validity_round_one() -> None:  # T-03, T13-36
    assert valid("3H KD KS", 1)  # set of K, 3H wild
    assert valid("3H 3S 3C", 1)  # all wild
    assert valid("AH 2H 3C", 1)  # run A-2-3, 3C = 3H
    assert not valid("3H 5C 9D", 1)


def test_t04_ace_high() -> None:  # T-04, T13-31, T13-03
    assert not valid("QH KH AH", 5)
    assert valid("QH KH AH", 5, ace_high=True)
    assert not valid("KH AH 2H", 5, ace_high=True)
    assert not valid("KH AH 2H", 5)


def test_t05_sets_repeat_suits_runs_do_not_repeat_ranks() -> None:  # T-05, T13-30/31
    assert valid("9H 9H 9S", 5)
    assert not valid("5H 5H 6H", 5)


def test_t21_formal_validity_test() -> None:  # T-21, T13-35
    assert valid("4D 7C 6D", 5)  # 4D-5D-6D, 7C wild
    assert not valid("4D 7C 8D", 5)  # 4..8 needs 5 cards
    assert valid("5H 5H 7C", 5)  # set of 5s
    assert valid("JH QH 7S 7D", 5)  # e.g. 10H-JH-QH-KH


def test_t13_36_examples_table() -> None:  # T13-36 rows not covered above
    assert valid("4S 4D JK KC", 2)
    assert is_valid_meld(cards("4S 4D JK KC"), 4)


def test_meld_edges() -> None:  # T13-30..35
    assert not valid("KD KS", 1)  # fewer than 3 cards
    assert valid("8H 8H 8H 8S 8S 8D 8D 8C 8C", 1)  # no maximum set size (D-10)
    assert valid("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 5)  # 13-card run
    assert not valid("AS 2S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK JK", 5)  # 14 > 13 (T13-35)
    assert valid("10C JC QC KC AC", 1, ace_high=True)  # 10-J-Q-K-A
    assert not valid("AC 2C QC KC", 1, ace_high=True)  # one reading per meld, no wrap
    assert valid("JK JK JK", 1)  # a meld may be all wilds (T13-32)
    assert valid("2D JK 6D 6D", 2) is False  # 2D and two 6Ds: repeated rank in a run
    assert valid("2D 4C 4S", 2)  # round 2: 4s wild, so 2D + two wilds
    assert valid("QH KH JK", 5)  # J-Q-K with the joker as J (never past K)


# ---- values ------------------------------------------------------------------------------------------


def test_t08_values() -> None:  # T-08, T13-38/40
    assert dw("JH QS AC", 9) == 15 + 10 + 1
    assert dw("JH QS AC", 9, ace_high=True) == 15 + 10 + 15


def test_wild_rank_card_as_itself() -> None:  # T13-33
    assert valid("3H 4H 5H", 1)  # the 3H as itself (or as a wild: same verdict)
    assert dw("3H 4H 5H", 1) == 0
    assert dw("3H 3D 3S 4C", 1) == 0  # the 4C and three wilds: a set of 4s
    assert dw("3H 3D 4C", 1) == 0  # 4C + two wilds


def test_card_values() -> None:  # T13-40
    assert [card_value(c, 5) for c in cards("AS 2S 9S 10S JS QS KS 5S JK")] == [1, 2, 9, 10, 10, 10, 10, 15, 20]
    assert card_value("JH", 11) == 15 and card_value("JH", 12) == 10  # wild only in its round (T13-38)


# ---- deadwood worked examples -----------------------------------------------------------------------


def test_t06_one_card_in_one_meld() -> None:  # T-06, T13-37, T13-34
    assert dw("4H 5H 6H 6C 6D 9S KD", 5) == 28


def test_t07_wilds_and_jokers() -> None:  # T-07, T13-37/38
    assert dw("JK 6H 9C 9D 2S KH", 4) == 12


def test_t09_going_out_values() -> None:  # T-09, T13-23/38
    assert dw("3C 8D 8S", 1) == 0
    assert dw("3C 8D 9S", 1) == 15 + 8 + 9


def test_t10_thirteen_cards_out() -> None:  # T-10, T13-23
    hand = cards("AH 2H 3H 4H 7S 7D 7C 9C 10C KS QD QH KH")
    assert check_arrangement(hand, 13, False) == 0


def test_t11_t12_last_turn_hands() -> None:  # T-11, T-12
    assert dw("2C 2D 9H 9S KD", 3) == 32
    assert dw("5H 6S 6D 6C QC", 3) == 10
    assert dw("9H 9S 5D 2C 2D", 3) == 4


def test_t17_t18_all_wild_melds() -> None:  # T-17, T-18, T13-32
    assert dw("4S 4D JK KC", 2) == 0
    assert dw("4S 4D JK 9C", 2) == 0
    assert dw("5H 5S 5D 5C 5H", 3) == 0


def test_t22_twelve_cards() -> None:  # T-22, T13-38/40
    hand = cards("QS JK 2C 2D 2H 8S 9S 10S KC KD 4H 7D")
    assert check_arrangement(hand, 12, False) == 11


def test_t26_set_with_wild_beats_run() -> None:  # T-26, T13-41/37
    assert dw("9C 9D 2S 3S KD KH 4C 4D 6H", 7) == 11


def test_t31_joker_unmelded() -> None:  # T-31, T13-38/40
    assert dw("JK 2C KS", 1) == 32


def test_few_wilds_stay_deadwood_without_a_meld() -> None:  # T13-38
    assert dw("JK 3C", 1) == 35  # two wilds cannot meld alone
    assert dw("JK 3C 3D", 1) == 0  # three can
    assert dw("JK 3C KS", 1) == 0  # K + two wilds


def test_spare_wilds_join_a_meld() -> None:  # T13-32: any number of wilds per meld
    hand = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK JK")  # 12-run + 2 jokers (14 cards)
    assert check_arrangement(hand, 13, False) == 0
    hand = cards("KH KD JK JK")
    assert check_arrangement(hand, 4, False) == 0


# ---- the brute-force reference ---------------------------------------------------------------------
# The bitmask recursion of the spec's implementation note with the literal T13-35 validity test: for
# the first card c of the mask, either c is left over (its T13-40 value) or c is in some valid meld
# M within the mask. It lists every valid subset of the hand first (2^n checks), so it is exact and
# independent of the engine's search, and still fast enough for 14-card hands.


def brute_deadwood(cards: Sequence[str], wild_rank: int, ace_high: bool = False) -> int:
    hand = tuple(cards)
    n = len(hand)
    values = [card_value(c, wild_rank, ace_high) for c in hand]
    # Every valid meld of the hand (T13-35, checked literally), filed under its first card.
    melds_of: list[list[int]] = [[] for _ in range(n)]
    for mask in range(1, 1 << n):
        if mask.bit_count() >= 3 and is_valid_meld([hand[i] for i in range(n) if mask >> i & 1], wild_rank, ace_high):
            melds_of[(mask & -mask).bit_length() - 1].append(mask)

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        low = mask & -mask
        c = low.bit_length() - 1
        result = values[c] + best(mask & ~low)  # c left over
        for meld in melds_of[c]:  # or c in a valid meld inside the mask
            if meld & mask == meld:
                result = min(result, best(mask & ~meld))
        return result

    return best((1 << n) - 1)


# ---- the property test -------------------------------------------------------------------------------

RANK_NAMES = list(RANKS)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[str], int, bool]:
    """Random small hands, dense in melds: a few suits over a narrow rank window, plenty of wilds."""
    wild = draw(st.integers(3, 13))
    ace_high = draw(st.booleans())
    low = draw(st.sampled_from([1, 1, 4, 8, 9, 10]))
    window = [RANK_NAMES[(low - 1 + i) % 13] for i in range(draw(st.integers(3, 6)))]
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True))
    naturals = [r + s for r in window for s in suits] * 2
    wilds = ["JK"] * 4 + [RANK_NAMES[wild - 1] + s for s in SUITS] * 2
    n_wild = draw(st.integers(0, 6))
    n_nat = draw(st.integers(max(0, 3 - n_wild), 10 - n_wild))
    picked = draw(st.lists(st.sampled_from(naturals), min_size=n_nat, max_size=n_nat))
    picked += draw(st.lists(st.sampled_from(wilds), min_size=n_wild, max_size=n_wild))
    counts = Counter(picked)
    if any(v > (4 if c == "JK" else 2) for c, v in counts.items()):
        picked = [c for c in counts for _ in range(min(counts[c], 4 if c == "JK" else 2))]
    return picked, wild, ace_high


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_deadwood_equals_brute_force(case: tuple[list[str], int, bool]) -> None:  # T13-37
    hand, wild, ace_high = case
    if len(hand) < 1:
        return
    assert check_arrangement(hand, wild, ace_high) == brute_deadwood(hand, wild, ace_high)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([r + s for r in RANK_NAMES for s in SUITS] + ["JK"]), min_size=3, max_size=9),
       st.integers(3, 13), st.booleans())
def test_deadwood_equals_brute_force_any_cards(hand: list[str], wild: int, ace_high: bool) -> None:  # T13-37
    assert check_arrangement(hand, wild, ace_high) == brute_deadwood(hand, wild, ace_high)


@st.composite
def big_hands(draw: st.DrawFn) -> tuple[list[str], int, bool]:
    """12- to 14-card hands (13 + the drawn card is the largest in play) with 0..6 wilds, dense
    (two suits over six ranks) or spread over the whole deck."""
    wild = draw(st.integers(3, 13))
    ace_high = draw(st.booleans())
    size = draw(st.integers(12, 14))
    n_wild = draw(st.integers(0, 6))
    if draw(st.booleans()):
        low = draw(st.integers(0, 7))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=2, unique=True))
        naturals = [RANK_NAMES[r] + s for r in range(low, low + 6) for s in suits if r + 1 != wild] * 2
    else:
        naturals = [r + s for r in RANK_NAMES for s in SUITS if r != RANK_NAMES[wild - 1]] * 2
    wilds = ["JK"] * 4 + [RANK_NAMES[wild - 1] + s for s in SUITS] * 2
    picked = draw(st.permutations(naturals))[: size - n_wild] + draw(st.permutations(wilds))[:n_wild]
    return picked, wild, ace_high


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_hands())
def test_deadwood_equals_brute_force_big_hands(case: tuple[list[str], int, bool]) -> None:  # T13-37
    hand, wild, ace_high = case
    assert check_arrangement(hand, wild, ace_high) == brute_deadwood(hand, wild, ace_high)


@pytest.mark.parametrize("seed", range(40))
def test_big_hands_are_consistent(seed: int) -> None:  # T13-37 on 13/14 cards
    # A valid split worth D, and D(hand - c) >= D - value(c) for every card c (else putting c back
    # as a loose card would beat the minimum).
    rng = Random(seed)
    wild = rng.randint(3, 13)
    window = [RANK_NAMES[(rng.randint(0, 12) + i) % 13] for i in range(6)]
    pool = [r + s for r in window for s in "SH"] * 2 + ["JK"] * 4 + [RANK_NAMES[wild - 1] + s for s in SUITS] * 2
    hand = rng.sample(pool, 13 + seed % 2)
    counts = Counter(hand)
    hand = [c for c in counts for _ in range(min(counts[c], 4 if c == "JK" else 2))]
    d = check_arrangement(hand, wild, False)
    for i in range(len(hand)):  # removing a card never costs more than keeping it loose
        rest = hand[:i] + hand[i + 1 :]
        assert deadwood(rest, wild) >= d - card_value(hand[i], wild)
