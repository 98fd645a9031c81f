"""The players' register keeps the same promises in both stores (SQLite
always; PostgreSQL when BGCLOCK_TEST_POSTGRES is set): its entries, rated
matches and rated tournaments (issue 23 §4), one register per club (issue
37 §4, migration 11), and the register made before migration 11 kept whole
by it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import NotFound, RegisterEntry, RegisterLine, Store, StoreError
from bgclock.store._postgres import PostgresStore
from bgclock.store._schema import LATEST
from bgclock.store._sqlite import SqliteStore
from tests._server_kit import STORES, anyio_backend, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
#: The server's own register, and two clubs'.
SERVER, PISA, LUCCA = None, "pisa", "lucca"


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


@pytest.fixture
async def store(make: Callable[[], Store]) -> AsyncIterator[Store]:
    s = make()
    await s.open()
    try:
        yield s
    finally:
        await s.close()


def _entry(name: str, fed: str | None = None, rating: int = 150_000) -> RegisterEntry:
    return RegisterEntry(name=name, name_key=name.lower(), federation_id=fed, club="Roma",
                         rating=rating, experience=0, created_ms=1, updated_ms=1)


def _line(player: int, opponent: int, won: bool, before: int, after: int,
          tournament: int) -> RegisterLine:
    return RegisterLine(player_id=player, tournament_id=tournament, tournament_name="Open",
                        event="main", round=0, match=0, opponent_id=opponent,
                        opponent_name="x", length=5, won=won, rating_before=before,
                        rating_after=after, experience_before=0, experience_after=5, at_ms=9)


async def test_entries_are_added_found_searched_and_edited(store: Store) -> None:
    assert await store.schema_version() == LATEST
    ann = await store.register_add(_entry("Ann Rossi", "FIBT1", 160_000), owner=SERVER)
    bob = await store.register_add(_entry("Bob_Verdi", None, 140_000), owner=SERVER)
    await store.register_add(_entry("Carla 100%", "FIBT3"), owner=SERVER)
    assert (await store.register_entry(ann.id, owner=SERVER)).federation_id == "FIBT1"
    assert [e.id for e in await store.register_find(owner=SERVER, federation_id="FIBT1")] == [
        ann.id]
    assert [e.id for e in await store.register_find(owner=SERVER, name_key="bob_verdi")] == [
        bob.id]
    found, total = await store.register_search("o", owner=SERVER, limit=10)
    assert total == 2 and [e.name for e in found] == ["Ann Rossi", "Bob_Verdi"]
    # LIKE's own characters are taken literally
    assert (await store.register_search("_", owner=SERVER, limit=10))[1] == 1
    assert (await store.register_search("%", owner=SERVER, limit=10))[1] == 1
    # a federation id in any case
    assert [e.id for e in (await store.register_search("fibt1", owner=SERVER, limit=10))[0]
            ] == [ann.id]
    page, total = await store.register_search("", owner=SERVER, limit=2, offset=2,
                                              order="name")
    assert total == 3 and [e.name for e in page] == ["Carla 100%"]
    by_rating, _ = await store.register_search("", owner=SERVER, limit=3, order="rating")
    assert [e.name for e in by_rating] == ["Ann Rossi", "Carla 100%", "Bob_Verdi"]
    edited = await store.register_update(RegisterEntry(
        id=bob.id, name="Bob Verdi", name_key="bob verdi", federation_id="FIBT2", club=None,
        rating=140_000, experience=0, updated_ms=5), owner=SERVER)
    assert edited.created_ms == 1 and edited.updated_ms == 5 and edited.club is None
    with pytest.raises(StoreError):  # a federation id is one person's
        await store.register_add(_entry("Ann Again", "FIBT1"), owner=SERVER)
    with pytest.raises(NotFound):
        await store.register_entry(999, owner=SERVER)
    with pytest.raises(NotFound):
        await store.register_update(RegisterEntry(id=999, name="x", name_key="x", rating=1,
                                                  experience=0), owner=SERVER)


async def test_save_is_all_or_nothing(store: Store) -> None:
    ann = await store.register_add(_entry("Ann", "F1"), owner=SERVER)
    saved = await store.register_save([
        RegisterEntry(id=ann.id, name="Ann B", name_key="ann b", federation_id="F1",
                      rating=151_000, experience=7, updated_ms=3),
        _entry("Dan", "F4")], owner=SERVER)
    assert [e.name for e in saved] == ["Ann B", "Dan"] and saved[1].id > ann.id
    with pytest.raises(StoreError):
        await store.register_save([_entry("Eve", "F5"), _entry("Fay", "F1")], owner=SERVER)
    assert (await store.register_search("", owner=SERVER, limit=10))[1] == 2
    assert (await store.register_entry(ann.id, owner=SERVER)).rating == 151_000


async def test_a_tournament_is_rated_once(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    a = await store.register_add(_entry("Ann"), owner=SERVER)
    b = await store.register_add(_entry("Bob"), owner=SERVER)
    lines = [_line(a.id, b.id, True, 150_000, 152_236, t.id),
             _line(b.id, a.id, False, 150_000, 147_764, t.id)]
    assert await store.register_rated(t.id) is None
    assert await store.register_rate(t.id, 50, lines, owner=SERVER) is True
    assert await store.register_rate(t.id, 60, lines, owner=SERVER) is False
    assert await store.register_rated(t.id) == (50, 1)
    assert (await store.register_entry(a.id, owner=SERVER)).rating == 152_236
    assert (await store.register_entry(b.id, owner=SERVER)).experience == 5
    history = await store.register_history(a.id, owner=SERVER)
    assert [(x.n, x.won, x.rating_before, x.rating_after) for x in history] == [
        (1, True, 150_000, 152_236)]
    t2 = await store.create_tournament("Next", 2)
    await store.register_rate(t2.id, 70, [_line(a.id, b.id, False, 152_236, 150_000, t2.id)],
                              owner=SERVER)
    assert [x.n for x in await store.register_history(a.id, owner=SERVER)] == [1, 2]
    assert (await store.register_entry(a.id, owner=SERVER)).rating == 150_000


# ------------------------------------------------------------ a register per club

async def test_each_club_reads_and_changes_its_own_register_only(store: Store) -> None:
    # issue 37 §4: "sees and changes only its own tournaments, tables and register"
    own = await store.register_add(_entry("Ann Rossi", "FIBT1", 160_000), owner=SERVER)
    pisa = await store.register_add(_entry("Ann Rossi", "FIBT1", 155_000), owner=PISA)
    lucca = await store.register_add(_entry("Ann Rossi", "FIBT1", 170_000), owner=LUCCA)
    # one federation id in three registers: three people; twice in one: refused
    assert len({own.id, pisa.id, lucca.id}) == 3
    with pytest.raises(StoreError):
        await store.register_add(_entry("Someone Else", "FIBT1"), owner=PISA)
    for who, mine in ((SERVER, own), (PISA, pisa), (LUCCA, lucca)):
        assert [e.id for e in await store.register_find(owner=who, federation_id="FIBT1")] == [
            mine.id]
        assert [e.id for e in await store.register_find(owner=who, name_key="ann rossi")] == [
            mine.id]
        found, total = await store.register_search("ann", owner=who, limit=10)
        assert total == 1 and [e.id for e in found] == [mine.id]
        assert [e.id for e in (await store.register_search("", owner=who, limit=10))[0]] == [
            mine.id]
        assert [e.id for e in await store.register_list("id", owner=who)] == [mine.id]
        assert (await store.register_entry(mine.id, owner=who)).rating == mine.rating
        for theirs in {own.id, pisa.id, lucca.id} - {mine.id}:
            with pytest.raises(NotFound):  # another register's: as an id never given
                await store.register_entry(theirs, owner=who)
    # Pisa cannot change Lucca's person, alone or in a batch, nor read its history
    with pytest.raises(NotFound):
        await store.register_update(RegisterEntry(id=lucca.id, name="Taken", name_key="taken",
                                                  rating=1, experience=0), owner=PISA)
    with pytest.raises(NotFound):
        await store.register_save([_entry("New in Pisa"),
                                   RegisterEntry(id=lucca.id, name="Taken", name_key="taken",
                                                 rating=1, experience=0)], owner=PISA)
    assert (await store.register_entry(lucca.id, owner=LUCCA)).name == "Ann Rossi"
    assert [e.id for e in await store.register_list("id", owner=PISA)] == [pisa.id]
    # a stamp is one register's: a change to Lucca's leaves Pisa's stamp as it was
    before = await store.register_stamp(owner=PISA)
    await store.register_add(_entry("Bruno"), owner=LUCCA)
    assert await store.register_stamp(owner=PISA) == before
    await store.register_add(_entry("Bruno"), owner=PISA)  # one name in two registers
    assert await store.register_stamp(owner=PISA) != before


async def test_a_clubs_tournament_rates_its_own_people_only(store: Store) -> None:
    t = await store.create_tournament("Coppa", 1, PISA)
    a = await store.register_add(_entry("Ann"), owner=PISA)
    b = await store.register_add(_entry("Bob"), owner=PISA)
    stranger = await store.register_add(_entry("Carla"), owner=LUCCA)
    # a line of Lucca's person: refused whole, nothing rated
    with pytest.raises(NotFound):
        await store.register_rate(t.id, 50, [
            _line(a.id, stranger.id, True, 150_000, 152_236, t.id),
            _line(stranger.id, a.id, False, 150_000, 147_764, t.id)], owner=PISA)
    assert await store.register_rated(t.id) is None
    assert (await store.register_entry(stranger.id, owner=LUCCA)).rating == 150_000
    assert await store.register_history(a.id, owner=PISA) == []
    assert await store.register_rate(t.id, 60, [
        _line(a.id, b.id, True, 150_000, 152_236, t.id),
        _line(b.id, a.id, False, 150_000, 147_764, t.id)], owner=PISA) is True
    assert (await store.register_entry(a.id, owner=PISA)).rating == 152_236
    assert [x.tournament_id for x in await store.register_history(a.id, owner=PISA)] == [t.id]
    # Pisa's history is not another register's to read
    assert await store.register_history(a.id, owner=LUCCA) == []
    assert await store.register_history(a.id, owner=SERVER) == []


# ------------------------------------------------------------ migration 11

async def _raw(store: Store, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """``sql`` (``?`` marks) straight on the store's database."""
    if isinstance(store, SqliteStore):
        return await store._run(lambda db: [tuple(r) for r in db.execute(sql, args)])
    assert isinstance(store, PostgresStore)
    for k in range(len(args)):
        sql = sql.replace("?", f"${k + 1}", 1)
    return [tuple(r) for r in await store.pool.fetch(sql, *args)]


