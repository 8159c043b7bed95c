"""A harness: the real discord.py client and command tree, talking to a fake Discord (REST and
gateway) on 127.0.0.1, driving the real table service on a SQLite file with a fake clock."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.core.clock import FakeClock
from bot.core.codec import CodecError, decode
from bot.core.models import Player
from bot.core.service import TableService
from bot.discord import DiscordBot, DiscordConfig, build_client
from rules import get_engine
from storage import SqliteStore, TableRecord
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import EPHEMERAL, JSON, MANAGE_GUILD

TOKEN = "FAKE.DISCORD.TOKEN"
HAND_VERBS = ("pick", "cmd", "sort")
# Phrases only Telegram's texts use (its commands are /new, /away, …; Discord's are /rummy new, …).
TELEGRAM_ONLY = ("/new", "/back", "/away", "/end", "/hand", "/leaderboard", "Type help", "type help",
                 "напишете /", "Напишите help")


def components(message: JSON | None) -> list[JSON]:
    """Every button and select of a message (or request body), flattened out of its action rows."""
    out = []
    for row in (message or {}).get("components") or []:
        out += row.get("components", [])
    return out


def is_hand(body: JSON | None) -> bool:
    """A body that shows a hand: its components are hand buttons (a seat's), or its embed says so."""
    for comp in components(body):
        if "custom_id" not in comp:
            continue  # a link button
        try:
            data = decode(comp.get("custom_id"))
        except CodecError:
            continue
        if data.verb in HAND_VERBS or data.verb == "hand" and data.args:
            return True
    return any("hand" in (e.get("title") or "").lower() or "рука" in (e.get("title") or "").lower()
               for e in (body or {}).get("embeds") or [])


class Harness:
    def __init__(self, fake: FakeDiscord, db_path: str, clock: FakeClock) -> None:
        self.fake = fake
        self.db_path = db_path
        self.clock = clock
        self.alice = fake.user(4242, "Alice")
        self.bob = fake.user(4343, "Bob")
        self.carol = fake.user(4444, "Carol")
        fake.permissions[self.carol["id"]] = MANAGE_GUILD | 0x400 | 0x800
        self.seed = 7
        self.deck: list[str] | None = None
        self.ack_after_s = 2.0
        self.sharded = False
        self.shard_count: int | None = None
        self.shard_ids: tuple[int, ...] | None = None
        self.client: discord.Client | None = None
        fake.clock = clock.now  # interactions expire on the test's clock, never on the wall clock
        self.wrap_store: Any = None  # e.g. a slow store: called with the SQLite store, returns the one the bot uses

    async def start(self) -> None:
        self.store = SqliteStore(self.db_path)
        await self.store.open()
        used = self.wrap_store(self.store) if self.wrap_store else self.store
        ids = iter(range(1, 10_000))
        config = DiscordConfig(run_scheduler=False, guild_ready_timeout=0.05, ack_after_s=self.ack_after_s,
                               sharded=self.sharded, shard_count=self.shard_count, shard_ids=self.shard_ids)
        self.service = TableService(used, self.clock, new_table_id=lambda: f"dc{next(ids):04d}{random.randrange(10**4):04d}",
                                    new_seed=lambda: self.seed, lobby_ttl_s=600, scope=config.claims())
        self.bot = DiscordBot(self.service, used, config)
        self.client = build_client(self.bot)
        self.task = asyncio.create_task(self.client.start(TOKEN))
        await asyncio.wait_for(self.client.ready_event.wait(), 10)  # type: ignore[attr-defined]
        await asyncio.wait_for(self.bot.restored.wait(), 10)  # the restored tables shown again

    async def stop(self) -> None:
        assert self.client is not None
        await self.client.close()
        await asyncio.wait_for(self.task, 5)
        await self.store.close()
        assert not self.bot.errors, self.bot.errors
        # Every message the bot sent fitted Discord's limits: a refused one is a lost reply.
        assert not self.fake.rejected, self.fake.rejected
        assert not self.fake.missing_images, self.fake.missing_images  # every embed picture was attached
        assert not self.fake.expired, self.fake.expired  # every answer came within Discord's 3 s

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    # ---- driving --------------------------------------------------------------------------------

    async def send(self, payload: JSON) -> JSON:
        await self.fake.send_interaction(payload)
        await self.bot.wait_processed(int(payload["id"]))
        return payload

    async def slash(self, sub: str, user: JSON, *, in_guild: bool = True, **options: Any) -> JSON:
        opts = [{"name": k, "type": 5 if isinstance(v, bool) else 3, "value": v} for k, v in options.items()]
        payload = self.fake.slash("rummy", user=user, in_guild=in_guild)
        payload["data"]["options"] = [{"name": sub, "type": 1, "options": opts}]
        return await self.send(payload)

    async def autocomplete(self, text: str, user: JSON) -> list[JSON]:
        payload = self.fake.slash("rummy", user=user)
        payload["type"] = 4
        payload["data"]["options"] = [{"name": "play", "type": 1, "options": [
            {"name": "text", "type": 3, "value": text, "focused": True}]}]
        await self.fake.send_interaction(payload)
        req = await self.fake.wait_for_request("POST", rf"/interactions/{payload['id']}/.*/callback")
        return req.json["data"]["choices"]

    async def click(self, custom_id: str, message: JSON, user: JSON, values: list[str] | None = None) -> JSON:
        ctype = 3 if values is not None else 2
        return await self.send(self.fake.click(custom_id, message, user=user, component_type=ctype, values=values))

    async def press(self, message: JSON, user: JSON, verb: str, *args: str) -> JSON:
        """Press the first component of `message` whose decoded verb (and leading args) match."""
        for comp in components(message):
            if "custom_id" not in comp:
                continue  # a link button
            data = decode(comp["custom_id"])
            if data.verb == verb and data.args[: len(args)] == args:
                return await self.click(comp["custom_id"], message, user)
        raise AssertionError(f"no {verb} {args} on {[c.get('custom_id') for c in components(message)]}")

    def callback(self, payload: JSON) -> JSON:
        found = self.fake.requests_to("POST", rf"/interactions/{payload['id']}/[^/]+/callback")
        assert len(found) == 1, f"{len(found)} callbacks for {payload['data']}"
        return found[0].json

    def reply(self, payload: JSON) -> JSON:
        """What the bot answered to an interaction: the callback's data, or (after a defer) the
        follow-up or the edit of the original."""
        cb = self.callback(payload)
        if cb["type"] in (4, 7):
            return cb["data"]
        token = payload["token"]
        later = [r for r in self.fake.requests if token in r.path and r.method in ("POST", "PATCH")
                 and "/callback" not in r.path]
        assert later, "deferred without a reply"
        return later[-1].json

    def answer(self, payload: JSON) -> JSON:
        """What the user saw answer an interaction, however it was acknowledged: a message's body
        (its `flags` those of the message shown: an ephemeral defer keeps its follow-up ephemeral)."""
        cb = self.callback(payload)
        if cb["type"] in (4, 7, 8):
            return cb["data"]
        token = payload["token"]
        later = [r for r in self.fake.requests if token in r.path and r.method in ("POST", "PATCH")
                 and "/callback" not in r.path]
        assert later, f"deferred ({cb['type']}) without a reply"
        body = dict(later[0].json or {})
        if cb["type"] == 5 and later[0].method == "POST":
            body["flags"] = (cb.get("data") or {}).get("flags", 0) | body.get("flags", 0)
        return body

    def message_of(self, payload: JSON) -> JSON:
        """The message an interaction's response made or updated (an ephemeral hand, say)."""
        return self.fake.messages[self.fake.original[payload["token"]]]

    # ---- reading state -------------------------------------------------------------------------

    async def table(self) -> TableRecord:
        recs = await self.store.list_tables(["lobby", "playing", "finished", "abandoned"])
        return max(recs, key=lambda r: r.created_at)

    async def table_message(self, rec: TableRecord | None = None) -> JSON:
        rec = rec or await self.table()
        refs = await self.store.table_refs(rec.id)
        return self.fake.messages[int(refs["message"])]

    async def hand(self, user: JSON) -> JSON:
        """A fresh ephemeral hand through /rummy hand."""
        payload = await self.slash("hand", user)
        assert self.answer(payload)["flags"] & EPHEMERAL
        return self.message_of(payload)

    async def open_lobby(self, game: str = "rummikub", users: tuple[JSON, ...] = ()) -> TableRecord:
        await self.slash("new", self.alice, game=game)
        if self.deck is not None:
            # Scenario setup the chat cannot express: a stacked deck straight in the record.
            rec = await self.table()
            rec.deck = self.deck
            await self.store.commit(rec, rec.version)
        for user in users:
            await self.press(await self.table_message(), user, "join")
        return await self.table()

    async def ai_move(self, user: JSON) -> str:
        rec = await self.table()
        engine = get_engine(rec.game)
        seat = self.service.seat_of(rec, self.player(user))
        assert rec.state is not None and seat is not None
        return engine.format(engine.ai_action(rec.state, seat, random.Random(rec.log_seq)))

    @staticmethod
    def player(user: JSON) -> Player:
        return Player("discord", user["id"], user["username"])

    def user_of(self, rec: TableRecord, seat: int) -> JSON:
        uid = rec.seats[seat].user_id
        return next(u for u in (self.alice, self.bob, self.carol) if u["id"] == uid)

    def channel_texts(self) -> list[str]:
        out = []
        for r in self.fake.requests:
            if r.method in ("POST", "PATCH") and r.path.startswith(f"/channels/{self.fake.channel_id}/messages"):
                body = r.json or {}
                out.append(body.get("content") or "")
                out += [(e.get("description") or "") for e in body.get("embeds") or []]
        return out

    # ---- invariants ------------------------------------------------------------------------------

    def assert_no_hand_in_channel(self) -> None:
        """Over every request the bot made: a hand only ever goes out ephemeral or to a DM."""
        for r in self.fake.requests:
            body = r.json if isinstance(r.json, dict) else None
            if r.path.endswith("/callback"):
                data = (body or {}).get("data")
                if not is_hand(data):
                    continue
                if body["type"] in (4, 5):
                    assert data.get("flags", 0) & EPHEMERAL, data
                else:
                    inter = self.fake.interactions[r.path.split("/")[3]]
                    assert inter["message"]["flags"] & EPHEMERAL or inter.get("guild_id") is None, data
            elif r.path.startswith("/webhooks/") and is_hand(body):
                token = r.path.split("/")[3]
                target = self.fake.messages.get(self.fake.original.get(token, 0), {})
                assert (body or {}).get("flags", 0) & EPHEMERAL or target.get("flags", 0) & EPHEMERAL, body
            elif r.path.startswith("/channels/") and is_hand(body):
                assert int(r.path.split("/")[2]) in self.fake.dm_channels, body

    def sent_texts(self) -> list[str]:
        """The text of every message the bot sent or edited, anywhere (answers, follow-ups, channel, DMs)."""
        out = []
        for r in self.fake.requests:
            body = r.json if isinstance(r.json, dict) else {}
            body = body.get("data") if r.path.endswith("/callback") and isinstance(body.get("data"), dict) else body
            out.append(body.get("content") or "")
            for e in body.get("embeds") or []:
                out += [e.get("title") or "", e.get("description") or ""]
        return out

    def assert_no_telegram_wording(self) -> None:
        """Discord has no /new, /back or "type help": its commands are /rummy …"""
        for text in self.sent_texts():
            found = [p for p in TELEGRAM_ONLY if p in text]
            assert not found, (found, text)

    def assert_every_interaction_answered(self) -> None:
        answered = {r.path.split("/")[2] for r in self.fake.requests if r.path.endswith("/callback")}
        asked = {p["id"] for p in self.fake.interactions.values()}
        assert asked <= answered, asked - answered


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord(TOKEN).start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.stop()


@pytest.fixture
async def h(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(fake, str(tmp_path / "dc.db"), FakeClock())
    await harness.start()
    yield harness
    await harness.stop()
    harness.assert_every_interaction_answered()
    harness.assert_no_hand_in_channel()
    harness.assert_no_telegram_wording()
