"""The page tells the game and its own state, in a real headless Chromium at phone and desktop size
(issue 26): another player's move told and its tiles lit on the table, the players panel (for a
spectator too, an opponent's last tile obvious), the turn's cue, a timeout explained, the timer's
warning, the match's result with its replay; an expired or re-signed link, the server gone and the
device offline each told with the way on; a tap off turn answered; Done and a check that cannot reach
the server keep the arrangement."""

from __future__ import annotations

from typing import Any

import pytest

from bot.web.auth import SeatLinks
from tests.web.browser import PHONE, Served
from tests.web.tables import ALICE, RK_DECK, two_player_table
from tests.web.test_browser import css, drag, finished_match, loaded, new_meld_from, rack_tile, wait

DESKTOP = (1280, 800)
OPENING = "play r10 r11 r12 | k9 b9 y9"


def text(b: Any, selector: str) -> str:
    found = css(b, selector)
    return found[0].text if found else ""


def state(b: Any) -> str | None:
    return b.execute_script("return document.body.dataset.state || null")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_another_players_move_is_told_and_lit_and_the_turn_is_cued(served: Served, browsers, size) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers(size)
    reduced = size == DESKTOP
    if reduced:
        b.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    b.get(served.url(rec.id, 1))
    loaded(b)
    assert text(b, "#latest") == "No moves yet."
    assert not b.title.startswith("▶"), "not Bob's turn yet"
    players = css(b, "#player-list .player")
    assert [p.get_attribute("data-seat") for p in players] == ["0", "1"] and "14 tiles" in players[1].text
    assert css(b, '#player-list .player.turn[data-seat="0"]'), "Alice is on turn"
    served.run(served.service.act(rec.id, ALICE, OPENING))
    # Her six tiles lit on the table for a moment (a ring; a pulse too unless motion is reduced).
    lit = wait(b, lambda b: b.execute_script(
        "const l = [...document.querySelectorAll('#board .tile.fresh')]; if (l.length !== 6) return null;"
        "const s = getComputedStyle(l[0]); return [s.outlineStyle, s.animationName]"))
    assert lit[0] == "solid" and (lit[1] == "none") == reduced
    assert "Alice opened with 6 tiles" in text(b, "#latest")
    assert b.execute_script("return document.body.dataset.fresh") == "6"
    assert css(b, '#player-list .player.turn[data-seat="1"]') and "8 tiles" in css(b, "#player-list .player")[0].text
    wait(b, lambda b: b.title.startswith("▶ Your turn"))
    assert "Your turn" in text(b, "#status")


def test_a_spectator_sees_whose_turn_it_is_and_an_opponents_last_tile(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    rec.state["racks"][1] = rec.state["racks"][1][:1]
    served.run(served.store.commit(rec, rec.version))
    b = browsers(PHONE)
    b.get(served.url(rec.id, None))
    loaded(b)
    assert "Watching" in text(b, "#status") and "Alice is playing" in text(b, "#status")
    last = css(b, '#player-list .player.last[data-seat="1"]')
    assert last and "one left!" in last[0].text and "1 tile" in last[0].text
    assert css(b, "#players")[0].is_displayed(), "always in view"


def test_a_tap_off_turn_says_whose_turn_it_is(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers(PHONE)
    b.get(served.url(rec.id, 1))
    loaded(b)
    css(b, "#hand .tile")[0].click()
    wait(b, lambda b: text(b, "#message") == "It is not your turn: Alice is playing.")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_timeout_is_explained_and_the_clock_warns_before(served: Served, browsers, size) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK, turn_timer_s=60))
    served.clock.advance(40)
    b = browsers(size)
    b.get(served.url(rec.id, 0))
    loaded(b)
    wait(b, lambda b: "warn" in css(b, "#clock")[0].get_attribute("class"))
    assert "Time is running out" in b.execute_script("return document.getElementById('announce').textContent")
    new_meld_from(b, ["r10", "r11"], touch=size == PHONE)
    wait(b, lambda b: len(css(b, ".meld .tile")) == 2)
    served.clock.advance(21)
    assert served.run(served.service.tick())
    wait(b, lambda b: "Your time for the turn ran out" in text(b, "#message"))
    assert "put back" in text(b, "#message") and not css(b, ".meld")
    assert "3 penalty tiles" in text(b, "#latest") and len(css(b, "#hand .tile")) == 17