async def test_the_register_made_before_migration_11_is_the_servers_own_after_it(
        make: Callable[[], Store], monkeypatch: pytest.MonkeyPatch) -> None:
    import bgclock.store._postgres as pg
    import bgclock.store._sqlite as lite

    old = make()
    monkeypatch.setattr(lite, "LATEST", 10)
    monkeypatch.setattr(pg, "LATEST", 10)
    await old.open()  # a database made by migrations 1..10: one register for the server
    try:
        assert await old.schema_version() == 10
        t = await old.create_tournament("Old Open", 1)
        insert = ("INSERT INTO register_players (name, name_key, federation_id, club, rating, "
                  "experience, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for name, fed, rating in (("Ann", "F1", 152_236), ("Bob", None, 147_764),
                                  ("Carla", "F3", 150_000)):
            await _raw(old, insert, name, name.lower(), fed, "Roma", rating, 5, 1, 2)
        rows = await _raw(old, "SELECT id, name FROM register_players ORDER BY id")
        ids = {name: rid for rid, name in rows}
        await _raw(old, "INSERT INTO register_rated (tournament_id, rated_ms, matches) "
                        "VALUES (?, ?, ?)", t.id, 50, 1)
        history = ("INSERT INTO register_history (player_id, n, tournament_id, tournament_name, "
                   "event, round, match, opponent_id, opponent_name, length, won, "
                   "rating_before, rating_after, experience_before, experience_after, at_ms) "
                   "VALUES (?, 1, ?, 'Old Open', 'main', 0, 0, ?, ?, 5, ?, 150000, ?, 0, 5, 9)")
        await _raw(old, history, ids["Ann"], t.id, ids["Bob"], "Bob", 1, 152_236)
        await _raw(old, history, ids["Bob"], t.id, ids["Ann"], "Ann", 0, 147_764)
    finally:
        await old.close()
    monkeypatch.undo()
    new = make()
    await new.open()
    try:
        assert await new.schema_version() == LATEST
        kept = await new.register_list("id", owner=SERVER)
        assert [(e.id, e.name, e.federation_id, e.club, e.rating, e.experience)
                for e in kept] == [
            (ids["Ann"], "Ann", "F1", "Roma", 152_236, 5), (ids["Bob"], "Bob", None, "Roma",
                                                            147_764, 5),
            (ids["Carla"], "Carla", "F3", "Roma", 150_000, 5)]
        assert [(x.n, x.opponent_id, x.won, x.rating_after)
                for x in await new.register_history(ids["Ann"], owner=SERVER)] == [
            (1, ids["Bob"], True, 152_236)]
        assert await new.register_rated(t.id) == (50, 1)
        # every old row is the server's: no club sees it
        assert await new.register_list("id", owner=PISA) == []
        with pytest.raises(NotFound):
            await new.register_entry(ids["Ann"], owner=PISA)
        # the federation id is unique per register now, still within one
        with pytest.raises(StoreError):
            await new.register_add(_entry("Ann Again", "F1"), owner=SERVER)
        again = await new.register_add(_entry("Ann of Pisa", "F1"), owner=PISA)
        assert again.id > max(ids.values())  # no id given twice
        # the indexes, made again: by register
        if isinstance(new, SqliteStore):
            names = {r[1] for r in await _raw(new, "PRAGMA index_list(register_players)")}
            # and the history still points at the register (foreign keys on again)
            with pytest.raises(StoreError):
                await _raw(new, "INSERT INTO register_history SELECT 999, 1, tournament_id, "
                                "tournament_name, event, round, match, opponent_id, "
                                "opponent_name, length, won, rating_before, rating_after, "
                                "experience_before, experience_after, at_ms "
                                "FROM register_history LIMIT 1")
        else:
            names = {r[0] for r in await _raw(
                new, "SELECT indexname FROM pg_indexes WHERE tablename = 'register_players' "
                     "AND schemaname = current_schema()")}
        assert {"register_players_federation", "register_players_name_key"} <= names
    finally:
        await new.close()
