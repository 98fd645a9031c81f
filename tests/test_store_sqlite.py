"""The SQLite store's durability settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bgclock.store._sqlite import SqliteStore
from tests._server_kit import anyio_backend

__all__ = ["anyio_backend"]


@pytest.mark.anyio
async def test_wal_and_full_synchronous(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "deep" / "folder" / "x.db")
    await store.open()
    try:
        sync = await store._run(lambda db: db.execute("PRAGMA synchronous").fetchone()[0])
        assert sync == 2  # FULL
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "deep" / "folder" / "x.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.anyio
@pytest.mark.parametrize("bulk", [True, False])
async def test_commit_one_statement_per_kind_same_rows(tmp_path: Path, bulk: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk commit (JSON array, one statement per kind of row) stores
    exactly what one statement per row stores, and is all or nothing."""
    from bgclock.store import StoredEvent, StoredNote, StoreError, TableSpec, _sqlite

    monkeypatch.setattr(_sqlite, "SMALL_COMMIT", 0)  # every commit below goes bulk (or not)

    store = SqliteStore(tmp_path / "x.db")
    await store.open()
    store.bulk = bulk
    try:
        t = await store.create_tournament("t", 1)
        rows = [await store.create_table(t.id, TableSpec(rules="usbgf-2013-delay", length=5), 1)
                for _ in range(3)]
        events = [StoredEvent(table_id=r.id, seq=1, idem_key=None if r.id == 2 else f"k{r.id}",
                              at_ms=5 + r.id, event={"do": "x", "why": 'é "q" \\', "n": [1, 2]},
                              source="table", lag_credit_ms=r.id, received_ms=99)
                  for r in rows]
        note = StoredNote(table_id=1, n=1, seq=1, idem_key="s1", at_ms=3,
                          note={"type": "summon", "why": "director", "side": "A"},
                          source="table", received_ms=4)
        await store.commit(events, {rows[0].id: 100, rows[1].id: 50}, [note])
        await store.commit([], {rows[0].id: 90, rows[1].id: 60})  # never backwards
        for e in events:
            assert await store.events(e.table_id) == [e]
        assert await store.notes(1) == [note]
        assert {r.id: r.checkpoint_ms for r in await store.tables()} == {
            rows[0].id: 100, rows[1].id: 60, rows[2].id: None}
        stored = await store._run(lambda db: db.execute(
            "SELECT body FROM clock_events ORDER BY table_id").fetchall())
        assert [b for (b,) in stored] == [e.body() for e in events]
        again = StoredEvent(table_id=rows[2].id, seq=2, idem_key=None, at_ms=9,
                            event={"do": "y"}, source="table", lag_credit_ms=0, received_ms=1)
        with pytest.raises(StoreError):  # a duplicate seq: the whole batch is refused
            await store.commit([again, events[0]], {rows[2].id: 7})
        assert await store.events(rows[2].id) == [events[2]]
        assert (await store.tables())[2].checkpoint_ms is None
    finally:
        await store.close()
