"""The previous Three-Thirteen AI (issue 15), kept to be measured against the current one (bench).

The AI (`choose_action`) plays for the expected deadwood after its next draw. Whatever happens,
a seat that does not go out gets at least one more turn (the last turns, T13-25), so "deadwood after
one more draw from the unseen cards and the best discard then" is its score if the round ends before
that turn, and a sound guide otherwise:
- unseen cards: both decks (and the jokers) less the own hand and the top discard, by copies left;
  the view shows nothing else (the pile below the top and the other hands are hidden, T13-05);
- discard: go out whenever a discard leaves zero deadwood (T13-23); else, among the loose naturals
  (never a wild: wilds meld anything), throw the one whose hand has the least expected deadwood
  after one more draw (`ai_expect.expected_discards`): this keeps cards with many live outs (pairs, near
  runs) when they are cheap enough, and throws them when they are not. On a last turn only the
  deadwood now counts, and after taking the top discard the AI makes the discard the take was judged
  by (so every take cuts its deadwood: pile-only play cannot cycle);
- draw: take a wild or joker always; take another top card when the deadwood after taking it and
  the best discard (of a loose natural) is below the expected deadwood after a stock draw (`ai_expect.stock_expectation`);
  otherwise draw from the stock (and take the pile when the stock cannot be rebuilt, T13-26).
Removing a loose card c from the best arrangement leaves exactly D - value(c), so one exact search
per unseen card type on the whole hand serves every candidate discard; only the draws that meld a
candidate need a search of their own (memoised in `deadwood`). A decision costs ~1 ms median,
~13 ms p95, ~55 ms max over all-AI 4-player matches (bench, 2-core Linux x86_64, CPython 3.11).

Over 200 seeded 4-player matches (2 AI + 2 greedy seats) the AI averages 89.8 per match total
against greedy's 95.9; paired against greedy-vs-greedy on the same seeds, the AI side scores
8.1 +/- 3.1 (95%) points less (bench). Weighting the deadwood now half against the expectation
(ALPHA 0.5) did worse (-4.9 +/- 2.9); weighting the expectation more (ALPHA -0.5) gave -9.5 +/- 3.7,
not distinguishable from ALPHA 0, which stays as the simpler rule.
(An older deadwood-first AI, greed with tie-breaks, did not beat greedy measurably and is gone.)
The current AI (`ai.py`) draws with this one's rule.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.ai_basics import discardable, fallback, going_out, run_windows, with_card
from rules.three_thirteen.ai_expect import after_best_discard, expected_discards, stock_expectation, unseen
from rules.three_thirteen.deadwood import card_value, is_wild

ALPHA = 0.0  # weight of the current deadwood against the expected deadwood after the next draw
TAKE_MARGIN = 0.0  # points the pile card must beat the expected stock draw by


def _plan_discard(view: dict[str, Any], unseen: list[tuple[str, int]]) -> str | None:
    wild, ace_high = view["wild_rank"], view["ace_high"]
    allowed = set(discardable(view))
    total = view["deadwood"]
    loose = sorted({c for c in view["deadwood_cards"] if c in allowed and not is_wild(c, wild)})
    if not loose:
        return None
    now = {c: total - card_value(c, wild, ace_high) for c in loose}
    # A last turn: only the deadwood now counts. After taking the top discard: the discard that the
    # take was judged by, so every take cuts the deadwood and pile-only play cannot cycle.
    if view["out"] is not None or view["taken"] is not None or len(loose) == 1:
        return min(loose, key=lambda c: (now[c], run_windows(c, ace_high), c))
    expect = expected_discards(list(view["hand"]), loose, unseen, wild, ace_high)
    return min(loose, key=lambda c: (ALPHA * now[c] + (1 - ALPHA) * expect[c], now[c], c))


def draw_choice(view: dict[str, Any], pool: list[tuple[str, int]] | None = None) -> Action:
    """Stock or pile (the rule of the module docstring); `pool` is the cards a stock draw may bring
    (default: every card this seat has not seen)."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    top = view["discard_top"]
    if not view["can_draw_stock"]:
        return TakeDiscard()
    if top is None:
        return DrawStock()
    if is_wild(top, wild):
        return TakeDiscard()
    total, loose = with_card(view, top)
    barred = top if view["hand"].count(top) == 0 else None
    naturals = [c for c in loose if not is_wild(c, wild)]  # the discards `_plan_discard` weighs
    if loose and not naturals:
        return DrawStock()
    take = after_best_discard(total, naturals, wild, ace_high, barred, cards=[*view["hand"], top])
    if take >= view["deadwood"]:
        return DrawStock()
    stock = stock_expectation(view, unseen(view) if pool is None else pool)
    return TakeDiscard() if take < stock - TAKE_MARGIN else DrawStock()


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    if view["phase"] == "draw":
        return draw_choice(view)
    out = going_out(view)
    if out is not None:
        return Discard(card=out)
    pick = _plan_discard(view, unseen(view))
    if pick is not None:
        return Discard(card=pick)
    return Discard(card=fallback(view, set(discardable(view))))
