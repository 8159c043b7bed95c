"""Three-Thirteen rules: setup, turns, going out, last turns, stock rebuild, timeout, scoring, match.
Each test cites the spec's rule IDs (T13-xx) and worked examples (T-xx)."""

from __future__ import annotations

import pytest

from rules import SetupError
from rules.core.cards import card_deck
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard, Timeout
from tests.rules.three_thirteen_scenario import ENG, act, cards, event_types, rejected, scenario

# ---- setup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "round_number", "jokers", "stock"),
    [(4, 1, 0, 91), (4, 11, 0, 51), (4, 11, 4, 55), (2, 1, 0, 97), (2, 11, 0, 77), (6, 1, 0, 85), (6, 11, 0, 25)],
)
def test_t02_stock_sizes(players: int, round_number: int, jokers: int, stock: int) -> None:  # T-02, T13-13
    state = ENG.new_game(players, options={"jokers": jokers, "rounds": 11}, seed=3)
    while state["round"] < round_number:
        state = finish_round(state)
        state = ENG.next_round(state)
    assert len(state["stock"]) == stock
    assert len(state["discard"]) == 1
    assert all(len(h) == round_number + 2 for h in state["hands"])
    assert len(ENG.all_items(state)) == 104 + jokers  # T13-01


def test_t23_stacked_deck_blocks_and_first_player() -> None:  # T-23, T13-13, T13-14
    deck = cards("AS 2S 3S 4H 5H 6H 7D 8D 9D 10C")
    state = ENG.new_game(3, options={"first_dealer": 2}, seed=9, deck=deck)
    assert state["hands"] == [cards("AS 2S 3S"), cards("4H 5H 6H"), cards("7D 8D 9D")]
    assert state["discard"] == ["10C"]
    assert len(state["stock"]) == 94
    assert ENG.current_seat(state) == 2  # P3 plays first


def test_stacked_deck_dealer_defaults_to_p1() -> None:  # T13-12
    state = ENG.new_game(3, seed=9, deck=["AS"])
    assert state["dealer"] == 0 and ENG.current_seat(state) == 1


def test_t24_dealer_rotates() -> None:  # T-24, T13-12/14
    state = ENG.new_game(3, options={"first_dealer": 2, "rounds": 3}, seed=4)
    dealers, firsts = [], []
    for _ in range(3):
        dealers.append(state["dealer"])
        firsts.append(ENG.current_seat(state))
        state = finish_round(state)
        if not state["match_over"]:
            state = ENG.next_round(state)
    assert dealers == [1, 2, 0] and firsts == [2, 0, 1]


def test_random_dealer_is_seeded() -> None:  # T13-12
    dealers = {ENG.new_game(4, seed=s)["dealer"] for s in range(30)}
    assert len(dealers) > 1
    assert ENG.new_game(4, seed=5) == ENG.new_game(4, seed=5)


def test_t27_wild_up_card_may_be_taken() -> None:  # T-27, T13-13/20, D-13
    state = scenario(players=3, discard="3D", turn=0)
    state, events = act(state, 0, "take")
    assert "3D" in state["hands"][0] and state["phase"] == "discard"
    assert events[0].data == {"seat": 0, "source": "discard", "card": "3D"}


@pytest.mark.parametrize(
    "options",
    [{"jokers": 1}, {"jokers": 3}, {"rounds": 0}, {"rounds": 12}, {"turn_timer_s": 10}, {"turn_timer_s": 601},
     {"first_dealer": 0}, {"first_dealer": "left"}, {"ace_high": "maybe"}, {"colour": 1}],
)
def test_bad_options_are_errors(options: dict) -> None:  # §9
    with pytest.raises(SetupError):
        ENG.new_game(3, options=options)


