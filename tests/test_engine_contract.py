"""The engine contract (ARCHITECTURE.md) for every registered engine, over many seeded games:
nothing appears or vanishes, state round-trips through JSON, Rummikub's table keeps its order, seed + options + deck + log replays
to the same state, `parse(format(a)) == a`, a rejected action changes nothing, and no view or
event for a seat depends on tiles that seat may not see.

Who moves (see `player_for`): about half the games are played by random fillings of the seat's own
move templates (`moves()`), which reach positions no AI steers into, with the easy AI playing a share
(`EASY_SHARE`) of the turns, and any move where no random filling was accepted, so that games end;
the other half by the easy AI alone; one in NORMAL_EVERY (9 of 200) by the normal AI, whose plays
(table rearrangements, market takes, pile takes) the others rarely make. A refused random filling
is never logged as a move.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from rules import Action, Engine, IllegalAction, State, engine_names, get_engine
from rules.core.moves import Filling, MoveTemplate, Slot, compose

GAMES = int(os.environ.get("CONTRACT_GAMES", "200"))
MAX_ACTIONS = 3000
NORMAL_EVERY = 23  # seeds 0, 23, 46, …: the normal AI chooses every move (23: prime to every seat
# count and option cycle below, so these games still vary in both)
EASY_SHARE = 0.5  # in a random game, the share of turns the easy AI plays
RANDOM_TRIES = 40  # random fillings tried before the easy AI moves instead


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def reshuffle_hidden(engine: Engine, state: State, viewer: int | None, keep: set[int], rng: Random) -> State:
    """The same game as `viewer` sees it, with everything hidden from it dealt differently."""
    hands_key, stock_key = engine.hidden_zones
    other = json.loads(json.dumps(state))
    seats = [s for s in range(len(other[hands_key])) if s != viewer and s not in keep]
    pool = list(other[stock_key]) + [t for s in seats for t in other[hands_key][s]]
    rng.shuffle(pool)
    for s in seats:
        n = len(other[hands_key][s])
        other[hands_key][s], pool = pool[:n], pool[n:]
    other[stock_key] = pool
    return other


def visible_events(events: list[Any], seat: int | None) -> list[dict]:
    return [e.to_json() for e in events if e.visible_to(seat)]


def check_view_shape(engine: Engine, view: dict) -> None:
    hands_key, stock_key = engine.hidden_zones
    text = json.dumps(view)
    for secret in ('"seed"', '"deck"', f'"{hands_key}"'):
        assert secret not in text
    assert not isinstance(view.get(stock_key), list), "the stock order is secret"


# Options varied by seed, for coverage: every game but the normal AI's (which keep the defaults,
# as a table does unless told otherwise) draws its options from these, the defaults among them.
# Shorter matches come up often because random and easy play score slowly: a 500-point Rummy 500
# match of the easy AI at four seats runs past 3000 moves (its normal-AI games play to 500). Three-Thirteen varies in every game, the normal
# AI's too (each of up to 11 rounds with an expected-deadwood AI), to keep within the CI budget.
VARIED_OPTIONS: dict[str, Any] = {
    "three_thirteen": lambda seed: {"rounds": 1 + seed % 11, "jokers": (0, 2, 4)[seed % 3], "ace_high": seed % 2 == 0},
    # The rest drawn by a Random of their own, so that no option moves in step with the seat count.
    "rummy500": lambda r: {"target_score": r.choice((100, 200)), "jokers": r.randint(0, 2),
                           "hand_size": r.randint(7, 10), "market_leave_one": r.random() < 0.5},
    "rummy101": lambda r: {"match_rounds": r.choice((1, 1, 3)), "threshold_mode": r.choice(("fixed", "increasing"))},
    "canasta": lambda r: {"match_length": r.choice(("1 round", "1 round", "3 rounds"))},
    "rummikub": lambda r: {"initial_meld_min": r.choice((30, 0, 50)), "jokers": r.randint(0, 2),
                           "empty_pool_end": r.choice(("blocked", "one_more_turn"))},
}
NORMAL_DEFAULTS = {"rummy500", "rummy101", "canasta", "rummikub"}  # their normal-AI games keep the defaults


def options_for(engine: Engine, seed: int) -> dict[str, Any] | None:
    if engine.name not in VARIED_OPTIONS or (engine.name in NORMAL_DEFAULTS and seed % NORMAL_EVERY == 0):
        return None
    return VARIED_OPTIONS[engine.name](seed if engine.name == "three_thirteen" else Random(f"options/{seed}"))


def hand_of(view: dict[str, Any]) -> list[str]:
    """The items a seat may pick: its hand, or in Rummikub its rack as the draft leaves it."""
    draft = view.get("draft")
    if isinstance(draft, dict):
        return list(draft["rack"])
    return list(view.get("rack") or view.get("hand") or [])


def random_filling(slot: Slot, hand: list[str], rng: Random) -> Filling:
    """Any filling the slot can hold, chosen at random: the engine, not this test, judges it."""
    if slot.kind == "items":
        pool = list(slot.fits if slot.fits is not None else hand)
        most = min(slot.max, len(pool), slot.min + 3)
        return rng.sample(pool, rng.randint(min(slot.min, most), most))
    if slot.kind == "melds":
        groups = []
        pool = list(hand)
        rng.shuffle(pool)
        for _ in range(rng.randint(1, 3)):
            size = rng.randint(3, 4)
            if len(pool) < size:
                break
            groups.append(pool[:size])
            pool = pool[size:]
        return groups or ([list(hand)] if hand else [])
    return rng.choice(slot.options)


def random_action(engine: Engine, state: State, seat: int, rng: Random, before: str) -> Action | None:
    """A random filling of one of the seat's offered templates that the engine accepts, or None
    when RANDOM_TRIES of them were all refused. Each refusal must leave the state as it was
    (`before`, its snapshot)."""
    view = engine.view(state, seat)
    hand = hand_of(view)
    offered: list[MoveTemplate] = [t for t in engine.moves(view) if t.available is not False]
    for _ in range(RANDOM_TRIES):
        tpl = rng.choice(offered)
        filled = [random_filling(slot, hand, rng) for slot in tpl.open_slots()]
        if any(not f for f in filled):
            continue  # an items or melds slot with nothing to pick from
        try:
            action = engine.parse(compose(tpl, filled))
            engine.apply(state, seat, action)
        except IllegalAction:
            assert snapshot(state) == before, "a refused action changed the state"
            continue
        return action
    return None


Player = Callable[[State, int, int, Random, str], Action]  # (state, seat, step, rng, its snapshot)


def player_for(engine: Engine, seed: int) -> Player:
    """Who moves in game `seed`: the normal AI, the easy AI, or random fillings (mostly)."""
    if seed % NORMAL_EVERY == 0:
        return lambda state, seat, step, rng, before: engine.ai_action(state, seat, Random(f"{seed}/{step}"))

    def easy(state: State, seat: int, step: int, rng: Random, before: str) -> Action:
        return engine.ai_action(state, seat, Random(f"{seed}/{step}"), "easy")

    if seed % 4 in (1, 2):  # (not seed % 2: Three-Thirteen's ace_high follows it)
        return easy

    turn = {"seat": None, "easy": False}

    def random_play(state: State, seat: int, step: int, rng: Random, before: str) -> Action:
        # The easy AI plays whole turns (draw, open, discard), picked at random so no seat is left out.
        if seat != turn["seat"]:
            turn.update(seat=seat, easy=rng.random() < EASY_SHARE)
        if not turn["easy"]:
            action = random_action(engine, state, seat, rng, before)
            if action is not None:
                return action
        return easy(state, seat, step, rng, before)

    return random_play


def play_one(engine: Engine, seed: int) -> None:
    rng = Random(seed)
    choose = player_for(engine, seed)
    seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
    options = options_for(engine, seed)
    state = engine.new_game(seats, options=options, seed=seed)
    full_set = sorted(engine.all_items(state))
    log: list[tuple[int | None, str]] = []
    before = snapshot(state)
    for step in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            assert result is not None
            assert len(result.round_scores) == len(result.totals) == seats
            if result.match_over:
                break
            state = engine.next_round(state)
            log.append((None, "next_round"))
            before = snapshot(state)
            continue
        action = choose(state, seat, step, rng, before)
        text = engine.format(action)
        assert engine.parse(text) == action, text
        # Someone else trying to move is refused and changes nothing.
        other = (seat + 1) % seats
        with pytest.raises(IllegalAction) as err:
            engine.apply(state, other, action)
        # Rummy 500's spec folds "not your turn" into E_PHASE (R500-26); the others name it.
        assert err.value.code in ("E_NOT_YOUR_TURN", "E_PHASE") and snapshot(state) == before
        new_state, events = engine.apply(state, seat, action)
        assert snapshot(state) == before, "apply mutated its input"
        check_table_order(events)
        if step % 7 == 0 and engine.result(new_state) is None:
            # (At a round's end every hand is revealed on purpose, RK-74.)
            check_privacy(engine, state, seat, action, events, rng)
        state = new_state
        log.append((seat, text))
        assert sorted(engine.all_items(state)) == full_set
        before = snapshot(state)  # also the next move's "before"
        assert json.loads(before) == state
    else:
        raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    replayed = engine.new_game(seats, options=options, seed=seed)
    for seat, text in log:
        replayed = engine.next_round(replayed) if seat is None else engine.apply(replayed, seat, engine.parse(text))[0]
    assert snapshot(replayed) == snapshot(state)


def check_table_order(events: list[Any]) -> None:
    """Rummikub's table keeps its order across a play (rules/rummikub/table_order.py): a meld kept
    whole never moves down, and a meld of rack tiles only comes after every meld that was there."""
    for e in events:
        if e.type != "MeldsPlayed":
            continue
        c = e.data["changes"]
        assert all(m["n"] <= m["was"] for m in c["extended"]), json.dumps(c)
        last_kept = max((m["n"] for m in c["extended"]), default=0)
        assert all(m["n"] > last_kept for m in c["new"]), c


def check_privacy(engine: Engine, state: State, actor: int, action: Any, events: list, rng: Random) -> None:
    """What seat p sees must not change when the tiles hidden from p are dealt differently."""
    seats = len(state[engine.hidden_zones[0]])
    # The views built together for an outcome (public part once) are the views built one by one.
    public, private = engine.views(state, range(seats))
    assert public == engine.view(state, None)
    assert private == {seat: engine.view(state, seat) for seat in range(seats)}
    for viewer in [None, *range(seats)]:
        view = engine.view(state, viewer)
        check_view_shape(engine, view)
        other = reshuffle_hidden(engine, state, viewer, keep={actor}, rng=rng)
        assert engine.view(other, viewer) == view
        if viewer != actor:
            _, other_events = engine.apply(other, actor, action)
            assert visible_events(other_events, viewer) == visible_events(events, viewer)


@pytest.mark.parametrize("name", engine_names())
@pytest.mark.parametrize("chunk", range(4))
def test_contract(name: str, chunk: int) -> None:
    engine = get_engine(name)
    for seed in range(chunk, GAMES, 4):
        play_one(engine, seed)


SUGGESTION_GAMES = 3
SUGGESTION_STEPS = 120


@pytest.mark.parametrize("name", engine_names())
def test_suggestions_come_from_the_seats_view_and_are_legal(name: str) -> None:
    """Issue 25: what the hand suggests never depends on what the seat may not see (the hidden zones
    dealt differently change nothing), and each suggestion is a move the engine accepts. A few
    normal-AI games, where the compound moves suggestions are for come up."""
    engine = get_engine(name)
    offered = 0
    for seed in range(SUGGESTION_GAMES):
        rng = Random(seed)
        state = engine.new_game(engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1), seed=seed)
        for step in range(SUGGESTION_STEPS):
            seat = engine.current_seat(state)
            if seat is None:
                break
            view = engine.view(state, seat)
            suggested = [engine.format(h.action) for h in engine.suggestions(view)]
            other = reshuffle_hidden(engine, state, seat, keep=set(), rng=rng)
            assert [engine.format(h.action) for h in engine.suggestions(engine.view(other, seat))] == suggested
            for text in suggested:
                engine.apply(state, seat, engine.parse(text))
            offered += len(suggested)
            state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
    if name != "three_thirteen":  # its moves are all one or two presses: nothing to suggest
        assert offered, "no suggestion in the sample"


@pytest.mark.parametrize("name", engine_names())
def test_engine_has_the_whole_contract(name: str) -> None:
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    state = engine.new_game(engine.min_seats, seed=1)
    assert json.loads(json.dumps(state)) == state
    assert engine.result(state) is None
    with pytest.raises(IllegalAction) as err:
        engine.next_round(state)
    assert err.value.code == "E_ROUND_IN_PLAY"
    timeout = engine.timeout_action(state)
    assert timeout.service_only
    # The stand-in for an away player is legal in the seat's place.
    seat = engine.current_seat(state)
    engine.apply(state, seat, engine.stand_in_action(state, seat, Random(1)))
