"""Leases taken together (``cluster.lease.Leases.take``): when a process
leaves, its tables reach the others at once; the takes asked for while a
round trip is in flight go together in the next one, and every lease still
has exactly one owner, at a fresh epoch."""

from __future__ import annotations

import asyncio

import pytest

from bgclock.server.cluster import Leases
from bgclock.store import TableSpec
from bgclock.store._postgres import PostgresStore
from tests._server_kit import POSTGRES, anyio_backend, fresh_schema

__all__ = ["anyio_backend"]
SPEC = TableSpec(name="1", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=3)

pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set")]


async def test_takes_at_once_go_together_and_each_lease_has_one_owner() -> None:
    async with fresh_schema() as schema:
        assert POSTGRES
        store = PostgresStore(POSTGRES, schema=schema)
        a = Leases(POSTGRES, schema, "a", deadline_s=5, on_lost=lambda *x: None)
        b = Leases(POSTGRES, schema, "b", deadline_s=5, on_lost=lambda *x: None)
        await store.open()
        try:
            t = await store.create_tournament("Club", 1)
            ids = [(await store.create_table(t.id, SPEC, 1)).id for _ in range(60)]
            await a.open()
            await b.open()
            assert await a.take("table", ids[0]) == 1  # a owns one already
            trips = 0
            take_many = a._take_many

            async def counted(kind: str, idents: list[int]) -> dict[int, int]:
                nonlocal trips
                trips += 1
                return await take_many(kind, idents)

            a._take_many = counted  # type: ignore[method-assign]
            # both processes ask for every table at once, a twice for some
            got_a, got_b = await asyncio.gather(
                asyncio.gather(*(a.take("table", i) for i in [*ids, *ids[:10]])),
                asyncio.gather(*(b.take("table", i) for i in ids)))
            assert trips <= 3, trips  # not one round trip per table
            owners = {i: [n for n, got in (("a", ea), ("b", eb)) if got is not None]
                      for i, ea, eb in zip(ids, got_a, got_b, strict=False)}
            assert all(len(o) == 1 for o in owners.values()), owners
            assert got_a[0] == 1  # held already: the same epoch
            assert got_a[60:] == got_a[:10]  # asked twice: one answer
            for i in ids:
                epoch = a.epoch("table", i) or b.epoch("table", i)
                assert epoch == 1  # first taken by one of them
                assert (a.epoch("table", i) is None) != (b.epoch("table", i) is None)
            # given back and taken by the other: the epoch moves on
            mine = [i for i in ids if a.epoch("table", i) is not None]
            await a.release_many("table", mine)
            again = await asyncio.gather(*(b.take("table", i) for i in mine))
            assert again == [2] * len(mine)
        finally:
            await a.close()
            await b.close()
            await store.close()
