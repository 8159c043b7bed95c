"""Property tests: garbled text only ever raises E_PARSE, and random actions on random mid-game
states are either refused with the state untouched or accepted with every tile accounted for."""

from __future__ import annotations

import json
from collections import Counter
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.core.tiles import COLOURS, JOKER
from rules.rummy101.actions import JokerButton, Timeout
from tests.rules.rummy101_scenario import ENG

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TILES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + [JOKER, "j=r5", "j=8", "j=k13", "j=y1"]
VALID = [
    "draw", "joker", "take", "take open r10 r11 r12 | k11 b11 y11", "take meld r6 r7 r8", "take add 3 r6",
    "take swap 2 r11", "open r5 r5 | b7 b7 | k9 j", "open [r10 j=r11 r12] [r8 b8 j=8]", "meld r3 r4 r5",
    "add 1 r7 r6", "swap 1 r11", "discard k2",
]
GARBLE = "[]()|=jJ0123456789 rbkyo-²\t/"


def check_parse(text: str) -> None:
    try:
        action = ENG.parse(text)
    except IllegalAction as err:
        assert err.code == "E_PARSE"
        return
    assert ENG.parse(ENG.format(action)) == action


@SETTINGS
@given(st.text(max_size=60))
def test_any_text_parses_or_raises_E_PARSE(text: str) -> None:
    check_parse(text)
    for verb in ("open ", "take ", "add ", "take add 1 ", "swap "):
        check_parse(verb + text)


@SETTINGS
@given(st.integers(0, 10**6))
def test_garbled_commands(seed: int) -> None:
    rng = Random(seed)
    text = list(rng.choice(VALID))
    for _ in range(rng.randint(1, 5)):
        pos = rng.randint(0, len(text))
        kind = rng.choice(("insert", "delete", "replace"))
        if kind == "insert":
            text.insert(pos, rng.choice(GARBLE))
        elif pos < len(text):
            if kind == "delete":
                del text[pos]
            else:
                text[pos] = rng.choice(GARBLE)
    check_parse("".join(text))


def _random_command(rng: Random, state: dict, seat: int) -> str:
    hand = state["hands"][seat]
    pick = lambda k: " ".join(rng.choice(hand + TILES) for _ in range(k))  # noqa: E731
    top = state["discard"][-1] if state["discard"] else rng.choice(TILES)
    n = rng.randint(0, len(state["table"]) + 1)
    choices = [
        "draw", "joker", "take", f"discard {rng.choice(hand + TILES)}",
        f"open {pick(3)} | {pick(3)} | {pick(4)}", f"open {pick(2)} | {pick(2)} | {pick(2)} | {pick(2)} | {pick(2)}",
        f"meld {pick(rng.randint(2, 5))}", f"add {n} {pick(rng.randint(1, 2))}", f"swap {n} {pick(1)}",
        f"take meld {top} {pick(2)}", f"take add {n} {top}", f"take swap {n} {top}", f"take open {top} {pick(2)} | {pick(3)}",
    ]
    return rng.choice(choices)


def _mid_game(seed: int) -> dict:
    """A state some AI moves into a seeded game (options vary), so tables, discards and statuses vary."""
    rng = Random(seed)
    options = {"joker_button": rng.choice(["on", "off"]), "threshold_mode": rng.choice(["fixed", "increasing"])}
    state = ENG.new_game(rng.randint(2, 4), options=options, seed=seed)
    for step in range(rng.randint(0, 120)):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        state, _ = ENG.apply(state, seat, ENG.ai_action(state, seat, Random(step)))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_random_actions_never_corrupt_state(game_seed: int, action_seed: int) -> None:
    state = _mid_game(game_seed % 5000)
    rng = Random(action_seed)
    for _ in range(25):
        seat = ENG.current_seat(state)
        if seat is None:
            return
        text = _random_command(rng, state, seat)
        try:
            action = ENG.parse(text)
        except IllegalAction as err:
            assert err.code == "E_PARSE"
            continue
        before = json.dumps(state, sort_keys=True)
        items = Counter(ENG.all_items(state))
        try:
            new, _ = ENG.apply(state, seat, action)
        except IllegalAction as err:
            assert err.code.startswith("E_")
            assert json.dumps(state, sort_keys=True) == before
            continue
        assert json.dumps(state, sort_keys=True) == before  # apply never mutates its input
        if isinstance(action, JokerButton):
            items[JOKER] += 1
        assert Counter(ENG.all_items(new)) == items
        assert json.loads(json.dumps(new)) == new
        state = new
    seat = ENG.current_seat(state)
    if seat is not None:
        ENG.apply(state, seat, Timeout())  # the service's timeout is always legal


TOKENS = st.sampled_from([*TILES, "j=r13", "j=b1", "j=13", "j=1"])


@SETTINGS
@given(st.lists(TOKENS, max_size=15), st.lists(TOKENS, min_size=1, max_size=4))
def test_meld_helpers_only_raise_their_own_errors(meld: list[str], extra: list[str]) -> None:
    # R101-20..27, 40..43: any token mix is a valid meld or InvalidMeld; additions and swaps on a
    # valid meld give a valid meld or DoesNotFit.
    from rules.rummy101 import melds as M

    try:
        record = M.analyse(meld)
    except M.InvalidMeld:
        return
    value = M.meld_value(record)
    assert value > 0 and len(M.shown(record)) == len(meld)
    for change in (lambda: M.add_to(record, extra), lambda: M.swap_in(record, extra[0])):
        try:
            new = change()
        except M.DoesNotFit:
            continue
        # The result is itself a valid meld of the same kind when written out with its declarations.
        again = M.analyse(M.shown(new)) if new["kind"] != "set" else new
        assert again["kind"] == new["kind"]
        assert M.meld_value(again) == M.meld_value(new)
