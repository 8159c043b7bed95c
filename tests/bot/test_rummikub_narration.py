"""Rummikub moves you can follow: what a play changed on the table (new melds, tiles added to meld n,
melds rearranged before → after, a joker won back), each draft step as just the melds it changed and
the rack, and `move <tile> <n> rack` taking back a tile placed this turn (never a table tile, C2)."""

from __future__ import annotations

from random import Random

import pytest

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.render import render_error, render_events
from bot.core.service import TableService
from rules import IllegalAction, get_engine
from rules.rummikub.actions import ToRack
from rules.rummikub.changes import table_changes
from storage import SqliteStore
from tests.bot.test_render import record
from tests.rules.scenario import act, layout, rejected, scenario

ENG = get_engine("rummikub")


def changes_of(before: str, after: str, added: str) -> dict:
    return table_changes(layout(before), layout(after), added.split())


# ---- the table diff (rules/rummikub/changes.py) ---------------------------------------------------


def test_a_new_meld_and_an_extension_keep_their_numbers() -> None:
    c = changes_of("[r3 r4 r5]", "[r3 r4 r5 r6] [k9 b9 y9]", "r6 k9 b9 y9")
    assert c["new"] == [{"n": 2, "tiles": ["b9", "k9", "y9"], "prefix": None}]
    assert c["extended"] == [{"n": 1, "was": 1, "tiles": ["r3", "r4", "r5", "r6"], "prefix": None, "added": ["r6"]}]
    assert c["rearranged"] is None and c["jokers"] == [] and not c["renumbered"]


def test_a_renumbered_table_is_followed_by_the_tiles_not_the_numbers() -> None:
    c = changes_of("[r3 r4 r5] [k1 k2 k3]", "[k9 b9 y9] [k1 k2 k3] [r3 r4 r5]", "k9 b9 y9")
    assert [m["n"] for m in c["new"]] == [1]
    assert c["extended"] == [] and c["rearranged"] is None
    assert c["renumbered"]


def test_a_rearrangement_names_the_melds_before_and_after() -> None:
    c = changes_of("[r5 r6 r7 r8] [b8 k8 y8]", "[r5 r6 r7] [r8 b8 k8] [y8 y9 y10]", "y9 y10")
    assert c["new"] == [] and c["extended"] == []
    moved = c["rearranged"]
    assert [m["tiles"] for m in moved["before"]] == [["r5", "r6", "r7", "r8"], ["b8", "k8", "y8"]]
    assert [m["tiles"] for m in moved["after"]] == [["r5", "r6", "r7"], ["r8", "b8", "k8"], ["y8", "y9", "y10"]]
    assert moved["from_rack"] == ["y9", "y10"]


def test_a_joker_won_back_is_named_with_the_tile_that_replaced_it() -> None:  # RK-52
    c = changes_of("[r5 j r7]", "[r5 r6 r7] [k2 k3 j]", "r6 k2 k3")
    assert c["jokers"] == [{"was": 1, "n": 1, "tile": "r6"}]
    assert [m["tiles"] for m in c["rearranged"]["after"]] == [["r5", "r6", "r7"], ["k2", "k3", "j"]]


# ---- the narration in the chat and the terminal (the same rendered lines) --------------------------


def narrated(state: dict, play: str, lang: str) -> list[str]:
    state, events = act(state, 0, play)
    (line,) = render_events(record(state), [e for e in events if e.type == "MeldsPlayed"], 1, lang)
    return line.splitlines()


def test_the_play_event_says_what_changed_in_english_and_russian() -> None:
    """The table keeps its order (rules/rummikub/table_order.py): the extended meld stays meld 3 and
    the rebuilt melds take their sources' numbers, whatever order the play was typed in."""
    state = scenario(table=["r5 r6 r7 r8", "b8 k8 y8", "b1 b2 b3"], racks={0: "y9 y10 b4 k12"},
                     opened=[True, True, True])
    play = "play [b1 b2 b3 b4] [r5 r6 r7] [r8 b8 k8] [y8 y9 y10]"
    assert narrated(state, play, "en") == [
        "P1 played 3 tiles: b4 y9 y10.",
        "  b4 added to meld 3: b1 b2 b3 b4",
        "  rearranged, with y9 y10 from the rack: 1. r5 r6 r7 r8 · 2. b8 k8 y8 → 1. r5 r6 r7 · 2. r8 b8 k8 · 4. y8 y9 y10",
    ]
    ru = narrated(state, play, "ru")
    assert "  b4 — в комбинацию 3: b1 b2 b3 b4" in ru
    assert "перестроено, с фишками со стойки y9 y10: 1. r5 r6 r7 r8" in ru[2]


