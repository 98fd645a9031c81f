"""The table's device keeps the time itself, in a real browser against `bgclock serve`.

The page folds the table's log through the browser engine and applies its own
presses at their instants whether or not the link is up (``device.js``).  A
60 s outage with presses on both halves and a flag during it, and a
``kill -9`` of the server while the device presses: either way the server's
exported log ends where the device's did (the same events, at the device's
instants within 5 ms, nothing lost, nothing doubled), on SQLite and on
PostgreSQL.  Debian's chromium only.

``BGCLOCK_OUTAGE_S`` shortens the outage when working on this file (60 by
default, as the issue asks).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, free_port, until
from tests._serve_proc import Serving, start
from tests._server_kit import POSTGRES, STORES
from tests._web import Pages
from tests.test_web_match import press, roll, table_page, wait
from tests.test_web_table import BlackHole

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")

OUTAGE_S = float(os.environ.get("BGCLOCK_OUTAGE_S", "60"))


@contextlib.contextmanager
def db_args(kind: str, tmp_path: Path) -> Iterator[list[str]]:
    if kind == "sqlite":
        yield ["--db", str(tmp_path / "bgclock.db")]
        return
    assert POSTGRES
    schema = f"bgclock_test_{secrets.token_hex(6)}"

    async def drop() -> None:
        import asyncpg

        conn = await asyncpg.connect(POSTGRES)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()

    try:
        yield ["--db", POSTGRES, "--db-schema", schema]
    finally:
        # Playwright's loop runs in this thread: drop the schema from another
        t = threading.Thread(target=lambda: asyncio.run(drop()))
        t.start()
        t.join(30)


class Served:
    """``bgclock serve`` in a subprocess on a fixed port (a restart keeps the
    pages' origin) and an HTTP client with its director's key."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.port = free_port()
        self.proc: Serving | None = None
        self.live: LiveServer | None = None

    def start(self) -> LiveServer:
        self.proc = start(["--port", str(self.port), *self.args])
        self.live = LiveServer(url=f"http://127.0.0.1:{self.port}", key=self.proc.key)
        return self.live

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill9()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.stop()


@pytest.fixture(params=STORES)
def served(request: Any, tmp_path: Path) -> Iterator[Served]:
    with db_args(request.param, tmp_path) as args:
        s = Served(args)
        s.start()
        try:
            yield s
        finally:
            s.stop()


def device(page: Any) -> dict[str, Any]:
    """What the device shows now (its own match read at its clock)."""
    return dict(page.evaluate("__bgclock.display().state"))


def hits(live: LiveServer, table_id: int) -> list[dict[str, Any]]:
    return [e for e in live.api("GET", f"/api/tables/{table_id}/log.json")["events"]
            if e["event"]["do"] == "hit"]


def engine_ready(page: Any) -> None:
    until(page, "!!__bgclock.app.engine && __bgclock.app.engine.seq === __bgclock.app.seq", 5000)


def pressed_instants(page: Any) -> list[int]:
    """The instants the device applied its waiting commands at (table's line)."""
    return list(page.evaluate("__bgclock.app.engine.pending.map((p) => p.at_ms)"))


def test_the_page_folds_the_log_and_refuses_what_the_rules_refuse(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    page = table_page(pages, live, table)
    engine_ready(page)
    roll(page, 5, 2)
    wait(page, "s.on_turn === 'A'")
    press(page, "A")
    wait(page, "s.on_turn === 'B'")
    engine_ready(page)
    # the device's match and the server's agree on everything but the running time
    server = live.api("GET", f"/api/tables/{table['id']}")["state"]
    mine = device(page)
    for key in ("phase", "on_turn", "score", "cube", "game", "crawford"):
        assert mine[key] == server[key], key
    assert mine["A"]["reserve_ms"] == server["A"]["reserve_ms"]
    assert abs(mine["B"]["reserve_ms"] - server["B"]["reserve_ms"]) < 2000
    # a double by the side not on turn: refused here, in the page's words, never sent
    sent = page.evaluate("__bgclock.conn.pending.length")
    assert page.evaluate("__bgclock.command({do: 'double', side: 'A'})") is None
    assert page.evaluate("__bgclock.conn.pending.length") == sent
    assert "A" in page.locator("#toast").inner_text()
    assert page.evaluate("__bgclock.app.engine.seq") == server_seq(live, table["id"])


def server_seq(live: LiveServer, table_id: int) -> int:
    return int(live.api("GET", f"/api/tables/{table_id}")["seq"])


def test_a_60_s_outage_with_a_flag_the_server_log_ends_where_the_device_did(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    # USBGF: an expired clock loses the match; a 10 s reserve and a 1 s delay
    table = live.table(players=["Ann", "Bob"], length=3, rules="usbgf-2013-delay",
                       clock={"reserve_ms": 10_000, "delay_ms": 1_000})
    hole = BlackHole(served.port)
    try:
        page = table_page(pages, live, table, base=hole.url)
        dash = pages.open(live.director_url(), viewport={"width": 1280, "height": 800})
        engine_ready(page)
        roll(page, 6, 1)
        wait(page, "s.on_turn === 'A'")
        until(page, "__bgclock.conn.offset !== null", 5000)
        # the Wi-Fi goes: nothing tells the browser, the socket stays open
        page.context.set_offline(True)
        hole.freeze()
        went = time.monotonic()
        page.wait_for_selector("#conn[data-status='offline']", timeout=15000)
        press(page, "A")
        until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
        time.sleep(0.5)
        press(page, "B")
        until(page, "__bgclock.display().state.on_turn === 'A'", 2000)
        time.sleep(0.5)
        press(page, "A")
        until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
        instants = pressed_instants(page)
        assert len(instants) == 3
        # Bob's 10 s run out during the outage: the device flags him, the
        # match is Ann's, shown as such, with nobody to ask
        until(page, "__bgclock.display().state.phase === 'match_over'", 15_000)
        shown = device(page)
        assert shown["winner"] == "A" and shown["B"]["expired"] is True
        assert shown["B"]["reserve_ms"] == 0
        page.wait_for_selector("#half-B.flag")
        page.wait_for_selector("#half-A.winner")
        # a press after the flag: the rules refuse it here, nothing is queued
        press(page, "B")
        assert page.evaluate("__bgclock.conn.pending.length") == 3
        # the dashboard says the device is away (the server cannot know more)
        card = f".card[data-table='{table['id']}']"
        dash.wait_for_selector(f"{card} [data-badge='offline']", timeout=10_000)
        time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - went)))
        # the link comes back
        page.context.set_offline(False)
        hole.thaw()
        page.wait_for_selector("#conn[data-synced='1']", timeout=20_000)
        stored = hits(live, table["id"])
        assert [h["event"]["side"] for h in stored] == ["A", "B", "A"]
        assert len({h["idem_key"] for h in stored}) == 3
        assert [abs(h["at_ms"] - t) <= 5 for h, t in zip(stored, instants, strict=True)] \
            == [True] * 3, (stored, instants)
        server = live.api("GET", f"/api/tables/{table['id']}")["state"]
        assert server["phase"] == "match_over" and server["winner"] == "A"
        assert server["B"]["expired"] is True
        badge = dash.wait_for_selector(f"{card} [data-badge='reconciled']", timeout=10_000)
        assert "3 applied" in badge.inner_text()
        assert dash.locator(f"{card} [data-badge='offline']").count() == 0
        # the device and the server read the same match
        engine_ready(page)
        assert page.evaluate("__bgclock.app.engine.pending.length") == 0
        assert device(page)["winner"] == "A"
    finally:
        hole.close()


