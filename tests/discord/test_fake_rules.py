"""The fake Discord refuses what Discord refuses, so a test fails when the bot breaks a rule: an
interaction answered after 3 s (10062), its token used after 15 minutes (50027), more components
than a message holds. Driven by plain HTTP, the fake's clock moved by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.core.clock import FakeClock
from tests.discord.conftest import TOKEN
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import JSON


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[tuple[FakeDiscord, FakeClock, Any]]:
    clock = FakeClock()
    fake.clock = clock.now
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        async def call(method: str, path: str, body: JSON | None = None) -> tuple[int, Any]:
            async with session.request(method, f"{fake.api_base}{path}", json=body) as resp:
                return resp.status, (await resp.json() if resp.status != 204 else None)
        yield fake, clock, call


def _button(i: int) -> JSON:
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"c{i}"}


def _select(options: int) -> JSON:
    return {"type": 3, "custom_id": "pick", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]}


async def _interaction(fake: FakeDiscord) -> JSON:
    return await fake.send_interaction(fake.slash("rummy"))


async def test_an_answer_after_3_s_is_unknown_interaction(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    p = await _interaction(fake)
    clock.advance(3.5)
    status, body = await call("POST", f"/interactions/{p['id']}/{p['token']}/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062) and fake.expired == [p["token"]]


async def test_the_token_works_for_15_minutes_then_follow_ups_and_edits_are_refused(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    p = await _interaction(fake)
    hook = f"/webhooks/{fake.app_id}/{p['token']}"
    assert (await call("POST", f"/interactions/{p['id']}/{p['token']}/callback", {"type": 5}))[0] == 200
    clock.advance(14 * 60)
    assert (await call("PATCH", f"{hook}/messages/@original", {"content": "hand"}))[0] == 200
    assert (await call("POST", hook, {"content": "more"}))[0] == 200
    assert not fake.expired
    clock.advance(61)  # 15 min 1 s after the interaction
    for method, path, body in (("PATCH", f"{hook}/messages/@original", {"content": "late"}),
                               ("POST", hook, {"content": "late"}),
                               ("DELETE", f"{hook}/messages/@original", None)):
        status, answer = await call(method, path, body)
        assert (status, answer["code"]) == (401, 50027), (method, path)
    assert fake.expired == [p["token"]] * 3


@pytest.mark.parametrize(("components", "where"), [
    ([{"type": 1, "components": [_button(i)]} for i in range(6)], "components"),
    ([{"type": 1, "components": [_button(i) for i in range(6)]}], "components.0.components"),
    ([{"type": 1, "components": [_select(3), _button(1)]}], "components.0.components"),
    ([{"type": 1, "components": [_select(26)]}], "components.0.components.0.options"),
    ([{"type": 1, "components": [{**_button(1), "custom_id": "x" * 101}]}], "components.0.components.0.custom_id"),
    ([_button(1)], "components.0"),  # a button outside an action row
])
async def test_oversized_components_are_refused(api, components: list[JSON], where: str) -> None:  # noqa: ANN001
    fake, clock, call = api
    status, body = await call("POST", f"/channels/{fake.channel_id}/messages", {"content": "t", "components": components})
    assert (status, body["code"]) == (400, 50035) and where in body["errors"]
    assert fake.rejected


async def test_five_rows_of_five_buttons_and_a_select_of_25_fit(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    rows = [{"type": 1, "components": [_button(5 * r + i) for i in range(5)]} for r in range(4)]
    rows.append({"type": 1, "components": [_select(25)]})
    status, _ = await call("POST", f"/channels/{fake.channel_id}/messages", {"content": "t", "components": rows})
    assert status == 200 and not fake.rejected


async def test_an_embed_over_6000_characters_is_refused(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    embed = {"title": "t" * 256, "description": "d" * 4096, "fields": [{"name": "n", "value": "v" * 1024}] * 2}
    status, body = await call("POST", f"/channels/{fake.channel_id}/messages", {"embeds": [embed]})
    assert status == 400 and body["errors"]["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"


async def test_a_deleted_channel_message_is_gone(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    status, msg = await call("POST", f"/channels/{fake.channel_id}/messages", {"content": "ping"})
    assert status == 200 and int(msg["id"]) in fake.messages
    assert (await call("DELETE", f"/channels/{fake.channel_id}/messages/{msg['id']}"))[0] == 204
    assert int(msg["id"]) not in fake.messages
    status, body = await call("DELETE", f"/channels/{fake.channel_id}/messages/{msg['id']}")
    assert (status, body["code"]) == (404, 10008)
