"""The event loop every long-running mode runs on: asyncio's, with a bound on the socket events one turn takes.

asyncio asks epoll for every ready descriptor at once and runs all their callbacks in one turn of the
loop. When a crowd acts together — a thousand idle connections closed by their client in the same
instant — one turn handles all of them: 11 ms in which nothing else runs, a page or a Telegram update
waiting behind strangers' sockets; 5 ms with this bound (bench/bench_hostile.py, idle_1100_22_addresses).
(Connections arriving are one event of the listening socket, bounded by ACCEPT_BURST in bot/web/limits.py.) Bounding the events taken per turn keeps a turn short; epoll hands the rest out on the
next turns (a level-triggered descriptor still ready goes to the back of the kernel's ready list), so
a crowd is served in turns between which every other task gets the loop. Nothing is dropped: a ready
socket stays ready until it is read.

asyncio offers no setting for this: `selectors.EpollSelector` asks for as many events as descriptors
it watches. Its poller class is a class attribute (`_selector_cls`), so a selector whose poller
passes a smaller `maxevents` is the whole change."""

from __future__ import annotations

import asyncio
import select
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

# Events per turn: a burst of this many connections' callbacks costs ~1–2 ms of one turn
# (bench/bench_hostile.py); a page's request among them waits at most a few turns.
EVENTS_PER_TURN = 64

T = TypeVar("T")


class _BoundedEpoll:
    """A `select.epoll` that returns at most EVENTS_PER_TURN events from one poll."""

    def __init__(self) -> None:
        self._epoll = select.epoll()

    def poll(self, timeout: float = -1, maxevents: int = -1) -> list[tuple[int, int]]:
        wanted = EVENTS_PER_TURN if maxevents <= 0 else min(maxevents, EVENTS_PER_TURN)
        return self._epoll.poll(timeout, wanted)

    def register(self, fd: int, eventmask: int) -> None:
        self._epoll.register(fd, eventmask)

    def modify(self, fd: int, eventmask: int) -> None:
        self._epoll.modify(fd, eventmask)

    def unregister(self, fd: int) -> None:
        self._epoll.unregister(fd)

    def fileno(self) -> int:
        return self._epoll.fileno()

    def close(self) -> None:
        self._epoll.close()


if hasattr(select, "epoll"):
    class BoundedSelector(selectors.EpollSelector):
        _selector_cls = _BoundedEpoll  # the poller selectors builds on start


def new_loop() -> asyncio.AbstractEventLoop:
    """A selector event loop whose turns take at most EVENTS_PER_TURN socket events (where epoll
    exists; elsewhere asyncio's own loop)."""
    if hasattr(select, "epoll"):
        return asyncio.SelectorEventLoop(BoundedSelector())
    return asyncio.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` on the bounded loop."""
    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)
