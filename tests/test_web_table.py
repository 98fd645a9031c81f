"""The table clock page at a real table, in a real browser against a live server.

An honest link (a dead one is called offline within 3 s, presses made meanwhile
are counted, then applied once); each half's tap area holds nothing but the
press; one tap stops both clocks; the messages both players read (ABA penalty
points, a break against its limit, the director awaited, an offer and who
answers it, the winner after a gin ruling); simple delay in front while it
runs; touch targets and nothing clipped at phone, landscape phone and tablet
sizes, in Italian too; axe-core finds no critical or serious violation on any
screen of the table page or the dashboard.  Debian's chromium only.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import settle
from tests.test_web_match import Pages, press, roll, state, table_page, wait

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(360, 640), (640, 360), (412, 915), (1024, 768)]


class BlackHole:
    """A TCP relay to the server that can go silent (``freeze``): every byte
    is swallowed and no socket is closed, as when a phone walks out of the
    Wi-Fi.  Only the page's own ping deadline can notice.  ``thaw`` lets new
    links through again (and drops the frozen ones)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self.frozen = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._socks.append(client)
            if self.frozen:
                continue  # accepted, never answered
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._socks.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if not self.frozen:
                    dst.sendall(data)
        except OSError:
            pass

    def freeze(self) -> None:
        self.frozen = True

    def thaw(self) -> None:
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            with contextlib.suppress(OSError):
                s.close()
        self.frozen = False

    def close(self) -> None:
        self._listener.close()
        self.thaw()


def events(live: LiveServer, table_id: int) -> list[dict[str, Any]]:
    return list(live.api("GET", f"/api/tables/{table_id}/log.json")["events"])


def test_a_dead_link_is_offline_within_3_s_and_its_queued_presses_apply_once(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5)
    hole = BlackHole(int(live.url.rsplit(":", 1)[1]))
    try:
        ann = table_page(pages, live, table, base=hole.url)
        watcher = table_page(pages, live, table)
        roll(ann, 6, 1)
        wait(watcher, "s.on_turn === 'A'")
        wait(ann, "s.on_turn === 'A'")
        ann.wait_for_selector("#conn[data-status='online']")
        deaths = ann.evaluate("__bgclock.conn.deaths")
        # the network goes away: the browser is told nothing, the socket stays open
        ann.context.set_offline(True)
        hole.freeze()
        ann.wait_for_selector("#conn[data-status='offline']", timeout=15000)
        assert ann.evaluate("__bgclock.conn.deaths") == deaths + 1  # noticed by the ping deadline
        assert "offline" in ann.locator("#conn").inner_text()
        # A hits, then B hits: both shown at once, both counted as waiting
        press(ann, "A")
        wait(ann, "true")
        assert ann.evaluate("__bgclock.display().state.on_turn") == "B"
        press(ann, "B")
        assert ann.evaluate("__bgclock.display().state.on_turn") == "A"
        ann.wait_for_selector("#conn[data-queued='2']")
        assert "2 presses waiting" in ann.locator("#conn").inner_text()
        pending = ann.evaluate("__bgclock.conn.pending.map((p) => p.id)")
        assert len(pending) == 2
        # the instants the device applied them at, on the table's time line
        pressed = ann.evaluate(
            "__bgclock.conn.pending.map((p) => __bgclock.conn.tableMs(p.pressedAt))")
        assert all(isinstance(t, int) for t in pressed), pressed
        assert state(watcher)["on_turn"] == "A"  # the server has heard of neither
        # the network comes back: both presses applied, once, with their first ids
        ann.context.set_offline(False)
        hole.thaw()
        ann.wait_for_selector("#conn[data-synced='1']", timeout=15000)
        assert "synced" in ann.locator("#conn").inner_text()
        wait(watcher, "s.on_turn === 'A' && s.seq !== 0", timeout=5000)
        hits = [e for e in events(live, table["id"]) if e["event"]["do"] == "hit"]
        assert [h["idem_key"] for h in hits] == pending
        assert [h["event"]["side"] for h in hits] == ["A", "B"]
        # the device keeps the table's time: the server's log ends where the
        # device's did, each press at its device instant (the outage cost nothing)
        assert [abs(h["at_ms"] - t) <= 5 for h, t in zip(hits, pressed, strict=True)] == [
            True, True], (hits, pressed)
        # a later press ends the "synced" notice
        press(ann, "A")
        ann.wait_for_selector("#conn[data-synced='0']")
        wait(watcher, "s.on_turn === 'B'")
        assert len([e for e in events(live, table["id"]) if e["event"]["do"] == "hit"]) == 3
    finally:
        hole.close()


