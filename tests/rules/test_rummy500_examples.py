"""The worked examples T-01..T-26 of shared/rules/rummy500.md §11, one test (or more) each.

Unless a test says otherwise: 3 players, P1 = seat 0 is the dealer, default options. Rejections
assert the reason code (never message text) and that the state is unchanged (`rejected`).
"""

from __future__ import annotations

import pytest

from rules.core.cards import card_deck
from rules.rummy500 import melds
from tests.rules.rummy500_scenario import ENG, act, cards, rejected, run, scenario, set_

FILLER = [run(1, "5S 6S 7S", 1), run(2, "9C 10C JC", 1), set_(3, "KH KD KC", 1)]


def laid(state: dict) -> list[int]:
    return melds.laid_points(state["table"], state["seats"])


def struct(state: dict, sid: int) -> dict:
    found = melds.find(state["table"], sid)
    assert found is not None
    return found


def joker_identities(state: dict, sid: int) -> list[list[str]]:
    view = ENG.view(state, None)
    (s,) = [s for s in view["table"] if s["id"] == sid]
    return [s["jokers"][k] for k in sorted(s["jokers"], key=int)]


def turn_to(state: dict, seat: int, phase: str = "bank") -> dict:
    """The same table with `seat` to act in `phase` (to chain one example's steps by several players)."""
    state = dict(state)
    state.update(turn=seat, phase=phase, first=False, drawn=None)
    return state


# ---- T-01..T-03: the deal and the first turns -----------------------------------------------------


@pytest.mark.parametrize(("players", "bank"), [(2, 35), (3, 26), (4, 17)])
def test_T01_deal(players: int, bank: int) -> None:  # R500-12
    for seed in (0, 1, 7):
        state = ENG.new_game(players, seed=seed)
        dealer = state["dealer"]
        assert [len(h) for h in state["hands"]] == [10 if s == dealer else 9 for s in range(players)]
        assert len(state["bank"]) == bank and state["market"] == []
        assert sorted(ENG.all_items(state)) == sorted(card_deck(jokers=2))
    # A stacked deck is dealt in blocks in seat order; P1 deals and its block holds the 10th card.
    deck = card_deck()[: 10 + 9 * (players - 1) + 1]
    state = ENG.new_game(players, seed=3, deck=deck)
    assert state["dealer"] == 0
    assert state["hands"][0] == deck[:10] and state["hands"][1] == deck[10:19]
    assert state["bank"][0] == deck[-1]


def _opening_deck() -> list[str]:
    p1 = cards("7S 7H 7C 2D AS KD QD 9H 9S 5C")
    p2 = cards("4H 3S 8C 10D 2H 6D JC AH 5D")
    p3 = cards("KS 3D 4D 6C 10C 2C 4S 5H 8D")
    return [*p1, *p2, *p3, "QS"]


def test_T02_dealer_first_turn() -> None:  # R500-13, R500-22
    state = ENG.new_game(3, seed=1, deck=_opening_deck())
    rejected(state, 0, "take bank", "E_PHASE")
    state, _ = act(state, 0, "lay 7S 7H 7C")
    state, _ = act(state, 0, "discard 2D")
    assert state["market"] == ["2D"]
    assert len(state["hands"][0]) == 6
    assert ENG.current_seat(state) == 1


def test_T03_bank_take_then_discard() -> None:  # R500-22
    state = ENG.new_game(3, seed=1, deck=_opening_deck())
    state, _ = act(state, 0, "lay 7S 7H 7C")
    state, _ = act(state, 0, "discard 2D")
    state, events = act(state, 1, "take bank")
    assert "QS" in state["hands"][1]
    assert [e.data["cards"] for e in events if e.type == "CardsReceived"] == [["QS"]]
    state, _ = act(state, 1, "discard 4H")
    assert state["market"] == ["2D", "4H"]


# ---- T-04..T-08: the market ---------------------------------------------------------------------

T04_MARKET = "4C 7D KS KC 9D 3H"
T04_HAND = "8D 10D KH 5S 2C"


