"""The PostgreSQL store's start: safe whatever else starts beside it."""

from __future__ import annotations

import asyncio

import pytest

from bgclock.store._postgres import PostgresStore
from bgclock.store._schema import LATEST
from tests._server_kit import POSTGRES, anyio_backend, fresh_schema

__all__ = ["anyio_backend"]

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
]


async def test_three_stores_opened_at_once_on_a_fresh_schema_all_open() -> None:
    """Three servers started together on a schema nobody made yet: each
    opens (the schema made once, each migration run once), none fails on a
    duplicate key."""
    for _ in range(3):  # a race: a few fresh schemas, so a lucky order does not hide it
        async with fresh_schema() as schema:
            assert POSTGRES
            stores = [PostgresStore(POSTGRES, schema=schema) for _ in range(3)]
            try:
                await asyncio.gather(*(s.open() for s in stores))
                for s in stores:
                    assert await s.schema_version() == LATEST
                versions = await stores[0]._fetch("SELECT version FROM schema_version "
                                                  "ORDER BY version")
                assert [v[0] for v in versions] == list(range(1, LATEST + 1))
            finally:
                for s in stores:
                    await s.close()


async def test_a_read_whose_request_went_away_is_cancelled_and_the_pool_stays_whole() -> None:
    """A register list read for a client that hung up is cancelled in
    anyio's way (a cancelled scope cancels every wait in it again, the
    connection's release too, once asyncpg has taken the connection back):
    the cancellation goes on as itself, not as asyncpg's refusal to
    terminate a connection the pool has back, and the pool still serves
    every read after."""
    import anyio

    async with fresh_schema() as schema:
        assert POSTGRES
        store = PostgresStore(POSTGRES, schema=schema)
        await store.open()
        real = store._pool
        released = asyncio.Event()

        class Slow:
            """The pool, whose release waits on after asyncpg took the
            connection back (where a cancel lands)."""

            def __getattr__(self, name: str) -> object:
                return getattr(real, name)

            async def release(self, conn: object, *, timeout: float | None = None) -> None:
                await real.release(conn, timeout=timeout)
                released.set()
                await asyncio.sleep(5)

        try:
            for _ in range(12):  # more than the pool holds: a leak would starve it
                released.clear()
                store._pool = Slow()
                with anyio.CancelScope() as scope:
                    async def cancel_once_released() -> None:
                        await released.wait()
                        scope.cancel()
                    task = asyncio.ensure_future(cancel_once_released())
                    await store.register_stamp(owner=None)
                await task
                assert scope.cancelled_caught
                store._pool = real
            assert await store.register_list("id", owner=None) == []
            assert isinstance(await store.register_stamp(owner=None), tuple)
        finally:
            store._pool = real
            await store.close()


async def test_the_tables_taken_at_once_are_read_as_one_by_one() -> None:
    """``stored_many``: what folding each table reads (row, snapshot, the
    events after it, notes), for many tables in four reads, the same as
    ``live.recovery.read_stored`` reads one by one; a missing table is left
    out."""
    from bgclock.server.live.recovery import read_stored
    from bgclock.store import StoredEvent, StoredNote, StoredSnapshot, TableSpec

    spec = TableSpec(players=("Ann", "Bob"), rules="usbgf-2013-delay", length=7)

    def event(table_id: int, seq: int) -> StoredEvent:
        return StoredEvent(table_id=table_id, seq=seq, idem_key=f"k{table_id}.{seq}",
                           at_ms=seq * 10, event={"v": 1, "do": "hit", "at_ms": seq * 10,
                                                  "side": "A"},
                           source="table", lag_credit_ms=0, received_ms=1)

    async with fresh_schema() as schema:
        assert POSTGRES
        store = PostgresStore(POSTGRES, schema=schema)
        await store.open()
        try:
            t = await store.create_tournament("Club", 1)
            rows = [await store.create_table(t.id, spec, 100 + k) for k in range(4)]
            for k, row in enumerate(rows):
                await store.commit([event(row.id, s) for s in range(1, 3 + 2 * k)], {})
            # a snapshot at seq 2 of the second, one of another time line for the third
            await store.put_snapshots([
                StoredSnapshot(table_id=rows[1].id, created_ms=101, seq=2, version=1,
                               state={"s": 2}, saved_ms=5),
                StoredSnapshot(table_id=rows[2].id, created_ms=999, seq=3, version=1,
                               state={"s": 3}, saved_ms=5)])
            await store.commit([], {}, [StoredNote(
                table_id=rows[3].id, n=1, seq=1, idem_key="n1", at_ms=5,
                note={"type": "summon"}, source="table", received_ms=1)])
            ids = [r.id for r in rows]
            many = await store.stored_many([*ids, 10_000])
            assert sorted(many) == sorted(ids)  # the missing one left out
            for tid in ids:
                assert many[tid] == await read_stored(store, tid)
            assert [e.seq for e in many[rows[1].id][2]] == [3, 4]  # after the snapshot
            assert many[rows[2].id][1] is None  # another match's snapshot is not read
            assert [n.idem_key for n in many[rows[3].id][3]] == ["n1"]
        finally:
            await store.close()
