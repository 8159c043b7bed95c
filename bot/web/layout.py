"""The Rummikub draft layout of a page, checked by the engine without committing anything.

Each meld is judged by the rules' own draft view (valid or the catalog's reason, the opening total of
the new melds); the whole layout is then tried as the `play` it would be, on the stored state,
without committing it (both through bot/core/presenter/games.py), so the page shows exactly the
refusal Done would get."""

from __future__ import annotations

import re
from typing import Any

from bot.core.i18n import t
from bot.core.presenter.games import drafted, refusal
from bot.core.render.common import render_error
from storage import TableRecord

TILE = re.compile(r"^(?:[rbky](?:[1-9]|1[0-3])|j)$")
MAX_MELDS = 60  # more than the 106 tiles could make: a bigger body is not a layout


class BadLayout(ValueError):
    """Not a list of melds of tile names (the page never sends that; a hand-made request might)."""


def parse_layout(raw: Any) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) > MAX_MELDS:
        raise BadLayout("layout")
    melds = []
    for meld in raw:
        if not isinstance(meld, list) or not all(isinstance(x, str) and TILE.match(x.lower()) for x in meld):
            raise BadLayout("meld")
        if meld:
            melds.append([x.lower() for x in meld])
    return melds


def play_text(layout: list[list[str]]) -> str:
    return "play " + " | ".join(" ".join(meld) for meld in layout)


def check(rec: TableRecord, seat: int, layout: list[list[str]], lang: str) -> dict[str, Any]:
    """Every meld's validity, the opening total against the threshold, and what Done would answer."""
    state = rec.state or {}
    # Only the new melds count toward the opening (a meld kept as it stood on the table does not).
    draft = drafted(rec, layout)
    opened = bool(state.get("opened", [True] * (seat + 1))[seat])
    refused = refusal(rec, seat, play_text(layout))
    error = render_error(refused, lang, rec.game) if refused is not None else ""
    return {
        "melds": [{"valid": m["valid"], "value": m["value"],
                   "reason": "" if m["valid"] else t(f"meld_reason.{m['reason']}", lang)} for m in draft["melds"]],
        "opened": opened,
        "opening": draft["new_value"],
        "required": state.get("options", {}).get("initial_meld_min", 0),
        "ok": not error,
        "error": error,
    }
