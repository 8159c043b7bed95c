"""Property tests: garbled text only ever raises IllegalAction, and random actions on random states
are either refused with the state untouched or accepted with every tile still accounted for."""

from __future__ import annotations

import json
from itertools import combinations
from random import Random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction
from rules.core.tiles import COLOURS, JOKER, tile_set
from rules.rummikub.actions import (
    AddTiles,
    Done,
    Draw,
    MeldSpec,
    MoveTile,
    NewMeld,
    Pass,
    Play,
    Reset,
    Split,
    Timeout,
    ToRack,
)
from rules.rummikub.melds import analyse, is_valid
from tests.rules.scenario import ENG, fill_melds

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TILES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + [JOKER]
VALID_COMMANDS = [
    "play r10 r11 r12 | k9 b9 y9",
    "play G:[r5 j j] [k12 b12 y12]",
    "new r5 r6 r7",
    "add 2 r8 j",
    "move k6 1 new",
    "split 1 3",
    "draw",
    "pass",
    "done",
    "reset",
]
GARBLE_ALPHABET = "[]|:;GgRrjJnew0123456789 rbkyo-²\t\n/"


def check_parse(text: str) -> None:
    try:
        action = ENG.parse(text)
    except IllegalAction as err:
        assert err.code == "E_PARSE"
        assert "token" in err.params
        return
    assert ENG.parse(ENG.format(action)) == action


@SETTINGS
@given(st.text(max_size=80))
def test_any_text_parses_or_raises_E_PARSE(text: str) -> None:
    check_parse(text)
    check_parse("play " + text)
    check_parse("add " + text)


def garble(rng: Random) -> str:
    text = list(rng.choice(VALID_COMMANDS))
    for _ in range(rng.randint(0, 5)):
        pos = rng.randint(0, len(text))
        char = rng.choice(GARBLE_ALPHABET)
        kind = rng.choice(["insert", "delete", "replace"])
        if kind == "insert":
            text.insert(pos, char)
        elif pos < len(text):
            if kind == "delete":
                del text[pos]
            else:
                text[pos] = char
    return "".join(text)


@st.composite
def garbled(draw: st.DrawFn) -> str:
    text = list(draw(st.sampled_from(VALID_COMMANDS)))
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        pos = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(GARBLE_ALPHABET))
        if kind == "insert":
            text.insert(pos, char)
        elif text and pos < len(text):
            if kind == "delete":
                del text[pos]
            else:
                text[pos] = char
    return "".join(text)


@SETTINGS
@given(garbled())
def test_garbled_commands_parse_or_raise_E_PARSE(text: str) -> None:
    check_parse(text)


# ---- random states and random actions ------------------------------------------------------------


def legal_moves(state: dict[str, Any], rng: Random, limit: int = 4) -> list[Action]:
    """Some accepted actions for the seat on turn: draw/pass, timeout and up to `limit` simple
    plays (a new 3-tile meld, or one rack tile added to a table meld), in random order."""
    seat = ENG.current_seat(state)
    rack = state["racks"][seat]
    keep = tuple(MeldSpec(tiles=tuple(m["tiles"]), prefix=m["prefix"]) for m in state["table"])
    candidates: list[Action] = []
    triples = list(combinations(sorted(set(rack)), 3))
    rng.shuffle(triples)
    for triple in triples[:120]:
        if is_valid(triple):
            candidates.append(Play(melds=(*keep, MeldSpec(tiles=analyse(triple).tiles))))
    if state["opened"][seat]:
        spots = [(i, t) for i in range(len(keep)) for t in set(rack)]
        rng.shuffle(spots)
        for index, t in spots[:60]:
            meld = state["table"][index]
            longer = [*meld["tiles"], t]
            if is_valid(longer, meld["prefix"]):
                melds = list(keep)
                melds[index] = MeldSpec(tiles=tuple(longer), prefix=meld["prefix"])
                candidates.append(Play(melds=tuple(melds)))
    rng.shuffle(candidates)
    accepted: list[Action] = []
    for move in candidates:
        try:
            ENG.apply(state, seat, move)
        except IllegalAction:
            continue
        accepted.append(move)
        if len(accepted) >= limit:
            break
    return [*accepted, Draw() if state["pool"] else Pass(), Timeout()]


def random_state(seed: int, players: int, steps: int, options: dict[str, Any]) -> dict[str, Any]:
    rng = Random(seed)
    state = ENG.new_game(players, seed=seed, options=options)
    for _ in range(steps):
        if ENG.current_seat(state) is None:
            break
        moves = legal_moves(state, rng)
        plays = [m for m in moves if isinstance(m, Play)]
        move = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves)
        state, _ = ENG.apply(state, ENG.current_seat(state), move)
    return state