def t04(options: dict | None = None) -> dict:
    return scenario(hands={2: T04_HAND}, market=T04_MARKET, turn=2, options=options)


def test_T04_market_take_with_leave() -> None:  # R500-30, R500-31
    state = t04()
    new, _ = act(state, 2, "take market 7D leave 3H; lay 7D 8D 9D 10D; lay KS KC KH")
    assert new["market"] == ["4C", "3H"]
    assert sorted(new["hands"][2]) == sorted(cards("5S 2C"))
    assert laid(new)[2] - laid(state)[2] == 34 + 30 == 64
    rejected(new, 2, "discard 5S", "E_PHASE")  # no discard after a market take (R500-33)
    ended, _ = act(new, 2, "end")
    assert ENG.current_seat(ended) == 0


def test_T05_target_must_be_laid() -> None:  # R500-31
    rejected(t04(), 2, "take market 7D leave 3H; lay KS KC KH", "E_TARGET_NOT_LAID")


def test_T06_leave_choices() -> None:  # R500-30
    rejected(t04(), 2, "take market 7D leave 4C; lay 7D 8D 9D 10D; lay KS KC KH", "E_BAD_LEAVE")
    rejected(t04(), 2, "take market 7D; lay 7D 8D 9D 10D; lay KS KC KH", "E_BAD_LEAVE")
    state = t04({"market_leave_one": False})
    rejected(state, 2, "take market 7D leave 3H; lay 7D 8D 9D 10D; lay KS KC KH", "E_BAD_LEAVE")
    new, _ = act(state, 2, "take market 7D; lay 7D 8D 9D 10D; lay KS KC KH")
    assert new["market"] == ["4C"]
    assert sorted(new["hands"][2]) == sorted(cards("5S 2C 3H"))


def test_T07_newest_card_must_be_laid_too() -> None:  # R500-32
    state = scenario(hands={0: "3S 3D 9H"}, market="4C 3H")
    new, _ = act(state, 0, "take market 3H; lay 3H 3S 3D")
    assert new["market"] == ["4C"]
    rejected(state, 0, "take market 3H", "E_TARGET_NOT_LAID")


def t08(options: dict | None = None) -> dict:
    # S1 = JK 2D 3D by P2: the joker stands for AD, so AD is burned.
    return scenario(hands={0: "5S 6S 8S"}, table=[run(1, "JK 2D 3D", 1)], market="KD 7S AD 4S 3C 4H",
                    options=options)


def test_T08_is_it_worth_taking_the_7() -> None:  # R500-30, R500-52
    state = t08({"market_leave_one": False})
    assert melds.burned_cards(state["table"]) == {"AD"}
    # The seed's arithmetic: 5-6-7-8 makes 26, and the cards that come with the 7 cost 26 too.
    assert sum(melds.card_value(c) for c in cards("5S 6S 7S 8S")) == 26
    assert sum(melds.card_value(c) for c in cards("AD 4S 3C 4H")) == 15 + 4 + 3 + 4 == 26
    # (a) all cards after the 7 are taken; laying 4S too gives +30, and 22 stays in hand (AD never layable).
    new, _ = act(state, 0, "take market 7S; lay 4S 5S 6S 7S 8S")
    gained = laid(new)[0] - laid(state)[0]
    in_hand = melds.hand_value(new["hands"][0], 15)
    assert (gained, in_hand, gained - in_hand) == (30, 22, 8)
    rejected(new, 0, "lay AD 2H 3H", "E_NOT_IN_HAND")
    # (b) the default: leave the burned AD in the market; +30 on the table, 7 (3C 4H) in hand.
    state = t08()
    new, _ = act(state, 0, "take market 7S leave AD; lay 4S 5S 6S 7S 8S")
    gained = laid(new)[0] - laid(state)[0]
    in_hand = melds.hand_value(new["hands"][0], 15)
    assert (gained, in_hand, gained - in_hand) == (30, 7, 23)
    assert new["market"] == ["KD", "AD"]


