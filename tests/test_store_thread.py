"""The SQLite store's one thread (``StoreThread``): calls in order, their
results and errors on the caller's loop, a call given up by its caller
dropped quietly, and the queued calls dropped at a shutdown that cancels."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bgclock.store._sqlite import StoreThread


def test_calls_run_in_order_on_one_thread_and_answer_on_the_loop() -> None:
    async def run() -> None:
        pool = StoreThread()
        seen: list[tuple[int, str]] = []

        def call(i: int) -> int:
            seen.append((i, threading.current_thread().name))
            return i * i

        results = await asyncio.gather(*(pool.submit(lambda i=i: call(i)) for i in range(20)))
        assert results == [i * i for i in range(20)]
        assert [i for i, _ in seen] == list(range(20))
        assert {name for _, name in seen} == {"bgclock-sqlite"}
        pool.shutdown(wait=True)

    asyncio.run(run())


def test_an_error_reaches_its_caller() -> None:
    async def run() -> None:
        pool = StoreThread()

        def broken() -> None:
            raise ValueError("no such table")

        with pytest.raises(ValueError, match="no such table"):
            await pool.submit(broken)
        assert await pool.submit(lambda: 7) == 7  # the thread goes on
        pool.shutdown(wait=True)

    asyncio.run(run())


def test_a_call_its_caller_gave_up_is_dropped_quietly() -> None:
    async def run() -> None:
        pool = StoreThread()
        gate = threading.Event()
        slow = pool.submit(gate.wait)
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await slow
        assert slow.cancelled()
        # a call queued behind it whose caller gives up too never runs (its
        # caller put its writes in doubt: a settle may run before it would)
        ran: list[str] = []
        queued = pool.submit(lambda: ran.append("late"))
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await queued
        gate.set()
        assert await pool.submit(lambda: "after") == "after"
        assert ran == []
        pool.shutdown(wait=True)

    asyncio.run(run())


def test_a_shutdown_that_cancels_drops_the_queued_calls() -> None:
    async def run() -> None:
        pool = StoreThread()
        gate = threading.Event()
        ran: list[int] = []
        first = pool.submit(gate.wait)
        queued = pool.submit(lambda: ran.append(1))
        pool.shutdown(wait=False, cancel_futures=True)
        gate.set()
        with pytest.raises(asyncio.CancelledError):
            await queued
        assert ran == []
        assert first.done()

    asyncio.run(run())
