"""Helpers of the server and store tests: stores, a live server, a WebSocket client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from bench.web_kit import listening
from bgclock.server import create_app
from bgclock.store import Store
from bgclock.store.connect import open_store

POSTGRES = os.environ.get("BGCLOCK_TEST_POSTGRES")
STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"))]
KEY = "director-secret-for-tests"
DIRECTOR = {"Authorization": f"Bearer {KEY}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A PostgreSQL schema of its own, dropped afterwards."""
    import asyncpg

    assert POSTGRES
    name = f"bgclock_test_{secrets.token_hex(6)}"
    try:
        yield name
    finally:
        conn = await asyncpg.connect(POSTGRES)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        finally:
            await conn.close()


@contextlib.asynccontextmanager
async def store_factory(kind: str, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    """Makes (unopened) stores that all reach the same fresh database."""
    if kind == "sqlite":
        yield lambda: open_store(str(tmp_path / "bgclock.db"))
    else:
        async with fresh_schema() as schema:
            assert POSTGRES
            yield lambda: open_store(POSTGRES, schema=schema)


async def damage_snapshot(store: Store, table_id: int, body: str) -> None:
    """Overwrite a table's stored snapshot body (as a disk or a hand might)."""
    sql = "UPDATE clock_snapshots SET body = {} WHERE table_id = {}"
    if hasattr(store, "_with"):  # PostgreSQL
        await store._with(lambda c: c.execute(sql.format("$1", "$2"), body, table_id))
        return

    def damage(db: Any) -> None:
        db.execute(sql.format("?", "?"), (body, table_id))
        db.commit()

    await store._run(damage)  # type: ignore[attr-defined]


@dataclass
class Live:
    """A server running in this test's event loop."""

    url: str
    ws_url: str
    http: httpx.AsyncClient
    app: Any
    stores: list[Store] = field(default_factory=list)

    @property
    def server(self) -> Any:
        return self.app.state.server

    async def table(self, **spec: Any) -> dict[str, Any]:
        """A tournament with one table (``spec`` over a 3-point USBGF delay match)."""
        t = await self.http.post("/api/tournaments", json={"name": "Test open"},
                                 headers=DIRECTOR)
        assert t.status_code == 201, t.text
        body = {"rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"], **spec}
        r = await self.http.post(f"/api/tournaments/{t.json()['id']}/tables", json=body,
                                 headers=DIRECTOR)
        assert r.status_code == 201, r.text
        return dict(r.json())

    async def stored(self, table_id: int) -> list[dict[str, Any]]:
        r = await self.http.get(f"/api/tables/{table_id}/log.json", headers=DIRECTOR)
        assert r.status_code == 200
        return list(r.json()["events"])


@contextlib.asynccontextmanager
async def live_server(make_store: Callable[[], Store], *,
                      uvicorn_options: dict[str, Any] | None = None,
                      **options: Any) -> AsyncIterator[Live]:
    """A live server over ``make_store()``: ``options`` go to ``create_app``,
    ``uvicorn_options`` to ``uvicorn.Config``."""
    app = create_app(make_store(), director_secret=KEY, **options)
    with listening() as sock:  # held from its bind: nobody takes the port meanwhile
        port = int(sock.getsockname()[1])
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on", ws="websockets-sansio",
                                **(uvicorn_options or {}))
        server = uvicorn.Server(config)
        task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        for _ in range(500):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started, "the server did not start"
        url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            try:
                yield Live(url=url, ws_url=f"ws://127.0.0.1:{port}/ws", http=http, app=app)
            finally:
                server.should_exit = True
                await task


class Device:
    """A WebSocket client speaking the protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0
        #: Every message received, in order.
        self.history: list[dict[str, Any]] = []

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, url: str, hello: dict[str, Any] | None = None,
                   **connect: Any) -> AsyncIterator[Device]:
        async with websockets.connect(url, **connect) as ws:
            device = cls(ws)
            if hello is not None:
                await device.send({"type": "hello", **hello})
            yield device

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        message = dict(json.loads(await asyncio.wait_for(self.ws.recv(), timeout)))
        self.history.append(message)
        return message

    def last(self, kind: str) -> dict[str, Any]:
        """The last message of type ``kind`` received so far."""
        return [m for m in self.history if m["type"] == kind][-1]

    async def expect(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of type ``kind`` (skipping others, e.g. updates)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def cmd(self, do: str, *, id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Send a command; return its ack or error."""
        self.n += 1
        cid = id or f"c{self.n}-{secrets.token_hex(3)}"
        await self.send({"type": "cmd", "id": cid, "do": do, **fields})
        while True:
            message = await self.recv()
            if message["type"] in ("ack", "error") and message.get("id") == cid:
                return message
            if message["type"] == "error" and message["code"] == "rate_limited":
                raise AssertionError(f"{do} was rate limited")

    async def welcome(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The welcome and the first snapshot."""
        welcome = await self.expect("welcome")
        snapshot = await self.expect("snapshot")
        return welcome, snapshot

    async def quiet(self, seconds: float = 0.1) -> list[dict[str, Any]]:
        """Whatever arrives within ``seconds``."""
        out = []
        with contextlib.suppress(TimeoutError):
            while True:
                out.append(await self.recv(seconds))
        return out


def app_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) of the application ``app`` (path parameters as
    their names), for the authorization matrices."""
    from starlette.routing import Mount, Route

    found: list[tuple[str, str]] = []

    def walk(routes: Any, prefix: str) -> None:
        for route in routes:
            if isinstance(route, Mount):
                walk(route.routes, prefix + route.path)
            elif isinstance(route, Route):
                for method in sorted(route.methods or {"GET"}):
                    if method != "HEAD":
                        found.append((method, prefix + route.path))

    walk(app.routes, "")
    return found


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=STORES)
async def live(request: Any, tmp_path: Path) -> AsyncIterator[Live]:
    """A server on a free port over each store (SQLite, and PostgreSQL when set)."""
    async with store_factory(request.param, tmp_path) as make, live_server(make) as server:
        yield server
