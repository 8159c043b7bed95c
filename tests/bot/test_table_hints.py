"""`hint` through the table service (issue 16): refused with a sentence when the table's hints are
off (the default, and tables stored before the option), when it is not your turn, when you have no
seat or the table is not in play; otherwise the best move as a command the table accepts, worded in
both languages, in the terminal too."""

from __future__ import annotations

import pytest

from bot.console.app import ConsoleTable
from bot.core.hints import table_hint
from bot.core.models import ServiceError
from bot.core.render import render_error
from bot.core.service import TableService
from storage import Store
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.test_service import ALICE_RACK, BOB_RACK


async def table(service: TableService, **options: object) -> str:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE, options=options, deck=ALICE_RACK + BOB_RACK)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    return rec.id


async def refusal(service: TableService, table_id: str, user=ALICE) -> ServiceError:  # noqa: ANN001
    with pytest.raises(ServiceError) as err:
        await table_hint(service, table_id, user)
    return err.value


async def test_hints_are_off_by_default_and_say_how_to_turn_them_on(service: TableService) -> None:
    err = await refusal(service, await table(service))
    assert err.code == "E_HINTS_OFF"
    assert render_error(err, "en") == ("Hints are off at this table: the host turns them on in the lobby "
                                       "(option hints=on).")
    assert render_error(err, "ru") == ("Подсказки за этим столом выключены: хозяин включает их до начала игры "
                                       "(настройка hints=on).")


async def test_a_table_stored_before_the_option_has_hints_off(service: TableService, store: Store) -> None:
    table_id = await table(service, hints="on")
    rec = await service.get(table_id)
    del rec.options["hints"]  # as a release before hints wrote it
    await store.commit(rec, expected_version=rec.version)
    assert (await refusal(service, table_id)).code == "E_HINTS_OFF"


async def test_only_the_seat_on_turn_gets_a_hint(service: TableService) -> None:
    table_id = await table(service, hints=True)
    err = await refusal(service, table_id, BOB)
    assert err.code == "E_NOT_YOUR_TURN"
    assert render_error(err, "en") == "It is not your turn: wait for yours (the table shows whose turn it is)."
    assert (await refusal(service, table_id, CAROL)).code == "E_NOT_SEATED"
    lobby = await service.open_table("rummikub", "test", "chat2", ALICE, options={"hints": True})
    assert (await refusal(service, lobby.id)).code == "E_NOT_PLAYING"


async def test_the_hint_is_the_best_opening_as_a_command_the_table_accepts(service: TableService) -> None:
    table_id = await table(service, hints=True, initial_meld_min=30)
    got = await table_hint(service, table_id, ALICE)
    assert got.command == "play r10 r11 r12" and got.hint.reason == "open"
    assert got.render("en") == ("Hint: play r10 r11 r12 — your best initial meld: 33 points from the rack alone "
                                "(the minimum is 30).")
    assert got.render("ru") == ("Подсказка: play r10 r11 r12 — ваш лучший первый выход: 33 очка с одной подставки "
                                "(нужно не меньше 30).")
    outcome = await service.act(table_id, ALICE, got.command)
    assert outcome.table.state["opened"][0]
    # Bob holds nothing to open with: his hint is to draw, and says why.
    got = await table_hint(service, table_id, BOB)
    assert got.command == "draw" and got.hint.reason == "no_opening"
    assert "no initial meld yet: your rack reaches" in got.render("en")


async def test_the_terminal_answers_hint_at_its_prompt(service: TableService) -> None:
    out: list[str] = []
    lines = iter(["hint", "quit"])

    async def read() -> str | None:
        return next(lines, None)

    console = ConsoleTable(service, read, out.append)
    rec = await service.open_table("rummikub", "console", "terminal", ALICE, deck=ALICE_RACK + BOB_RACK)
    await service.join(rec.id, BOB)
    outcome = await service.start(rec.id, ALICE)
    await console.play(outcome.table, ALICE)
    assert "Hints are off at this table" in "\n".join(out)
    out.clear()
    lines = iter(["hint", "quit"])
    rec = await service.open_table("three_thirteen", "console", "terminal2", ALICE, options={"hints": "on"})
    await service.join(rec.id, BOB)
    outcome = await service.start(rec.id, ALICE)
    turn = outcome.table.state["turn"]
    player = ALICE if turn == 0 else BOB
    await console.play(outcome.table, player)
    assert any(line.startswith("Hint: ") for line in out), out
