"""The page's files: a favicon at /favicon.ico, and the page and its static files gzipped for a client
that accepts it (whole, when decompressed), never the event stream; pinch zoom left on."""

from __future__ import annotations

import gzip

import pytest

from bot.web.app import STATIC
from tests.web.conftest import Web
from tests.web.tables import two_player_table


async def test_the_favicon_is_served_and_cached(web: Web) -> None:
    resp = await web.client.get("/favicon.ico")
    assert resp.status == 200
    body = await resp.read()
    assert body == (STATIC / "favicon.ico").read_bytes() and body[:4] == b"\x00\x00\x01\x00", "an ICO file"
    assert "max-age" in resp.headers["Cache-Control"]


@pytest.mark.parametrize("path", ["/static/app.js", "/static/app.css", "/static/rummikub.js", "/table/t0"])
async def test_the_page_and_its_files_are_gzipped_when_the_client_accepts_it(web: Web, path: str) -> None:
    source = STATIC / ("index.html" if path.startswith("/table/") else path.rsplit("/", 1)[1])
    resp = await web.client.get(path, headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
    assert resp.status == 200
    assert resp.headers["Content-Encoding"] == "gzip"
    raw = await resp.read()
    assert gzip.decompress(raw) == source.read_bytes()
    if len(source.read_bytes()) > 2000:
        assert len(raw) < len(source.read_bytes()) * 0.6, "text compresses well"
    plain = await web.client.get(path, headers={"Accept-Encoding": "identity"}, auto_decompress=False)
    assert "Content-Encoding" not in plain.headers and await plain.read() == source.read_bytes()


async def test_the_event_stream_and_the_api_are_not_compressed(web: Web) -> None:
    rec = await two_player_table(web.service)
    link = web.link(rec.id, 0)
    api = await web.client.get(f"/api/table/{rec.id}", params={"k": link}, headers={"Accept-Encoding": "gzip"})
    assert api.status == 200 and "Content-Encoding" not in api.headers
    async with web.client.get(f"/api/table/{rec.id}/events", params={"k": link},
                              headers={"Accept-Encoding": "gzip"}) as stream:
        assert stream.status == 200 and "Content-Encoding" not in stream.headers


def test_pinch_zoom_is_left_on() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert 'name="viewport"' in page
    assert "maximum-scale" not in page and "user-scalable" not in page
