"""The views an outcome carries (issue 15, item 2): built once per (outcome, seat), never stale.

Seeded matches of every game go through the table service with human seats (and one AI seat, so
automatic play runs between human turns); the humans' moves come from the game's AI, and in
Rummikub some turns go through the draft first. For every outcome: the public view and each human
seat's view equal a fresh `engine.view` worked out with every view cache cleared (so a cache that
kept an old answer, or one seat's answer for another, would show), rendering them changes nothing
(the seats' views share the public part's lists), and the engine was asked for the public part
once and for each human seat's part once.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from bot.core import render
from bot.core.clock import FakeClock
from bot.core.models import Outcome, Player
from bot.core.service import TableService
from rules import Engine, IllegalAction, State, engine_names, get_engine
from rules.canasta.ai import best_opening as canasta_best_opening
from rules.canasta.melds import sorted_tiles
from rules.core import memo
from rules.core.engine import MatchEngine
from rules.core.memo import clear_view_caches
from rules.core.state import clone
from rules.core.tiles import number_key
from rules.core.tiles import sorted_tiles as rk_sorted
from rules.rummikub.ai import best_opening_value
from rules.rummikub.melds import analyse
from storage import MemoryStore

HUMANS = {"rummikub": 3, "rummy101": 2, "rummy500": 2, "canasta": 3, "three_thirteen": 3}
OPTIONS: dict[str, dict[str, Any]] = {"rummy101": {"match_rounds": 1}, "canasta": {"match_length": "1 round"},
                                      "three_thirteen": {"rounds": 4}, "rummy500": {"target_score": 100}}
SEEDS = range(3)
MAX_ACTIONS = 160  # per match: enough for several rounds' worth of outcomes, kept short for the suite


class CountingService(TableService):
    """Counts the engine's view work inside `_with_views` and checks it after every outcome."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: Counter[object] = Counter()
        self.counting = False
        self.outcomes = 0

    def _with_views(self, outcome: Outcome) -> Outcome:
        self.calls.clear()
        self.counting = True
        try:
            outcome = super()._with_views(outcome)
        finally:
            self.counting = False
        if outcome.table.state is not None:
            humans = [i for i, s in enumerate(outcome.table.seats) if s.kind == "human"]
            assert self.calls == Counter({"public": 1, **{seat: 1 for seat in humans}}), self.calls
            self.outcomes += 1
        return outcome


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> CountingService:
    service = CountingService(MemoryStore(), FakeClock(), new_seed=lambda: 0)
    for name in engine_names():
        cls = type(get_engine(name))
        public_view, seat_view = cls.public_view, cls.seat_view

        def counted_public(self: MatchEngine, state: State, _f=public_view) -> dict[str, Any]:
            if service.counting:
                service.calls["public"] += 1
            return _f(self, state)

        def counted_seat(self: MatchEngine, state: State, seat: int, public: dict[str, Any],
                         _f=seat_view) -> dict[str, Any]:
            if service.counting:
                service.calls[seat] += 1
            return _f(self, state, seat, public)

        monkeypatch.setattr(cls, "public_view", counted_public)
        monkeypatch.setattr(cls, "seat_view", counted_seat)
    return service


def cold_view(engine: Engine, state: State, seat: int | None) -> dict[str, Any]:
    clear_view_caches()
    return engine.view(state, seat)


def check_uncached_parts(engine: Engine, state: State, seat: int, view: dict[str, Any]) -> None:
    """The cached parts against the searches themselves, called directly: a cache key that dropped
    part of the content would give the same wrong answer cold and warm, but not this one."""
    if engine.name == "rummikub":
        rack = state["racks"][seat]
        assert view["best_opening"] == (None if state["opened"][seat] else best_opening_value(list(rack)))
        assert (view["rack"], view["rack_by_number"]) == (rk_sorted(rack), sorted(rack, key=number_key))
        for meld, shown in zip(state["table"], view["table"], strict=True):
            info = analyse(meld["tiles"], meld.get("prefix"))
            assert (shown["type"], shown["value"]) == (info.type, info.value)
    elif engine.name == "canasta":
        team = view["team"]
        expected = None if state["opened"][team] else canasta_best_opening(sorted_tiles(state["hands"][seat]))
        assert view["best_opening"] == expected


def check_outcome(engine: Engine, outcome: Outcome) -> None:
    rec = outcome.table
    state = rec.state
    assert state is not None
    humans = [i for i, s in enumerate(rec.seats) if s.kind == "human"]
    assert sorted(outcome.private_views) == humans
    before = clone(state)
    assert outcome.public_view == cold_view(engine, state, None)
    for seat, view in outcome.private_views.items():
        assert view == cold_view(engine, state, seat), f"seat {seat}'s view is stale"
        check_uncached_parts(engine, state, seat, view)
    # The seats' views share the public part: rendering one must not change another.
    render.render_table(rec, outcome.public_view)
    for seat, view in outcome.private_views.items():
        render.render_table(rec, view, viewer=seat)
        render.render_hand(rec, view)
        render.render_hand(rec, view, by_number=True)
    assert outcome.public_view == cold_view(engine, state, None)
    for seat, view in outcome.private_views.items():
        assert view == cold_view(engine, state, seat)
    assert state == before, "building views changed the state"


def draft_step(engine: Engine, state: State, seat: int, rng: Random) -> str | None:
    """Now and then a Rummikub player starts a draft before moving (the draft has its own view)."""
    if engine.name != "rummikub" or rng.random() > 0.3:
        return None
    rack = state["racks"][seat]
    return "new " + " ".join(rng.sample(rack, min(3, len(rack))))


async def play_match(service: CountingService, game: str, seed: int) -> int:
    engine = get_engine(game)
    players = [Player("test", str(i), f"P{i}") for i in range(HUMANS[game])]
    rec = await service.open_table(game, "test", f"{game}-{seed}", players[0], options=OPTIONS.get(game), seed=seed)
    for p in players[1:]:
        await service.join(rec.id, p)
    await service.add_ai(rec.id, players[0])
    outcome = await service.start(rec.id, players[0])
    check_outcome(engine, outcome)
    rng = Random(seed)
    actions = 0
    while outcome.table.status == "playing" and actions < MAX_ACTIONS:
        state = outcome.table.state
        assert state is not None
        seat = engine.current_seat(state)
        assert seat is not None and outcome.table.seats[seat].kind == "human"
        draft = draft_step(engine, state, seat, rng)
        if draft is not None:
            try:
                outcome = await service.act(rec.id, players[seat], draft)
            except IllegalAction:
                pass  # a draft the rules refuse (the rack changed nothing): play on
            else:
                check_outcome(engine, outcome)
                state = outcome.table.state
                assert state is not None
        outcome = await service.act(rec.id, players[seat], engine.ai_action(state, seat, rng))
        check_outcome(engine, outcome)
        actions += 1
    return actions


@pytest.mark.parametrize("game", engine_names())
async def test_every_view_is_fresh_and_built_once(counted: CountingService, game: str) -> None:
    await counted.store.open()
    total = 0
    for seed in SEEDS:
        total += await play_match(counted, game, seed)
    assert total >= len(SEEDS) * 10  # the matches really were played
    assert counted.outcomes > total  # every act and every start was checked


def test_view_caches_are_bounded() -> None:
    # Content-keyed and bounded: memory stays flat however many tables come and go.
    for name in engine_names():
        get_engine(name)  # the engines' modules register their caches on import
    infos = memo.view_cache_info()
    assert infos, "no view cache registered"
    for name, info in infos.items():
        assert info.maxsize is not None and info.maxsize > 0, name
