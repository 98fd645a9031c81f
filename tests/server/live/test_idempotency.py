"""A command is applied once, whatever its age (issue 33, item 2;
``bgclock.server.live.idempotency``).

A device resends its whole queue at each reconnection; a command id stored
long ago (its event folded out of the table's window) is answered with its
original ack, from the store, never applied twice nor refused as a storage
error; on both stores, and after a restart (the table folded from a snapshot).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live.idempotency import CommandIds, Line
from bgclock.server.live.time import ManualClock
from bgclock.store import StoredEvent
from tests._server_kit import STORES, Device, Live, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]

FAST = (1000.0, 1000.0)


def _event(seq: int, key: str | None) -> StoredEvent:
    return StoredEvent(table_id=1, seq=seq, idem_key=key, at_ms=seq, event={"do": "hit"},
                       source="table", lag_credit_ms=0, received_ms=0)


def test_an_id_memory_met_is_known_and_one_it_never_met_is_new() -> None:
    ids = CommandIds()
    first, second = _event(1, "a"), _event(2, "b")
    ids.load([first, second], complete=True)
    assert ids.find("a") is first and not ids.unknown("a")
    assert ids.find("z") is None and not ids.unknown("z")  # new: no database call


def test_an_id_that_left_the_window_is_asked_of_the_store() -> None:
    ids = CommandIds()
    first = _event(1, "a")
    ids.load([first], complete=True)
    ids.leave(first)
    assert ids.find("a") is None and ids.unknown("a")
    assert not ids.unknown("never-sent")


def test_a_table_folded_from_a_snapshot_asks_the_store_for_every_id_it_has_not_met() -> None:
    ids = CommandIds()
    ids.load([_event(101, "recent")], complete=False)
    assert not ids.unknown("recent") and ids.unknown("anything-else")


class _Asked:
    """A store that answers the two questions memory asks, and counts them."""

    def __init__(self, stored: list[StoredEvent]) -> None:
        self.stored = {e.idem_key: e for e in stored}
        self.keys_read = 0
        self.rows_read = 0

    async def idem_keys(self, table_id: int, upto_seq: int) -> list[str]:
        self.keys_read += 1
        return [k for k, e in self.stored.items() if k is not None and e.seq <= upto_seq]

    async def event_by_key(self, table_id: int, key: str) -> StoredEvent | None:
        self.rows_read += 1
        return self.stored.get(key)


@pytest.mark.anyio
async def test_memory_folded_from_a_snapshot_reads_the_ids_it_did_not_meet_once() -> None:
    """A table taken over (or restarted) from its snapshot asks the store for
    the folded ids once; then a new id is new without a database call, and an
    old one is found by its row."""
    old = [_event(seq, f"old-{seq}") for seq in range(1, 101)]
    store = _Asked([*old, _event(101, "recent")])
    ids = CommandIds()
    ids.load([_event(101, "recent")], complete=False, folded_upto=100)
    assert ids.unknown("new-1")
    await ids.recall(store, 1, "new-1", 101)  # type: ignore[arg-type]
    assert (store.keys_read, store.rows_read) == (1, 0) and ids.complete
    assert not ids.unknown("new-2") and not ids.unknown("new-3")  # new, no call
    assert ids.unknown("old-7")  # met among the folded ids: its row says
    await ids.recall(store, 1, "old-7", 101)  # type: ignore[arg-type]
    assert ids.find("old-7") is old[6] and (store.keys_read, store.rows_read) == (1, 1)


def test_a_rolled_back_event_is_forgotten_and_its_id_is_new_again() -> None:
    ids = CommandIds()
    ids.load([], complete=True)
    lost = _event(1, "a")
    ids.add(lost)
    ids.forget(lost)
    assert ids.find("a") is None and not ids.unknown("a")


@pytest.mark.anyio
async def test_the_line_runs_its_steps_in_order_one_at_a_time() -> None:
    line = Line("test")
    done: list[int] = []
    gate = asyncio.Event()

    async def slow() -> None:
        await gate.wait()
        done.append(1)

    async def quick() -> None:
        done.append(2)

    line.add(slow)
    line.add(quick)
    assert line.busy
    gate.set()
    while line.busy:
        await asyncio.sleep(0)
    assert done == [1, 2]


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Any]:
    """Makes stores that reach one fresh database (each store in turn)."""
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


def fast(make: Any, clock: ManualClock) -> Any:
    """A server without rate limits, on a manual clock."""
    return live_server(make, clock=clock, table_rate=FAST)


def _now(clock: ManualClock, table: dict[str, Any]) -> int:
    return clock.now_ms() - int(table["created_ms"])


async def _presses(live: Live, d: Device, clock: ManualClock, table: dict[str, Any], n: int,
                   first_side: str = "A") -> list[dict[str, Any]]:
    """``n`` presses of the keeper, the sides in turn, a second apart."""
    acks = []
    sides = "AB" if first_side == "A" else "BA"
    for i in range(n):
        clock.advance(1000)
        ack = await d.cmd("hit", side=sides[i % 2], device_at_ms=_now(clock, table))
        assert ack["type"] == "ack" and not ack.get("noop"), ack
        acks.append(ack)
    return acks


@pytest.mark.anyio
async def test_a_command_id_resent_after_350_presses_gets_its_original_ack(make: Any) -> None:
    clock = ManualClock()
    async with fast(make, clock) as live:
        live.server.hub.table_rate = FAST
        table = await live.table(rules="usbgf-2013-delay", length=5)
        tid = table["id"]
        hello = {"token": table["token"], "device": "phone-1"}
        async with Device.open(live.ws_url, hello) as d:
            await d.welcome()
            assert (await d.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
            clock.advance(1000)
            first = await d.cmd("hit", side="A", id="first-press",
                                device_at_ms=_now(clock, table))
            assert (first["type"], first["seq"], first["duplicate"]) == ("ack", 2, False)
            await _presses(live, d, clock, table, 349, first_side="B")
            assert "first-press" not in live.server.hub.tables[tid].ids.window  # folded away
            clock.advance(1000)
            again = await d.cmd("hit", side="B", id="first-press",
                                device_at_ms=_now(clock, table))
            assert again == {**first, "duplicate": True}
            assert not [m for m in d.history if m["type"] == "error"]
        stored = await live.stored(tid)
        assert [e["seq"] for e in stored] == list(range(1, 352))
        assert [e["idem_key"] for e in stored].count("first-press") == 1
    # after a restart the table is folded from a snapshot: memory has not met
    # the old ids at all, and the store still answers
    async with fast(make, clock) as live:
        assert not live.server.hub.tables[tid].ids.complete
        async with Device.open(live.ws_url, hello) as d:
            await d.welcome()
            resent = await d.cmd("hit", side="B", id="first-press",
                                 device_at_ms=_now(clock, table))
            assert resent == {**first, "duplicate": True}
            # memory read the folded ids once: new presses ask the store nothing
            assert live.server.hub.tables[tid].ids.complete
            asked: list[str] = []
            by_key = live.server.store.event_by_key

            async def counted(table_id: int, key: str) -> Any:
                asked.append(key)
                return await by_key(table_id, key)

            live.server.store.event_by_key = counted  # type: ignore[method-assign]
            await _presses(live, d, clock, table, 3)
            assert asked == []
        assert len(await live.stored(tid)) == 354
