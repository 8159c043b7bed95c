"""Textual's terminal driver, made safe for a terminal that goes away under it.

When the window closes, the kernel sends SIGHUP and every write to the terminal fails with EIO.
Textual writes through a thread with a bounded queue: the first failed write ends that thread, the
queue fills, and the next repaint (or the driver's own `stop`) blocks the event loop for good — the
session never reaches its way down (the store closed, the exit). Here the driver writes through
`ClosedTerminalSafe`, which drops what a closed terminal cannot take, so the thread lives on and the
app stops as on `quit`.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from textual.app import App
from textual.driver import Driver


class ClosedTerminalSafe:
    """A text file whose writes and flushes are dropped once the terminal behind it is gone."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._file.write(text)
            except OSError:  # EIO: the terminal closed; nothing can be shown any more
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except OSError:
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def terminal_driver() -> type[Driver] | None:
    """The driver class for the full screen: Textual's own, except on Linux and macOS, where its
    writes go through `ClosedTerminalSafe` (None: Textual picks)."""
    if sys.platform == "win32":
        return None
    from textual.drivers.linux_driver import LinuxDriver

    class SafeLinuxDriver(LinuxDriver):
        def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True,
                     size: tuple[int, int] | None = None) -> None:
            super().__init__(app, debug=debug, mouse=mouse, size=size)
            assert self._file is not None  # sys.__stderr__: the terminal the screen is drawn on
            self._file = ClosedTerminalSafe(self._file)  # type: ignore[assignment]

    return SafeLinuxDriver
