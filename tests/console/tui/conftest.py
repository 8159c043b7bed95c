"""Fixtures of the full-screen terminal tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import MemoryStore


@pytest.fixture
async def store() -> AsyncIterator[MemoryStore]:
    s = MemoryStore()
    await s.open()
    yield s
    await s.close()
