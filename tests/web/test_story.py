"""The page's story (issue 26): each move's event lines in the payload and the push, per seat and with
nothing of another seat's hand; the players panel; a timeout told; round and match results; the
stored log played on entry by entry, not from the deal each time; refusals worded for the page."""

from __future__ import annotations

import asyncio
import json

from aiohttp import ClientResponse

from bot.core.i18n import t
from bot.core.presenter.games import IllegalAction
from bot.core.render.common import render_error
from bot.web.app import STORY
from tests.web.browser import played
from tests.web.conftest import Web
from tests.web.tables import ALICE, BOB, RK_DECK, two_player_table

OPENING = "play r10 r11 r12 | k9 b9 y9"


async def data(web: Web, table: str, seat: int | None, lang: str = "en") -> dict:
    resp = await web.client.get(f"/api/table/{table}", params={"k": web.link(table, seat), "lang": lang})
    assert resp.status == 200
    return await resp.json()


async def next_event(resp: ClientResponse) -> dict:
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), 5)).decode()
        if line.startswith("data: "):
            return json.loads(line[6:])


async def test_every_move_is_told_to_each_seat_as_it_may_know_it(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    await web.service.act(rec.id, ALICE, OPENING)
    await web.service.act(rec.id, BOB, "draw")
    alice, bob, public = [await data(web, rec.id, s) for s in (0, 1, None)]
    drawn = (await web.service.get(rec.id)).state["racks"][1][-1]
    assert "You opened with 6 tiles" in alice["lines"][0] and "Bob drew a tile." in alice["lines"]
    assert any(drawn in line for line in bob["lines"]), "Bob is told the tile he drew"
    for other in (alice, public):
        assert not any("got" in line for line in other["lines"]), "nobody else learns Bob's tile"
    assert "Alice opened with 6 tiles" in public["lines"][0]
    assert [s["seat"] for s in alice["story"]] == [0, 1] and alice["story"][-1]["seq"] == (await web.service.get(rec.id)).log_seq
    ru = await data(web, rec.id, 0, "ru")
    assert ru["lines"] != alice["lines"], "in the reader's language"


async def test_the_push_carries_the_lines_of_the_move_it_follows(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, 1)})
    assert (await next_event(resp))["lines"] == []
    await web.service.act(rec.id, ALICE, OPENING)
    pushed = await next_event(resp)
    assert pushed["story"][-1]["seat"] == 0 and "Alice opened with 6 tiles" in pushed["lines"][-1]
    resp.close()


async def test_the_players_panel_names_counts_scores_and_the_turn_for_spectators_too(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    await web.service.act(rec.id, ALICE, OPENING)
    for seat in (0, None):
        players = (await data(web, rec.id, seat))["players"]
        assert [(p["name"], p["count"], p["held"], p["turn"]) for p in players] == [
            ("Alice", 8, "8 tiles", False), ("Bob", 14, "14 tiles", True)]
        assert [p["you"] for p in players] == [seat == 0, False] and players[0]["score"] == 0
    cards = (await data(web, (await two_player_table(web.service, "rummy500", chat="c2")).id, None))["players"]
    assert all(p["held"].endswith("cards") for p in cards)


async def test_a_timeout_is_told_with_its_penalty(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK, turn_timer_s=60)
    await web.service.act(rec.id, ALICE, "new r10 r11 r12")  # a draft, dropped by the timeout
    web.clock.advance(61)
    assert await web.service.tick()
    told = (await data(web, rec.id, 0))["story"][-1]
    assert told["timeout"] == 0 and "You ran out of time and drew 3 penalty tiles." in told["lines"]
    assert (await data(web, rec.id, 1))["story"][-1]["timeout"] == 0


async def test_a_finished_match_has_its_result_and_the_log_is_played_once(web: Web) -> None:
    rec = await played(web.service, "rummikub", 600, seed=11)
    assert rec.status == "finished"
    first = await data(web, rec.id, 0)
    result = first["result"]
    assert result["match"] and result["seq"] == rec.log_seq
    winners = [row["name"] for row in result["rows"] if row["won"]]
    assert winners and result["headline"] == t("web.match_won", "en", names=", ".join(winners))
    assert [row["you"] for row in result["rows"]] == [True, False] and "Rematch" in result["next"]
    assert result["lines"] and "over" in result["lines"][0]
    story = web.client.server.app[STORY]
    await data(web, rec.id, 1)
    await data(web, rec.id, None)
    assert story.played == rec.log_seq, "each entry is played once, however many pages ask"


async def test_a_round_result_stays_in_the_story_after_the_next_deal(web: Web) -> None:
    rec = await web.service.open_table("three_thirteen", "telegram", "c3", ALICE, options={"rounds": 2})
    await web.service.add_ai(rec.id, ALICE)
    await web.service.start(rec.id, ALICE)
    await web.service.set_away(rec.id, ALICE, True)  # her stand-in plays the match out
    for _ in range(200):
        rec = await web.service.get(rec.id)
        if rec.state and rec.state["round"] == 2 or rec.status == "finished":
            break
        await asyncio.sleep(0.02)
    steps = [s for s in (await data(web, rec.id, 0))["story"]]
    result = (await data(web, rec.id, 0))["result"]
    assert result is not None and result["rows"][0]["name"] == "Alice", steps
    assert result["headline"].startswith(("Round 1 is over", "The match is over"))


async def test_refusals_are_worded_for_the_page(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    url, k = f"/api/table/{rec.id}/move", web.link(rec.id, 0)
    await web.client.post(url, params={"k": k}, json={"version": rec.version, "key": "a", "play": [["r10", "r11", "r12"], ["k9", "b9", "y9"]]})
    stale = await (await web.client.post(url, params={"k": k}, json={"version": rec.version, "key": "b", "play": [["r10", "r11", "r12"]]})).json()
    assert stale["error"] == t("web.error.E_STALE", "en") and "latest message" not in stale["error"]
    for game, code, params in (("rummy101", "E_INVALID_MELD", {"index": 2, "meld": "r5 b6", "reason": "no set"}),
                               ("rummy500", "E_INVALID_MELD", {"index": 1, "meld": "7S", "reason": "too short"}),
                               ("rummy101", "E_MELD_TYPE", {"index": 1, "meld": "r5 r5", "why": "series"})):
        for lang in ("en", "ru", "de"):
            chat, page = render_error(IllegalAction(code, **params), lang, game), \
                render_error(IllegalAction(code, **params), lang, game, "web")
            assert page != chat and params["meld"] in page, (game, code, lang)
        assert "typed" not in page and "command" not in page


async def test_a_long_log_played_for_the_first_time_lets_other_requests_through(web: Web) -> None:
    """Issue 24: a page opening a long match makes the server play its log from the deal; that is
    done a chunk at a time, so the event loop serves others in between instead of stalling."""
    rec = await played(web.service, "rummikub", 600, seed=11)
    story = web.client.server.app[STORY]
    turns = 0
    done = asyncio.Event()

    async def other_requests() -> None:
        nonlocal turns
        while not done.is_set():
            turns += 1
            await asyncio.sleep(0)

    beside = asyncio.create_task(other_requests())
    await story.recent(rec)
    done.set()
    await beside
    assert story.played == rec.log_seq > 8 * 4
    assert turns >= rec.log_seq // 8, "the loop turned between the chunks"
