"""A picture is drawn once per (table, version, viewer, language) and reused; the cache is bounded."""

from __future__ import annotations

from bot.core.pictures import PictureCache, picture
from tests.bot.pictures.positions import mid_game, record


def test_drawn_once_per_key_and_again_for_a_new_version() -> None:
    engine, state, rec = mid_game("rummikub")
    cache = PictureCache(size=8)
    public, mine = engine.view(state, None), engine.view(state, 1)
    first = cache.picture(rec, public, None, "en")
    assert first.startswith(b"\x89PNG")
    assert cache.picture(rec, public, None, "en") is first and cache.drawn == 1
    cache.picture(rec, public, None, "ru")
    cache.picture(rec, mine, 1, "en")
    assert cache.drawn == 3  # another language, another viewer: each drawn once
    cache.picture(rec, mine, 1, "en")
    assert cache.drawn == 3
    moved = record("rummikub", state, version=rec.version + 1)
    cache.picture(moved, public, None, "en")
    assert cache.drawn == 4  # a new version is a new picture
    cache.picture(record("rummikub", state, table_id="t2"), public, None, "en")
    assert cache.drawn == 5  # another table too


def test_least_recently_used_goes_first() -> None:
    engine, state, _ = mid_game("three_thirteen")
    view = engine.view(state, None)
    cache = PictureCache(size=2)
    a, b, c = (record("three_thirteen", state, version=v) for v in (1, 2, 3))
    cache.picture(a, view, None)
    cache.picture(b, view, None)
    cache.picture(a, view, None)  # a used again: b is now the oldest
    cache.picture(c, view, None)
    assert len(cache) == 2 and cache.drawn == 3
    cache.picture(a, view, None)
    assert cache.drawn == 3
    cache.picture(b, view, None)
    assert cache.drawn == 4


def test_the_shared_entry_point_caches_too() -> None:
    engine, state, _ = mid_game("rummy500")
    rec = record("rummy500", state, table_id="shared-cache-test")
    view = engine.view(state, None)
    assert picture(rec, view, None, "en") is picture(rec, view, None, "en")
    assert picture(rec, view, None, "en", cache=PictureCache()) == picture(rec, view, None, "en")
