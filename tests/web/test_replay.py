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
    # As pieces too, the live page's own: the table's board, and the asking player's hand as cards.
    assert {z["kind"] for z in later["board"]["zones"]} == {"stock", "pile"} and later["pieces"] is None
    assert own["pieces"] and all(p["kind"] == "card" for p in own["pieces"]) and own["melds"] is None
    end = await (await web.client.get(url, params={"k": web.link(table, None), "step": "99999"})).json()
    assert end["step"] == len(steps) - 1
    assert (await web.client.get(url, params={"k": web.link(table, None, ttl=-1)})).status == 401


async def test_a_table_in_play_is_not_replayed(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/replay", params={"k": web.link(rec.id, 0)})
    assert resp.status == 403


def test_a_rummikub_replay_is_drawn_with_its_numbered_melds_and_the_players_rack(served, browsers) -> None:
    """A one-game Rummikub match of Alice (away: her stand-in plays) and an AI, replayed in Chromium."""
    from tests.web.test_browser import css, wait

    async def finished() -> str:
        rec = await served.service.open_table("rummikub", "telegram", "rk-replay", ALICE, options={"match_games": 1})
        await served.service.add_ai(rec.id, ALICE)
        await served.service.start(rec.id, ALICE)
        await served.service.set_away(rec.id, ALICE, True)
        return rec.id

    table = served.run(finished())
    rec = served.run(served.service.get(table))
    assert rec.status == "finished"
    steps = replayed(rec, served.run(served.store.log(table)))
    at = next(i for i, s in enumerate(steps) if len(s.state["table"]) >= 3)  # three melds on the table
    b = browsers()
    b.get(served.url(table, 0).replace("/table/", "/replay/") + f"&step={at}")
    wait(b, lambda b: b.execute_script("return document.body.dataset.step") == str(at))
    shown = [[t.get_attribute("data-tile") for t in m.find_elements("css selector", ".tile")]
             for m in css(b, "#replay-table .meld")]
    assert shown == [m["tiles"] for m in steps[at].state["table"]], "the table's melds, in its order"
    assert [n.text for n in css(b, "#replay-table .meld-n")] == [str(i) for i in range(1, len(shown) + 1)]
    assert sorted(t.get_attribute("data-code") for t in css(b, "#hand .tile")) == sorted(steps[at].state["racks"][0])
    assert not css(b, "#replay-table [tabindex]"), "nothing to move in a replay"