# ---- T-09..T-13: jokers, burned cards, branches --------------------------------------------------


def t09() -> dict:
    table = [*FILLER, set_(4, "AH AS JK", 0)]
    return scenario(hands={1: "AC AD 2C 2D 3D 9H"}, table=table, turn=1, phase="bank")


def test_T09_seed_ace_example() -> None:  # R500-53, R500-44
    state = t09()
    assert melds.burned_cards(state["table"]) == set()
    assert joker_identities(state, 4) == [["AD", "AC"]]  # suit order S H D C
    new, _ = act(state, 1, "lay AC 2C on S4")
    assert struct(new, 4)["cards"] == ["AH", "AS", "JK", "AC"]
    branch = struct(new, 5)
    assert branch["cards"] == ["AC", "2C"] and branch["branch_of"] == 4
    assert joker_identities(new, 4) == [["AD"]]
    assert melds.burned_cards(new["table"]) == {"AD"}
    rejected(new, 1, "lay AD 2D 3D", "E_BURNED")
    after, _ = act(new, 1, "discard AD")
    assert after["market"][-1] == "AD"
    # P1's joker scores 15 (the ace it stands for); AC counts once, for P2.
    assert laid(new)[0] == 15 * 3
    assert laid(new)[1] - laid(state)[1] == 15 + 2


def test_T10_joker_cannot_stand_for_a_card_on_the_table() -> None:  # R500-51
    state = scenario(hands={0: "JK 2H 3H 9S"}, table=[set_(1, "AH AS AC", 1)], phase="bank")
    rejected(state, 0, "lay JK 2H 3H", "E_JOKER_CONFLICT")


def t11() -> dict:
    return scenario(hands={1: "JK QH KH 5C"}, table=[run(1, "2C 3C 4C", 0), run(2, "9H 10H JH", 0)], turn=1,
                    phase="bank")


def test_T11_joker_ratio_on_extensions() -> None:  # R500-46
    state = t11()
    rejected(state, 1, "lay JK on S2", "E_JOKER_RATIO")
    new, _ = act(state, 1, "lay JK KH on S2")
    assert joker_identities(new, 2) == [["QH"]]
    assert laid(new)[1] - laid(state)[1] == 20
    new, _ = act(state, 1, "lay QH JK on S2")
    assert joker_identities(new, 2) == [["KH"]]


def test_T12_two_jokers_need_two_naturals() -> None:  # R500-46
    state = scenario(hands={0: "JK JK 7C 9C 2S"}, phase="bank")
    rejected(state, 0, "lay JK 7C JK", "E_JOKER_RATIO")
    new, _ = act(state, 0, "lay JK 7C JK 9C")
    (s,) = new["table"]
    assert (s["kind"], s["low"], len(s["cards"])) == ("run", 6, 4)
    assert laid(new)[0] == 30
    assert melds.burned_cards(new["table"]) == {"6C", "8C"}


def test_T13_lone_joker_must_discard() -> None:  # R500-24
    table = [run(1, "JC QC KC", 1), set_(2, "9H 9S 9C", 1)]
    state = scenario(hands={0: "JK"}, table=table, bank="10C 2S 3S 4S")
    state, _ = act(state, 0, "take bank")
    rejected(state, 0, "lay 10C on S1", "E_NO_DISCARD_LEFT")
    rejected(state, 0, "lay JK 10C on S1", "E_JOKER_CONFLICT")
    state, _ = act(state, 0, "discard 10C")
    assert state["hands"][0] == ["JK"] and state["market"] == ["10C"]


# ---- T-14..T-18: going out and scoring -----------------------------------------------------------


def test_T14_out_without_discard_after_bank_take() -> None:  # R500-63
    state = scenario(hands={0: "4D 5D"}, bank="6D 2S 3S")
    state, _ = act(state, 0, "take bank")
    state, _ = act(state, 0, "lay 4D 5D 6D")
    result = ENG.result(state)
    assert result is not None and result.winners == [0]
    assert result.details["bonus"] == [10, 0, 0] and result.details["how"] == "lay"
    assert result.round_scores[0] == 4 + 5 + 6 + 10