def test_backoff_doubles_with_jitter_and_is_capped(pages: Pages, live: LiveServer) -> None:
    table = live.table()
    page = table_page(pages, live, table)
    waits = page.evaluate("""(() => {
        const out = []; let b = 250;
        for (let i = 0; i < 12; i++) {
          b = __bgclock.link.nextBackoff(b, i % 2 ? 0.999 : 0); out.push(b); }
        return out; })()""")
    assert waits[0] == 250 and waits[1] == 500  # half the doubled wait, then up to all of it
    assert waits[-1] > waits[-2] >= page.evaluate("__bgclock.link.BACKOFF_CAP_MS") / 2
    assert max(waits) <= page.evaluate("__bgclock.link.BACKOFF_CAP_MS")
    assert page.evaluate("__bgclock.link.PING_EVERY_MS") <= 1000
    assert page.evaluate("__bgclock.link.PONG_DEADLINE_MS") <= 2500


def test_the_tap_area_holds_only_the_press_and_the_decisions_sit_at_each_edge(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5)
    page = table_page(pages, live, table)
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    # nothing to tap in either face; Double and the menu are in the strip
    assert page.locator("#half-A .face button, #half-B .face button").count() == 0
    assert page.locator("#half-A .edge [data-act='double']").is_visible()
    assert page.locator("#half-A .edge .more").is_visible()
    face = page.locator("#half-A .face").bounding_box()
    edge = page.locator("#half-A .edge").bounding_box()
    assert edge["y"] >= face["y"] + face["height"] - 1  # the near strip is at the bottom edge
    far_face = page.locator("#half-B .face").bounding_box()
    far_edge = page.locator("#half-B .edge").bounding_box()
    assert far_edge["y"] + far_edge["height"] <= far_face["y"] + 1  # the far one at the top
    # tapping anywhere on the running face hits the clock, never opens a dialog
    box = page.locator("#half-A .face").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait(page, "s.on_turn === 'B'")
    assert page.locator("#half-A .panel:not([hidden]), #center:not([hidden])").count() == 0
    # Double asks in the strip: the clock stays in sight
    page.click("#half-B [data-act='double']")
    panel = page.locator("#half-B .panel.confirm").bounding_box()
    reserve = page.locator("#half-B .reserve").bounding_box()
    assert panel["y"] + panel["height"] <= reserve["y"] + 1  # the far strip: above its clock
    page.click("#half-B [data-act='cancel']")


def test_stop_is_one_tap_and_the_reason_comes_after(live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5)
    page = table_page(pages, live, table, "&lang=it")
    other = table_page(pages, live, table)
    roll(page, 6, 1)
    wait(other, "s.on_turn === 'A'")
    page.click("#btn-stop")  # one tap: both clocks stop at once
    wait(other, "s.phase === 'stopped' && s.stopped_reason === 'other'")
    stop = events(live, table["id"])[-1]
    assert stop["event"]["do"] == "stop" and stop["event"]["reason"] == "other"
    # the reason, afterwards: a call for the director is stored as a summons
    settle(page)
    page.click("#center [data-reason='director']")
    until(other, "document.querySelector('#half-A .ctx').innerText"
                            ".includes('waiting for the director')")
    # each page renders the summons when it hears it: wait on this one too
    until(page, "document.querySelector('#half-B .ctx').innerText"
                ".includes('in attesa del direttore')")
    assert "chiamato il direttore" in page.locator("#phase").inner_text()
    notes = live.api("GET", f"/api/tables/{table['id']}/log.json")["notes"]
    assert [(n["why"], n["side"]) for n in notes if "why" in n] == [("director", "A")]


def test_aba_expiry_says_the_penalty_points_and_the_reset_in_both_halves(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5, rules="aba-2003-standard",
                       clock={"reserve_ms": 1500})
    page = table_page(pages, live, table)
    it = table_page(pages, live, table, "&lang=it")
    roll(page, 6, 1)
    wait(page, "s.phase === 'stopped' && s.stopped_reason === 'time_expired'", timeout=10000)
    wait(it, "s.phase === 'stopped'")
    for side in "AB":
        text = page.locator(f"#half-{side} .ctx").inner_text()
        assert "time expired: 2 penalty points to Bob, clock reset to 5:00" in text
    assert "2 punti di penalità a Bob" in it.locator("#half-A .ctx").inner_text()
    assert page.locator("#half-A.flag").is_visible()  # the stripes, and the alarm
    assert page.evaluate("__bgclock.app.warnings.some((w) => w.penalty && w.side === 'A')")
    assert state(page)["score"] == [0, 2]


