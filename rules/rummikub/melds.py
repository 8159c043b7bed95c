"""Rummikub meld analysis: groups, runs, jokers and values (RK-30..36, RK-47, RK-51).

A meld is a sequence of canonical tiles plus an optional type prefix (`G` or `R`, RK-35). Analysis
returns a `MeldInfo` or raises `InvalidMeld` with a reason the player can act on ("mixes colours").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.core.memo import content_cache
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, MIN_NUMBER, sort_key

RUN, GROUP = "run", "group"
MAX_JOKERS_PER_MELD = 2
MAX_GROUP = 4
MIN_MELD = 3
MAX_RUN = MAX_NUMBER
MELD_CACHE = 1 << 16  # a table holds a few dozen melds; tables in play at once a few thousand


class InvalidMeld(ValueError):
    """Why a meld is not a valid group or run; `reason` is a stable key for the message catalogue."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MeldInfo:
    type: str  # RUN or GROUP
    tiles: tuple[str, ...]  # normalised (RK-47): groups sorted by colour, jokers last; runs as written
    value: int
    # The tiles each joker may stand for, in joker order (RK-51).
    joker_sets: tuple[frozenset[str], ...]
    ambiguous: bool  # 1 numbered tile + 2 jokers: the type prefix matters (RK-35)

    @property
    def prefix(self) -> str | None:
        """The prefix that keeps this meld's reading when written back (RK-47)."""
        if not self.ambiguous:
            return None
        return "G" if self.type == GROUP else None


def _as_run(tiles: Sequence[str]) -> MeldInfo:
    n = len(tiles)
    if n > MAX_RUN:
        raise InvalidMeld("run_too_long")
    start: int | None = None
    run_colour = ""
    for i, t in enumerate(tiles):
        if t == JOKER:
            continue
        c, num = t[0], int(t[1:])
        if start is None:
            start, run_colour = num - i, c
        elif c != run_colour:
            # Numbers out of step as well: neither reading fits, so the sentence explains both
            # (a group attempt with a wrong number must not be told "a run mixes colours").
            in_step = all(int(x[1:]) == start + k for k, x in enumerate(tiles) if x != JOKER)
            raise InvalidMeld("mixed_colours" if in_step else "not_run_or_group")
        elif num != start + i:
            raise InvalidMeld("not_consecutive")
    assert start is not None
    if start < MIN_NUMBER or start + n - 1 > MAX_NUMBER:
        raise InvalidMeld("joker_out_of_range")
    jokers = tuple(frozenset({f"{run_colour}{start + i}"}) for i, t in enumerate(tiles) if t == JOKER)
    value = sum(range(start, start + n))
    return MeldInfo(RUN, tuple(tiles), value, jokers, False)


def _as_group(tiles: Sequence[str]) -> MeldInfo:
    if len(tiles) > MAX_GROUP:
        raise InvalidMeld("group_too_big")
    numbered = [t for t in tiles if t != JOKER]
    num = int(numbered[0][1:])
    if any(int(t[1:]) != num for t in numbered):
        raise InvalidMeld("mixed_numbers")
    colours = [t[0] for t in numbered]
    if len(set(colours)) != len(colours):
        raise InvalidMeld("colour_repeated")
    missing = frozenset(f"{c}{num}" for c in COLOURS if c not in colours)
    n_jokers = len(tiles) - len(numbered)
    normalised = tuple(sorted(numbered, key=sort_key)) + (JOKER,) * n_jokers
    return MeldInfo(GROUP, normalised, num * len(tiles), (missing,) * n_jokers, False)


def _looks_like_group(numbered: Sequence[str]) -> bool:
    """Several numbered tiles all of one number: meant as a group (else meant as a run)."""
    return len(numbered) >= 2 and len({t[1:] for t in numbered}) == 1


def analyse(tiles: Sequence[str], prefix: str | None = None) -> MeldInfo:
    """Classify a meld (RK-30..35) or raise `InvalidMeld` with the first reason it fails."""
    n = len(tiles)
    if n < MIN_MELD:
        raise InvalidMeld("too_short")
    numbered = [t for t in tiles if t != JOKER]
    if n - len(numbered) > MAX_JOKERS_PER_MELD:
        raise InvalidMeld("too_many_jokers")
    if not numbered:
        raise InvalidMeld("only_jokers")
    if len(numbered) == 1:
        # The only ambiguous shape (RK-35): a run unless `G:`, or unless no run reading exists.
        if prefix == "G":
            return _mark_ambiguous(_as_group(tiles))
        try:
            return _mark_ambiguous(_as_run(tiles))
        except InvalidMeld:
            if prefix == "R":
                raise
            return _mark_ambiguous(_as_group(tiles))
    if prefix == "G" or (prefix is None and _looks_like_group(numbered)):
        if prefix == "G" and not _looks_like_group(numbered):
            raise InvalidMeld("prefix_mismatch")
        return _as_group(tiles)
    if prefix == "R" and _looks_like_group(numbered):
        raise InvalidMeld("prefix_mismatch")
    return _as_run(tiles)


@content_cache(MELD_CACHE)
def meld_info(tiles: tuple[str, ...], prefix: str | None) -> MeldInfo:
    """`analyse` remembered: a table meld is analysed again for every view of every outcome and for
    every play's check of the table before and after, and most melds stay as they were. Invalid
    melds raise and are not remembered."""
    return analyse(tiles, prefix)


def _mark_ambiguous(info: MeldInfo) -> MeldInfo:
    return MeldInfo(info.type, info.tiles, info.value, info.joker_sets, True)


def is_valid(tiles: Sequence[str], prefix: str | None = None) -> bool:
    try:
        analyse(tiles, prefix)
    except InvalidMeld:
        return False
    return True


def place_in_run(run: Sequence[str], tile: str) -> list[str]:
    """Insert a tile into a run-like meld by number (RK-26): a joker goes after the highest tile,
    or before the lowest if the run already ends at 13."""
    tiles = list(run)
    if tile == JOKER:
        info_end = _run_end(tiles)
        if info_end is not None and info_end >= MAX_NUMBER:
            return [JOKER, *tiles]
        return [*tiles, JOKER]
    num = int(tile[1:])
    start = _run_start(tiles)
    if start is None:
        return [*tiles, tile]
    # Index where `num` belongs relative to the run's numbering.
    pos = num - start
    if pos <= 0:
        return [tile, *tiles]
    if pos >= len(tiles):
        return [*tiles, tile]
    if tiles[pos] == JOKER:
        # The number is held by a joker; the tile goes beside it so the player can still split.
        return [*tiles[:pos], tile, *tiles[pos:]]
    return [*tiles[:pos], tile, *tiles[pos:]]


def _run_start(tiles: Sequence[str]) -> int | None:
    for i, t in enumerate(tiles):
        if t != JOKER:
            return int(t[1:]) - i
    return None


def _run_end(tiles: Sequence[str]) -> int | None:
    start = _run_start(tiles)
    return None if start is None else start + len(tiles) - 1


def looks_like_run(tiles: Sequence[str], prefix: str | None = None) -> bool:
    """How a draft meld is treated when tiles are added (RK-26): a run unless it reads as a group."""
    numbered = [t for t in tiles if t != JOKER]
    if prefix == "G":
        return False
    if prefix == "R":
        return True
    return not _looks_like_group(numbered)
