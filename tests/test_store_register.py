"""The players' register keeps the same promises in both stores (SQLite
always; PostgreSQL when BGCLOCK_TEST_POSTGRES is set)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import NotFound, RegisterEntry, RegisterLine, Store, StoreError
from bgclock.store._schema import LATEST
from tests._server_kit import STORES, anyio_backend, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


@pytest.fixture(params=STORES)
async def store(request: Any, tmp_path: Path) -> AsyncIterator[Store]:
    async with store_factory(request.param, tmp_path) as factory:
        s = factory()
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
    ann = await store.register_add(_entry("Ann Rossi", "FIBT1", 160_000))
    bob = await store.register_add(_entry("Bob_Verdi", None, 140_000))
    await store.register_add(_entry("Carla 100%", "FIBT3"))
    assert (await store.register_entry(ann.id)).federation_id == "FIBT1"
    assert [e.id for e in await store.register_find(federation_id="FIBT1")] == [ann.id]
    assert [e.id for e in await store.register_find(name_key="bob_verdi")] == [bob.id]
    found, total = await store.register_search("o", limit=10)
    assert total == 2 and [e.name for e in found] == ["Ann Rossi", "Bob_Verdi"]
    # LIKE's own characters are taken literally
    assert (await store.register_search("_", limit=10))[1] == 1
    assert (await store.register_search("%", limit=10))[1] == 1
    # a federation id in any case
    assert [e.id for e in (await store.register_search("fibt1", limit=10))[0]] == [ann.id]
    page, total = await store.register_search("", limit=2, offset=2, order="name")
    assert total == 3 and [e.name for e in page] == ["Carla 100%"]
    by_rating, _ = await store.register_search("", limit=3, order="rating")
    assert [e.name for e in by_rating] == ["Ann Rossi", "Carla 100%", "Bob_Verdi"]
    edited = await store.register_update(RegisterEntry(
        id=bob.id, name="Bob Verdi", name_key="bob verdi", federation_id="FIBT2", club=None,
        rating=140_000, experience=0, updated_ms=5))
    assert edited.created_ms == 1 and edited.updated_ms == 5 and edited.club is None
    with pytest.raises(StoreError):  # a federation id is one person's
        await store.register_add(_entry("Ann Again", "FIBT1"))
    with pytest.raises(NotFound):
        await store.register_entry(999)
    with pytest.raises(NotFound):
        await store.register_update(RegisterEntry(id=999, name="x", name_key="x", rating=1,
                                                  experience=0))


async def test_save_is_all_or_nothing(store: Store) -> None:
    ann = await store.register_add(_entry("Ann", "F1"))
    saved = await store.register_save([
        RegisterEntry(id=ann.id, name="Ann B", name_key="ann b", federation_id="F1",
                      rating=151_000, experience=7, updated_ms=3),
        _entry("Dan", "F4")])
    assert [e.name for e in saved] == ["Ann B", "Dan"] and saved[1].id > ann.id
    with pytest.raises(StoreError):
        await store.register_save([_entry("Eve", "F5"), _entry("Fay", "F1")])
    assert (await store.register_search("", limit=10))[1] == 2
    assert (await store.register_entry(ann.id)).rating == 151_000


async def test_a_tournament_is_rated_once(store: Store) -> None:
    t = await store.create_tournament("Open", 1)
    a = await store.register_add(_entry("Ann"))
    b = await store.register_add(_entry("Bob"))
    lines = [_line(a.id, b.id, True, 150_000, 152_236, t.id),
             _line(b.id, a.id, False, 150_000, 147_764, t.id)]
    assert await store.register_rated(t.id) is None
    assert await store.register_rate(t.id, 50, lines) is True
    assert await store.register_rate(t.id, 60, lines) is False
    assert await store.register_rated(t.id) == (50, 1)
    assert (await store.register_entry(a.id)).rating == 152_236
    assert (await store.register_entry(b.id)).experience == 5
    history = await store.register_history(a.id)
    assert [(x.n, x.won, x.rating_before, x.rating_after) for x in history] == [
        (1, True, 150_000, 152_236)]
    t2 = await store.create_tournament("Next", 2)
    await store.register_rate(t2.id, 70, [_line(a.id, b.id, False, 152_236, 150_000, t2.id)])
    assert [x.n for x in await store.register_history(a.id)] == [1, 2]
    assert (await store.register_entry(a.id)).rating == 150_000
