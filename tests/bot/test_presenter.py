"""The presenter (bot/core/presenter): hand controls from the engines' legal moves over seeded
positions of every game, presses turned back into text the engine takes, the stored hand screen,
and the updates an outcome becomes (table, hands, announcements, the turn notice)."""

from __future__ import annotations

from random import Random

import pytest

from bot.core.codec import CodecError, mask_of
from bot.core.models import Outcome
from bot.core.presenter import HandUI, HandUIs, Presenter, hand_controls, press
from bot.core.render import render_events
from bot.core.service import TableService
from rules import IllegalAction, engine_names, get_engine
from storage import SqliteStore, TableRecord
from tests.bot.conftest import ALICE, BOB

STEPS = 120


def _accepts(game: str, state: dict, seat: int, text: str) -> bool:
    engine = get_engine(game)
    try:
        engine.apply(state, seat, engine.parse(text))
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("game", engine_names())
def test_every_control_sends_text_the_engine_parses_and_plain_ones_are_accepted(game: str, seed: int) -> None:
    engine = get_engine(game)
    rng = Random(seed)
    seats = engine.min_seats
    state = engine.new_game(seats, seed=seed)
    checked = 0
    for step in range(STEPS):
        seat = engine.current_seat(state)
        if seat is None:
            if engine.result(state).match_over:
                break
            state = engine.next_round(state)
            continue
        view = engine.view(state, seat)
        templates = engine.moves(view)
        other = (seat + 1) % seats
        waiting = hand_controls(game, engine.view(state, other), other, HandUI(), "en", True)
        assert not waiting.actions and not waiting.items, "off turn a hand offers no move"
        for picks in ((), tuple(rng.sample(range(len(_items(view))), min(3, len(_items(view)))))):
            ui = HandUI(picks=picks)
            c = hand_controls(game, view, seat, ui, "en", True, templates)
            assert c.picks == picks
            for a in c.actions:
                text = press.command(ui, view, templates, a.index, mask_of(list(picks)) if a.with_items else "0",
                                     a.option)
                engine.parse(text)  # every control composes to text the grammar reads
                if not a.with_items:
                    assert _accepts(game, state, seat, text), f"{game}: {a.label!r} -> {text!r} is refused"
                checked += 1
            if c.move_index is not None and not picks:
                chosen = press.start_move(ui, templates)
                for piece in c.pieces[:3]:
                    moving = press.choose_piece(chosen, templates, piece.option)
                    targets = hand_controls(game, view, seat, moving, "en", True, templates).targets
                    assert targets
                    for dest in targets[:3]:
                        engine.parse(press.move_to(templates, c.move_index, piece.option, dest.option))
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
    assert checked


def _items(view: dict) -> list[str]:
    from bot.core.grammar import hand_items

    return hand_items(view)


def test_a_stale_press_is_a_codec_error_not_a_wrong_move() -> None:
    engine = get_engine("rummy500")
    state = engine.new_game(2, seed=1)
    view = engine.view(state, 0)
    templates = engine.moves(view)
    with pytest.raises(CodecError):
        press.command(HandUI(), view, templates, len(templates) + 3, "0", None)
    with pytest.raises(CodecError):
        press.pick(HandUI(), view, [999])
    with pytest.raises(CodecError):
        press.move_to(templates, 0, 0, 0)  # Rummy 500 moves no table item


def test_picks_keep_their_order_and_a_part_changes_only_itself() -> None:
    engine = get_engine("rummikub")
    view = engine.view(engine.new_game(2, seed=3), 0)
    ui = press.pick(HandUI(), view, [4, 1])
    ui = press.pick(ui, view, [1, 4, 7])
    assert ui.picks == (4, 1, 7)
    ui = press.pick_part(ui, view, range(0, 5), [2])
    assert ui.picks == (7, 2)
    with pytest.raises(CodecError):
        press.pick_part(ui, view, range(0, 5), [9])


async def test_the_hand_screen_is_stored_and_survives_a_restart(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "ui.db"))
    await store.open()
    uis = HandUIs(store)
    await uis.put("t1", 2, HandUI(picks=(3, 1), by_number=True, moving=4))
    await store.close()
    store = SqliteStore(str(tmp_path / "ui.db"))
    await store.open()
    again = HandUIs(store)
    assert await again.get("t1", 2) == HandUI(picks=(3, 1), by_number=True, moving=4)
    await again.moved("t1", 2)
    assert await HandUIs(store).get("t1", 2) == HandUI(by_number=True), "a move keeps only the sort order"
    await again.put("t1", 2, HandUI())
    assert "ui:2" not in await store.table_refs("t1"), "the default screen stores nothing"
    await store.close()


async def _lang(_seat: int | None) -> str:
    return "en"


