"""The table service's collaborators work from what their constructors are given, without a
TableService around them (bot/core/ledger.py, lobby.py): the wiring is the service's only job."""

from __future__ import annotations

import pytest

from bot.core.clock import FakeClock
from bot.core.ledger import RETRIES, Ledger
from bot.core.lobby import Lobby, seat_of
from bot.core.models import ServiceError
from bot.core.stats import Standings
from bot.core.table_gate import TableGates
from rules import get_engine
from storage import SeatRecord, Store, TableRecord
from tests.bot.conftest import ALICE, BOB, CAROL


def parts(store: Store, clock: FakeClock) -> tuple[Ledger, Lobby, list[TableRecord]]:
    told: list[TableRecord] = []
    ledger = Ledger(store, clock, gates=TableGates(), engine_for=lambda rec: get_engine(rec.game),
                    standings=Standings(store, clock), listeners=[told.append])
    lobby = Lobby(store, clock, ledger=ledger, lobby_ttl_s=60.0, new_table_id=lambda: "t1", new_seed=lambda: 7)
    return ledger, lobby, told


async def test_a_lobby_on_its_own_ledger_seats_players_and_tells_its_listeners(store: Store,
                                                                              clock: FakeClock) -> None:
    _, lobby, told = parts(store, clock)
    rec = await lobby.open_table("rummikub", "test", "chat", ALICE)
    assert (rec.id, rec.seed, rec.expires) == ("t1", 7, clock.now() + 60.0)
    rec = await lobby.join("t1", BOB)
    assert [seat_of(rec, p) for p in (ALICE, BOB)] == [0, 1]
    assert [r.version for r in told] == [rec.version]  # the join was told; opening is no commit


async def test_the_ledger_judges_a_change_again_on_what_another_writer_stored(store: Store,
                                                                             clock: FakeClock) -> None:
    """A change that lost the race (another process committed first) runs again on the fresh table,
    so both changes stand; a table that never stops moving gets the E_CONFLICT sentence."""
    ledger, lobby, told = parts(store, clock)
    await lobby.open_table("rummikub", "test", "chat", ALICE)
    attempts: list[int] = []

    async def seat_carol_racing_bob(rec: TableRecord) -> None:
        attempts.append(rec.version)
        if len(attempts) == 1:  # another writer seats Bob between our read and our commit
            other = rec.model_copy(deep=True)
            other.seats.append(SeatRecord(kind="human", platform=BOB.platform, user_id=BOB.user_id, name=BOB.name))
            await store.commit(other, expected_version=other.version)
        rec.seats.append(SeatRecord(kind="human", platform=CAROL.platform, user_id=CAROL.user_id, name=CAROL.name))

    rec = await ledger.change("t1", seat_carol_racing_bob, key=None)
    assert [s.name for s in rec.seats] == ["Alice", "Bob", "Carol"]
    assert attempts == [attempts[0], attempts[0] + 1] and len(told) == 1

    async def always_beaten(rec: TableRecord) -> None:
        await store.commit(rec.model_copy(deep=True), expected_version=rec.version)

    with pytest.raises(ServiceError) as err:
        await ledger.change("t1", always_beaten, key=None)
    assert err.value.code == "E_CONFLICT"
    assert (await ledger.get("t1")).version == rec.version + RETRIES  # each try lost to another write
