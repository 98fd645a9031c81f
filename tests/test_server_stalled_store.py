"""A database that goes silent is an error within the deadline, never a freeze;
and a second server on the same store refuses to start.

PostgreSQL is reached through a relay started by the test (``_db_proxy``),
switched to swallow every byte (a TCP blackhole): the real server is never
stopped.  On SQLite, another connection holds the file's write lock.  Either
way: the presses waiting get ``storage`` errors, director routes answer 503
with ``Retry-After``, and once the database answers again the server goes on
by itself, with every acknowledged press stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bgclock.store import Store, StoredEvent, StoredNote, StoreUnavailable
from bgclock.store._postgres import PostgresStore
from bgclock.store._sqlite import SqliteStore
from tests._db_proxy import blackhole_proxy
from tests._serve_proc import run_serve, serve_command, start
from tests._server_kit import (
    DIRECTOR,
    POSTGRES,
    STORES,
    Device,
    anyio_backend,
    free_port,
    fresh_schema,
    live_server,
)
from tests.conftest import ROOT

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
#: The stores' deadline in these tests (seconds).
DEADLINE_S = 1.0
#: The id of the press sent while the database is silent.
LOST = "h2-while-silent"


@dataclass
class Stall:
    """A store over a database the test can make stop answering."""

    make: Callable[[], Store]
    stall: Callable[[], None]
    resume: Callable[[], None]
    schema: str | None = None


@contextlib.asynccontextmanager
async def stallable(kind: str, tmp_path: Path) -> AsyncIterator[Stall]:
    """``kind``: sqlite, postgres (a blackhole), or postgres-answers-lost (what
    the server sends arrives, the answers do not: its commits land unseen)."""
    if kind == "sqlite":
        path = tmp_path / "stall.db"
        holder: list[sqlite3.Connection] = []

        def stall() -> None:
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("BEGIN EXCLUSIVE")  # a backup tool, a stuck sqlite3 shell
            holder.append(db)

        def resume() -> None:
            while holder:
                db = holder.pop()
                db.rollback()
                db.close()

        try:
            yield Stall(lambda: SqliteStore(path, deadline_s=DEADLINE_S), stall, resume)
        finally:
            resume()
        return
    assert POSTGRES
    async with fresh_schema() as schema, blackhole_proxy(POSTGRES) as proxy:
        yield Stall(lambda: PostgresStore(proxy.dsn(POSTGRES), schema=schema,
                                          deadline_s=DEADLINE_S),
                    (lambda: proxy.hold_after_commit(LOST.encode(), alone=True))
                    if kind == "postgres-answers-lost" else proxy.hold,
                    proxy.release, schema)


async def _stored_directly(schema: str, idem_key: str) -> int:
    """Rows with ``idem_key`` in the database, read beside the relay."""
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        return int(await conn.fetchval(
            f'SELECT count(*) FROM "{schema}".clock_events WHERE idem_key = $1', idem_key))
    finally:
        await conn.close()


KINDS = [*STORES, pytest.param("postgres-answers-lost", marks=pytest.mark.skipif(
    not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"))]


async def _until_ack(device: Device, do: str, msg_id: str, **fields: Any) -> dict[str, Any]:
    """Send the command (the same id each time) until it is acknowledged."""
    for _ in range(100):
        answer = await device.cmd(do, id=msg_id, **fields)
        if answer["type"] == "ack":
            return answer
        assert answer["code"] == "storage", answer
        await asyncio.sleep(0.2)
    raise AssertionError(f"{do} {msg_id} was never stored")


@pytest.mark.parametrize("kind", KINDS)
async def test_a_silent_database_gives_errors_then_the_server_recovers_by_itself(
        kind: str, tmp_path: Path) -> None:
    async with stallable(kind, tmp_path) as db, live_server(db.make) as live:
        store = live.server.store
        table = await live.table()
        acked: dict[str, int] = {}
        async with Device.open(live.ws_url, {"token": table["token"]}) as a:
            await a.welcome()
            for msg_id, do, fields in [("r1", "opening_roll", {"dice": [6, 1]}),
                                       ("h1", "hit", {"side": "A"})]:
                answer = await a.cmd(do, id=msg_id, **fields)
                assert answer["type"] == "ack"
                acked[msg_id] = answer["seq"]

            db.stall()
            # the press waiting on the silent database: an error, within the
            # deadline (Device.cmd waits 5 s at most), never an ack
            answer = await a.cmd("hit", id=LOST, side="B")
            assert answer["type"] == "error" and answer["code"] == "storage", answer
            snapshot = a.last("snapshot")  # sent before the error: back where the disk is
            assert snapshot["seq"] == acked["h1"] and snapshot["state"]["on_turn"] == "B"
            if kind == "postgres-answers-lost":
                # the commit did land: only its answer was lost (in doubt)
                assert db.schema is not None
                assert await _stored_directly(db.schema, LOST) == 1
            # the director's pages: 503 and when to try again, not 500
            r = await live.http.post("/api/tournaments", json={"name": "During"},
                                     headers=DIRECTOR)
            assert r.status_code == 503, r.text
            assert r.headers["retry-after"] == "1" and r.json()["error"] == "storage"
            assert r.json()["message"].endswith(": try again in 1 s")
            r = await live.http.get("/api/tournaments", headers=DIRECTOR)
            assert r.status_code in (200, 503)  # SQLite still reads beside the lock
            if kind != "sqlite":
                assert r.status_code == 503
                for _ in range(100):  # the claim's link is silent too: writes are fenced
                    if store.lost is not None:
                        break
                    await asyncio.sleep(0.05)
                assert store.lost is not None

            db.resume()
            # nobody restarts anything: the same press goes through
            answer = await _until_ack(a, "hit", LOST, side="B")
            acked[LOST] = answer["seq"]
            assert answer["seq"] == acked["h1"] + 1 and answer["duplicate"] is False
            answer = await _until_ack(a, "hit", "h3", side="A")
            acked["h3"] = answer["seq"]
            r = await live.http.post("/api/tournaments", json={"name": "After"},
                                     headers=DIRECTOR)
            assert r.status_code == 201, r.text
            assert store.lost is None
            # the tournament answered 503 is not there (had it landed, it is removed)
            r = await live.http.get("/api/tournaments", headers=DIRECTOR)
            assert "During" not in [x["name"] for x in r.json()["tournaments"]]
        stored = await live.stored(table["id"])
        # every acknowledged press is stored, at its seq, once; nothing else
        assert {e["idem_key"]: e["seq"] for e in stored} == acked
        assert [e["seq"] for e in stored] == [1, 2, 3, 4]


def _db_args(kind: str, tmp_path: Path, schema: str | None) -> list[str]:
    if kind == "sqlite":
        return ["--db", str(tmp_path / "one.db")]
    assert POSTGRES and schema
    return ["--db", POSTGRES, "--db-schema", schema]


@contextlib.asynccontextmanager
async def _schema(kind: str) -> AsyncIterator[str | None]:
    if kind == "sqlite":
        yield None
    else:
        async with fresh_schema() as schema:
            yield schema


@pytest.mark.parametrize("kind", STORES)
async def test_a_second_server_on_the_same_store_refuses_and_the_first_plays_on(
        kind: str, tmp_path: Path) -> None:
    async with _schema(kind) as schema:
        args = _db_args(kind, tmp_path, schema)
        first = start(["--port", str(free_port()), *args])
        try:
            key = {"Authorization": f"Bearer {first.key}"}
            async with httpx.AsyncClient(base_url=first.base, timeout=10) as http:
                t = await http.post("/api/tournaments", json={"name": "Open"}, headers=key)
                r = await http.post(f"/api/tournaments/{t.json()['id']}/tables", headers=key,
                                    json={"rules": "usbgf-2013-delay", "length": 3,
                                          "players": ["Ann", "Bob"]})
                table = r.json()
                ws_url = first.base.replace("http", "ws", 1) + "/ws"
                async with Device.open(ws_url, {"token": table["token"]}) as a:
                    await a.welcome()
                    assert (await a.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                    assert (await a.cmd("hit", side="A"))["type"] == "ack"  # A's clock runs

                    second = await asyncio.to_thread(
                        subprocess.run,
                        serve_command(["--port", str(free_port()), *args]),
                        capture_output=True, text=True, timeout=90, cwd=ROOT)
                    assert second.returncode == 2, second
                    lines = second.stderr.strip().splitlines()
                    assert len(lines) == 1, second.stderr
                    assert "in use by another bgclock serve (pid" in lines[0]
                    assert "Director:" not in second.stdout

                    # the first is unharmed: its running table keeps pressing
                    answer = await a.cmd("hit", side="B")
                    assert answer["type"] == "ack" and answer["seq"] == 3
                log = await http.get(f"/api/tables/{table['id']}/log.json", headers=key)
                events = [e["event"] for e in log.json()["events"]]
                assert [e["do"] for e in events] == ["opening_roll", "hit", "hit"]
        finally:
            first.stop()


@pytest.mark.parametrize("value", ["0", "0.5", "61", "nan", "inf", "soon"])
def test_a_deadline_outside_its_bounds_is_one_line_and_exit_2(
        value: str, tmp_path: Path) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      f"--db-timeout={value}"])
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--db-timeout" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "Director:" not in done.stdout
    assert not (tmp_path / "t.db").exists()


@pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set")
async def test_a_server_whose_store_was_taken_over_while_it_was_cut_off_stops() -> None:
    """The first server is cut off (the database ends its sessions, its own
    side hears nothing); a second starts on the same schema; when the first
    is reachable again it finds the store taken and stops with exit code 3."""
    assert POSTGRES
    async with fresh_schema() as schema, blackhole_proxy(POSTGRES) as proxy:
        first = await asyncio.to_thread(
            start, ["--port", str(free_port()), "--db", proxy.dsn(POSTGRES),
                    "--db-schema", schema, "--db-timeout", "1"])
        second = None
        try:
            async with httpx.AsyncClient(base_url=first.base, timeout=10) as http:
                for _ in range(200):  # the URL is printed before the lifespan has run
                    with contextlib.suppress(httpx.HTTPError):
                        if (await http.get("/api/tournaments", headers={
                                "Authorization": f"Bearer {first.key}"})).status_code == 200:
                            break
                    await asyncio.sleep(0.05)
            proxy.hold()
            proxy.cut_upstream()
            second = await asyncio.to_thread(
                start, ["--port", str(free_port()), "--db", POSTGRES, "--db-schema", schema])
            proxy.release()
            code = await asyncio.to_thread(first.proc.wait, 60)
            said = first.stop().strip().splitlines()
            assert code == 3, said
            assert said[-1] == ("bgclock serve: another bgclock serve owned the store while "
                                "this one was away: this server stops"), said
            key = {"Authorization": f"Bearer {second.key}"}
            async with httpx.AsyncClient(base_url=second.base, timeout=10) as http:
                r = await http.post("/api/tournaments", json={"name": "Open"}, headers=key)
                assert r.status_code == 201, r.text
        finally:
            first.stop()
            if second is not None:
                second.stop()


class SilentStore(SqliteStore):
    """Commits wait for the test, then fail as a silent database does."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = asyncio.Event()
        self.gate.set()
        self.silent = False
        self.tried = 0

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        if events:
            self.tried += 1
        await self.gate.wait()
        if self.silent:
            raise StoreUnavailable("the database did not answer within 1 s")
        await super().commit(events, checkpoints, notes)


