"""The engines behave exactly as recorded: events, views (public and every human seat's) and AI
choices over seeded tables of every game, played as the table service plays them
(bench/bench_engines.py), hashed per game. A speed-up of an engine must leave its digest as it is;
a change of a game's behaviour on purpose records the new digest (`python -m bench.bench_engines
--runs 1 --tables 60 --moves 120 --seed 15` prints it).

The run is a child process, twice, with two different PYTHONHASHSEEDs: a choice must not depend
on the interpreter's string hashing (set order), or another process — an AI worker, a process
that resumes the table after a crash — would play differently (the Rummy 101 and Three-Thirteen AIs once
broke ties in set order).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The tables share one seeded RNG: when a change to one game's AI ends a match at another move, the
# next table opens at another point of it, so every game's digest moves with it.
RECORDED = {
    "rummikub": "8ebe3bc76b12",  # the table keeps its order across plays (rules/rummikub/table_order.py)
    "rummy101": "d0a32f3a2e1f",
    "rummy500": "e59c2845b62f",
    "canasta": "62f177fddeae",
    "three_thirteen": "d5f23e56e1fe",  # the public pile record (pile_log) joined the views
}

# 60 tables, 120 passes: long enough to reach the rare ties (30 x 30 missed Three-Thirteen's).
CHILD = "import json; from bench.bench_engines import run; print(json.dumps(run(60, 120, 15)[1]))"


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_every_game_plays_as_recorded_whatever_the_string_hashing(hash_seed: str) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == RECORDED