def test_kill_9_while_the_device_presses_then_a_restart(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    page = table_page(pages, live, table)
    engine_ready(page)
    roll(page, 4, 2)
    wait(page, "s.on_turn === 'A'")
    until(page, "__bgclock.conn.offset !== null", 5000)
    press(page, "A")
    served.kill9()                         # at once: the ack may never have come
    page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    time.sleep(0.4)
    press(page, "B")
    time.sleep(0.4)
    press(page, "A")
    until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
    made = page.evaluate(
        "__bgclock.app.engine.pending.map((p) => [p.id, p.at_ms])")
    time.sleep(1.0)
    served.start()                         # same port, same store
    page.wait_for_selector("#conn[data-synced='1']", timeout=30_000)
    engine_ready(page)
    stored = hits(live, table["id"])
    assert [h["event"]["side"] for h in stored] == ["A", "B", "A"]
    assert len({h["idem_key"] for h in stored}) == 3
    # each waiting press stored at the device's instant; the first (maybe
    # stored before the kill) at its own
    by_id = {h["idem_key"]: h["at_ms"] for h in stored}
    for cmd_id, at in made:
        assert abs(by_id[cmd_id] - at) <= 5, (cmd_id, at, stored)
    # the restart did not stop a table its device keeps: B's clock runs
    server = live.api("GET", f"/api/tables/{table['id']}")["state"]
    assert server["phase"] == "playing" and server["on_turn"] == "B"
    assert device(page)["on_turn"] == "B"


def director_command(live: LiveServer, table_id: int, **fields: Any) -> dict[str, Any]:
    """One director's command over the WebSocket; its answer (ack or error)."""
    from websockets.sync.client import connect

    ws_url = live.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, origin=live.url) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "key": live.key}))
        cmd = {"type": "cmd", "v": 1, "id": f"d-{secrets.token_hex(4)}", "table": table_id,
               **fields}
        ws.send(json.dumps(cmd))
        for _ in range(200):
            msg = json.loads(ws.recv(timeout=5))
            if msg.get("id") == cmd["id"] and msg["type"] in ("ack", "error"):
                return dict(msg)
    raise AssertionError("no answer")


