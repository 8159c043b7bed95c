"""The table service: lobby, acting with versions, deadlines from an injected clock, logs, results."""

from __future__ import annotations

import json

import pytest

from bot.core.clock import FakeClock
from bot.core.models import ServiceError
from bot.core.service import CLAIM_LEASE_S, TableService
from rules import IllegalAction, get_engine
from storage import MemoryStore
from tests.bot.conftest import ALICE, BOB, CAROL

ENGINE = get_engine("rummikub")
# Alice (seat 0) gets r10 r11 r12 to open with; Bob holds junk.
ALICE_RACK = ["r10", "r11", "r12", "k1", "k2", "k4", "b1", "b3", "b5", "b7", "y2", "y4", "y6", "y8"]
BOB_RACK = ["r1", "r3", "r5", "r7", "k6", "k8", "k10", "b9", "b11", "b13", "y9", "y11", "y13", "r2"]


async def two_player_table(service: TableService, **options) -> str:
    rec = await service.open_table(
        "rummikub", "test", "chat1", ALICE, options=options, deck=ALICE_RACK + BOB_RACK
    )
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    return rec.id


async def test_lobby_flow_and_errors(service: TableService) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    assert [s.name for s in rec.seats] == ["Alice"]
    with pytest.raises(ServiceError) as err:
        await service.open_table("rummikub", "test", "chat1", BOB)
    assert err.value.code == "E_TABLE_EXISTS"
    with pytest.raises(ServiceError) as err:
        await service.start(rec.id, ALICE)
    assert err.value.code == "E_TOO_FEW_PLAYERS"
    await service.join(rec.id, BOB)
    with pytest.raises(ServiceError) as err:
        await service.join(rec.id, BOB)
    assert err.value.code == "E_ALREADY_SEATED"
    with pytest.raises(ServiceError) as err:
        await service.add_ai(rec.id, BOB)
    assert err.value.code == "E_NOT_HOST"
    rec = await service.add_ai(rec.id, ALICE)
    rec = await service.add_ai(rec.id, ALICE)
    with pytest.raises(ServiceError) as err:
        await service.join(rec.id, CAROL)
    assert err.value.code == "E_TABLE_FULL"
    rec = await service.remove_ai(rec.id, ALICE)
    assert [s.kind for s in rec.seats] == ["human", "human", "ai"]
    rec = await service.leave(rec.id, ALICE)  # the host leaves: Bob hosts now
    assert (rec.host_user_id, [s.name for s in rec.seats]) == ("2", ["Bob", "AI 1"])
    with pytest.raises(ServiceError) as err:
        await service.leave(rec.id, ALICE)
    assert err.value.code == "E_NOT_SEATED"


async def test_options_are_validated(service: TableService) -> None:
    with pytest.raises(ServiceError) as err:
        await service.open_table("rummikub", "test", "c", ALICE, options={"turn_timer_s": 5})
    assert err.value.code == "E_BAD_OPTION" and "turn_timer_s" in err.value.params["detail"]
    with pytest.raises(ServiceError) as err:
        await service.open_table("rummikub", "test", "c", ALICE, options={"bogus": 1})
    assert "bogus" in err.value.params["detail"]
    with pytest.raises(ServiceError) as err:
        await service.open_table("chess", "test", "c", ALICE)
    assert err.value.code == "E_UNKNOWN_GAME" and "rummikub" in err.value.params["known"]
    rec = await service.open_table("rummikub", "test", "c", ALICE)
    rec = await service.set_option(rec.id, ALICE, "initial_meld_min", "25")
    assert rec.options["initial_meld_min"] == 25
    with pytest.raises(ServiceError) as err:
        await service.set_option(rec.id, ALICE, "jokers", "7")
    assert err.value.code == "E_BAD_OPTION"
    assert (await service.get(rec.id)).options["jokers"] == 2


