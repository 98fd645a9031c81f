"""The director's key kept in the store (beside the table tokens' key), and the
store URLs ``--db`` accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from bgclock.server import create_app
from bgclock.server.edge.auth import DIRECTOR_KEY_META, check_password, director_key
from bgclock.store import sqlite_path
from tests._server_kit import STORES, anyio_backend, store_factory

__all__ = ["anyio_backend"]


@pytest.mark.anyio
@pytest.mark.parametrize("kind", STORES)
async def test_the_key_is_made_once_then_kept(kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        store = make()
        await store.open()
        try:
            first = await director_key(store)
            assert len(first) >= 22  # 128 bits, base64url
            assert await director_key(store) == first
            assert await store.get_meta(DIRECTOR_KEY_META) == first
        finally:
            await store.close()
        again = make()
        await again.open()
        try:
            assert await director_key(again) == first
            rotated = await director_key(again, rotate=True)
            assert rotated != first
            assert await director_key(again) == rotated
            chosen = await director_key(again, password="blue horse 42")
            assert chosen == "blue horse 42" == await director_key(again)
            # the table tokens' key is untouched by all this
            assert await again.get_meta("table_token_key") is None
        finally:
            await again.close()


@pytest.mark.anyio
@pytest.mark.parametrize("kind", STORES)
async def test_an_app_without_a_secret_takes_the_kept_key(kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        store = make()
        await store.open()
        key = await director_key(store, password="the-kept-password")
        await store.close()
        app = create_app(make(), director_secret=None, heap_settle_s=None)
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), httpx.AsyncClient(
                transport=transport, base_url="http://test") as http:
            ok = await http.get("/api/tournaments", headers={"Authorization": f"Bearer {key}"})
            wrong = await http.get("/api/tournaments",
                                   headers={"Authorization": "Bearer something-else"})
        assert ok.status_code == 200 and wrong.status_code == 401


@pytest.mark.anyio
async def test_opening_an_open_store_changes_nothing(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make:
        store = make()
        await store.open()
        try:
            tournament = await store.create_tournament("Open", 1)
            await store.open()
            assert [t.id for t in await store.tournaments()] == [tournament.id]
        finally:
            await store.close()


@pytest.mark.parametrize("password, ok", [
    ("12345678", True), ("blue horse 42", True), ("x" * 200, True),
    ("1234567", False), ("x" * 201, False), (" padded ", False), ("clé de l'arbitre", False),
    ("tab\there", False),
])
def test_passwords_that_can_travel_in_a_header(password: str, ok: bool) -> None:
    if ok:
        assert check_password(password) == password
    else:
        with pytest.raises(ValueError, match="--director-password"):
            check_password(password)


@pytest.mark.parametrize("url, path", [
    ("club.db", "club.db"),
    ("/var/lib/bgclock/club.db", "/var/lib/bgclock/club.db"),
    (r"C:\bgclock\club.db", r"C:\bgclock\club.db"),
    ("sqlite:///club.db", "club.db"),
    ("sqlite:////var/lib/bgclock/club.db", "/var/lib/bgclock/club.db"),
    ("SQLite:///club.db", "club.db"),
    ("sqlite://", ":memory:"),
    ("sqlite:///:memory:", ":memory:"),
])
def test_sqlite_urls(url: str, path: str) -> None:
    assert sqlite_path(url) == path


@pytest.mark.parametrize("url, words", [
    ("mysql://127.0.0.1/club", "'mysql'"),
    ("file:///tmp/club.db", "'file'"),
    ("sqlite://host/club.db", "three slashes"),
    ("", "empty"),
])
def test_other_urls_are_refused(url: str, words: Any) -> None:
    with pytest.raises(ValueError, match=words):
        sqlite_path(url)
