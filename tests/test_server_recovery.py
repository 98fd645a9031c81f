"""kill -9 during play, start again: every table comes back from its log.

For real: ``bgclock serve`` in a subprocess on a free port, a match driven over
WebSockets, SIGKILL, a second server on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests._server_kit import (
    DIRECTOR,
    KEY,
    POSTGRES,
    STORES,
    Device,
    anyio_backend,
    free_port,
    fresh_schema,
)

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def db_args(kind: str, tmp_path: Path) -> AsyncIterator[list[str]]:
    if kind == "sqlite":
        yield ["--db", str(tmp_path / "tournament.db")]
    else:
        async with fresh_schema() as schema:
            assert POSTGRES
            yield ["--db", POSTGRES, "--db-schema", schema]


class Served:
    def __init__(self, args: list[str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self._log = log.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(self.port), *args,
             "--director-password", KEY, "--no-qr"],
            stdout=self._log, stderr=subprocess.STDOUT, env=env)

    async def ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.url) as http:
            for _ in range(300):
                assert self.proc.poll() is None, "the server died at start"
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.05)
        raise AssertionError("the server did not come up")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


@pytest.mark.parametrize("kind", STORES)
async def test_kill_9_during_play_and_start_again(kind: str, tmp_path: Path) -> None:
    async with db_args(kind, tmp_path) as args:
        first = Served(args, tmp_path / "server.log")
        try:
            await first.ready()
            async with httpx.AsyncClient(base_url=first.url, headers=DIRECTOR) as http:
                t = (await http.post("/api/tournaments", json={"name": "Crash cup"})).json()
                table = (await http.post(f"/api/tournaments/{t['id']}/tables", json={
                    "rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"],
                    "clock": {"mode": "standard"}})).json()
                idle = (await http.post(f"/api/tournaments/{t['id']}/tables", json={
                    "rules": "usbgf-2013-delay", "length": 3})).json()
            async with Device.open(first.ws_url, {"token": table["token"]}) as device:
                await device.welcome()
                await device.cmd("opening_roll", dice=[6, 1])
                await device.cmd("hit", side="A")
                last = await device.cmd("hit", side="B", id="last-press")
                assert last["seq"] == 3
                update = device.last("update")
                assert update["seq"] == 3
                reserve_then = update["state"]["A"]["reserve_ms"]
                await asyncio.sleep(1.5)  # A's clock runs; a checkpoint is written
        finally:
            first.kill9()

        second = Served(args, tmp_path / "server.log")
        try:
            await second.ready()
            async with httpx.AsyncClient(base_url=second.url, headers=DIRECTOR) as http:
                info = (await http.get(f"/api/tables/{table['id']}")).json()
                log = (await http.get(f"/api/tables/{table['id']}/log.json")).json()["events"]
                untouched = (await http.get(f"/api/tables/{idle['id']}")).json()
            assert info["attention"] == "restart"
            assert info["state"]["phase"] == "stopped"
            assert info["state"]["stopped_reason"] == "restart"
            assert untouched["attention"] is None and untouched["seq"] == 0
            stop = log[-1]
            assert stop["seq"] == 4 and stop["source"] == "server"
            assert stop["event"] == {"v": 1, "do": "stop", "reason": "restart",
                                     "at_ms": stop["at_ms"]}
            # charged up to the checkpoint: at least the first tick after the press
            charged = stop["at_ms"] - last["at_ms"]
            assert 0 < charged <= 1500 + 1000
            assert info["state"]["A"]["reserve_ms"] == reserve_then - charged
            assert info["state"]["A"]["running"] is False

            async with Device.open(second.ws_url, {"key": KEY}) as director:
                await director.expect("welcome")
                snapshots = {}
                for _ in range(2):
                    s = await director.expect("snapshot")
                    snapshots[s["table"]] = s
                assert snapshots[table["id"]]["info"]["attention"] == "restart"

            async with Device.open(second.ws_url, {"token": table["token"], "last_seq": 3}) as d:
                assert (await d.recv())["type"] == "welcome"
                missed = await d.recv()
                assert missed["type"] == "update" and missed["seq"] == 4
                assert missed["event"]["reason"] == "restart"
                assert (await d.recv())["type"] == "snapshot"
                again = await d.cmd("hit", side="B", id="last-press")
                assert again["duplicate"] is True and again["seq"] == 3
                resumed = await d.cmd("resume")
                assert resumed["type"] == "ack" and resumed["seq"] == 5
                assert resumed["at_ms"] >= stop["at_ms"]
                update = d.last("update")
                assert update["seq"] == 5 and update["state"]["A"]["running"] is True
                assert update["state"]["A"]["reserve_ms"] == reserve_then - charged
                over = await d.cmd("game_over", winner="A", result="backgammon")
                assert over["type"] == "ack"
            async with httpx.AsyncClient(base_url=second.url, headers=DIRECTOR) as http:
                report = (await http.get(f"/api/tables/{table['id']}/report")).json()
                info = (await http.get(f"/api/tables/{table['id']}")).json()
            assert report["finished"] is True and report["winner"] == "A"
            assert report["restarts"] == 1
            assert info["attention"] is None
        finally:
            second.stop()
