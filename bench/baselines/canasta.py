"""A competent Tile Canasta player written from the rules (shared rules canasta.md), for the ladder.

From the seat's view only, with the engine's meld rules (`rules.canasta.melds`) as the rule book:
- the pile: taken whenever the rules allow it (two naturals of the top's number), with the opening
  batch when the team has not opened and the hand can reach the threshold;
- opening: as soon as the hand's natural melds, helped by as few wilds as needed, reach the threshold;
- team play: naturals go onto the team's melds (either partner's), new melds from three naturals,
  pairs kept in hand to take the pile with; wilds only where they complete a canasta (never on a
  clean one) or, late in the round or when an opponent with a team canasta is nearly out, to
  empty the hand;
- going out: with a team canasta, when the hand can be melded down to one tile and the team is
  ahead on the table (or the stock is nearly gone);
- discard: black threes first (they block the pile and cost 100 in hand), then the natural least
  likely to let the next opponent take the pile (numbers mostly seen already), singles before pairs;
  a two blocks a large pile when every natural would be a risk.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import Add, Discard, Draw, Meld, Open, TakePile
from rules.core.engine import Action

JOKER = "j"
LATE_STOCK = 12  # stock left when wilds are spent freely and going out no longer waits to be ahead


def _naturals_by_number(hand: Sequence[str]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for t in hand:
        if m.is_natural(t):
            out.setdefault(m.num(t), []).append(t)
    return out


def _wilds(hand: Sequence[str]) -> list[str]:
    """Twos before jokers: the cheaper wild goes first."""
    return sorted((t for t in hand if m.is_wild(t)), key=lambda t: (t == JOKER, t))


def _team_melds(view: dict[str, Any], team: int) -> dict[int, list[str]]:
    return {meld["number"]: list(meld["tiles"]) for meld in view["melds"][team]}


def _has_canasta(melds: dict[int, list[str]]) -> bool:
    return any(len(tiles) >= m.CANASTA_SIZE for tiles in melds.values())


def _floor(hand_after: int, canasta: bool) -> bool:
    return hand_after >= (1 if canasta else 2)  # CAN-17


def _opening_batch(hand: list[str], threshold: int, skip: int | None = None,
                   counted: int = 0) -> list[list[str]] | None:
    """Melds from `hand` (not of number `skip`) whose count, with `counted` already in, reaches the threshold."""
    by_num = _naturals_by_number(hand)
    wilds = _wilds(hand)
    batch: list[list[str]] = []
    pairs: list[list[str]] = []
    for n, tiles in sorted(by_num.items()):
        if n == skip:
            continue
        if len(tiles) >= 3:
            batch.append(list(tiles))
        elif len(tiles) == 2:
            pairs.append(list(tiles))
    total = counted + sum(m.count_value(t) for t in batch)
    pairs.sort(key=lambda p: -m.count_value(p))
    while total < threshold and wilds:
        if pairs:
            meld = [*pairs.pop(0), wilds.pop(0)]
            batch.append(meld)
            total += m.count_value(meld)
            continue
        target = next((b for b in batch if m.meld_problem(m.num(b[0]), [*b, wilds[0]]) is None), None)
        if target is None:
            break
        total += m.value(wilds[0])
        target.append(wilds.pop(0))
    if total < threshold or (not batch and counted == 0):
        return None
    return batch


def _take_pile(view: dict[str, Any], hand: list[str], team: int) -> TakePile | None:
    top = view.get("top")
    if top is None or not m.is_natural(top) or view.get("first_turn"):
        return None
    n = m.num(top)
    mine = _naturals_by_number(hand).get(n, [])
    if len(mine) < 2:
        return None
    melds = _team_melds(view, team)
    canasta_after = _has_canasta(melds) or len(melds.get(n, [])) + len(mine) + 1 >= m.CANASTA_SIZE
    left = len(hand) - len(mine) + view["pile_size"] - 1
    if view["opened"][team]:
        if not _floor(left, canasta_after):
            return None
        return TakePile(tiles=tuple(mine))
    rest = list(hand)
    for t in mine:
        rest.remove(t)
    counted = m.count_value([top, *mine])
    batch = _opening_batch(rest, view["thresholds"][team], skip=n, counted=counted)
    if batch is None:
        return None
    left -= sum(len(b) for b in batch)
    if not _floor(left, canasta_after or any(len(b) >= m.CANASTA_SIZE for b in batch)):
        return None
    return TakePile(tiles=tuple(mine), melds=tuple(tuple(b) for b in batch))


def _estimate(view: dict[str, Any], team: int) -> int:
    """A team's round score as the table shows it, hands guessed at 8 points a tile."""
    score = sum(m.meld_score(meld["number"], meld["tiles"]) for meld in view["melds"][team])
    score += (100 if view["opened"][team] else -100) * len(view["bonus"][team])
    score -= 8 * sum(view["hand_sizes"][s] for s in view["teams"][team])
    return score


