"""Where the automatic moves are computed: in worker processes, off the event loop.

An AI's thinking (the Rummikub solver: tens of milliseconds) run on the event loop holds up every
other table's work for that long. `AiPool(workers)` runs `play_automatic` (a pure function of its
job, bot/core/automoves.py) in worker processes, so the loop only pickles the job and its answer.
`workers=0` computes inline, on the loop: the tests' default (deterministic and quick), and the
same answers, since a job's moves depend on the job only.

A worker is fed through two pipes that the event loop itself reads and writes (non-blocking,
`add_reader`/`add_writer`), not through a `ProcessPoolExecutor`: the executor's two threads in the
bot process (one pickling jobs, one reading answers) each waited for the GIL behind the busy loop, up
to the switch interval (5 ms) per crossing, and held it up in turn. Each job is its own message,
pickled when it is made, and each answer its own, sent as soon as it is computed: a job never
waits for the others of a batch, and the loop unpickles at most `ANSWERS_PER_TURN` answers before
it serves other tables (64 answers unpickled at once held it for tens of
milliseconds). A worker has up to `AHEAD` jobs in its pipe, so it never idles waiting to be fed.

A worker that dies (killed, out of memory) is seen at once (its pipe closes): it is replaced and its
jobs run again in the new one; a job whose second worker dies too is computed inline, so a table
never waits on a pool that cannot work. Workers are spawned, not forked: the bot process runs
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
import signal
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from bot.core import metrics
from bot.core.automoves import AutoJob, AutoRun, play_automatic, views_of
from rules import State

log = logging.getLogger(__name__)

Work = Callable[[AutoJob], AutoRun]
Call = tuple[Callable[..., Any], tuple[Any, ...]]
Answer = tuple[bool, Any]  # (ok, the call's result or the exception it raised)
AHEAD = 16  # jobs handed to one worker ahead of its answers: it never waits for the loop to send more
ANSWERS_PER_TURN = 8  # answers unpickled in one turn of the loop: bounds how long the loop is held
TRIES = 2  # workers a job may see die before it is computed inline
_HEADER = struct.Struct("!Q")  # every message: its length, then its pickle
_READ_SIZE = 1 << 20
PIPE_BYTES = 1 << 20  # Linux's default pipe-max-size


def run_call(call: Call) -> Answer:
    """One call's (ok, result or exception): one job's failure is its own."""
    fn, args = call
    try:
        return True, fn(*args)
    except Exception as err:  # handed to that job's awaiter
        return False, err


def _message(value: Any) -> bytes:
    body = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(body)) + body


def _answer(answer: Answer) -> bytes:
    try:
        return _message(answer)
    except Exception:  # an error (or a result) that cannot cross: its job gets one saying what it was
        return _message((False, RuntimeError(f"an AI worker's answer could not be sent back: {answer[1]!r}")))


def serve(jobs: Connection, answers: Connection) -> None:
    """A worker process's life: read a job, send its answer, until the bot process closes its end
    of the pipe (or dies). Then it exits quietly, whatever it was doing: a job cut short (the bot
    died while writing it) or an answer nobody reads any more is the end of its work, not an error
    to print. Ctrl-C and a closed terminal reach every process of the terminal's group; the worker
    leaves those to the bot process, which closes the pipes (SIGTERM still ends it at once)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    inbox = os.fdopen(os.dup(jobs.fileno()), "rb")
    outbox = os.fdopen(os.dup(answers.fileno()), "wb")
    jobs.close()
    answers.close()
    # Outermost: closing `outbox` flushes it, which fails too when the bot is gone.
    with contextlib.suppress(BrokenPipeError, ConnectionError), inbox, outbox:
        while len(head := inbox.read(_HEADER.size)) == _HEADER.size:
            body = inbox.read(_HEADER.unpack(head)[0])
            if len(body) < _HEADER.unpack(head)[0]:
                return  # the bot died while writing the job
            outbox.write(_answer(run_call(pickle.loads(body))))
            outbox.flush()


@dataclass
class _Job:
    call: Call
    message: bytes  # the call pickled when it was made: the cost spread over the calls, not one lump
    future: asyncio.Future[Any]
    tries: int = 0


