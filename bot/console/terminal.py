"""Reading the terminal: lines from stdin without blocking the event loop, and Ctrl-C (or SIGTERM,
SIGHUP) as "quit now".

`sys.stdin.readline` in `asyncio.to_thread` cannot be interrupted: Ctrl-C cancelled the task, but
`asyncio.run` then waited for the executor thread, still blocked in `readline`, so `^C` sat on the
screen until Enter. Here a daemon thread of our own reads the raw file descriptor (`os.read`, which
takes none of the buffered stream's locks, so interpreter exit never waits on it) and hands lines to
the loop; SIGINT is handled by the loop itself, and SIGTERM and SIGHUP the same way. Ctrl-C while a
prompt waits answers that prompt with "end of input" (every prompt reads that as quit); Ctrl-C while the table is busy (an AI turn)
cancels the session task, which the caller turns into the same clean exit. Every accepted action is
already committed, so quitting at once loses nothing.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import os
import sys
import threading
from typing import IO

from bot.stopping import on_stop_signals

CHUNK = 4096


class TerminalInput:
    """An async `read()` for the console: the prompt, then one line (None at end of input or Ctrl-C)."""

    def __init__(self, prompt: str, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.prompt = prompt
        self.moves = ""  # the legal moves written before the prompt while a table waits for yours
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.interrupted = False
        self._ended = False  # end of input was handed out: the session is on its way out already
        self._closed = False
        self._lines: asyncio.Queue[str | None] | None = None
        self._waiting = False
        self._task: asyncio.Task[object] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._signals = contextlib.ExitStack()
        self._fd = self._file_descriptor()

    def _file_descriptor(self) -> int | None:
        try:
            return self.stdin.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            return None  # an in-memory stream (tests): read it directly, it never blocks

    def start(self) -> None:
        """Begin reading and catch Ctrl-C; call from inside the running session task."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        self._lines = asyncio.Queue()
        if self._fd is not None:
            threading.Thread(target=self._pump, name="stdin", daemon=True).start()
        # Ctrl-C, SIGTERM and SIGHUP (a closed terminal) all leave like `quit` (bot/stopping.py). On
        # Windows, or off the main thread, Ctrl-C stays a KeyboardInterrupt, which main() handles.
        self._signals.enter_context(on_stop_signals(lambda sig: self.interrupt()))

    def show_moves(self, moves: str) -> None:
        """The next prompts read `<moves> > ` (ConsoleTable sets them at the table, clears them after)."""
        self.moves = moves

    def leave_prompt(self) -> None:
        """Something is about to be written while a prompt waits (the table's clock moved): it starts
        on a line of its own."""
        if self._waiting:
            self._show("\n")

    def repeat_prompt(self) -> None:
        """The prompt again, under what was written meanwhile (with the moves you can type now)."""
        if self._waiting:
            self._show(self._prompt_text())

    def close(self) -> None:
        """The session is closing the store: signals from now on change nothing (`detach` ends that)."""
        self._closed = True

    def detach(self) -> None:
        """The stop signals go back to the interpreter's handling (the store is closed)."""
        self._closed = True
        self._signals.close()

    def _show(self, text: str) -> None:
        # After SIGHUP the terminal is gone (writes fail with EIO): the session still leaves cleanly.
        with contextlib.suppress(OSError):
            self.stdout.write(text)
            self.stdout.flush()

    def _prompt_text(self) -> str:
        return f"{self.moves} {self.prompt}" if self.moves else self.prompt

    def interrupt(self) -> None:
        """Ctrl-C: end the prompt that waits, or the busy session task."""
        if self._closed:
            return  # the session is closing the store: let it finish
        self.interrupted = True
        if self._lines is not None:
            self._lines.put_nowait(None)
        if not (self._waiting or self._ended) and self._task is not None and not self._task.done():
            self._task.cancel()

    def _pump(self) -> None:
        assert self._fd is not None and self._loop is not None and self._lines is not None
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(self._fd, CHUNK)
            except OSError:
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            *lines, pending = pending.split("\n")
            for line in lines:
                self._loop.call_soon_threadsafe(self._lines.put_nowait, line + "\n")
            if not chunk:
                if pending:
                    self._loop.call_soon_threadsafe(self._lines.put_nowait, pending)
                self._loop.call_soon_threadsafe(self._lines.put_nowait, None)
                return

    async def __call__(self) -> str | None:
        if self._lines is None:
            self.start()
        assert self._lines is not None
        if self.interrupted:
            return None
        self._show(self._prompt_text())
        if self._fd is None and self._lines.empty():
            line = self.stdin.readline()
            self._ended = not line
            return line or None
        self._waiting = True
        try:
            line = await self._lines.get()
        finally:
            self._waiting = False
        if line is None:
            self._ended = True
            self._lines.put_nowait(None)  # end of input stays the end for every later prompt
            if self.interrupted:
                self._show("\n")  # the terminal echoed ^C on the prompt line
        return line
