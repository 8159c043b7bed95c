"""The normal Three-Thirteen AI (`ai`) reading the public record of the pile: the strong level before
the search of `ai_search`, kept as a comparison in bench/bench_ai_matches.py.

- Its draw expectations leave out the cards known not to be in the stock: the pile below the top
  and what the opponents took from it and still hold (`ai_feeding.out_of_stock`).
- Its discard weighs, beside its own expected deadwood, how likely the next seat is to take the
  card (`ai_feeding.take_chances`), at FEED_COST points per certain take.

Why: an oracle that told the AI which discard the next seat would take won 67.5% against greedy.
Over 2094 of the normal AI's discard choices against greedy (seed 90000, 40 matches) greedy took
19% of its discards, and in 357 of those 404 a loose card it would have left was there to throw.
How well the public record predicts those takes (within one decision, the chance a card greedy
took is ranked riskier than one it left; 0.5 is blind): hands sampled from the unseen cards 0.55,
rejecting the ones whose last throw was not loose 0.565, and whose last pass would have cut 0.58
(the estimate here); hands first aged by 3 or 8 turns of greedy play 0.55..0.58; the same card,
rank or neighbour as its throws and passes 0.57 at most. The count of cards near the candidate in
the next seat's TRUE hand scores 0.89: the record says little about that hand, so the gain this way
is small.

Measured (bench/bench_ai_matches.py deals, seed 50000, 200 matches against greedy, one run each on
a 2-core machine at load 5..7): the normal AI 58.5% won (95% CI 51.6..65.1%), paired margin +9.4
+/- 3.3 points per match; this AI, FEED_COST 3: 61.0% (54.1..67.5%), +10.6 +/- 3.4, per deal +1.2
+/- 2.0 against the normal AI on the same deals (within noise); FEED_COST 6: 61.5% (54.6..68.0%),
+10.1 +/- 3.2; FEED_COST 15: 56.0%, +5.6 +/- 3.8; FEED_COST 6 with the kept deadwood also charged
by the chance the next seat goes out with the card: 57.0%, +7.6 +/- 3.7 (dropped). The pile
record alone (no take estimate; branch t13): 58.5%, +9.7 +/- 3.4. With FEED_COST 3 on the tuning
deals (seed 90000): 59.0% (52.1..65.6%), +11.8 +/- 3.0 (the normal AI there, an earlier run: 58.0%,
+12.5 +/- 3.0). Head to head against the normal AI (bench_ai_levels): 49.0% (42.2..55.9%), -0.3 +/-
2.1: NOT stronger; the goals (clearly >= 60% against greedy, stronger than normal) are NOT met.
Decisions in that run (load 5..7, times inflated: greedy's p95 was 13 ms against 1.9 ms on a quiet
run) p50 7.1 ms, p95 111 ms, max 545 ms, against the normal AI's 3.8, 55, 542 ms: the sampling
(SAMPLES kept hands, up to TRIES x as many drawn, one search each) about doubles the p95. On a
quiet moment (load 0.6; 16 of those matches against greedy, 2028 decisions): p50 3.2 ms, p95 31 ms,
max 84 ms. Half the samples (SAMPLES 6, one run at load ~1.5): 58.5%, +9.9 +/- 3.4 against greedy,
43.0% (36.3..49.9%), -2.8 +/- 2.0 against the normal AI: a noisier estimate costs points.
Twice the samples (SAMPLES 24, one run at load ~4): 63.0% (56.1..69.4%), +10.6 +/- 3.2 against
greedy, 49.0% (42.2..55.9%), +0.4 +/- 1.9 against the normal AI (the same margins as 12 within
noise) at p95 80..90 ms against the normal AI's 24 ms in that run: kept at 12.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.three_thirteen import ai_previous
from rules.three_thirteen.actions import Discard
from rules.three_thirteen.ai import plan_discard
from rules.three_thirteen.ai_basics import discardable, fallback, going_out
from rules.three_thirteen.ai_expect import unseen
from rules.three_thirteen.ai_feeding import out_of_stock, take_chances

FEED_COST = 3.0  # points a discard the next seat surely takes is charged (bench: 3 and 6 alike, 15 worse)


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    """The strong AI's move for the seat whose view this is."""
    pool = unseen(view, out_of_stock(view))
    if view["phase"] == "draw":
        return ai_previous.draw_choice(view, pool)
    out = going_out(view)
    if out is not None:
        return Discard(card=out)

    def charge(cards: list[str]) -> dict[str, float]:
        if view["out"] is not None:  # a last turn (T13-25): nobody takes the card any more
            return dict.fromkeys(cards, 0.0)
        return {c: FEED_COST * p for c, p in take_chances(view, cards, rng).items()}

    pick = plan_discard(view, pool, charge)
    if pick is not None:
        return Discard(card=pick)
    return Discard(card=fallback(view, set(discardable(view))))