@dataclass
class _Worker:
    """One worker process and the bot's ends of its two pipes, served by the event loop."""

    pool: AiPool
    process: BaseProcess
    to_fd: int
    from_fd: int
    loop: asyncio.AbstractEventLoop
    in_flight: deque[_Job] = field(default_factory=deque)
    _out: bytearray = field(default_factory=bytearray)
    _in: bytearray = field(default_factory=bytearray)
    _writing: bool = False
    _answering: bool = False  # the next turn's answers are scheduled

    def start(self) -> None:
        for fd in (self.to_fd, self.from_fd):
            os.set_blocking(fd, False)
            # Many jobs or answers fit the pipe at once: the writer never waits for the reader's
            # next turn (a busy loop's turn can take milliseconds).
            with contextlib.suppress(OSError, AttributeError):  # Linux only; the default 64 kB works too
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self.loop.add_reader(self.from_fd, self._readable)

    def send(self, job: _Job) -> None:
        """Queue `job` for the worker; `flush` writes what is queued."""
        self.in_flight.append(job)
        self._out += job.message

    def flush(self) -> None:
        try:
            sent = os.write(self.to_fd, self._out) if self._out else 0
        except BlockingIOError:
            sent = 0
        except OSError:  # the worker is gone: its reader sees the end too, but say so now
            self.pool._lost(self)
            return
        del self._out[:sent]
        if self._out and not self._writing:
            self.loop.add_writer(self.to_fd, self.flush)  # the rest once the worker has read some
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
        if not self._answering:
            self._answers()

    def _answers(self) -> None:
        """Up to ANSWERS_PER_TURN answers; the rest in the loop's next turn, after other work."""
        self._answering = False
        for _ in range(ANSWERS_PER_TURN):
            if len(self._in) < _HEADER.size or self not in self.pool._live:
                return
            end = _HEADER.size + _HEADER.unpack_from(self._in)[0]
            if len(self._in) < end:
                return
            answer = pickle.loads(bytes(self._in[_HEADER.size:end]))
            del self._in[:end]
            self.pool._answered(self.in_flight.popleft(), answer)
        self._answering = True
        self.loop.call_soon(self._answers)

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
        self._queued: deque[_Job] = deque()  # waiting for a worker with room
        self.replaced = 0  # workers replaced after one died (for tests and logs)

    async def run(self, job: AutoJob) -> AutoRun:
        """The automatic moves of `job` (`play_automatic`)."""
        with metrics.AI_SECONDS.time():
            result: AutoRun = await self.call(self._work, job)
        return result

    async def views(self, game: str, state: State, humans: tuple[int, ...]
                    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """An outcome's views (`views_of`), built in a worker too: for some games as dear as a move."""
        result: tuple[dict[str, Any], dict[int, dict[str, Any]]] = await self.call(views_of, game, state, humans)
        return result

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker: a module-level, pure `fn`, and picklable arguments."""
        if self.workers == 0:
            return fn(*args)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append(_Job((fn, args), _message((fn, args)), done))
        self._dispatch()
        return await done

    def _dispatch(self) -> None:
        # Started on first use: a bot whose tables have no AI seat never spawns a worker.
        while self._queued and len(self._live) < self.workers:
            self._spawn()
        touched: set[int] = set()
        while self._queued:
            worker = min(self._live, key=lambda w: len(w.in_flight))
            if len(worker.in_flight) >= AHEAD:
                break  # every worker has enough to do: the rest wait here
            worker.send(self._queued.popleft())
            touched.add(id(worker))
        for worker in list(self._live):
            if id(worker) in touched:
                worker.flush()  # one write for every job queued to it now

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

    def _answered(self, job: _Job, answer: Answer) -> None:
        ok, value = answer
        if not job.future.done():  # else its awaiter was cancelled
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        self._dispatch()  # its room goes to the next job waiting

    def _lost(self, worker: _Worker) -> None:
        if worker not in self._live:
            return  # already handled (its write and its read both failed), or the pool closed
        self._live.remove(worker)
        worker.stop()
        worker.process.kill()
        worker.process.join()
        self.replaced += 1
        log.warning("an AI worker died; its jobs run again in a new one")
        for job in reversed(worker.in_flight):
            job.tries += 1
            if job.tries < TRIES:
                self._queued.appendleft(job)
            else:
                log.error("AI workers keep dying on this job; it is computed inline")
                self._answered(job, run_call(job.call))
        self._dispatch()

    def close(self, grace_s: float = 10.0) -> None:
        """Stop the workers (their jobs' tables are claimed: another run continues them). A worker
        with nothing to do reads the end of its pipe and exits; one still computing a job nobody
        will read is stopped after `grace_s` (SIGTERM, then SIGKILL)."""
        live, self._live = self._live, []
        for worker in live:
            worker.stop()
        until = time.monotonic() + grace_s
        for worker in live:
            worker.process.join(timeout=max(until - time.monotonic(), 0.0))
        for worker in live:
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=1.0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        unanswered = [j.future for w in live for j in w.in_flight] + [j.future for j in self._queued]
        self._queued.clear()
        for done in unanswered:
            if not done.done():
                done.cancel()