async def _playing(service: TableService) -> TableRecord:
    rec = await service.open_table("rummy500", "test", "chat1", ALICE)
    await service.join(rec.id, BOB)
    await service.add_ai(rec.id, ALICE)
    outcome = await service.start(rec.id, ALICE)
    return outcome.table


async def test_an_outcome_becomes_table_hands_and_a_notice_for_the_next_human(service: TableService, store) -> None:
    rec = await _playing(service)
    presenter = Presenter(HandUIs(store))
    engine = get_engine(rec.game)
    seen_same = seen_passed = 0
    for step in range(40):
        turn = engine.current_seat(rec.state)
        mover = ALICE if rec.seats[turn].user_id == ALICE.user_id else BOB
        text = engine.format(engine.ai_action(rec.state, turn, Random(step)))
        outcome = await service.act(rec.id, mover, text)
        updates = await presenter.outcome(outcome, _lang, prev_turn=turn)
        rec = outcome.table
        assert {h.seat for h in updates.hands} == {s for s, x in enumerate(rec.seats) if x.kind == "human"}
        assert updates.table is not None and "s left" not in updates.table.body, "no countdown: it would need edits"
        if rec.status != "playing":
            break
        now = outcome.public_view["turn"]
        assert updates.table.deadline == rec.deadline and updates.table.turn == now
        if now == turn and all(e.data.get("seat") in (None, turn) for e in outcome.events):
            assert updates.notice is None, "the same player goes on: no new notice"
            seen_same += 1
        else:
            assert updates.notice is not None and updates.notice.seat == now
            assert rec.seats[now].kind == "human", "AI turns are played by the service: the notice is a human's"
            seen_passed += 1
    assert seen_same and seen_passed


async def test_no_notice_for_an_away_player_or_a_restored_table(service: TableService, store) -> None:
    rec = await _playing(service)
    presenter = Presenter(HandUIs(store))
    turn = get_engine(rec.game).current_seat(rec.state)
    away = rec.model_copy(deep=True)
    away.seats[turn].away = True
    outcome = Outcome(away, public_view=get_engine(rec.game).view(rec.state, None))
    assert (await presenter.outcome(outcome, _lang, prev_turn=None)).notice is None
    fresh = Outcome(rec, public_view=get_engine(rec.game).view(rec.state, None))
    assert (await presenter.outcome(fresh, _lang, prev_turn=None)).notice is not None
    assert (await presenter.outcome(fresh, _lang, prev_turn=None, restored=True)).notice is None


async def test_only_the_hands_asked_for_are_built(service: TableService, store) -> None:
    rec = await _playing(service)
    presenter = Presenter(HandUIs(store))
    outcome = Outcome(rec, public_view=get_engine(rec.game).view(rec.state, None))
    humans = {s for s, x in enumerate(rec.seats) if x.kind == "human"}
    assert {h.seat for h in (await presenter.outcome(outcome, _lang)).hands} == humans
    one = min(humans)
    assert [h.seat for h in (await presenter.outcome(outcome, _lang, seats={one})).hands] == [one]
    assert (await presenter.outcome(outcome, _lang, seats=set())).hands == ()


def test_the_page_of_a_hand_screen_is_kept_and_a_move_resets_it() -> None:
    ui = HandUI(picks=(2,), page=3)
    assert HandUI.from_json(ui.to_json()) == ui
    assert HandUI.from_json({"page": -1}).page == 0
    assert ui.after_move().page == 0


async def test_one_viewers_updates_read_as_theirs_with_every_line_in_order(service: TableService, store) -> None:
    """The terminal's use: the table as the viewer's ("You"), the seconds left, and `log` holding every
    line that seat may see (its private ones too), uncut; a chat group's updates keep no log."""
    rec = await _playing(service)
    presenter = Presenter(HandUIs(store))
    engine = get_engine(rec.game)
    for step in range(10):  # on to a move that tells its mover something privately (a card taken)
        turn = engine.current_seat(rec.state)
        mover = ALICE if rec.seats[turn].user_id == ALICE.user_id else BOB
        outcome = await service.act(rec.id, mover, engine.format(engine.ai_action(rec.state, turn, Random(step))))
        rec = outcome.table
        if any(e.seat == turn for e in outcome.events):
            break
    group = await presenter.outcome(outcome, _lang)
    mine = await presenter.outcome(outcome, _lang, seats=(), viewer=turn, now=service.clock.now())
    assert group.log == () and mine.hands == ()
    private = render_events(outcome.table, [e for e in outcome.events if e.seat == turn], turn, "en")
    assert private and set(private) <= set(mine.log), "the viewer's own lines are in the log"
    assert len(mine.log) > len(private), "and the public ones with them"
    assert mine.table is not None and group.table is not None
    assert "You" in mine.table.body and "You" not in group.table.body
    if outcome.table.deadline is not None:
        assert "s left" in mine.table.body and "s left" not in group.table.body
