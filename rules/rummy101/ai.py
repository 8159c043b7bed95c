"""Rummy 101 AI and the greedy baseline. Both decide from one seat's view only and return one action
per call (the engine calls again after each accepted play, until the discard ends the turn).

The AI:
- DRAW: takes the discard when it pays at once: a joker swap (wins a joker), an addition to a table
  meld (the hand shrinks instead of growing), a new meld worth more with the tile, or — before
  opening — an opening that only the tile makes possible. Else the Joker button (once), else the stock.
- Before opening: the highest-value series opening (exact meld search, `search.best_melds`), without
  a joker it does not need; else a pairs opening, only when the series opening is out of reach or
  the round nearly over (`_pairs_pay`), with joker pairs only as the threshold needs them.
- After opening: swaps jokers back, lays melds (jokers only where they pay; near the end one is kept
  out of them), adds tiles to any player's runs and sets, and plans the finish so the last tile is
  a joker when it can (×2): with a joker and one tile that fits nowhere it discards the tile and
  waits a turn for one that fits, while the opponents hold enough tiles.
- Discard: an isolated tile, high when opened (smaller penalty), low before opening (high tiles
  build the 101), never a tile the next player could add to the table once they have opened.

The greedy baseline opens with the first melds it finds, lays and adds what it sees, and discards
its highest tile: the yardstick in `bench/bench_rummy101.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummy101 import melds as M
from rules.rummy101.actions import Add, Discard, Draw, JokerButton, Meld, MeldSpec, Open, Swap, Take
from rules.rummy101.search import FACE, Tokens, best_melds, best_opening, meld_value, pairs_in, physical

__all__ = ["best_opening", "choose_action", "choose_greedy_action"]

View = dict[str, Any]
JOKER_USE_COST = 8  # a laid joker must bring this many points more than keeping it for a joker finish
# A pairs opening only when the best series opening is more than this many points short of its
# threshold without a joker pair, or when the seat has at most LATE_TURNS turns left (`_pairs_pay`).
PAIR_GAP = 80
LATE_TURNS = 3
# From this hand size down, an opened series player keeps a joker out of new melds for the finish.
# Within noise on the bench (0, 8 and 99 alike, 600 matches); a laid joker's price JOKER_USE_COST 25
# tripled the joker finishes but lost 40 points a match, so the price stays at 8.
JOKER_KEEP_HAND = 8
JOKER_WAIT_HAND = 4  # the fewest tiles every opponent holds for a joker finish to be worth a turn's wait


def _opened_score(used: Sequence[int], jokers: int, value: int) -> float:
    """After opening: points taken out of the hand, plus a little per tile; jokers cost a bit."""
    return sum(FACE[u] + 1 for u in used) - JOKER_USE_COST * jokers


def _specs(melds: Sequence[Tokens]) -> tuple[MeldSpec, ...]:
    return tuple(MeldSpec(tiles=tuple(m)) for m in melds)


def _used(melds: Sequence[Tokens]) -> int:
    return sum(len(m) for m in melds)


def _minus(hand: Sequence[str], tiles: Sequence[str]) -> list[str]:
    rest = list(hand)
    for t in tiles:
        rest.remove(t)
    return rest


def _fits(meld: dict[str, Any], token: str) -> bool:
    try:
        M.add_to(meld, [token])
    except M.DoesNotFit:
        return False
    return True


def _swappable(meld: dict[str, Any], tile: str) -> bool:
    try:
        M.swap_in(meld, tile)
    except M.DoesNotFit:
        return False
    return True


def series_with_floor(hand: Sequence[str], scorer: Any = None) -> list[Tokens]:
    """The best runs/sets that leave at least one tile in hand (R101-15)."""
    kwargs = {} if scorer is None else {"scorer": scorer}
    score, melds = best_melds(hand, **kwargs)
    if _used(melds) < len(hand):
        return melds
    best: tuple[float, list[Tokens]] = (float("-inf"), [])
    # Keep a joker back first: discarding it last is a joker finish.
    for keep in sorted(set(hand), key=lambda t: (t != JOKER, t)):  # a total order: never set order
        cand = best_melds(_minus(hand, [keep]), **kwargs)
        if cand[0] > best[0]:
            best = cand
        if keep == JOKER and cand[1]:
            break
    return best[1]


def _series_value(melds: Sequence[Tokens]) -> int:
    return sum(meld_value(m) for m in melds)


# ---- the AI --------------------------------------------------------------------------------------


def choose_action(view: View, rng: Random) -> Action:
    me = view["you"]
    if view["phase"] == "draw":
        take = _take_choice(view)
        if take is not None:
            return take
        if view["joker_button"] == "on" and not view["joker_used"][me]:
            return JokerButton()
        return Draw()
    play = _opening(view["hand"], view) if view["status"][me] == "unopened" else _opened_play(view)
    return play or Discard(tile=_pick_discard(view))


def _opening(hand: list[str], view: View) -> Action | None:
    thresholds = view["thresholds"]
    melds = series_with_floor(hand)
    series = _series_value(melds) if melds else 0
    if melds and series >= thresholds["series"]:
        if JOKER in hand:  # open without a joker when the rest reaches the threshold: keep it to finish
            kept = best_melds(_minus(hand, [JOKER]))[1]
            if kept and _series_value(kept) >= thresholds["series"]:
                return Open(melds=_specs(kept))
        return Open(melds=_specs(melds))
    pairs = pairs_with_floor(hand, ())
    if len(pairs) < thresholds["pairs"]:
        return None
    natural = sum(1 for p in pairs if JOKER not in physical(p))
    # Joker pairs only as the threshold needs them: a joker kept is a joker finish (R101-52).
    pairs = [p for p in pairs if JOKER not in physical(p)] + [p for p in pairs if JOKER in physical(p)]
    pairs = pairs[:max(natural, thresholds["pairs"])]
    if _pairs_pay(view, series, thresholds["pairs"] - natural):
        return Open(melds=_specs(pairs))
    return None


def _pairs_pay(view: View, series: int, joker_pairs: int) -> bool:
    """Whether a pairs opening beats waiting for the series one (issue 28: it opened with pairs as
    soon as it held five, median 56 series points, up to 99). A pairs player's hand costs double at
    the round end and it may never lay a run or set (R101-36, R101-51), so pairs pay only when the
    series opening is out of reach or the round is near its end (an unopened hand costs 202); a
    joker spent on a pair is a joker finish lost (R101-52), so that waits for the end.
    bench/bench_ai_matches.py's method against the previous rule (pairs whenever five), 600
    matches from seed 50000, paired margin per match: gap 0 -3 +/- 9, 15 +33 +/- 16,
    30 +37 +/- 16, 50 +64 +/- 18, 80 +68 +/- 18, no pairs before the end +71 +/- 18."""
    if view["stock"] / view["seats"] <= LATE_TURNS:
        return True
    return joker_pairs == 0 and view["thresholds"]["series"] - series > PAIR_GAP


def pairs_with_floor(hand: Sequence[str], exclude: Sequence[str]) -> list[Tokens]:
    pairs = pairs_in(hand, exclude)
    while pairs and _used(pairs) >= len(hand):
        pairs.pop()
    return pairs


def _own_pairs(view: View) -> list[str]:
    return [m["tile"] for m in view["table"] if m["kind"] == "pair" and m["owner"] == view["you"]]


def _opened_play(view: View) -> Action | None:
    me, hand = view["you"], view["hand"]
    status = view["status"][me]
    table = view["table"]
    numbered = sorted({t for t in hand if t != JOKER}, key=lambda t: (-int(t[1:]), t))
    # 1. Win jokers back: the hand keeps its size and gains a wild tile.
    for meld in table:
        if JOKER in meld["tiles"]:
            for tile in numbered:
                if _swappable(meld, tile):
                    return Swap(meld=meld["n"], tile=tile)
    # 2. New melds from the hand.
    if status == "series":
        melds = _series_plan(hand, table)
        if melds:
            return Meld(melds=_specs(melds))
    if status == "pairs" or "pairs" in view["status"]:
        pairs = pairs_with_floor([t for t in hand if t != JOKER], _own_pairs(view))
        if pairs:
            return Meld(melds=_specs(pairs))
    # 3. Additions to runs and sets on the table, numbered tiles first.
    if len(hand) > 1:
        for tile in numbered:
            for meld in table:
                if _fits(meld, tile):
                    return Add(meld=meld["n"], tiles=(tile,))
    # 4. Finishing: only jokers and at most one numbered tile left.
    jokers = hand.count(JOKER)
    others = len(hand) - jokers
    if jokers and others == 1 and _wait_for_joker_finish(view):
        return None  # discard the numbered tile and keep the joker (see `_wait_for_joker_finish`)
    if jokers and (others == 1 or (others == 0 and jokers > 1)):
        for meld in table:
            if _fits(meld, JOKER):
                return Add(meld=meld["n"], tiles=(JOKER,))
    return None


def _wait_for_joker_finish(view: View) -> bool:
    """Holding a joker and one numbered tile that fits nowhere: laying the joker and discarding the
    tile finishes now (x1); discarding the tile instead keeps the joker, and next turn any tile that
    fits the table (drawn or taken) goes down and the joker is the last discard, a joker finish that
    doubles the round (R101-52), and a turn with no fitting tile still finishes x1. The wait costs one
    round of the opponents' turns holding a joker (101, R101-50), so only while every opponent
    holds at least JOKER_WAIT_HAND tiles and the stock lasts another round."""
    me, seats = view["you"], view["seats"]
    others = [n for seat, n in enumerate(view["hand_sizes"]) if seat != me]
    return min(others) >= JOKER_WAIT_HAND and view["stock"] > seats


def _series_plan(hand: list[str], table: Sequence[dict[str, Any]]) -> list[Tokens]:
    """New runs/sets for an opened series player. Near the end of the hand one joker is kept out of
    them so the last discard can be a joker finish, which doubles the round (R101-52; issue 28: it
    finished with a joker 2 times where a competent player did 11), unless the melds with it empty
    the hand now (tiles that fit a table meld count as gone) and those without it do not."""
    full = series_with_floor(hand, _opened_score)
    if JOKER not in hand or len(hand) > JOKER_KEEP_HAND:
        return full
    kept = best_melds(_minus(hand, [JOKER]), _opened_score)[1]

    def stuck(melds: list[Tokens], held: list[str]) -> int:
        left = _minus(held, [t for m in melds for t in physical(m)])
        return sum(1 for t in left if t == JOKER or not any(_fits(m, t) for m in table))

    if stuck(kept, _minus(hand, [JOKER])) > 0 and stuck(full, hand) <= 1:
        return full
    return kept


def _take_choice(view: View) -> Action | None:
    if not view["can_take"]:
        return None
    me, hand, top = view["you"], view["hand"], view["discard_top"]
    status = view["status"][me]
    if status == "unopened":
        return _take_to_open(view, hand, top)
    table = view["table"]
    if top != JOKER:
        for meld in table:
            if JOKER in meld["tiles"] and _swappable(meld, top):
                return Take(use=Swap(meld=meld["n"], tile=top))
        for meld in table:
            if _fits(meld, top):
                return Take(use=Add(meld=meld["n"], tiles=(top,)))
    if status == "series":
        with_top = best_melds([*hand, top], scorer=_opened_score)
        without = best_melds(hand, scorer=_opened_score)
        if with_top[0] > without[0]:
            for meld in with_top[1]:
                used = physical(meld)
                if top in used and len(used) - 1 < len(hand):
                    return Take(use=Meld(melds=_specs([meld])))
    pairs_ok = status == "pairs" or "pairs" in view["status"]
    if pairs_ok and top != JOKER and hand.count(top) == 1 and top not in _own_pairs(view) and len(hand) > 1:
        return Take(use=Meld(melds=_specs([[top, top]])))
    return None


def _take_to_open(view: View, hand: list[str], top: str) -> Action | None:
    thresholds = view["thresholds"]
    mine = view.get("best_opening") or best_opening(hand)
    if mine["series"] >= thresholds["series"] or mine["pairs"] >= thresholds["pairs"]:
        return None  # the hand opens alone: keep the discard for nobody, draw a fresh tile
    melds = series_with_floor([*hand, top])
    uses_top = any(top in physical(m) for m in melds)
    if _series_value(melds) >= thresholds["series"] and uses_top and _used(melds) - 1 < len(hand):
        return Take(use=Open(melds=_specs(melds)))
    if top != JOKER and hand.count(top) == 1:
        pairs = pairs_in([*hand, top])
        while pairs and _used(pairs) - 1 >= len(hand):
            pairs.pop()
        natural = sum(1 for p in pairs if JOKER not in physical(p))
        if (len(pairs) >= thresholds["pairs"] and any(p[0] == top and p[1] == top for p in pairs)
                and _pairs_pay(view, _series_value(melds), thresholds["pairs"] - natural)):
            return Take(use=Open(melds=_specs(pairs)))
    return None


def _connections(tile: str, rest: Counter[str]) -> float:
    c, n = tile[0], int(tile[1:])
    score = 0.0
    for d, w in ((1, 3.0), (2, 1.5)):
        for m in (n - d, n + d):
            if 1 <= m <= MAX_NUMBER and rest[f"{c}{m}"]:
                score += w
    score += 2.0 * sum(1 for other in COLOURS if other != c and rest[f"{other}{n}"])
    score += 1.0 * rest[tile]
    return score


def _pick_discard(view: View) -> str:
    me = view["you"]
    hand: list[str] = view["hand"]
    numbered = [t for t in hand if t != JOKER]
    if not numbered:
        return JOKER
    opened = view["status"][me] != "unopened"
    nxt = (me + 1) % view["seats"]
    next_opened = view["status"][nxt] != "unopened"
    counts = Counter(hand)
    best, best_score = numbered[0], float("-inf")
    for tile in sorted(set(numbered)):
        rest = counts.copy()
        rest[tile] -= 1
        value = int(tile[1:])
        score = (value if opened else (MAX_NUMBER + 1 - value) * 0.5) - 4.0 * _connections(tile, rest)
        if next_opened and any(_fits(m, tile) or (JOKER in m["tiles"] and _swappable(m, tile)) for m in view["table"]):
            score -= 60.0  # feeding the next player a take-and-add
        if score > best_score:
            best, best_score = tile, score
    return best


# ---- the greedy baseline ---------------------------------------------------------------------------


def greedy_melds(hand: Sequence[str]) -> list[Tokens]:
    """Runs first (longest stretches of one copy per colour), then sets of what is left; no jokers."""
    counts = Counter(t for t in hand if t != JOKER)
    melds: list[Tokens] = []
    for c in COLOURS:
        stretch: list[str] = []
        for n in range(1, MAX_NUMBER + 2):
            tile = f"{c}{n}"
            if n <= MAX_NUMBER and counts[tile]:
                stretch.append(tile)
                continue
            if len(stretch) >= 3:
                melds.append(stretch)
                counts.subtract(stretch)
            stretch = []
    for n in range(1, MAX_NUMBER + 1):
        group = [f"{c}{n}" for c in COLOURS if counts[f"{c}{n}"]]
        if len(group) >= 3:
            melds.append(group)
            counts.subtract(group)
    return melds


def choose_greedy_action(view: View, rng: Random) -> Action:
    me = view["you"]
    hand: list[str] = view["hand"]
    if view["phase"] == "draw":
        return Draw()
    status = view["status"][me]
    melds = greedy_melds(hand)
    while melds and _used(melds) >= len(hand):
        melds.pop()
    if status == "unopened":
        if melds and _series_value(melds) >= view["thresholds"]["series"]:
            return Open(melds=_specs(melds))
        doubles = [[t, t] for t, c in Counter(hand).items() if c >= 2 and t != JOKER]
        while doubles and _used(doubles) >= len(hand):
            doubles.pop()
        if len(doubles) >= view["thresholds"]["pairs"]:
            return Open(melds=_specs(doubles))
    elif status == "series" and melds:
        return Meld(melds=_specs(melds))
    elif status == "pairs":
        doubles = [[t, t] for t, c in Counter(hand).items() if c >= 2 and t != JOKER and t not in _own_pairs(view)]
        while doubles and _used(doubles) >= len(hand):
            doubles.pop()
        if doubles:
            return Meld(melds=_specs(doubles))
    if status != "unopened" and len(hand) > 1:
        for tile in sorted({t for t in hand if t != JOKER}):
            for meld in view["table"]:
                if _fits(meld, tile):
                    return Add(meld=meld["n"], tiles=(tile,))
    numbered = [t for t in hand if t != JOKER]
    if not numbered:
        return Discard(tile=JOKER)
    return Discard(tile=min(numbered, key=lambda t: (-int(t[1:]), COLOURS.index(t[0]))))
