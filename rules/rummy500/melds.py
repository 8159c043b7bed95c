"""Structures on the table, placements, and joker consistency (spec §5, §6.2).

A structure is a JSON-native dict:
- set:  {"id", "kind": "set", "rank", "cards", "owners", "base", "branch"} — `base` is how many cards
  the creating meld had (only a 4th card added later may start a branch, R500-44), `branch` the ID
  of the run started from it.
- run:  {"id", "kind": "run", "suit", "low", "cards", "owners", "shared", "branch_of"} — cards in
  ascending rank from `low`; a branch run holds its set's 4th card too (`shared`), which still
  counts once, for its owner, so conservation and scoring skip it here.

Jokers are stored as `JK`. What a table joker stands for is derived, never stored: a run joker is
the card at its position; a set joker is one of the set's missing suits, pending while several
remain (R500-50). `joker_info` enumerates the consistent assignments (at most 2 jokers, so at most
a handful) and derives the burned cards (R500-52) from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from rules.core.cards import JOKER, RANKS, SUITS
from rules.core.errors import IllegalAction

Struct = dict[str, Any]

_RANK = {r: i + 1 for i, r in enumerate(RANKS)}


def rank_of(card: str) -> int:
    return _RANK[card[:-1]]


def suit_of(card: str) -> str:
    return card[-1]


def card_at(rank: int, suit: str) -> str:
    return f"{RANKS[rank - 1]}{suit}"


_RANK_VALUES = (0, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def rank_value(rank: int) -> int:
    """R500-04: A 15 (even in A-2-3, D-15), K/Q/J 10, 2-10 face value."""
    return _RANK_VALUES[rank]


def card_value(card: str, joker_value: int = 15) -> int:
    """Hand value of a card (R500-04); a joker costs `joker_value` (R500-56)."""
    return joker_value if card == JOKER else rank_value(rank_of(card))


def hand_value(cards: Sequence[str], joker_value: int) -> int:
    return sum(card_value(c, joker_value) for c in cards)


# ---- reading placements --------------------------------------------------------------------------


def run_sequence(cards: Sequence[str], suit: str | None = None) -> tuple[str, int, list[str]] | None:
    """(suit, lowest rank, cards in rank order) if `cards` can be consecutive ranks of one suit.

    Without jokers the order written does not matter; with jokers the written order is the rank
    order and fixes each joker's position (R500-02: `6C JK 8C` ⇒ JK = 7C)."""
    naturals = [c for c in cards if c != JOKER]
    if not naturals:
        return None
    s = suit or suit_of(naturals[0])
    if any(suit_of(c) != s for c in naturals):
        return None
    ordered = sorted(cards, key=rank_of) if len(naturals) == len(cards) else list(cards)
    first = next(i for i, c in enumerate(ordered) if c != JOKER)
    low = rank_of(ordered[first]) - first
    if low < 1 or low + len(ordered) - 1 > 13:
        return None
    for i, c in enumerate(ordered):
        if c != JOKER and rank_of(c) != low + i:
            return None
    return s, low, ordered


def set_rank(cards: Sequence[str]) -> int | None:
    """The rank if `cards` can be one set: one rank, distinct suits, at most 4 cards (R500-40)."""
    naturals = [c for c in cards if c != JOKER]
    if not naturals or len(cards) > 4:
        return None
    r = rank_of(naturals[0])
    if any(rank_of(c) != r for c in naturals) or len({suit_of(c) for c in naturals}) != len(naturals):
        return None
    return r


def run_value(low: int, count: int) -> int:
    return sum(rank_value(r) for r in range(low, low + count))


# ---- the table -----------------------------------------------------------------------------------


def find(table: Sequence[Struct], sid: int) -> Struct | None:
    for s in table:
        if s["id"] == sid:
            return s
    return None


def counted_cards(s: Struct) -> list[tuple[str, int, int]]:
    """(card, owner, laid value) of the cards that belong to this structure (a branch's shared
    4th card belongs to its set)."""
    if s["kind"] == "set":
        value = rank_value(s["rank"])
        return [(c, o, value) for c, o in zip(s["cards"], s["owners"], strict=True)]
    shared, low = s["shared"], s["low"]
    return [(c, o, rank_value(low + i)) for i, (c, o) in enumerate(zip(s["cards"], s["owners"], strict=True))
            if c != shared]


