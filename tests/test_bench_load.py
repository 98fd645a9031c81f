"""``bench/load.py --processes 2``, a short run (100 tables, 2 s measured):
the bench's cluster mode works end to end, not how fast it is.

Two ``bgclock serve --cluster`` processes on a schema and a Redis prefix of
the run's own: table i is owned by process i % 2 (its device A connects
there first) and its device B is on the other process (relayed over Redis),
the dashboard on process 0.  Every press measured reaches all three of its
watchers (the relayed device and the dashboard of the other process
included), nothing is refused, and the run leaves neither its schema nor any
key under its prefix behind.  The figures themselves are never asserted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import measure
from tests._server_kit import POSTGRES, anyio_backend
from tests.test_cluster import REDIS, _redis_up

__all__ = ["anyio_backend"]

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
    pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379"),
]


async def _leftovers(schema: str, prefix: str) -> tuple[bool, int]:
    import asyncpg
    import redis.asyncio as aioredis

    assert POSTGRES
    conn = await asyncpg.connect(POSTGRES)
    try:
        schema_left = await conn.fetchval(
            "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema) > 0
    finally:
        await conn.close()
    client = aioredis.from_url(REDIS)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*")]
    finally:
        await client.aclose()
    return schema_left, len(keys)


@pytest.mark.parametrize("placement", ["split", "owner"])
async def test_two_processes_serve_every_press_to_every_watcher(tmp_path: Path,
                                                                placement: str) -> None:
    row = await measure("bgclock", 100, 2.0, 1.0, tmp_path, 1, None, POSTGRES, True,
                        processes=2, placement=placement, cluster_url=REDIS)
    assert row["processes"] == 2 and row["placement"] == placement
    assert row["misplaced"] == 0, "a table is not owned by its device A's process"
    assert row["presses"] > 0
    assert row["errors"] == 0, row["error_sample"]
    assert row["unanswered"] == 0, "a press's update did not reach all three watchers"
    assert await _leftovers(row["schema"], row["prefix"]) == (False, 0)
