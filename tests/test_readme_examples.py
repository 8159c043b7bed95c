"""Every command example in the README's "How to play" sections parses with its game's engine, and the
example turns are played in constructed positions: the README cannot promise a command that fails.

Examples are read from the README itself (backticked commands in the command tables, `> ` lines in the
example-turn blocks), so a new example is tested the day it is written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import get_engine
from tests.rules import canasta_scenario as can
from tests.rules import rummy101_scenario as r101
from tests.rules import rummy500_scenario as r500
from tests.rules import scenario as rk
from tests.rules import three_thirteen_scenario as t13

README = Path(__file__).resolve().parent.parent / "README.md"
SECTIONS = {
    "How to play Rummikub": "rummikub",
    "How to play Rummy 101": "rummy101",
    "How to play Rummy 500": "rummy500",
    "How to play Tile Canasta": "canasta",
    "How to play Three-Thirteen": "three_thirteen",
}
VERBS = {
    "rummikub": {"play", "draw", "pass", "new", "add", "move", "split", "reset", "done"},
    "rummy101": {"draw", "joker", "take", "open", "meld", "add", "swap", "discard"},
    "rummy500": {"take", "draw", "lay", "discard", "end", "stop"},
    "canasta": {"draw", "take", "open", "meld", "add", "discard", "joker"},
    "three_thirteen": {"draw", "take", "discard"},
}
# A verb alone is an example only when the command takes no arguments (`open` alone is prose).
WHOLE = {"draw", "pass", "reset", "done", "joker", "end", "stop"}


def _section_examples(body: str, game: str) -> list[str]:
    found: list[str] = []
    in_block = False
    for line in body.splitlines():
        if line.startswith("```"):
            in_block = not in_block
        elif in_block and line.startswith("> "):
            found.append(re.split(r"\s{2,}", line[2:].strip())[0])  # the comment after two spaces
        elif line.startswith("|"):
            found += [s.replace("\\|", "|") for s in re.findall(r"`((?:[^`\\]|\\.)+)`", line)]
    examples = []
    for text in found:
        words = text.split()
        if not words or words[0].lower() not in VERBS[game] or "<" in text or "…" in text:
            continue  # a template (`add <meld#> <tiles>`) or an option value, not a command
        if len(words) == 1 and words[0] not in WHOLE and not (game == "three_thirteen" and words[0] == "take"):
            continue
        examples.append(text)
    return list(dict.fromkeys(examples))


def readme_examples() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for body in re.split(r"^## ", README.read_text(encoding="utf-8"), flags=re.M):
        title = body.splitlines()[0] if body else ""
        game = next((g for prefix, g in SECTIONS.items() if title.startswith(prefix)), None)
        if game:
            out[game] = _section_examples(body, game)
    return out


EXAMPLES = readme_examples()
CASES = [(game, text) for game, texts in EXAMPLES.items() for text in texts]


def test_the_examples_are_found() -> None:
    """Guards the reader itself: a README rewrite that hides the examples from it fails here."""
    assert set(EXAMPLES) == set(SECTIONS.values())
    counts = {g: len(EXAMPLES[g]) for g in ("rummikub", "rummy101", "rummy500", "canasta")}
    assert all(counts[g] >= n for g, n in [("rummikub", 6), ("rummy101", 10), ("rummy500", 8), ("canasta", 8)]), counts
    assert "meld r5 b5 k5 | [r2 b2 j]" in EXAMPLES["canasta"]  # the mixed notation
    assert "take open r10 r11 r12 | k11 b11 y11 | …" not in EXAMPLES["rummy101"]  # elided: not a command
    assert "discard 10H" in EXAMPLES["three_thirteen"]


@pytest.mark.parametrize(("game", "text"), CASES, ids=[f"{g}: {t}" for g, t in CASES])
def test_every_readme_example_parses_and_round_trips(game: str, text: str) -> None:
    engine = get_engine(game)
    action = engine.parse(text)
    assert engine.parse(engine.format(action)) == action


# The notation sentences: the README's two spellings of the same melds read the same.
NOTATION = [
    ("rummikub", "play r10 r11 r12 | k9 b9 y9", "play [r10 r11 r12] [k9 b9 y9]"),
    ("rummy101", "meld r3 r4 r5 | k9 j", "meld [r3 r4 r5] (k9 j)"),
    ("canasta", "open r8 b8 k8 | r10 b10 j", "open [r8 b8 k8] [r10 b10 j]"),
]


@pytest.mark.parametrize(("game", "bars", "brackets"), NOTATION)
def test_the_readme_notation_sentences_hold(game: str, bars: str, brackets: str) -> None:
    text = README.read_text(encoding="utf-8")
    assert brackets.split(" ", 1)[1] in text  # the README still writes it so
    engine = get_engine(game)
    assert engine.parse(bars) == engine.parse(brackets)


# ---- the example turns, played -----------------------------------------------------------------------


def test_rummikub_example_turn() -> None:
    state = rk.scenario(racks={0: "r10 r11 r12 k9 b9 y9 r13 k1"}, table=[])
    state, events = rk.act(state, 0, "play r10 r11 r12 | k9 b9 y9")  # your opening: 33 + 27 = 60
    assert state["opened"][0] and [m["tiles"] for m in state["table"]] == [["r10", "r11", "r12"], ["b9", "k9", "y9"]]
    state, _ = rk.act(state, 1, "draw")  # "next turn"
    state, _ = rk.act(state, 2, "draw")
    state, _ = rk.act(state, 0, "add 1 r13")
    assert state["draft"]["table"][0]["tiles"] == ["r10", "r11", "r12", "r13"]
    state, _ = rk.act(state, 0, "move r12 1 new")
    assert [m["tiles"] for m in state["draft"]["table"]] == [["r10", "r11", "r13"], ["b9", "k9", "y9"], ["r12"]]
    state, _ = rk.act(state, 0, "reset")
    assert state["draft"] is None
    state, _ = rk.act(state, 0, "add 1 r13")
    state, events = rk.act(state, 0, "done")
    assert state["table"][0]["tiles"] == ["r10", "r11", "r12", "r13"]
    assert "r13" not in state["racks"][0]


def test_rummy101_examples_in_a_position() -> None:
    # The series opening: 33 + 33 + 42 = 108, at least 101.
    state = r101.scenario(hands={0: "r10 r11 r12 k11 b11 y11 b9 b10 b11 b12 k2 y5"}, status={0: "unopened"}, turn=0)
    state, _ = r101.act(state, 0, "open r10 r11 r12 | k11 b11 y11 | b9 b10 b11 b12")
    assert state["status"][0] == "series"
    state = r101.scenario(hands={0: "r5 r5 b7 b7 k9 j y1 y1 r13 r13 k2 b4"}, status={0: "unopened"}, turn=0)
    state, _ = r101.act(state, 0, "open r5 r5 | b7 b7 | k9 j | y1 y1 | r13 r13")
    assert state["status"][0] == "pairs"
    state, _ = r101.act(state, 0, "discard k2")
    opened = {0: "series", 1: "series"}
    state = r101.scenario(hands={0: "r6 r7 r3 r4 r5 k1 y12"}, discard="b1 r8", status=opened, turn=0, phase="draw",
                          table=[("r9 r10 r11", 1)])
    r101.act(state, 0, "take meld r6 r7 r8")
    state = r101.scenario(hands={0: "r3 r4 r5 r6 k1 y12"}, status=opened, turn=0, table=[("r7 r8 r9", 1)])
    state, _ = r101.act(state, 0, "meld r3 r4 r5")
    state, _ = r101.act(state, 0, "add 1 r6")  # the README's `add 3 r6`, on this table's meld 1


def test_rummy500_market_take_example() -> None:
    state = r500.scenario(hands={0: "9D 10D KS KC KH 2C"}, market="4C 7D 8D 3H")
    state, _ = r500.act(state, 0, "take market 7D leave 3H; lay 7D 8D 9D 10D; lay KS KC KH")
    assert state["market"] == ["4C", "3H"] and sorted(state["hands"][0]) == ["2C"]
    state, _ = r500.act(state, 0, "end")
    state = r500.scenario(hands={0: "3S 3D 9C 4H"}, market="5C 3H")
    r500.act(state, 0, "take #2; lay 3H 3S 3D")


def test_canasta_example_turn() -> None:
    # Team A unopened at 1,600 (90 needed); the pile's top is b13 and a k1 comes with it.
    state = can.scenario(hands={0: "r13 k13 r1 b1 y1 b3 y9"}, pile="k1 y5 b13", opened=(False, True),
                         totals=(1600, 0), turn=0, phase="draw")
    state, _ = can.act(state, 0, "take with r13 k13 | r1 b1 y1")
    assert state["opened"][0]
    state, _ = can.act(state, 0, "add 1 k1")
    state, _ = can.act(state, 0, "discard b3")
    assert state["pile"][-1] == "b3"


def test_three_thirteen_draw_and_discard() -> None:
    state = t13.scenario(hands={0: "10H 4C 7D"}, turn=0)
    state, _ = t13.act(state, 0, "draw")
    state, _ = t13.act(state, 0, "discard 10H")