def test_a_meld_after_two_merged_melds_moves_up_and_says_its_old_number() -> None:
    state = scenario(table=["r1 r2 r3", "r4 r5 r6", "b1 b2 b3"], racks={0: "r7 b4 k12"}, opened=[True, True, True])
    play = "play [b1 b2 b3 b4] [r1 r2 r3 r4 r5 r6 r7]"
    assert narrated(state, play, "en")[1:] == [
        "  b4 added to meld 2 (it was meld 3): b1 b2 b3 b4",
        "  rearranged, with r7 from the rack: 1. r1 r2 r3 · 2. r4 r5 r6 → 1. r1 r2 r3 r4 r5 r6 r7",
    ]
    assert "  b4 — в комбинацию 2 (раньше это была 3): b1 b2 b3 b4" in narrated(state, play, "ru")


def test_every_ai_turn_that_plays_is_narrated_meld_by_meld() -> None:
    """AI seats play whole layouts; each play still reads as its changes."""
    state = ENG.new_game(3, seed=11)
    rng = Random(5)
    narrated = 0
    for _ in range(200):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        before = [list(m["tiles"]) for m in state["table"]]
        state, events = ENG.apply(state, seat, ENG.ai_action(state, seat, rng))
        for event in events:
            if event.type != "MeldsPlayed":
                continue
            narrated += 1
            lines = render_events(record(state), [event], None, "en")[0].splitlines()
            assert len(lines) >= 2  # the headline and at least one change
            c = event.data["changes"]
            # Every tile played shows up in exactly one change.
            shown = [t for m in c["new"] for t in m["tiles"]] + [t for m in c["extended"] for t in m["added"]]
            shown += c["rearranged"]["from_rack"] if c["rearranged"] else []
            assert sorted(shown) == sorted(event.data["added"])
            # Every old meld is either kept (as it was or extended) or named among the rearranged.
            broken = len(c["rearranged"]["before"]) if c["rearranged"] else 0
            assert len(before) - broken <= len(state["table"]) - len(c["new"]) - (
                len(c["rearranged"]["after"]) if c["rearranged"] else 0)
    assert narrated >= 3


# ---- draft steps: only what changed, and the rack ----------------------------------------------------


def draft_note(state: dict, command: str, lang: str = "en") -> tuple[dict, str]:
    state, events = act(state, 0, command)
    assert [e.type for e in events] == ["DraftChanged"]
    (line,) = render_events(record(state), events, 0, lang)
    return state, line


def test_a_draft_step_shows_the_changed_meld_and_the_rack_not_the_whole_table() -> None:
    table = [f"{c}{n} {c}{n + 1} {c}{n + 2}" for c in "rbky" for n in (1, 5)]  # eight melds
    state = scenario(table=table, racks={0: "r4 k11 k12 k13"}, opened=[True, True, True])
    state, line = draft_note(state, "add 1 r4")
    assert line.splitlines() == ["Your draft (table shows all of it):", "  1. r1 r2 r3 r4   ✓ 10",
                                 "Left on your rack: k11 k12 k13"]
    state, line = draft_note(state, "new k11 k12 k13")
    assert line.splitlines()[1:] == ["  9. k11 k12 k13   ✓ 36", "Left on your rack: —"]
    state, line = draft_note(state, "move r1 1 new", "ru")
    assert line.splitlines() == ["Ваш черновик (table покажет его целиком):", "  1. r2 r3 r4   ✓ 9",
                                 " 10. r1   ✗ (в комбинации нужно не меньше 3 фишек)", "Осталось на стойке: —"]
    state, line = draft_note(state, "reset")
    assert line.splitlines() == ["Draft reset: the table is as it was when your turn began.",
                                 "Left on your rack: r4  k11 k12 k13"]


