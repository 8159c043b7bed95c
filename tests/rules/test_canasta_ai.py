"""The Canasta AI and the greedy baseline: legal in full matches, decisions from the seat's view
only, and the partner behaviour the issue asks for."""

from __future__ import annotations

import json
from random import Random

import pytest

from rules.canasta.actions import Add, Discard, Draw, JokerButton, Meld, Open, TakePile
from rules.canasta.ai import best_opening, choose_action, choose_greedy_action, plan_opening
from rules.canasta.ai_feeding import feed_risk, holds_two
from rules.canasta.hints import hint
from tests.rules.canasta_scenario import ENG, act, scenario, tiles

A, B = 0, 1
P1, P2, P3, P4 = 0, 1, 2, 3


def decide(state: dict, seat: int):
    return choose_action(ENG.view(state, seat), Random(0))


def play_match(seed: int, greedy_team: int | None, options: dict | None = None) -> dict:
    state = ENG.new_game(4, seed=seed, options=options)
    rng = Random(seed)
    for _ in range(20_000):
        seat = ENG.current_seat(state)
        if seat is None:
            if ENG.result(state).match_over:
                return state
            state = ENG.next_round(state)
            continue
        view = ENG.view(state, seat)
        policy = choose_greedy_action if seat % 2 == greedy_team else choose_action
        state, _ = ENG.apply(state, seat, policy(view, rng))
    raise AssertionError("match did not end")


@pytest.mark.parametrize("seed", range(6))
def test_ai_and_greedy_play_legal_matches(seed: int) -> None:
    options = {"joker_button": "on"} if seed % 2 else {"match_length": "1 round"}
    state = play_match(seed, greedy_team=seed % 3 if seed % 3 < 2 else None, options=options)
    assert state["match_over"] and len(state["match_winners"]) in (2, 4)


def test_target_match_ends() -> None:
    state = play_match(3, greedy_team=None, options={"match_length": "target 10000"})
    assert max(state["totals"]) >= 10_000 and state["round"] >= 3


def test_ai_uses_only_its_view() -> None:
    # The same view gives the same decision whatever the hidden zones hold.
    state = ENG.new_game(4, seed=11)
    for step in range(150):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        other = json.loads(json.dumps(state))
        pool = list(other["stock"]) + [t for s in range(4) if s != seat for t in other["hands"][s]]
        Random(step).shuffle(pool)
        for s in range(4):
            if s != seat:
                n = len(other["hands"][s])
                other["hands"][s], pool = pool[:n], pool[n:]
        other["stock"] = pool
        action = ENG.ai_action(state, seat, Random(step))
        assert ENG.ai_action(other, seat, Random(step)) == action
        state, _ = ENG.apply(state, seat, action)


def test_opens_when_the_threshold_allows() -> None:
    state = scenario(hands={P1: "r1 b1 k1 r9 b6 k12"}, opened=(False, True), turn=P1)
    assert decide(state, P1) == Open(melds=(("r1", "b1", "k1"),))
    short = scenario(hands={P1: "r4 b4 k4 r9 b6 k12"}, opened=(False, True), turn=P1)
    assert isinstance(decide(short, P1), Discard)


def test_opening_plan_adds_wilds_only_as_needed() -> None:
    plan = plan_opening(tiles("r8 b8 k8 r10 b10 j r2 y5"), 50)
    assert plan is not None and plan[1] >= 50 and ["r10", "b10", "j"] in plan[0]
    assert best_opening(tiles("r1 b1 k1 r8 b8 j k4")) == 135
    assert plan_opening(tiles("r4 b4 k4"), 50) is None


def test_takes_the_pile_when_it_pays() -> None:
    state = scenario(hands={P1: "r13 k13 r4 b6 k9"}, pile="r5 b7 b13", turn=P1, phase="draw")
    assert decide(state, P1) == TakePile(tiles=("r13", "k13"))
    # Unopened: the take carries the opening batch (CAN-43).
    state = scenario(hands={P1: "r13 k13 r1 b1 y1 r9"}, pile="j y5 b13", opened=(False, True), totals=(1600, 0),
                     turn=P1, phase="draw")
    action = decide(state, P1)
    assert isinstance(action, TakePile) and action.melds == (("r1", "b1", "y1"),)
    act(state, P1, action)
    blocked = scenario(hands={P1: "r13 k13 r4 b6"}, pile="b13 k3", turn=P1, phase="draw")
    assert decide(blocked, P1) == Draw()


