"""Discord across processes (issue 27, item 3): DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS per process.
Two processes on one database, each running one of two gateway shards against the fake Discord
(which routes a guild's events to its shard only, as Discord does): the guild's process opens and
plays its tables, its clock alone plays their deadlines; the other process never touches them. Each
identifies with its own shard and only the guilds intent."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.core.clock import FakeClock
from bot.discord.bot import INTENTS
from bot.settings import Settings
from tests.discord.conftest import Harness
from tests.discord.fake_discord import FakeDiscord

COUNT = 2


@pytest.fixture
async def shards(fake: FakeDiscord, tmp_path: str) -> AsyncIterator[tuple[Harness, Harness]]:
    """(the process whose shard has the fake's guild, the other one), on one database and clock."""
    mine = (fake.guild_id >> 22) % COUNT
    clock = FakeClock()
    pair = []
    for shard in (mine, 1 - mine):
        harness = Harness(fake, f"{tmp_path}/shared.db", clock)
        harness.sharded, harness.shard_count, harness.shard_ids = True, COUNT, (shard,)
        pair.append(harness)
    for harness in pair:
        await harness.start()
    try:
        yield pair[0], pair[1]
    finally:
        for harness in pair:
            await harness.stop()


async def test_each_process_identifies_as_its_shard_with_the_guilds_intent_only(
        fake: FakeDiscord, shards: tuple[Harness, Harness]) -> None:
    owner, other = shards
    sent = [(d["shard"], d["intents"]) for d in fake.identifies[-2:]]
    assert sorted(sent) == [([0, COUNT], INTENTS.value), ([1, COUNT], INTENTS.value)]
    assert INTENTS.value == discord.Intents(guilds=True).value
    assert owner.client is not None and other.client is not None
    assert [g.id for g in owner.client.guilds] == [fake.guild_id]
    assert list(other.client.guilds) == []


async def test_a_guilds_table_is_played_and_timed_by_its_shards_process(
        fake: FakeDiscord, shards: tuple[Harness, Harness]) -> None:
    owner, other = shards
    await owner.open_lobby(users=(owner.bob,))
    await owner.press(await owner.table_message(), owner.alice, "start")
    rec = await owner.table()
    assert rec.shard_key == fake.guild_id >> 22
    assert not other.bot.processed  # the other shard's process never saw the guild's interactions

    owner.clock.advance(61)
    before = len(fake.requests)
    assert await other.bot.scheduler.run_once() == []  # not its shard's table
    assert (await owner.table()).version == rec.version
    assert len(fake.requests) == before
    outcomes = await owner.bot.scheduler.run_once()
    assert [o.table.id for o in outcomes] == [rec.id]
    assert "penalty" in (await owner.table_message())["embeds"][0]["description"]


@pytest.mark.parametrize(("env", "says"), [
    ({"DISCORD_SHARD_IDS": "0"}, "set DISCORD_SHARD_COUNT too"),
    ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "0,2"}, "from 0 to 1"),
    ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "1,1"}, "different shard numbers"),
    ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "one"}, "separated by commas"),
])
def test_shard_settings_that_cannot_work_are_refused(env: dict[str, str], says: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=says):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_shard_settings_reach_the_client_and_the_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.discord.app import config_from

    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "1, 3")
    config = config_from(Settings(_env_file=None))  # type: ignore[call-arg]
    assert (config.sharded, config.shard_count, config.shard_ids) == (True, 4, (1, 3))
    assert config.claims().shards == (4, (1, 3)) and config.claims().platforms == ("discord",)


async def test_a_restart_restores_only_its_own_shards_tables(fake: FakeDiscord, shards: tuple[Harness, Harness]) -> None:
    owner, other = shards
    await owner.open_lobby(users=(owner.bob,))
    await owner.press(await owner.table_message(), owner.alice, "start")
    before = len(fake.requests)
    await other.restart()  # the other shard's process: the table is not its to show again
    assert not [r for r in fake.requests[before:] if r.path.startswith("/channels/")]
    rec = await owner.table()
    await owner.store.set_table_ref(rec.id, "shown:message", rec.version - 1)  # behind: shown again by its owner
    before = len(fake.requests)
    await owner.restart()
    await owner.bot.restored.wait()
    restored = await owner.table_message()
    assert "Game restored." in restored["embeds"][0]["description"]
    assert [r for r in fake.requests[before:] if r.method == "PATCH" and r.path.startswith("/channels/")]
