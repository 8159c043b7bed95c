"""`stage_report` (issue 25) says what `apply` would say of the staged batch: over seeded deals and
many batches (the search's own melds, pairs, random groups), a batch the report finds a problem in
is refused by `apply` with that very reason code (and meld reason), and a batch it finds ready is
accepted — or refused only for what the report leaves to `apply` (the hand floor)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.core.grammar import staging_template
from rules import IllegalAction, get_engine
from rules.canasta.ai import plan_opening
from rules.core.moves import compose
from rules.rummy101.search import best_melds, pairs_in

LEFT_TO_APPLY = {"E_HAND_FLOOR"}


def candidate_groups(game: str, hand: list[str], rng: Random) -> list[list[str]]:
    """A batch to stage: some of the search's melds, perhaps with a random group mixed in."""
    if game == "rummy101":
        found = [list(m) for m in best_melds(hand)[1]] if rng.random() < 0.6 else [list(p) for p in pairs_in(hand)]
        found = [[t.split("=")[0] for t in m] for m in found]  # picks are hand items: a joker is `j`
    else:
        plan = plan_opening(hand, None)
        found = [list(m) for m in plan[0]] if plan else []
    rng.shuffle(found)
    groups = found[:rng.randint(0, len(found))]
    rest = list(hand)
    for g in groups:
        for t in g:
            rest.remove(t)
    if rest and (not groups or rng.random() < 0.4):
        rng.shuffle(rest)
        groups.append(rest[:rng.randint(1, min(4, len(rest)))])
    return groups


def positions(game: str, seed: int) -> list[tuple[dict[str, Any], int]]:
    """States where the seat on turn could stage (some template with a `melds` slot is offered)."""
    engine = get_engine(game)
    state = engine.new_game(4 if game == "canasta" else 2, seed=seed)
    out = []
    for step in range(160):
        seat = engine.current_seat(state)
        if seat is None:
            break
        if staging_template(engine.moves(engine.view(state, seat))) is not None:
            out.append((state, seat))
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(step), "easy"))
    return out


@pytest.mark.parametrize("game", ["rummy101", "canasta"])
def test_the_report_agrees_with_apply(game: str) -> None:
    engine = get_engine(game)
    rng = Random(5)
    seen: dict[str, int] = {}
    for seed in range(6):
        for state, seat in positions(game, seed)[::3]:
            view = engine.view(state, seat)
            index, tpl = staging_template(engine.moves(view))  # type: ignore[misc]
            slot = next(s for s in tpl.open_slots() if s.kind == "melds")
            for _ in range(3):
                groups = candidate_groups(game, list(view["hand"]), rng)
                if not groups:
                    continue
                judged = [list(g) for g in groups]
                judged[-1] += slot.join  # as the presenter reports it: the take's top joins the last meld
                report = engine.stage_report(view, judged)
                assert len(report.melds) == len(groups)
                try:
                    engine.apply(state, seat, engine.parse(compose(tpl, [groups])))
                    code = None
                except IllegalAction as err:
                    code, params = err.code, err.params
                seen[code or "accepted"] = seen.get(code or "accepted", 0) + 1
                if report.problem is not None:
                    assert code == report.problem, (groups, report)
                    if code == "E_INVALID_MELD":
                        assert params["reason"] == report.params["reason"]
                else:
                    assert all(m.valid for m in report.melds)
                    assert code is None or code in LEFT_TO_APPLY, (groups, code, report)
    assert seen.get("accepted") and len(seen) >= 3, seen  # both verdicts, several reasons, were met
