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
