"""The checkpoint ticker: every running table's match time once an interval,
a part of the tables at a time (``Hub._checkpoints``, ``CHECKPOINT_PARTS``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from bgclock.server.edge.auth import RateLimiter
from bgclock.server.live.commands import Command
from bgclock.server.live.hub import CHECKPOINT_PARTS, Hub
from bgclock.server.live.time import WallClock
from bgclock.server.ws.protocol import decode
from bgclock.store import StoredEvent, StoredNote, TableRow, TableSpec
from tests._server_kit import anyio_backend

__all__ = ["anyio_backend"]


class Recording:
    """A store that keeps each commit's checkpoints."""

    def __init__(self) -> None:
        self.checkpoints: list[dict[int, int]] = []

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        if checkpoints:
            self.checkpoints.append(dict(checkpoints))

    async def put_snapshots(self, snapshots: list[Any]) -> None:
        return None


class Device:
    relayed = False
    device = name = "device-1"

    def send(self, text: str) -> None:
        return None


def _roll(table_id: int) -> Command:
    message = decode(json.dumps({"type": "cmd", "id": f"r{table_id}", "do": "opening_roll",
                                 "dice": [6, 1]}))
    assert isinstance(message, Command)
    return message


async def _hub(running: int, idle: int) -> tuple[Hub, Recording, set[int]]:
    """A hub with ``running`` tables whose clock runs and ``idle`` whose clock
    has not started."""
    store = Recording()
    clock = WallClock()
    hub = Hub(store, clock, checkpoint_interval_ms=200)  # type: ignore[arg-type]
    hub.writer.start()
    spec = TableSpec(rules="usbgf-2013-delay", length=7)
    started: set[int] = set()
    for table_id in range(1, running + idle + 1):
        table = hub.add(TableRow(id=table_id, tournament_id=1, spec=spec,
                                 created_ms=clock.now_ms()))
        table.limiter = RateLimiter(1e9, 1e9)
        if table_id <= running:
            table.command(Device(), "table", _roll(table_id))
            started.add(table_id)
    for _ in range(100):
        if all(hub.tables[t].committed_seq >= 1 for t in started):
            break
        await asyncio.sleep(0.01)
    assert all(hub.tables[t].match.expires_at() is not None for t in started)
    return hub, store, started


@pytest.mark.anyio
async def test_each_tick_checkpoints_one_part_and_an_interval_all_running_tables() -> None:
    hub, store, running = await _hub(running=37, idle=5)
    try:
        parts: list[int] = []
        real = hub.checkpoint_now

        def spy(part: int | None = None) -> None:
            assert part is not None
            parts.append(part)
            real(part)

        hub.checkpoint_now = spy  # type: ignore[method-assign]
        ticker = asyncio.get_running_loop().create_task(hub._checkpoints())
        try:
            for _ in range(500):
                if len(parts) >= CHECKPOINT_PARTS + 1:
                    break
                await asyncio.sleep(0.01)
        finally:
            ticker.cancel()
        await asyncio.sleep(0.05)  # the writer commits what the last tick gave it
        assert parts[:CHECKPOINT_PARTS] == list(range(CHECKPOINT_PARTS))
        seen: set[int] = set()
        for checkpoints in store.checkpoints:
            # a commit holds one part's tables (or two, if two ticks met in one)
            assert len({t % CHECKPOINT_PARTS for t in checkpoints}) <= 2
            assert set(checkpoints) <= running  # a clock that is not running: none
            seen |= set(checkpoints)
        assert seen == running  # one interval: every running table once
    finally:
        await hub.writer.close()


@pytest.mark.anyio
async def test_checkpoint_now_without_a_part_is_every_running_table() -> None:
    hub, store, running = await _hub(running=12, idle=3)
    try:
        hub.checkpoint_now()
        for _ in range(100):
            if store.checkpoints:
                break
            await asyncio.sleep(0.01)
        assert set(store.checkpoints[0]) == running
    finally:
        await hub.writer.close()
