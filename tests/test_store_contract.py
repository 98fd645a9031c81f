"""Both stores keep the same promises (SQLite always; PostgreSQL when configured)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import NotFound, Store, StoredEvent, StoredNote, StoreError, TableSpec
from bgclock.store._postgres import PostgresStore
from bgclock.store._schema import LATEST
from bgclock.store._sqlite import SqliteStore
from tests._server_kit import STORES, anyio_backend, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
SPEC = TableSpec(name="4", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=7,
                 score=(1, 0), clock={"delay_ms": 8000}, warn_s=(90, 30, 10))


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


def _event(table_id: int, seq: int, key: str | None = None, at: int = 0) -> StoredEvent:
    return StoredEvent(table_id=table_id, seq=seq, idem_key=key, at_ms=at,
                       event={"v": 1, "do": "hit", "at_ms": at, "side": "A"},
                       source="table", lag_credit_ms=3, received_ms=1_700_000_000_000 + at)


async def test_migrations_run_once_and_reopening_keeps_the_data(
        make: Callable[[], Store]) -> None:
    store = make()
    await store.open()
    t = await store.create_tournament("Open", 5)
    await store.close()
    again = make()
    await again.open()
    try:
        assert await again.schema_version() == LATEST
        assert [x.name for x in await again.tournaments()] == ["Open"]
        assert (await again.tournament(t.id)).created_ms == 5
    finally:
        await again.close()


async def test_tables_events_and_checkpoints(make: Callable[[], Store]) -> None:
    store = make()
    await store.open()
    try:
        t = await store.create_tournament("Open", 1)
        table = await store.create_table(t.id, SPEC, 10)
        other = await store.create_table(t.id, SPEC, 11)
        assert (await store.tables(t.id))[0].spec == SPEC
        await store.commit([_event(table.id, 1, "a", 5), _event(other.id, 1, "b", 6)],
                           {table.id: 900})
        await store.commit([_event(table.id, 2, "c", 7)], {table.id: 800})  # never backwards
        events = await store.events(table.id)
        assert [(e.seq, e.idem_key, e.at_ms) for e in events] == [(1, "a", 5), (2, "c", 7)]
        assert events[0].event == {"v": 1, "do": "hit", "at_ms": 5, "side": "A"}
        assert [e.seq for e in await store.events(table.id, after_seq=1)] == [2]
        # the ids a snapshot up to seq 1 folded in: this table's only
        assert await store.idem_keys(table.id, 1) == ["a"]
        assert sorted(await store.idem_keys(table.id, 2)) == ["a", "c"]
        rows = {r.id: r for r in await store.tables()}
        assert rows[table.id].checkpoint_ms == 900
        edited = await store.update_table(table.id, TableSpec(rules="biba-2014", length=5))
        assert edited.spec.rules == "biba-2014" and edited.created_ms == 10
        assert edited.spec.warn_s == (60, 20, 10)
        edited = await store.update_table(table.id, TableSpec(rules="biba-2014", length=5,
                                                              warn_s=(45,)))
        assert edited.spec.warn_s == (45,)
        assert {r.id: r for r in await store.tables()}[table.id].spec.warn_s == (45,)
        await store.close_table(other.id, 50)
        assert set(await store.all_events()) == {table.id}
    finally:
        await store.close()


async def test_a_commit_is_all_or_nothing(make: Callable[[], Store]) -> None:
    store = make()
    await store.open()
    try:
        t = await store.create_tournament("Open", 1)
        table = await store.create_table(t.id, SPEC, 10)
        await store.commit([_event(table.id, 1, "a")], {})
        with pytest.raises(StoreError):  # seq 1 again: the whole batch is refused
            await store.commit([_event(table.id, 2, "b"), _event(table.id, 1, "c")], {})
        with pytest.raises(StoreError):  # the same idempotency key twice
            await store.commit([_event(table.id, 2, "a")], {})
        assert [e.seq for e in await store.events(table.id)] == [1]
        await store.commit([_event(table.id, 2, None), _event(table.id, 3, None)], {})
        assert [e.seq for e in await store.events(table.id)] == [1, 2, 3]
    finally:
        await store.close()


def _note(table_id: int, n: int, seq: int, key: str | None = None) -> StoredNote:
    return StoredNote(table_id=table_id, n=n, seq=seq, idem_key=key, at_ms=100 * n,
                      note={"type": "summon", "why": "premature", "side": "B"},
                      source="table", received_ms=1_700_000_000_000 + n)


async def test_notes_are_kept_beside_the_log_in_the_same_transaction(
        make: Callable[[], Store]) -> None:
    store = make()
    await store.open()
    try:
        t = await store.create_tournament("Open", 1)
        table = await store.create_table(t.id, SPEC, 10)
        other = await store.create_table(t.id, SPEC, 11)
        await store.commit([_event(table.id, 1, "a")], {}, [_note(table.id, 1, 1, "s")])
        await store.commit([], {}, [_note(table.id, 2, 1), _note(other.id, 1, 0)])
        notes = await store.notes(table.id)
        assert notes == [_note(table.id, 1, 1, "s"), _note(table.id, 2, 1)]
        assert notes[0].note == {"type": "summon", "why": "premature", "side": "B"}
        with pytest.raises(StoreError):  # an event and a note: both or neither
            await store.commit([_event(table.id, 2, "b")], {}, [_note(table.id, 2, 2)])
        with pytest.raises(StoreError):  # the same key twice
            await store.commit([], {}, [_note(table.id, 3, 1, "s")])
        assert [e.seq for e in await store.events(table.id)] == [1]
        assert len(await store.notes(table.id)) == 2
        await store.close_table(other.id, 50)
        assert set(await store.all_notes()) == {table.id}
    finally:
        await store.close()


async def test_an_alert_is_handled_once_per_table_with_its_command(
        make: Callable[[], Store]) -> None:
    # the dashboards' handled alerts are notes keyed handled/KEY (server: _hub)
    def handled(table_id: int, n: int, seq: int, key: str) -> StoredNote:
        return StoredNote(table_id=table_id, n=n, seq=seq, idem_key=f"handled/{key}",
                          at_ms=7, note={"type": "handled", "key": key}, source="director",
                          received_ms=1_700_000_000_000)

    store = make()
    await store.open()
    try:
        t = await store.create_tournament("Open", 1)
        table = await store.create_table(t.id, SPEC, 10)
        other = await store.create_table(t.id, SPEC, 11)
        key = f"{table.id}:summon:1"
        await store.commit([_event(table.id, 1, "director/al.x")], {},
                           [handled(table.id, 1, 1, key)])
        with pytest.raises(StoreError):  # handled twice: refused, and its command with it
            await store.commit([_event(table.id, 2, "director/al.y")], {},
                               [handled(table.id, 2, 2, key)])
        await store.commit([], {}, [handled(other.id, 1, 0, key)])  # another table's own
        assert [e.seq for e in await store.events(table.id)] == [1]
        assert [(x.n, x.note) for x in (await store.all_notes())[table.id]] == [
            (1, {"type": "handled", "key": key})]
    finally:
        await store.close()


async def test_meta_and_not_found(make: Callable[[], Store]) -> None:
    store = make()
    await store.open()
    try:
        assert await store.get_meta("k") is None
        assert await store.set_meta_if_absent("k", "one") == "one"
        assert await store.set_meta_if_absent("k", "two") == "one"
        with pytest.raises(NotFound):
            await store.tournament(42)
        with pytest.raises(NotFound):
            await store.create_table(42, SPEC, 1)
        with pytest.raises(NotFound):
            await store.close_tournament(42, 1)
        t = await store.create_tournament("Open", 1)
        table = await store.create_table(t.id, SPEC, 2)
        assert await store.close_tournament(t.id, 3) == [table.id]
        assert (await store.tournament(t.id)).closed_ms == 3
    finally:
        await store.close()


async def test_a_table_from_before_the_warnings_migration_gets_the_default(
        make: Callable[[], Store], monkeypatch: pytest.MonkeyPatch) -> None:
    import bgclock.store._postgres as pg
    import bgclock.store._sqlite as lite

    old = make()
    monkeypatch.setattr(lite, "LATEST", 1)
    monkeypatch.setattr(pg, "LATEST", 1)
    await old.open()  # a database made by the first schema only
    try:
        assert await old.schema_version() == 1
        # rows as the first schema had them (no club: migration 10)
        made = "INSERT INTO tournaments (name, created_ms) VALUES "
        if isinstance(old, SqliteStore):
            await old._run(lambda db: db.execute(made + "('Old', 1)"))
        else:
            assert isinstance(old, PostgresStore)
            await old.pool.execute(made + "('Old', 1)")
        values = (1, "3", "Ann", "Bob", "usbgf-2013-delay", 5, 0, 0, 0, 0, "{}", 2)
        insert = ("INSERT INTO clock_tables (tournament_id, name, player_a, player_b, rules, "
                  "length, score_a, score_b, teams, crawford, clock, created_ms) VALUES ")
        if isinstance(old, SqliteStore):
            await old._run(lambda db: db.execute(insert + "(?,?,?,?,?,?,?,?,?,?,?,?)", values))
        else:
            assert isinstance(old, PostgresStore)
            await old.pool.execute(insert + "($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)", *values)
    finally:
        await old.close()
    monkeypatch.undo()
    new = make()
    await new.open()
    try:
        assert await new.schema_version() == LATEST
        (row,) = await new.tables()
        assert row.spec.name == "3" and row.spec.warn_s == (60, 20, 10)
    finally:
        await new.close()


async def test_a_forwarded_requests_actions_are_found_by_its_id(
        make: Callable[[], Store]) -> None:
    """A cluster's forwarded request stores its id on its actions (PostgreSQL:
    the process it came from can tell whether it was done); SQLite, which no
    cluster runs on, holds none."""
    from bgclock.store import StoredAction

    store = make()
    await store.open()
    try:
        t = await store.create_tournament("Open", 1)
        await store.append_actions([
            StoredAction(tournament_id=t.id, n=1, at_ms=5, action={"do": "register",
                                                                   "name": "Ann"},
                         source="director", request_id="b.h7"),
            StoredAction(tournament_id=t.id, n=2, at_ms=6, action={"do": "register",
                                                                   "name": "Bob"},
                         source="director")])
        kept = isinstance(store, PostgresStore)
        assert await store.request_stored("b.h7") is kept
        assert await store.request_stored("b.h8") is False
        # the bodies are as before: the id is beside them, not in them
        assert [a.action for a in await store.actions(t.id)] == [
            {"do": "register", "name": "Ann"}, {"do": "register", "name": "Bob"}]
    finally:
        await store.close()
