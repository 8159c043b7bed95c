"""Replays: a finished match rebuilt from its log, step by step, in the public view or the asking
player's own; unfinished tables are not replayed."""

from __future__ import annotations

from bot.core.presenter.games import replayed
from tests.web.conftest import Web
from tests.web.tables import ALICE, RK_DECK, two_player_table


async def _finished(web: Web) -> str:
    """Alice and an AI; Alice goes away, so her stand-in plays the match to its end."""
    rec = await web.service.open_table("three_thirteen", "telegram", "chat9", ALICE, options={"rounds": 2})
    await web.service.add_ai(rec.id, ALICE)
    await web.service.start(rec.id, ALICE)
    await web.service.set_away(rec.id, ALICE, True)
    assert (await web.service.get(rec.id)).status == "finished"
    return rec.id


async def test_a_finished_match_steps_from_the_deal_to_the_stored_end(web: Web) -> None:
    table = await _finished(web)
    rec = await web.service.get(table)
    steps = replayed(rec, await web.store.log(table))
    assert steps[-1].state == rec.state, "the log replays to the stored state"
    url = f"/api/table/{table}/replay"
    public = await (await web.client.get(url, params={"k": web.link(table, None), "step": "0"})).json()
    assert public["step"] == 0 and public["steps"] == len(steps) > 10 and public["hand"] is None
    later = await (await web.client.get(url, params={"k": web.link(table, None), "step": "5"})).json()
    assert later["body"] != public["body"] and later["lines"]
    own = await (await web.client.get(url, params={"k": web.link(table, 0), "step": "5"})).json()
    assert own["hand"] and own["seat"] == 0
    end = await (await web.client.get(url, params={"k": web.link(table, None), "step": "99999"})).json()
    assert end["step"] == len(steps) - 1
    assert (await web.client.get(url, params={"k": web.link(table, None, ttl=-1)})).status == 401


async def test_a_table_in_play_is_not_replayed(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/replay", params={"k": web.link(rec.id, 0)})
    assert resp.status == 403
