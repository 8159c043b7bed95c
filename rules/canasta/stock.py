"""The stock, stored as two parts: `stock`, its regular tiles in draw order, and `stock_threes`, each
bonus three still in it as `[regular tiles before it, tile]`. Together they are exactly the stock's
order. The split exists because a bonus three is revealed publicly the moment it is drawn (CAN-14)
while which regular tile comes next is secret: the contract tests re-deal everything secret (hands
and the regular stock) to prove views hide it, and must not change what the public will see."""

from __future__ import annotations

from typing import Any

from rules.canasta import melds as m
from rules.core.engine import State


def split_stock(tiles: list[str]) -> tuple[list[str], list[list[Any]]]:
    """A stock in draw order -> (regular tiles, [[regular tiles before it, bonus three], ...])."""
    regular: list[str] = []
    threes: list[list[Any]] = []
    for t in tiles:
        if m.is_bonus_three(t):
            threes.append([len(regular), t])
        else:
            regular.append(t)
    return regular, threes


def stock_order(state: State) -> list[str]:
    """The stock in draw order (front first), merged back from its two parts."""
    out = list(state["stock"])
    for pos, tile in reversed(state["stock_threes"]):
        out.insert(pos, tile)
    return out


def stock_count(state: State) -> int:
    """Tiles left in the stock (public, CAN-10)."""
    return len(state["stock"]) + len(state["stock_threes"])


def pop_stock(state: State) -> str:
    """Take the stock's front tile (the caller checks the stock is not empty)."""
    threes = state["stock_threes"]
    if threes and threes[0][0] == 0:
        return threes.pop(0)[1]
    tile = state["stock"].pop(0)
    for entry in threes:
        entry[0] -= 1
    return tile
