"""The table's order across turns (rules/rummikub/table_order.py): melds kept or extended keep their
number, a rebuilt meld takes the first free number of its sources, melds of rack tiles and the spare
halves of splits go at the end, and places left over close up."""

from __future__ import annotations

from random import Random

from rules import get_engine
from rules.rummikub.changes import match_melds
from rules.rummikub.table_order import stable_table
from tests.rules.scenario import act, layout, scenario

ENG = get_engine("rummikub")


def ordered(before: str, after: str, added: str) -> list[str]:
    return [" ".join(m["tiles"]) for m in stable_table(layout(before), layout(after), added.split())]


def melds(text: str) -> list[str]:
    return [" ".join(m["tiles"]) for m in layout(text)]


def test_a_new_meld_written_first_still_goes_at_the_end() -> None:
    assert ordered("[r3 r4 r5] [k1 k2 k3]", "[k9 b9 y9] [k1 k2 k3] [r3 r4 r5]", "k9 b9 y9") == melds("[r3 r4 r5] [k1 k2 k3] [k9 b9 y9]")


def test_an_extended_meld_keeps_its_number() -> None:
    assert ordered("[r3 r4 r5] [k1 k2 k3] [b7 k7 y7]", "[k1 k2 k3 k4] [b7 k7 y7 r7] [r3 r4 r5]", "k4 r7") == melds(
        "[r3 r4 r5] [k1 k2 k3 k4] [b7 k7 y7 r7]")


def test_a_broken_up_meld_gives_its_place_to_the_meld_holding_most_of_its_tiles() -> None:
    # 2 and 3 are broken up: 2's place goes to r5 r6 r7 (three of its tiles, against r8 b8 k8's one),
    # 3's to r8 b8 k8 (two of its tiles, against y8 y9 y10's one); y8 y9 y10 goes at the end, after the
    # new meld written before it.
    before = "[b1 b2 b3] [r5 r6 r7 r8] [b8 k8 y8] [k11 k12 k13]"
    after = "[r8 b8 k8] [k11 k12 k13] [y1 y2 y3] [r5 r6 r7] [b1 b2 b3] [y8 y9 y10]"
    assert ordered(before, after, "y1 y2 y3 y9 y10") == melds(
        "[b1 b2 b3] [r5 r6 r7] [r8 b8 k8] [k11 k12 k13] [y1 y2 y3] [y8 y9 y10]")


def test_an_even_split_keeps_the_first_written_half_in_place() -> None:
    assert ordered("[r3 r4 r5 r6 r7 r8] [k1 k2 k3]", "[r3 r4 r5] [k1 k2 k3] [r6 r7 r8]", "") == melds(
        "[r3 r4 r5] [k1 k2 k3] [r6 r7 r8]")


def test_a_split_keeps_the_bigger_share_in_place_and_puts_the_other_half_at_the_end() -> None:
    assert ordered("[r3 r4 r5 r6 r7 r8] [k1 k2 k3]", "[r3 r4 r5] [r5 r6 r7 r8] [k1 k2 k3]", "r5") == melds(
        "[r5 r6 r7 r8] [k1 k2 k3] [r3 r4 r5]")


def test_melds_after_a_merge_close_up_in_their_order() -> None:
    assert ordered("[r1 r2 r3] [r4 r5 r6] [b1 b2 b3] [k5 k6 k7]", "[k5 k6 k7] [b1 b2 b3] [r1 r2 r3 r4 r5 r6 r7]",
                   "r7") == melds("[r1 r2 r3 r4 r5 r6 r7] [b1 b2 b3] [k5 k6 k7]")


def test_a_kept_meld_keeps_its_place_whatever_order_the_play_is_typed_in() -> None:
    before = "[r5 r6 r7 r8] [b8 k8 y8] [b1 b2 b3]"
    typed = ["[b1 b2 b3 b4]", "[r5 r6 r7]", "[r8 b8 k8]", "[y8 y9 y10]", "[k10 k11 k12]"]
    for seed in range(12):
        shuffled = typed[:]
        Random(seed).shuffle(shuffled)
        table = ordered(before, " ".join(shuffled), "b4 y9 y10 k10 k11 k12")
        assert table[2] == "b1 b2 b3 b4" and sorted(table) == sorted(melds(" ".join(typed)))
        assert table[:2] == melds("[r5 r6 r7] [r8 b8 k8]"), "the broken-up melds' places, by their tiles"


def test_the_engine_stores_the_table_in_that_order_and_says_so_in_its_event() -> None:
    state = scenario(table=["r5 r6 r7 r8", "b8 k8 y8", "b1 b2 b3"], racks={0: "y9 y10 b4 k12"},
                     opened=[True, True, True])
    state, events = act(state, 0, "play [y8 y9 y10] [b1 b2 b3 b4] [r8 b8 k8] [r5 r6 r7]")
    assert [" ".join(m["tiles"]) for m in state["table"]] == melds("[r5 r6 r7] [r8 b8 k8] [b1 b2 b3 b4] [y8 y9 y10]")
    (played,) = [e for e in events if e.type == "MeldsPlayed"]
    assert played.data["changes"]["extended"][0]["n"] == 3 and not played.data["changes"]["renumbered"]


def test_over_ai_games_kept_melds_never_move_down_nor_change_order_and_new_melds_come_last() -> None:
    plays = 0
    for seed in range(6):
        state = ENG.new_game(2 + seed % 3, seed=seed)
        rng = Random(seed)
        for _ in range(300):
            seat = ENG.current_seat(state)
            if seat is None:
                break
            before = state["table"]
            state, events = ENG.apply(state, seat, ENG.ai_action(state, seat, rng))
            for e in events:
                if e.type != "MeldsPlayed":
                    continue
                contents = [tuple(sorted(m["tiles"])) for m in state["table"]]
                if len(set(contents)) < len(contents):
                    continue  # two melds alike: either may be taken for the other, the table is the same
                plays += 1
                match, _ = match_melds(before, state["table"], e.data["added"])
                kept = sorted(match.items())
                assert all(j <= i for j, i in kept), (seed, before, state["table"])
                base = [sorted(before[i]["tiles"]) for _, i in kept]
                assert base == [sorted(before[i]["tiles"]) for i in sorted(i for _, i in kept)], "in their order"
                fresh = [m["n"] - 1 for m in e.data["changes"]["new"]]
                assert all(f > j for f in fresh for j, _ in kept), "melds of rack tiles come after them"
    assert plays > 20
