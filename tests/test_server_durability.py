"""Commit before acknowledge or broadcast; a failed commit applies nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import StoredEvent, StoredNote, StoreError
from bgclock.store._sqlite import SqliteStore
from tests._server_kit import Device, anyio_backend, live_server

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


class GatedStore(SqliteStore):
    """A store whose commits wait for the test, or fail when told."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail = False
        self.batches: list[int] = []

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        await self.gate.wait()
        if self.fail and (events or notes):
            raise StoreError("disk full")
        await super().commit(events, checkpoints, notes)
        if events:
            self.batches.append(len(events))


@pytest.fixture
async def gated(tmp_path: Path) -> Any:
    store = GatedStore(tmp_path / "g.db")
    async with live_server(lambda: store) as server:
        yield server, store


async def test_nothing_is_acknowledged_or_broadcast_before_the_commit(gated: Any) -> None:
    live, store = gated
    table = await live.table()
    async with (
        Device.open(live.ws_url, {"token": table["token"]}) as a,
        Device.open(live.ws_url, {"token": table["token"]}) as b,
    ):
        await a.welcome()
        await b.welcome()
        store.gate.clear()
        await a.send({"type": "cmd", "id": "r1", "do": "opening_roll", "dice": [6, 1]})
        await a.send({"type": "cmd", "id": "h1", "do": "hit", "side": "A"})
        assert await a.quiet(0.3) == [] and await b.quiet(0.1) == []
        store.gate.set()
        got = [await a.recv() for _ in range(4)]
        assert [(m["type"], m["seq"]) for m in got] == [
            ("update", 1), ("ack", 1), ("update", 2), ("ack", 2)]
        assert [(m["seq"]) for m in [await b.recv(), await b.recv()]] == [1, 2]
    # both commands waited in the queue: one transaction took them
    assert store.batches[-1] == 2


async def test_a_failed_commit_applies_nothing(gated: Any) -> None:
    live, store = gated
    table = await live.table()
    async with (
        Device.open(live.ws_url, {"token": table["token"]}) as a,
        Device.open(live.ws_url, {"token": table["token"]}) as b,
    ):
        await a.welcome()
        await b.welcome()
        assert (await a.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
        store.fail = True
        error = await a.cmd("hit", side="A", id="lost")
        assert error["code"] == "storage" and "disk full" in error["message"]
        snapshot = await b.expect("snapshot")
        assert snapshot["seq"] == 1 and snapshot["state"]["on_turn"] == "A"
        store.fail = False
        again = await a.cmd("hit", side="A", id="lost")
        assert again["type"] == "ack" and again["seq"] == 2 and again["duplicate"] is False
    assert [e["seq"] for e in await live.stored(table["id"])] == [1, 2]