def test_builds_on_the_partners_melds_and_finishes_canastas_with_wilds() -> None:
    state = scenario(hands={P3: "y8 r4 b6 k9 y11"}, melds={A: ["r8 b8 k8"]}, turn=P3)
    assert decide(state, P3) == Add(number=8, tiles=("y8",))
    state = scenario(hands={P3: "j r4 b6 k9 y11"}, melds={A: ["8x6"]}, turn=P3)
    assert decide(state, P3) == Add(number=8, tiles=("j",))


def test_blocks_with_a_black_or_blue_three() -> None:
    state = scenario(hands={P1: "k3 r4 b6 k9 y11 r12 b12 r5 b9"}, pile="r6 b7 k8 y9", turn=P1)
    assert decide(state, P1) == Discard(tile="k3")


def test_goes_out_when_the_team_is_ahead() -> None:
    state = scenario(hands={P2: "r9 b9 k9 y4", P4: "r5"}, melds={B: ["8x7"]}, turn=P2)
    for _ in range(3):
        if ENG.current_seat(state) != P2:
            break
        state, _ = act(state, P2, decide(state, P2))
    assert state["round_over"] is not None and state["round_over"]["out"] == P2


def test_keeps_a_tile_when_the_team_is_behind() -> None:
    # Team A leads on the table but holds no canasta, so only Team B can end the round: P2 keeps building.
    state = scenario(hands={P2: "r9 b9 k9 y4", P1: "y7"}, melds={B: ["r8 b8 k8 y8 r8 b8 j"],
                     A: ["1x6", "13x6", "12x6", "11x6", "10x6", "6x6", "4x6", "5x6", "7x5"]}, turn=P2)
    state["stock"] = state["stock"][:30]
    assert isinstance(decide(state, P2), Discard)  # melding r9 b9 k9 would leave one tile: going out


def test_goes_out_behind_when_the_opponents_could_end_the_round() -> None:
    # Team B is behind, but Team A holds two canastas and P1 one tile: A may go out on its next turn (CAN-50),
    # so B takes the 100 and makes A pay its hands now instead of waiting (issue 28: it went out too rarely).
    state = scenario(hands={P2: "r9 b9 k9 y4", P1: "r5"}, melds={B: ["r8 b8 k8 y8 r8 b8 j"], A: ["1x7", "13x7"]},
                     turn=P2)
    state["stock"] = state["stock"][:30]
    assert decide(state, P2) == Meld(melds=(("r9", "b9", "k9"),))
    state, _ = act(state, P2, Meld(melds=(("r9", "b9", "k9"),)))
    state, _ = act(state, P2, decide(state, P2))
    assert state["round_over"] is not None and state["round_over"]["out"] == P2


def test_a_wild_never_spoils_a_clean_canasta() -> None:
    # Issue 28: going out with a joker, it added it to the clean 5s canasta (500 -> 300, CAN-31) where the 4s or
    # the 8s (six naturals each) become a new canasta with it (+300).
    state = scenario(hands={P1: "y13 k9 y12 r11 j"}, melds={A: ["5x7", "4x6", "8x6"]}, turn=P1)
    assert decide(state, P1) in (Add(number=4, tiles=("j",)), Add(number=8, tiles=("j",)))
    # Nothing to finish: the joker stays in hand (or goes as the last discard) rather than onto the clean canasta.
    state = scenario(hands={P1: "y13 k9 y12 r11 j"}, melds={A: ["5x7", "4x4", "8x4"]}, turn=P1)
    action = decide(state, P1)
    assert not (isinstance(action, Add) and action.number == 5)
    # A dirty canasta may take it when going out: it adds the joker's 50 and costs no bonus.
    state = scenario(hands={P1: "y13 j"}, melds={A: ["5x6 r2", "4x4"]}, turn=P1)
    assert decide(state, P1) == Add(number=5, tiles=("j",))


def test_block_threes_are_not_hoarded() -> None:
    # Issue 28: with two pairs in hand and every number it holds well covered by the opponents' melds, the
    # feeding risk made it break a pair (r11) and keep all four block threes, which then cost 400 (CAN-46).
    state = scenario(hands={P1: "b3 b3 k3 k3 k5 k7 r11 r12 y11 y12 y8", P2: "r9 b9 r10 b6 b7"},
                     melds={B: ["11x4", "5x4", "7x4", "8x4", "12x4"]}, turn=P1)
    state["stock"] = state["stock"][:23]
    assert decide(state, P1) == Discard(tile="b3")
    # A lone block three late in the round goes too, before a useful tile.
    state = scenario(hands={P1: "k3 k5 k7 r11 r12 y11 y12 y8", P2: "r9 b9 r10 b6 b7"},
                     melds={B: ["11x4", "5x4", "7x4", "8x4", "12x4"]}, turn=P1)
    state["stock"] = state["stock"][:23]
    assert decide(state, P1) == Discard(tile="k3")