def fuzz_action(rng: Random, state: dict[str, Any], seat: int) -> Action:
    """One action for `seat`: legal, nearly legal (the table slightly rearranged), random, or garbled."""
    rack = state["racks"][seat] or ["r1"]
    on_table = [t for m in state["table"] for t in m["tiles"]] or ["k1"]
    table_melds = [MeldSpec(tiles=tuple(m["tiles"]), prefix=m["prefix"]) for m in state["table"]]

    def near() -> str:
        return rng.choice(rng.choice([rack, on_table, TILES]))

    def some_tiles() -> tuple[str, ...]:
        return tuple(near() for _ in range(rng.randint(1, 5)))

    def ref() -> int:
        return rng.randint(0, len(state["table"]) + 2)

    def prefix() -> str | None:
        return rng.choice([None, None, "G", "R"])

    def near_play() -> Play:
        melds = list(table_melds)
        for _ in range(rng.randint(0, 2)):  # cut a meld in two
            if melds:
                i = rng.randrange(len(melds))
                ts = list(melds[i].tiles)
                cut = rng.randint(0, len(ts))
                melds[i:i + 1] = [MeldSpec(tiles=tuple(p)) for p in (ts[:cut], ts[cut:]) if p]
        for _ in range(rng.randint(0, 2)):  # add a tile to a meld
            if melds:
                i = rng.randrange(len(melds))
                melds[i] = MeldSpec(tiles=(*melds[i].tiles, near()), prefix=melds[i].prefix)
        if rng.random() < 0.5 or not melds:
            melds.append(MeldSpec(tiles=some_tiles(), prefix=prefix()))
        return Play(melds=tuple(melds))

    def rearranged() -> Play:
        """The table plus a few rack tiles laid out again as valid melds (jokers may move)."""
        pile = on_table + rng.sample(rack, min(len(rack), rng.randint(1, 3)))
        if len(pile) > 30:
            return near_play()
        try:
            melds = fill_melds(pile)
        except ValueError:
            return near_play()
        rng.shuffle(melds)
        return Play(melds=tuple(MeldSpec(tiles=tuple(m["tiles"]), prefix=m["prefix"]) for m in melds))

    kind = rng.randrange(13)
    if kind <= 2 and ENG.current_seat(state) == seat:
        return rng.choice(legal_moves(state, rng, limit=2))
    if kind <= 4:
        return rearranged()
    if kind == 5:
        return near_play()
    if kind == 6:
        return Play(melds=tuple(MeldSpec(tiles=some_tiles(), prefix=prefix()) for _ in range(rng.randint(1, 4))))
    if kind == 7:
        return NewMeld(tiles=some_tiles(), prefix=prefix())
    if kind == 8:
        return AddTiles(meld=ref(), tiles=some_tiles())
    if kind == 9:
        if rng.random() < 0.3:
            return ToRack(tile=near(), src=ref())
        return MoveTile(tile=near(), src=ref(), dst=rng.choice([None, ref()]))
    if kind == 10:
        return Split(meld=ref(), pos=rng.randint(0, 6))
    if kind == 11:
        return rng.choice([Draw(), Pass(), Reset(), Done(), Done(), Timeout()])
    try:
        return ENG.parse(garble(rng))
    except IllegalAction:
        return Done()


def check_invariants(state: dict[str, Any], jokers: int) -> None:
    assert sorted(ENG.all_items(state)) == sorted(tile_set(jokers=jokers))
    assert json.loads(json.dumps(state)) == state
    for meld in state["table"]:
        analyse(meld["tiles"], meld["prefix"])  # the committed table holds only valid melds
    for seat in (None, *range(state["seats"])):
        view = ENG.view(state, seat)
        assert isinstance(view["pool"], int) and "seed" not in view
        if seat is None:
            assert "rack" not in view and "draft" not in view
        else:
            assert sorted(view["rack"]) == sorted(state["racks"][seat])
        json.dumps(view)


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    steps=st.integers(0, 30),
    options=st.fixed_dictionaries(
        {"initial_meld_min": st.sampled_from([0, 0, 10, 30])},
        optional={
            "jokers": st.integers(0, 2),
            "empty_pool_end": st.sampled_from(["blocked", "one_more_turn"]),
            "timeout_penalty_tiles": st.integers(0, 3),
        },
    ),
    action_seed=st.integers(0, 2**32),
)
def test_random_actions_are_refused_cleanly_or_conserve_tiles(
    seed: int, players: int, steps: int, options: dict[str, Any], action_seed: int
) -> None:
    state = random_state(seed, players, steps, options)
    event(f"table melds >= 2: {len(state['table']) >= 2}")
    jokers = state["options"]["jokers"]
    check_invariants(state, jokers)
    rng = Random(action_seed)
    for _ in range(10):
        current = ENG.current_seat(state)
        seat = rng.choice([current] * 6 + list(range(players))) if current is not None else rng.randrange(players)
        action = fuzz_action(rng, state, seat)
        before = json.dumps(state, sort_keys=True)
        try:
            new, events = ENG.apply(state, seat, action)
        except IllegalAction as err:
            event(f"refused {err.code}")
            assert err.code.startswith("E_")
            assert json.dumps(state, sort_keys=True) == before
            continue
        event(f"accepted {type(action).__name__}")
        assert json.dumps(state, sort_keys=True) == before  # apply never mutates its input
        check_invariants(new, jokers)
        for ev in events:
            json.dumps(ev.to_json())
            if ev.seat is not None:
                assert ev.seat == seat  # private events only go to the actor
        state = new
