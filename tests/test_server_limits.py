"""Bounds at the edge: numbers, names, nesting, body sizes, slow clients,
hosts, headers and logs. Each bad input gets a clear error naming the field,
changes nothing, and never costs the server a table or a connection."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.edge.guard import (
    CSP,
    RedactSecrets,
    install_redaction,
    raise_nofile_limit,
    redact,
)
from bgclock.server.edge.http import guarded_http
from bgclock.server.edge.limits import DAY_MS, LimitError, check_depth
from bgclock.server.render.pages import table_page
from tests._server_kit import (
    DIRECTOR,
    KEY,
    STORES,
    Device,
    anyio_backend,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


@pytest.fixture(params=STORES)
async def live(request: Any, tmp_path: Path) -> Any:
    async with (
        store_factory(request.param, tmp_path) as make,
        live_server(make) as server,
    ):
        yield server


# ----------------------------------------------------------- nesting (item 3)

def test_depth_is_checked_without_recursion() -> None:
    check_depth('{"a": [[1, 2], {"b": "[[[[[[[[[[["}]}')  # brackets in strings don't count
    with pytest.raises(LimitError, match="nested more than 8"):
        check_depth("[" * 9 + "]" * 9)
    with pytest.raises(LimitError):
        check_depth("[" * 100_000)  # a pass, not a RecursionError


async def test_a_deeply_nested_ping_is_refused_and_the_connection_kept(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.send('{"type": "ping", "t": ' + "[" * 300 + "]" * 300 + "}")
        error = await a.expect("error")
        assert error["code"] == "too_deep" and "8 levels" in error["message"]
        # 30,000 levels fit a frame (64 KB) but not a message (4 KB): refused unread
        await a.send('{"type": "ping", "t": ' + "[" * 30_000 + "]" * 30_000 + "}")
        assert (await a.expect("error"))["code"] == "too_large"
        await a.send({"type": "ping", "t": [[1], {"x": [2]}]})
        assert (await a.expect("pong"))["t"] == [[1], {"x": [2]}]


async def test_a_deeply_nested_body_is_refused(live: Any) -> None:
    body = '{"name": ' + "[" * 300 + "]" * 300 + "}"
    r = await live.http.post("/api/tournaments", content=body, headers=DIRECTOR)
    assert r.status_code == 400 and "nested" in r.json()["message"]
    deeper = '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}"
    r = await live.http.post("/api/tournaments", content=deeper, headers=DIRECTOR)
    assert r.status_code == 413


# ------------------------------------------------------- body size (item 3)

async def test_a_body_past_the_limit_is_refused_by_its_length(live: Any) -> None:
    big = b'{"name": "' + b"x" * 200_000 + b'"}'
    r = await live.http.post("/api/tournaments", content=big, headers=DIRECTOR)
    assert r.status_code == 413 and r.json()["error"] == "too_large"


async def test_a_streamed_body_is_cut_off_at_the_limit(live: Any) -> None:
    sent = 0

    async def chunks() -> Any:
        nonlocal sent
        yield b'{"name": "'
        for _ in range(50_000):  # would be 50 MB: the server stops reading long before
            sent += 1
            yield b"x" * 1024

    table = await live.table()
    r = await live.http.request("PATCH", f"/api/tables/{table['id']}", content=chunks(),
                                headers=DIRECTOR)
    assert r.status_code == 413
    assert r.json()["error"] == "too_large"


# ------------------------------------------------------------- bounds (item 2)

@pytest.mark.parametrize("path", ["/api/tournaments/9223372036854775808",
                                  f"/api/tournaments/{2**70}", "/api/tournaments/-1"])
async def test_a_tournament_id_past_63_bits_is_not_found(live: Any, path: str) -> None:
    assert (await live.http.get(path, headers=DIRECTOR)).status_code == 404
    r = await live.http.post(path + "/tables", json={"rules": "usbgf-2013-delay", "length": 3},
                             headers=DIRECTOR)
    assert r.status_code == 404
    assert (await live.http.post(path + "/close", headers=DIRECTOR)).status_code == 404


@pytest.mark.parametrize("table_id", ["9223372036854775808", str(2**70), "１２"])
async def test_a_table_id_past_63_bits_is_not_found(live: Any, table_id: str) -> None:
    for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/log.json"):
        assert (await live.http.get(path, headers=DIRECTOR)).status_code == 404
    assert (await live.http.get(f"/t/{table_id}?token=x")).status_code in (403, 404)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"length": 2**31}, "body.length"),
        ({"length": 0}, "body.length"),
        ({"length": 65}, "body.length"),
        ({"score": [2**40, 0]}, "body.score[0]"),
        ({"name": "T\x00able"}, "body.name"),
        ({"name": "x" * 101}, "body.name"),
        ({"players": ["Ann", "B\x00b"]}, "body.players[1]"),
        ({"players": ["Ann", "\ud800"]}, "body.players[1]"),
        ({"rules": "usbgf\x00"}, "body.rules"),
        ({"clock": {"reserve_ms": 2**64 - 1}}, "body.clock.reserve_ms"),
        ({"clock": {"delay_ms": -(DAY_MS + 1)}}, "body.clock.delay_ms"),
    ],
)
async def test_a_table_spec_out_of_bounds_is_refused_naming_the_field(
    live: Any, patch: dict[str, Any], field: str
) -> None:
    t = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    body = {"rules": "usbgf-2013-delay", "length": 3, **patch}
    # json.dumps keeps a lone surrogate as an escape, as a hostile client would send it
    r = await live.http.post(f"/api/tournaments/{t.json()['id']}/tables",
                             content=json.dumps(body), headers=DIRECTOR)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(field + ":"), r.json()
    tables = (await live.http.get(f"/api/tournaments/{t.json()['id']}", headers=DIRECTOR))
    assert tables.json()["tables"] == []


@pytest.mark.parametrize("name", ["A\x00B", "\udc00", "x" * 201, ""])
async def test_a_bad_tournament_name_is_refused_naming_the_field(live: Any, name: str) -> None:
    r = await live.http.post("/api/tournaments", content=json.dumps({"name": name}),
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.name:")
    listed = await live.http.get("/api/tournaments", headers=DIRECTOR)
    assert listed.json()["tournaments"] == []


async def test_an_adjust_past_a_day_is_refused_and_the_table_plays_on(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        assert (await director.cmd("opening_roll", table=table["id"], dice=[2, 4]))["type"] \
            == "ack"
        for delta in (2**64 - 1, -(2**64), DAY_MS + 1):
            error = await director.cmd("adjust", table=table["id"], side="A", delta_ms=delta)
            assert error["code"] == "invalid" and "delta_ms" in error["message"], error
        error = await director.cmd("penalty", table=table["id"], side="A", points=2**40)
        assert error["code"] == "invalid" and "points" in error["message"]
        ack = await director.cmd("adjust", table=table["id"], side="A", delta_ms=DAY_MS)
        assert ack["type"] == "ack"
        # B rolled the higher die: B's hit is the table playing on
        assert (await director.cmd("hit", table=table["id"], side="B"))["type"] == "ack"
    assert [e["event"]["do"] for e in await live.stored(table["id"])] == [
        "opening_roll", "adjust", "hit"]


@pytest.mark.parametrize("hello", [{"token": "x", "last_seq": 2**63},
                                   {"key": KEY, "since": {"1": 2**64}}])
async def test_a_hello_with_a_seq_past_63_bits_is_refused(live: Any,
                                                          hello: dict[str, Any]) -> None:
    async with Device.open(live.ws_url, hello) as a:
        assert (await a.recv())["code"] == "bad_message"


# ---------------------------------------------------- slow clients (item 6)

async def test_half_open_requests_are_closed_after_the_header_timeout(tmp_path: Path) -> None:
    options = {"http": guarded_http(header_timeout_s=0.5, per_client=1000)}
    async with (
        store_factory("sqlite", tmp_path) as make,
        live_server(make, uvicorn_options=options) as live,
    ):
        port = int(live.url.rsplit(":", 1)[1])
        held = []
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            await writer.drain()
            held.append((reader, writer))
        assert (await live.http.get("/healthz")).status_code == 200  # others still served
        for reader, writer in held:
            # closed by the server: EOF (no answer), well before this test's own limit
            assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
        assert (await live.http.get("/healthz")).status_code == 200


async def test_one_address_may_hold_only_so_many_connections(tmp_path: Path) -> None:
    options = {"http": guarded_http(header_timeout_s=30, per_client=3)}
    async with (
        store_factory("sqlite", tmp_path) as make,
        live_server(make, uvicorn_options=options) as live,
    ):
        port = int(live.url.rsplit(":", 1)[1])
        idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(reader.read(), 10) == b""  # the fourth is closed
        writer.close()
        for _, w in idle:
            w.close()
            await w.wait_closed()
        await asyncio.sleep(0.05)
        async with Device.open(live.ws_url, {"key": KEY}) as director:
            assert (await director.expect("welcome"))["role"] == "director"


def test_the_open_files_limit_is_raised_to_the_hard_limit() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if hard != resource.RLIM_INFINITY and hard > 256:
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        now = raise_nofile_limit()
        assert now is not None
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == (
            hard if hard != resource.RLIM_INFINITY else soft)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# --------------------------------------------------------------- logs (item 11)

class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_secrets_are_redacted_from_the_access_log() -> None:
    install_redaction()
    access = logging.getLogger("uvicorn.access")
    lines = _Lines()
    access.addHandler(lines)
    level = access.level
    access.setLevel(logging.INFO)
    try:
        for path in (f"/director?key={KEY}", "/api/tables/3/qr.svg?key=s3cr3t&x=1",
                     "/t/3?token=3.AbC-_d"):
            # uvicorn's own call: the path with its query is an argument
            access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", path, "1.1", 200)
    finally:
        access.removeHandler(lines)
        access.setLevel(level)
    text = "\n".join(lines.lines)
    assert KEY not in text and "s3cr3t" not in text and "3.AbC-_d" not in text
    assert text.count("=***") == 3 and "&x=1" in text
    assert redact("ws://h/ws?token=a.b key=zz") == "ws://h/ws?token=*** key=***"
    assert any(isinstance(f, RedactSecrets) for f in logging.getLogger("uvicorn.error").filters)


# ----------------------------------------------------- hosts (item 12)

async def _handshake(url: str, host: str, origin: str | None) -> int:
    """The status a WebSocket handshake with exactly this Host (and Origin) gets."""
    port = int(url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [b"GET /ws HTTP/1.1", b"Host: " + host.encode(), b"Upgrade: websocket",
             b"Connection: Upgrade", b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             b"Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(b"Origin: " + origin.encode())
    writer.write(b"\r\n".join(lines) + b"\r\n\r\n")
    status = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    return int(status.split()[1])


async def test_a_websocket_at_a_forged_host_is_refused(live: Any) -> None:
    port = live.url.rsplit(":", 1)[1]
    # DNS rebinding: a foreign name resolving here, its page's Origin matching its Host
    for forged in (f"rebind.evil.example:{port}", f"10.9.8.7:{port}"):
        assert await _handshake(live.url, forged, f"http://{forged}") == 403
        assert await _handshake(live.url, forged, None) == 403
    for served in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert await _handshake(live.url, served, f"http://{served}") == 101
    table = await live.table()
    async with Device.open(f"ws://localhost:{port}/ws", {"token": table["token"]}) as a:
        await a.welcome()


async def test_an_allowed_host_is_served(tmp_path: Path) -> None:
    async with (
        store_factory("sqlite", tmp_path) as make,
        live_server(make, allow_hosts=["clock.club.example"],
                    public_url="http://tables.club.example:8000") as live,
    ):
        for name in ("clock.club.example", "tables.club.example:8000"):
            assert await _handshake(live.url, name, f"http://{name}") == 101
        assert await _handshake(live.url, "other.example", "http://other.example") == 403


async def test_the_table_page_at_a_refused_name_says_so(tmp_path: Path) -> None:
    """The page opened at a name its WebSocket would be refused at names it
    (escaped), so that the page says why instead of reconnecting for ever."""
    async with (
        store_factory("sqlite", tmp_path) as make,
        live_server(make, allow_hosts=["clock.club.example"]) as live,
    ):
        table = await live.table()
        path = f"/t/{table['id']}?token={table['token']}"

        async def refused(host: str) -> str:
            r = await live.http.get(path, headers={"host": host})
            assert r.status_code == 200
            found = re.search(r'data-refused-host="([^"]*)"', r.text)
            assert found is not None
            return found.group(1)

        assert await refused("clock.club.example") == ""
        assert await refused(live.url.split("//", 1)[1]) == ""
        assert await refused("bgclock.lan:8000") == "bgclock.lan"
    page = table_page(3, refused_host='a"><script>x</script>')
    assert '<script>x' not in page and 'data-refused-host="a&quot;&gt;&lt;script&gt;' in page


# ------------------------------------------------- security headers (item 14)

async def test_pages_and_answers_carry_the_security_headers(live: Any) -> None:
    table = await live.table()
    for path in (f"/t/{table['id']}?token={table['token']}", f"/director?key={KEY}",
                 "/api/tournaments", "/", "/healthz"):
        r = await live.http.get(path, headers=DIRECTOR)
        assert r.status_code == 200, path
        assert r.headers["content-security-policy"] == CSP
        assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["cache-control"] == "no-store", path
    static = await live.http.get("/static/kit/link.js")
    assert static.status_code == 200
    assert static.headers["content-security-policy"] == CSP
    assert static.headers.get("cache-control") != "no-store"


# ------------------------------------------- `bgclock serve` end to end (6, 11)

def test_bgclock_serve_redacts_its_log_and_closes_half_open_requests(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    from tests._server_kit import free_port

    port = free_port()
    secret = "the-directors-secret-42"
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), "--no-qr",
         "--db", str(tmp_path / "b.db"), "--director-password", secret,
         "--log-level", "info", "--header-timeout", "0.5"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)})
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.settimeout(10)
        assert slow.recv(100) == b""  # closed by the server, no answer
        slow.close()
        for path in (f"/director?key={secret}", f"/api/tournaments?key={secret}",
                     "/t/1?token=1.NotARealTokenAtAll"):
            try:
                urllib.request.urlopen(url + path, timeout=5).close()
            except urllib.error.HTTPError as exc:
                exc.close()  # its socket, else finalized by a later test's collection
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0].decode()
    access = [line for line in out.splitlines() if "GET /" in line]
    assert len(access) >= 3, out
    assert not any(secret in line or "NotARealToken" in line for line in access), access
    assert sum("=***" in line for line in access) >= 3


# ------------------------------------------------- new connections per address

async def test_an_address_opening_connections_in_a_loop_is_refused_before_its_hello(
        tmp_path: Path) -> None:
    """A reconnect loop from one address costs the server a refusal, not a
    hello and a snapshot; a device already connected keeps its link."""
    import websockets

    async with (
        store_factory("sqlite", tmp_path) as make,
        live_server(make, handshake_rate=(5, 0.5)) as live,
    ):
        table = await live.table()
        async with Device.open(live.ws_url, {"token": table["token"]}) as kept:
            await kept.welcome()
            opened = refused = 0
            for _ in range(12):
                try:
                    async with websockets.connect(live.ws_url) as ws:
                        await ws.send(json.dumps({"type": "ping", "v": 1, "t": 1}))
                        opened += 1
                except websockets.exceptions.InvalidStatus as exc:
                    assert exc.response.status_code == 403
                    refused += 1
            assert opened == 4 and refused == 8     # the kept one was the first of 5
            guard = live.app.middleware_stack
            while not hasattr(guard, "refused"):
                guard = guard.app
            assert guard.refused == 8
            # the device that was already there is served as before
            assert (await kept.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