def test_a_break_counts_against_its_limit_and_the_last_game_is_shown(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=7, rules="it-tournament")
    page = table_page(pages, live, table, "&lang=it")
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    page.evaluate("__bgclock.command({do: 'game_over', winner: 'A', result: 'gammon'})")
    wait(page, "s.phase === 'between_games'")
    ctx = page.locator("#half-B .ctx").inner_text()
    assert "ultima partita: Ann +2 punti" in ctx and "punteggio 2 – 0" in ctx
    page.evaluate("__bgclock.command({do: 'break', side: 'B'})")
    wait(page, "s.phase === 'break'")
    until(page, "document.querySelector('#half-A .brk').innerText"
                           ".includes('su 10:00')")


def test_an_offer_says_who_answers_and_a_gin_ruling_crowns_the_winner(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5)
    page = table_page(pages, live, table)
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    page.evaluate("__bgclock.command({do: 'concede', side: 'A', result: 'single'})")
    wait(page, "s.phase === 'offer'")
    for side in "AB":
        assert "Bob must answer" in page.locator(f"#half-{side} .ctx").inner_text()
    assert page.locator("#half-B .edge [data-act='accept']").is_visible()
    assert page.locator("#half-A [data-act='accept']").count() == 0
    # BIBA: A's time runs out in a match A can still win; the director rules gin
    biba = live.table(players=["Ann", "Bob"], length=1, rules="biba-2014",
                      clock={"reserve_ms": 1500, "delay_ms": 0})
    t = table_page(pages, live, biba)
    roll(t, 6, 1)
    wait(t, "s.phase === 'dispute'", timeout=10000)
    assert "waiting for the director" in t.locator("#half-A .ctx").inner_text()
    d = pages.open(live.director_url(), {"width": 1024, "height": 768})
    until(d, "window.__bgclockDesk && __bgclockDesk.conn.ready")
    d.evaluate("(id) => __bgclockDesk.conn.send({table: id, do: 'ruling', decision: 'gin', "
               "result: 'single'})", biba["id"])
    wait(t, "s.phase === 'match_over' && s.winner === 'A'")
    status = t.locator("#half-A .status").inner_text()
    assert "WINNER" in status and "FLAG" not in status
    assert t.locator("#half-A.winner").is_visible()