def test_an_italian_premature_takes_the_double_away_in_the_page(served: Served,
                                                                 pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="it-tournament")
    page = table_page(pages, live, table)
    engine_ready(page)
    roll(page, 5, 3)
    wait(page, "s.on_turn === 'A'")
    press(page, "A")
    wait(page, "s.on_turn === 'B'")
    page.wait_for_selector("#half-B [data-act='double']")
    # Bob rolled before Ann had finished: the director rules a premature action
    assert director_command(live, table["id"], do="premature", side="B")["type"] == "ack"
    press(page, "B")
    wait(page, "s.on_turn === 'A'")
    press(page, "A")
    wait(page, "s.on_turn === 'B'")
    engine_ready(page)
    # Bob's next turn may not use the cube: no Double to tap, and none sent
    until(page, "document.querySelectorAll(\"#half-B [data-act='double']\").length === 0", 3000)
    assert page.evaluate("__bgclock.command({do: 'double', side: 'B'})") is None
    assert "cube" in page.locator("#toast").inner_text()
    press(page, "B")
    wait(page, "s.on_turn === 'A'")
    page.wait_for_selector("#half-A [data-act='double']")


def test_a_second_devices_offline_press_never_re_times_the_keepers(served: Served,
                                                                   pages: Pages) -> None:
    """Only the table's keeper (the device that rolled) keeps the time; a
    second device's press made offline is refused when it arrives
    (``not_keeper``, protocol.md "The timekeeper is a claim"): it never
    re-times the side the keeper runs."""
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    keeper = table_page(pages, live, table)
    engine_ready(keeper)
    hole = BlackHole(served.port)
    try:
        second = table_page(pages, live, table, base=hole.url)
        engine_ready(second)
        roll(keeper, 6, 2)
        wait(second, "s.on_turn === 'A'")
        until(second, "__bgclock.conn.offset !== null", 5000)
        second.context.set_offline(True)
        hole.freeze()
        second.wait_for_selector("#conn[data-status='offline']", timeout=15000)
        press(second, "A")
        until(second, "__bgclock.display().state.on_turn === 'B'", 2000)
        assert len(pressed_instants(second)) == 1
        second.context.set_offline(False)
        hole.thaw()
        # refused on arrival: it leaves the second device's match
        until(second, "__bgclock.app.engine && __bgclock.app.engine.pending.length === 0", 20_000)
        assert hits(live, table["id"]) == []
        second.wait_for_selector("#keeper [data-act='keep']")
        # the keeper and the second device read the same match: A's clock runs
        engine_ready(second)
        wait(keeper, "s.on_turn === 'A'")
        until(second, "__bgclock.display().state.on_turn === 'A'", 5000)
    finally:
        hole.close()
