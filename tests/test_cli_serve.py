"""``bgclock serve`` as a director starts it: what it refuses, in one line, and
the director's key that outlives a restart.

Every case runs the real command in a subprocess.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests._serve_proc import Serving, run_serve, start
from tests._server_kit import POSTGRES, STORES, Device, anyio_backend, free_port, fresh_schema

__all__ = ["anyio_backend"]


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run stopped with exit code 2, one line on stderr naming ``words``,
    no traceback and nothing printed on stdout."""
    assert done.returncode == 2, done
    err = done.stderr
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]
    assert "Director:" not in done.stdout
    return lines[0]


# ------------------------------------------------------------ refused at start

@pytest.mark.parametrize("port", ["0", "65536", "-1", "eighty"])
def test_a_port_outside_1_to_65535(port: str, tmp_path: Path) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), f"--port={port}"])
    one_line_error(done, "--port")
    assert not (tmp_path / "t.db").exists()


def test_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(port)])
    line = one_line_error(done, f"port {port}", "busy", "--port")
    assert line.startswith("bgclock serve: ")


def test_an_unknown_db_scheme(tmp_path: Path) -> None:
    done = run_serve(["--db", "mysql://127.0.0.1/tournament", "--port", str(free_port())])
    one_line_error(done, "--db", "'mysql'", "postgresql://")


def test_sqlite_url_is_a_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    serving = start(["--db", f"sqlite:///{db}", "--port", str(free_port())])
    try:
        assert db.exists()
    finally:
        serving.stop()


def test_an_unreachable_postgresql(tmp_path: Path) -> None:
    dead = free_port()  # nothing listens there
    done = run_serve(["--db", f"postgresql://bgclock:secret@127.0.0.1:{dead}/tournament",
                      "--port", str(free_port())])
    line = one_line_error(done, "cannot open the store", f"127.0.0.1:{dead}/tournament")
    assert "secret" not in line  # the password stays off the screen


@pytest.mark.parametrize("where", ["under-a-file", "a-folder", "proc"])
def test_an_unwritable_sqlite_path(where: str, tmp_path: Path) -> None:
    if where == "under-a-file":
        (tmp_path / "notes.txt").write_text("not a folder")
        db = tmp_path / "notes.txt" / "t.db"
    elif where == "a-folder":
        db = tmp_path / "folder"
        db.mkdir()
    else:
        db = Path("/proc/bgclock-test/t.db")
    done = run_serve(["--db", str(db), "--port", str(free_port())])
    one_line_error(done, "cannot open the store", str(db))


def test_a_bad_public_url(tmp_path: Path) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      "--public-url", "192.168.1.10"])
    one_line_error(done, "--public-url")


@pytest.mark.parametrize("password", ["short", " padded-password ", "clé-de-l'arbitre"])
def test_a_password_that_cannot_travel(password: str, tmp_path: Path) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      "--director-password", password])
    one_line_error(done, "--director-password")


def test_the_port_is_bound_and_the_store_open_when_the_url_is_printed(tmp_path: Path) -> None:
    port = free_port()
    serving = start(["--db", str(tmp_path / "t.db"), "--port", str(port)])
    try:
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", port))
        assert (tmp_path / "t.db").exists()
        r = httpx.get(f"{serving.base}/healthz", timeout=10)
        assert r.status_code == 200
    finally:
        serving.stop()


# ------------------------------------------------------------ the director's key

@contextlib.asynccontextmanager
async def db_args(kind: str, tmp_path: Path) -> AsyncIterator[list[str]]:
    if kind == "sqlite":
        yield ["--db", str(tmp_path / "tournament.db")]
    else:
        async with fresh_schema() as schema:
            assert POSTGRES
            yield ["--db", POSTGRES, "--db-schema", schema]


async def dashboard_hello(serving: Serving, key: str) -> dict[str, object]:
    """What a dashboard gets when it says hello with ``key``."""
    ws_url = serving.base.replace("http://", "ws://") + "/ws"
    async with Device.open(ws_url, {"key": key}) as dashboard:
        return await dashboard.recv()


