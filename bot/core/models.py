"""Platform-neutral values the table service exchanges with adapters."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from rules import Event, RoundResult
from storage import TableRecord


@dataclass(frozen=True)
class Player:
    """A person on a platform: identities are `(platform, user_id)` everywhere."""

    platform: str
    user_id: str
    name: str


class ServiceError(Exception):
    """A refused table operation (lobby, seats, stale buttons). Same shape as `IllegalAction`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params


@dataclass
class Outcome:
    """What an accepted operation produced, for the adapter to render and send.

    `events` are tagged with visibility (`Event.seat`); `public_view` and `private_views` (the view
    of every human seat) are the table as the outcome leaves it, built once by the service
    (`engine.views`: the public part once, shared by the seats' views) — adapters render these
    instead of asking the engine again. They share lists, so they are read-only. `results` lists
    the rounds that ended.
    `repeated` marks the answer to a platform's redelivery of an action already applied under the
    same idempotency key: the events are that first application's, the table and views are current.
    `pending`, when set (`TableService.submit`), makes this outcome the move's durable
    acknowledgement: its `table` as that move left it, no views yet. `pending` is the task that
    stores the automatic moves (AI seats, away players) answering the move and builds the views;
    `settled()` is that outcome, for rendering.
    """

    table: TableRecord
    events: list[Event] = field(default_factory=list)
    public_view: dict[str, Any] | None = None
    private_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    results: list[RoundResult] = field(default_factory=list)
    repeated: bool = False
    pending: asyncio.Future[Outcome] | None = field(default=None, repr=False, compare=False)

    async def settled(self) -> Outcome:
        """The outcome once the automatic moves after it are stored (itself when none follow)."""
        return self if self.pending is None else await self.pending

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def match_over(self) -> bool:
        return self.table.status == "finished"