def test_T15_out_by_discard_has_no_bonus() -> None:  # R500-63
    state = scenario(hands={0: "4D 5D 6D"}, bank="KS 2S 3S")
    state, _ = act(state, 0, "take bank")
    state, _ = act(state, 0, "lay 4D 5D 6D")
    assert ENG.result(state) is None
    state, _ = act(state, 0, "discard KS")
    result = ENG.result(state)
    assert result is not None and result.winners == [0]
    assert result.details["bonus"] == [0, 0, 0] and result.details["how"] == "discard"
    assert result.round_scores[0] == 15


def test_T16_out_after_market_take_has_no_bonus() -> None:  # R500-63
    state = scenario(hands={0: "4D 5D"}, market="9S 6D")
    state, _ = act(state, 0, "take market 6D; lay 4D 5D 6D")
    result = ENG.result(state)
    assert result is not None and result.winners == [0]
    assert result.details["bonus"] == [0, 0, 0] and result.details["how"] == "market"


def test_T17_seed_end_count() -> None:  # R500-62
    table = [
        run(1, "6H 7H 8H 9H 10H", 0),  # 40
        set_(2, "KS KH KC", 0),  # 30
        run(3, "AD 2D 3D 4D 5D", [0, 0, 1, 1, 1]),  # AD 2D by P1 = 17
        run(4, "2C 3C 4C 5C", [1, 1, 1, 0]),  # 5C by P1 = 5
        run(5, "6D 7D 8D", 1),
        run(6, "7S 8S 9S", 1),
        run(7, "3S 4S 5S", 2),
        run(8, "9D 10D JD", 2),
        set_(9, "AS AH AC", 2),
    ]
    state = scenario(hands={0: "QD JS 9C 6S", 1: "6C 7C", 2: "2H"}, table=table, turn=2, phase="bank")
    assert laid(state) == [92, 66, 86]
    state, _ = act(state, 2, "discard 2H")
    result = ENG.result(state)
    assert result is not None
    assert result.details["hand_values"] == [35, 13, 0]
    assert result.round_scores == [57, 53, 86]
    assert result.winners == [2]


def test_T18_joker_in_hand_costs_15() -> None:  # R500-56, R500-62
    state = scenario(hands={0: "JK AS", 1: "2C"}, table=[run(1, "5H 6H JK", 0)], turn=1, phase="bank")
    assert joker_identities(state, 1) == [["7H"]]
    state, _ = act(state, 1, "discard 2C")
    result = ENG.result(state)
    assert result is not None and result.round_scores[0] == 18 - 30 == -12


# ---- T-19..T-26 ---------------------------------------------------------------------------------


def test_T19_fourth_card_and_branch() -> None:  # R500-43, R500-44
    table = [run(1, "2S 3S 4S", 0), run(2, "JC QC KC", 1), set_(3, "8H 8S 8C", 0), run(4, "4H 5H 6H", 2),
             set_(5, "QS QH QD", 2)]
    state = scenario(hands={0: "7D 2H", 1: "8D 9H 3H", 2: "9D 10D 5C"}, table=table, turn=1, phase="bank")
    before = laid(state)
    state, _ = act(state, 1, "lay 8D on S3")
    assert laid(state)[1] - before[1] == 8
    state, _ = act(turn_to(state, 2), 2, "lay 9D 10D on S3")
    branch = struct(state, 6)
    assert branch["cards"] == ["8D", "9D", "10D"] and struct(state, 3)["branch"] == 6
    assert laid(state)[2] - before[2] == 19
    state, _ = act(turn_to(state, 0), 0, "lay 7D on S6")
    assert struct(state, 6)["cards"] == ["7D", "8D", "9D", "10D"]
    assert laid(state)[0] - before[0] == 7
    assert laid(state)[1] - before[1] == 8  # the shared 8D still counts once, for P2
    rejected(turn_to(state, 1), 1, "lay 9H on S3", "E_NOT_ATTACHABLE")


