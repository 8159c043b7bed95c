"""Staging compound moves on the hand screen and suggested moves (issue 25): the presses build the
staged melds (stored with the hand screen), the engine judges them (`stage_report`), and a move with
a `melds` slot sends every staged meld plus the picks — Rummy 101's series, pairs and take openings,
Canasta's two-meld opening and an unopened team's pile take — accepted by the engine as sent."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.core.codec import CodecError, mask_of
from bot.core.grammar import hand_items
from bot.core.presenter import press
from bot.core.presenter.controls import HandControls, hand_controls, staging_lines
from bot.core.presenter.hand_ui import HandUI
from rules import get_engine
from tests.rules import canasta_scenario as cs
from tests.rules import rummy101_scenario as rs

R101 = get_engine("rummy101")
CAN = get_engine("canasta")


def indices(view: dict[str, Any], words: str, taken: set[int] | None = None) -> list[int]:
    """The hand positions of these items (distinct positions for repeated items)."""
    hand = hand_items(view)
    used = set(taken or ())
    out = []
    for w in words.split():
        i = next(k for k, item in enumerate(hand) if item == w and k not in used)
        used.add(i)
        out.append(i)
    return out


def staged_ui(game: str, view: dict[str, Any], groups: list[str], picks: str = "") -> HandUI:
    """The screen after picking and staging each group in turn, then picking `picks`."""
    templates = get_engine(game).moves(view)
    ui = HandUI()
    for group in groups:
        ui = press.pick(ui, view, indices(view, group, set(ui.staged_items)))
        ui = press.stage(ui, view, templates)
    if picks:
        ui = press.pick(ui, view, indices(view, picks, set(ui.staged_items)))
    return ui


def controls(game: str, view: dict[str, Any], ui: HandUI) -> HandControls:
    return hand_controls(game, view, view["you"], ui, "en", True)


def send(game: str, state: dict[str, Any], view: dict[str, Any], ui: HandUI, name: str) -> str:
    """Press the move button `name` with the staged melds and picks; the engine must accept it."""
    engine = get_engine(game)
    templates = engine.moves(view)
    c = controls(game, view, ui)
    action = next(a for a in c.actions if templates[a.index].name == name)
    text = press.command(ui, view, templates, action.index, mask_of(list(c.picks)) if c.picks else "0", action.option)
    engine.apply(state, view["you"], engine.parse(text))
    return text


def test_rummy101_series_opening_is_staged_meld_by_meld() -> None:
    state = rs.scenario(2, hands={0: "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"}, status={0: "unopened"})
    view = R101.view(state, 0)
    ui = staged_ui("rummy101", view, ["r11 r12 r13", "k12 b12 y12"])
    c = controls("rummy101", view, ui)
    assert c.staging is not None and [m.value for m in c.staging.melds] == [36, 36]
    assert (c.staging.total, c.staging.target, c.staging.ready) == (72, 101, False)
    assert "Staged: 72 of 101 points" in staging_lines(c.staging, "en")
    assert not {i for g in ui.staged for i in g} & {i.index for i in c.items}  # staged items left the hand
    ui = press.pick(ui, view, indices(view, "b9 b10 b11", set(ui.staged_items)))
    c = controls("rummy101", view, ui)
    assert c.staging is not None and c.staging.picked is not None and c.staging.picked.value == 30
    assert (c.staging.total, c.staging.ready) == (102, True)
    assert send("rummy101", state, view, ui, "open") == "open r11 r12 r13 | k12 b12 y12 | b9 b10 b11"


def test_rummy101_pairs_opening_counts_pairs() -> None:
    state = rs.scenario(2, hands={0: "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 b2 k4"}, status={0: "unopened"})
    view = R101.view(state, 0)
    ui = staged_ui("rummy101", view, ["r5 r5", "b7 b7", "k9 k9", "y1 y1"])
    c = controls("rummy101", view, ui)
    assert c.staging is not None and (c.staging.unit, c.staging.total, c.staging.target) == ("pairs", 4, 5)
    ui = staged_ui("rummy101", view, ["r5 r5", "b7 b7", "k9 k9", "y1 y1", "r13 r13"])
    c = controls("rummy101", view, ui)
    assert c.staging is not None and c.staging.ready and c.staging.total == 5
    assert send("rummy101", state, view, ui, "open") == "open r5 r5 | b7 b7 | k9 k9 | y1 y1 | r13 r13"


def test_rummy101_mixed_batch_names_the_engines_reason_and_a_bad_meld_its_own() -> None:
    state = rs.scenario(2, hands={0: "r5 r5 b7 b8 b9 k2 k4 y6 y8 r1 b1 k1"}, status={0: "unopened"})
    view = R101.view(state, 0)
    c = controls("rummy101", view, staged_ui("rummy101", view, ["r5 r5", "b7 b8 b9"]))
    assert c.staging is not None and "either runs and sets or pairs" in c.staging.problem
    c = controls("rummy101", view, staged_ui("rummy101", view, ["k2 k4 y6"]))
    assert c.staging is not None and not c.staging.melds[0].valid
    assert c.staging.melds[0].reason == "(a run mixes colours)"  # the engine's reason, worded by the catalog


def test_rummy101_take_open_puts_the_top_discard_in_the_last_meld() -> None:
    state = rs.scenario(2, hands={0: "k11 k12 r12 b12 y12 r9 r10 r11 b5 b6 b7 y2 y3"}, status={0: "unopened"},
                        discard="r3 k13", phase="draw")
    view = R101.view(state, 0)
    ui = staged_ui("rummy101", view, ["r12 b12 y12", "r9 r10 r11"], picks="k11 k12")
    c = controls("rummy101", view, ui)
    assert c.staging is not None and c.staging.picked is not None
    assert c.staging.picked.items == ("k11", "k12", "k13") and c.staging.total == 36 + 30 + 36
    assert send("rummy101", state, view, ui, "take_open") == "take open r12 b12 y12 | r9 r10 r11 | k11 k12 k13"


def test_canasta_two_meld_opening() -> None:
    state = cs.scenario(hands={1: "r10 b10 k10 r11 b11 y11 r4 b5 k6 y7 r8 b9 k12 y13"}, opened=(False, False))
    view = CAN.view(state, 1)
    ui = staged_ui("canasta", view, ["r10 b10 k10"])
    c = controls("canasta", view, ui)
    assert c.staging is not None and (c.staging.total, c.staging.target, c.staging.ready) == (30, 50, False)
    ui = staged_ui("canasta", view, ["r10 b10 k10", "r11 b11 y11"])
    assert controls("canasta", view, ui).staging.ready  # type: ignore[union-attr]
    assert send("canasta", state, view, ui, "open") == "open r10 b10 k10 | r11 b11 y11"


def test_canasta_unopened_team_takes_the_pile_with_melds() -> None:
    state = cs.scenario(hands={1: "r8 b8 r13 b13 k13 r12 b12 y12 r4 b5 k6 y7 k9 y10"}, opened=(False, False),
                        pile="y4 k8", phase="draw")
    view = CAN.view(state, 1)
    ui = staged_ui("canasta", view, ["r8 b8", "r13 b13 k13"], picks="r12 b12 y12")
    c = controls("canasta", view, ui)
    assert c.staging is not None and c.staging.melds[0].value == 15 and c.staging.total == 75 and c.staging.ready
    assert send("canasta", state, view, ui, "take") == "take with r8 b8 | r13 b13 k13 | r12 b12 y12"


def test_unstage_clear_and_stale_presses() -> None:
    state = rs.scenario(2, hands={0: "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"}, status={0: "unopened"})
    view = R101.view(state, 0)
    ui = staged_ui("rummy101", view, ["r11 r12 r13", "k12 b12 y12"])
    back = press.unstage(ui, 1)
    assert back.staged == ui.staged[1:] and not back.picks
    assert press.clear(ui) == HandUI()
    with pytest.raises(CodecError):
        press.unstage(ui, 3)
    with pytest.raises(CodecError):
        press.pick(ui, view, [ui.staged[0][0]])  # a staged item is not on the hand to pick
    with pytest.raises(CodecError):
        press.stage(press.clear(ui), view, R101.moves(view))  # nothing picked
    # Stored and restored with the hand screen; a broken stored value is dropped, not trusted.
    assert HandUI.from_json(ui.to_json()) == ui
    assert HandUI.from_json({"staged": [[1, 2], [2, 3], "x", [-1], [True]]}).staged == ((1, 2),)


def test_staging_is_offered_only_for_a_move_with_a_melds_slot() -> None:
    rk = get_engine("rummikub")
    state = rk.new_game(2, seed=4)
    view = rk.view(state, rk.current_seat(state))
    ui = press.pick(HandUI(), view, [0, 1, 2])
    assert not controls("rummikub", view, ui).can_stage  # a layout holds the table: built in the draft
    with pytest.raises(CodecError):
        press.stage(ui, view, rk.moves(view))


@pytest.mark.parametrize("game", ["rummy101", "canasta", "rummy500", "rummikub"])
def test_a_suggestion_press_sends_the_engines_move(game: str) -> None:
    engine = get_engine(game)
    for seed in range(40):
        state = engine.new_game(4 if game == "canasta" else 2, seed=seed)
        for _ in range(12):
            seat = engine.current_seat(state)
            view = engine.view(state, seat)
            offered = controls(game, view, HandUI()).suggestions
            if offered:
                text = press.suggestion(game, view, offered[0].index)
                assert text == offered[0].command and offered[0].label.startswith("★")
                engine.apply(state, seat, engine.parse(text))
                with pytest.raises(CodecError):
                    press.suggestion(game, view, len(offered))
                return
            state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(seed)))
    raise AssertionError(f"{game}: no suggestion in 40 deals")
