"""The Canasta AI (a partner that builds canastas) and a greedy baseline, both from a seat's view.

Everything here reads only `view(state, seat)`: the own hand, both teams' melds, zones, counts.
Plans are small greedy searches, so a decision takes well under a millisecond.
The discard avoids feeding the next opponent's pile take (`ai_feeding`): over 200 seeded matches
against the greedy team (bench/bench_ai_matches.py, deals from seed 50000) 4.4% of its discards
could be taken by the next opponent against greedy's 11.9% with FEED_WEIGHT 400; with 5000, where
even a small risk outweighs keeping a tile of a number on the table, 3.1% against 11.6%, paired
margin +1668 +/- 139 against +1593 +/- 137, 189 matches won in both (one run). On other deals
(seed 90000) 3.5% against 4.6%, 186 won against 190 (within noise). 20000 fed 2.5% but won 187
with a smaller margin (+1627), so the weight stops at 5000.
"""

from __future__ import annotations

from collections import defaultdict
from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import Add, Discard, Draw, JokerButton, Meld, Open, TakePile
from rules.canasta.ai_feeding import feed_risk
from rules.core.engine import Action

View = dict[str, Any]
Melds = list[list[str]]
# Rough cost of an unseen tile in another hand, for "is my team ahead" estimates.
UNSEEN_TILE_COST = 10
FEED_WEIGHT = 5000.0  # keep-score points per unit of feeding risk (a kept pair is worth 40); bench-tuned
PILE_STAKES = 10  # the feeding penalty doubles for every this many tiles in the pile
RISKY = 0.02  # a feeding risk above which a block three is the better discard
# A lone block three is kept back as a later blocker only while the stock holds more than this
# many tiles (CAN-46: each costs 100 at round end); two or more go at once. Bench-tuned.
KEEP_BLOCK_STOCK = 30


# ---- hand analysis ------------------------------------------------------------------------------


