"""Calls asked for while one is in flight, made together in the next.

When a process leaves, its tables arrive at the others all at once: each
would take its lease and read its log in round trips of its own, queued
one behind the other.  ``Batched`` makes one call for all the keys asked for
meanwhile (the lease takes, ``lease.Leases.take``; the tables' loads,
``node.Cluster``), the way the writer commits a group."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Batched(Generic[K, V]):
    """``get(key)``: the value ``run`` gives for ``key``, ``run`` called once
    for every key asked for while the call before was in flight; a key that
    ``run`` leaves out gets ``missing(key)`` (which may raise); an error of
    ``run`` is each of its askers'."""

    def __init__(self, run: Callable[[list[K]], Awaitable[dict[K, V]]],
                 missing: Callable[[K], V], name: str) -> None:
        self.run = run
        self.missing = missing
        self.name = name
        self._waiting: dict[K, asyncio.Future[V]] = {}
        self._task: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V:
        waiting = self._waiting.get(key)
        if waiting is None:
            waiting = asyncio.get_running_loop().create_future()
            self._waiting[key] = waiting
            if self._task is None or self._task.done():
                self._task = asyncio.get_running_loop().create_task(self._calls(),
                                                                    name=self.name)
        return await asyncio.shield(waiting)

    async def _calls(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, {}
            try:
                got = await self.run(list(batch))
            except Exception as exc:  # noqa: BLE001 - each asker gets it
                for waiting in batch.values():
                    if not waiting.done():
                        waiting.set_exception(exc)
                continue
            except BaseException:
                for waiting in batch.values():
                    waiting.cancel()
                raise
            for key, waiting in batch.items():
                if waiting.done():
                    continue
                if key in got:
                    waiting.set_result(got[key])
                    continue
                try:
                    waiting.set_result(self.missing(key))
                except Exception as exc:  # noqa: BLE001 - the asker's
                    waiting.set_exception(exc)

    async def close(self) -> None:
        """Stop (at the process's stop): the calls in flight end."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
