"""Platform-neutral values the table service exchanges with adapters."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from rules import Engine, Event, RoundResult, State
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


class StoreUnavailable(ServiceError):
    """The store could not be reached (a connection lost, a server restarting, a file locked too
    long, a disk error): nothing was stored, the table is unchanged, and the same action may be
    sent again in a moment. Raised by the service (bot/core/store_guard.py), which alone decides
    what counts as this (`storage.unavailable`)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("E_STORE_UNAVAILABLE", detail=detail)


@dataclass(frozen=True)
class ViewsLater:
    """The views of an outcome built when a renderer first asks for them, not when the outcome is
    made (`resume_all`: a thousand restored tables are ready to take moves before any of them is
    rendered). `state` is the table's as the outcome left it: later moves change nothing here."""

    engine: Engine
    state: State
    humans: tuple[int, ...]

    def fill(self, outcome: Outcome, seats: Collection[int] | None) -> None:
        """Give `outcome` its public view and the views of `seats` (None: every human's) it lacks,
        from one `engine.views` (the analysis they share done once, as when built eagerly)."""
        missing = [s for s in self.humans if (seats is None or s in seats) and s not in outcome.private_views]
        if outcome.public_view is not None and not missing:
            return
        public, private = self.engine.views(self.state, missing)
        if outcome.public_view is None:
            outcome.public_view = public
        outcome.private_views.update(private)


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
    `later`, when set, means the views are not built yet: `viewed(seats)` builds those a renderer
    shows, once (the presenter calls it; anything else reading the fields calls it first).
    """

    table: TableRecord
    events: list[Event] = field(default_factory=list)
    public_view: dict[str, Any] | None = None
    private_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    results: list[RoundResult] = field(default_factory=list)
    repeated: bool = False
    pending: asyncio.Future[Outcome] | None = field(default=None, repr=False, compare=False)
    later: ViewsLater | None = field(default=None, repr=False, compare=False)

    def viewed(self, seats: Collection[int] | None = None) -> Outcome:
        """This outcome with the public view and the views of `seats` (None: every human seat's)
        built, if they were left for later; each view is built once however often this is called."""
        if self.later is not None:
            self.later.fill(self, seats)
        return self

    async def settled(self) -> Outcome:
        """The outcome once the automatic moves after it are stored (itself when none follow, or
        when a shutdown handed them back: `TableService.hand_back`)."""
        if self.pending is None:
            return self
        try:
            return await self.pending
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if self.pending.cancelled() and me is not None and not me.cancelling():
                return self  # the moves were handed back, not the caller cancelled: this much stands
            raise

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def match_over(self) -> bool:
        return self.table.status == "finished"
