"""The table page draws its clock from the snapshot the server put in the
page (``table/messages.js`` ``takeBoot``, issue 33 §4), before its
WebSocket opens; the device's own kept state wins over an older snapshot
in the page (a page a service worker answered from its cache), as it wins
over the socket's.  Debian's chromium only; skipped without it."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from bench.first_clock import SHOWS_FIGURE
from bench.web_kit import CHROMIUM, LiveServer, until
from tests.test_web_match import roll, table_page, wait

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
SMALL = {"width": 360, "height": 640}
#: The page's WebSockets never open (a link that has not answered yet).
HELD = """
window.__sockets = 0;
window.WebSocket = function () {
  window.__sockets += 1;
  return { readyState: 0, send() {}, close() {} };
};
"""


def held_page(pages: Any, url: str) -> Any:
    ctx = pages.browser.new_context(viewport=SMALL)
    pages.contexts.append(ctx)
    ctx.add_init_script(HELD)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(url)
    return page


def test_the_clock_is_drawn_before_the_socket_opens(pages: Any, live: LiveServer) -> None:
    table = live.table(players=["Ann", "Bob"])
    first = table_page(pages, live, table)
    roll(first, 6, 1)
    wait(first, "s.on_turn === 'A'")
    page = held_page(pages, LiveServer.table_url(table, live.url))
    until(page, "window.__sockets > 0 && !!window.__bgclock && " + SHOWS_FIGURE)
    assert page.evaluate("__bgclock.app.seq") == 1
    assert page.evaluate("__bgclock.app.state.on_turn") == "A"
    assert page.evaluate("__bgclock.conn.status") != "online"
    names = page.locator("#name-A").inner_text(), page.locator("#name-B").inner_text()
    assert names == ("Ann", "Bob")


def test_the_devices_kept_state_wins_over_an_older_page(pages: Any, live: LiveServer) -> None:
    table = live.table(players=["Ann", "Bob"])
    url = LiveServer.table_url(table, live.url)
    with urllib.request.urlopen(url) as r:  # the page as first loaded: seq 0
        older = r.read().decode("utf-8")
    assert '"seq":0' in older
    ctx = pages.browser.new_context(viewport=SMALL)
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(url)
    wait(page, "s.phase !== undefined")
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    until(page, "__bgclock.app.seq === 1 && __bgclock.conn.pending.length === 0")
    page.evaluate("__bgclock.persistNow()")
    # the page comes back as a cache kept it, and its link does not answer
    ctx.add_init_script(HELD)
    ctx.route("**/t/*", lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8", body=older))
    page.reload()
    until(page, "window.__sockets > 0 && !!window.__bgclock && " + SHOWS_FIGURE)
    assert page.evaluate("__bgclock.app.seq") == 1
    assert page.evaluate("__bgclock.app.state.on_turn") == "A"
    assert page.evaluate("__bgclock.app.restored.confirmed") is False
