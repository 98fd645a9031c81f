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
