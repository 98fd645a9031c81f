"""The table's timekeeper claim in a real browser, on an insecure LAN-like
origin (``http://tables.lan:PORT``, Chromium's host resolver mapping it to
127.0.0.1), against ``bgclock serve`` on SQLite and PostgreSQL (issue 17 §1).

- The director opens the table's link first, then the phone plays: the phone
  keeps the time (the laptop never claims by looking), and its presses made
  while the server is down (``kill -9``) are stored at the instants of the
  taps.
- A second phone while the keeper is offline: its presses are refused until
  it keeps the time on itself; the dashboard shows the keeper offline and the
  clocks as the server's estimate.

``BGCLOCK_SHOTS=docs/screenshots`` refreshes the docs' pictures (Italian,
360×640). Waits are on state, never on wall time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._server_kit import STORES
from tests._web import Pages
from tests.test_web_device import Served, db_args, engine_ready, hits
from tests.test_web_match import press, roll, wait

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")

HOST = "tables.lan"
SMALL = {"width": 360, "height": 640}
LAPTOP = {"width": 1280, "height": 800}
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, resolving the venue's name to this machine."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {HOST} 127.0.0.1"])
        yield b
        b.close()


@pytest.fixture(params=STORES)
def served(request: Any, tmp_path: Path) -> Iterator[Served]:
    with db_args(request.param, tmp_path) as args:
        s = Served(args)
        s.args = [*args, "--public-url", f"http://{HOST}:{s.port}"]
        s.start()
        try:
            yield s
        finally:
            s.stop()


def lan(served: Served) -> str:
    return f"http://{HOST}:{served.port}"


def open_table(pages: Pages, served: Served, table: dict[str, Any],
               viewport: dict[str, int], lang: str = "en") -> Any:
    page = pages.open(LiveServer.table_url(table, lan(served)) + f"&lang={lang}", viewport)
    wait(page, "s.phase !== undefined")
    return page


def link(live: LiveServer, table_id: int) -> dict[str, Any]:
    return dict(live.api("GET", f"/api/tables/{table_id}")["link"])


def until_api(check: Any, timeout_s: float = 10.0) -> None:
    """Until ``check()`` (the server's state) holds."""
    end = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)


def test_the_director_opens_the_link_first_then_the_phone_keeps_the_time(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    laptop = open_table(pages, served, table, LAPTOP)          # the director checks the link
    assert link(live, table["id"])["keeper"] is False           # looking claims nothing
    phone = open_table(pages, served, table, SMALL)
    phone_id = phone.evaluate("BG.deviceId()")
    engine_ready(phone)
    roll(phone, 4, 2)
    wait(phone, "s.on_turn === 'A'")
    until_api(lambda: link(live, table["id"])["keeper_device"] == phone_id)
    # the laptop says who keeps the time and offers the claim
    laptop.wait_for_selector("#keeper [data-act='keep']")
    assert "Chrome" in laptop.locator("#keeper .keeper-who").inner_text()
    until(phone, "BGTable.conn.offset !== null", 5000)
    served.kill9()                                              # the outage
    phone.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    press(phone, "A")
    until(phone, "BGTable.display().state.on_turn === 'B'", 2000)
    press(phone, "B")
    until(phone, "BGTable.display().state.on_turn === 'A'", 2000)
    made = phone.evaluate("BGTable.app.engine.pending.map((p) => [p.id, p.at_ms])")
    assert len(made) == 2
    served.start()
    phone.wait_for_selector("#conn[data-synced='1']", timeout=30_000)
    stored = {h["idem_key"]: h["at_ms"] for h in hits(live, table["id"])}
    for cmd_id, at in made:
        assert abs(stored[cmd_id] - at) <= 250, (cmd_id, at, stored)
    # the laptop is still no keeper; the restart stopped nothing
    assert link(live, table["id"])["keeper_device"] == phone_id
    server = live.api("GET", f"/api/tables/{table['id']}")["state"]
    assert server["phase"] == "playing" and server["on_turn"] == "A"


def test_a_second_phone_while_the_keeper_is_offline(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="it-tournament")
    keeper = open_table(pages, served, table, SMALL, "it")
    engine_ready(keeper)
    roll(keeper, 6, 2)
    wait(keeper, "s.on_turn === 'A'")
    keeper_id = keeper.evaluate("BG.deviceId()")
    until_api(lambda: link(live, table["id"])["keeper_device"] == keeper_id)
    if SHOTS:
        keeper.screenshot(path=f"{SHOTS}/keeper-phone-it.png")
    director = pages.open(live.director_url(lan(served)) + "&lang=it", SMALL)
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
    keeper.context.close()                                     # the keeper's phone is gone
    pages.contexts.remove(keeper.context)
    until_api(lambda: link(live, table["id"])["state"] == "offline")
    second = open_table(pages, served, table, SMALL, "it")
    engine_ready(second)
    # a second device is connected: the dashboard still shows the keeper offline
    director.wait_for_selector("[data-badge='offline'][data-keeper='offline']")
    director.wait_for_selector("[data-badge='estimate']")
    assert link(live, table["id"])["devices"] == 1
    second.wait_for_selector("#keeper [data-act='keep']")
    assert "non in linea" in second.locator("#keeper .keeper-who").inner_text()
    if SHOTS:
        second.screenshot(path=f"{SHOTS}/keeper-second-phone-it.png")
        director.screenshot(path=f"{SHOTS}/keeper-dashboard-it.png")
    press(second, "A")                                         # refused: not the keeper
    second.wait_for_selector("#toast:not([hidden])")
    assert "Tieni il tempo" in second.locator("#toast").inner_text()
    until(second, "BGTable.app.engine.pending.length === 0", 5000)
    assert hits(live, table["id"]) == []
    second.on("dialog", lambda d: d.accept())
    second.click("#keeper [data-act='keep']")
    until_api(lambda: link(live, table["id"])["keeper_device"] != keeper_id)
    second.wait_for_selector("#keeper", state="hidden")
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
    wait(second, "s.on_turn === 'A'")
    until(second, "BGTable.conn.offset !== null", 5000)
    # the press as a tap sends it, with the instant the device applied it at
    cmd_id, made = second.evaluate("""(() => {
      const id = BGTable.command({do: "hit", side: "A"});
      const p = BGTable.app.engine.pending.find((x) => x.id === id);
      return [id, p ? p.at_ms : null]; })()""")
    assert made is not None
    until_api(lambda: len(hits(live, table["id"])) == 1)
    [stored] = hits(live, table["id"])
    assert stored["idem_key"] == cmd_id and abs(stored["at_ms"] - made) <= 250
    if SHOTS:
        second.screenshot(path=f"{SHOTS}/keeper-claimed-phone-it.png")
