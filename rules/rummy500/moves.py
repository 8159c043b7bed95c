"""The moves one Rummy 500 seat can make now (spec §13), from that seat's view only.

Lays are found with the search the AI uses (every placement of the hand, then the joker check of
`legal`), so `lay` and `lay … on S<n>` are offered only where a placement exists, and only the
structures it can go on. A market take is offered per position whose target can be laid at once
(R500-31), as the whole atomic command: the position, the card left behind, and the placement.
"""

from __future__ import annotations

from typing import Any

from rules.core.moves import MoveTemplate, Slot, items, pick, word
from rules.core.tiles import JOKER
from rules.rummy500.melds import card_value
from rules.rummy500.search import candidates, legal

KEY = "move.rummy500."


def _tpl(verb: str, name: str, slots: list[Slot], ok: bool | None) -> MoveTemplate:
    return MoveTemplate(verb=verb, slots=tuple(slots), label_key=KEY + name, available=ok)


def _placements(view: dict[str, Any], keep_discard: bool) -> tuple[list[str], dict[int, list[str]]]:
    """The cards of legal new melds, and per structure the cards of legal extensions."""
    hand: list[str] = view["hand"]
    table = view["table"]
    new: set[str] = set()
    onto: dict[int, set[str]] = {}
    for cards, on, value in candidates(hand, table, set(view["burned"])):
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        if keep_discard and rest and all(c == JOKER for c in rest):
            continue  # R500-24: a card to discard must be left after a bank take
        if legal(table, (cards, on, value), view["you"]) is None:
            continue
        (new if on is None else onto.setdefault(on, set())).update(cards)
    return sorted(new), {on: sorted(cards) for on, cards in sorted(onto.items())}


def _market_option(entry: dict[str, Any]) -> str:
    best = entry["best"]
    spare = [c for c in entry["after"] if c not in best["cards"]]
    leave = f" leave {max(spare, key=card_value)}" if entry["must_leave"] else ""
    on = f" on S{best['on']}" if best["on"] is not None else ""
    return f"#{entry['pos']}{leave}; lay {' '.join(best['cards'])}{on}"


def moves(view: dict[str, Any]) -> list[MoveTemplate]:
    seat = view.get("you")
    on_turn = seat is not None and view.get("turn") == seat
    phase = view.get("phase") if on_turn else None
    hand: list[str] = list(view.get("hand") or [])
    taking, laying = phase == "take", phase in ("bank", "market")
    new, onto = _placements(view, keep_discard=phase == "bank") if laying else ([], {})
    takes = [e for e in (view.get("takes") or []) if e["best"] is not None] if taking else []
    structures = [f"S{s['id']}" for s in view.get("table") or []]
    on_refs = [f"S{n}" for n in onto] or structures
    on_fits = sorted({c for cards in onto.values() for c in cards})
    discards = [c for c in hand if c != JOKER]  # R500-54
    return [
        _tpl("take", "take_bank", [word("bank")], taking and (view.get("bank") or 0) > 0),
        _tpl("take", "take_market", [pick("position", [_market_option(e) for e in takes],
                                          [f"#{e['pos']} {e['target']}" for e in takes])],
             taking and bool(takes)),
        _tpl("lay", "lay", [items(3, max(3, len(hand)), new or hand)], laying and bool(new)),
        _tpl("lay", "lay_on", [items(1, max(1, len(hand)), on_fits or hand), word("on"), pick("meld", on_refs)],
             laying and bool(onto)),
        _tpl("discard", "discard", [items(1, 1, discards or hand)], phase == "bank" and bool(discards)),
        _tpl("end", "end", [], phase == "market"),
        _tpl("stop", "stop", [], taking and not view.get("bank")),
    ]
