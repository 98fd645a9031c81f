"""What venues publish is kept by (key name, venue id), in order, once
(both stores; PostgreSQL when configured)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import OutOfOrder, Store
from tests._server_kit import STORES, anyio_backend, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


@pytest.fixture(params=STORES)
async def store(request: Any, tmp_path: Path) -> AsyncIterator[Store]:
    async with store_factory(request.param, tmp_path) as factory:
        made: Callable[[], Store] = factory
        s = made()
        await s.open()
        try:
            yield s
        finally:
            await s.close()


async def test_actions_are_kept_in_order_and_a_gap_or_a_repeat_writes_nothing(
        store: Store) -> None:
    one = await store.publish(club="lucca", tournament_id=3, name="Open", closed=False,
                              first=1, actions=[{"do": "a"}, {"do": "b"}],
                              live={"late": []}, now_ms=5)
    assert (one.club, one.tournament_id, one.n, one.live) == ("lucca", 3, 2, {"late": []})
    with pytest.raises(OutOfOrder) as gap:
        await store.publish(club="lucca", tournament_id=3, name="Open", closed=False,
                            first=4, actions=[{"do": "d"}], live={}, now_ms=6)
    assert gap.value.n == 2
    with pytest.raises(OutOfOrder):  # resent: the hosted side skips what it holds first
        await store.publish(club="lucca", tournament_id=3, name="Open", closed=False,
                            first=2, actions=[{"do": "b"}], live={}, now_ms=6)
    two = await store.publish(club="lucca", tournament_id=3, name="Open!", closed=True,
                              first=3, actions=[{"do": "c"}], live={"x": 1}, now_ms=7)
    assert (two.id, two.n, two.name, two.closed, two.updated_ms) == (one.id, 3, "Open!", True, 7)
    assert await store.published_actions(one.id) == [{"do": "a"}, {"do": "b"}, {"do": "c"}]
    live_only = await store.publish(club="lucca", tournament_id=3, name="Open!", closed=True,
                                    first=4, actions=[], live={"x": 2}, now_ms=8)
    assert (live_only.n, live_only.live) == (3, {"x": 2})


async def test_two_venues_ids_never_meet(store: Store) -> None:
    a = await store.publish(club="lucca", tournament_id=1, name="A", closed=False, first=1,
                            actions=[{"do": "a"}], live={}, now_ms=1)
    b = await store.publish(club="pisa", tournament_id=1, name="B", closed=False, first=1,
                            actions=[{"do": "b"}], live={}, now_ms=1)
    assert a.id != b.id
    assert [p.name for p in await store.publications("pisa")] == ["B"]
    assert [p.club for p in await store.publications()] == ["lucca", "pisa"]
    assert (await store.publication("lucca", 1)) == a
    assert await store.publication("lucca", 2) is None
    assert await store.published_actions(b.id) == [{"do": "b"}]