def table_cards(table: Sequence[Struct]) -> list[str]:
    out: list[str] = []
    for s in table:
        shared = s.get("shared")
        if shared is None:
            out.extend(s["cards"])
        else:
            out.extend(c for c in s["cards"] if c != shared)
    return out


def laid_points(table: Sequence[Struct], seats: int) -> list[int]:
    """T(p) so far: every laid card for whoever laid it, jokers as represented (R500-45/56/62)."""
    points = [0] * seats
    for s in table:
        for _, owner, value in counted_cards(s):
            points[owner] += value
    return points


def joker_slots(table: Sequence[Struct]) -> list[tuple[int, int, list[str]]]:
    """(structure ID, index, candidate cards) for every table joker (R500-50)."""
    slots = []
    for s in table:
        if JOKER not in s["cards"]:
            continue
        if s["kind"] == "run":
            for i, c in enumerate(s["cards"]):
                if c == JOKER:
                    slots.append((s["id"], i, [card_at(s["low"] + i, s["suit"])]))
        else:
            present = {suit_of(c) for c in s["cards"] if c != JOKER}
            missing = [card_at(s["rank"], su) for su in SUITS if su not in present]
            for i, c in enumerate(s["cards"]):
                if c == JOKER:
                    slots.append((s["id"], i, missing))
    return slots


def joker_info(table: Sequence[Struct]) -> tuple[bool, set[str], list[tuple[int, int, list[str]]]]:
    """(consistent, burned cards, per joker: (ID, index, the cards it may still stand for)).

    Consistent: some assignment of distinct cards, none on the table as a natural (R500-51).
    Burned: the cards assigned in every consistent assignment (R500-52)."""
    slots = joker_slots(table)
    if not slots:
        return True, set(), []
    naturals = set(table_cards(table))
    options = [[c for c in cands if c not in naturals] for _, _, cands in slots]
    found = [combo for combo in product(*options) if len(set(combo)) == len(combo)]
    if not found:
        return False, set(), [(sid, i, []) for sid, i, _ in slots]
    burned = set(found[0])
    for combo in found[1:]:
        burned &= set(combo)
    idents = []
    for k, (sid, i, _) in enumerate(slots):
        idents.append((sid, i, sorted({combo[k] for combo in found}, key=lambda c: SUITS.index(suit_of(c)))))
    return True, burned, idents


def burned_cards(table: Sequence[Struct]) -> set[str]:
    return joker_info(table)[1]


# ---- placements ----------------------------------------------------------------------------------


def _new_set(sid: int, rank: int, cards: Sequence[str], seat: int) -> Struct:
    return {"id": sid, "kind": "set", "rank": rank, "cards": list(cards), "owners": [seat] * len(cards),
            "base": len(cards), "branch": None}


def _new_run(sid: int, suit: str, low: int, cards: Sequence[str], owners: list[int]) -> Struct:
    return {"id": sid, "kind": "run", "suit": suit, "low": low, "cards": list(cards), "owners": owners,
            "shared": None, "branch_of": None}


def place(table: list[Struct], cards: Sequence[str], on: int | None, seat: int, next_id: int,
          index: int = 1) -> tuple[int, int]:
    """Lay `cards` (already checked to be in the hand) onto `table`, which is changed in place.

    Returns (laid value, next free structure ID). Raises the spec's reason code; the caller works
    on a copy, so a refusal leaves nothing behind. Check order: joker ratio, burned cards, the
    structure, then joker consistency."""
    naturals = [c for c in cards if c != JOKER]
    if len(cards) - len(naturals) > len(naturals):
        raise IllegalAction("E_JOKER_RATIO", cards=list(cards))  # R500-46
    burned = burned_cards(table)
    hit = [c for c in naturals if c in burned]
    if hit:
        raise IllegalAction("E_BURNED", cards=hit)  # R500-52
    if on is None:
        value, next_id = _base_meld(table, cards, seat, next_id, index)
    else:
        target = find(table, on)
        if target is None:
            raise IllegalAction("E_NO_SUCH_MELD", meld=f"S{on}")
        if target["kind"] == "run":
            value = _extend_run(target, cards, seat)
        else:
            value, next_id = _extend_set(table, target, cards, seat, next_id)
    if not joker_info(table)[0]:
        raise IllegalAction("E_JOKER_CONFLICT", cards=list(cards))  # R500-51
    return value, next_id


