"""The web API: who sees what (401 and nothing else for bad credentials), moves through the service
with the page's version and key, the Rummikub layout check, and the push to open pages."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from aiohttp import ClientResponse

from bot.core.grammar import hand_items
from bot.web.push import successor
from rules import engine_names, get_engine
from tests.web.conftest import Web
from tests.web.tables import ALICE, BOB, RK_DECK, alice_and_bob_table, init_data, two_player_table

OPENING = [["r10", "r11", "r12"], ["k9", "b9", "y9"]]


async def get(web: Web, table: str, **params: str) -> ClientResponse:
    return await web.client.get(f"/api/table/{table}", params=params)


async def test_no_forged_expired_or_foreign_credentials_get_401_and_an_empty_body(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    other = await web.service.open_table("rummikub", "telegram", "chat2", BOB)
    good = web.link(rec.id, 0)
    table, seat, exp, mac = good.split(".")
    for params in ({}, {"k": f"{table}.1.{exp}.{mac}"}, {"k": web.link(rec.id, 0, ttl=-1)},
                   {"k": web.link(other.id, 0)}, {"k": "x.y"},
                   {"tma": init_data(ALICE, web.clock.now() - 7200)},
                   {"tma": init_data(ALICE, web.clock.now(), token="1:OTHER")}):
        resp = await get(web, rec.id, **params)
        assert resp.status == 401, params
        assert await resp.text() == ""
    assert (await get(web, rec.id, k=good)).status == 200


async def test_a_seat_sees_its_own_rack_and_a_spectator_none(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    mine = await (await get(web, rec.id, k=web.link(rec.id, 0))).json()
    assert mine["seat"] == 0 and mine["hand"]["my_turn"]
    assert [i["label"] for i in mine["hand"]["items"]] == mine["view"]["rack"]
    assert sorted(mine["view"]["rack"]) == sorted(RK_DECK)
    public = await (await get(web, rec.id, k=web.link(rec.id, None))).json()
    assert public["hand"] is None and "rack" not in public["view"]
    assert not any(tile in json.dumps(public) for tile in ("r10 r11", '"r10"'))
    bob = await (await get(web, rec.id, k=web.link(rec.id, 1))).json()
    assert not bob["hand"]["my_turn"] and not bob["hand"]["actions"]


async def test_telegram_init_data_maps_the_user_to_the_seat_in_their_language(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    data = await (await get(web, rec.id, tma=init_data(BOB, web.clock.now()))).json()
    assert data["seat"] == 1 and data["lang"] == "ru"
    stranger = init_data(ALICE.__class__("telegram", "999", "Eve"), web.clock.now())
    data = await (await get(web, rec.id, tma=stranger)).json()
    assert data["seat"] is None and data["hand"] is None
    resp = await web.client.post(f"/api/table/{rec.id}/move", params={"tma": stranger},
                                 json={"version": data["version"], "key": "k1", "play": OPENING})
    assert resp.status == 403


async def test_a_layout_is_checked_live_without_changing_the_table(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    k = web.link(rec.id, 0)
    resp = await web.client.post(f"/api/table/{rec.id}/check", params={"k": k},
                                 json={"layout": [["r10", "r11", "r12"], ["k9", "b2", "y9"]]})
    result = await resp.json()
    assert [m["valid"] for m in result["melds"]] == [True, False]
    assert result["melds"][1]["reason"] and not result["ok"] and result["error"]
    assert result["opening"] == 33 and result["required"] == 30 and not result["opened"]
    ok = await (await web.client.post(f"/api/table/{rec.id}/check", params={"k": k},
                                      json={"layout": OPENING})).json()
    assert ok["ok"] and ok["opening"] == 60
    assert (await web.service.get(rec.id)).version == rec.version


async def test_a_move_goes_through_the_service_once_and_a_stale_page_cannot_act(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    url, k = f"/api/table/{rec.id}/move", web.link(rec.id, 0)
    bad = await web.client.post(url, params={"k": k, "lang": "ru"},
                                json={"version": rec.version, "key": "a1", "play": [["r10", "r11", "b2"]]})
    refused = await bad.json()
    assert bad.status == 422 and refused["code"] == "E_INVALID_MELD" and refused["meld"] == 0 and refused["error"]
    assert (await web.service.get(rec.id)).version == rec.version, "a refused Done changes nothing"
    body = {"version": rec.version, "key": "a2", "play": OPENING}
    first = await web.client.post(url, params={"k": k}, json=body)
    assert first.status == 200
    after = await first.json()
    assert after["version"] > rec.version
    assert [sorted(m["tiles"]) for m in after["view"]["table"]] == [sorted(m) for m in OPENING]
    again = await web.client.post(url, params={"k": k}, json=body)
    assert again.status == 200, "the same key is answered, not applied again"
    assert (await web.service.get(rec.id)).version == after["version"]
    stale = await web.client.post(url, params={"k": k}, json={**body, "key": "a3"})
    assert stale.status == 409 and (await stale.json())["error"]


async def test_a_card_game_move_is_a_control_press(web: Web) -> None:
    rec = await two_player_table(web.service, "rummy500", deck=["2S"])  # seat 0 deals and opens by discarding
    k = web.link(rec.id, 0)
    data = await (await get(web, rec.id, k=k)).json()
    assert not [a for a in data["hand"]["actions"] if a["with_items"]], "nothing picked: no move takes picks"
    picked = await (await get(web, rec.id, k=k, picks="0")).json()
    assert picked["hand"]["picks"] == [0] and picked["hand"]["items"][0]["selected"]
    discard = next(a for a in picked["hand"]["actions"] if a["with_items"] and "discard" in a["label"].lower())
    resp = await web.client.post(f"/api/table/{rec.id}/move", params={"k": k},
                                 json={"version": data["version"], "key": "p1",
                                       "press": {"index": discard["index"], "option": None, "picks": [0]}})
    assert resp.status == 200
    after = await resp.json()
    assert len(after["hand"]["items"]) == len(data["hand"]["items"]) - 1
    assert after["view"]["market"] == [data["hand"]["items"][0]["label"]]
    junk = await web.client.post(f"/api/table/{rec.id}/move", params={"k": web.link(rec.id, 1)},
                                 json={"version": after["version"], "key": "p2",
                                       "press": {"index": 99, "option": None, "picks": []}})
    assert junk.status == 409


async def _next_event(resp: ClientResponse) -> dict:
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), 5)).decode()
        if line.startswith("data: "):
            return json.loads(line[6:])


async def test_open_pages_get_their_own_seats_view_after_every_commit(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    streams = {}
    for who in (1, None):
        resp = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, who)})
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        streams[who] = resp
        assert (await _next_event(resp))["version"] == rec.version
    await web.service.act(rec.id, ALICE, "play r10 r11 r12 | k9 b9 y9", expected_version=rec.version)
    bob, public = await _next_event(streams[1]), await _next_event(streams[None])
    assert bob["version"] == public["version"] > rec.version
    assert bob["seat"] == 1 and sorted(bob["view"]["rack"]) == sorted((await web.service.get(rec.id)).state["racks"][1])
    assert public["hand"] is None and "racks" not in json.dumps(public)
    for resp in streams.values():
        resp.close()


@pytest.mark.parametrize("game", engine_names())
async def test_every_game_serves_each_seat_its_own_items_and_the_public_none(web: Web, game: str) -> None:
    rec = await alice_and_bob_table(web.service, game)
    engine = get_engine(game)
    for seat in (0, 1):
        data = await (await get(web, rec.id, k=web.link(rec.id, seat))).json()
        assert [i["label"] for i in data["hand"]["items"]] == hand_items(engine.view(rec.state, seat))
        assert data["hand"]["body"] and data["body"]
    public = await (await get(web, rec.id, k=web.link(rec.id, None))).json()
    assert public["hand"] is None and public["view"] == json.loads(json.dumps(engine.view(rec.state, None)))


async def test_the_page_gets_its_words_in_the_players_language(web: Web) -> None:
    ru = await (await web.client.get("/api/words/ru")).json()
    assert ru["web.done"] == "Готово" and ru["game.rummikub"]
    assert all(k.startswith(("web.", "game.")) for k in ru)
    assert (await web.client.get("/api/words/xx")).status == 404


async def test_the_turn_deadline_comes_with_the_servers_clock(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK, turn_timer_s=90)
    data = await (await get(web, rec.id, k=web.link(rec.id, 0))).json()
    assert data["deadline"] - data["now"] == 90


async def test_seat_and_status_changes_are_pushed_too(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, 1)})
    assert (await _next_event(resp))["status"] == "playing"
    await web.service.end_table(rec.id, ALICE)
    ended = await _next_event(resp)
    assert ended["status"] == "abandoned" and not ended["hand"]["actions"]
    resp.close()


async def _rest(resp: ClientResponse) -> str:
    """Everything the stream sends until the server ends it."""
    return (await asyncio.wait_for(resp.content.read(), 5)).decode()


async def test_an_open_stream_ends_when_its_link_expires(web: Web) -> None:
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, 1, ttl=60)})
    assert (await _next_event(resp))["version"] == rec.version
    web.clock.advance(61)
    await web.service.act(rec.id, ALICE, "play r10 r11 r12 | k9 b9 y9", expected_version=rec.version)
    assert "data: " not in await _rest(resp), "the commit after the expiry is not sent; the stream ends"


async def test_an_idle_stream_ends_at_its_links_expiry_without_a_commit(web: Web, monkeypatch) -> None:
    monkeypatch.setattr("bot.web.app.HEARTBEAT_S", 0.01)  # the loop looks at the clock at every heartbeat
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, None, ttl=60)})
    await _next_event(resp)
    assert (await asyncio.wait_for(resp.content.readuntil(b": ping\n\n"), 5)).endswith(b": ping\n\n"), \
        "alive before the expiry"
    web.clock.advance(61)
    await _rest(resp)
    assert resp.content.at_eof()


def _codes(board: dict) -> list[str]:
    melds = board["melds"] or []
    return [p["code"] for z in board["zones"] for p in z["pieces"]] + [p["code"] for m in melds for p in m["pieces"]]


def _untapped(board: dict) -> dict:
    """The board without what a tap presses (only the seat on turn has buttons to place)."""
    zones = [{**z, "take": None, "pieces": [{**p, "take": None} for p in z["pieces"]]} for z in board["zones"]]
    return {**board, "zones": zones}


@pytest.mark.parametrize("game", ["rummy500", "canasta", "rummy101", "three_thirteen"])
async def test_the_table_as_pieces_is_the_public_views_for_every_seat(web: Web, game: str) -> None:
    import random

    rec = await alice_and_bob_table(web.service, game)
    engine, rng = get_engine(game), random.Random(3)
    for _ in range(24):  # the AI's moves for both humans: melds and discards on the table, hands still full
        seat = engine.current_seat(rec.state)
        if rec.status != "playing" or seat not in (0, 1) or engine.result(rec.state) is not None:
            break
        action = engine.format(engine.ai_action(rec.state, seat, rng))
        rec = (await web.service.act(rec.id, (ALICE, BOB)[seat], action)).table
    state = rec.state
    public = await (await get(web, rec.id, k=web.link(rec.id, None))).json()
    assert _codes(public["board"]) and public["hand"] is None, "something face up on the table"
    shown = json.dumps(engine.view(state, None))
    assert all(f'"{code}"' in shown for code in _codes(public["board"])), "every piece is in the public view"
    for seat in (0, 1):
        mine = await (await get(web, rec.id, k=web.link(rec.id, seat))).json()
        assert _untapped(mine["board"]) == _untapped(public["board"]), "a seat's table is the public one"
        hand = engine.view(state, seat)["hand"]
        assert [i["piece"]["code"] for i in mine["hand"]["items"]] == hand


async def test_a_market_position_on_the_board_presses_its_take(web: Web) -> None:
    from tests.web.test_browser import R500_DECK

    rec = await two_player_table(web.service, "rummy500", deck=R500_DECK)
    await web.service.act(rec.id, ALICE, "discard 7H")
    data = await (await get(web, rec.id, k=web.link(rec.id, 1))).json()
    zones = {z["kind"]: z for z in data["board"]["zones"]}
    assert [p["code"] for p in zones["market"]["pieces"]] == ["7H"]
    tap = zones["market"]["pieces"][0]["take"]
    button = next(a for a in data["hand"]["actions"] if (a["index"], a["option"]) == (tap["index"], tap["option"]))
    assert "7H" in button["label"], "the position's tap is the button that takes it"
    assert zones["stock"]["take"] is not None, "the bank is tapped to take from it"
    resp = await web.client.post(f"/api/table/{rec.id}/move", params={"k": web.link(rec.id, 1)},
                                 json={"version": data["version"], "key": "m1",
                                       "press": {"index": tap["index"], "option": tap["option"], "picks": []}})
    assert resp.status == 200
    assert not {"7S", "7D", "7H"} & set((await web.service.get(rec.id)).state["hands"][1])
    alice = await (await get(web, rec.id, k=web.link(rec.id, 0))).json()
    assert all(p["take"] is None for z in alice["board"]["zones"] for p in z["pieces"]), "off turn nothing to tap"


async def test_a_mini_app_stream_ends_when_its_sign_in_is_too_old(web: Web) -> None:
    """initData signed 3000 s ago with a max age of 3600 s: the stream lives 600 s more, then ends."""
    rec = await two_player_table(web.service, deck=RK_DECK)
    resp = await web.client.get(f"/api/table/{rec.id}/events",
                                params={"tma": init_data(BOB, web.clock.now() - 3000)})
    assert (await _next_event(resp))["seat"] == 1
    web.clock.advance(599)
    after = await web.service.act(rec.id, ALICE, "play r10 r11 r12 | k9 b9 y9", expected_version=rec.version)
    assert (await _next_event(resp))["version"] == after.table.version, "still signed in"
    web.clock.advance(2)
    await web.service.act(rec.id, BOB, "draw", expected_version=after.table.version)
    assert "data: " not in await _rest(resp), "past auth_date + max age nothing more is sent; the stream ends"


async def _events(resp: ClientResponse) -> AsyncIterator[tuple[str, dict]]:
    name = "message"
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), 5)).decode()
        if line.startswith("event: "):
            name = line[7:].strip()
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])


async def _moved(resp: ClientResponse) -> dict:
    async for name, data in _events(resp):
        if name == "moved":
            return data
    raise AssertionError("the stream ended")


async def test_the_page_of_an_ended_table_moves_on_to_its_rematch(web: Web, monkeypatch) -> None:
    monkeypatch.setattr("bot.web.app.FOLLOW_S", 60.0)  # only this process's commit can tell the page
    rec = await two_player_table(web.service, deck=RK_DECK)
    pages = {"bob": await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, 1)}),
             "public": await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, None)}),
             "mini": await web.client.get(f"/api/table/{rec.id}/events",
                                          params={"tma": init_data(BOB, web.clock.now())})}
    await web.service.end_table(rec.id, ALICE)
    again = await web.service.rematch("telegram", "chat1", ALICE)
    await web.service.start(again.id, ALICE)
    bob = await _moved(pages["bob"])
    assert (bob["table"], bob["seat"]) == (again.id, 1) and bob["status"] == "playing"
    granted = web.links.verify(bob["link"], web.clock.now())
    assert (granted.table_id, granted.seat) == (again.id, 1)
    assert granted.expires == web.links.verify(web.link(rec.id, 1), web.clock.now()).expires, "no more time"
    assert bob["path"].startswith(f"/table/{again.id}?k=")
    opened = await (await get(web, again.id, k=bob["link"])).json()
    assert opened["seat"] == 1 and opened["hand"]["items"]
    public = await _moved(pages["public"])
    assert public["seat"] is None and web.links.verify(public["link"], web.clock.now()).seat is None
    mini = await _moved(pages["mini"])
    assert mini == {"table": again.id, "seat": 1, "status": "playing", "path": f"/table/{again.id}"}, \
        "a Mini App page signs in there with its own initData: no link"
    for resp in pages.values():
        resp.close()


async def test_a_rematch_opened_elsewhere_is_found_and_a_stranger_is_not_moved(web: Web, monkeypatch) -> None:
    """The new lobby, made by another process (here: the store itself, no commit this process
    hears of), is found by the ended table's page looking now and then."""
    monkeypatch.setattr("bot.web.app.FOLLOW_S", 0.01)
    rec = await two_player_table(web.service, deck=RK_DECK)
    page = await web.client.get(f"/api/table/{rec.id}/events", params={"k": web.link(rec.id, 0)})
    await web.service.end_table(rec.id, ALICE)
    listeners, web.service.commit_listeners[:] = web.service.commit_listeners[:], []
    other = await web.service.open_table("rummikub", "telegram", "chat1", BOB)  # Alice not seated
    await web.service.join(other.id, ALICE)
    web.service.commit_listeners[:] = listeners
    moved = await _moved(page)
    assert (moved["table"], moved["seat"], moved["status"]) == (other.id, 1, "lobby")
    page.close()
    assert await successor(web.store, await web.service.get(rec.id), None) is None, "a spectator follows a rematch only"