def _naturals_by_number(hand: list[str]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = defaultdict(list)
    for t in hand:
        if m.is_natural(t):
            groups[m.num(t)].append(t)
    return groups


def _wilds(hand: list[str]) -> list[str]:
    """Wilds, the most valuable first (jokers, then twos in colour order)."""
    return sorted((t for t in hand if m.is_wild(t)), key=lambda t: (-m.value(t), m.sort_key(t)))


def plan_opening(
    hand: list[str], need: int | None, exclude: frozenset[int] = frozenset(), base: int = 0
) -> tuple[Melds, int] | None:
    """Melds from `hand` worth at least `need - base` (None: as much as possible), naturals first,
    then wilds one by one where they add most. Returns (melds, value) or None if short."""
    groups = _naturals_by_number(hand)
    melds: dict[int, list[str]] = {n: list(ts) for n, ts in groups.items() if len(ts) >= 3 and n not in exclude}
    total = base + sum(m.count_value(ts) for ts in melds.values())
    if need is not None and total >= need:
        return [melds[n] for n in sorted(melds)], total
    pairs = {n: ts for n, ts in groups.items() if len(ts) == 2 and n not in exclude}
    spare: list[str] = []
    for wild in _wilds(hand):
        if need is not None and total >= need:
            break
        if pairs:
            n = max(pairs, key=lambda k: m.count_value(pairs[k]))
            melds[n] = pairs.pop(n) + [wild]
            total += m.count_value(melds[n])
            continue
        room = [
            n for n, ts in melds.items()
            if m.meld_problem(n, ts + [wild], new=False) is None
        ]
        if room:
            melds[max(room, key=lambda k: len(melds[k]))].append(wild)
            total += m.value(wild)
        else:
            spare.append(wild)
    twos = [t for t in spare if m.is_two(t)]
    if len(twos) >= 3 and m.TWOS_MELD not in exclude:
        jokers = [t for t in spare if t == m.JOKER][: min(2, len(twos) - 1)]
        melds[m.TWOS_MELD] = twos + jokers
        total += m.count_value(melds[m.TWOS_MELD])
    if need is not None and total < need:
        return None
    return [melds[n] for n in sorted(melds)], total


def best_opening(hand: list[str]) -> int:
    """The largest opening count found in a hand (shown to the player before the team opens)."""
    plan = plan_opening(hand, None)
    return plan[1] if plan else 0


# ---- view helpers ----------------------------------------------------------------------------------


def _team_melds(view: View, team: int) -> dict[int, dict[str, Any]]:
    return {meld["number"]: meld for meld in view["melds"][team]}


def _has_canasta(view: View, team: int) -> bool:
    return any(meld["canasta"] for meld in view["melds"][team])


def _floor(canasta: bool) -> int:
    return 1 if canasta else 2


def _estimate(view: View, team: int) -> int:
    """A team's round score as far as the public view and own hand tell."""
    score = sum(meld["value"] for meld in view["melds"][team])
    score += (100 if view["opened"][team] else -100) * len(view["bonus"][team])
    for seat in view["teams"][team]:
        if seat == view["you"]:
            score -= m.hand_penalty(view["hand"])
        else:
            score -= UNSEEN_TILE_COST * view["hand_sizes"][seat]
    return score


def _wants_out(view: View) -> bool:
    """Go out when the team is ahead, when the round is about to end anyway, or when the opponents
    hold a canasta too: they may end the round on any turn of theirs (CAN-50), and then this team
    pays its hands and misses the 100, so waiting to catch up mostly hands them that choice.
    Against the previous rule (ahead or stock <= 8 only), 600 matches from seed 50000 in
    bench/bench_ai_matches.py's method: paired margin +322 +/- 68 against +189 +/- 54 without it."""
    team = view["team"]
    if not _has_canasta(view, team):
        return False
    if view["stock"] <= 8 or _has_canasta(view, 1 - team):
        return True
    return _estimate(view, team) + m.GOING_OUT_BONUS >= _estimate(view, 1 - team)


# ---- the AI -----------------------------------------------------------------------------------------


def choose_action(view: View, rng: Random) -> Action:
    """A good partner: takes the pile when it can, opens as soon as the threshold allows, builds on
    the team's melds (the partner's included), uses wilds to finish canastas (never on a clean one),
    blocks with b3/k3 without hoarding them, and goes out when the team is ahead or the opponents
    could end the round themselves."""
    if view["phase"] == "draw":
        take = _take_or_draw(view)
        if take is not None:
            return take
        if view["joker_button"] and not view["joker_used"][view["you"]] and view["opened"][view["team"]]:
            return JokerButton()  # a free wild (CAN-53) once the team can meld it
        return Draw()
    team, hand = view["team"], view["hand"]
    if not view["opened"][team]:
        return _try_open(view) or Discard(tile=_smart_discard(view))
    want_out = _wants_out(view)
    play = _build(view, want_out)
    if play is not None:
        return play
    return Discard(tile=_smart_discard(view) if len(hand) > 1 else hand[0])


def take_option(view: View) -> TakePile | None:
    """A legal pile take for this hand now, opening batch included when the team needs one."""
    return _take_or_draw(view)


def _take_or_draw(view: View) -> TakePile | None:
    top, hand, team = view["top"], view["hand"], view["team"]
    if top is None or not m.is_natural(top):
        return None
    number = m.num(top)
    pair = [t for t in hand if m.is_natural(t) and m.num(t) == number]
    if len(pair) < 2:
        return None
    rest_of_pile = view["pile_size"] - 1
    canasta = _has_canasta(view, team)
    own = _team_melds(view, team)
    if view["opened"][team]:
        for named in (pair, pair[:2]):
            grown = (own[number]["size"] if number in own else 0) + 1 + len(named)
            after = len(hand) - len(named) + rest_of_pile
            if after >= _floor(canasta or grown >= m.CANASTA_SIZE):
                return TakePile(tiles=tuple(named))
        return None
    rest = list(hand)
    for t in pair:
        rest.remove(t)
    base = m.count_value([top, *pair])
    plan = plan_opening(rest, view["thresholds"][team], exclude=frozenset({number}), base=base)
    if plan is None:
        return None
    melds, _ = plan
    used = sum(len(x) for x in melds)
    if len(hand) - len(pair) - used + rest_of_pile < 2:
        return None
    return TakePile(tiles=tuple(pair), melds=tuple(tuple(x) for x in melds))


def _try_open(view: View) -> Action | None:
    hand, team = view["hand"], view["team"]
    plan = plan_opening(hand, view["thresholds"][team])
    if plan is None:
        return None
    melds, _ = plan
    # Hand floor (CAN-17): drop the smallest melds while the threshold still holds.
    melds = sorted(melds, key=m.count_value, reverse=True)
    while len(hand) - sum(len(x) for x in melds) < 2 and len(melds) > 1:
        trial = melds[:-1]
        if sum(m.count_value(x) for x in trial) < view["thresholds"][team]:
            return None
        melds = trial
    if len(hand) - sum(len(x) for x in melds) < 2 and not any(len(x) >= m.CANASTA_SIZE for x in melds):
        return None
    return Open(melds=tuple(tuple(x) for x in melds))


def _build(view: View, want_out: bool) -> Action | None:
    """The next meld or add for an opened team, or None when it is time to discard."""
    hand, team = view["hand"], view["team"]
    own = _team_melds(view, team)
    canasta = _has_canasta(view, team)
    floor = 1 if (canasta and want_out) else 2
    groups = _naturals_by_number(hand)
    # New natural melds.
    new = [ts for n, ts in sorted(groups.items()) if len(ts) >= 3 and n not in own]
    if new:
        batch: Melds = []
        left = len(hand)
        for ts in new:
            if left - len(ts) >= floor or (left - len(ts) >= 1 and len(ts) >= m.CANASTA_SIZE and want_out):
                batch.append(ts)
                left -= len(ts)
        if batch:
            return Meld(melds=tuple(tuple(x) for x in batch))
    # Naturals onto the team's melds (the partner's included); twos onto the twos meld.
    for n, _meld in sorted(own.items(), key=lambda kv: -kv[1]["size"]):
        tiles = [t for t in hand if m.is_two(t)] if n == m.TWOS_MELD else groups.get(n, [])
        k = min(len(tiles), len(hand) - floor)
        if k >= 1:
            return Add(number=n, tiles=tuple(tiles[:k]))
    # Wilds to finish a canasta (or, going out, onto a dirty canasta). Never onto a clean canasta:
    # it turns 500 into 300 (twos 1000 into 700, CAN-31), more than the wild costs in hand.
    wild_add = _wild_placement(own, _wilds(hand), len(hand) - floor, want_out)
    if wild_add is not None:
        return wild_add
    wilds = _wilds(hand)
    if want_out and canasta:
        # Pairs with a wild become melds; the goal is one tile left to discard.
        for n, ts in sorted(groups.items()):
            if len(ts) == 2 and n not in own and wilds and len(hand) - 3 >= 1:
                return Meld(melds=((*ts, wilds[0]),))
    return None


def _wild_placement(own: dict[int, dict[str, Any]], wilds: list[str], spare: int, want_out: bool) -> Add | None:
    """The wilds to add to one team meld, or None: the fewest wilds that complete a canasta (at most
    two unless going out), else, going out, one wild onto a dirty canasta. Each placement is judged
    by what it changes in the meld's score (CAN-30/31/60), so a clean canasta never takes a wild."""
    best: tuple[tuple[int, int, int, int], Add] | None = None
    for n, meld in own.items():
        usable = [w for w in wilds if n != m.TWOS_MELD or w == m.JOKER]
        k = 1 if meld["canasta"] else m.CANASTA_SIZE - meld["size"]
        if k < 1 or k > min(len(usable), spare) or (k > 2 and not want_out):
            continue
        if meld["canasta"] and not want_out:
            continue
        full = meld["tiles"] + usable[:k]
        if m.meld_problem(n, full, new=False) is not None:
            continue
        gain = m.meld_score(n, full) - m.meld_score(n, meld["tiles"])
        if gain <= 0:
            continue
        key = (-k, gain, meld["size"], -n)
        if best is None or key > best[0]:
            best = (key, Add(number=n, tiles=tuple(usable[:k])))
    return best[1] if best is not None else None


def _smart_discard(view: View) -> str:
    """Keep wilds, pairs and the numbers the team builds on; among the rest, throw what is least
    likely to let the next opponent take the pile (`ai_feeding.feed_risk`), the more so the bigger
    the pile; a block three when the pile is worth blocking or every other tile is risky."""
    hand, team = view["hand"], view["team"]
    risk = {t: feed_risk(view, t) for t in set(hand)}
    blocks = [t for t in hand if m.is_block_three(t)]
    others = [t for t in hand if not m.is_block_three(t)]
    safest = min((risk[t] for t in others if not m.is_wild(t)), default=0.0)
    hoarding = len(blocks) >= 2 or view["stock"] <= KEEP_BLOCK_STOCK
    if blocks and (hoarding or view["pile_size"] >= 3 or len(hand) <= 7 or not others or safest > RISKY):
        # CAN-46: a block three stops the next opponent taking the pile, and each one still in hand
        # at round end costs 100, so only one is kept back, and only early in the round.
        return blocks[0]
    own = _team_melds(view, team)
    opp = _team_melds(view, 1 - team)
    counts: dict[int, int] = defaultdict(int)
    for t in hand:
        if m.is_natural(t):
            counts[m.num(t)] += 1
    stakes = FEED_WEIGHT * (1 + view["pile_size"] / PILE_STAKES)

    def keep(t: str) -> tuple[float, int, tuple[int, int]]:
        if m.is_wild(t):
            return (1000 + m.value(t), 0, m.sort_key(t))
        if m.is_block_three(t):
            return (500, 0, m.sort_key(t))
        n = m.num(t)
        score = 20 * counts[n] + (15 if n in own else 0) + (12 if n in opp else 0)
        return (score + stakes * risk[t], -m.value(t), m.sort_key(t))

    return min(hand, key=keep)


# ---- the greedy baseline ----------------------------------------------------------------------------


def choose_greedy_action(view: View, rng: Random) -> Action:
    """Baseline: always draws, opens as soon as it can, melds and adds everything it can (wilds
    included), discards its most expensive tile, goes out at the first chance."""
    if view["phase"] == "draw":
        return Draw()
    team, hand = view["team"], view["hand"]
    if not view["opened"][team]:
        opening = _try_open(view)
        if opening is not None:
            return opening
    else:
        play = _build_greedy(view)
        if play is not None:
            return play
    if len(hand) == 1:
        return Discard(tile=hand[0])
    return Discard(tile=max(hand, key=lambda t: (m.hand_penalty([t]) if not m.is_wild(t) else -1, m.sort_key(t))))


def _build_greedy(view: View) -> Action | None:
    hand, team = view["hand"], view["team"]
    own = _team_melds(view, team)
    floor = _floor(_has_canasta(view, team))
    plan = plan_opening(hand, None, exclude=frozenset(own))
    if plan is not None:
        melds, _ = plan
        left, batch = len(hand), []
        for x in melds:
            if left - len(x) >= floor:
                batch.append(x)
                left -= len(x)
        if batch:
            return Meld(melds=tuple(tuple(x) for x in batch))
    for n, meld in own.items():
        for t in sorted(set(hand), key=m.sort_key):
            fits = m.is_wild(t) or (m.is_natural(t) and m.num(t) == n)
            if fits and len(hand) - 1 >= floor and m.meld_problem(n, meld["tiles"] + [t], new=False) is None:
                return Add(number=n, tiles=(t,))
    return None
