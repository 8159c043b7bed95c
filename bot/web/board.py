"""The table of a card or tile-rummy game as pieces for the page: the melds, the market in order,
the pile or discard top and the stock, built from the PUBLIC view with the pictures' own blocks and
pieces (bot/core/pictures), so the page shows what the chat's picture shows and nothing a seat may
not see. Which of the seat's legal-move buttons takes from where (a market position, the pile, the
stock) is read from the templates those buttons were built from; no game rule is decided here.

Rummikub has no board here: its page arranges the table itself (drag and drop over `view.table`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.core.i18n import t
from bot.core.pictures.canasta import bonus_block, meld_block
from bot.core.pictures.pieces import Piece, card, tile
from bot.core.pictures.rummy101 import meld_block as rummy101_block
from bot.core.pictures.rummy500 import structure_block as rummy500_structure
from bot.core.pictures.sheet import Block
from bot.core.pictures.three_thirteen import wild_card
from bot.core.presenter.games import MoveTemplate
from bot.core.render.canasta import TEAM_LETTERS

CARD_GAMES = frozenset({"rummy500", "three_thirteen"})
POSITION = re.compile(r"^#(\d+)")  # a market take's option starts with its position (`#3 leave …`)
Press = dict[str, int | bool | None]  # the hand action a tap presses: {"index", "option", "with_items"}


def piece(p: Piece) -> dict[str, Any]:
    return {"code": p.code, "kind": p.kind, "note": p.note, "wild": p.wild}


def item_piece(game: str, code: str, view: dict[str, Any]) -> dict[str, Any]:
    """A hand item drawn as the pictures draw it (Three-Thirteen's wild cards edged)."""
    if game == "three_thirteen":
        return piece(wild_card(code, view))
    return piece(card(code) if game in CARD_GAMES else tile(code))


def _meld(block: Block, group: str = "") -> dict[str, Any]:
    return {"ref": block.ref, "caption": list(block.caption), "tone": block.tone, "group": group,
            "pieces": [piece(p) for p in block.pieces]}


def _zone(kind: str, label: str, pieces: Sequence[Piece], size: int | None) -> dict[str, Any]:
    """A pile on the table: `pieces` face up (the market's every card, a pile's top), `size` how many
    it holds in all (None where the view does not say)."""
    return {"kind": kind, "label": label, "size": size, "take": None,
            "pieces": [{**piece(p), "take": None} for p in pieces]}


def _rummy500(view: dict[str, Any], names: list[str], lang: str) -> tuple[list[dict], list[dict]]:
    zones = [_zone("stock", t("web.bank", lang), [], view["bank"]),
             _zone("market", t("web.market", lang), [card(c) for c in view["market"]], len(view["market"]))]
    burned = set(view["burned"])
    for p, code in zip(zones[1]["pieces"], view["market"], strict=True):
        p["burned"] = code in burned
    return zones, [_meld(rummy500_structure(s, names, lang)) for s in view["table"]]


def _canasta(view: dict[str, Any], names: list[str], lang: str) -> tuple[list[dict], list[dict]]:
    top = [tile(view["top"])] if view["top"] else []
    zones = [_zone("stock", t("web.stock", lang), [], view["stock"]),
             _zone("pile", t("web.pile", lang), top, view["pile_size"])]
    melds = []
    for team in range(2):
        group = f"{TEAM_LETTERS[team]}: " + ", ".join(names[s] for s in view["teams"][team])
        if view["bonus"][team]:
            melds.append(_meld(bonus_block(view, team, lang), group))
        melds += [_meld(meld_block(team, m, lang), group) for m in view["melds"][team]]
    return zones, melds


def _rummy101(view: dict[str, Any], names: list[str], lang: str) -> tuple[list[dict], list[dict]]:
    top = [tile(view["discard_top"])] if view["discard_top"] else []
    zones = [_zone("stock", t("web.stock", lang), [], view["stock"]),
             _zone("pile", t("web.discard", lang), top, view["discard_size"])]
    return zones, [_meld(rummy101_block(m, names, lang)) for m in view["table"]]


def _three_thirteen(view: dict[str, Any], names: list[str], lang: str) -> tuple[list[dict], list[dict] | None]:
    """No melds on the table: each hand's melds show only when the round is scored (in the text)."""
    top = [wild_card(view["discard_top"], view)] if view["discard_top"] else []
    return [_zone("stock", t("web.stock", lang), [], view["stock"]),
            _zone("pile", t("web.discard", lang), top, view["discard_size"])], None


GAMES = {"rummy500": _rummy500, "canasta": _canasta, "rummy101": _rummy101, "three_thirteen": _three_thirteen}


def _attach(zones: list[dict[str, Any]], templates: list[MoveTemplate], actions: Sequence[Any]) -> None:
    """Each hand action that takes from one place, on that place: a market take on its position,
    a draw or bank take on the stock, a take on the pile — one needing no picked items, or else the
    one the picks make (Canasta's `take with` the pair picked; `actions` are only moves the engine
    would accept). A place that more than one take could mean (Rummy 101's take-and-lay choices)
    stays a set of buttons only."""
    by_kind = {z["kind"]: z for z in zones}
    pile_takes: list[Press] = []
    picked_takes: list[Press] = []
    for a in actions:
        tpl = templates[a.index]
        press: Press = {"index": a.index, "option": a.option, "with_items": a.with_items}
        if tpl.name == "take_market" and a.option is not None and "market" in by_kind:
            found = POSITION.match(tpl.open_slots()[0].options[a.option])
            market = by_kind["market"]["pieces"]
            if found and 0 < int(found.group(1)) <= len(market):
                market[int(found.group(1)) - 1]["take"] = press
        elif (tpl.verb == "draw" or tpl.name == "take_bank") and "stock" in by_kind:
            by_kind["stock"]["take"] = press
        elif tpl.verb == "take" and "pile" in by_kind:
            (picked_takes if a.with_items else pile_takes).append(press)
    if not pile_takes and len(picked_takes) == 1:
        pile_takes = picked_takes
    if len(pile_takes) == 1:
        by_kind["pile"]["take"] = pile_takes[0]
        for p in by_kind["pile"]["pieces"]:
            p["take"] = pile_takes[0]


def board(game: str, public: dict[str, Any], names: list[str], lang: str,
          templates: list[MoveTemplate] | None = None, actions: Sequence[Any] = ()) -> dict[str, Any] | None:
    """The table as pieces from the public view; `templates` and `actions` (the seat's legal moves
    and its hand buttons, on its turn) say what a tap on a pile presses. None for Rummikub and
    before the deal; `melds` None in a game without table melds (Three-Thirteen)."""
    build = GAMES.get(game)
    if build is None or not public:
        return None
    zones, melds = build(public, names, lang)
    if templates is not None:
        _attach(zones, templates, actions)
    return {"zones": zones, "melds": melds}
