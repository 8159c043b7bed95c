"""The text grammar of shared/rules/rummy500.md §13: every command, aliases, and parse(format(a)) == a."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.core.cards import card_deck
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeBank, TakeMarket, Timeout
from tests.rules.rummy500_scenario import ENG


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("take bank", TakeBank()),
        ("draw", TakeBank()),
        ("TAKE BANK", TakeBank()),
        ("take market 7D leave 3H; lay 7D 8D 9D 10D; lay KS KC KH",
         TakeMarket(target="7D", leave="3H", lays=(Lay(cards=("7D", "8D", "9D", "10D")), Lay(cards=("KS", "KC", "KH"))))),
        ("take 7d leave 3h; lay 7d 8d 9d 10d", TakeMarket(target="7D", leave="3H", lays=(Lay(cards=("7D", "8D", "9D", "10D")),))),
        ("take market #2; lay 3H 3S 3D", TakeMarket(pos=2, lays=(Lay(cards=("3H", "3S", "3D")),))),
        ("take #1", TakeMarket(pos=1)),
        ("take market 3H", TakeMarket(target="3H")),
        ("lay 9S 9H 9C", Lay(cards=("9S", "9H", "9C"))),
        ("lay 6C JK 8C", Lay(cards=("6C", "JK", "8C"))),
        ("lay 8H 9H on S1", Lay(cards=("8H", "9H"), on=1)),
        ("lay 8♥ 9♥ on s12", Lay(cards=("8H", "9H"), on=12)),
        ("lay jk kh on S2", Lay(cards=("JK", "KH"), on=2)),
        ("discard KS", Discard(card="KS")),
        ("discard k♠", Discard(card="KS")),
        ("end", End()),
        ("stop", Stop()),
        ("timeout", Timeout()),
        ("/draw", TakeBank()),
    ],
)
def test_commands(text: str, action: object) -> None:
    parsed = ENG.parse(text)
    assert parsed == action
    assert ENG.parse(ENG.format(parsed)) == parsed


@pytest.mark.parametrize(
    "text",
    ["", "   ", "fly", "take", "take bank now", "take market", "take market 7D leave", "take market 7D keep 3H",
     "take market #0", "take market #x", "lay", "lay on S1", "lay 5H on", "lay 5H on S0", "lay 5H on X1",
     "lay 5H on S1 6H", "lay ZZ", "discard", "discard 5H 6H", "end now", "stop 1", "lay 5H 6H 7H; lay 8H 9H 10H",
     "take market 7D;", "take market 7D; discard 5H", "take bank; lay 5H 6H 7H", "lay 5H\x00"],
)
def test_garbage_is_E_PARSE(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        ENG.parse(text)
    assert err.value.code == "E_PARSE"


CARDS = st.sampled_from(card_deck(jokers=1))
LAYS = st.builds(lambda cs, on: Lay(cards=tuple(cs), on=on), st.lists(CARDS, min_size=1, max_size=6),
                 st.none() | st.integers(1, 40))


@settings(max_examples=150, deadline=None)
@given(
    target=st.none() | CARDS.filter(lambda c: c != "JK"),
    pos=st.integers(1, 30),
    leave=st.none() | CARDS,
    lays=st.lists(LAYS, max_size=3),
)
def test_market_take_round_trips(target: str | None, pos: int, leave: str | None, lays: list[Lay]) -> None:
    action = TakeMarket(target=target, leave=leave, lays=tuple(lays)) if target else TakeMarket(
        pos=pos, leave=leave, lays=tuple(lays))
    assert ENG.parse(ENG.format(action)) == action


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_random_text_parses_or_is_E_PARSE(text: str) -> None:
    try:
        action = ENG.parse(text)
    except IllegalAction as err:
        assert err.code == "E_PARSE"
    else:
        assert ENG.parse(ENG.format(action)) == action


def test_help_lists_every_command() -> None:
    commands = [cmd for cmd, _ in ENG.help_text()]
    for cmd in commands:
        ENG.parse(cmd)
    assert {c.split()[0] for c in commands} >= {"take", "lay", "discard", "end", "stop"}


def test_actions_hold_only_canonical_cards() -> None:
    from pydantic import ValidationError

    for build in (lambda: Lay(cards=("ZZ",)), lambda: Discard(card="10h"), lambda: TakeMarket(target="x"),
                  lambda: TakeMarket(target="5H", pos=2), lambda: TakeMarket()):
        with pytest.raises(ValidationError):
            build()
