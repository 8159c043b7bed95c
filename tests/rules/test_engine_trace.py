"""The engines behave exactly as recorded: events, views (public and every human seat's) and AI
choices over seeded tables of every game, played as the table service plays them
(bench/bench_engines.py), hashed per game. A speed-up of an engine must leave its digest as it is;
a change of a game's behaviour on purpose records the new digest (`python -m bench.bench_engines
--runs 1 --tables 30 --moves 30` with PYTHONHASHSEED=0 prints it).

The run is a child process with a fixed PYTHONHASHSEED: Rummy 101's AI breaks some ties in set
order (rules/rummy101/ai.py, `_series_with_floor` and `_opened_play`), so its choices vary with
the interpreter's string hashing from one process to another.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RECORDED = {
    "rummikub": "f27b59ad0006",
    "rummy101": "201f7f85a7a8",
    "rummy500": "af3bb99a15c5",
    "canasta": "7a8a400f8b30",
    "three_thirteen": "5fc596efae59",
}

CHILD = "import json; from bench.bench_engines import run; print(json.dumps(run(30, 30, 15)[1]))"


def test_every_game_plays_as_recorded() -> None:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == RECORDED
