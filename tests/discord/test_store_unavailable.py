"""Discord when the store cannot be reached (ISSUE 24, item 4): a typed move that could not be saved —
met by the service's commit, or by the bot's own read of the channel's table before it — is answered
with the sentence, ephemeral, nothing is applied, and the same move goes through once the store is
back, without a restart."""

from __future__ import annotations

from bot.core.i18n import t
from storage import Store
from tests.discord.conftest import Harness
from tests.discord.fake_wire import EPHEMERAL
from tests.failing_store import FailingStore

SENTENCE = t("error.E_STORE_UNAVAILABLE", "en")


def alices_draws(log: list) -> int:
    return sum(1 for e in log if e.kind == "action" and e.seat == 0 and e.text == "draw")


async def test_a_move_that_could_not_be_saved_is_told_ephemeral_and_made_when_sent_again(h: Harness) -> None:
    failing: list[FailingStore] = []

    def wrap(store: Store) -> FailingStore:
        failing.append(FailingStore(store))
        return failing[0]

    h.wrap_store = wrap
    await h.restart()
    store = failing[0]
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    assert rec.state is not None and rec.state["turn"] == 0
    for method in ("commit", "active_table_for_chat"):  # in the service; before it, in the bot's own read
        store.fail(method)
        played = await h.slash("play", h.alice, text="draw")
        answer = h.answer(played)
        assert answer["flags"] & EPHEMERAL and answer["content"] == SENTENCE, method
        assert alices_draws(await h.store.log(rec.id)) == 0, method  # nothing applied
    played = await h.slash("play", h.alice, text="draw")  # the store is back
    assert h.answer(played).get("content") != SENTENCE
    assert alices_draws(await h.store.log(rec.id)) == 1
    assert store.failed == ["commit", "active_table_for_chat"]
