"""bench/bench_chat.py's record of a match as the chat saw it, shared by its Telegram and Discord drivers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

HUMAN_GAP_S = 8.0
MAX_TURNS = 1500


@dataclass
class Turn:
    calls: int
    new: int  # new messages that reached the group
    edits: int  # edits of group messages that reached it
    deletes: int


@dataclass
class Match:
    turns: list[Turn] = field(default_factory=list)
    group_at: list[float] = field(default_factory=list)  # when each group message/edit arrived
    throttled: int | None = None  # 429s of the fake's flood rule (the Discord fake has none)
    waited: float | None = None  # seconds the bot waited out 429s (Telegram: the harness's injected sleep)
    left: int = 0
    unrelated: list[float] = field(default_factory=list)  # seconds, beside a group under RetryAfter
    baseline: list[float] = field(default_factory=list)  # seconds, the same without the 429
    pressed: int = 0
    broke: int = 0
    uploaded: int | None = None  # picture bytes uploaded (Telegram)
    finished: bool = False
    seconds: float = 0.0


def busiest_60s(times: Sequence[float]) -> int:
    ordered = sorted(times)
    best = lo = 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] >= 60.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def sample_kind(turn: int, m: Match, samples: int) -> str | None:
    """Every 2nd human turn: a sample beside a group under RetryAfter ("429") or,
    alternately, beside a group that is not ("base"), until each has `samples`."""
    if turn % 2 != 1:
        return None
    if len(m.unrelated) < samples and len(m.unrelated) <= len(m.baseline):
        return "429"
    return "base" if len(m.baseline) < samples else None
