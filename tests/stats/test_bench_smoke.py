"""The leaderboard bench runs end to end on a tiny history (its figures are not asserted)."""

from __future__ import annotations

import pytest

from bench.bench_leaderboard import main


def test_bench_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--lb-matches", "300", "--lb-chats", "6", "--lb-players", "60", "--lb-queries", "3", "--other-flag"])
    out = capsys.readouterr().out
    assert "generated 300 matches" in out and out.count("p50") == 5