async def test_act_logs_before_returning_and_rejections_change_nothing(service: TableService) -> None:
    table_id = await two_player_table(service)
    before = await service.get(table_id)
    log_before = await service.store.log(table_id)
    # Wrong player, garbage, the service-only timeout, a stale version: each refused, nothing stored.
    for user, text, version, code in [
        (BOB, "draw", None, "E_NOT_YOUR_TURN"),
        (ALICE, "play r10 r11 zz", None, "E_PARSE"),
        (ALICE, "play r10 r11", None, "E_INVALID_MELD"),
        (ALICE, "timeout", None, "E_SERVICE_ONLY"),
        (ALICE, "draw", before.version - 1, "E_STALE"),
        (CAROL, "draw", None, "E_NOT_SEATED"),
    ]:
        with pytest.raises((IllegalAction, ServiceError)) as err:
            await service.act(table_id, user, text, expected_version=version)
        assert err.value.code == code
    after = await service.get(table_id)
    assert after.version == before.version and after.state == before.state
    assert await service.store.log(table_id) == log_before
    outcome = await service.act(table_id, ALICE, "PLAY [r10 r11 r12]", expected_version=before.version)
    assert outcome.version == before.version + 1
    log = await service.store.log(table_id)
    assert [(e.kind, e.seat, e.text) for e in log][-1] == ("action", 0, "play r10 r11 r12")
    assert outcome.public_view["table"][0]["tiles"] == ["r10", "r11", "r12"]
    assert set(outcome.private_views) == {0, 1}
    assert "rack" not in outcome.public_view


async def test_replaying_the_log_gives_the_stored_state(service: TableService) -> None:
    table_id = await two_player_table(service)
    await service.act(table_id, ALICE, "new r10 r11 r12")
    await service.act(table_id, ALICE, "done")
    await service.act(table_id, BOB, "draw")
    stored = (await service.get(table_id)).state
    assert json.dumps(await service.replay(table_id), sort_keys=True) == json.dumps(stored, sort_keys=True)


async def test_deadline_timeout_and_draft_keeps_the_clock(service: TableService, clock) -> None:
    table_id = await two_player_table(service, turn_timer_s=60)
    rec = await service.get(table_id)
    assert rec.deadline == clock.now() + 60
    clock.advance(30)
    await service.act(table_id, ALICE, "new r10 r11 r12")  # a draft step does not restart the clock
    assert (await service.get(table_id)).deadline == rec.deadline
    assert await service.tick() == []
    clock.advance(31)
    (outcome,) = await service.tick()
    after = outcome.table
    # RK-23: the draft is dropped, the table unchanged, 3 penalty tiles, the turn passes.
    assert len(after.state["racks"][0]) == 17 and after.state["table"] == [] and after.state["turn"] == 1
    assert (await service.store.log(table_id))[-1].kind == "timeout"
    assert after.deadline == clock.now() + 60
    assert json.dumps(await service.replay(table_id), sort_keys=True) == json.dumps(after.state, sort_keys=True)


async def test_no_deadline_when_the_timer_is_off(service: TableService) -> None:
    table_id = await two_player_table(service, turn_timer_s=0)
    assert (await service.get(table_id)).deadline is None


async def test_end_table_and_lobby_expiry(service: TableService, clock) -> None:
    table_id = await two_player_table(service)
    with pytest.raises(ServiceError) as err:
        await service.end_table(table_id, BOB)
    assert err.value.code == "E_NOT_HOST"
    rec = await service.end_table(table_id, BOB, is_admin=True)
    assert rec.status == "abandoned"
    (stored,) = await service.store.results("test", "chat1")
    assert stored.status == "abandoned"
    lobby = await service.open_table("rummikub", "test", "chat1", ALICE)
    clock.advance(service.lobby.lobby_ttl_s + 1)
    (expired,) = await service.tick()
    assert expired.table.id == lobby.id and expired.table.status == "abandoned"
    assert await service.store.active_table_for_chat("test", "chat1") is None


async def test_match_end_records_the_result_once(service: TableService) -> None:
    # Bob goes out at once: his whole rack is a valid opening (RK-70).
    alice = ["k1", "k2", "k4", "b1", "b3", "b5", "b7", "y2", "y4", "y6", "y8", "r1", "r3", "r5"]
    bob = ["r10", "r11", "r12", "r13", "k10", "k11", "k12", "k13", "b10", "b11", "b12", "y10", "y11", "y12"]
    rec = await service.open_table("rummikub", "test", "c9", ALICE, deck=alice + bob, options={"first_player": 2})
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    outcome = await service.act(rec.id, BOB, "play r10 r11 r12 r13 | k10 k11 k12 k13 | b10 b11 b12 | y10 y11 y12")
    assert outcome.match_over and outcome.results[-1].match_winners == [1]
    assert outcome.table.deadline is None
    (stored,) = await service.store.results("test", "c9")
    assert stored.status == "finished" and stored.result["match_winners"] == [1]
    with pytest.raises(ServiceError) as err:
        await service.act(rec.id, ALICE, "draw")
    assert err.value.code == "E_NOT_PLAYING"


