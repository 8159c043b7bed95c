"""A four-seat Tile Canasta table through the table service (MemoryStore/SQLite + FakeClock): the
lobby picks partners, partners see the team's melds and threshold but never each other's hand, a
timed-out player is auto-played per CAN-54/55 and plays on normally, an away player keeps the seat
and takes it back by acting; plus the renderer on the views the service returns."""

from __future__ import annotations

import json

import pytest

from bot.core import render
from bot.core.i18n import available_languages
from bot.core.models import Player, ServiceError
from bot.core.service import TableService
from rules import IllegalAction
from rules.canasta.engine import auto_discard
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.rules.canasta_scenario import stacked_deck

DAVE = Player("test", "4", "Dave")
# Final seats: 0 Alice, 1 Bob, 2 Carol, 3 Dave -> Team A = Alice + Carol, Team B = Bob + Dave.
# Bob (seat 1) starts (stacked deck: P1 deals) and can open with his aces; Carol holds a block three;
# Dave holds a natural triple (an AI would meld it, CAN-55's auto-play never melds).
DECK = stacked_deck(
    {0: "r4 b4", 1: "r1 b1 k1 y13", 2: "b3 y5 y6", 3: "r7 b7 k7 k3"},
    stock_front="k9 y9 r10 b10 k10 y10 r11 b11",
)


async def canasta_table(service: TableService, **options) -> str:
    rec = await service.open_table("canasta", "test", "chat4", ALICE, options=options, deck=DECK)
    for who in (BOB, DAVE):
        await service.join(rec.id, who)
    with pytest.raises(ServiceError) as err:
        await service.start(rec.id, ALICE)
    assert err.value.code == "E_TOO_FEW_PLAYERS"
    await service.join(rec.id, CAROL)
    with pytest.raises(ServiceError) as err:
        await service.join(rec.id, Player("test", "5", "Eve"))
    assert err.value.code == "E_TABLE_FULL"
    # The host picks partners: Carol moves opposite Alice (partners sit opposite, CAN-06).
    rec = await service.swap_seats(rec.id, ALICE, 2, 3)
    assert [s.name for s in rec.seats] == ["Alice", "Bob", "Carol", "Dave"]
    await service.start(rec.id, ALICE)
    return rec.id


async def test_partners_share_melds_and_threshold_but_not_hands(service: TableService) -> None:
    table_id = await canasta_table(service, turn_timer_s=60)
    rec = await service.get(table_id)
    assert rec.state["turn"] == 1 and len(rec.state["hands"][1]) == 15
    outcome = await service.act(table_id, BOB, "open r1 b1 k1")
    dave = outcome.private_views[3]
    assert dave["team"] == 1 and dave["opened"] == [False, True] and dave["thresholds"] == [50, 50]
    assert dave["melds"][1][0]["tiles"] == ["r1", "b1", "k1"]
    assert outcome.public_view["melds"][1][0]["number"] == 1
    # Bob's hand never reaches Dave (nor the public view): only its size does.
    bob_hand = outcome.table.state["hands"][1]
    assert dave["hand_sizes"][1] == len(bob_hand) == 12
    assert "hand" not in outcome.public_view and "hands" not in json.dumps(dave)
    only_bob = set(bob_hand) - set(dave["hand"])
    assert only_bob and not any(f'"{t}"' in json.dumps(dave) for t in only_bob)
    # Carol (Team A) sees Team B's melds too, but her own team unopened with its threshold.
    carol = outcome.private_views[2]
    assert carol["melds"][1] == dave["melds"][1] and carol["best_opening"] is not None
    # Events: Bob's private tiles reach only Bob.
    lines = render.render_events(outcome.table, outcome.events, 3)
    assert any("Bob opened Team B" in line for line in lines)
    table_text = render.render_table(outcome.table, outcome.public_view, "en", now=service.clock.now())
    assert "B:1s [r1 b1 k1]" in table_text and "not opened, needs 50" in table_text and "60s left" in table_text
    hand_text = render.render_hand(outcome.table, dave)
    assert "Team B has opened" in hand_text and not any(t in hand_text.split() for t in only_bob)


async def test_a_timed_out_player_is_auto_played_then_plays_on(service: TableService, clock) -> None:
    table_id = await canasta_table(service, turn_timer_s=60)
    await service.act(table_id, BOB, "open r1 b1 k1")
    await service.act(table_id, BOB, "discard y13")
    rec = await service.get(table_id)
    assert rec.state["turn"] == 2 and rec.deadline == clock.now() + 60
    carol_hand = list(rec.state["hands"][2])
    clock.advance(61)
    (outcome,) = await service.tick()
    state = outcome.table.state
    # CAN-55: draw from the stock (k9), never meld, discard by priority (b3 first).
    assert auto_discard([*carol_hand, "k9"]) == "b3"
    expected_hand = [*carol_hand, "k9"]
    expected_hand.remove("b3")
    assert state["pile"] == ["y13", "b3"] and sorted(state["hands"][2]) == sorted(expected_hand)
    assert state["melds"][0] == {} and state["turn"] == 3
    assert (await service.store.log(table_id))[-1].kind == "timeout"
    assert not outcome.table.seats[2].away  # a timeout does not mark the seat away
    assert any("played automatically" in line for line in render.render_events(outcome.table, outcome.events, 0))
    # Dave and Alice play; Carol, back in time, plays her next turn herself.
    await service.act(table_id, DAVE, "draw")
    await service.act(table_id, DAVE, "discard k3")
    await service.act(table_id, ALICE, "draw")
    await service.act(table_id, ALICE, "discard r4")
    await service.act(table_id, BOB, "draw")
    await service.act(table_id, BOB, f"discard {(await service.get(table_id)).state['hands'][1][0]}")
    outcome = await service.act(table_id, CAROL, "draw")
    assert outcome.table.state["turn"] == 2 and outcome.table.state["phase"] == "play"
    assert json.dumps(await service.replay(table_id), sort_keys=True) == json.dumps(
        (await service.get(table_id)).state, sort_keys=True
    )


