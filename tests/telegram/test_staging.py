"""Compound moves by buttons alone on Telegram (issue 25): a Rummy 101 series opening and a pairs
opening, a Canasta two-meld opening and an unopened team's pile take with melds, each staged meld
by meld in the hand's DM (picks, "+ Stage meld"), the engine's report shown in the hand, and sent
with one press; a refused batch leaves the staging as it was and says why; a suggested move is one
press. The positions are restaged in the store (what the chat cannot set up), never typed."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from storage import TableRecord
from tests.rules import canasta_scenario as cs
from tests.rules import rummy101_scenario as rs
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import JSON


async def restaged(h: Harness, state: dict[str, Any]) -> TableRecord:
    """The table in play with `state` in place of its deal, and the hands shown again."""
    rec = await h.table()
    rec.state = state
    rec = await h.store.commit(rec, rec.version)
    for seat in range(len(rec.seats)):
        await h.tg.delivery.put_hand(rec, seat)
    await h.idle()
    return rec


async def stage(h: Harness, user: JSON, groups: list[str], picks: str = "") -> None:
    """Pick each tile of each group by its button and stage the group; then pick `picks`."""
    for group in groups:
        for tile in group.split():
            await h.press_label(await h.hand_message(user), tile, user)
        await h.press_label(await h.hand_message(user), t("stage.btn.stage", "en"), user)
    for tile in picks.split():
        await h.press_label(await h.hand_message(user), tile, user)


async def start(h: Harness, game: str, ais: int = 0) -> None:
    await h.open_lobby(game, users=(h.bob,))
    for _ in range(ais):
        await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "start", h.alice)


async def test_rummy101_series_opening_by_buttons_and_a_refused_batch_keeps_its_staging(h: Harness) -> None:
    await start(h, "rummy101")
    rec = await h.table()
    state = rs.restage(rec.state, hands={0: "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"},
                       status={0: "unopened", 1: "unopened"}, turn=0, phase="play")
    await restaged(h, state)
    await stage(h, h.alice, ["r11 r12 r13", "k12 b12 y12"])
    hand = await h.hand_message(h.alice)
    assert "1. r11 r12 r13 ✓ 36" in hand["text"] and "Staged: 72 of 101 points" in hand["text"]
    # Sent now, the batch is short: refused with the engine's reason, and the staging stays.
    pressed = await h.press_label(hand, t("move.rummy101.open", "en") + " ✓", h.alice)
    assert "101" in h.answer_for(pressed)["text"]
    assert "Staged: 72 of 101 points" in (await h.hand_message(h.alice))["text"]
    assert (await h.table()).state["status"][0] == "unopened"
    await stage(h, h.alice, [], picks="b9 b10 b11")
    hand = await h.hand_message(h.alice)
    assert "Staged: 102 of 101 points" in hand["text"] and t("stage.ready", "en") in hand["text"]
    await h.press_label(hand, t("move.rummy101.open", "en") + " ✓", h.alice)
    rec = await h.table()
    assert rec.state["status"][0] == "series" and len(rec.state["table"]) == 3
    assert "Staged" not in (await h.hand_message(h.alice))["text"]  # the screen starts afresh


async def test_rummy101_pairs_opening_and_taking_a_meld_back(h: Harness) -> None:
    await start(h, "rummy101")
    rec = await h.table()
    state = rs.restage(rec.state, hands={0: "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 b2 k4"},
                       status={0: "unopened", 1: "unopened"}, turn=0, phase="play")
    await restaged(h, state)
    await stage(h, h.alice, ["r5 r5", "b2 k4"])
    assert "2. b2 k4 ✗" in (await h.hand_message(h.alice))["text"]  # the engine's word on a bad meld
    await h.press_verb(await h.hand_message(h.alice), "unstage", h.alice, "0", "2")
    await stage(h, h.alice, ["b7 b7", "k9 k9", "y1 y1", "r13 r13"])
    hand = await h.hand_message(h.alice)
    assert "Staged: 5 of 5 pairs" in hand["text"]
    await h.press_label(hand, t("move.rummy101.open", "en") + " ✓", h.alice)
    rec = await h.table()
    assert rec.state["status"][0] == "pairs" and len(rec.state["table"]) == 5


async def test_canasta_two_meld_opening_by_buttons(h: Harness) -> None:
    await start(h, "canasta", ais=2)
    rec = await h.table()
    alice = next(k for k, s in enumerate(rec.seats) if s.user_id == str(h.alice["id"]))
    state = cs.scenario(hands={alice: "r10 b10 k10 r11 b11 y11 r4 b5 k6 y7 r8 b9 k12 y13"}, opened=(False, False),
                        turn=alice, options=rec.state["options"])
    await restaged(h, state)
    await stage(h, h.alice, ["r10 b10 k10"], picks="r11 b11 y11")
    hand = await h.hand_message(h.alice)
    assert "Staged: 60 of 50 points" in hand["text"]
    await h.press_label(hand, t("move.canasta.open", "en") + " ✓", h.alice)
    rec = await h.table()
    assert rec.state["opened"][alice % 2] and sorted(rec.state["melds"][alice % 2]) == ["10", "11"]


async def test_canasta_unopened_team_takes_the_pile_with_melds_by_buttons(h: Harness) -> None:
    await start(h, "canasta", ais=2)
    rec = await h.table()
    alice = next(k for k, s in enumerate(rec.seats) if s.user_id == str(h.alice["id"]))
    state = cs.scenario(hands={alice: "r8 b8 r13 b13 k13 r12 b12 y12 r4 b5 k6 y7 k9 y10"}, opened=(False, False),
                        pile="y4 k8", phase="draw", turn=alice, options=rec.state["options"])
    await restaged(h, state)
    await stage(h, h.alice, ["r8 b8", "r13 b13 k13"], picks="r12 b12 y12")
    hand = await h.hand_message(h.alice)
    assert "Staged: 75 of 50 points" in hand["text"]
    await h.press_label(hand, t("move.canasta.take", "en") + " ✓", h.alice)
    rec = await h.table()
    team = rec.state["melds"][alice % 2]
    assert rec.state["opened"][alice % 2] and sorted(team) == ["12", "13", "8"] and not rec.state["pile"]


async def test_a_suggested_opening_is_one_press(h: Harness) -> None:
    await start(h, "rummy101")
    rec = await h.table()
    state = rs.restage(rec.state, hands={0: "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"},
                       status={0: "unopened", 1: "unopened"}, turn=0, phase="play")
    await restaged(h, state)
    hand = await h.hand_message(h.alice)
    suggested = [b for b in h.fake.buttons(hand) if b["text"].startswith("★")]
    assert suggested and suggested[0]["text"] == "★ Open · 102"
    await h.press(suggested[0]["callback_data"], hand, h.alice)
    rec = await h.table()
    assert rec.state["status"][0] == "series" and len(rec.state["table"]) == 3
