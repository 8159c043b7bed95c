"""Every request field checked at the edge: a huge pick, a deeply nested or malformed body, a wrong
type or an unknown field is refused with a 4xx naming the field, before any work and without a
traceback; the table is unchanged. Move posts per seat are rate-limited (429, Retry-After), event
streams capped per link, per address and in all, and every open page of a table shares one `table`
event per version and seat. Security headers on pages and the API."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging

import pytest

from bot.core.codec import mask_of
from bot.web.app import CONFIG, FRAMES, MOVE_RATE, STREAMS
from bot.web.limits import OPENINGS_AT_ONCE, WebLimits
from bot.web.push import WAKE_BATCH, Hub
from tests.web.conftest import Web
from tests.web.tables import ALICE, RK_DECK, init_data, two_player_table
from tests.web.test_api import _next_event


async def _post(web: Web, table: str, seat: int, body: bytes | dict, path: str = "move"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return await web.client.post(f"/api/table/{table}/{path}", params={"k": web.link(table, seat)}, data=data,
                                 headers={"Content-Type": "application/json"})


def _limits(web: Web, **changes: object) -> None:
    """The app's limits for this test (the config is frozen; the app holds the objects that read it)."""
    app = web.client.server.app
    limits = dataclasses.replace(app[CONFIG].limits, **changes)
    for holder in (app[STREAMS], app[MOVE_RATE]):
        holder.limits = limits


