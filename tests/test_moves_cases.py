"""The cases issue 13 named, as unit tests of the legal moves and the controls built from them."""

from __future__ import annotations

from random import Random

from bot.core.grammar import command, controls
from rules import IllegalAction, get_engine
from rules.core.moves import compose
from rules.rummikub import draft


def _play_until(game: str, seats: int, seed: int, done, limit: int = 400):  # type: ignore[no-untyped-def]
    engine = get_engine(game)
    state = engine.new_game(seats, seed=seed)
    for step in range(limit):
        seat = engine.current_seat(state)
        if seat is None:
            break
        if done(engine, state, seat):
            return engine, state, seat
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(step)))
    raise AssertionError("position not reached")


def test_rummy500_take_bank_is_a_control_and_take_never_sends_a_hand_card() -> None:
    engine, state, seat = _play_until("rummy500", 2, 1, lambda e, s, p: e.view(s, p)["phase"] == "take")
    view = engine.view(state, seat)
    templates = engine.moves(view)
    hand = view["hand"]
    texts = [command(templates, c.index, c.option, [hand[0]] if c.with_items else []) for c in controls(templates, [])]
    assert "take bank" in texts
    # With a hand card picked, no `take` button carries it (the market take names a position).
    picked = [hand[0]]
    for c in controls(templates, picked):
        text = command(templates, c.index, c.option, picked if c.with_items else [])
        if text.startswith("take"):
            assert text == "take bank" or text.startswith("take #"), text
    engine.apply(state, seat, engine.parse("take bank"))


def test_rummikub_joker_inside_a_run_by_picks() -> None:
    engine = get_engine("rummikub")
    rack = ["b6", "b7", "b9", "j", "r1", "r2", "r3", "k1", "k2", "k3", "y1", "y2", "y3", "y4"]
    state = engine.new_game(2, seed=1, deck=rack)
    view = engine.view(state, 0)
    templates = engine.moves(view)
    new = next(i for i, t in enumerate(templates) if t.name == "new")
    for picks in (["b6", "b7", "j", "b9"], ["b6", "b7", "b9", "j"]):  # in pick order, or the rack's sorted order
        text = command(templates, new, None, picks)
        after, _ = engine.apply(state, 0, engine.parse(text))
        assert after["draft"]["table"] == [{"tiles": ["b6", "b7", "j", "b9"], "prefix": None}]
    assert draft.arrange_new(["b7", "j", "b9", "b10"], None) == ["b7", "j", "b9", "b10"]
    assert draft.arrange_new(["b7", "b9", "b10", "j"], None) == ["b7", "j", "b9", "b10"]


def test_rummikub_reset_and_done_only_with_a_draft_pass_only_with_an_empty_pool() -> None:
    engine = get_engine("rummikub")
    rack = ["r10", "r11", "r12", "b1", "b2", "k5", "k7", "k9", "y2", "y4", "y6", "y8", "y11", "y13"]
    state = engine.new_game(2, seed=1, deck=rack)
    by_name = {t.name: t for t in engine.moves(engine.view(state, 0))}
    assert not by_name["reset"].available and not by_name["done"].available and not by_name["pass"].available
    assert by_name["draw"].available
    state, _ = engine.apply(state, 0, engine.parse("new r10 r11"))
    by_name = {t.name: t for t in engine.moves(engine.view(state, 0))}
    assert by_name["reset"].available and not by_name["done"].available  # 21 points, an invalid meld
    state, _ = engine.apply(state, 0, engine.parse("add 1 r12"))
    by_name = {t.name: t for t in engine.moves(engine.view(state, 0))}
    assert by_name["done"].available  # r10 r11 r12: 33 points, an opening
    empty = {**state, "pool": [], "draft": None}
    by_name = {t.name: t for t in engine.moves(engine.view(empty, 0))}
    assert by_name["pass"].available and not by_name["draw"].available


def test_canasta_add_targets_are_named_by_rank() -> None:
    def opened_with_add(e, s, p):  # type: ignore[no-untyped-def]
        return any(t.name == "add" and t.available for t in e.moves(e.view(s, p)))

    engine, state, seat = _play_until("canasta", 4, 2, opened_with_add, limit=2000)
    view = engine.view(state, seat)
    add = next(t for t in engine.moves(view) if t.name == "add")
    numbers = {str(m["number"]) for m in view["melds"][view["team"]]}
    refs = add.open_slots()[0].options
    assert refs and set(refs) <= numbers
    assert any(_accepts(engine, state, seat, compose(add, [ref, [tile]])) for ref in refs for tile in view["hand"])


def _accepts(engine, state, seat, text) -> bool:  # type: ignore[no-untyped-def]
    try:
        engine.apply(state, seat, engine.parse(text))
    except IllegalAction:
        return False
    return True
