"""Where the automatic moves are computed: in worker processes, off the event loop.

An AI's thinking (the Rummikub solver: tens of milliseconds) run on the event loop holds up every
other table's work for that long. `AiPool(workers)` runs `play_automatic` (a pure function of its
job, bot/core/automoves.py) in worker processes, so the loop only pickles the job and its answer.
`workers=0` computes inline, on the loop: the tests' default (deterministic and quick), and the
same answers, since a job's moves depend on the job only.

The jobs that arrive while the workers are busy go together, as one message (`run_batch`), like the
store's group commit. A worker is fed through two pipes that the event loop itself reads and writes
(non-blocking, `add_reader`/`add_writer`), not through a `ProcessPoolExecutor`: the executor's two
threads in the bot process (one pickling jobs, one reading answers) each waited for the GIL behind
the busy loop, up to the switch interval (5 ms) per crossing, and held it up in turn; at
saturation the loop spent more time in those hand-overs than in pickling. Each worker has at most
`PER_WORKER` batches in its pipe: one it computes and one that waits, so it never idles between two.

A worker that dies (killed, out of memory) is seen at once (its pipe closes): it is replaced and its
batches run again in the new one; a batch whose second worker dies too is computed inline, so a
table never waits on a pool that cannot work. Workers are spawned, not forked: the bot process runs
threads (the SQLite writer's, asyncpg's) that a fork would copy mid-lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import multiprocessing
import os
import pickle
import struct
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from bot.core.automoves import AutoJob, AutoRun, play_automatic, views_of
from rules import State

log = logging.getLogger(__name__)

Work = Callable[[AutoJob], AutoRun]
Call = tuple[Callable[..., Any], tuple[Any, ...]]
BATCH_MAX = 64  # jobs per message: bounds how long the first of them waits for the last
PER_WORKER = 2  # batches handed to one worker ahead: the one it computes and the next
TRIES = 2  # workers a batch may see die before it is computed inline
_HEADER = struct.Struct("!Q")  # every message: its length, then its pickle
_READ_SIZE = 1 << 20
PIPE_BYTES = 1 << 20  # Linux's default pipe-max-size


def run_batch(calls: list[Call]) -> list[tuple[bool, Any]]:
    """Each call's (ok, result or exception), in order: one job's failure is its own."""
    out: list[tuple[bool, Any]] = []
    for fn, args in calls:
        try:
            out.append((True, fn(*args)))
        except Exception as err:  # handed to that job's awaiter
            out.append((False, err))
    return out


def _answer(out: list[tuple[bool, Any]]) -> bytes:
    try:
        return pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
    except Exception:
        # An error (or a result) that cannot cross: its job gets an error saying what it was.
        safe: list[tuple[bool, Any]] = []
        for ok, value in out:
            try:
                pickle.dumps(value)
                safe.append((ok, value))
            except Exception:
                safe.append((False, RuntimeError(f"an AI worker's answer could not be sent back: {value!r}")))
        return pickle.dumps(safe, pickle.HIGHEST_PROTOCOL)


def serve(jobs: Connection, answers: Connection) -> None:
    """A worker process's life: read a batch, send its answers, until the bot process closes its
    end of the pipe (or dies)."""
    inbox = os.fdopen(os.dup(jobs.fileno()), "rb")
    outbox = os.fdopen(os.dup(answers.fileno()), "wb")
    jobs.close()
    answers.close()
    with inbox, outbox, contextlib.suppress(BrokenPipeError):  # the bot closed first: nobody to answer
        while len(head := inbox.read(_HEADER.size)) == _HEADER.size:
            body = _answer(run_batch(pickle.loads(inbox.read(_HEADER.unpack(head)[0]))))
            outbox.write(_HEADER.pack(len(body)) + body)
            outbox.flush()


@dataclass
class _Batch:
    calls: list[Call]
    futures: list[asyncio.Future[Any]]
    tries: int = 0


@dataclass
class _Worker:
    """One worker process and the bot's ends of its two pipes, served by the event loop."""

    pool: AiPool
    process: BaseProcess
    to_fd: int
    from_fd: int
    loop: asyncio.AbstractEventLoop
    in_flight: deque[_Batch] = field(default_factory=deque)
    _out: bytearray = field(default_factory=bytearray)
    _in: bytearray = field(default_factory=bytearray)
    _writing: bool = False

    def start(self) -> None:
        for fd in (self.to_fd, self.from_fd):
            os.set_blocking(fd, False)
            # A whole batch or answer (up to about a megabyte) fits the pipe at once: the writer
            # never waits for the reader's next turn (a busy loop's turn can take milliseconds).
            with contextlib.suppress(OSError, AttributeError):  # Linux only; the default 64 kB works too
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self.loop.add_reader(self.from_fd, self._readable)

    def send(self, batch: _Batch) -> None:
        self.in_flight.append(batch)
        body = pickle.dumps(batch.calls, pickle.HIGHEST_PROTOCOL)
        self._out += _HEADER.pack(len(body))
        self._out += body
        self._flush()

    def _flush(self) -> None:
        try:
            sent = os.write(self.to_fd, self._out) if self._out else 0
        except BlockingIOError:
            sent = 0
        except OSError:  # the worker is gone: its reader sees the end too, but say so now
            self.pool._lost(self)
            return
        del self._out[:sent]
        if self._out and not self._writing:
            self.loop.add_writer(self.to_fd, self._flush)  # the rest once the worker has read some
            self._writing = True
        elif not self._out and self._writing:
            self.loop.remove_writer(self.to_fd)
            self._writing = False

    def _readable(self) -> None:
        # Everything there is, now: a worker blocked on a full pipe waits for nothing but this.
        while True:
            try:
                data = os.read(self.from_fd, _READ_SIZE)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.pool._lost(self)
                return
            self._in += data
        while len(self._in) >= _HEADER.size and self in self.pool._live:
            end = _HEADER.size + _HEADER.unpack_from(self._in)[0]
            if len(self._in) < end:
                break
            answers = pickle.loads(bytes(self._in[_HEADER.size:end]))
            del self._in[:end]
            self.pool._answered(self.in_flight.popleft(), answers)

    def stop(self) -> None:
        """Let go of the pipes (a live worker reads their end and exits)."""
        self.loop.remove_reader(self.from_fd)
        if self._writing:
            self.loop.remove_writer(self.to_fd)
        os.close(self.to_fd)
        os.close(self.from_fd)