def test_T20_base_set_never_branches() -> None:  # R500-44
    table = [run(i, f"{a} {b} {c}", 1) for i, (a, b, c) in
             enumerate([("2S", "3S", "4S"), ("JC", "QC", "KC"), ("4H", "5H", "6H"), ("6D", "7D", "8D"),
                        ("5C", "6C", "7C"), ("AH", "2H", "3H")], start=1)]
    table.append(set_(7, "9S 9H 9C 9D", 1))
    state = scenario(hands={0: "10D 2D"}, table=table, phase="bank")
    rejected(state, 0, "lay 10D on S7", "E_NOT_ATTACHABLE")


def test_T21_pending_joker_fixed_then_burned() -> None:  # R500-51, R500-52
    table = [*FILLER, set_(4, "AH AS JK", 0)]
    state = scenario(hands={1: "AC 2C 3C 9H", 2: "AD 2D 3D 9S"}, table=table, turn=1, phase="bank")
    state, _ = act(state, 1, "lay AC 2C 3C")
    assert joker_identities(state, 4) == [["AD"]] and melds.burned_cards(state["table"]) == {"AD"}
    rejected(turn_to(state, 2), 2, "lay AD 2D 3D", "E_BURNED")


def test_T22_burned_card_is_no_target() -> None:  # R500-35
    state = scenario(hands={0: "AH AS 9C"}, table=[run(1, "JK 2D 3D", 1)], market="5C AD")
    rejected(state, 0, "take market AD; lay AD AH AS", "E_BURNED")
    rejected(state, 0, "take market #2; lay AD AH AS", "E_BURNED")


def test_T23_ace_is_low_only() -> None:  # R500-03, R500-42
    state = scenario(hands={0: "AH 9C"}, table=[run(1, "2H 3H 4H", 1)], phase="bank")
    new, _ = act(state, 0, "lay AH on S1")
    assert struct(new, 1)["cards"][0] == "AH"
    state = scenario(hands={0: "AH 9C"}, table=[run(1, "JH QH KH", 1)], phase="bank")
    rejected(state, 0, "lay AH on S1", "E_NOT_ATTACHABLE")


def test_T24_joker_cannot_be_discarded() -> None:  # R500-54
    state = scenario(hands={0: "JK 9C"}, phase="bank")
    rejected(state, 0, "discard JK", "E_JOKER_DISCARD")


def t25() -> dict:
    return scenario(hands={0: "2H 9C 4S"}, market="5S JD", bank="")


def test_T25_empty_bank_stop() -> None:  # R500-25, R500-61
    state = t25()
    rejected(state, 0, "take bank", "E_BANK_EMPTY")
    rejected(state, 0, "take market 5S leave JD; lay 5S 4S", "E_INVALID_MELD")
    new, _ = act(state, 0, "stop")
    result = ENG.result(new)
    assert result is not None and result.winners == [] and result.details["reason"] == "stop"
    assert result.details["bonus"] == [0, 0, 0]
    assert result.round_scores == [-v for v in result.details["hand_values"]]


@pytest.mark.parametrize(
    ("totals", "over", "winners"),
    [([512, 498, 505], True, [0]), ([510, 480, 510], False, [])],
)
def test_T26_match_end_and_ties(totals: list[int], over: bool, winners: list[int]) -> None:  # R500-71, R500-72
    probe, _ = act(t25(), 0, "stop")
    scores = probe["round_over"]["scores"]
    state = t25()
    state["totals"] = [t - s for t, s in zip(totals, scores, strict=True)]
    new, events = act(state, 0, "stop")
    result = ENG.result(new)
    assert result is not None and result.totals == totals
    assert result.match_over is over and result.match_winners == winners
    if not over:
        assert any(e.type == "TieBreakNeeded" for e in events)
        again = ENG.next_round(new)  # another full round for everyone (R500-72)
        assert ENG.result(again) is None and again["round"] == new["round"] + 1