class CrashingStore:
    """Wraps a store; the commit number `crash_at` raises as if the process died right there (and
    with `dies`, so does releasing a claim after it: a dead process releases nothing)."""

    def __init__(self, inner, crash_at: int, dies: bool = False) -> None:
        self.inner, self.crash_at, self.commits, self.dies = inner, crash_at, 0, dies

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def commit(self, rec, expected_version, entries=(), **kwargs):
        self.commits += 1
        if self.commits == self.crash_at:
            raise RuntimeError("killed")
        return await self.inner.commit(rec, expected_version, entries, **kwargs)

    async def release_claim(self, table_id, owner):
        if self.dies and self.commits >= self.crash_at:
            raise RuntimeError("killed")
        await self.inner.release_claim(table_id, owner)


async def _alice_against_an_ai(store, clock) -> tuple[CrashingStore, TableService, str]:
    crashing = CrashingStore(store, crash_at=0)
    service = TableService(crashing, clock, new_table_id=lambda: "t1", new_seed=lambda: 5)
    rec = await service.open_table("rummikub", "test", "chat", ALICE, deck=ALICE_RACK + BOB_RACK)
    await service.add_ai(rec.id, ALICE)
    await service.start(rec.id, ALICE)
    return crashing, service, rec.id


async def test_a_crash_storing_a_move_stores_nothing_and_its_redelivery_gets_the_same_answer(store, clock) -> None:
    reference = MemoryStore()
    _, ref_service, table = await _alice_against_an_ai(reference, FakeClock())
    await ref_service.act(table, ALICE, "draw")
    expected = [(e.kind, e.seat, e.text) for e in await reference.log(table)]
    assert [k for k, _, _ in expected[-2:]] == ["action", "ai"]  # Alice's draw, the AI's answer

    crashing, service, table = await _alice_against_an_ai(store, clock)
    before = await service.get(table)
    crashing.crash_at = crashing.commits + 1  # the process dies storing the draw
    with pytest.raises(RuntimeError):
        await service.act(table, ALICE, "draw")
    assert (await service.get(table)).model_dump() == before.model_dump()  # nothing was stored
    # The platform delivers the unanswered draw again: the AI gives the very same answer.
    outcome = await TableService(store, clock).act(table, ALICE, "draw")
    assert [(e.kind, e.seat, e.text) for e in await store.log(table)] == expected
    assert outcome.version == before.version + 2 and outcome.table.state["turn"] == 0  # the move, then the answer
    assert outcome.table.state == await service.replay(table)


async def test_a_move_is_acknowledged_once_stored_with_a_claim_covering_the_ai_answer(store, clock) -> None:
    _, service, table = await _alice_against_an_ai(store, clock)
    before = await service.get(table)
    ack = await service.submit(table, ALICE, "draw")
    assert ack.pending is not None and not ack.pending.done()  # the AI has not answered yet
    stored = await store.get_table(table)
    assert ack.table.version == stored.version == before.version + 1 and stored.state["turn"] == 1
    assert [e.kind for e in await store.log(table)][-1] == "action"  # Alice's draw is durable
    assert not await store.claim_table(table, "another process", clock.now(), 30.0)  # the AI turn is ours
    settled = await ack.settled()
    assert settled.table.state["turn"] == 0 and settled.public_view is not None
    assert [e.kind for e in await store.log(table)][-1] == "ai"
    n = len(ack.events)
    assert settled.events[:n] == ack.events and len(settled.events) > n  # the AI's events follow Alice's
    assert await store.claim_table(table, "another process", clock.now(), 30.0)  # released with the answer


