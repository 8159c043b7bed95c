"""The operator's endpoints on the web server (issue 27, item 8): /healthz, /readyz (503 while the
database does not answer, and once the server is stopping), /metrics in Prometheus's format with the
updates, moves, commits, outbox queues, 429s, AI latency and open tables."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from bot.web.ops import STOPPING, add_ready_check
from storage import SqliteStore
from tests.failing_store import FailingStore
from tests.web.conftest import Web
from tests.web.tables import BOT_TOKEN, SECRET, two_player_table


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, by name and labels (parsed by prometheus-client's own parser)."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def test_healthz_and_readyz_answer(web: Web) -> None:
    health = await web.client.get("/healthz")
    assert (health.status, await health.json()) == (200, {"status": "ok"})
    ready = await web.client.get("/readyz")
    assert (ready.status, await ready.json()) == (200, {"status": "ready"})


async def test_readyz_waits_for_every_platform_of_the_process(web: Web) -> None:
    assert web.client.app is not None
    connected = False
    add_ready_check(web.client.app, "DiscordBot", lambda: connected)
    waiting = await web.client.get("/readyz")
    assert waiting.status == 503 and (await waiting.json())["status"] == "DiscordBot not ready"
    connected = True
    assert (await web.client.get("/readyz")).status == 200


async def test_readyz_is_503_once_the_server_is_stopping(web: Web) -> None:
    assert web.client.app is not None
    web.client.app[STOPPING].set()  # what the server's shutdown does first
    ready = await web.client.get("/readyz")
    assert ready.status == 503 and (await ready.json())["status"] == "stopping"
    assert (await web.client.get("/healthz")).status == 200


@pytest.fixture
async def faulty(tmp_path: Path) -> AsyncIterator[tuple[TestClient, FailingStore]]:
    inner = SqliteStore(str(tmp_path / "web.db"))
    await inner.open()
    store = FailingStore(inner)
    service = TableService(store, FakeClock())  # type: ignore[arg-type]
    app = create_app(service, store, WebConfig(SeatLinks(SECRET), BOT_TOKEN, init_max_age_s=3600.0))  # type: ignore[arg-type]
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, store
    await client.close()
    await inner.close()


async def test_readyz_is_503_while_the_database_does_not_answer(faulty: tuple[TestClient, FailingStore]) -> None:
    client, store = faulty
    store.fail("get_table")
    down = await client.get("/readyz")
    assert down.status == 503 and (await down.json())["status"] == "database unavailable"
    assert (await client.get("/readyz")).status == 200  # back


async def test_metrics_count_what_the_process_did(web: Web) -> None:
    before = samples(await (await web.client.get("/metrics")).text())
    rec = await two_player_table(web.service)  # a lobby opened, then two commits of a telegram table: a join, the start
    page = await web.client.get("/metrics")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/plain")
    after = samples(await page.text())
    moves = ("rummy_moves_total", (("platform", "telegram"),))
    assert after[moves] - before.get(moves, 0.0) == 2
    assert after[("rummy_open_tables", (("status", "playing"),))] == 1
    assert after[("rummy_open_tables", (("status", "lobby"),))] == 0
    assert after[("rummy_store_commits", ())] >= 1 and after[("rummy_store_writes", ())] >= 3
    for name in ("rummy_updates_total", "rummy_rate_limited_total"):
        assert (name, (("platform", "discord"),)) in after and (name, (("platform", "telegram"),)) in after
    assert ("rummy_ai_seconds_count", ()) in after
    assert rec.id not in await page.text()  # counts only: no table or player data
