"""``bench/load.py``'s durable floor, a short run (20 tables, 1 s measured):
it stores what it acknowledges, not how fast it is.

The durable floor (``bench/bare_server.py --durable``) acknowledges a press
only once its row is committed: after the run, every press acknowledged is in
its table exactly once, under its table and seq and with its press id, on
SQLite (WAL, the file the run leaves in its folder) and on PostgreSQL (the
run's schema, kept for the test and dropped afterwards).  Nothing is
refused, and every press measured reaches all three watchers.  The figures
themselves are never asserted.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.load import drop_schema, measure
from tests._server_kit import POSTGRES, STORES, anyio_backend

__all__ = ["anyio_backend"]

pytestmark = pytest.mark.anyio


def _check(row: dict[str, Any], stored: list[tuple[int, int, str]]) -> None:
    assert row["server"] == "durable"
    assert row["errors"] == 0, row["error_sample"]
    assert row["unanswered"] == 0, "a press's update did not reach all three watchers"
    assert row["presses"] > 0 and row["acked"]
    count = Counter(stored)
    assert max(Counter((t, s) for t, s, _ in stored).values()) == 1
    missing = [a for a in row["acked"] if count[a] != 1]
    assert not missing, f"{len(missing)} presses acknowledged but not stored once: {missing[:5]}"


async def _pg_rows(schema: str) -> list[tuple[int, int, str]]:
    import asyncpg

    assert POSTGRES
    conn = await asyncpg.connect(POSTGRES)
    try:
        return [(int(r[0]), int(r[1]), str(r[2])) for r in await conn.fetch(
            f"SELECT table_id, seq, idem_key FROM {schema}.floor_presses")]
    finally:
        await conn.close()


@pytest.mark.parametrize("store", STORES)
async def test_every_acknowledged_press_is_stored_once(tmp_path: Path, store: str) -> None:
    db = POSTGRES if store == "postgres" else None
    row = await measure("durable", 20, 1.0, 0.5, tmp_path, 1, None, db, keep_store=True)
    if db is None:
        assert row["store"] == "sqlite" and row["store_path"]
        conn = sqlite3.connect(row["store_path"])
        try:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            stored = [(int(t), int(s), str(k)) for t, s, k in conn.execute(
                "SELECT table_id, seq, idem_key FROM floor_presses")]
        finally:
            conn.close()
    else:
        assert row["store"] == "postgresql" and row["schema"]
        try:
            stored = await _pg_rows(row["schema"])
        finally:
            await drop_schema(db, int(row["schema"].removeprefix("bench_")))
    _check(row, stored)
