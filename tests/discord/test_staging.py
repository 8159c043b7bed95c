"""Compound moves by components alone on Discord (issue 25): a Rummy 101 series opening and a pairs
opening, a Canasta two-meld opening and an unopened team's pile take, each meld picked in the hand's
select and staged ("+ Stage meld"), the engine's report in the hand's embed, sent with one press; a
refused batch keeps its staging; a suggested move is one press. Positions are restaged in the store."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.codec import decode
from tests.discord.conftest import Harness, components
from tests.rules import canasta_scenario as cs
from tests.rules import rummy101_scenario as rs

JSON = dict[str, Any]
R101_SERIES = "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"
R101_PAIRS = "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 b2 k4"


async def table_with(h: Harness, game: str, make: Any) -> int:
    """A started table of Alice and Bob (Canasta: and two AIs) restaged by `make`; Alice's seat."""
    await h.open_lobby(game, users=(h.bob,))
    if game == "canasta":
        for _ in range(2):
            await h.press(await h.table_message(), h.alice, "addai", "normal")
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    seat = next(k for k, s in enumerate(rec.seats) if s.user_id == h.alice["id"])
    rec.state = make(rec.state, seat)
    await h.store.commit(rec, rec.version)
    return seat


def fresh(h: Harness, hand: JSON) -> JSON:
    return h.fake.messages[int(hand["id"])]


async def pick(h: Harness, hand: JSON, tiles: str) -> JSON:
    select = next(c for c in components(hand) if c["type"] == 3 and decode(c["custom_id"]).verb == "pick")
    labels = [o["label"] for o in select["options"]]
    values = [o["value"] for o in select["options"] if o.get("default")]
    for tile in tiles.split():
        values.append(next(o["value"] for k, o in enumerate(select["options"])
                            if labels[k] == tile and o["value"] not in values))
    await h.click(select["custom_id"], hand, h.alice, values=values)
    return fresh(h, hand)


async def stage(h: Harness, hand: JSON, groups: list[str]) -> JSON:
    for group in groups:
        hand = await pick(h, hand, group)
        await h.press(hand, h.alice, "stage")
        hand = fresh(h, hand)
    return hand


async def send(h: Harness, hand: JSON, label: str) -> JSON:
    button = next(c for c in components(hand) if c["type"] == 2 and (c.get("label") or "").startswith(label)
                  and decode(c["custom_id"]).verb == "cmd")
    await h.click(button["custom_id"], hand, h.alice)
    return fresh(h, hand)


def text(hand: JSON) -> str:
    return hand["embeds"][0]["description"]


CASES = {
    "rummy101 series": ("rummy101", lambda s, seat: rs.restage(s, hands={seat: R101_SERIES}, turn=seat, phase="play",
                                                               status={0: "unopened", 1: "unopened"}),
                        ["r11 r12 r13", "k12 b12 y12"], "b9 b10 b11", "open", "Staged: 102 of 101 points"),
    "rummy101 pairs": ("rummy101", lambda s, seat: rs.restage(s, hands={seat: R101_PAIRS}, turn=seat, phase="play",
                                                              status={0: "unopened", 1: "unopened"}),
                       ["r5 r5", "b7 b7", "k9 k9", "y1 y1"], "r13 r13", "open", "Staged: 5 of 5 pairs"),
    "canasta open": ("canasta", lambda s, seat: cs.scenario(
        hands={seat: "r10 b10 k10 r11 b11 y11 r4 b5 k6 y7 r8 b9 k12 y13"}, opened=(False, False), turn=seat,
        options=s["options"]), ["r10 b10 k10"], "r11 b11 y11", "open", "Staged: 60 of 50 points"),
    "canasta pile take": ("canasta", lambda s, seat: cs.scenario(
        hands={seat: "r8 b8 r13 b13 k13 r12 b12 y12 r4 b5 k6 y7 k9 y10"}, opened=(False, False), pile="y4 k8",
        phase="draw", turn=seat, options=s["options"]), ["r8 b8", "r13 b13 k13"], "r12 b12 y12", "take pile",
        "Staged: 75 of 50 points"),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_compound_move_by_components(h: Harness, case: str) -> None:
    game, make, groups, last, label, report = CASES[case]
    seat = await table_with(h, game, make)
    before = await h.table()
    hand = await stage(h, await h.hand(h.alice), groups)
    if case == "rummy101 series":  # sent short: refused with the engine's reason, the staging kept
        hand = await send(h, hand, label)
        assert "101" in hand["content"] and "Staged: 72 of 101 points" in text(hand)
        assert (await h.table()).version == before.version
    hand = await pick(h, hand, last)
    assert report in text(hand)
    await send(h, hand, label)
    after = await h.table()
    if game == "rummy101":
        assert after.state["status"][seat] in ("series", "pairs") and len(after.state["table"]) == len(groups) + 1
    else:
        assert after.state["opened"][seat % 2] and len(after.state["melds"][seat % 2]) == len(groups) + 1


async def test_a_suggested_opening_is_one_press(h: Harness) -> None:
    seat = await table_with(h, "rummy101", CASES["rummy101 series"][1])
    hand = await h.hand(h.alice)
    suggested = next(c for c in components(hand) if c["type"] == 2 and decode(c["custom_id"]).verb == "sug")
    assert suggested["label"] == "★ Open · 102"
    await h.click(suggested["custom_id"], hand, h.alice)
    assert (await h.table()).state["status"][seat] == "series"
