"""Records and a clock the storage contract tests build their cases from."""

from __future__ import annotations

from typing import Any

from storage import LogEntry, MatchResultRecord, SeatRecord, TableRecord


class FakeClock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_table(table_id: str = "t1", **fields: Any) -> TableRecord:
    base: dict[str, Any] = {
        "id": table_id, "game": "rummikub", "platform": "telegram", "chat_id": "chat-1", "status": "lobby",
        "host_platform": "telegram", "host_user_id": "u1", "options": {"turn_timer_s": 60}, "seed": 7,
        "seats": [SeatRecord(kind="human", platform="telegram", user_id="u1", name="Ann")],
        "created_at": 100.0, "updated_at": 100.0,
    }
    return TableRecord(**{**base, **fields})


def make_entries(table_id: str, first_seq: int, count: int) -> list[LogEntry]:
    return [LogEntry(table_id=table_id, seq=s, kind="action", seat=s % 2, text=f"draw #{s}", at=200.0 + s)
            for s in range(first_seq, first_seq + count)]


def make_result(table_id: str, finished_at: float, **fields: Any) -> MatchResultRecord:
    base: dict[str, Any] = {
        "table_id": table_id, "game": "rummikub", "platform": "telegram", "chat_id": "chat-1",
        "status": "finished", "finished_at": finished_at,
        "seats": [SeatRecord(kind="ai", platform=None, user_id=None, name="Bot")],
        "result": {"totals": [12, -12], "winners": [0]},
    }
    return MatchResultRecord(**{**base, **fields})


def moved(i: int, version: int = 0) -> tuple[TableRecord, int]:
    """Table `t{i}` in play with a state of its own, and the version a commit of it expects (the group
    commit tests write many of them at once)."""
    return make_table(f"t{i}", chat_id=f"chat-{i}", status="playing", state={"n": i}), version