def _plays(view: dict[str, Any], hand: list[str], team: int, spend_wilds: bool) -> list[Action]:
    """Every worthwhile play now, in order: additions of naturals, new natural melds, wilds."""
    melds = _team_melds(view, team)
    by_num = _naturals_by_number(hand)
    out: list[Action] = []
    for n, tiles in sorted(by_num.items(), key=lambda kv: -len(melds.get(kv[0], []))):
        if n in melds:
            out.append(Add(number=n, tiles=tuple(tiles)))
        elif len(tiles) >= 3:
            out.append(Meld(melds=(tuple(tiles),)))
    wilds = _wilds(hand)
    for n, tiles in sorted(melds.items(), key=lambda kv: -len(kv[1])):
        if not wilds:
            break
        clean_canasta = len(tiles) >= m.CANASTA_SIZE and not any(m.is_wild(t) for t in tiles)
        if clean_canasta:
            continue  # a wild on a clean canasta costs 200
        completes = len(tiles) == m.CANASTA_SIZE - 1
        if (completes or (spend_wilds and len(tiles) >= 3)) and m.meld_problem(n, [*tiles, wilds[0]], new=False) is None:
            out.append(Add(number=n, tiles=(wilds[0],)))
    if spend_wilds:
        for n, tiles in sorted(by_num.items()):
            if n not in melds and len(tiles) == 2 and wilds:
                out.append(Meld(melds=((*tiles, wilds[-1]),)))
    return out


def _size_after(action: Action, hand: list[str]) -> int:
    if isinstance(action, Add):
        return len(hand) - len(action.tiles)
    if isinstance(action, Meld):
        return len(hand) - sum(len(x) for x in action.melds)
    return len(hand)


def _canasta_after(action: Action, melds: dict[int, list[str]]) -> bool:
    if _has_canasta(melds):
        return True
    if isinstance(action, Add):
        return len(melds.get(action.number, [])) + len(action.tiles) >= m.CANASTA_SIZE
    if isinstance(action, Meld):
        return any(len(x) >= m.CANASTA_SIZE for x in action.melds)
    return False


def _can_go_out(view: dict[str, Any], hand: list[str], team: int) -> bool:
    """Whether every tile but one could be melded now (black threes never meld)."""
    melds = _team_melds(view, team)
    blocks = sum(1 for t in hand if m.is_block_three(t))
    if blocks > 1:
        return False
    by_num = _naturals_by_number(hand)
    wilds = _wilds(hand)
    stuck = blocks
    for n, tiles in by_num.items():
        if n in melds or len(tiles) >= 3:
            continue
        if len(tiles) == 2 and wilds:
            wilds.pop()
            continue
        stuck += len(tiles)
    homes = [n for n, tiles in melds.items() if not (len(tiles) >= m.CANASTA_SIZE and not any(map(m.is_wild, tiles)))]
    if wilds and not homes:
        stuck += len(wilds)
    total_melds = dict(melds)
    for n, tiles in by_num.items():
        total_melds[n] = total_melds.get(n, []) + tiles
    return stuck <= 1 and _has_canasta(total_melds)


def _danger(tile: str, view: dict[str, Any], hand: list[str], team: int) -> float:
    """How likely the next opponent holds two naturals of this number (8 naturals of each number exist)."""
    n = m.num(tile)
    seen = sum(1 for t in hand if m.is_natural(t) and m.num(t) == n)
    for side in view["melds"]:
        for meld in side:
            if meld["number"] == n:
                seen += sum(1 for t in meld["tiles"] if m.is_natural(t) and m.num(t) == n)
    unseen = max(0, 8 - seen)
    opp_melds = _team_melds(view, 1 - team)
    wanted = 1.5 if n in opp_melds else 1.0
    return wanted * unseen * unseen


def _discard(view: dict[str, Any], hand: list[str], team: int) -> Discard:
    if len(hand) == 1:
        return Discard(tile=hand[0])
    blocks = [t for t in hand if m.is_block_three(t)]
    if blocks:
        return Discard(tile=blocks[0])
    by_num = _naturals_by_number(hand)
    melds = _team_melds(view, team)
    naturals = [t for t in hand if m.is_natural(t)]
    pile = view.get("pile_size", 0)
    if naturals:
        def cost(t: str) -> tuple[float, int, str]:
            n = m.num(t)
            keep = 6 * (len(by_num[n]) - 1) + (4 if n in melds else 0)
            risk = _danger(t, view, hand, team) * (1 + pile / 4) / 8
            return (keep + risk, -m.value(t), t)
        best = min(naturals, key=cost)
        twos = [t for t in hand if m.is_two(t)]
        if twos and pile >= 10 and cost(best)[0] > 12:
            return Discard(tile=twos[0])  # a two blocks the pile for the next opponent (CAN-41)
        return Discard(tile=best)
    return Discard(tile=_wilds(hand)[0])


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    hand: list[str] = list(view["hand"])
    team: int = view["team"]
    if view["phase"] == "draw":
        take = _take_pile(view, hand, team)
        return take if take is not None else Draw()
    melds = _team_melds(view, team)
    if not view["opened"][team]:
        batch = _opening_batch(hand, view["thresholds"][team])
        if batch is not None:
            left = len(hand) - sum(len(b) for b in batch)
            if _floor(left, any(len(b) >= m.CANASTA_SIZE for b in batch)):
                return Open(melds=tuple(tuple(b) for b in batch))
        return _discard(view, hand, team)
    opponents = view["teams"][1 - team]
    # The opponents can go out soon: meld what can be melded before it is counted against the team.
    threat = _has_canasta(_team_melds(view, 1 - team)) and min(view["hand_sizes"][s] for s in opponents) <= 4
    late = view["stock"] <= LATE_STOCK or threat
    ahead = _estimate(view, team) + 100 >= _estimate(view, 1 - team)
    going_out = _can_go_out(view, hand, team) and (ahead or late)
    for action in _plays(view, hand, team, spend_wilds=going_out or late):
        after = _size_after(action, hand)
        canasta = _canasta_after(action, melds)
        if going_out and _floor(after, canasta):
            return action
        if after >= 2:
            return action
    return _discard(view, hand, team)
