"""One process owns a store; a write cut off by the deadline is never half-told.

``Store.claim``: a flock beside the SQLite file, a session advisory lock per
PostgreSQL schema.  ``Doubt``: a write whose answer the deadline cut off is
removed before the next write, should it have landed after all.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import (
    Doubt,
    Store,
    StoreBusy,
    StoredEvent,
    StoreUnavailable,
    TableRow,
    TableSpec,
    check_deadline,
)
from bgclock.store._postgres import PostgresStore, lock_key
from bgclock.store._sqlite import SqliteStore
from bgclock.store.connect import open_store
from tests._server_kit import POSTGRES, STORES, anyio_backend, fresh_schema, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
SPEC = TableSpec(name="1", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=3)
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set")


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


def _event(table_id: int, seq: int, received_ms: int) -> StoredEvent:
    return StoredEvent(table_id=table_id, seq=seq, idem_key=f"k{seq}-{received_ms}",
                       at_ms=seq * 100, event={"v": 1, "do": "hit", "at_ms": seq * 100,
                                               "side": "A"},
                       source="table", lag_credit_ms=0, received_ms=received_ms)


async def test_a_second_claim_is_refused_until_the_first_store_closes(
        make: Callable[[], Store]) -> None:
    first, second = make(), make()
    await first.open()
    await second.open()
    try:
        await first.claim()
        await first.claim()  # again: nothing
        with pytest.raises(StoreBusy, match="in use by another bgclock serve"):
            await second.claim()
        await first.close()
        await second.claim()
        assert second.lost is None
        await second.create_tournament("Still writable", 1)
    finally:
        await first.close()
        await second.close()


async def test_the_sqlite_lock_file_names_the_owner_and_any_spelling_of_the_path_meets_it(
        tmp_path: Path) -> None:
    first = SqliteStore(tmp_path / "club.db")
    other = SqliteStore(f"{tmp_path}/./sub/../club.db")
    await first.open()
    await other.open()
    try:
        await first.claim()
        assert first.lock_path == tmp_path / "club.db.lock"
        assert first.lock_path.read_text().strip().isdigit()
        with pytest.raises(StoreBusy, match=r"\(pid \d+\)"):
            await other.claim()
    finally:
        await first.close()
        await other.close()


@needs_postgres
async def test_two_schemas_have_two_locks() -> None:
    assert POSTGRES
    assert lock_key("club_a") != lock_key("club_b")
    async with fresh_schema() as a, fresh_schema() as b:
        one, two = open_store(POSTGRES, schema=a), open_store(POSTGRES, schema=b)
        await one.open()
        await two.open()
        try:
            await one.claim()
            await two.claim()  # another schema: another store
        finally:
            await one.close()
            await two.close()


async def _session_of(store: PostgresStore) -> int:
    assert store._lock_pid is not None
    return store._lock_pid


async def _terminate(pid: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(400):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


@needs_postgres
async def test_a_lost_advisory_lock_stops_the_writes_until_it_is_taken_back() -> None:
    assert POSTGRES
    async with fresh_schema() as schema:
        store = PostgresStore(POSTGRES, schema=schema, deadline_s=2.0)
        await store.open()
        try:
            await store.claim()
            t = await store.create_tournament("Open", 1)
            await _terminate(await _session_of(store))
            await _until(lambda: store.lost is not None, "the loss is noticed")
            with pytest.raises(StoreUnavailable, match="claim"):
                await store.create_tournament("While lost", 2)
            assert [x.name for x in await store.tournaments()] == ["Open"]  # reads go on
            await _until(lambda: store.lost is None, "the claim is back")
            row = await store.create_table(t.id, SPEC, 3)
            await store.commit([_event(row.id, 1, 5)], {})
            assert [e.seq for e in await store.events(row.id)] == [1]
        finally:
            await store.close()


@needs_postgres
async def test_a_store_taken_over_meanwhile_is_lost_for_good(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import bgclock.store._postgres as pg

    assert POSTGRES
    monkeypatch.setattr(pg, "WATCH_INTERVAL_S", 2.0)  # the other server claims first
    async with fresh_schema() as schema:
        first = PostgresStore(POSTGRES, schema=schema)
        told: list[str] = []
        first.on_lost = told.append
        second = PostgresStore(POSTGRES, schema=schema)
        await first.open()
        await second.open()
        try:
            await first.claim()
            await _terminate(await _session_of(first))
            await second.claim()  # waits, within its patience, for the old session to go
            await _until(lambda: bool(told), "the first is told")
            assert first.lost is not None and "another bgclock serve" in first.lost
            with pytest.raises(StoreUnavailable):
                await first.create_tournament("Too late", 1)
            await second.create_tournament("The new owner", 1)
        finally:
            await first.close()
            await second.close()


async def _commit_then_stall(store: Store, release: threading.Event | asyncio.Event,
                             table_id: int, seq: int = 1) -> None:
    """A commit that lands but whose answer never comes in time (a COMMIT
    that arrived while the link died)."""
    event = _event(table_id, seq, 111)
    writes = Doubt()
    writes.add(events=[event])
    row = (event.table_id, event.seq, event.idem_key, event.at_ms, event.body(), event.source,
           event.lag_credit_ms, event.received_ms)
    if isinstance(store, SqliteStore):
        assert isinstance(release, threading.Event)

        def write(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO clock_events (table_id, seq, idem_key, at_ms, body, source, "
                       "lag_credit_ms, received_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            release.wait(30)

        await store._run(write, writes=writes)
    else:
        assert isinstance(store, PostgresStore) and isinstance(release, asyncio.Event)

        async def write_pg(c: Any) -> None:
            await c.execute("INSERT INTO clock_events (table_id, seq, idem_key, at_ms, body, "
                            "source, lag_credit_ms, received_ms) "
                            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", *row)
            await release.wait()

        await store._with(write_pg, writes=writes)


async def _a_commit_left_in_doubt(store: Store) -> TableRow:
    """``store`` opened with a 1 s deadline, a table, and its first press's
    commit left in doubt (landed, its sender told it did not)."""
    store.deadline_s = 1.0
    await store.open()
    t = await store.create_tournament("Open", 1)
    row = await store.create_table(t.id, SPEC, 2)
    release: threading.Event | asyncio.Event = (
        threading.Event() if isinstance(store, SqliteStore) else asyncio.Event())
    with pytest.raises(StoreUnavailable, match="within 1 s"):
        await _commit_then_stall(store, release, row.id)
    release.set()
    return row


@pytest.mark.parametrize("kind", STORES)
async def test_a_write_left_in_doubt_is_removed_before_the_next_write(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        store = make()
        try:
            row = await _a_commit_left_in_doubt(store)
            # the row landed (autocommit), but its sender was told it did not:
            # the next write removes it and takes the same seq for its own
            await store.commit([_event(row.id, 1, 222)], {})
            stored = await store.events(row.id)
            assert [(e.seq, e.received_ms) for e in stored] == [(1, 222)]
            # left in doubt again, then the server stops: closing settles it
            release: threading.Event | asyncio.Event = (
                threading.Event() if kind == "sqlite" else asyncio.Event())
            with pytest.raises(StoreUnavailable):
                await _commit_then_stall(store, release, row.id, seq=2)
            release.set()
        finally:
            await store.close()
        again = make()
        await again.open()
        try:
            stored = await again.events(row.id)
            assert [(e.seq, e.received_ms) for e in stored] == [(1, 222)]
        finally:
            await again.close()


@pytest.mark.parametrize("kind", STORES)
async def test_a_read_after_a_write_left_in_doubt_does_not_see_it(
        kind: str, tmp_path: Path) -> None:
    """A commit whose answer timed out landed after all: the table that
    reloads from the store, and a resent press looked up by its id, must
    not find it (its sender was told it was not stored, and the next write
    takes it away: a resend answered "already stored" from it would be
    lost)."""
    async with store_factory(kind, tmp_path) as make:
        store = make()
        try:
            row = await _a_commit_left_in_doubt(store)
            key = _event(row.id, 1, 111).idem_key
            assert await store.event_by_key(row.id, key) is None
            assert await store.events(row.id) == []
            # the resend is stored once, and the next write keeps it
            await store.commit([dataclasses.replace(_event(row.id, 1, 333), idem_key=key)], {})
            await store.commit([_event(row.id, 2, 444)], {})
            assert (await store.event_by_key(row.id, key) or _event(0, 0, 0)).received_ms == 333
            stored = await store.events(row.id)
            assert [(e.seq, e.received_ms) for e in stored] == [(1, 333), (2, 444)]
        finally:
            await store.close()


def test_the_deadline_is_bounded() -> None:
    assert check_deadline(5) == 5.0
    for bad in (0.5, 61, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="--db-timeout"):
            check_deadline(bad)
    with pytest.raises(ValueError, match="--db-timeout"):
        open_store("x.db", deadline_s=0)


@pytest.mark.parametrize("kind", STORES)
async def test_a_tournament_and_a_table_created_in_doubt_are_removed(
        kind: str, tmp_path: Path) -> None:
    """The director was told 503 (nothing was made): should the rows have
    landed, the next write removes them, and the director's retry makes one."""
    async with store_factory(kind, tmp_path) as make:
        store = make()
        store.deadline_s = 1.0
        await store.open()
        try:
            t = await store.create_tournament("Open", 1)
            writes = Doubt(tournaments=[("Ghost", 7)], tables=[(t.id, "9", 8)])
            release: threading.Event | asyncio.Event
            if isinstance(store, SqliteStore):
                release = threading.Event()

                def create(db: sqlite3.Connection) -> None:
                    db.execute("INSERT INTO tournaments (name, created_ms) VALUES ('Ghost', 7)")
                    db.execute("INSERT INTO clock_tables (tournament_id, name, player_a, "
                               "player_b, rules, length, score_a, score_b, teams, crawford, "
                               "clock, created_ms) VALUES (?, '9', 'A', 'B', "
                               "'usbgf-2013-delay', 3, 0, 0, 0, 0, '{}', 8)", (t.id,))
                    release.wait(30)

                with pytest.raises(StoreUnavailable):
                    await store._run(create, writes=writes)
            else:
                assert isinstance(store, PostgresStore)
                release = asyncio.Event()

                async def create_pg(c: Any) -> None:
                    await c.execute("INSERT INTO tournaments (name, created_ms) "
                                    "VALUES ('Ghost', 7)")
                    await c.execute("INSERT INTO clock_tables (tournament_id, name, player_a, "
                                    "player_b, rules, length, score_a, score_b, teams, "
                                    "crawford, clock, created_ms) VALUES ($1, '9', 'A', 'B', "
                                    "'usbgf-2013-delay', 3, 0, 0, 0, 0, '{}', 8)", t.id)
                    await release.wait()

                with pytest.raises(StoreUnavailable):
                    await store._with(create_pg, writes=writes)
            release.set()
            real = await store.create_tournament("Real", 9)
            assert [x.name for x in await store.tournaments()] == ["Open", "Real"]
            assert await store.tables() == []
            assert (await store.create_table(real.id, SPEC, 10)).tournament_id == real.id
        finally:
            await store.close()