@pytest.mark.anyio
@pytest.mark.parametrize("kind", STORES)
async def test_the_directors_key_survives_a_restart(kind: str, tmp_path: Path) -> None:
    port = free_port()
    async with db_args(kind, tmp_path) as args:
        first = start([*args, "--port", str(port)])
        try:
            key = first.key
            assert (await dashboard_hello(first, key))["type"] == "welcome"
        finally:
            first.kill9()
        # The laptop comes back on the same port: the open dashboard's next
        # hello (director/link.js keeps the key of its URL) is welcome again.
        second = start([*args, "--port", str(port)])
        try:
            assert second.director_url == first.director_url
            assert (await dashboard_hello(second, key))["type"] == "welcome"
        finally:
            second.stop()

        # A rotation: a new key, the old one refused, and the new one kept.
        third = start([*args, "--port", str(port), "--rotate-director-key"])
        try:
            assert third.key != key
            assert any("new director's key" in line for line in third.lines)
            refused = await dashboard_hello(third, key)
            assert refused["type"] == "error" and refused["code"] == "unauthorized"
            assert (await dashboard_hello(third, third.key))["type"] == "welcome"
        finally:
            third.stop()
        fourth = start([*args, "--port", str(port)])
        try:
            assert fourth.key == third.key
        finally:
            fourth.stop()


@pytest.mark.anyio
@pytest.mark.parametrize("kind", STORES)
async def test_a_fixed_password_is_kept_and_printed_percent_encoded(
    kind: str, tmp_path: Path
) -> None:
    password = "club night & 50% off?/#=+"
    async with db_args(kind, tmp_path) as args:
        first = start([*args, "--port", str(free_port()), "--director-password", password])
        try:
            assert first.director_url.endswith("/director?key=" + quote(password, safe=""))
            assert first.key == password
            assert (await dashboard_hello(first, password))["type"] == "welcome"
            r = httpx.get(f"{first.base}/api/tournaments", timeout=10,
                          headers={"Authorization": f"Bearer {password}"})
            assert r.status_code == 200
            page = httpx.get(first.director_url, timeout=10)
            assert page.status_code == 200
        finally:
            first.stop()
        # Without the option the next start keeps the password.
        second = start([*args, "--port", str(free_port())])
        try:
            assert second.key == password
        finally:
            second.stop()


def test_password_and_rotation_together_are_refused(tmp_path: Path) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      "--director-password", "a-long-password", "--rotate-director-key"])
    one_line_error(done, "--director-password", "--rotate-director-key")


def test_a_loopback_server_says_how_to_reach_the_lan(tmp_path: Path) -> None:
    serving = start(["--db", str(tmp_path / "t.db"), "--port", str(free_port())])
    try:
        assert serving.director_url.startswith("http://127.0.0.1:")
        assert any("--host 0.0.0.0" in line for line in serving.lines)
    finally:
        serving.stop()


def test_a_public_url_is_the_base_of_every_link(tmp_path: Path) -> None:
    port = free_port()
    serving = start(["--db", str(tmp_path / "t.db"), "--port", str(port),
                     "--public-url", "http://clock.example:8080/"])
    try:
        assert serving.director_url.startswith("http://clock.example:8080/director?key=")
        auth = {"Authorization": f"Bearer {serving.key}"}
        local = f"http://127.0.0.1:{port}"
        t = httpx.post(f"{local}/api/tournaments", json={"name": "Club"}, headers=auth).json()
        table = httpx.post(f"{local}/api/tournaments/{t['id']}/tables", headers=auth,
                           json={"rules": "usbgf-2013-delay", "length": 3}).json()
        assert table["url"].startswith(f"http://clock.example:8080/t/{table['id']}?token=")
    finally:
        serving.stop()


def test_an_open_dashboard_comes_back_after_a_restart(tmp_path: Path) -> None:
    """The laptop dies and ``bgclock serve`` starts again with the same
    command: the dashboard already open in the browser reconnects by itself,
    with the session of the link it was opened from."""
    from bench.web_kit import CHROMIUM, launch_chromium, until

    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing")
    port = free_port()
    args = ["--db", str(tmp_path / "t.db"), "--port", str(port)]
    first = start(args)
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page = browser.new_page()
            page.goto(first.director_url)
            online = "document.getElementById('conn').dataset.status === 'online'"
            until(page, online, timeout_ms=15_000)
            first.kill9()
            until(page,
                "document.getElementById('conn').dataset.status === 'offline'",
                timeout_ms=15_000)
            second = start(args)
            try:
                until(page, online, timeout_ms=15_000)
                assert page.locator("#fatal").is_hidden()
                assert second.director_url == first.director_url
                # the session the link's key was exchanged for outlives the
                # restart (the key is kept); the address never had the key
                assert page.url == first.director_url.split("?")[0]
            finally:
                second.stop()
        finally:
            first.stop()
            browser.close()