def test_setup_errors() -> None:  # T13-10, ARCHITECTURE stacked deck
    for seats in (1, 7):
        with pytest.raises(SetupError):
            ENG.new_game(seats)
    with pytest.raises(SetupError):
        ENG.new_game(3, options={"first_dealer": 4})
    with pytest.raises(SetupError):
        ENG.new_game(3, deck=["AS", "AS", "AS"])  # two decks hold two
    with pytest.raises(SetupError):
        ENG.new_game(3, deck=["ZZ"])
    with pytest.raises(SetupError):
        ENG.new_game(3, deck=["JK"])  # no jokers by default


def test_option_defaults() -> None:  # §9
    opts = ENG.new_game(2)["options"]
    assert opts == {"jokers": 0, "ace_high": False, "rounds": 11, "turn_timer_s": 0, "first_dealer": "random", "hints": False}
    ENG.new_game(2, options={"turn_timer_s": 30, "jokers": 4, "ace_high": True, "rounds": 1, "first_dealer": 2})


# ---- turns -------------------------------------------------------------------------------------------


def test_draw_then_discard_turn() -> None:  # T13-20/21
    state = scenario(hands={0: "2C 5D 9S"}, stock="KH QH", discard="7C", turn=0)
    state, events = act(state, 0, "draw")
    assert state["hands"][0] == cards("2C 5D 9S KH") and state["stock"] == ["QH"]
    assert event_types(events) == ["CardDrawn", "CardReceived"]
    assert events[0].seat is None and "card" not in events[0].data  # the stock card stays private
    assert events[1].seat == 0 and events[1].data == {"card": "KH"}
    state, events = act(state, 0, "discard 9s")
    assert state["discard"][-1] == "9S" and len(state["hands"][0]) == 3
    assert ENG.current_seat(state) == 1 and state["phase"] == "draw"


def test_t15_discard_before_drawing() -> None:  # T-15, T13-21
    state = scenario(hands={0: "2C 5D 9S"}, turn=0)
    rejected(state, 0, "discard 2C", "E_PHASE")


def test_drawing_twice() -> None:  # T13-20
    state = scenario(hands={0: "2C 5D 9S"}, turn=0)
    state, _ = act(state, 0, "draw")
    rejected(state, 0, "draw", "E_PHASE")
    rejected(state, 0, "take", "E_PHASE")


def test_not_in_hand() -> None:  # T13-21
    state = scenario(hands={0: "2C 5D 9S 9S"}, turn=0, phase="discard")
    rejected(state, 0, "discard KH", "E_NOT_IN_HAND")
    rejected(state, 0, Discard(card="nonsense"), "E_NOT_IN_HAND")


def test_not_your_turn() -> None:  # T13-28, T13-60 (each reason code has its own test here)
    state = scenario(turn=1)
    rejected(state, 0, "draw", "E_NOT_YOUR_TURN")
    rejected(state, 2, "take", "E_NOT_YOUR_TURN")


def test_t13_taken_card() -> None:  # T-13, T13-22, D-02
    state = scenario(hands={0: "2C 5D 9S"}, discard="8H", turn=0)
    state, _ = act(state, 0, "take")
    rejected(state, 0, "discard 8H", "E_DISCARD_TAKEN_CARD")
    state = scenario(hands={0: "2C 8H 9S"}, discard="8H", turn=0)
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "discard 8H")
    assert state["hands"][0].count("8H") == 1 and state["discard"][-1] == "8H"


def test_taken_card_can_be_discarded_next_turn() -> None:  # T13-22 (this turn only)
    state = scenario(players=2, hands={0: "2C 5D 9S", 1: "4C 6D 10S"}, discard="8H", turn=0)
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "discard 2C")
    state, _ = act(state, 1, "draw")
    state, _ = act(state, 1, "discard 4C")
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 8H")


def test_empty_discard_guard() -> None:  # T13-20/60 (built directly)
    state = scenario(hands={0: "2C 5D 9S"}, turn=0)
    state["stock"] = state["stock"] + state["discard"]
    state["discard"] = []
    rejected(state, 0, "take", "E_EMPTY_DISCARD")


