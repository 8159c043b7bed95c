"""Hints shown only when they apply: Three-Thirteen's "no deadwood" only when a discard goes out,
Rummy 101's take only when the discard can be used (with a command that works) and the joker button
only when on and unused, Rummy 500's market lines naming exactly what comes into the hand."""

from __future__ import annotations

import pytest

from bot.core.render import rummy101 as r101
from bot.core.render import rummy500 as r500
from bot.core.render import three_thirteen as r13
from tests.rules import rummy101_scenario as s101
from tests.rules import rummy500_scenario as s500
from tests.rules import three_thirteen_scenario as s13

# ---- Three-Thirteen -------------------------------------------------------------------------------


def t13_hand(hand: str, lang: str = "en", taken: str | None = None) -> str:
    # Round 3: 5 cards, 5s wild; after the draw the hand holds 6.
    state = s13.scenario(round_number=3, hands={0: hand}, turn=0, phase="discard", taken=taken)
    return r13.render_hand(s13.ENG.view(state, 0), lang)


def test_all_melds_but_no_discard_goes_out_is_not_called_no_deadwood() -> None:
    # Two sets of three: every card is melded, yet any discard breaks a meld.
    text = t13_hand("8S 8D 8C 2H 2D 2C")
    assert "No deadwood" not in text
    assert "Every card is in a meld, but one must go and each breaks a meld: the best discard, 2C, leaves deadwood 4." \
        in text
    assert "Discard" not in text.split("best discard")[1]
    assert "любая ломает комбинацию: лучше всего сбросить 2C — останется мусора на 4." in t13_hand("8S 8D 8C 2H 2D 2C", "ru")


def test_a_discard_that_goes_out_is_named_and_none_when_none_does() -> None:
    # Round 3, 5s wild: the four 8s and the wild 5C are one set once 2H goes.
    assert "Discard 2H and you go out." in t13_hand("8S 8D 8C 8H 2H 5C")
    assert "Сбросьте 2H — и вы выходите." in t13_hand("8S 8D 8C 8H 2H 5C", "ru")
    text = t13_hand("8S 8D 8C 2H 2D KS")  # whatever goes, 2H 2D or more stay loose
    assert "Deadwood: " in text and "go out" not in text


def test_the_draw_phase_has_no_discard_hint() -> None:
    state = s13.scenario(round_number=3, hands={0: "8S 8D 8C 2H 2D"}, turn=0, phase="draw")
    view = s13.ENG.view(state, 0)
    assert view["best_discard"] is None
    assert "best discard" not in r13.render_hand(view, "en")


# ---- Rummy 101 -------------------------------------------------------------------------------------


def r101_hand(lang: str = "en", **kw: object) -> str:
    state = s101.scenario(phase="draw", turn=0, **kw)
    return r101.render_hand(s101.ENG.view(state, 0), lang)


def test_take_is_offered_only_with_a_use_and_names_one_that_works() -> None:
    opened = {0: "series", 1: "series"}
    text = r101_hand(hands={0: "r6 r7 b2 k4 y9"}, discard="b11 r8", status=opened)
    assert "You may take r8 if you use it at once: take meld r6 r7 r8" in text
    assert "Your turn: draw, or take the discard." in text
    state = s101.scenario(phase="draw", turn=0, hands={0: "r6 r7 b2 k4 y9"}, discard="b11 r8", status=opened)
    s101.act(state, 0, s101.ENG.view(state, 0)["take_hint"])  # the hinted command is accepted
    text = r101_hand(hands={0: "r1 b3 k5 y9 y12"}, discard="b11 r8", status=opened)
    assert "You may take" not in text  # nothing can use r8: no take offered
    assert "Your turn: draw." in text
    assert "Ваш ход: возьмите фишку (draw)." in r101_hand("ru", hands={0: "r1 b3 k5 y9 y12"}, discard="b11 r8",
                                                          status=opened)


def test_the_take_may_go_onto_a_table_meld() -> None:
    opened = {0: "series", 1: "series"}
    text = r101_hand(hands={0: "r1 b3 k5 y9 y12"}, discard="b11 k8", status=opened, table=[("k5 k6 k7", 1)])
    assert "You may take k8 if you use it at once: take add 1 k8" in text


@pytest.mark.parametrize(
    ("options", "used", "offered"),
    [({"joker_button": "on"}, False, True), ({"joker_button": "on"}, True, False), ({}, False, False)],
)
def test_the_joker_button_is_offered_only_when_on_and_unused(options: dict, used: bool, offered: bool) -> None:
    state = s101.scenario(phase="draw", turn=0, hands={0: "r1 b3 k5 y9 y12"}, discard="b11 r8", options=options)
    state["joker_used"][0] = used
    text = r101.render_hand(s101.ENG.view(state, 0), "en")
    assert ("press joker" in text) is offered


# ---- Rummy 500 -------------------------------------------------------------------------------------


def test_market_lines_say_which_cards_come_and_which_one_stays() -> None:
    state = s500.scenario(hands={0: "3S 3C 4S 9C"}, market="4C 3H 9D KD QS")
    text = r500.render_hand(s500.ENG.view(state, 0), "en")
    # After 3H come 9D KD QS; one must stay (the costliest, KD ties QS at 10: the first): two come along.
    assert "#2 3H: lay 3S 3C 3H (+9) · into your hand: 9D QS (19) · KD stays in the market (leave KD)" in text
    assert "all but one" not in text and "from 0" not in text
    ru = r500.render_hand(s500.ENG.view(state, 0), "ru")
    assert "· в руку: 9D QS (19) · KD остаётся на рынке (leave KD)" in ru


def test_a_take_that_brings_nothing_says_only_what_stays() -> None:
    state = s500.scenario(hands={0: "3S 3C 4S 9C"}, market="4C 3H AS")
    text = r500.render_hand(s500.ENG.view(state, 0), "en")
    assert "#2 3H: lay 3S 3C 3H (+9) · AS stays in the market (leave AS)" in text
    assert "into your hand" not in text.split("#2 3H")[1].split("\n")[0]