async def test_players_cannot_type_timeout(service: TableService) -> None:
    table_id = await canasta_table(service)
    with pytest.raises(ServiceError) as err:
        await service.act(table_id, BOB, "timeout")
    assert err.value.code == "E_SERVICE_ONLY"
    assert (await service.get(table_id)).state["turn"] == 1


async def test_an_away_player_keeps_the_seat_and_takes_it_back_by_acting(service: TableService) -> None:
    table_id = await canasta_table(service, turn_timer_s=60)
    await service.set_away(table_id, DAVE, True)
    await service.act(table_id, BOB, "open r1 b1 k1")
    await service.act(table_id, BOB, "discard y13")
    await service.act(table_id, CAROL, "draw")
    outcome = await service.act(table_id, CAROL, "discard b3")
    # Dave's turn was played for him; the game now waits for Alice.
    assert outcome.table.state["turn"] == 0 and outcome.table.seats[3].away
    kinds = [(e.kind, e.seat) for e in await service.store.log(table_id)]
    assert ("ai", 3) in kinds or ("timeout", 3) in kinds  # played for him, not by him
    dave_melded = sum(len(m) for m in outcome.table.state["melds"][1].values()) - 3  # beyond Bob's aces
    assert len(outcome.table.state["hands"][3]) == 14 + 1 - 1 - dave_melded  # one draw, one discard
    with pytest.raises(IllegalAction):  # out of turn, but it still takes his seat back
        await service.act(table_id, DAVE, "draw")
    assert not (await service.get(table_id)).seats[3].away
    await service.act(table_id, ALICE, "draw")
    await service.act(table_id, ALICE, "discard r4")
    await service.act(table_id, BOB, "draw")
    outcome = await service.act(table_id, BOB, f"discard {(await service.get(table_id)).state['hands'][1][0]}")
    await service.act(table_id, CAROL, "draw")
    outcome = await service.act(table_id, CAROL, f"discard {(await service.get(table_id)).state['hands'][2][0]}")
    assert outcome.table.state["turn"] == 3  # now the game waits for Dave


async def test_away_seat_follows_the_can55_policy(service: TableService) -> None:
    table_id = await canasta_table(service, turn_timer_s=60)
    await service.set_away(table_id, DAVE, True)
    await service.act(table_id, BOB, "open r1 b1 k1")
    await service.act(table_id, BOB, "discard y13")
    await service.act(table_id, CAROL, "draw")
    outcome = await service.act(table_id, CAROL, "discard b3")
    state = outcome.table.state
    assert list(state["melds"][1]) == ["1"]  # CAN-55: an auto-played turn never melds
    assert state["pile"][-1] == "k3"  # ... and discards a block three first


# ---- rendering (CAN-33 / D-20 markers, both languages) --------------------------------------------


def test_compact_meld_display_with_markers() -> None:
    from bot.core.render.canasta import format_meld
    from rules.canasta.views import meld_view
    from tests.rules.canasta_scenario import tiles

    five = format_meld(0, meld_view(8, tiles("r8 b8 k8 y8 r2")), "en")
    six = format_meld(0, meld_view(8, tiles("8x5 r2")), "en")
    seven = format_meld(1, meld_view(2, tiles("r2 b2 k2 y2 r2 b2 j")), "en")
    assert five == "  A:8s [r8 b8 k8 y8 r2] · 40"
    assert six == "  A:8s ×6 (wilds: r2) · 45 · ▲ one to go"
    assert seven == "  B:2s ×7 (wilds: j) · 870 · ★ CANASTA mixed twos"
    assert "КАНАСТА" in format_meld(1, meld_view(2, tiles("r2 b2 k2 y2 r2 b2 j")), "ru")


@pytest.mark.parametrize("lang", available_languages())
def test_every_event_renders_without_gaps(lang: str) -> None:
    from random import Random

    from bot.core.render import canasta as canasta_render
    from rules import get_engine

    engine = get_engine("canasta")
    names = ["Alice", "Bob", "Carol", "Dave"]
    state = engine.new_game(4, seed=8, options={"match_length": "1 round", "joker_button": "on"})
    seen: set[str] = set()
    for step in range(2000):
        seat = engine.current_seat(state)
        if seat is None:
            break
        action = engine.timeout_action(state) if step % 9 == 0 else engine.ai_action(state, seat, Random(step))
        state, events = engine.apply(state, seat, action)
        for e in events:
            text = canasta_render.render_event(e, names, e.seat, lang)
            if text is not None:
                seen.add(e.type)
                assert "{" not in text and "canasta." not in text, text
        for viewer in range(4):
            view = engine.view(state, viewer)
            for text in (canasta_render.render_table(view, names, lang, 30), canasta_render.render_hand(view, lang)):
                assert "{" not in text and "canasta." not in text, text
    assert {"TileDrawn", "Discarded", "MeldsLaid", "RoundScored", "MatchEnded", "AutoPlayed"} <= seen