def test_the_match_result_names_the_winner_and_links_the_replay(served: Served, browsers) -> None:
    table = served.run(finished_match(served, "ended"))
    b = browsers(PHONE)
    wait(b, lambda _: served.run(served.service.get(table)).status == "finished")
    b.get(served.url(table, 0))
    loaded(b)
    wait(b, lambda b: css(b, "#result")[0].is_displayed())
    assert text(b, "#result h2").startswith("The match is over")
    assert len(css(b, "#result table.scores tr")) == 3 and "Rematch" in text(b, "#result")
    replay = css(b, "#replay-link")[0].get_attribute("href")
    assert "/replay/" in replay
    css(b, '#result button[data-kind="close"]')[0].click()
    wait(b, lambda b: not css(b, "#result")[0].is_displayed())
    b.refresh()
    loaded(b)
    assert not css(b, "#result")[0].is_displayed(), "closed stays closed"
    b.get(replay)
    wait(b, lambda b: css(b, 'button[data-kind="next"]'))


def test_an_expired_link_and_a_restarted_servers_link_say_the_way_on(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers(PHONE)
    b.get(served.url(rec.id, 0, ttl=-5))
    wait(b, lambda b: state(b) == "denied")
    assert "expired" in text(b, "#banner") and "button" in text(b, "#banner")
    other = SeatLinks(b"another-secret").token(rec.id, 0, served.clock.now() + 3600)
    b.get(f"http://127.0.0.1:{served.port}/table/{rec.id}?k={other}&lang=en")
    wait(b, lambda b: state(b) == "denied")
    assert "restarted" in text(b, "#banner") and "terminal" in text(b, "#banner")
    assert not css(b, "#hand .tile") and not css(b, "#board .tile")


def test_a_link_expiring_while_open_is_told(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers(DESKTOP)
    b.get(served.url(rec.id, 0, ttl=30))
    loaded(b)
    served.clock.advance(31)
    served.run(served.service.act(rec.id, ALICE, OPENING))  # the stream wakes, finds its link expired
    wait(b, lambda b: state(b) == "denied")
    assert "expired" in text(b, "#banner")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_offline_a_check_and_done_keep_the_arrangement_and_say_so(served: Served, browsers, size) -> None:
    rec = served.run(two_player_table(served.service, deck=RK_DECK))
    b = browsers(size)
    b.get(served.url(rec.id, 0))
    loaded(b)
    new_meld_from(b, ["r10", "r11", "r12"], touch=size == PHONE)
    wait(b, lambda b: len(css(b, ".meld.valid")) == 1)
    b.execute_cdp_cmd("Network.enable", {})
    b.execute_cdp_cmd("Network.emulateNetworkConditions",
                      {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    drag(b, rack_tile(b, "k9"), css(b, "#newmeld")[0], size == PHONE)
    wait(b, lambda b: "could not be checked" in text(b, "#message"))
    wait(b, lambda b: state(b) in ("offline", "down") and css(b, "#banner")[0].is_displayed())
    css(b, "#done")[0].click()
    wait(b, lambda b: "did not reach the server" in text(b, "#message"))
    assert len(css(b, ".meld .tile")) == 4 and len(css(b, "#hand .tile")) == 10, "the arrangement is kept"
    assert served.run(served.service.get(rec.id)).version == rec.version
    b.execute_cdp_cmd("Network.emulateNetworkConditions",
                      {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait(b, lambda b: not css(b, "#banner")[0].is_displayed() and not css(b, "#message")[0].is_displayed())
    assert len(css(b, ".meld .tile")) == 4, "still kept once back online"
    for tile in ("b9", "y9"):
        drag(b, rack_tile(b, tile), css(b, ".meld .tile")[-1], size == PHONE)
    wait(b, lambda b: len(css(b, ".meld.valid")) == 2)
    css(b, "#done")[0].click()
    wait(b, lambda b: served.run(served.service.get(rec.id)).version > rec.version)


def test_the_server_gone_is_told_and_a_tap_then_is_answered(served: Served, browsers) -> None:
    rec = served.run(two_player_table(served.service, "rummy500", deck=["2S"]))
    b = browsers(PHONE)
    b.get(served.url(rec.id, 0))
    loaded(b)
    served.run(served.runner.cleanup())  # the server stops (its port closes)
    wait(b, lambda b: state(b) == "down")
    assert "does not answer" in text(b, "#banner") and css(b, '#banner button[data-kind="retry"]')
    css(b, "#hand .card")[0].click()  # a pick asks the server: the banner stays, nothing silent
    wait(b, lambda b: state(b) == "down")
