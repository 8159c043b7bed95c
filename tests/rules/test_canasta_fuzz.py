"""Property tests: garbled text only ever raises E_PARSE, and random actions on random states are
either refused with the state untouched or accepted with every tile still accounted for."""

from __future__ import annotations

import json
from collections import Counter
from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction
from rules.canasta import melds as m
from rules.canasta.actions import Add, Discard, Draw, JokerButton, Meld, Open, TakePile, Timeout
from rules.core.tiles import COLOURS, JOKER
from tests.rules.canasta_scenario import ENG

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TILES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + [JOKER]
VALID = [
    "draw", "joker", "take with r13 k13 | r1 b1 y1", "open r8 b8 k8 | r10 b10 j", "meld [r5 b5 k5] [r2 b2 j]",
    "add A:8 y8 r2", "add 13 k13", "discard k3", "timeout",
]
ALPHABET = "[]|:;AaBbjJkwith0123456789 rbkyo-²\t\n/s×"


def check_parse(text: str) -> None:
    try:
        action = ENG.parse(text)
    except IllegalAction as err:
        assert err.code == "E_PARSE" and "token" in err.params
        return
    assert ENG.parse(ENG.format(action)) == action


@SETTINGS
@given(st.text(max_size=60))
def test_any_text_parses_or_raises_e_parse(text: str) -> None:
    for verb in ("", "take with ", "open ", "meld ", "add ", "discard "):
        check_parse(verb + text)


@st.composite
def garbled(draw: st.DrawFn) -> str:
    text = list(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        pos = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(ALPHABET))
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
def test_garbled_commands_parse_or_raise_e_parse(text: str) -> None:
    check_parse(text)


def random_state(seed: int, steps: int, options: dict[str, Any]) -> dict[str, Any]:
    """A game `steps` AI actions in (so teams have opened, melded, piles grown)."""
    state = ENG.new_game(4, seed=seed, options=options)
    rng = Random(seed)
    for _ in range(steps):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        state, _ = ENG.apply(state, seat, ENG.ai_action(state, seat, rng))
    return state


def fuzz_action(rng: Random, state: dict[str, Any], seat: int) -> Action:
    """Legal-looking, nearly legal or random actions built from the hand, the melds and any tile."""
    hand = state["hands"][seat] or ["r1"]

    def near() -> str:
        return rng.choice(rng.choice([hand, hand, TILES]))

    def some(k: int = 3) -> tuple[str, ...]:
        return tuple(near() for _ in range(rng.randint(1, k)))

    def melds() -> tuple[tuple[str, ...], ...]:
        return tuple(some(5) for _ in range(rng.randint(1, 3)))

    def same_number() -> tuple[str, ...]:
        """Hand tiles of one number plus maybe a wild: melds that are often valid."""
        n = m.num(rng.choice(hand))
        group = [t for t in hand if m.num(t) == n] + [t for t in hand if m.is_wild(t)][: rng.randint(0, 2)]
        return tuple(group[: rng.randint(1, 6)]) or some()

    kind = rng.randrange(11)
    if kind >= 8:
        legal = ENG.ai_action(state, seat, rng)
        if kind == 8 or not isinstance(legal, Open | Meld | Add | TakePile):
            return legal
        return _mutate(rng, legal, near())
    if kind == 7:
        own = list(state["melds"][seat % 2]) or ["8"]
        return Add(number=int(rng.choice(own)), tiles=same_number())
    if kind == 6:
        return Meld(melds=tuple(same_number() for _ in range(rng.randint(1, 2))))
    if kind == 0:
        return rng.choice([Draw(), JokerButton(), Timeout()])
    if kind == 1:
        top = state["pile"][-1] if state["pile"] else rng.choice(TILES)
        same = [t for t in hand if t[1:] == top[1:]] or list(some())
        return TakePile(tiles=tuple(same[: rng.randint(1, 4)]) or some(), melds=melds() if rng.random() < 0.3 else ())
    if kind == 2:
        return Open(melds=melds())
    if kind == 3:
        return Meld(melds=melds())
    if kind in (4, 5):
        number = rng.randint(1, 13)
        return Add(number=number, tiles=some(), team=rng.choice([None, None, "A", "B"]))
    return Discard(tile=near())


def _mutate(rng: Random, action: Action, tile: str) -> Action:
    """A legal meld action with one tile added, dropped or replaced: usually just illegal."""
    def change(tiles: tuple[str, ...]) -> tuple[str, ...]:
        ts = list(tiles)
        how = rng.randrange(3)
        if how == 0:
            ts.append(tile)
        elif how == 1 and len(ts) > 1:
            ts.pop(rng.randrange(len(ts)))
        else:
            ts[rng.randrange(len(ts))] = tile
        return tuple(ts)

    match action:
        case Add():
            return action.model_copy(update={"tiles": change(action.tiles)})
        case TakePile():
            return action.model_copy(update={"tiles": change(action.tiles)})
        case Open(melds=melds) | Meld(melds=melds):
            i = rng.randrange(len(melds))
            return action.model_copy(update={"melds": (*melds[:i], change(melds[i]), *melds[i + 1:])})
    return action


def check_random_actions(seed: int, steps: int, tries: int, options: dict[str, Any]) -> None:
    state = random_state(seed, steps, options)
    rng = Random(seed * 31 + steps)
    for _ in range(tries):
        seat = ENG.current_seat(state)
        if seat is None:
            return
        actor = seat if rng.random() < 0.85 else rng.randrange(4)
        action = fuzz_action(rng, state, actor)
        before = json.dumps(state, sort_keys=True)
        items = Counter(ENG.all_items(state))
        try:
            new, _ = ENG.apply(state, actor, action)
        except IllegalAction as err:
            assert err.code.startswith("E_")
            assert json.dumps(state, sort_keys=True) == before
            continue
        assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
        created = Counter({"j": new["extra_jokers"] - state["extra_jokers"]})
        assert Counter(ENG.all_items(new)) == items + created
        assert ENG.parse(ENG.format(action)) == action
        state = new


@SETTINGS
@given(st.integers(0, 10_000), st.integers(0, 120), st.booleans())
def test_random_actions_never_corrupt_state(seed: int, steps: int, button: bool) -> None:
    check_random_actions(seed, steps, 40, {"joker_button": "on" if button else "off"})
