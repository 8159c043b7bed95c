"""How many AI opponents the terminal seats you with, and why that many.

The defaults are the table sizes that play well from the terminal. Rummy 101 deals 21 tiles each
(22 to the starter) from 106: with four players only 21 tiles stay in the stock, so many rounds end
with the stock before anyone goes out; three players leave twice that. The picker says so, with the
numbers taken from a real deal rather than written down here.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.ai_seats import DEFAULT_LEVEL
from bot.core.i18n import t
from bot.core.presenter.games import dealt_view, seat_range

DEFAULT_OPPONENTS = {"rummikub": 3, "rummy101": 2, "rummy500": 2, "canasta": 3, "three_thirteen": 3}
# Games whose picker explains its default: the view key holding the stock left after the deal.
STOCK_HINT = {"rummy101": "stock"}


def opponents_range(game: str) -> tuple[int, int]:
    lo, hi = seat_range(game)
    return lo - 1, hi - 1


def default_opponents(game: str) -> int:
    lo, hi = opponents_range(game)
    return max(lo, min(hi, DEFAULT_OPPONENTS.get(game, 3)))


def stock_after_deal(game: str, players: int) -> int:
    return int(dealt_view(game, players)[STOCK_HINT[game]])


def opponents_hint(game: str, lang: str) -> str | None:
    """Why the default is not the largest table, for the games where that matters."""
    if game not in STOCK_HINT:
        return None
    lo, hi = opponents_range(game)
    default = default_opponents(game)
    if default >= hi:
        return None
    return t(f"console.opponents_why.{game}", lang, most=hi, small=stock_after_deal(game, hi + 1),
             default=default, stock=stock_after_deal(game, default + 1))


def seats_error(game: str, ai: int, lang: str) -> str | None:
    """The sentence for `--ai` out of range, naming the counts that work; None when `ai` is fine."""
    lo, hi = opponents_range(game)
    if lo <= ai <= hi:
        return None
    name = t(f"game.{game}", lang)
    if lo == hi:
        return t("console.seats_fixed", lang, game=name, players=hi + 1, ai=hi, got=ai)
    choices = ", ".join(str(n) for n in range(lo, hi)) + f" {t('console.or', lang)} {hi}"
    return t("console.seats_range", lang, game=name, lo=lo + 1, hi=hi + 1, choices=choices, got=ai)


def seat_levels(ai: int, levels: Sequence[str]) -> list[str]:
    """The level of each of `ai` opponents from `--ai-level`: none typed is normal for all, one is
    for all, several go to the seats in order and the last one fills the rest."""
    if not levels:
        return [DEFAULT_LEVEL] * ai
    return [levels[min(i, len(levels) - 1)] for i in range(ai)]


def levels_error(ai: int, levels: Sequence[str], lang: str) -> str | None:
    """The sentence for more `--ai-level` levels than AI opponents; None when they fit."""
    if len(levels) <= max(ai, 1):
        return None
    return t("console.levels_too_many", lang, n=len(levels), ai=ai)
