"""bench/bench_chat.py's Discord driver: a match through the real discord.py adapter against the fake
Discord (tests/discord), and which of its requests reached the channel."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.chat_match import HUMAN_GAP_S, MAX_TURNS, Match, Turn, sample_kind
from bot.core.clock import FakeClock
from bot.core.codec import CodecError, decode
from bot.discord.app import point_at
from rules import get_engine
from tests.discord import conftest as dc
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import EPHEMERAL


def dc_turn(fake: FakeDiscord, reqs: Sequence[Any]) -> Turn:
    """Which requests reached the channel: channel messages, and interaction answers not ephemeral."""
    chan = f"/channels/{fake.channel_id}/messages"
    new = edits = deletes = 0
    for r in reqs:
        if r.status >= 300:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        if r.path.startswith(chan):
            new += r.method == "POST"
            edits += r.method == "PATCH"
            deletes += r.method == "DELETE"
        elif r.path.endswith("/callback"):
            token = r.path.split("/")[3]
            flags = (body.get("data") or {}).get("flags", 0)
            inter = fake.interactions.get(token, {})
            new += body.get("type") in (4, 5) and not flags & EPHEMERAL and "guild_id" in inter
            target = (inter.get("message") or {}).get("flags", 0)
            edits += body.get("type") == 7 and not target & EPHEMERAL and "guild_id" in inter
        elif r.path.startswith("/webhooks/") and r.method in ("POST", "PATCH"):
            token = r.path.split("/")[3]
            shown = fake.messages.get(fake.original.get(token, 0), {})
            public = "guild_id" in fake.interactions.get(token, {}) and not (body.get("flags", 0) | shown.get("flags", 0)) & EPHEMERAL
            new += r.method == "POST" and public
            edits += r.method == "PATCH" and public
    return Turn(len(reqs), new, edits, deletes)


def dc_press(h: dc.Harness, hand: dict | None, user: dict, move: str, version: int) -> dict | None:
    for comp in dc.components(hand):
        try:
            data = decode(comp.get("custom_id"))
        except CodecError:
            continue
        if comp.get("label") == move and data.version == version:
            return h.fake.click(comp["custom_id"], hand, user=user)
    return None


def dc_play(h: dc.Harness, user: dict, text: str) -> dict:
    payload = h.fake.slash("rummy", user=user)
    payload["data"]["options"] = [{"name": "play", "type": 1, "options": [{"name": "text", "type": 3, "value": text}]}]
    return payload


async def dc_unrelated(h: dc.Harness, move: dict, under_429: bool) -> float | None:
    """Carol's /rummy help while the move is handled (and, under_429, the channel answers 429 to
    the next table edit); her delay in s, None when the 429 did not come."""
    mark = len(h.fake.requests)
    task = asyncio.create_task(h.send(move))
    await asyncio.sleep(0.01)
    ask = h.fake.slash("rummy", user=h.carol)
    ask["data"]["options"] = [{"name": "help", "type": 1, "options": []}]
    asked = time.perf_counter()
    carol = asyncio.create_task(h.send(ask))
    answer = await h.fake.wait_for_request("POST", rf"/interactions/{ask['id']}/[^/]+/callback", timeout=10)
    await carol
    await task
    hit = any(r.status == 429 for r in h.fake.requests[mark:])
    return answer.t - asked if hit or not under_429 else None


async def dc_match(game: str, pace: str, seed: int, options: str, samples: int) -> Match:
    fake = await FakeDiscord(dc.TOKEN).start()
    point_at(fake.api_base, fake.gateway_url)
    out = Match()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        h = dc.Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
        h.seed = seed
        await h.start()
        try:
            engine = get_engine(game)
            await h.slash("new", h.alice, game=game, options=options)
            await h.press(await h.table_message(), h.bob, "join")
            for _ in range(max(engine.min_seats, 3) - 2):
                await h.press(await h.table_message(), h.alice, "addai", "normal")
            await h.press(await h.table_message(), h.alice, "start")
            hands = {u["id"]: await h.hand(u) for u in (h.alice, h.bob)}
            first = len(fake.requests)
            chan = f"/channels/{fake.channel_id}/messages"
            while (rec := await h.table()).status == "playing" and len(out.turns) < MAX_TURNS:
                seat = engine.current_seat(rec.state)
                user = h.user_of(rec, seat)
                move = await h.ai_move(user)
                if pace == "human":
                    h.clock.advance(HUMAN_GAP_S)
                hand = fake.messages.get(int(hands[user["id"]]["id"]))
                payload = dc_press(h, hand, user, move, rec.version)
                pressed = payload is not None
                payload = payload or dc_play(h, user, move)
                sample = sample_kind(len(out.turns), out, samples) if pace == "full" else None
                n = len(fake.requests)
                if sample:
                    if sample == "429":
                        fake.fail_next("PATCH", rf"{chan}/\d+", 429, 1.0)
                    delay = await dc_unrelated(h, payload, sample == "429")
                    fake.failures.clear()
                    if delay is not None:
                        (out.unrelated if sample == "429" else out.baseline).append(delay)
                else:
                    await h.send(payload)
                if (await h.table()).log_seq == rec.log_seq:
                    raise RuntimeError(f"discord {game}: {move!r} was not played")
                out.pressed += pressed
                with_carol = {p["token"] for p in fake.interactions.values() if
                              (p.get("member") or {}).get("user", p.get("user", {})).get("id") == h.carol["id"]}
                mine = [r for r in fake.requests[n:] if not any(t in r.path for t in with_carol)]
                out.turns.append(dc_turn(fake, mine))
                try:
                    shown = h.message_of(payload)
                    if dc.is_hand(shown):
                        hands[user["id"]] = shown
                except KeyError:
                    pass
            out.finished = (await h.table()).status == "finished"
            reached = [r for r in fake.requests[first:] if r.status < 300 and r.method in ("POST", "PATCH")
                       and r.path.startswith(chan)]
            out.group_at = [r.at for r in reached]
            out.left = sum(1 for m in fake.messages.values() if m.get("channel_id") == str(fake.channel_id)
                           and not m.get("flags", 0) & EPHEMERAL and m["author"]["id"] == fake.bot_user["id"])
        finally:
            out.broke = len(fake.rejected) + len(fake.expired)
            fake.rejected.clear()  # reported instead of failing the harness's stop
            fake.expired.clear()
            await h.stop()
            await fake.stop()
    out.seconds = time.perf_counter() - started
    return out
