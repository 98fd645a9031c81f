"""The table's device keeps its queue through a reload and a closed tab, on an
insecure LAN-like origin (``http://tables.lan:PORT``, as a venue's
``http://192.168.x.y``), against ``bgclock serve`` on SQLite and PostgreSQL.

The link is cut by refusing the page's WebSocket (the page itself still
loads: on ``http://`` nothing can serve it with no network at all; see
``tests/test_web_tls.py`` for the service worker that does over TLS).  Presses
made while the link is down survive a reload: the page comes back from the
device's storage alone (the clock counting, the queue shown, more presses
accepted), and once the link is back every waiting press is stored at its
device instant (within 250 ms of the tap), none lost, none doubled.  A next
match at the same table never replays an old queue.  Debian's chromium only;
waits are on state, never on wall time.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages
from tests.test_web_device import Served, db_args, director_command, engine_ready, hits
from tests.test_web_match import press, roll, wait

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")

LAN = "tables.lan"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium resolving ``tables.lan`` to this machine: an insecure origin
    (no service worker, no wake lock API), as a venue's LAN address is."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {LAN} 127.0.0.1"])
        yield b
        b.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not os.environ.get("BGCLOCK_TEST_POSTGRES"),
    reason="BGCLOCK_TEST_POSTGRES is not set"))])
def served(request: Any, tmp_path: Any) -> Iterator[Served]:
    with db_args(request.param, tmp_path) as args:
        s = Served([*args, "--allow-host", LAN])
        s.start()
        try:
            yield s
        finally:
            s.stop()


class Gate:
    """The page's WebSocket let through to the server, or refused (the link
    is down), for every socket the context opens from now on."""

    def __init__(self, context: Any) -> None:
        self.open = True
        self.routes: list[Any] = []
        context.route_web_socket("**/ws", self._route)

    def _route(self, ws: Any) -> None:
        if self.open:
            ws.connect_to_server()
            self.routes.append(ws)
        else:
            ws.close()

    def cut(self) -> None:
        """Down now: new sockets refused, open ones closed."""
        self.open = False
        routes, self.routes = self.routes, []
        for ws in routes:
            with contextlib.suppress(Exception):  # already closed
                ws.close()


def rolled_then_cut(pages: Pages, served: Served, dice: tuple[int, int], length: int = 5
                    ) -> tuple[LiveServer, dict[str, Any], Any, Gate]:
    """A new table (Ann and Bob, ``length`` points), its page at the venue's
    name, its opening roll acknowledged (A on turn), then its link cut:
    offline.  The server, the table, the page and the link's gate."""
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=length)
    page, gate = lan_page(pages, served, table)
    engine_ready(page)
    roll(page, *dice)
    wait(page, "s.on_turn === 'A'")
    until(page, "__bgclock.conn.offset !== null && __bgclock.conn.pending.length === 0", 5000)
    gate.cut()
    page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    return live, table, page, gate


