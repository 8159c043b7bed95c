"""Playing cards in the shared notation: rank `A 2..10 J Q K` + suit `S H D C` (`10H`, `QS`), joker `JK`.

Input is case-insensitive and takes suit symbols (♠♥♦♣) too; state holds canonical strings.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.errors import IllegalAction

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
JOKER = "JK"
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_RANK_INDEX = {r: i + 1 for i, r in enumerate(RANKS)}  # A=1 .. K=13
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

_CANONICAL: dict[str, str] = {"jk": JOKER, "joker": JOKER, "*": JOKER}
for _r in RANKS:
    for _s in SUITS:
        _CANONICAL[f"{_r}{_s}".lower()] = f"{_r}{_s}"
for _s in SUITS:
    _CANONICAL[f"1{_s}".lower()] = f"A{_s}"  # a 1 is an ace
    _CANONICAL[f"t{_s}".lower()] = f"10{_s}"  # T for ten, as many card tools write it


def parse_card(token: str) -> str:
    """Canonical card for a token (case-insensitive, suit symbols allowed), else `E_PARSE`."""
    text = token.strip()
    for symbol, letter in _SYMBOLS.items():
        text = text.replace(symbol, letter)
    card = _CANONICAL.get(text.lower())
    if card is None:
        raise IllegalAction("E_PARSE", token=token, expected="card")
    return card


def is_joker(card: str) -> bool:
    return card == JOKER


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def rank_number(card: str) -> int:
    """A=1, 2..10, J=11, Q=12, K=13."""
    return _RANK_INDEX[card[:-1]]


def card_deck(decks: int = 1, jokers: int = 0) -> list[str]:
    """`decks` standard 52-card decks in canonical order, then `jokers` jokers."""
    cards = [f"{r}{s}" for _ in range(decks) for s in SUITS for r in RANKS]
    return cards + [JOKER] * jokers


def sort_key(card: str) -> tuple[int, int]:
    """Suit order S H D C then rank; jokers last."""
    if card == JOKER:
        return (len(SUITS), 0)
    return (_SUIT_INDEX[card[-1]], _RANK_INDEX[card[:-1]])


def sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)
