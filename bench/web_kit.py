"""A live server for the web pages' tests, benchmark and screenshots.

``running_server`` starts ``bgclock serve``'s application in a thread of its
own (uvicorn on a free port, SQLite in a temporary folder) so that a
synchronous driver (Playwright for Python) can use it.  ``Proxy`` stands
between the browser and the server and can cut the link, as a Wi-Fi drop would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KEY = "director-secret-for-web-tests"
CHROMIUM = Path("/usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int = 0) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` (0: a free one), for a server in
    this process to serve on (``uvicorn.Server.serve(sockets=...)``): held
    from the bind on, so no other process's connection can take the port
    between a free port's lookup and the server's bind (``free_port`` can
    only say which was free a moment ago)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


@dataclass
class LiveServer:
    """The server's base URL and a small HTTP client with the director's key."""

    url: str
    key: str = KEY

    def api(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {key or self.key}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read()
            if r.headers.get("content-type", "").startswith("application/json"):
                return json.loads(raw)
            return raw.decode()

    def tournament(self, name: str = "Test open") -> dict[str, Any]:
        return dict(self.api("POST", "/api/tournaments", {"name": name}))

    def table(self, tournament_id: int | None = None, **spec: Any) -> dict[str, Any]:
        """A table (in a new tournament unless one is given)."""
        if tournament_id is None:
            tournament_id = int(self.tournament()["id"])
        body = {"rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"], **spec}
        return dict(self.api("POST", f"/api/tournaments/{tournament_id}/tables", body))

    def director_url(self, base: str | None = None) -> str:
        return f"{base or self.url}/director?key={self.key}"

    @staticmethod
    def table_url(table: dict[str, Any], base: str) -> str:
        return f"{base}/t/{table['id']}?token={table['token']}"


@contextlib.contextmanager
def running_server(db: Path | None = None, port: int | None = None,
                   **options: Any) -> Iterator[LiveServer]:
    """The tournament server on 127.0.0.1:<port> (a free one by default), in a
    thread.  Restarting on the same port keeps the pages' origin (their
    localStorage: a table device's id)."""
    import uvicorn

    from bgclock.server import create_app
    from bgclock.store.connect import open_store

    with contextlib.ExitStack() as stack:
        if db is None:
            db = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "bgclock.db"
        app = create_app(open_store(str(db)), director_secret=KEY, **options)
        sock = stack.enter_context(listening(port or 0))
        port = int(sock.getsockname()[1])
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on", ws="websockets-sansio")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                                  daemon=True)
        thread.start()
        for _ in range(1000):
            if server.started or not thread.is_alive():
                break
            threading.Event().wait(0.01)
        if not server.started:
            raise RuntimeError("the server did not start")
        try:
            yield LiveServer(url=f"http://127.0.0.1:{port}")
        finally:
            server.should_exit = True
            thread.join(timeout=10)


class Proxy:
    """A TCP relay 127.0.0.1:port -> target that can drop every link (``cut``)
    and refuse new ones until ``restore``."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._open = True
        self._socks: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", self.port))
        self._listener.listen(64)
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._socks |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            with self._lock:
                self._socks -= {src, dst}

    def cut(self) -> None:
        """Drop every link now and refuse new ones."""
        self._open = False
        with self._lock:
            socks = list(self._socks)
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        self._open = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()


def launch_chromium(playwright: Any) -> Any:
    """Debian's chromium (never a downloaded one)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])


def until(page: Any, expression: str, timeout_ms: float = 5000) -> None:
    """Poll a JavaScript expression in ``page`` until it is truthy.

    ``page.wait_for_function`` compiles its predicate with ``eval`` inside the
    page, which the pages' Content-Security-Policy (``script-src 'self'``)
    forbids; ``page.evaluate`` runs through the debugging protocol, which the
    policy does not govern, so the pages are tested under their real policy."""
    import time

    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        if page.evaluate(expression):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout_ms:.0f} ms: {expression}")
        time.sleep(0.02)