def test_stock_empty_guard() -> None:  # T13-26/60 (built directly)
    state = scenario(hands={0: "2C 5D 9S"}, turn=0)
    pile = state["stock"] + state["discard"]
    state["stock"], state["discard"] = [], pile
    state["hands"][1].extend(pile[:-1])  # no rebuild possible: the pile holds only its top card
    state["discard"] = pile[-1:]
    rejected(state, 0, "draw", "E_STOCK_EMPTY")
    state, _ = act(state, 0, "take")  # the player must take the discard instead


def test_t16_rebuild_stock() -> None:  # T-16, T13-26, D-04
    state = scenario(players=3, hands={0: "2C 5D 6S"}, discard="9S", turn=0)
    pile = state["stock"] + state["discard"]
    assert pile[-1] == "9S"
    state["stock"], state["discard"] = [], pile
    assert len(state["discard"]) == 95
    new, events = act(state, 0, "draw stock")
    assert new["discard"] == ["9S"]
    assert len(new["stock"]) == 93
    assert event_types(events)[:2] == ["StockRebuilt", "CardDrawn"]
    assert sorted(new["stock"] + new["hands"][0][3:]) == sorted(pile[:-1])
    again, _ = act(state, 0, "draw stock")
    assert again == new  # the rebuild shuffle is seeded
    assert new["stock"] != pile[1:-1]


def test_t14_fully_melded_at_turn_start_still_plays() -> None:  # T-14, T13-24, T13-39
    state = scenario(hands={0: "9S 9H 9D"}, stock="4C", turn=0)
    assert state["out"] is None
    state, _ = act(state, 0, "draw")
    assert state["out"] is None and ENG.current_seat(state) == 0
    state, events = act(state, 0, "discard 4C")
    assert state["out"] == 0 and "WentOut" in event_types(events)


