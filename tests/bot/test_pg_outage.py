"""A real PostgreSQL server killed and started again under a running service (ISSUE 24, item 4): a
move made while it is down is refused with StoreUnavailable (nothing applied), the same service
takes moves again once it is back — no restart of the bot — and no table is left with its AI on
turn. The server is this test's own (the suite's shared one must not die)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core.clock import FakeClock
from bot.core.liveness import process_owner
from bot.core.models import StoreUnavailable
from bot.core.service import TableService
from storage import PostgresStore
from tests.bot.conftest import ALICE
from tests.bot.test_exactly_once import ai_table
from tests.storage.pg_fixtures import no_server
from tests.storage.pg_server import PostgresServer, find_bindir


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        no_server()
    server = PostgresServer.start(bindir, {"synchronous_commit": "on"})  # a kill keeps what was acknowledged
    try:
        server.psql("CREATE DATABASE rummy")
        yield server
    finally:
        server.stop()


async def test_moves_are_refused_while_the_server_is_down_and_taken_again_once_it_is_back(
    own_server: PostgresServer,
) -> None:
    clock = FakeClock()
    store = PostgresStore(own_server.url("rummy"))
    await store.open()
    try:
        service = TableService(store, clock, owner=process_owner())
        table = await ai_table(service, turn_timer_s=0)
        await service.act(table, ALICE, "draw")
        before = await store.get_table(table)
        assert before is not None

        own_server.kill()
        with pytest.raises(StoreUnavailable):
            await service.act(table, ALICE, "draw")
        with pytest.raises(StoreUnavailable):
            await service.tick()  # the clock goes on failing, and is not stopped by it

        own_server.restart()
        after_outage = await store.get_table(table)
        assert after_outage is not None and after_outage.version == before.version  # nothing applied
        outcome = await service.act(table, ALICE, "draw")  # the same service, its pool reconnected
        assert outcome.table.state is not None and outcome.table.state["turn"] == 0  # the AI answered
        assert [e.kind for e in await store.log(table)].count("action") == 2
        assert await service.tick() == []  # nothing was left due
    finally:
        await store.close()