def test_before_opening_a_draft_step_counts_towards_the_opening() -> None:
    state = scenario(racks={0: "r10 r11 r12 k1"}, table=[])
    _, line = draft_note(state, "new r10 r11 r12")
    assert line.splitlines()[-1] == "New melds so far: 33 of 30 needed to open."


def test_a_move_that_empties_a_meld_says_the_last_number_is_gone() -> None:
    state = scenario(table=["r1 r2 r3", "k5 k6 k7"], racks={0: "y9"}, opened=[True, True, True])
    state, _ = act(state, 0, "split 1 1")  # draft: [r1] [k5 k6 k7] [r2 r3]
    state, line = draft_note(state, "move r1 1 3")  # meld 1 empties: [k5 k6 k7] [r1 r2 r3]
    assert line.splitlines()[1:] == ["  1. k5 k6 k7   ✓ 18", "  2. r1 r2 r3   ✓ 6", "  3. —", "Left on your rack: y9"]


# ---- move <tile> <n> rack ----------------------------------------------------------------------------


def test_a_tile_placed_this_turn_goes_back_to_the_rack() -> None:
    state = scenario(table=["r1 r2 r3"], racks={0: "r4 r5 b9"}, opened=[True, True, True])
    assert ENG.parse("move r4 1 rack") == ToRack(tile="r4", src=1)
    assert ENG.format(ToRack(tile="r4", src=1)) == "move r4 1 rack"
    state, _ = act(state, 0, "add 1 r4 r5")
    state, line = draft_note(state, "move r5 1 rack")
    assert line.splitlines()[1:] == ["  1. r1 r2 r3 r4   ✓ 10", "Left on your rack: r5  b9"]
    assert sorted(state["draft"]["rack"]) == ["b9", "r5"]
    state, events = act(state, 0, "done")
    assert [m["tiles"] for m in state["table"]] == [["r1", "r2", "r3", "r4"]]
    assert sorted(state["racks"][0]) == ["b9", "r5"]


def test_a_table_tile_never_goes_back_to_the_rack() -> None:  # C2: nothing returns to a rack
    state = scenario(table=["r1 r2 r3"], racks={0: "r4 b9"}, opened=[True, True, True])
    err = rejected(state, 0, "move r1 1 rack", "E_TILE_REMOVED")
    assert err.params["tiles"] == ["r1"]
    assert render_error(err, "en", "rummikub").startswith(
        "r1 was on the table when your turn began, and table tiles stay on the table. Only a tile you placed"
    )
    assert "фишки со стола остаются на столе" in render_error(err, "ru", "rummikub")
    # A second copy: the one from the rack may go back, the table's copy may not.
    state = scenario(table=["r1 r2 r3"], racks={0: "r1 b9"}, opened=[True, True, True])
    state, _ = act(state, 0, "move r1 1 new")  # the table's r1 in a meld of its own
    state, _ = act(state, 0, "add 2 r1")
    state, _ = act(state, 0, "move r1 2 rack")
    rejected(state, 0, "move r1 2 rack", "E_TILE_REMOVED")


@pytest.mark.parametrize("text", ["move r4 x rack", "move zz 1 rack", "move r4 1 racks"])
def test_a_malformed_move_to_the_rack_is_a_parse_error(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        ENG.parse(text)
    assert info.value.code == "E_PARSE"


async def test_the_terminal_prints_a_draft_step_as_its_note_and_the_whole_table_on_table(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    lines: list[str] = []

    async def read() -> str | None:
        return lines.pop(0) if lines else None

    console = ConsoleTable(TableService(store, FakeClock()), read, out.append)
    rec = await console.open_or_resume("rummikub", ai=1, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None
    tile, n = ENG.view(rec.state, 0)["rack"][0], len(rec.state["table"]) + 1
    lines += [f"new {tile}", "table", "quit"]
    await console.run(rec)
    at = next(i for i, text in enumerate(out) if text.startswith("Your draft (table shows all of it):"))
    assert out[at].splitlines()[1] == f"{n:>3}. {tile}   ✗ (a meld needs at least 3 tiles)"
    # No table reprinted under the note: the one table after it is the answer to `table`, with the draft.
    assert sum("Players:" in text for text in out[at:]) == 1
    assert "Players:" in out[at + 1] and "Your draft (done submits it" in out[at + 2]
    await store.close()
