"""Seeded shuffles with the stacked-deck prefix of ARCHITECTURE.md.

Rules never touch the global `random`: every shuffle comes from a `Random` seeded from the game's
seed and a label (the round), so a seed replays a whole match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from random import Random

from rules.core.errors import IllegalAction, SetupError


def rng_for(seed: int, *labels: object) -> Random:
    """A private generator for one purpose (e.g. the deal of round 3) derived from the seed."""
    key = "/".join([str(seed), *map(str, labels)])
    return Random(key)


def build_deck(
    full_set: Sequence[str],
    rng: Random,
    prefix: Sequence[str] | None = None,
    parse_item: Callable[[str], str] | None = None,
) -> list[str]:
    """Shuffle `full_set`; a stacked `prefix` comes first, in order, the rest follows shuffled.

    A prefix naming an unknown item, or more copies of an item than the set holds, is a
    `SetupError` naming it.
    """
    shuffled = list(full_set)
    rng.shuffle(shuffled)
    if not prefix:
        return shuffled
    items: list[str] = []
    for token in prefix:
        try:
            items.append(parse_item(token) if parse_item else token)
        except IllegalAction as err:
            raise SetupError(f"deck: {token!r} is not a valid item") from err
    available = Counter(full_set)
    wanted = Counter(items)
    for item, count in wanted.items():
        if count > available[item]:
            raise SetupError(f"deck: {item!r} appears {count} times but the set holds {available[item]}")
    rest: list[str] = []
    for item in shuffled:
        if wanted[item] > 0:
            wanted[item] -= 1
        else:
            rest.append(item)
    return items + rest


def deal_blocks(deck: Sequence[str], sizes: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Deal in blocks: seat 0 the first sizes[0] items, seat 1 the next... Returns (hands, rest)."""
    hands: list[list[str]] = []
    pos = 0
    for size in sizes:
        hands.append(list(deck[pos : pos + size]))
        pos += size
    return hands, list(deck[pos:])