def _base_meld(table: list[Struct], cards: Sequence[str], seat: int, next_id: int, index: int) -> tuple[int, int]:
    """R500-41: a set of 3-4 or a run of 3+ from the hand. `index`: the placement's number in the
    command, for the error sentence shared with the other games."""
    if len(cards) < 3:
        raise IllegalAction("E_INVALID_MELD", index=index, meld=list(cards), reason="rummy500_too_short")
    rank = set_rank(cards)
    if rank is not None:
        table.append(_new_set(next_id, rank, cards, seat))
        return rank_value(rank) * len(cards), next_id + 1
    seq = run_sequence(cards)
    if seq is None:
        raise IllegalAction("E_INVALID_MELD", index=index, meld=list(cards), reason="rummy500_not_set_or_run")
    suit, low, ordered = seq
    table.append(_new_run(next_id, suit, low, ordered, [seat] * len(ordered)))
    return run_value(low, len(ordered)), next_id + 1


def _not_attachable(s: Struct, cards: Sequence[str]) -> IllegalAction:
    return IllegalAction("E_NOT_ATTACHABLE", meld=f"S{s['id']}", cards=list(cards))


def _extend_run(s: Struct, cards: Sequence[str], seat: int) -> int:
    """R500-42: consecutive, in suit, directly below the lowest or above the highest card."""
    seq = run_sequence(cards, s["suit"])
    if seq is None:
        raise _not_attachable(s, cards)
    _, low, ordered = seq
    high = s["low"] + len(s["cards"]) - 1
    if low == high + 1:
        s["cards"].extend(ordered)
        s["owners"].extend([seat] * len(ordered))
    elif low + len(ordered) == s["low"]:
        s["cards"][:0] = ordered
        s["owners"][:0] = [seat] * len(ordered)
        s["low"] = low
    else:
        raise _not_attachable(s, cards)
    return run_value(low, len(ordered))


def _extend_set(table: list[Struct], s: Struct, cards: Sequence[str], seat: int, next_id: int) -> tuple[int, int]:
    """R500-43 (the 4th card) and R500-44 (a branch run from an added 4th card)."""
    rank = s["rank"]
    if len(s["cards"]) == 3:
        present = {suit_of(c) for c in s["cards"] if c != JOKER}
        fourth = [c for c in cards if c != JOKER and rank_of(c) == rank]
        if len(fourth) != 1 or suit_of(fourth[0]) in present:
            raise _not_attachable(s, cards)
        card = fourth[0]
        if len(cards) == 1:
            s["cards"].append(card)
            s["owners"].append(seat)
            return rank_value(rank), next_id
        seq = run_sequence(cards, suit_of(card))
        if seq is None:
            raise _not_attachable(s, cards)
        suit, low, ordered = seq
        s["cards"].append(card)
        s["owners"].append(seat)
        return run_value(low, len(ordered)), _branch(table, s, suit, low, ordered, [seat] * len(ordered), next_id)
    if len(s["cards"]) == 4 and s["base"] == 3 and s["branch"] is None:
        anchor = s["cards"][3]
        seq = run_sequence(cards, suit_of(anchor))
        if seq is None:
            raise _not_attachable(s, cards)
        suit, low, ordered = seq
        owner = s["owners"][3]
        if low == rank + 1:
            run, owners, start = [anchor, *ordered], [owner] + [seat] * len(ordered), rank
        elif low + len(ordered) == rank:
            run, owners, start = [*ordered, anchor], [seat] * len(ordered) + [owner], low
        else:
            raise _not_attachable(s, cards)
        return run_value(low, len(ordered)), _branch(table, s, suit, start, run, owners, next_id)
    raise _not_attachable(s, cards)


def _branch(table: list[Struct], s: Struct, suit: str, low: int, cards: list[str], owners: list[int],
            next_id: int) -> int:
    run = _new_run(next_id, suit, low, cards, owners)
    run["shared"] = s["cards"][3]
    run["branch_of"] = s["id"]
    s["branch"] = next_id
    table.append(run)
    return next_id + 1