def test_t09_going_out_and_not() -> None:  # T-09, T13-23/38
    state = scenario(hands={0: "3C 8D 8S"}, stock="KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, events = act(state, 0, "discard KH")
    assert state["out"] == 0
    went = next(e for e in events if e.type == "WentOut")
    assert went.seat is None and sorted(went.data["melds"][0]) == sorted(cards("3C 8D 8S"))
    state = scenario(hands={0: "3C 8D 9S"}, stock="KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard KH")
    assert state["out"] is None


def test_t17_t18_wild_melds_go_out() -> None:  # T-17, T-18, T13-32
    state = scenario(round_number=2, options={"jokers": 2}, hands={0: "4S 4D JK KC"}, stock="2H", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 2H")
    assert state["out"] == 0
    state = scenario(round_number=3, hands={0: "5H 5S 5D 5C 5H"}, stock="2H", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 2H")
    assert state["out"] == 0


def test_t10_thirteen_card_out() -> None:  # T-10, T13-23
    state = scenario(round_number=11, players=2, hands={0: "AH 2H 3H 4H 7S 7D 7C 9C 10C KS QD QH KH"},
                     stock="2D", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 2D")
    assert state["out"] == 0


def play_to_end(state: dict, finals: dict[int, tuple[str, str]]) -> dict:
    """Each listed seat in turn order draws the given card from the stock and discards the other."""
    for _ in range(len(finals)):
        seat = ENG.current_seat(state)
        draw, drop = finals[seat]
        assert state["stock"][0] == draw
        state, _ = act(state, seat, "draw")
        state, _ = act(state, seat, f"discard {drop}")
    return state


def test_t11_last_turns_and_scores() -> None:  # T-11, T13-25/41/45, D-12
    # Round 3 (5s wild), P1 dealer; P3 goes out; then P1 and P2 take one last turn each.
    state = scenario(
        round_number=3,
        hands={0: "2C 2D 9H 9S 7D", 1: "5H 6S 6D 6C 4D", 2: "9C 9D 9S 9H QD"},
        stock="9C KD QC",
        turn=2,
        dealer=0,
    )
    assert state["dealer"] == 0
    state, _ = act(state, 2, "draw")
    state, events = act(state, 2, "discard QD")
    assert state["out"] == 2 and ENG.current_seat(state) == 0
    assert events[-1].type == "TurnStarted" and events[-1].data == {"seat": 0, "last_turn": True}
    state, _ = act(state, 0, "draw")  # KD
    state, _ = act(state, 0, "discard 7D")
    assert ENG.result(state) is None and ENG.current_seat(state) == 1
    state, _ = act(state, 1, "draw")  # QC
    state, events = act(state, 1, "discard 4D")
    result = ENG.result(state)
    assert result is not None and result.round_scores == [32, 10, 0] and result.winners == [2]
    assert event_types(events)[-1] == "RoundScored"
    revealed = state["round_over"]["revealed"]
    assert sorted(revealed[1]["melds"][0]) == sorted(cards("6S 6D 6C 5H"))
    assert revealed[0]["melds"] == [] and sum(revealed[0]["deadwood_values"]) == 32


def test_t12_last_turn_meld_with_wild() -> None:  # T-12, T13-25
    state = scenario(
        round_number=3,
        hands={0: "9H 9S 5D 2C 7D", 1: "5H 6S 6D 6C 4D", 2: "9C 9D 9S 9H QD"},
        stock="9C 2D QC",
        turn=2,
    )
    state, _ = act(state, 2, "draw")
    state, _ = act(state, 2, "discard QD")
    state, _ = act(state, 0, "draw")  # 2D
    state, _ = act(state, 0, "discard 7D")
    state, _ = act(state, 1, "draw")
    state, _ = act(state, 1, "discard 4D")
    assert ENG.result(state).round_scores[0] == 4


def test_t28_out_player_cannot_act() -> None:  # T-28, T13-25/60
    state = scenario(players=3, hands={0: "8D 8S 8H"}, stock="KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard KH")
    assert state["out"] == 0
    rejected(state, 0, "draw stock", "E_NOT_YOUR_TURN")


def test_t29_last_turn_may_take_the_going_out_discard() -> None:  # T-29, T13-25
    state = scenario(players=3, hands={0: "8D 8S 8H", 1: "2C 4D 6S"}, stock="KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard KH")
    state, _ = act(state, 1, "take")
    rejected(state, 1, "discard KH", "E_DISCARD_TAKEN_CARD")
    state, _ = act(state, 1, "discard 6S")
    assert ENG.current_seat(state) == 2


# ---- timeout -----------------------------------------------------------------------------------------


def test_t30_timeout_after_taking() -> None:  # T-30, T13-29
    state = scenario(hands={0: "2D QS 5H"}, discard="8C", turn=0, options={"turn_timer_s": 60})
    state, _ = act(state, 0, "take")
    state, events = act(state, 0, ENG.timeout_action(state))
    assert state["discard"][-1] == "QS" and sorted(state["hands"][0]) == sorted(cards("8C 2D 5H"))
    assert event_types(events)[0] == "TimedOut"


def test_timeout_before_drawing_discards_the_stock_card() -> None:  # T13-29, D-06
    state = scenario(hands={0: "2D QS 5H"}, stock="KH", turn=0)
    state, events = act(state, 0, "timeout")
    assert state["discard"][-1] == "KH" and sorted(state["hands"][0]) == sorted(cards("2D QS 5H"))
    assert ENG.current_seat(state) == 1
    state = scenario(hands={0: "2D QS 5H"}, stock="KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "timeout")
    assert state["discard"][-1] == "KH"


def test_timeout_ties_and_wilds() -> None:  # T13-29: highest value, then higher rank, then suit S H D C
    state = scenario(hands={0: "JD QC 10S"}, discard="2C", turn=0)
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "timeout")
    assert state["discard"][-1] == "QC"
    state = scenario(hands={0: "QD QH 10S"}, discard="2C", turn=0)
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "timeout")
    assert state["discard"][-1] == "QH"
    state = scenario(hands={0: "3D KH 10S"}, discard="2C", turn=0)  # round 1: 3D is wild, worth 15
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "timeout")
    assert state["discard"][-1] == "3D"


def test_timeout_takes_the_pile_when_no_stock() -> None:  # T13-29 with T13-26
    state = scenario(hands={0: "2C 5D 9S"}, turn=0)
    pile = state["stock"] + state["discard"]
    state["stock"] = []
    state["hands"][1].extend(pile[:-1])
    state["discard"] = pile[-1:]
    top = pile[-1]
    state, events = act(state, 0, "timeout")
    assert top in state["hands"][0] or state["hands"][0].count(top) >= 1
    assert "CardDrawn" in event_types(events)


def test_timeout_is_service_only() -> None:  # T13-29, §13
    assert Timeout.service_only and not DrawStock.service_only and not TakeDiscard.service_only


# ---- scoring and match -------------------------------------------------------------------------------


def finish_round(state: dict) -> dict:
    """Play a round out with the engine's AI."""
    from random import Random

    guard = 0
    while ENG.current_seat(state) is not None:
        seat = ENG.current_seat(state)
        state, _ = ENG.apply(state, seat, ENG.ai_action(state, seat, Random(guard)))
        guard += 1
        assert guard < 5000
    return state


def test_round_end_reveals_and_scores() -> None:  # T13-41, T13-42, T13-43, T13-44, T13-45
    state = scenario(
        players=3,
        hands={0: "8D 8S 8H", 1: "2C 4D 6S", 2: "KC KD 9H"},
        stock="QH 10C 5C",
        turn=0,
    )
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard QH")
    state, _ = act(state, 1, "draw")  # 10C
    state, _ = act(state, 1, "discard 10C")
    assert ENG.result(state) is None
    state, _ = act(state, 2, "draw")  # 5C
    state, events = act(state, 2, "discard 9H")
    result = ENG.result(state)
    assert result is not None
    assert result.round_scores == [0, 12, 25] and result.totals == [0, 12, 25]  # 2C 4D 6S; KC KD 5C
    assert result.winners == [0]
    scored = next(e for e in events if e.type == "RoundScored")
    assert scored.data["revealed"][2]["deadwood_cards"] == ["KC", "KD", "5C"] or scored.data["deadwood"][2] == 25
    assert ENG.current_seat(state) is None
    rejected(state, 1, "draw", "E_NOT_YOUR_TURN")  # T13-28: nobody is on turn
    assert sorted(ENG.view(state, None)["round_over"]["revealed"][1]["hand"]) == sorted(cards("2C 4D 6S"))


def test_last_turn_zero_scores_zero_but_does_not_win() -> None:  # T13-25, T13-45, D-15
    state = scenario(players=2, hands={0: "8D 8S 8H", 1: "KC KD 2H"}, stock="QH KH", turn=0)
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard QH")
    state, _ = act(state, 1, "draw")  # KH
    state, _ = act(state, 1, "discard 2H")
    result = ENG.result(state)
    assert result.round_scores == [0, 0] and result.winners == [0]


def test_t25_three_round_match() -> None:  # T-25, T13-43, T13-50
    state = ENG.new_game(3, options={"rounds": 3}, seed=2)
    rounds = [[0, 15, 32], [12, 0, 5], [20, 9, 0]]
    for i, scores in enumerate(rounds):
        state = force_round_end(state, scores)
        if i < 2:
            assert not state["match_over"]
            state = ENG.next_round(state)
    result = ENG.result(state)
    assert result.totals == [32, 24, 37] and result.match_over and result.match_winners == [1]
    with pytest.raises(Exception) as err:
        ENG.next_round(state)
    assert getattr(err.value, "code", None) == "E_MATCH_OVER"


def force_round_end(state: dict, scores: list[int]) -> dict:
    """End the current round with the given scores through the engine's own round end."""
    out = scores.index(0)
    new = dict(state)
    new["out"] = out
    events: list = []
    from rules.three_thirteen import engine as module

    orig = module.arrange

    def fake(hand, wild, ace_high):  # noqa: ANN001, ANN202
        seat = next(s for s, h in enumerate(new["hands"]) if h is hand)
        arr = orig(hand, wild, ace_high)
        return type(arr)(arr.melds, arr.deadwood_cards, scores[seat])

    module.arrange = fake
    try:
        ENG._end_round(new, events)
    finally:
        module.arrange = orig
    return new


@pytest.mark.parametrize(
    ("totals", "winners", "tied"),
    [([85, 92, 85], [], [0, 2]), ([80, 92, 85], [0], []), ([70, 92, 92], [0], [])],
)
def test_t19_t20_ties(totals: list[int], winners: list[int], tied: list[int]) -> None:  # T-19, T-20, T13-51
    state = ENG.new_game(3, options={"rounds": 1}, seed=2)
    state["totals"] = list(totals)  # the totals before a last round in which everyone scores 0
    state = force_round_end(state, [0, 0, 0])
    result = ENG.result(state)
    assert result.totals == totals and result.match_over
    assert result.match_winners == winners
    assert result.details["tied"] == tied


def test_standings_share_places() -> None:  # T13-52
    state = ENG.new_game(3, options={"rounds": 1}, seed=2)
    state = force_round_end(state, [0, 10, 10])
    assert ENG.result(state).details["standings"] == [1, 2, 2]


def test_rounds_option_and_wild_ranks() -> None:  # T13-11, D-11
    state = ENG.new_game(2, options={"rounds": 2}, seed=6)
    assert len(state["hands"][0]) == 3
    state = finish_round(state)
    state = ENG.next_round(state)
    assert len(state["hands"][0]) == 4 and ENG.view(state, 0)["wild"] == "4"
    state = finish_round(state)
    assert state["match_over"]


def test_next_round_only_after_round_end() -> None:  # contract
    state = ENG.new_game(2, seed=1)
    with pytest.raises(Exception) as err:
        ENG.next_round(state)
    assert getattr(err.value, "code", None) == "E_ROUND_IN_PLAY"


def test_jokers_option_adds_jokers() -> None:  # T13-01
    for jokers in (0, 2, 4):
        state = ENG.new_game(2, options={"jokers": jokers}, seed=1)
        assert sorted(ENG.all_items(state)) == sorted(card_deck(2, jokers))


def test_ace_high_scoring() -> None:  # T13-40, D-09
    state = scenario(players=2, hands={0: "8D 8S 8H", 1: "AC 2H 6S"}, stock="QH KH", turn=0,
                     options={"ace_high": True})
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard QH")
    state, _ = act(state, 1, "draw")
    state, _ = act(state, 1, "discard KH")
    assert ENG.result(state).round_scores == [0, 15 + 2 + 6]


# ---- views -------------------------------------------------------------------------------------------


def test_views_hide_other_hands() -> None:  # T13-05, T13-15
    state = scenario(hands={0: "2C 5D 9S", 1: "KH KD KS"}, turn=0)
    view = ENG.view(state, 0)
    assert sorted(view["hand"]) == sorted(cards("2C 5D 9S")) and view["deadwood"] == 16
    assert "KH" not in str({k: v for k, v in view.items() if k != "discard_top"})
    spectator = ENG.view(state, None)
    assert "hand" not in spectator and spectator["stock"] == len(state["stock"])
    assert ENG.view(state, 1)["melds"] == [["KS", "KH", "KD"]]


def test_copies_are_interchangeable() -> None:  # T13-02
    state = scenario(hands={0: "8H 8H 2C KS"}, turn=0, phase="discard")
    state, _ = act(state, 0, "discard 8h")
    assert sorted(state["hands"][0]) == sorted(cards("8H 2C KS"))


def test_no_table_melds() -> None:  # T13-27: melds stay in the hand; there is no meld or lay-off command
    for text in ("meld 3H 4H 5H", "add 1 6H", "lay 6H"):
        with pytest.raises(Exception) as err:
            ENG.parse(text)
        assert getattr(err.value, "code", None) == "E_PARSE"
