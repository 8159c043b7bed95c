"""rules/core notation and decks (ARCHITECTURE "Notation", stacked-deck prefix)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import IllegalAction, SetupError
from rules.core import cards, tiles
from rules.core.deck import build_deck, deal_blocks, rng_for

# ---- tiles (RK-01, RK-02, RK-04) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "tile"),
    [
        ("r5", "r5"), ("R5", "r5"), ("k13", "k13"), ("K13", "k13"), ("b1", "b1"), ("y12", "y12"),
        ("o5", "y5"), ("O13", "y13"),  # orange is the printed yellow
        ("r05", "r5"), (" b7 ", "b7"),
        ("j", "j"), ("J", "j"), ("jk", "j"), ("JOKER", "j"),
    ],
)
def test_parse_tile_variants(token: str, tile: str) -> None:
    assert tiles.parse_tile(token) == tile
    assert tiles.is_tile(token)


@pytest.mark.parametrize("token", ["", "r", "5", "r0", "r14", "g5", "x1", "5r", "r-1", "r 5", "rr5", "r5r", "j1", "♥5"])
def test_parse_tile_rejects_bad_tokens(token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        tiles.parse_tile(token)
    assert info.value.code == "E_PARSE"
    assert info.value.params["token"] == token
    assert not tiles.is_tile(token)


def test_tile_set_and_helpers() -> None:
    full = tiles.tile_set()
    assert len(full) == 106 and Counter(full)["j"] == 2
    assert all(Counter(full)[f"{c}{n}"] == 2 for c in "rbky" for n in range(1, 14))
    assert len(tiles.tile_set(jokers=0)) == 104 and len(tiles.tile_set(jokers=1)) == 105
    assert tiles.sorted_tiles(["y1", "j", "k2", "r13", "b5", "r2"]) == ["r2", "r13", "b5", "k2", "y1", "j"]
    assert sorted(["y3", "r3", "j", "b1"], key=tiles.number_key) == ["b1", "r3", "y3", "j"]
    assert (tiles.colour("k7"), tiles.number("k7"), tiles.make_tile("b", 9)) == ("k", 7, "b9")
    assert tiles.is_joker("j") and not tiles.is_joker("r1")


# ---- cards ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("10H", "10H"), ("10h", "10H"), ("QS", "QS"), ("qs", "QS"), ("AD", "AD"), ("ad", "AD"),
        ("1D", "AD"), ("TS", "10S"), ("KC", "KC"), ("2c", "2C"), ("JD", "JD"),
        ("JK", "JK"), ("jk", "JK"), ("joker", "JK"),
        ("10♥", "10H"), ("Q♠", "QS"), ("A♦", "AD"), ("K♣", "KC"), ("7♡", "7H"), ("3♤", "3S"),
        (" 9s ", "9S"),
    ],
)
def test_parse_card_variants(token: str, card: str) -> None:
    assert cards.parse_card(token) == card


@pytest.mark.parametrize("token", ["", "11H", "0S", "1", "H", "ZZ", "H10", "QX", "10", "JKK", "♥", "QQS", "10 H"])
def test_parse_card_rejects_bad_tokens(token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        cards.parse_card(token)
    assert info.value.code == "E_PARSE"
    assert info.value.params["token"] == token


def test_card_deck_and_helpers() -> None:
    deck = cards.card_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    two = cards.card_deck(decks=2, jokers=4)
    assert len(two) == 108 and Counter(two)["JK"] == 4 and Counter(two)["QS"] == 2
    assert (cards.rank("10H"), cards.suit("10H"), cards.rank_number("KS"), cards.rank_number("AD")) == ("10", "H", 13, 1)
    assert cards.sorted_cards(["JK", "2C", "AS", "KH", "10S"]) == ["AS", "10S", "KH", "2C", "JK"]
    assert cards.is_joker("JK") and not cards.is_joker("JD")


# ---- decks ----------------------------------------------------------------------------------------


def test_seeded_shuffles_are_reproducible_and_labelled() -> None:
    full = tiles.tile_set()
    a = build_deck(full, rng_for(7, "deal", 1))
    assert a == build_deck(full, rng_for(7, "deal", 1))
    assert a != build_deck(full, rng_for(8, "deal", 1))
    assert a != build_deck(full, rng_for(7, "deal", 2))
    assert sorted(a) == sorted(full) and a != full


def test_prefix_comes_first_in_order_and_rest_is_the_remainder() -> None:
    full = tiles.tile_set()
    prefix = ["k13", "j", "r1", "k13", "j"]
    deck = build_deck(full, rng_for(1, "x"), prefix)
    assert deck[:5] == prefix
    assert Counter(deck) == Counter(full)
    # The rest keeps the seeded order of the shuffle without the prefix tiles.
    shuffled = build_deck(full, rng_for(1, "x"))
    left = Counter(prefix)
    rest = []
    for t in shuffled:
        if left[t]:
            left[t] -= 1
        else:
            rest.append(t)
    assert deck[5:] == rest


def test_prefix_is_parsed_when_a_parser_is_given() -> None:
    deck = build_deck(cards.card_deck(), rng_for(3), ["10♥", "qs", "1d"], parse_item=cards.parse_card)
    assert deck[:3] == ["10H", "QS", "AD"]
    deck = build_deck(tiles.tile_set(), rng_for(3), ["O5", "J"], parse_item=tiles.parse_tile)
    assert deck[:2] == ["y5", "j"]


@pytest.mark.parametrize(
    ("full", "prefix", "parser"),
    [
        (tiles.tile_set(), ["r5", "r5", "r5"], None),
        (tiles.tile_set(jokers=0), ["j"], None),
        (tiles.tile_set(), ["q5"], tiles.parse_tile),
        (cards.card_deck(), ["QS", "QS"], cards.parse_card),
        (cards.card_deck(), ["JK"], cards.parse_card),  # no jokers in this deck
        (cards.card_deck(), ["11H"], cards.parse_card),
    ],
)
def test_prefix_errors(full: list[str], prefix: list[str], parser: object) -> None:
    with pytest.raises(SetupError, match="deck"):
        build_deck(full, rng_for(0), prefix, parse_item=parser)  # type: ignore[arg-type]


def test_deal_blocks() -> None:
    deck = [str(i) for i in range(20)]
    hands, rest = deal_blocks(deck, [3, 4, 2])
    assert hands == [["0", "1", "2"], ["3", "4", "5", "6"], ["7", "8"]]
    assert rest == [str(i) for i in range(9, 20)]
    hands, rest = deal_blocks(deck[:5], [2, 2])
    assert hands == [["0", "1"], ["2", "3"]] and rest == ["4"]
