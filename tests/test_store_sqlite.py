"""The SQLite store's durability settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bgclock.store._sqlite import SqliteStore
from tests._server_kit import anyio_backend

__all__ = ["anyio_backend"]


@pytest.mark.anyio
async def test_wal_and_full_synchronous(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "deep" / "folder" / "x.db")
    await store.open()
    try:
        sync = await store._run(lambda db: db.execute("PRAGMA synchronous").fetchone()[0])
        assert sync == 2  # FULL
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "deep" / "folder" / "x.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