def test_presses_the_joker_button_once_opened() -> None:
    state = scenario(hands={P1: "r4 b6 k9"}, turn=P1, phase="draw", options={"joker_button": "on"})
    assert decide(state, P1) == JokerButton()
    state["joker_used"][P1] = True
    assert decide(state, P1) == Draw()


def test_greedy_baseline_dumps_its_most_expensive_tile() -> None:
    state = scenario(hands={P1: "r1 r4 b6 k9 j"}, turn=P1)
    assert choose_greedy_action(ENG.view(state, P1), Random(0)) == Discard(tile="r1")
    assert choose_greedy_action(ENG.view(dict(state, phase="draw"), P1), Random(0)) == Draw()


def test_discard_avoids_feeding_the_next_opponents_pile_take() -> None:
    # P1 holds singles only. Six 9s sit in Team B's meld and P1 holds a seventh, so at most one 9
    # is unseen: k9 cannot give P2 a take. The 10s are all unseen and P2 does hold two of them.
    state = scenario(hands={P1: "k9 r10 r4 b6 k12", P2: "b10 k10 r5 b5 y7 k11"}, melds={B: ["9x6"]},
                     pile="y13", turn=P1)
    assert decide(state, P1) == Discard(tile="k9")
    after, _ = act(state, P1, Discard(tile="r10"))  # the discard the old rule made (lowest keep score)
    assert isinstance(choose_action(ENG.view(after, P2), Random(0)), TakePile)  # ... would have fed P2
    # The choice reads the view only: another P2 hand leads to the same discard.
    other = scenario(hands={P1: "k9 r10 r4 b6 k12", P2: "r5 b5 y7 k11 y11 b12"}, melds={B: ["9x6"]},
                     pile="y13", turn=P1)
    assert decide(other, P1) == Discard(tile="k9")


def test_a_small_feeding_risk_outweighs_keeping_a_number_on_the_table() -> None:
    # P2 holds two tiles, so every natural here is a small risk (~0.5%), except k9: six 9s in Team B's meld
    # and P1's own leave one unseen. k9 is worth keeping (the opponents build 9s), yet it is the safe discard.
    state = scenario(hands={P1: "k9 r10 r4 b6 k12", P2: "r5 b5"}, melds={B: ["9x6"]}, pile="y13", turn=P1)
    view = ENG.view(state, P1)
    assert 0.0 < feed_risk(view, "r10") < 0.01 and feed_risk(view, "k9") == 0.0
    assert decide(state, P1) == Discard(tile="k9")


def test_a_block_three_goes_when_every_other_discard_is_risky() -> None:
    # A two-tile pile and eight tiles in hand would not call for blocking (the old rule), but each natural here
    # has most copies unseen.
    state = scenario(hands={P1: "b3 r10 r4 b6 k12 y8 r11 b13"}, pile="y13 r5", turn=P1)
    assert decide(state, P1) == Discard(tile="b3")


def test_feed_risk_reads_what_is_seen() -> None:
    state = scenario(hands={P1: "k9 r10 r2 b3"}, melds={B: ["9x6"]}, pile="y13", turn=P1)
    view = ENG.view(state, P1)
    assert feed_risk(view, "r2") == feed_risk(view, "b3") == 0.0  # blocking tops (CAN-41)
    assert feed_risk(view, "k9") == 0.0  # one 9 unseen: nobody can hold two
    assert 0.05 < feed_risk(view, "r10") < 1.0


def test_holds_two_matches_counting() -> None:
    # 6 unseen tiles, 3 of them copies; a hand of 3: P(>=2 copies) = (3*3 + 1) / C(6, 3) = 10 / 20.
    assert holds_two(3, 6, 3) == pytest.approx(0.5)
    assert holds_two(1, 60, 14) == 0.0 and holds_two(5, 60, 1) == 0.0


def test_the_hint_follows_the_fixed_judgement() -> None:
    # Issue 28: the hint is the AI's move (rules/canasta/hints.py), so it repeated the AI's blunders.
    state = scenario(hands={P1: "y13 k9 y12 r11 j"}, melds={A: ["5x7", "4x6", "8x6"]}, turn=P1)
    shown = hint(ENG.view(state, P1))
    assert shown.action in (Add(number=4, tiles=("j",)), Add(number=8, tiles=("j",))) and shown.reason == "add"
    state = scenario(hands={P1: "b3 b3 k3 k3 k5 k7 r11 r12 y11 y12 y8", P2: "r9 b9 r10 b6 b7"},
                     melds={B: ["11x4", "5x4", "7x4", "8x4", "12x4"]}, turn=P1)
    state["stock"] = state["stock"][:23]
    assert hint(ENG.view(state, P1)).action == Discard(tile="b3")
