"""The bounded event loop: one turn takes at most EVENTS_PER_TURN socket events, and none is lost."""

from __future__ import annotations

import asyncio
import select
import selectors
import socket
from collections.abc import Iterator

import pytest

from bot import event_loop
from bot.event_loop import EVENTS_PER_TURN

pytestmark = pytest.mark.skipif(not hasattr(select, "epoll"), reason="the bound is built on epoll")

READY = EVENTS_PER_TURN * 3 + 5  # more than two turns' worth, not a multiple of the bound


@pytest.fixture
def ready_pairs() -> Iterator[list[tuple[socket.socket, socket.socket]]]:
    pairs = [socket.socketpair() for _ in range(READY)]
    for _, writer in pairs:
        writer.send(b"x")  # every reader is ready at once, as a crowd's sockets are
    yield pairs
    for reader, writer in pairs:
        reader.close()
        writer.close()


def test_one_select_returns_at_most_the_bound_and_the_rest_on_later_selects(
        ready_pairs: list[tuple[socket.socket, socket.socket]]) -> None:
    selector = event_loop.BoundedSelector()
    try:
        for reader, _ in ready_pairs:
            selector.register(reader, selectors.EVENT_READ)
        served: list[int] = []
        sizes = []
        while len(served) < READY:
            ready = selector.select(0)
            sizes.append(len(ready))
            for key, _ in ready:
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                sock.recv(1)  # read: no longer ready
                selector.unregister(sock)
                served.append(sock.fileno())
        assert max(sizes) == EVENTS_PER_TURN
        assert sorted(served) == sorted(r.fileno() for r, _ in ready_pairs)  # each once, none lost
        assert selector.select(0) == []
    finally:
        selector.close()


def test_a_descriptor_left_ready_is_served_again_after_the_others(
        ready_pairs: list[tuple[socket.socket, socket.socket]]) -> None:
    """Level-triggered: what one turn did not read comes back, behind the descriptors not yet served."""
    selector = event_loop.BoundedSelector()
    try:
        for reader, _ in ready_pairs:
            selector.register(reader, selectors.EVENT_READ)
        first = {key.fd for key, _ in selector.select(0)}  # not read: still ready
        second = {key.fd for key, _ in selector.select(0)}
        assert len(first) == len(second) == EVENTS_PER_TURN
        assert not first & second  # the kernel moved the first batch behind the rest
    finally:
        selector.close()


def test_run_uses_the_bounded_loop_and_every_reader_gets_its_event(
        ready_pairs: list[tuple[socket.socket, socket.socket]]) -> None:
    async def main() -> tuple[type, int]:
        loop = asyncio.get_running_loop()
        got = 0
        done = asyncio.Event()

        def readable(sock: socket.socket) -> None:
            nonlocal got
            sock.recv(1)
            loop.remove_reader(sock)
            got += 1
            if got == READY:
                done.set()

        for reader, _ in ready_pairs:
            loop.add_reader(reader, readable, reader)
        await asyncio.wait_for(done.wait(), 10)
        return type(loop._selector), got  # type: ignore[attr-defined]  # asyncio names it nowhere else

    selector_type, got = event_loop.run(main())
    assert selector_type is event_loop.BoundedSelector
    assert got == READY
