"""`python -m tests.stop_child ARGS...` is `rummyclub ARGS...` whose AI is still thinking: every AI
job prints `thinking` and then waits — in an AI worker, or on the event loop itself where the AI
runs inline (the terminal) — until the process is stopped. With STOP_CHILD_FIFO set, the job waits
for that named pipe instead: opening it for writing and closing it ends the job (with an error, its
answer, which a dead bot no longer reads). The tests so stop a process with AI work in flight
(tests/bot/test_stop_signals.py, tests/console/test_terminal_stops.py)."""

from __future__ import annotations

import os
import select
import sys
import threading
from typing import NoReturn

from bot.core import ai_pool
from bot.core.automoves import AutoJob


def thinking(job: AutoJob) -> NoReturn:
    fifo = os.environ.get("STOP_CHILD_FIFO")
    if fifo:
        # Opened without waiting for a writer, before saying `thinking`: the test's open then never
        # waits either; the read waits for its writer to come and close.
        released = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(released, True)
        print("thinking", flush=True)
        select.select([released], [], [])
        os.close(released)
        raise RuntimeError("released")
    print("thinking", flush=True)
    threading.Event().wait()
    raise AssertionError("never reached: the process is stopped while it waits")


if __name__ == "__main__":
    from bot.cli import main
    from tests.stop_child import thinking as by_name  # workers unpickle it by its module's name

    ai_pool.AiPool.__init__.__defaults__ = (0, by_name)  # every AiPool of the run thinks this way
    sys.exit(main(sys.argv[1:]))