async def test_a_huge_pick_is_refused_and_nothing_changes(web: Web, caplog) -> None:
    rec = await two_player_table(web.service, "rummy500", deck=["2S"])
    for picks in ([4 * 10**8], [0] * 1000, [-1], [True], ["1"]):
        resp = await _post(web, rec.id, 0, {"version": rec.version, "key": "a1",
                                            "press": {"index": 0, "option": None, "picks": picks}})
        assert resp.status == 400 and (await resp.text()).startswith("press.picks"), picks
    got = await web.client.get(f"/api/table/{rec.id}", params={"k": web.link(rec.id, 0), "picks": "400000000"})
    assert got.status == 400 and "picks" in await got.text()
    assert (await web.service.get(rec.id)).version == rec.version
    with pytest.raises(ValueError):
        mask_of([4 * 10**8])  # the codec itself refuses a position no button mask can carry
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_malformed_bodies_get_400_with_the_field_named_and_no_traceback(web: Web, caplog) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    nested = b'{"version": 1, "key": "a", "play": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    cases = {
        nested[:60_000]: "",  # cut short as well as deep
        b"[" * 30_000: "",
        b"{not json": "",
        b'"a string"': "",
        json.dumps({"version": "1", "key": "a", "press": {"index": 0}}).encode(): "version",
        json.dumps({"version": 1, "key": "a b", "press": {"index": 0}}).encode(): "key",
        json.dumps({"version": 1, "key": "a", "press": {"index": 0}, "extra": 1}).encode(): "extra",
        json.dumps({"version": 1, "key": "a"}).encode(): "exactly one",
        json.dumps({"version": 1, "key": "a", "play": [["r1"] * 14]}).encode(): "play.0",
        json.dumps({"version": 1, "key": "a", "play": [["r100"]]}).encode(): "play.0.0",
    }
    for body, named in cases.items():
        resp = await _post(web, rec.id, 0, body)
        assert resp.status == 400, body[:40]
        assert named in await resp.text()
    check = await _post(web, rec.id, 0, b'{"layout": ' + b"[" * 5000 + b"]" * 5000 + b"}", "check")
    assert check.status == 400
    huge = await _post(web, rec.id, 0, b'{"layout": [], "pad": "' + b"x" * 100_000 + b'"}', "check")
    assert huge.status == 413
    assert (await web.service.get(rec.id)).version == rec.version
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_queries_are_bounded(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    k = web.link(rec.id, 0)
    for params in ({"k": "x" * 500}, {"k": k, "step": "9" * 5000}, {"k": k, "lang": "e" * 50}):
        assert (await web.client.get(f"/api/table/{rec.id}", params=params)).status == 400, params
    long_header = await web.client.get(f"/api/table/{rec.id}", headers={"X-Rummy-Link": "x" * 500})
    assert long_header.status == 400 and "X-Rummy-Link" in await long_header.text()
    assert (await web.client.get(f"/api/table/{rec.id}", params={"k": k, "v": "cache-buster"})).status == 200


async def test_move_posts_of_one_seat_are_rate_limited(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    _limits(web, moves_per_s=1.0, move_burst=3)
    body = {"version": 0, "key": "stale", "play": [["r10", "r11", "r12"]]}  # stale: refused, but counted
    for _ in range(3):
        assert (await _post(web, rec.id, 0, body)).status == 409
    flooded = await _post(web, rec.id, 0, body)
    assert flooded.status == 429 and flooded.headers["Retry-After"] == "1"
    assert (await flooded.json())["error"]
    assert (await _post(web, rec.id, 1, body)).status != 429, "another seat has its own allowance"
    web.clock.advance(1.0)
    assert (await _post(web, rec.id, 0, body)).status == 409, "a second later one post more is let through"
    assert (await _post(web, rec.id, 0, body)).status == 429
    mini_app = await web.client.post(f"/api/table/{rec.id}/move", json=body,
                                     headers={"X-Telegram-Init-Data": init_data(ALICE, web.clock.now())})
    assert mini_app.status == 429, "the same seat signed in through the Mini App shares the allowance"


async def _stream(web: Web, table: str, seat: int | None, link: str | None = None):
    return await web.client.get(f"/api/table/{table}/events", params={"k": link or web.link(table, seat)})


async def test_event_streams_are_capped_per_link_per_address_and_in_all(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    _limits(web, max_streams_per_link=2, max_streams_per_address=3, max_streams=4)
    link = web.link(rec.id, 0)
    open_ = [await _stream(web, rec.id, 0, link) for _ in range(2)]
    assert all(r.status == 200 for r in open_)
    third = await _stream(web, rec.id, 0, link)
    assert third.status == 429 and "link" in await third.text()
    open_.append(await _stream(web, rec.id, None))
    by_address = await _stream(web, rec.id, 1)
    assert by_address.status == 429 and "address" in await by_address.text()
    _limits(web, max_streams_per_link=2, max_streams_per_address=0, max_streams=3)
    full = await _stream(web, rec.id, 1)
    assert full.status == 503 and full.headers["Retry-After"]
    for resp in open_:
        resp.close()
    for _ in range(50):  # the server sees the pages close
        if not web.client.server.app[STREAMS].total:
            break
        await asyncio.sleep(0.01)
    assert web.client.server.app[STREAMS].total == 0
    assert (await _stream(web, rec.id, 1)).status == 200, "closed pages free their places"


async def test_all_pages_of_a_table_share_one_event_per_version_and_seat(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    _limits(web, max_streams_per_link=0, max_streams_per_address=0, max_streams=100)
    frames = web.client.server.app[FRAMES]
    pages = [await _stream(web, rec.id, None) for _ in range(30)] + [await _stream(web, rec.id, 1) for _ in range(5)]
    for resp in pages:
        assert (await _next_event(resp))["version"] == rec.version
    before = frames.builds
    await web.service.act(rec.id, ALICE, "play r10 r11 r12 | k9 b9 y9", expected_version=rec.version)
    got = [await _next_event(resp) for resp in pages]
    assert {g["version"] for g in got} == {rec.version + 1}
    assert frames.builds - before == 2, "one event for the public view, one for seat 1, whatever the pages"
    assert all(g["hand"] is None for g in got[:30]) and all(g["seat"] == 1 for g in got[30:])
    for resp in pages:
        resp.close()


async def test_a_crowd_of_pages_opens_a_few_at_a_time_and_refusals_free_their_turn(web: Web, monkeypatch) -> None:
    """Sixty pages and twenty forged links arriving together: never more than OPENINGS_AT_ONCE of them
    signing in at once (without the gate all would be, each waiting on the table's shared read),
    and every page gets its first event, the refused ones included in the count of turns."""
    import bot.web.app as web_app

    rec = await two_player_table(web.service, deck=RK_DECK)
    _limits(web, max_streams_per_link=0, max_streams_per_address=0, max_streams=100)
    real, inside, most = web_app.viewer, 0, 0

    async def counted(*args: object, **kwargs: object) -> object:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        try:
            return await real(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            inside -= 1

    monkeypatch.setattr(web_app, "viewer", counted)
    forged = [_stream(web, rec.id, None, "forged") for _ in range(20)]
    pages = await asyncio.gather(*forged, *(_stream(web, rec.id, None) for _ in range(60)))
    assert [r.status for r in pages[:20]] == [401] * 20
    assert all(r.status == 200 for r in pages[20:])
    for resp in pages[20:]:
        assert (await _next_event(resp))["version"] == rec.version
    assert 1 < most <= OPENINGS_AT_ONCE
    late = await _stream(web, rec.id, 1)
    assert (await _next_event(late))["seat"] == 1, "every turn was given back"
    for resp in [*pages, late]:
        resp.close()


async def test_security_headers(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    page = await web.client.get(f"/table/{rec.id}", params={"k": web.link(rec.id, 0)})
    csp = page.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org" in csp
    api = await web.client.get(f"/api/table/{rec.id}", params={"k": web.link(rec.id, 0)})
    refused = await web.client.get(f"/api/table/{rec.id}")
    for resp in (page, api, refused):
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Cache-Control"] == "no-store"
        assert resp.headers["Referrer-Policy"] == "no-referrer"
    static = await web.client.get("/static/app.js")
    assert static.status == 200 and "no-store" not in static.headers.get("Cache-Control", "")
    assert static.headers["X-Content-Type-Options"] == "nosniff"


def test_the_connection_cap_leaves_files_for_the_process(monkeypatch) -> None:
    monkeypatch.setattr("bot.web.limits.resource.getrlimit", lambda _: (1024, 4096))
    # 1 024 files less the process's own and room for the bursts a flood has accepted and not yet closed
    assert WebLimits(max_connections=5000).connection_cap() == 1024 - 64 - 16 * 5 == 880
    assert WebLimits(max_connections=100).connection_cap() == 100


async def test_a_change_is_prepared_once_then_its_pages_woken_a_batch_per_turn_of_the_loop() -> None:
    prepared: list[tuple[str, int, set]] = []

    async def prepare(table: str, generation: int, keys: set) -> None:
        prepared.append((table, generation, keys))

    hub = Hub(prepare=prepare)
    with contextlib.ExitStack() as pages:
        wakes = [pages.enter_context(hub.watch("t", (None, "en") if i % 2 else (1, "ru"))) for i in range(2 * WAKE_BATCH + 10)]
        hub.wake("t")
        assert not any(w.is_set() for w in wakes), "nobody is woken before the shared work is done"
        woken = []
        for _ in range(5):
            await asyncio.sleep(0)
            woken.append(sum(w.is_set() for w in wakes))
        assert prepared == [("t", 1, {(None, "en"), (1, "ru")})]
        assert WAKE_BATCH in woken and 2 * WAKE_BATCH in woken and woken[-1] == len(wakes), woken
    assert hub.watching("t") == 0 and hub.generation("t") == 0, "nothing kept of a table nobody watches"
