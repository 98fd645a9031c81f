"""Both stores keep each table's snapshot (``clock_snapshots``) and give a
start the events after it (SQLite always; PostgreSQL when configured)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import Store, StoredEvent, StoredSnapshot, TableSpec
from tests._server_kit import STORES, anyio_backend, damage_snapshot, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
SPEC = TableSpec(players=("Ann", "Bob"), rules="usbgf-2013-delay", length=7)


@pytest.fixture(params=STORES)
async def store(request: Any, tmp_path: Path) -> AsyncIterator[Store]:
    async with store_factory(request.param, tmp_path) as make:
        opened = make()
        await opened.open()
        try:
            yield opened
        finally:
            await opened.close()


def _event(table_id: int, seq: int) -> StoredEvent:
    return StoredEvent(table_id=table_id, seq=seq, idem_key=f"k{seq}", at_ms=seq * 10,
                       event={"v": 1, "do": "hit", "at_ms": seq * 10, "side": "A"},
                       source="table", lag_credit_ms=0, received_ms=1_700_000_000_000)


def _snap(table_id: int, created_ms: int, seq: int, mark: str = "x") -> StoredSnapshot:
    return StoredSnapshot(table_id=table_id, created_ms=created_ms, seq=seq, version=1,
                          state={"mark": mark, "seq": seq}, saved_ms=5)


async def test_a_start_reads_each_open_table_from_its_snapshot_on(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    snapped = await store.create_table(t.id, SPEC, 100)
    bare = await store.create_table(t.id, SPEC, 200)
    await store.commit([_event(snapped.id, s) for s in range(1, 8)]
                       + [_event(bare.id, s) for s in range(1, 4)], {})
    assert await store.snapshot(snapped.id) is None
    await store.put_snapshots([_snap(snapped.id, 100, 5)])
    got = await store.snapshot(snapped.id)
    assert got == _snap(snapped.id, 100, 5)
    assert await store.all_snapshots() == {snapped.id: got}
    tails = await store.all_tails()
    assert [e.seq for e in tails[snapped.id]] == [6, 7]
    assert bare.id not in tails  # no snapshot: read alone (``events``)
    short = await store.all_tails(3)  # but a log of at most 3 events comes whole
    assert [e.seq for e in short[bare.id]] == [1, 2, 3] and short[snapped.id] == tails[snapped.id]
    empty = await store.create_table(t.id, SPEC, 300)
    assert (await store.all_tails(2)).get(empty.id) == []
    assert bare.id not in await store.all_tails(2)
    assert [e.seq for e in await store.events_page(snapped.id, 2, 3)] == [3, 4, 5]


async def test_an_older_snapshot_never_replaces_a_newer_one(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    table = await store.create_table(t.id, SPEC, 100)
    await store.put_snapshots([_snap(table.id, 100, 9, "new")])
    await store.put_snapshots([_snap(table.id, 100, 4, "old")])
    got = await store.snapshot(table.id)
    assert got is not None and got.state["mark"] == "new"


async def test_a_next_match_drops_the_snapshot_and_a_late_one_of_the_old_match_is_refused(
        store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    table = await store.create_table(t.id, SPEC, 100)
    await store.commit([_event(table.id, s) for s in range(1, 4)], {})
    await store.put_snapshots([_snap(table.id, 100, 3)])
    await store.next_match(table.id, SPEC, 5_000)
    assert await store.snapshot(table.id) is None
    await store.put_snapshots([_snap(table.id, 100, 3)])  # written late, for the old match
    assert await store.snapshot(table.id) is None
    assert await store.all_tails() == {table.id: []}  # a new match, no events
    await store.put_snapshots([_snap(table.id, 5_000, 0)])
    assert await store.snapshot(table.id) == _snap(table.id, 5_000, 0)


async def test_a_closed_table_is_not_read_at_start(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    table = await store.create_table(t.id, SPEC, 100)
    await store.commit([_event(table.id, 1)], {})
    await store.put_snapshots([_snap(table.id, 100, 1)])
    await store.close_table(table.id, 9)
    assert await store.all_snapshots() == {}
    assert await store.all_tails() == {}
    assert await store.snapshot(table.id) is not None  # read when the table is


async def test_a_body_that_is_not_json_reads_as_an_empty_state(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    table = await store.create_table(t.id, SPEC, 100)
    await store.put_snapshots([_snap(table.id, 100, 1)])
    await _corrupt(store, table.id)
    got = await store.snapshot(table.id)
    assert got is not None and got.state == {}


async def _corrupt(store: Store, table_id: int) -> None:
    """Damage a stored snapshot's body (as a disk or a hand might)."""
    await damage_snapshot(store, table_id, '{"mat')