def lan_page(pages: Pages, served: Served, table: dict[str, Any],
             locale: str = "it-IT") -> tuple[Any, Gate]:
    """The table's page at 360×640 on the LAN-like origin, its link gated."""
    ctx = pages.browser.new_context(viewport={"width": 360, "height": 640}, locale=locale)
    pages.contexts.append(ctx)
    gate = Gate(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(f"http://{LAN}:{served.port}/t/{table['id']}?token={table['token']}")
    wait(page, "s.phase !== undefined")
    return page, gate


def tap_instant(page: Any) -> int:
    """The instant of the press just made, on the table's line (the device's)."""
    return int(page.evaluate("__bgclock.app.engine.pending.at(-1).at_ms"))


def test_insecure_origin_has_no_wake_lock_api_nor_service_worker(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5)
    page, _ = lan_page(pages, served, table)
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False
    # over http:// the page does not try to register a service worker
    assert page.evaluate("__bgclock.app.worker") == "insecure"


def test_reload_offline_then_online_keeps_the_queue_at_its_instants(
        served: Served, pages: Pages) -> None:
    # the link goes down; A and B hit, then a reload (pull-to-refresh, a tap on ↻)
    live, table, page, gate = rolled_then_cut(pages, served, (6, 1))
    press(page, "A")
    taps = [tap_instant(page)]
    until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
    press(page, "B")
    taps.append(tap_instant(page))
    page.wait_for_selector("#conn[data-queued='2']")
    ids = page.evaluate("__bgclock.conn.pending.map((p) => p.id)")
    # a reload asks first while presses wait
    assert page.evaluate("__bgclock.leaveAsks()") is True
    page.reload()
    # back from the device's storage alone: the clock, its queue, the count
    until(page, "!!window.__bgclock && __bgclock.app.restored !== null", 5000)
    page.wait_for_selector("#conn[data-restored='1'][data-queued='2']", timeout=5000)
    assert page.evaluate("__bgclock.conn.pending.map((p) => p.id)") == ids
    assert page.evaluate("__bgclock.display().state.on_turn") == "A"
    assert page.evaluate("__bgclock.display().state.A.running") is True
    text = page.locator("#conn").inner_text()
    assert "2 pressioni" in text, text
    # the clock keeps counting with no server at all
    left = "((a) => a.reserve_ms + a.delay_ms)(__bgclock.display().state.A)"
    before = page.evaluate(left)
    until(page, f"{left} < {before} - 300", 3000)
    # and takes more presses: a third, stored with the first two
    press(page, "A")
    taps.append(tap_instant(page))
    page.wait_for_selector("#conn[data-queued='3']")
    ids = page.evaluate("__bgclock.conn.pending.map((p) => p.id)")
    assert len(hits(live, table["id"])) == 0  # the server has heard of none
    # the link comes back (a new socket, as the page retries)
    gate.open = True
    page.wait_for_selector("#conn[data-synced='1']", timeout=15_000)
    stored = hits(live, table["id"])
    assert [h["idem_key"] for h in stored] == ids           # none lost, none doubled
    assert [h["event"]["side"] for h in stored] == ["A", "B", "A"]
    for h, t in zip(stored, taps, strict=True):
        assert abs(h["at_ms"] - t) <= 250, (stored, taps)
    text = page.locator("#conn").inner_text()
    assert "applicate al loro istante: 3 pressioni" in text, text
    # what was sent is no longer kept as waiting
    assert page.evaluate("__bgclock.leaveAsks()") is False
    assert page.evaluate(
        f"JSON.parse(localStorage.getItem('bgclock.table.{table['token']}')).queue.length") == 0


def test_a_closed_tab_during_an_outage_sends_its_queue_when_opened_again(
        served: Served, pages: Pages) -> None:
    live, table, page, gate = rolled_then_cut(pages, served, (3, 1))
    press(page, "A")
    tap = tap_instant(page)
    ids = page.evaluate("__bgclock.conn.pending.map((p) => p.id)")
    ctx = page.context
    page.close(run_before_unload=False)
    gate.open = True
    again = ctx.new_page()
    again.on("pageerror", lambda e: pages.errors.append(str(e)))
    again.goto(f"http://{LAN}:{served.port}/t/{table['id']}?token={table['token']}")
    again.wait_for_selector("#conn[data-synced='1']", timeout=15_000)
    stored = hits(live, table["id"])
    assert [h["idem_key"] for h in stored] == ids
    assert abs(stored[0]["at_ms"] - tap) <= 250


def test_a_next_match_never_replays_the_last_ones_queue(
        served: Served, pages: Pages) -> None:
    live, table, page, gate = rolled_then_cut(pages, served, (5, 2), length=1)
    press(page, "A")
    page.wait_for_selector("#conn[data-queued='1']")
    ctx = page.context
    page.close(run_before_unload=False)
    # meanwhile the match ends (the director enters its result) and the
    # director starts the next match at this table
    assert director_command(live, table["id"], do="game_over", winner="B",
                            result="single")["type"] == "ack"
    nxt = live.api("POST", f"/api/tables/{table['id']}/next-match",
                   {"rules": "usbgf-2013-delay", "players": ["Cid", "Dan"], "length": 3})
    assert nxt is not None
    gate.open = True
    again = ctx.new_page()
    again.on("pageerror", lambda e: pages.errors.append(str(e)))
    again.goto(f"http://{LAN}:{served.port}/t/{table['id']}?token={table['token']}")
    again.wait_for_selector("#conn[data-status='online']", timeout=15_000)
    until(again, "__bgclock.app.restored && __bgclock.app.restored.confirmed", 5000)
    assert again.evaluate("__bgclock.conn.pending.length") == 0
    assert "nuovo incontro" in again.locator("#conn").inner_text()
    assert hits(live, table["id"]) == []
    assert again.evaluate("__bgclock.display().state.phase") == "setup"