async def test_commands_queued_behind_a_silent_commit_fail_with_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One deadline, not one each: what waited behind the failed batch is
    answered with it, never tried on a database that did not answer.  The
    terminal hears of the silence once, and of its end once."""
    caplog.set_level(logging.INFO, logger="bgclock.server")
    store = SilentStore(tmp_path / "s.db")
    async with live_server(lambda: store) as live:
        table = await live.table()
        other = await live.table()
        async with (
            Device.open(live.ws_url, {"token": table["token"]}) as a,
            Device.open(live.ws_url, {"token": other["token"]}) as b,
        ):
            await a.welcome()
            await b.welcome()
            store.gate.clear()
            store.silent = True
            tried = store.tried
            await a.send({"type": "cmd", "id": "first", "do": "opening_roll", "dice": [6, 1]})
            while store.tried == tried:  # its batch is in flight
                await asyncio.sleep(0.01)
            await b.send({"type": "cmd", "id": "queued", "do": "opening_roll", "dice": [5, 2]})
            await b.send({"type": "ping", "v": 1, "t": 1})
            await b.expect("pong")  # the server has read it: it is queued
            store.gate.set()
            first = await a.expect("error")
            queued = await b.expect("error")
            assert (first["id"], first["code"]) == ("first", "storage")
            assert (queued["id"], queued["code"]) == ("queued", "storage")
            assert store.tried == tried + 1  # the queued command was never tried
            again = await a.cmd("opening_roll", id="again", dice=[6, 1])
            assert again["code"] == "storage"
            store.silent = False
            assert (await b.cmd("opening_roll", id="queued", dice=[5, 2]))["type"] == "ack"
            said = [r.getMessage() for r in caplog.records if r.name == "bgclock.server"
                    and r.levelno >= logging.WARNING]
            assert [m for m in said if "until it answers" in m] == [
                "the database did not answer within 1 s: commands get storage errors "
                "until it answers"]
            assert len([m for m in said if "answers again" in m]) == 1
        assert [e["idem_key"] for e in await live.stored(other["id"])] == ["queued"]
        assert await live.stored(table["id"]) == []
