"""The Rummikub draft layout of a page, checked by the engine without committing anything.

Each meld is judged by the rules' own draft view (valid or the catalog's reason, the opening total of
the new melds); the whole
layout is then tried as the `play` it would be, on the stored state, through `engine.apply` (pure:
it works on a copy), so the page shows exactly the refusal Done would get."""

from __future__ import annotations

import re
from typing import Any

from bot.core.i18n import t
from bot.core.render.common import render_error
from rules import IllegalAction, get_engine
from rules.rummikub.views import draft_view
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
    # The rules' own draft view (RK-26): each meld valid or not, and the value of the new melds only
    # (a meld kept as it stood on the table does not count toward the opening).
    drafted = draft_view({**state, "draft": {"table": [{"tiles": m, "prefix": None} for m in layout], "rack": []}})
    opened = bool(state.get("opened", [True] * (seat + 1))[seat])
    engine = get_engine(rec.game)
    error = ""
    try:
        engine.apply(state, seat, engine.parse(play_text(layout)))
    except IllegalAction as err:
        error = render_error(err, lang, rec.game)
    return {
        "melds": [{"valid": m["valid"], "value": m["value"],
                   "reason": "" if m["valid"] else t(f"meld_reason.{m['reason']}", lang)} for m in drafted["melds"]],
        "opened": opened,
        "opening": drafted["new_value"],
        "required": state.get("options", {}).get("initial_meld_min", 0),
        "ok": not error,
        "error": error,
    }
