"""Issue 24, item 9: a process running for weeks keeps nothing of the tables that ended — the
outbox's message ids, versions and shown texts, and the adapter's per-table caches are dropped
once a match's last messages are out, whether it ended in play or by /end."""

from __future__ import annotations

from tests.telegram.conftest import Harness


async def play_to_the_end(h: Harness) -> None:
    """Alice and Bob start a table and both step away: the AI plays it to its end at once."""
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    await h.say("/away", h.alice)
    await h.say("/away", h.bob)
    assert (await h.table()).status == "finished"


async def test_nothing_of_an_ended_table_stays_in_memory(h: Harness) -> None:
    await play_to_the_end(h)
    await h.tg.idle()
    assert set(h.tg.tables_kept().values()) == {0}, h.tg.tables_kept()
    assert not h.tg.outbox._queues and not h.tg.outbox._workers  # idle chats cost nothing either

    await play_to_the_end(h)
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    kept = h.tg.tables_kept()
    assert kept["outbox"] == 1 and kept["info"] == 1  # the live table is kept, and only it
    await h.say("/end", h.alice)
    await h.tg.idle()
    assert set(h.tg.tables_kept().values()) == {0}, h.tg.tables_kept()
    assert not h.tg.outbox._shown  # no message of an ended table is remembered

