"""The table page's honest words and safe taps, on an insecure LAN-like origin
(``http://tables.lan:PORT``) against ``bgclock serve``.

- No control sits under the spot of the control before it: a double tap on
  "Start the clock" at 360×640 starts the clock and nothing else (Stop, which
  takes its place, is not reached); a double tap on ☎ at 412×915 opens the
  confirmation and does not confirm it.
- The screen is kept awake without the Wake Lock API (a muted video the page
  makes), and the page says so only when it is true: when the browser
  refuses the video, the bar says the screen may sleep.
- A restart of the server is named, not only "reconnecting".
- A refusal of a press faces the player who made it.
- What was re-timed or refused after an outage is named.
Debian's chromium only; waits are on state, never on wall time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, until
from tests._web import Pages
from tests.test_web_device import Served, director_command, engine_ready
from tests.test_web_match import press, roll, wait
from tests.test_web_reload import LAN, browser, lan_page  # noqa: F401 - fixture

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(["--db", str(tmp_path / "b.db"), "--allow-host", LAN])
    s.start()
    try:
        yield s
    finally:
        s.stop()


def log(served: Served, table_id: int) -> list[str]:
    assert served.live is not None
    return [e["event"]["do"] for e in served.live.api(
        "GET", f"/api/tables/{table_id}/log.json")["events"]]


def sized(pages: Pages, served: Served, table: dict[str, Any], w: int, h: int,
          locale: str = "en-US") -> Any:
    ctx = pages.browser.new_context(viewport={"width": w, "height": h}, locale=locale)
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(f"http://{LAN}:{served.port}/t/{table['id']}?token={table['token']}")
    wait(page, "s.phase !== undefined")
    return page


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize(("w", "h", "dx", "under"), [
    (360, 640, 15, "btn-stop"),        # Start's left end: Stop once the roll row has gone
    (412, 915, None, "btn-director"),  # Start's centre: ☎ (then its Confirm)
])
def test_a_double_tap_on_start_the_clock_never_reaches_what_takes_its_place(
        served: Served, pages: Pages, w: int, h: int, dx: float | None, under: str) -> None:
    assert served.live is not None
    table = served.live.table(players=["Ann", "Bob"], length=5)
    page = sized(pages, served, table, w, h)
    engine_ready(page)
    page.click("#center .dice[data-die='A'] .die[data-n='6']")
    page.click("#center .dice[data-die='B'] .die[data-n='1']")
    x, y = centre(page, "#roll-start")
    if dx is not None:
        x = page.locator("#roll-start").bounding_box()["x"] + dx
    page.mouse.dblclick(x, y)
    wait(page, "s.phase === 'playing' && s.game === 1")
    until(page, "__bgclock.conn.pending.length === 0", 5000)
    # the case is real: once the roll row has gone, the spot is another control's
    assert page.evaluate(f"document.elementFromPoint({x}, {y}).closest('button').id") == under
    assert page.evaluate("__bgclock.app.guarded.length") == 1
    assert log(served, table["id"]) == ["opening_roll"]
    assert page.evaluate("__bgclock.display().state.phase") == "playing"
    assert page.locator("#center").is_hidden()   # no confirmation opened either
    # a later tap there, after the guard's 400 ms, is that control's again
    until(page, "performance.now() - __bgclock.app.layoutAt > 400", 2000)
    page.mouse.click(x, y)
    if under == "btn-stop":
        until(page, "__bgclock.conn.pending.length === 0"
              " && __bgclock.display().state.phase === 'stopped'", 5000)
        assert log(served, table["id"]) == ["opening_roll", "stop"]
    else:
        page.wait_for_selector("#center[data-kind='summon']:not([hidden])")


def test_a_double_tap_on_the_director_button_at_412x915_only_asks(
        served: Served, pages: Pages) -> None:
    assert served.live is not None
    table = served.live.table(players=["Ann", "Bob"], length=5)
    page = sized(pages, served, table, 412, 915)
    engine_ready(page)
    roll(page, 6, 1)
    wait(page, "s.phase === 'playing' && s.game === 1")
    until(page, "__bgclock.conn.pending.length === 0", 5000)
    until(page, "performance.now() - __bgclock.app.layoutAt > 400", 2000)
    x, y = centre(page, "#btn-director")
    page.mouse.dblclick(x, y)
    page.wait_for_selector("#center[data-kind='summon']:not([hidden])")
    # the second tap fell on the confirmation that opened under it: swallowed
    spot = page.evaluate(f"document.elementFromPoint({x}, {y}).closest('button').dataset.act")
    assert spot == "confirm"
    assert page.evaluate("__bgclock.app.guarded.length") == 1
    assert log(served, table["id"]) == ["opening_roll"]
    assert page.evaluate("__bgclock.display().state.phase") == "playing"
    # a deliberate tap on Confirm calls the director
    until(page, "performance.now() - __bgclock.app.layoutAt > 400", 2000)
    page.click("#center [data-act='confirm']")
    wait(page, "s.phase === 'stopped'")
    until(page, "__bgclock.conn.pending.length === 0", 5000)
    assert log(served, table["id"]) == ["opening_roll", "stop"]


def test_quick_taps_on_different_spots_all_count(served: Served, pages: Pages) -> None:
    """The guard swallows a tap at the same spot only: two dice picked in a
    quick succession both count."""
    assert served.live is not None
    table = served.live.table(players=["Ann", "Bob"], length=5)
    page = sized(pages, served, table, 360, 640)
    ax, ay = centre(page, "#center .dice[data-die='A'] .die[data-n='3']")
    bx, by = centre(page, "#center .dice[data-die='B'] .die[data-n='5']")
    page.mouse.click(ax, ay)
    page.mouse.click(bx, by)
    until(page, "__bgclock.app.roll.join() === '3,5'", 2000)
    assert page.evaluate("__bgclock.app.guarded.length") == 0


def test_the_screen_is_kept_awake_without_the_wake_lock_api(
        served: Served, pages: Pages) -> None:
    assert served.live is not None
    table = served.live.table(players=["Ann", "Bob"], length=5)
    page, _ = lan_page(pages, served, table)
    assert page.evaluate("'wakeLock' in navigator") is False
    until(page, "__bgclock.app.awake === 'video'", 5000)
    assert page.evaluate("document.querySelector('video.keep-awake').paused") is False
    assert page.locator("#awake").is_hidden()


def test_when_the_video_is_refused_the_page_says_the_screen_may_sleep(
        served: Served, pages: Pages) -> None:
    assert served.live is not None
    table = served.live.table(players=["Ann", "Bob"], length=5)
    ctx = pages.browser.new_context(viewport={"width": 360, "height": 640}, locale="it-IT")
    pages.contexts.append(ctx)
    # a browser that refuses to play any video (as a data saver may)
    ctx.add_init_script(
        "HTMLMediaElement.prototype.play = function () {"
        " return Promise.reject(new DOMException('refused', 'NotAllowedError')); };")
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(f"http://{LAN}:{served.port}/t/{table['id']}?token={table['token']}")
    until(page, "!!window.__bgclock && __bgclock.app.awake === 'off'", 5000)
    assert page.locator("#awake").is_visible()
    assert "schermo" in page.locator("#awake").inner_text()


def test_a_restart_is_named_and_a_refused_press_faces_its_player(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5)
    page, gate = lan_page(pages, served, table)
    engine_ready(page)
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    until(page, "__bgclock.app.serverStarted !== null", 5000)
    # the server stops and starts again (same port, same store)
    served.stop()
    page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    served.start()
    page.wait_for_selector("#conn[data-status='online'][data-restarted='1']", timeout=20_000)
    assert "riavviato" in page.locator("#conn").inner_text()
    # a double by B, not on turn: refused here, facing B (the far half, turned)
    engine_ready(page)
    assert page.evaluate("__bgclock.command({do: 'double', side: 'B'})") is None
    toast = page.locator("#toast")
    assert toast.get_attribute("data-side") == "B"
    assert "far" in (toast.get_attribute("class") or "")
    turned = page.evaluate("getComputedStyle(document.getElementById('toast')).transform")
    assert turned not in ("none", "")
    # and A's refused command faces A (the near half, upright)
    press(page, "A")
    wait(page, "true")
    until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
    assert page.evaluate("__bgclock.command({do: 'double', side: 'A'})") is None
    assert toast.get_attribute("data-side") == "A"
    assert "near" in (toast.get_attribute("class") or "")
    del gate


def test_a_command_refused_after_an_outage_is_named(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5)
    page, gate = lan_page(pages, served, table, locale="en-US")
    engine_ready(page)
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    until(page, "__bgclock.conn.offset !== null && __bgclock.conn.pending.length === 0", 5000)
    gate.cut()
    page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    # the director stops the clocks; the device, offline, has not seen it and
    # A doubles and B passes on it: both made after the stop, both refused
    stopped = director_command(live, table["id"], do="stop", side="A", reason="director")
    assert stopped["type"] == "ack"
    # made after the stop on the page's own reckoning of the table's time,
    # by more than that reckoning can be off (a few ms of the pings' one-way
    # guess): a double made within ms of the stop may be mapped before it
    until(page, f"__bgclock.conn.tableMs(performance.now()) > {stopped['at_ms'] + 300}", 5000)
    assert page.evaluate("__bgclock.command({do: 'double', side: 'A'})") is not None
    assert page.evaluate("__bgclock.command({do: 'pass', side: 'B'})") is not None
    page.wait_for_selector("#conn[data-queued='2']")
    assert "a double, a pass waiting" in page.locator("#conn").inner_text()
    gate.open = True
    page.wait_for_selector("#conn[data-synced='1']", timeout=15_000)
    text = page.locator("#conn").inner_text()
    assert "a double refused:" in text and "a pass refused:" in text, text
    assert "applied" not in text, text
    assert log(served, table["id"]) == ["opening_roll", "stop"]
