"""Discord's 3 s: every interaction is acknowledged at entry, before storage is touched, so slow
storage cannot make an answer late. The fake refuses a late callback (10062) on the test's clock."""

from __future__ import annotations

from typing import Any

import aiohttp

from storage import Store
from tests.discord.conftest import Harness, components


class SlowStore:
    """The real store, but while `slow` every table read takes 3.5 s of the test's clock."""

    def __init__(self, inner: Store, h: Harness) -> None:
        self._inner, self._h, self.slow = inner, h, False

    async def get_table(self, table_id: str) -> Any:
        if self.slow:
            self._h.clock.advance(3.5)
        return await self._inner.get_table(table_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


async def test_a_refresh_on_slow_storage_is_deferred_then_answered(h: Harness) -> None:
    await h.stop()
    slow: list[SlowStore] = []
    h.wrap_store = lambda inner: slow.append(SlowStore(inner, h)) or slow[-1]
    await h.start()
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    seat = rec.state["turn"]
    user = h.user_of(rec, seat)
    hand = await h.hand(user)
    slow[-1].slow = True
    refresh = await h.press(hand, user, "hand", str(seat))
    assert h.callback(refresh)["type"] == 6  # acknowledged before the 3.5 s read
    assert h.answer(refresh)["embeds"] and components(h.answer(refresh))  # then the hand, edited in place
    assert not h.fake.expired


async def test_the_fake_refuses_a_late_answer(h: Harness) -> None:
    payload = h.fake.click("v1:x:0:hand", h.fake.message(), user=h.alice)
    h.fake.created_at[payload["token"]] = h.clock.now()
    h.clock.advance(3.01)
    url = f"{h.fake.api_base}/interactions/{payload['id']}/{payload['token']}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json={"type": 6}) as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10062
    h.fake.expired.clear()  # refused on purpose; the harness fails a test with a late answer otherwise
    h.fake.interactions.pop(payload["token"])  # never dispatched to the bot
