"""Rummy 500 text: the market with positions, structures with IDs, owners and joker identities,
burned cards, market-take previews, events, errors; English and Russian complete."""

from __future__ import annotations

import pytest

from bot.core.i18n import available_languages, catalog, catalog_files
from bot.core.render import rummy500 as r5
from bot.core.render.common import render_error
from rules import IllegalAction
from tests.rules.rummy500_scenario import ENG, act, run, scenario, set_

NAMES = ["Ann", "Bob", "Cy"]


def table_state() -> dict:
    table = [run(1, "JK 2D 3D", 1), set_(2, "8H 8S JK", 0), set_(3, "5S 5H 5C", 2)]
    return scenario(hands={0: "3S 3C 4S 9C"}, table=table, market="4C 3H 9D AD")


def test_table_shows_market_structures_owners_jokers_burned() -> None:
    text = r5.render_table(ENG.view(table_state(), None), NAMES, "en", 42)
    assert "Market (#1 next to the bank): #1 4C  #2 3H  #3 9D  #4 AD" in text
    assert "S1  JK=AD 2D 3D   (run 20) · Bob JK 2D 3D" in text
    assert "S2  8H 8S JK=8?   (set 24) · Ann 8H 8S JK · JK still open: 8D / 8C" in text
    assert "Burned (can never be laid): AD" in text
    assert "Turn: Ann · 42s left" in text
    assert "1. Ann · 4 cards · laid 24 · total 0 · dealer" in text


def test_branch_and_owners_of_extensions() -> None:
    state = scenario(hands={1: "5D 6D 9C"}, table=[set_(1, "5S 5H 5C", 0)], turn=1, phase="bank")
    state, _ = act(state, 1, "lay 5D 6D on S1")
    text = r5.render_table(ENG.view(state, None), NAMES, "en", None)
    assert "S1  5S 5H 5C 5D   (set 20) · Ann 5S 5H 5C · Bob 5D · branch S2" in text
    assert "S2  5D 6D   (run 6) · Bob 6D · branch of S1" in text


def test_hand_shows_what_each_market_take_brings() -> None:
    view = ENG.view(table_state(), 0)
    text = r5.render_hand(view, "en")
    assert "#1 4C: lay 3S 4S 4C" not in text  # 4C 4S 3S is not a meld
    # After #2 come 9D AD; one must stay: the costlier AD, so 9D alone comes into the hand.
    assert "#2 3H: lay 3S 3C 3H (+9) · into your hand: 9D (9) · AD stays in the market (leave AD)" in text
    assert "#4 AD: burned, cannot be taken" in text
    assert "Your hand (4 cards, 19 points if the round ended now):" in text
    assert r5.render_hand(view, "ru").startswith("Ваша рука")


def test_events_and_round_summary() -> None:
    state = scenario(hands={0: "4D 5D"}, market="9S 6D")
    state, events = act(state, 0, "take market 6D; lay 4D 5D 6D")
    lines = [r5.render_event(e, NAMES, None, "en") for e in events]
    assert "Ann took 6D (#2) from the market: 6D." in lines
    assert "Ann laid 4D 5D 6D as S1 (+15)." in lines
    summary = next(x for x in lines if x and x.startswith("Round 1 over"))
    assert "Ann went out after a market take!" in summary and "Ann: laid 15 − hand — (0) + bonus 0 = +15" in summary
    for lang in available_languages():
        for e in events:
            out = r5.render_event(e, NAMES, 0, lang)
            assert out is None or "{" not in out


def test_errors_render_with_cards() -> None:
    state = scenario(hands={0: "JK 4D 5D 6D"}, phase="bank")
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, 0, ENG.parse("lay 4D 5D 6D"))
    assert render_error(err.value, game="rummy500") == (
        "After a bank take you must keep a card you can discard: laying 4D 5D 6D would leave only jokers. "
        "Lay fewer cards, so a natural one stays for the discard.")
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, 0, ENG.parse("lay 4D 6D JK"))
    assert render_error(err.value, game="rummy500").startswith("The 1st lay you typed is not valid: 4D 6D JK (neither a set")


def test_russian_catalog_is_complete() -> None:
    en = {k for k in catalog("en") if "rummy500" in k}
    ru = {k for k in catalog("ru") if "rummy500" in k}
    assert en and en == ru
    assert set(catalog_files("en")["rummy500"]) == set(catalog_files("ru")["rummy500"])


def test_single_card_after_target_stays() -> None:
    state = scenario(hands={0: "AH JK 5C"}, market="AD 9H")
    text = r5.render_hand(ENG.view(state, 0), "en")
    assert "#1 AD: lay AH AD JK (+45) · 9H stays in the market" in text


def test_out_of_turn_reads_as_not_your_turn() -> None:  # R500-26
    state = scenario(hands={1: "4D 5D 6D"})
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, 1, ENG.parse("take bank"))
    assert err.value.code == "E_PHASE"
    assert render_error(err.value, game="rummy500").startswith("It is not your turn: wait for yours")
    assert render_error(err.value, "ru", game="rummy500").startswith("Сейчас не ваш ход: дождитесь своего")
