"""A Rummikub table eleven melds long, restaged in the store (never typed), for the phone tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.web.browser import Served
from tests.web.tables import two_player_table

ELEVEN = ["r1 r2 r3", "b4 b5 b6 b7", "k9 k10 k11", "y5 y6 y7", "r10 b10 k10", "r12 b12 y12", "b1 b2 b3",
          "k5 k6 k7 k8", "y11 y12 y13", "r7 b7 k7", "r4 r5 r6"]
RACK = "r8 r9 b13 k1 y1 y2 k3 b9 y9 r13 k13 y3 b11 k12"


def eleven_melds(state: dict[str, Any], rack: str = RACK) -> dict[str, Any]:
    """Alice (seat 0, on turn, opened) with `rack` over the eleven melds; every tile still in play once."""
    table = [m.split() for m in ELEVEN]
    wanted = Counter(t for m in table for t in m) + Counter(rack.split())
    everything = Counter(state["pool"]) + sum((Counter(r) for r in state["racks"]), Counter())
    assert not wanted - everything
    rest = list((everything - wanted).elements())
    others = [rest[: len(r)] for r in state["racks"][1:]]
    rest = rest[sum(len(r) for r in others):]
    return {**state, "table": [{"tiles": m, "prefix": None} for m in table], "racks": [rack.split(), *others],
            "pool": rest, "opened": [True] * len(state["racks"]), "turn": 0, "draft": None}


async def restaged(served: Served, rack: str = RACK, chat: str = "rk11") -> Any:
    rec = await two_player_table(served.service, chat=chat)
    rec.state = eleven_melds(rec.state, rack)
    return await served.store.commit(rec, rec.version)
