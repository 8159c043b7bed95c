"""Picture benchmarks: `python -m bench.bench_pictures [--repeat N]`.

The time to draw (lay out, paint, encode to PNG) a full 106-tile Rummikub table and a Tile Canasta
table with both teams' melds, uncached; the PNG sizes; the split between layout, painting and
encoding; and a cache hit for comparison. Figures only (medians, p95), never assertions.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from random import Random
from typing import Any

from PIL import Image

from bench.bench_rummikub import machine, percentile
from bot.core.pictures import PictureCache, layout
from bot.core.pictures.sheet import palette
from rules import get_engine
from rules.core.engine import State
from storage import SeatRecord, TableRecord

NAMES = ["Ann", "Борис", "Chen", "Dana"]


def _play(game: str, seats: int, seed: int, actions: int) -> State:
    engine = get_engine(game)
    state = engine.new_game(seats, seed=seed)
    for step in range(actions):
        seat = engine.current_seat(state)
        if seat is None:
            break
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
    return state


def _record(game: str, seats: int) -> TableRecord:
    return TableRecord(
        id="bench", game=game, platform="bench", chat_id="c", status="playing", host_platform="bench",
        host_user_id="0", options={}, seed=1, version=1, created_at=0, updated_at=0,
        seats=[SeatRecord(kind="human", platform="bench", user_id=str(i), name=NAMES[i]) for i in range(seats)],
    )


def full_rummikub_view() -> dict[str, Any]:
    """A real mid-game public view whose table holds all 106 tiles: every colour's 1..13 twice, as
    runs of 3-4 (32 melds), a joker closing two of them."""
    view = get_engine("rummikub").view(_play("rummikub", 4, 3, 40), None)
    melds = []
    for colour in "rbky":
        for _copy in range(2):
            for lo, hi in ((1, 3), (4, 6), (7, 10), (11, 13)):
                tiles = [f"{colour}{n}" for n in range(lo, hi + 1)]
                melds.append({"tiles": tiles, "prefix": None, "type": "run", "value": sum(range(lo, hi + 1))})
    for meld in (melds[0], melds[8]):
        meld["tiles"].append("j")
        meld["value"] += 4
    assert sum(len(m["tiles"]) for m in melds) == 106
    return {**view, "table": melds, "rack_sizes": [0, 0, 0, 0]}


def canasta_view() -> dict[str, Any]:
    """A seeded Tile Canasta round in play with melds for both teams (a canasta and a one-to-go)."""
    return get_engine("canasta").view(_play("canasta", 4, 1, 50), None)


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(label: str, samples: list[float]) -> float:
    median = statistics.median(samples)
    print(f"  {label:<34} median {median:7.2f} ms · p95 {percentile(samples, 0.95):7.2f} ms")
    return median


def bench_table(title: str, game: str, view: dict[str, Any], repeat: int) -> None:
    rec = _record(game, 4)
    print(f"-- {title}")
    first = timed(lambda: layout(rec, view, None, "en").png(), 1)[0]
    print(f"  first draw in the process (sprites, palette, fonts): {first:.1f} ms")
    whole = report("draw (layout + paint + PNG)", timed(lambda: layout(rec, view, None, "en").png(), repeat))
    sheet = layout(rec, view, None, "en")
    report("  layout", timed(lambda: layout(rec, view, None, "en"), repeat))
    report("  paint", timed(sheet.image, repeat))
    img = sheet.image()

    def encode() -> bytes:
        out = io.BytesIO()
        img.quantize(palette=palette(), dither=Image.Dither.NONE).save(out, format="PNG", compress_level=3)
        return out.getvalue()

    report("  palette + encode", timed(encode, repeat))
    cache = PictureCache()
    cache.picture(rec, view, None, "en")
    hits = timed(lambda: cache.picture(rec, view, None, "en"), repeat)
    hit = statistics.median(hits)
    print(f"  {'cache hit':<34} median {hit * 1000:7.2f} µs · p95 {percentile(hits, 0.95) * 1000:7.2f} µs")
    for lang in ("en", "ru"):
        data = layout(rec, view, None, lang).png()
        size = Image.open(io.BytesIO(data)).size
        print(f"  PNG {lang}: {len(data) / 1024:.1f} kB, {size[0]}×{size[1]} px, {len(sheet.placed)} pieces")
    print(f"  draw / cache hit: {whole / hit:.0f}×")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_pictures")
    parser.add_argument("--repeat", type=int, default=200)
    args, _ = parser.parse_known_args(argv)
    print(f"== pictures · {machine()}")
    bench_table("Rummikub, all 106 tiles on the table (32 melds)", "rummikub", full_rummikub_view(), args.repeat)
    view = canasta_view()
    melds = [len(team) for team in view["melds"]]
    tiles = sum(len(m["tiles"]) for team in view["melds"] for m in team)
    bench_table(f"Tile Canasta, team melds {melds[0]} + {melds[1]} ({tiles} tiles)", "canasta", view, args.repeat)


if __name__ == "__main__":
    main()
