"""A restart's views (issue 15: resume of 1 000 tables): `resume_all` builds no view; the restored
render builds those it shows, once, and renders exactly what the views built at resume rendered,
each view equal to the engine's own for that seat (nothing of another seat's hand in it)."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from bot.core.models import Outcome
from bot.core.presenter import HandUIs, Presenter
from bot.core.service import TableService
from rules import State, engine_names, get_engine
from rules.core.engine import MatchEngine
from storage import Store
from tests.bot.conftest import ALICE, BOB, CAROL


async def _lang(_seat: int | None) -> str:
    return "en"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[object]:
    """The engines' view work, counted: "public" parts and each seat's part."""
    counted: Counter[object] = Counter()
    for name in engine_names():
        cls = type(get_engine(name))
        public_view, seat_view = cls.public_view, cls.seat_view

        def public(self: MatchEngine, state: State, _f=public_view) -> dict[str, Any]:
            counted["public"] += 1
            return _f(self, state)

        def seat(self: MatchEngine, state: State, s: int, pub: dict[str, Any], _f=seat_view) -> dict[str, Any]:
            counted[s] += 1
            return _f(self, state, s, pub)

        monkeypatch.setattr(cls, "public_view", public)
        monkeypatch.setattr(cls, "seat_view", seat)
    return counted


async def _tables(service: TableService) -> list[str]:
    """A table of every game in play, three humans (Canasta: and an AI), a few moves in."""
    ids = []
    for i, game in enumerate(engine_names()):
        rec = await service.open_table(game, "test", f"chat{i}", ALICE, options={"turn_timer_s": 60}, seed=i)
        for person in (BOB, CAROL):
            await service.join(rec.id, person)
        if game == "canasta":
            await service.add_ai(rec.id, ALICE)
        rec = (await service.start(rec.id, ALICE)).table
        engine = get_engine(game)
        for step in range(3):
            assert rec.state is not None
            turn = engine.current_seat(rec.state)
            if turn is None or rec.seats[turn].kind != "human":
                break
            person = next(p for p in (ALICE, BOB, CAROL) if p.user_id == rec.seats[turn].user_id)
            move = engine.format(engine.ai_action(rec.state, turn, Random(step)))
            rec = (await service.act(rec.id, person, move)).table
        ids.append(rec.id)
    return ids


def _restarted(store: Store, service: TableService) -> TableService:
    return TableService(store, service.clock)


async def test_resume_all_builds_no_view_and_the_restored_render_is_the_same(
    service: TableService, store: Store, calls: Counter[object]
) -> None:
    ids = await _tables(service)
    restarted = _restarted(store, service)
    calls.clear()
    outcomes = await restarted.resume_all()
    assert sorted(o.table.id for o in outcomes) == sorted(ids)
    assert not calls, "no view is built at resume"
    assert all(o.public_view is None and not o.private_views for o in outcomes)

    presenter = Presenter(HandUIs(store))
    for outcome in outcomes:
        rec = outcome.table
        assert rec.state is not None
        humans = [s for s, x in enumerate(rec.seats) if x.kind == "human"]
        calls.clear()
        later = await presenter.outcome(outcome, _lang, restored=True)
        assert calls == Counter({"public": 1, **{seat: 1 for seat in humans}}), (rec.game, calls)
        # As resume_all rendered before: every view built with the outcome.
        eager = restarted._with_views(Outcome(table=rec))
        assert later == await presenter.outcome(eager, _lang, restored=True), rec.game
        engine = get_engine(rec.game)
        assert outcome.public_view == engine.view(rec.state, None)
        assert sorted(outcome.private_views) == humans
        for seat, view in outcome.private_views.items():
            assert view == engine.view(rec.state, seat), (rec.game, seat)


async def test_a_restored_render_builds_the_hands_it_shows_and_each_view_once(
    service: TableService, store: Store, calls: Counter[object]
) -> None:
    await _tables(service)
    outcomes = await _restarted(store, service).resume_all()
    presenter = Presenter(HandUIs(store))
    for outcome in outcomes:
        calls.clear()
        shown = await presenter.outcome(outcome, _lang, restored=True, seats={1})  # Discord: the DM hands only
        assert [h.seat for h in shown.hands] == [1]
        assert calls == Counter({"public": 1, 1: 1}), (outcome.table.game, calls)
        assert sorted(outcome.private_views) == [1]
        calls.clear()
        again = await presenter.outcome(outcome, _lang, restored=True)  # every hand: only the others are new
        assert {h.seat for h in again.hands} == {0, 1, 2}
        assert 1 not in calls and calls[0] == calls[2] == 1, (outcome.table.game, calls)


async def test_a_restored_table_takes_moves_at_once_and_still_renders_as_resumed(
    service: TableService, store: Store
) -> None:
    table = (await _tables(service))[0]
    restarted = _restarted(store, service)
    outcome = next(o for o in await restarted.resume_all() if o.table.id == table)
    rec = outcome.table
    assert rec.state is not None
    engine = get_engine(rec.game)
    turn = engine.current_seat(rec.state)
    assert turn is not None
    person = next(p for p in (ALICE, BOB, CAROL) if p.user_id == rec.seats[turn].user_id)
    moved = await restarted.act(table, person, engine.format(engine.ai_action(rec.state, turn, Random(9))))
    assert moved.table.version > rec.version
    # The restored render, sent after that move, is still the table as it was resumed (the move's
    # own outcome renders the newer one).
    presenter = Presenter(HandUIs(store))
    updates = await presenter.outcome(outcome, _lang, restored=True)
    assert updates.table is not None and updates.table.table.version == rec.version
    assert outcome.public_view == engine.view(rec.state, None)
    assert outcome.private_views[turn] == engine.view(rec.state, turn)
