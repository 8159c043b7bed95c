"""The terminal when the store cannot be reached (ISSUE 24, item 4): a move that could not be saved —
met by the table's clock work before it or by its own commit — prints the sentence, applies nothing
and leaves the terminal running; typed again once the store is back, it is made."""

from __future__ import annotations

from pathlib import Path

from bot.console.app import CHAT_ID, PLATFORM, ConsoleTable
from bot.console.session import Request, Session
from bot.core.clock import FakeClock
from bot.core.i18n import t
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.driver import ai_move
from tests.failing_store import FailingStore


async def test_a_move_that_could_not_be_saved_is_printed_and_made_when_typed_again(tmp_path: Path) -> None:
    inner = SqliteStore(str(tmp_path / "console.db"))
    await inner.open()
    try:
        store = FailingStore(inner)
        service = TableService(store, FakeClock())  # type: ignore[arg-type]
        out: list[str] = []
        typed: list[str] = []
        outages = ["claim_holders", "commit", None]  # the clock work's first read; the move's commit; none

        async def read() -> str | None:
            rec = await inner.active_table_for_chat(PLATFORM, CHAT_ID)
            if not outages or rec is None or rec.status != "playing":
                return "quit\n"
            method = outages.pop(0)
            if method is not None:
                store.fail(method)
            typed.append(move := ai_move(rec.game, rec.state, rec.log_seq))
            return move + "\n"

        code = await Session(service, ConsoleTable(service, read, out.append, "ru")).run(
            Request("three_thirteen", ai=1, options={"rounds": 1}, seed=4))
        assert code == 0
        sentence = t("error.E_STORE_UNAVAILABLE", "ru")
        assert sum(sentence in line for line in out) == 2
        assert len(set(typed)) == 1  # the same move each time: the first two applied nothing
        rec = await inner.active_table_for_chat(PLATFORM, CHAT_ID)
        assert rec is not None
        log = await inner.log(rec.id)
        assert [e.text for e in log if e.kind == "action" and e.seat == 0] == typed[:1]
        assert store.failed == ["claim_holders", "commit"]
    finally:
        await inner.close()
