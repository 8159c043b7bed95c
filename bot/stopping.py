"""How every mode of `rummyclub` stops: the signals it answers and the grace it gives in-flight work.

SIGTERM is what Docker, systemd and Kubernetes send (and they kill ~10 s later), SIGINT is Ctrl-C,
SIGHUP a closed terminal or session. All three are caught by the event loop itself
(`loop.add_signal_handler`), so the handler runs between two steps of the loop, never inside one:
the mode then stops taking updates, lets the work in flight finish for at most `grace_s` (the
SHUTDOWN_GRACE_S setting), hands back what is left (a table's claim released or left to expire:
the next start plays it), stops the clock and the AI workers, closes the store (SQLite checkpoints
its WAL into the file) and exits 0.

Python's own handling would not do: SIGTERM and SIGHUP kill the process outright (no `finally`
runs, SQLite keeps its -wal/-shm, the AI moves in flight are dropped), and SIGINT raises
KeyboardInterrupt wherever the loop happens to be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
DEFAULT_GRACE_S = 5.0  # inside the ~10 s a container runtime waits between SIGTERM and SIGKILL


@contextlib.contextmanager
def on_stop_signals(callback: Callable[[signal.Signals], None]) -> Iterator[bool]:
    """While inside: each of STOP_SIGNALS calls `callback(signal)` on the running loop. Yields
    False where the loop cannot take signal handlers (off the main thread, Windows): the
    interpreter's defaults stay (Ctrl-C is a KeyboardInterrupt, which `bot.cli.main` handles)."""
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, callback, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            break
        installed.append(sig)
    try:
        yield len(installed) == len(STOP_SIGNALS)
    finally:
        for sig in installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)


class Grace:
    """One deadline for the whole shutdown: every step waits at most for what is left of it. The
    count starts at the first `left()`, the first step of the way down."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = max(seconds, 0.0)
        self._clock = clock
        self.until: float | None = None

    def left(self) -> float:
        if self.until is None:
            self.until = self._clock() + self.seconds
        return max(self.until - self._clock(), 0.0)


class StopSignal:
    """What a bot mode runs under: `with StopSignal() as stop:` installs the handlers of
    STOP_SIGNALS for the task inside; the mode starts, then `await stop.until_stopped()`, then goes
    down. The first signal sets `event`; one that comes while the mode is still starting (a start
    that waits on the network, or on the AI's moves a crash left) cancels the starting task instead,
    so the way down (the `finally`s) runs at once, and the cancellation ends at the `with`. A
    second signal while going down changes nothing: the grace already bounds the wait."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.received: signal.Signals | None = None
        self._task: asyncio.Task[object] | None = None
        self._started = False  # `until_stopped` was reached: a signal only sets the event
        self._cancelled = False
        self._handlers = contextlib.ExitStack()

    def __enter__(self) -> StopSignal:
        self._task = asyncio.current_task()
        self._handlers.enter_context(on_stop_signals(self))
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: object) -> bool:
        self._handlers.close()
        if kind is asyncio.CancelledError and self._cancelled and self._task is not None:
            self._task.uncancel()
            return True  # our own cancellation of a start: the way down has run, leave normally
        return False

    def __call__(self, sig: signal.Signals) -> None:
        if self.received is not None:
            log.info("%s received: already stopping", sig.name)
            return
        self.received = sig
        log.info("%s received: stopping", sig.name)
        self.event.set()
        if not self._started and self._task is not None and not self._task.done():
            self._cancelled = True
            self._task.cancel()

    async def until_stopped(self, work: asyncio.Future[None] | None = None) -> None:
        """Until a stop signal, or until `work` (a running client) ends by itself; its failure is raised."""
        self._started = True
        stopped = asyncio.ensure_future(self.event.wait())
        waiting: set[asyncio.Future[Any]] = {stopped}
        if work is not None:
            waiting.add(work)
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        if work is not None and work.done():
            work.result()
