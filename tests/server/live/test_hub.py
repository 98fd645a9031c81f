"""A failed commit never leaves a table unable to store (issue 33, item 2;
``TableHub.failed``, ``TableHub.reload``, ``Writer.discard``).

A commit the database refuses (here a ``UNIQUE ... seq`` error injected
once, with a press queued behind it) rolls the table back, takes back what
it had queued after it, reloads the table from the store and says so on the
dashboard; the presses sent again are stored, in order, and so is the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live.time import ManualClock
from bgclock.store import StoredEvent, StoredNote, StoreError
from tests._server_kit import KEY, STORES, Device, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

FAST = (1000.0, 1000.0)
REFUSAL = "UNIQUE constraint failed: clock_events.table_id, clock_events.seq"


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Any]:
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


async def _until(test: Any) -> None:
    """Wait (on the loop) until ``test()`` holds."""
    for _ in range(5000):
        if test():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never came")


async def test_a_failed_commit_reloads_the_table_and_it_goes_on_storing(
        make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    async with live_server(make, clock=clock, table_rate=FAST) as live:
        table = await live.table(rules="usbgf-2013-delay", length=5)
        tid = table["id"]
        store = live.server.hub.writer.store
        real = store.commit
        gate = asyncio.Event()
        gate.set()
        refusals = [REFUSAL, REFUSAL]  # the batch, then the item alone

        async def commit(events: list[StoredEvent], checkpoints: dict[int, int],
                         notes: Sequence[StoredNote] = ()) -> None:
            await gate.wait()
            if refusals and events:
                raise StoreError(refusals.pop())
            await real(events, checkpoints, notes)

        hub = live.server.hub
        async with (
            Device.open(live.ws_url, {"token": table["token"], "device": "phone"}) as d,
            Device.open(live.ws_url, {"key": KEY}) as director,
        ):
            await d.welcome()
            await director.expect("welcome")
            assert (await d.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
            monkeypatch.setattr(store, "commit", commit)
            gate.clear()
            await d.send({"type": "cmd", "id": "h-fail", "do": "hit", "side": "A"})
            await _until(lambda: hub.tables[tid].seq == 2)
            await d.send({"type": "cmd", "id": "h-behind", "do": "hit", "side": "B"})
            await _until(lambda: hub.tables[tid].seq == 3)  # queued behind the commit
            gate.set()
            errors = {(await d.expect("error"))["id"] for _ in range(2)}
            assert errors == {"h-fail", "h-behind"}
            while True:  # the dashboard's card hears of the reload
                info = (await director.expect("snapshot"))["info"]
                if info["reloaded"] is not None:
                    break
            assert REFUSAL in info["reloaded"]["why"] and info["reloaded"]["seq"] == 1
            # sent again (as the page does): stored in order, and so is the rest
            assert (await d.cmd("hit", side="A", id="h-fail"))["seq"] == 2
            assert (await d.cmd("hit", side="B", id="h-behind"))["seq"] == 3
            for n, side in enumerate("ABA"):
                ack = await d.cmd("hit", side=side)
                assert (ack["type"], ack["seq"]) == ("ack", 4 + n), ack
        stored = await live.stored(tid)
        assert [e["seq"] for e in stored] == [1, 2, 3, 4, 5, 6]
        assert [e["idem_key"] for e in stored][1:3] == ["h-fail", "h-behind"]
        assert hub.tables[tid].committed_seq == 6 and not hub.tables[tid].reloading