async def test_a_move_nobody_automatic_answers_is_acknowledged_then_settled_with_its_views(service) -> None:
    table = await two_player_table(service)
    ack = await service.submit(table, ALICE, "draw")
    assert ack.public_view is None and ack.table.state["turn"] == 1  # stored: Bob on turn
    settled = await ack.settled()
    assert settled.table.version == ack.table.version and settled.events == ack.events
    assert settled.public_view is not None and set(settled.private_views) == {0, 1}
    assert (await service.act(table, BOB, "draw")).table.version == ack.table.version + 1  # one commit a move


async def test_a_crash_storing_the_ai_answer_leaves_the_claim_and_another_process_answers_the_same(
    store, clock
) -> None:
    reference = MemoryStore()
    _, ref_service, table = await _alice_against_an_ai(reference, FakeClock())
    await ref_service.act(table, ALICE, "draw")
    expected = [(e.kind, e.seat, e.text) for e in await reference.log(table)]

    crashing, service, table = await _alice_against_an_ai(store, clock)
    crashing.crash_at, crashing.dies = crashing.commits + 2, True  # the draw stored, the process dies storing the answer
    ack = await service.submit(table, ALICE, "draw")  # acknowledged: the draw is durable
    with pytest.raises(RuntimeError):
        await ack.settled()
    other = TableService(store, clock, owner="B")
    assert (await other.resume(table)).table.log_seq == len(expected) - 1  # the claim's lease runs: B waits
    clock.advance(CLAIM_LEASE_S)
    await other.tick()  # the lease ran out: B plays the answer
    assert [(e.kind, e.seat, e.text) for e in await store.log(table)] == expected
    rec = await other.get(table)
    assert rec.state["turn"] == 0 and rec.state == await other.replay(table)


async def test_a_crash_between_moves_loses_nothing_and_resume_plays_on(store, clock) -> None:
    crashing = CrashingStore(store, crash_at=0)
    service = TableService(crashing, clock, new_table_id=lambda: "t1", new_seed=lambda: 5)
    table = await two_player_table(service)
    # Alice goes away (stored); the process dies while storing her stand-in's move.
    crashing.crash_at = crashing.commits + 2
    with pytest.raises(RuntimeError):
        await service.set_away(table, ALICE, True)
    stuck = await service.get(table)
    assert stuck.seats[0].away and stuck.state["turn"] == 0
    restarted = TableService(store, clock)
    outcome = await restarted.resume(table)
    assert outcome.table.state["turn"] == 1 and outcome.table.log_seq == stuck.log_seq + 1
    assert outcome.table.state == await restarted.replay(table)


async def test_away_player_is_played_by_the_ai_until_they_act(service: TableService, clock) -> None:
    table_id = await two_player_table(service, turn_timer_s=60)
    await service.set_away(table_id, BOB, True)
    await service.act(table_id, ALICE, "draw")
    rec = await service.get(table_id)
    assert rec.state["turn"] == 0 and [e.kind for e in await service.store.log(table_id)][-1] == "ai"
    await service.set_away(table_id, BOB, False)  # /back
    await service.set_away(table_id, ALICE, True)  # Alice is on turn: the AI moves for her at once
    rec = await service.get(table_id)
    assert rec.state["turn"] == 1 and rec.seats[0].away and not rec.seats[1].away
    await service.act(table_id, BOB, "draw")
    rec = await service.get(table_id)
    assert rec.state["turn"] == 1  # the AI answered for Alice again
    with pytest.raises(IllegalAction):  # out of turn, but it still takes her seat back
        await service.act(table_id, ALICE, "draw")
    assert not (await service.get(table_id)).seats[0].away
    await service.act(table_id, BOB, "draw")
    assert (await service.get(table_id)).state["turn"] == 0  # now the game waits for Alice


async def test_host_swaps_seats_in_the_lobby(service: TableService) -> None:
    rec = await service.open_table("rummikub", "test", "chat", ALICE)
    await service.join(rec.id, BOB)
    rec = await service.add_ai(rec.id, ALICE)
    rec = await service.swap_seats(rec.id, ALICE, 0, 2)
    assert [s.name for s in rec.seats] == ["AI 1", "Bob", "Alice"]
    for by, a, b, code in [(BOB, 0, 1, "E_NOT_HOST"), (ALICE, 0, 3, "E_BAD_SEAT"), (ALICE, 1, 1, "E_BAD_SEAT")]:
        with pytest.raises(ServiceError) as err:
            await service.swap_seats(rec.id, by, a, b)
        assert err.value.code == code
