"""The server's clock: wall time that never jumps, and timers on it.

The server is the authority on time.  ``WallClock`` reads the wall clock once
at start and then moves with the monotonic clock, so its milliseconds since
1970 survive a restart (a table's match time is ``now_ms() - created_ms``) yet
never jump when the system clock is set.  ``ManualClock`` is the tests'
clock: time moves only when told, and due timers fire then.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class ServerClock(Protocol):
    """Integer milliseconds since 1970, and one-shot timers at such instants."""

    def now_ms(self) -> int: ...

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> TimerHandle: ...


class WallClock:
    """The wall clock at start, advanced by the monotonic clock."""

    def __init__(self) -> None:
        self._wall0 = time.time_ns() // 1_000_000
        self._mono0 = time.monotonic_ns()

    def now_ms(self) -> int:
        return self._wall0 + (time.monotonic_ns() - self._mono0) // 1_000_000

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> TimerHandle:
        # The callback re-reads now_ms(): a loop clock that fires early (uvloop
        # rounds to whole ms) is caught there and the timer re-armed.
        delay = max(0.0, (at_ms - self.now_ms()) / 1000)
        return asyncio.get_running_loop().call_later(delay, callback)


class _ManualHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock for tests: ``advance`` moves time and fires the timers due."""

    def __init__(self, start_ms: int = 1_700_000_000_000) -> None:
        self._now = start_ms
        self._timers: list[tuple[int, int, _ManualHandle, Callable[[], None]]] = []
        self._order = itertools.count()

    def now_ms(self) -> int:
        return self._now

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> TimerHandle:
        handle = _ManualHandle()
        heapq.heappush(self._timers, (at_ms, next(self._order), handle, callback))
        return handle

    def advance(self, ms: int, *, fire_timers: bool = True) -> None:
        """Move time on by ``ms``, firing each timer due at its own instant
        (or, with ``fire_timers=False``, none: a late loop)."""
        if ms < 0:
            raise ValueError("time can't go backwards")
        target = self._now + ms
        while fire_timers and self._timers and self._timers[0][0] <= target:
            at, _, handle, callback = heapq.heappop(self._timers)
            if handle.cancelled:
                continue
            self._now = max(self._now, at)
            callback()
        self._now = target
