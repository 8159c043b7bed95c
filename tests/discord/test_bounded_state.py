"""Issue 24, item 9: nothing of an ended table stays in the Discord adapter's memory — the
delivery's message ids and per-table edit state, the hand screens, the signed links — whether it
ended in play or by /rummy end."""

from __future__ import annotations

from tests.discord.conftest import Harness


def kept(h: Harness) -> dict[str, int]:
    return {"delivery": h.bot.delivery.tables_kept(), "hand_uis": h.bot.uis.tables_kept(),
            "links": len({k[0] for k in h.bot.looks.links})}


async def play_to_the_end(h: Harness) -> None:
    """Alice and Bob start a table and both step away: the AI plays it to its end at once."""
    h.clock.advance(60)  # the harness finds the newest table by its opening time
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    await h.slash("away", h.alice)
    await h.slash("away", h.bob)
    assert (await h.table()).status == "finished"
    assert not (await h.table_message())["components"]  # its last state went out before it was forgotten


async def test_nothing_of_an_ended_table_stays_in_memory(h: Harness) -> None:
    await play_to_the_end(h)
    assert set(kept(h).values()) == {0}, kept(h)
    await play_to_the_end(h)
    h.clock.advance(60)
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    assert kept(h)["delivery"] == 1  # the live table is kept, and only it
    await h.slash("end", h.alice)
    assert set(kept(h).values()) == {0}, kept(h)
