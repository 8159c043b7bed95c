"""What only the PostgreSQL backend promises: its migrations (once, under a lock, all or nothing), the
refusal of another program's tables, errors that name the cause and never the password, and sharing
one database between processes. The contract itself runs in the three *_contract.py files."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

import storage.postgres_schema as pg_backend
from storage import PostgresStore, PostgresUnusable, TableExists, VersionConflict, display_url, open_store
from tests.storage.pg_fixtures import no_server
from tests.storage.pg_server import PASSWORD_ROLE, PostgresServer
from tests.storage.records import make_entries, make_table

MIGRATIONS = [(1, "001_init.sql"), (2, "002_adapters.sql"), (3, "003_stats.sql"), (4, "004_action_keys.sql"),
              (5, "005_claims.sql"), (6, "006_change_feed.sql"), (7, "007_wake.sql"),
              (8, "008_claim_scope.sql"), (9, "009_notify_per_batch.sql")]


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[PostgresStore]:
    s = PostgresStore(postgres_url)
    await s.open()
    yield s
    await s.close()


async def query(url: str, sql: str) -> list[tuple[object, ...]]:
    """A plain second connection, as another process (or psql) sees the database."""
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def tables(url: str) -> set[str]:
    return {str(r[0]) for r in await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}


def test_open_store_selects_postgres() -> None:
    for url in ("postgresql://rummy@db.example/rummy", "postgres://rummy:pw@db.example:6543/rummy"):
        assert isinstance(open_store(url), PostgresStore)


def test_the_password_is_never_shown() -> None:
    url = "postgresql://rummy:Pg-Secret-123@db.example:6543/rummy"
    assert display_url(url) == "postgresql://rummy@db.example:6543/rummy"
    assert "Pg-Secret-123" not in repr(PostgresStore(url))
    err = PostgresUnusable(url, "auth", "password authentication failed")
    assert "Pg-Secret-123" not in str(err) and (err.where, err.user, err.database) == ("db.example:6543", "rummy",
                                                                                       "rummy")


async def test_migrations_recorded_and_idempotent(store: PostgresStore, postgres_url: str) -> None:
    recorded = await query(postgres_url, "SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
    assert [(v, n) for v, n, _ in recorded] == MIGRATIONS
    assert await store.schema_version() == MIGRATIONS[-1]
    await store.close()
    await store.open()
    await store.close()
    reopened = PostgresStore(postgres_url)
    await reopened.open()
    await reopened.close()
    assert await query(postgres_url, "SELECT version, name, applied_at FROM schema_migrations ORDER BY version") == (
        recorded)


async def test_two_processes_starting_together_migrate_once(postgres_url: str) -> None:
    # Each store has its own pool, so these are separate server sessions racing for the advisory lock.
    stores = [PostgresStore(postgres_url) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [(v, n) for v, n, _ in await query(postgres_url, "SELECT * FROM schema_migrations ORDER BY version")] == (
            MIGRATIONS)
    finally:
        await asyncio.gather(*(s.close() for s in stores))


def _migrations_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "migrations_pg"
    shutil.copytree(pg_backend.MIGRATIONS_DIR, folder)
    monkeypatch.setattr(pg_backend, "MIGRATIONS_DIR", folder)
    return folder


async def test_pending_migration_applies_on_reopen(store: PostgresStore, postgres_url: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    await store.create_table(make_table())
    await store.close()
    folder = _migrations_copy(tmp_path, monkeypatch)
    (folder / "099_nicknames.sql").write_text("CREATE TABLE nicknames (user_id TEXT PRIMARY KEY);\n"
                                              "INSERT INTO nicknames VALUES ('u1');\n")
    await store.open()
    assert await store.schema_version() == (99, "099_nicknames.sql")
    assert await query(postgres_url, "SELECT user_id FROM nicknames") == [("u1",)]
    assert await store.get_table("t1") == make_table()


async def test_failing_migration_leaves_nothing_behind(postgres_url: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _migrations_copy(tmp_path, monkeypatch)
    (folder / "099_broken.sql").write_text("CREATE TABLE half (x INTEGER);\nSELECT no_such_function();\n")
    with pytest.raises(asyncpg.UndefinedFunctionError):
        await PostgresStore(postgres_url).open()
    assert await tables(postgres_url) == set()  # not even 001..005: one transaction


async def test_another_programs_tables_are_refused_untouched(postgres_url: str) -> None:
    await query(postgres_url, "CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(postgres_url).open()
    assert (err.value.reason, err.value.detail) == ("foreign", "customers")
    assert await tables(postgres_url) == {"customers"}


async def test_another_tools_schema_migrations_is_refused(postgres_url: str) -> None:
    await query(postgres_url, "CREATE TABLE schema_migrations (id BIGINT PRIMARY KEY, dirty BOOLEAN)")
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(postgres_url).open()
    assert (err.value.reason, err.value.detail) == ("foreign", "schema_migrations")


async def test_a_newer_rummyclub_is_refused_untouched(store: PostgresStore, postgres_url: str) -> None:
    await store.close()
    await query(postgres_url, "INSERT INTO schema_migrations VALUES (999, '999_future.sql', 0)")
    with pytest.raises(PostgresUnusable) as err:
        await store.open()
    assert (err.value.reason, err.value.detail) == ("newer", "migration 999_future.sql")


async def test_two_stores_share_one_database(store: PostgresStore, postgres_url: str) -> None:
    other = PostgresStore(postgres_url)
    await other.open()
    try:
        await store.create_table(make_table(status="playing"))
        seen = await other.get_table("t1")
        assert seen is not None
        await other.commit(seen, 0, make_entries("t1", 1, 1))
        with pytest.raises(VersionConflict):
            await store.commit(make_table(status="playing"), 0, make_entries("t1", 1, 1))
        with pytest.raises(TableExists):  # the unique index holds across processes too
            await other.create_table(make_table("t2", status="lobby"))
        assert [e.seq for e in await store.log("t1")] == [1]
    finally:
        await other.close()


async def test_commits_racing_from_two_processes_one_wins(store: PostgresStore, postgres_url: str) -> None:
    other = PostgresStore(postgres_url)
    await other.open()
    try:
        await store.create_table(make_table())
        attempts = [s.commit(make_table(state={"by": i}), 0, make_entries("t1", 1, 1))
                    for i, s in enumerate([store, other] * 4)]
        outcomes = await asyncio.gather(*attempts, return_exceptions=True)
        assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
        assert all(isinstance(o, VersionConflict) for o in outcomes if isinstance(o, BaseException))
        assert len(await other.log("t1")) == 1
    finally:
        await other.close()


async def test_floats_and_seeds_are_stored_as_numbers(store: PostgresStore, postgres_url: str) -> None:
    await store.create_table(make_table(seed=-(2**63), deadline=1234.5678901234))
    assert await query(postgres_url, "SELECT seed, deadline FROM game_tables") == [(-(2**63), 1234.5678901234)]


# ---- what cannot be used: one reason each, never the password --------------------------------------------


async def test_an_unreachable_server(postgres_server: PostgresServer) -> None:
    closed = PostgresServer(postgres_server.bindir, postgres_server.root, 1, postgres_server.process)
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(closed.url("rummy", password="Pg-Secret-123")).open()
    assert (err.value.reason, err.value.where) == ("unreachable", "127.0.0.1:1")
    assert "Pg-Secret-123" not in str(err.value) + err.value.detail


async def test_a_wrong_password(postgres_server: PostgresServer) -> None:
    postgres_server.psql(f"DROP ROLE IF EXISTS {PASSWORD_ROLE}; CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD 'Right-1'")
    url = postgres_server.url("rummy", user=PASSWORD_ROLE, password="Wrong-Pass-123")
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(url).open()
    assert (err.value.reason, err.value.user) == ("auth", PASSWORD_ROLE)
    assert "password authentication failed" in err.value.detail
    assert "Wrong-Pass-123" not in str(err.value) + err.value.detail


async def test_an_unknown_user(postgres_server: PostgresServer) -> None:
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(postgres_server.url("rummy", user="nobody_here")).open()
    assert err.value.reason == "auth"


async def test_a_missing_database(postgres_server: PostgresServer) -> None:
    with pytest.raises(PostgresUnusable) as err:
        await PostgresStore(postgres_server.url("no_such_db")).open()
    assert (err.value.reason, err.value.database) == ("no_database", "no_such_db")


async def test_a_database_of_its_own(postgres_database: str) -> None:
    # The contract runs in schemas of one database; a whole database of its own migrates the same way.
    s = PostgresStore(postgres_database)
    await s.open()
    try:
        assert await s.schema_version() == MIGRATIONS[-1]
        assert "game_tables" in await tables(postgres_database)
    finally:
        await s.close()


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_no_server_fails_in_ci_and_skips_elsewhere(ci: str, outcome: type[BaseException],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome):
        no_server()


async def test_an_owner_shows_alive_while_its_store_is_open_and_gone_once_closed(
    store: PostgresStore, postgres_url: str
) -> None:
    """Store.gone on PostgreSQL (ISSUE 24, item 3): a liveness session per store, holding every
    owner shown through it; the check leaves no lock of its own behind."""
    other = PostgresStore(postgres_url)
    await other.open()
    try:
        await store.hold_liveness("A")
        await store.hold_liveness("B")  # a second service on the same store
        await store.hold_liveness("A")  # held already: nothing more
        assert await other.gone(["A", "B", "C"]) == ["C"]
        assert await other.gone(["C", "B", "A"]) == ["C"]  # the first check took no lock for good
        assert await other.gone([]) == []
        await store.close()
        assert await other.gone(["A", "B"]) == ["A", "B"]
    finally:
        await other.close()


async def test_an_owner_whose_lock_was_being_checked_takes_it_at_its_next_call(
    store: PostgresStore, postgres_url: str
) -> None:
    from storage.postgres_liveness import owner_key

    db = await asyncpg.connect(postgres_url)
    other = PostgresStore(postgres_url)
    await other.open()
    try:
        await db.execute("SELECT pg_advisory_lock($1)", owner_key("A"))  # a check of A, at that moment
        await store.hold_liveness("A")  # could not take it
        await db.execute("SELECT pg_advisory_unlock($1)", owner_key("A"))
        assert await other.gone(["A"]) == ["A"]
        await store.hold_liveness("A")  # tried again
        assert await other.gone(["A"]) == []
    finally:
        await db.close()
        await other.close()


async def test_many_services_showing_themselves_alive_at_once_share_the_session(
    store: PostgresStore, postgres_url: str
) -> None:
    """Tables started together each show their service alive before claiming (found by bench_scale:
    concurrent calls used to run two statements on the one liveness connection at once)."""
    owners = [f"o{i}" for i in range(20)]
    await asyncio.gather(*(store.hold_liveness(o) for o in owners * 3))
    other = PostgresStore(postgres_url)
    await other.open()
    try:
        assert await other.gone([*owners, "nobody"]) == ["nobody"]
    finally:
        await other.close()