class AiPool:
    def __init__(self, workers: int = 0, work: Work = play_automatic) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (inline) or more")
        self.workers = workers
        self._work = work  # a module-level function: the workers unpickle it by name
        self._live: list[_Worker] = []
        self._queued: deque[_Batch] = deque()
        self._calls: list[tuple[Call, asyncio.Future[Any]]] = []  # not yet in a batch
        self.replaced = 0  # workers replaced after one died (for tests and logs)

    async def run(self, job: AutoJob) -> AutoRun:
        """The automatic moves of `job` (`play_automatic`)."""
        result: AutoRun = await self.call(self._work, job)
        return result

    async def views(self, game: str, state: State, humans: tuple[int, ...]
                    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """An outcome's views (`views_of`), built in a worker too: for some games as dear as a move."""
        result: tuple[dict[str, Any], dict[int, dict[str, Any]]] = await self.call(views_of, game, state, humans)
        return result

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, batched with the calls queued meanwhile: a module-level, pure `fn`."""
        if self.workers == 0:
            return fn(*args)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls.append(((fn, args), done))
        self._dispatch()
        return await done

    def _dispatch(self) -> None:
        while self._calls or self._queued:
            # Started on first use: a bot whose tables have no AI seat never spawns a worker.
            while len(self._live) < self.workers:
                self._spawn()
            worker = min(self._live, key=lambda w: len(w.in_flight))
            if len(worker.in_flight) >= PER_WORKER:
                return  # every worker has its next batch: the calls wait here and go together
            if self._queued:
                batch = self._queued.popleft()
            else:
                taken, self._calls = self._calls[:BATCH_MAX], self._calls[BATCH_MAX:]
                batch = _Batch([c for c, _ in taken], [f for _, f in taken])
            worker.send(batch)

    def _spawn(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        jobs_in, jobs_out = ctx.Pipe(duplex=False)
        answers_in, answers_out = ctx.Pipe(duplex=False)
        process = ctx.Process(target=serve, args=(jobs_in, answers_out), daemon=True, name="rummyclub-ai")
        process.start()
        # The bot keeps its own ends only: a dead worker's answer pipe then reads as closed.
        worker = _Worker(self, process, os.dup(jobs_out.fileno()), os.dup(answers_in.fileno()),
                         asyncio.get_running_loop())
        for end in (jobs_in, jobs_out, answers_in, answers_out):
            end.close()
        worker.start()
        self._live.append(worker)

    def _answered(self, batch: _Batch, answers: list[tuple[bool, Any]]) -> None:
        for done, (ok, value) in zip(batch.futures, answers, strict=True):
            if done.done():
                continue  # its awaiter was cancelled
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)
        self._dispatch()  # the calls that queued meanwhile go at once

    def _lost(self, worker: _Worker) -> None:
        if worker not in self._live:
            return  # already handled (its write and its read both failed), or the pool closed
        self._live.remove(worker)
        worker.stop()
        worker.process.kill()
        worker.process.join()
        self.replaced += 1
        log.warning("an AI worker died; its jobs run again in a new one")
        for batch in reversed(worker.in_flight):
            batch.tries += 1
            if batch.tries < TRIES:
                self._queued.appendleft(batch)
            else:
                log.error("AI workers keep dying on these jobs; they are computed inline")
                self._answered(batch, run_batch(batch.calls))
        self._dispatch()

    def close(self) -> None:
        """Stop the workers (their jobs' tables are claimed: another run continues them)."""
        live, self._live = self._live, []
        for worker in live:
            worker.stop()
        for worker in live:
            worker.process.join(timeout=10)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        unanswered = [f for w in live for b in w.in_flight for f in b.futures]
        unanswered += [f for b in self._queued for f in b.futures] + [f for _, f in self._calls]
        self._queued.clear()
        self._calls.clear()
        for done in unanswered:
            if not done.done():
                done.cancel()