def test_simple_delay_runs_in_front_of_a_still_reserve(live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2013-delay")
    page = table_page(pages, live, table)
    roll(page, 6, 1)
    wait(page, "s.on_turn === 'A'")
    page.wait_for_selector("#half-A.delaying")
    big = page.locator("#half-A .allow").bounding_box()
    small = page.locator("#half-A .reserve").bounding_box()
    assert big["height"] > small["height"]
    assert big["y"] < small["y"]  # the delay above, the reserve below
    first = page.locator("#half-A .reserve").inner_text()
    page.wait_for_timeout(1200)
    assert page.locator("#half-A .reserve").inner_text() == first  # stands still


FIT_JS = """() => {
  const bad = [];
  const scrolls = (e, axis) => getComputedStyle(e)['overflow' + axis] !== 'visible';
  for (const b of document.querySelectorAll('button')) {
    const r = b.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;            // not shown
    if (r.width < 47.5 || r.height < 47.5) {
      bad.push('small: ' + (b.dataset.act || b.id) + ' ' + r.width + 'x' + r.height);
    }
  }
  for (const h of document.querySelectorAll('.half')) {
    for (const e of [h, ...h.querySelectorAll('*')]) {
      const tag = h.id + ' ' + e.className + ' ';
      if (e.scrollHeight > e.clientHeight + 1 && scrolls(e, 'Y')) {
        bad.push('scrolls: ' + tag + e.scrollHeight + '>' + e.clientHeight);
      }
      if (e.scrollWidth > e.clientWidth + 1 && scrolls(e, 'X') && !e.matches('.chip, .who')) {
        bad.push('clipped: ' + tag + e.scrollWidth + '>' + e.clientWidth);
      }
    }
    const face = h.querySelector('.face').getBoundingClientRect();
    for (const e of h.querySelectorAll('.face > *')) {
      const r = e.getBoundingClientRect();
      if (r.height && (r.top < face.top - 1 || r.bottom > face.bottom + 1)) {
        bad.push('outside: ' + h.id + ' ' + e.className);
      }
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("w", "h"), SIZES)
def test_touch_targets_and_nothing_clipped(live: LiveServer, browser: Any, w: int, h: int,
                                           lang: str) -> None:
    table = live.table(players=["Annamaria Bianchi", "Bartolomeo Rossi"], length=7,
                       rules="it-tournament")
    ctx = browser.new_context(viewport={"width": w, "height": h})
    try:
        page = ctx.new_page()
        page.goto(LiveServer.table_url(table, live.url) + "&lang=" + lang)
        until(page, "window.__bgclock && __bgclock.app.state")
        screens = {}
        page.wait_for_timeout(100)
        screens["opening roll"] = page.evaluate(FIT_JS)
        roll(page, 6, 1)
        wait(page, "s.on_turn === 'A'")
        page.wait_for_timeout(100)
        screens["playing"] = page.evaluate(FIT_JS)
        page.evaluate("__bgclock.command({do: 'double', side: 'A'})")
        wait(page, "!!s.double_offered_by")
        page.wait_for_timeout(100)
        screens["double"] = page.evaluate(FIT_JS)
        page.click("#half-B [data-act='take']")
        screens["take, confirm"] = page.evaluate(FIT_JS)
        settle(page)
        page.click("#half-B [data-act='confirm']")
        wait(page, "!s.double_offered_by")
        page.click("#half-A .more")
        screens["menu"] = page.evaluate(FIT_JS)
        page.keyboard.press("Escape")
        page.evaluate("__bgclock.command({do: 'concede', side: 'A', result: 'single'})")
        wait(page, "s.phase === 'offer'")
        screens["offer"] = page.evaluate(FIT_JS)
        page.evaluate("__bgclock.command({do: 'accept', side: 'B'})")
        wait(page, "s.phase === 'between_games'")
        page.wait_for_timeout(100)
        screens["between games"] = page.evaluate(FIT_JS)
        page.click("#btn-settings")
        screens["settings"] = page.evaluate(FIT_JS)
        assert {k: v for k, v in screens.items() if v} == {}
    finally:
        ctx.close()


def axe(page: Any) -> list[str]:
    # through the debugging protocol: the page's CSP (script-src 'self') refuses
    # an injected <script>, and it is the page under its real policy we check
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
          .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
    }""")
    return list(result)


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm install)")
def test_axe_finds_nothing_critical_or_serious(live: LiveServer, browser: Any) -> None:
    table = live.table(players=["Ann", "Bob"], length=1, clock={"reserve_ms": 2000, "delay_ms": 0})
    found: dict[str, list[str]] = {}
    ctx = browser.new_context(viewport={"width": 412, "height": 915})
    try:
        page = ctx.new_page()
        url = LiveServer.table_url(table, live.url)
        page.goto(url + "&lang=it")
        until(page, "window.__bgclock && __bgclock.app.state")
        content = page.locator('meta[name="viewport"]').get_attribute("content")
        assert "user-scalable=no" not in content and "maximum-scale" not in content
        found["opening roll"] = axe(page)
        page.reload()
        until(page, "window.__bgclock && __bgclock.app.state")
        roll(page, 6, 1)
        wait(page, "s.on_turn === 'A'")
        found["playing"] = axe(page)
        page.click("#half-A .more")
        found["menu open"] = axe(page)
        page.keyboard.press("Escape")
        page.evaluate("__bgclock.command({do: 'concede', side: 'A', result: 'single'})")
        wait(page, "s.phase === 'offer'")
        found["offer"] = axe(page)
        page.evaluate("__bgclock.command({do: 'reject', side: 'B'})")
        wait(page, "s.phase === 'dispute'")
        found["dispute"] = axe(page)
        # between games: a second table, one game played
        t2 = live.table(players=["Ann", "Bob"], length=5)
        page.goto(LiveServer.table_url(t2, live.url))
        until(page, "window.__bgclock && __bgclock.app.state")
        roll(page, 6, 1)
        wait(page, "s.on_turn === 'A'")
        page.evaluate("__bgclock.command({do: 'game_over', winner: 'A', result: 'single'})")
        wait(page, "s.phase === 'between_games'")
        found["between games"] = axe(page)
        # the flag
        t3 = live.table(players=["Ann", "Bob"], length=3, clock={"reserve_ms": 1500, "delay_ms": 0})
        page.goto(LiveServer.table_url(t3, live.url))
        until(page, "window.__bgclock && __bgclock.app.state")
        roll(page, 6, 1)
        wait(page, "s.phase === 'match_over'", timeout=10000)
        found["flag"] = axe(page)
        # the dashboard: the list, a table's detail, the new-table form
        d = ctx.new_page()
        d.set_viewport_size({"width": 1024, "height": 768})
        d.goto(live.director_url())
        d.wait_for_selector(f".card[data-table='{t2['id']}']")
        found["dashboard"] = axe(d)
        d.click(f".card[data-table='{t2['id']}']")
        d.wait_for_selector("#log tr")
        found["table detail"] = axe(d)
        d.click("#btn-new-table")
        found["new table"] = axe(d)
    finally:
        ctx.close()
    assert {k: v for k, v in found.items() if v} == {}


def test_package_json_lists_axe_core() -> None:
    spec = json.loads((ROOT / "package.json").read_text())
    assert "axe-core" in spec["devDependencies"]

