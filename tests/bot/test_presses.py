"""The service's one entry for a press on a hand (bot/core/presses.py): under the table's gate, one
read, the seat found once, the seat's view and moves built once; a new screen, the move applied, the
button of another seat, or a refusal with the same codes as a typed move — nothing changed then."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.codec import CodecError
from bot.core.models import Player, ServiceError
from bot.core.presenter import HandUI, HandUIs
from bot.core.presses import (
    Back,
    ChoosePiece,
    Clear,
    Command,
    NotYours,
    PageScreen,
    Pick,
    Played,
    Presser,
    Refused,
    Shown,
    Stage,
    StartMove,
    Suggest,
    Typed,
    Unstage,
    button_press,
    decoded,
)
from bot.core.service import TableService
from rules import IllegalAction, get_engine
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.test_service import two_player_table

DRAW, NEW = 0, 3  # Rummikub's templates at Alice's first turn: draw, pass, play, new, …


async def test_a_pick_is_a_new_screen_kept_and_a_move_press_is_applied_once(service: TableService) -> None:
    table = await two_player_table(service)
    uis = HandUIs(service.store)
    rec = await service.get(table)
    shown = await service.press(table, Presser(ALICE, 0), Pick((2, 0, 1)), uis, version=rec.version)
    assert isinstance(shown, Shown) and shown.screen.picks == (2, 0, 1) and shown.seat == 0
    assert (await HandUIs(service.store).get(table, 0)).picks == (2, 0, 1), "kept in the store"
    assert (await service.get(table)).version == rec.version, "a screen press stores no move"
    played = await service.press(table, Presser(ALICE, 0), Command(NEW, "7"), uis, version=rec.version, key="k1")
    assert isinstance(played, Played) and played.seat == 0 and played.prev_turn == 0
    assert played.command == "new r12 r10 r11", "the items in the order picked"
    after = await played.outcome.settled()
    assert after.table.version == rec.version + 1
    assert (await uis.get(table, 0)).picks == (), "the move used the picked items"
    again = await service.press(table, Presser(ALICE, 0), Command(NEW, "7"), uis, version=rec.version, key="k1")
    assert isinstance(again, Played) and again.outcome.repeated and again.command == "new r12 r10 r11"
    assert (await service.get(table)).version == after.table.version, "a redelivery is not applied twice"


async def test_refusals_carry_the_codes_of_a_typed_move_and_change_nothing(service: TableService) -> None:
    table = await two_player_table(service)
    uis = HandUIs(service.store)
    rec = await service.get(table)

    async def refused(who: Presser, pressed: Any, version: int | None = rec.version, **kw: Any) -> Refused:
        result = await service.press(table, who, pressed, uis, version=version, **kw)
        assert isinstance(result, Refused), result
        assert (await service.get(table)).version == rec.version
        return result

    stale = await refused(Presser(ALICE, 0), Command(DRAW), version=rec.version - 1)
    assert isinstance(stale.error, ServiceError) and stale.error.code == "E_STALE" and stale.table is not None
    assert stale.seat == 0
    off_turn = await refused(Presser(BOB, 1), Command(DRAW))
    assert isinstance(off_turn.error, IllegalAction) and off_turn.error.code == "E_NOT_YOUR_TURN"
    unseated = await refused(Presser(CAROL), Command(DRAW))
    assert isinstance(unseated.error, ServiceError) and unseated.error.code == "E_NOT_SEATED"
    elsewhere = await refused(Presser(ALICE, 0), Command(DRAW), platform="telegram")
    assert isinstance(elsewhere.error, ServiceError) and elsewhere.error.code == "E_NO_TABLE"
    missing = await service.press("nope", Presser(ALICE, 0), Command(DRAW), uis, version=None)
    assert isinstance(missing, Refused) and missing.table is None and missing.error.code == "E_NO_TABLE"
    broken = await refused(Presser(ALICE, 0), Unstage(3))
    assert isinstance(broken.error, CodecError)
    past_the_hand = await refused(Presser(ALICE, 0), Pick((40,)))
    assert isinstance(past_the_hand.error, CodecError)
    assert (await uis.get(table, 0)) == HandUI(), "a refused press leaves the screen as it was"


async def test_another_seats_button_is_not_yours_and_a_seat_link_plays_as_its_player(service: TableService) -> None:
    table = await two_player_table(service)
    rec = await service.get(table)
    uis = HandUIs(service.store)
    theirs = await service.press(table, Presser(BOB, 0), Pick((1,)), uis, version=rec.version)
    assert isinstance(theirs, NotYours) and theirs.seat == 1
    assert (await uis.get(table, 0)) == HandUI()
    linked = await service.press(table, Presser(None, 0), Command(DRAW), PageScreen(), version=rec.version)
    assert isinstance(linked, Played) and linked.command == "draw"
    log = await service.store.log(table)
    assert log[-1].seat == 0 and log[-1].text == "draw"
    nobody = await service.press(table, Presser(None, 7), Command(DRAW), PageScreen(), version=None)
    assert isinstance(nobody, Refused) and nobody.error.code == "E_NOT_SEATED"


async def test_the_page_sends_its_own_screen_and_admit_turns_a_press_away_first(service: TableService) -> None:
    table = await two_player_table(service)
    rec = await service.get(table)
    seen: list[int] = []

    class Full(Exception):
        pass

    def admit(seat: int) -> None:
        seen.append(seat)
        raise Full

    with pytest.raises(Full):
        await service.press(table, Presser(Player("test", "1", "Alice")), Command(NEW, "7"),
                            PageScreen(HandUI(picks=(1, 2, 0))), version=rec.version, admit=admit)
    assert seen == [0] and (await service.get(table)).version == rec.version
    played = await service.press(table, Presser(ALICE), Command(NEW, "7"), PageScreen(HandUI(picks=(1, 2, 0))),
                                 version=rec.version)
    assert isinstance(played, Played) and played.command == "new r11 r12 r10"


async def test_the_view_and_the_moves_are_built_once_per_press(service: TableService) -> None:
    table = await two_player_table(service)
    rec = await service.get(table)
    engine = get_engine("rummikub")
    calls: dict[str, int] = {"view": 0, "moves": 0}

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        def view(self, *args: Any) -> Any:
            calls["view"] += 1
            return engine.view(*args)

        def moves(self, *args: Any) -> Any:
            calls["moves"] += 1
            return engine.moves(*args)

    service.presses.engine_for = lambda _rec: Counting()  # type: ignore[assignment,return-value]
    played = await service.press(table, Presser(ALICE, 0), Command(DRAW), HandUIs(service.store), version=rec.version)
    assert isinstance(played, Played)
    assert calls == {"view": 1, "moves": 1}


def test_a_chat_buttons_arguments_read_as_presses_and_junk_is_a_codec_error() -> None:
    assert button_press("pick", ["5"]) == Pick((0, 2))
    assert button_press("cmd", ["3", "7"]) == Command(3, "7")
    assert button_press("cmd", ["3", "0", "2"]) == Command(3, "0", 2)
    assert button_press("mvt", ["4"]) == ChoosePiece(4)
    assert button_press("sug", ["1"]) == Suggest(1)
    assert [button_press(v, []) for v in ("mvs", "back", "stage", "clear")] == [StartMove(), Back(), Stage(), Clear()]
    for verb, args in [("pick", ["zz"]), ("cmd", ["x", "1"]), ("mv", ["1", "2"]), ("unstage", []), ("stage", ["1"]),
                       ("hint", [])]:
        with pytest.raises(CodecError):
            button_press(verb, args)


def test_decoded_is_what_a_press_means_without_a_table() -> None:
    engine = get_engine("rummikub")
    state = engine.new_game(2, seed=42)
    view = engine.view(state, engine.current_seat(state))
    templates = engine.moves(view)
    assert decoded("rummikub", view, templates, HandUI(), Command(DRAW)) == "draw"
    assert decoded("rummikub", view, templates, HandUI(picks=(3,), moving=2), Back(unpick=True)) == HandUI()
    assert decoded("rummikub", view, templates, HandUI(), Typed("draw")) == "draw"
