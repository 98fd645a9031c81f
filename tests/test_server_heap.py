"""The garbage collector's settling of the long-lived heap (``_heap``)."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bgclock.server.live.heap import HeapKeeper
from tests._server_kit import anyio_backend

__all__ = ["anyio_backend"]


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.mark.anyio
async def test_settle_freezes_and_thorough_frees_frozen_cycles() -> None:
    keeper = HeapKeeper(settle_s=0.01, thorough_s=3600)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        keeper.start()
        assert gc.get_freeze_count() > 0
        del a, b  # a cycle among frozen objects: only a thorough collection frees it
        await asyncio.sleep(0.05)  # a few settles
        assert gone() is not None
        keeper.thorough()
        assert gone() is None
        assert gc.get_freeze_count() > 0
    finally:
        await keeper.stop()
    assert gc.get_freeze_count() == 0


@pytest.mark.anyio
async def test_young_garbage_is_freed_before_a_settle() -> None:
    keeper = HeapKeeper(settle_s=3600)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        keeper.start()  # settles: collects first, then freezes the survivors
        assert gone() is None
    finally:
        await keeper.stop()
