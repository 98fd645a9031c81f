"""Two dashboards, one director: the alerts handled are the server's, so an
alert handled on one dashboard leaves the other, and a confirmation clicked
on both (or twice) is applied once.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import settle

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 412, "height": 915}


def wait(page: Any, cond: str) -> None:
    until(page,
        f"(() => {{ const s = window.__bgclock && __bgclock.app.state; "
        f"return !!s && ({cond}); }})()",
        timeout_ms=5000)


def log(live: LiveServer, tid: int) -> dict[str, Any]:
    return dict(live.api("GET", f"/api/tables/{tid}/log.json"))


def roll(page: Any, a: int, b: int) -> None:
    page.click(f"#center .dice[data-die='A'] .die[data-n='{a}']")
    page.click(f"#center .dice[data-die='B'] .die[data-n='{b}']")
    page.click("#roll-start")


def claim_premature(page: Any) -> None:
    """usbgf-2013 §4.1: B, on turn, stops both clocks and claims the penalty
    for A's premature action (the half's `⋯` menu)."""
    page.click("#half-B .more")
    settle(page)
    page.click("#half-B [data-act='premature']")
    settle(page)
    page.click("#half-B [data-act='confirm']")


def call_director(page: Any) -> None:
    settle(page)
    page.click("#btn-director")
    settle(page)
    page.click("#center [data-act='confirm']")


def alert(tid: int, kind: str) -> str:
    return f".alert[data-kind='{kind}'][data-table='{tid}']"


def summons_key(live: LiveServer, tid: int) -> str:
    """The dashboard's key of the table's summons (notes are numbered per
    table: the device that keeps the time is one too)."""
    (note,) = [x for x in log(live, tid)["notes"] if x["type"] == "summon"]
    return f"{tid}:summon:{note['n']}"


def test_an_alert_handled_on_one_dashboard_leaves_the_other(live: LiveServer,
                                                             pages: Any) -> None:
    table = live.table(name="Table 11", players=["Kim", "Lou"])
    tid = table["id"]
    first = pages(live.director_url(), WIDE)
    second = pages(live.director_url(), PHONE)
    clock = pages(LiveServer.table_url(table, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    roll(clock, 5, 2)
    wait(clock, "s.phase === 'playing'")
    call_director(clock)
    for d in (first, second):
        d.wait_for_selector(alert(tid, "director"))
    first.click(f"{alert(tid, 'director')} [data-act='handled']")
    second.wait_for_selector(alert(tid, "director"), state="detached")
    first.wait_for_selector(alert(tid, "director"), state="detached")
    # stored by the server, once, whoever asked; the pages keep nothing
    key = summons_key(live, tid)
    (note,) = [x for x in log(live, tid)["notes"] if x["type"] == "handled"]
    assert note["key"] == key and note["source"] == "director"
    assert second.evaluate("Object.keys(localStorage).filter((k) => k.includes('handled'))") == []
    # a reloaded dashboard, and one opened later, show the same list
    second.reload()
    third = pages(live.director_url(), WIDE)
    for d in (second, third):
        d.wait_for_selector(f".card[data-table='{tid}']")
        until(d, f"__bgclockDesk.app.handled.has('{key}')", timeout_ms=5000)
        assert d.locator(f".alert[data-table='{tid}']").count() == 0


def test_a_confirmation_clicked_on_two_dashboards_is_applied_once(live: LiveServer,
                                                                  pages: Any) -> None:
    table = live.table(name="Table 12", players=["Mia", "Ned"], length=5)
    tid = table["id"]
    first = pages(live.director_url(), WIDE)
    second = pages(live.director_url(), WIDE)
    clock = pages(LiveServer.table_url(table, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    roll(clock, 2, 4)  # Ned (B) to play
    wait(clock, "s.on_turn === 'B'")
    claim_premature(clock)
    wait(clock, "s.phase === 'stopped'")
    # both dashboards open the confirmation of the premature action's penalty
    for d in (first, second):
        d.click(f"{alert(tid, 'premature')} [data-act='confirm-premature']")
        d.wait_for_selector("#dlg-confirm [data-act='confirm']:not([disabled])")
    # one confirms with a double click, then the other confirms too
    first.dblclick("#dlg-confirm [data-act='confirm']")
    second.click("#dlg-confirm [data-act='confirm']")
    for d in (first, second):
        d.wait_for_selector("#dlg-confirm[open]", state="detached")
        d.wait_for_selector(alert(tid, "premature"), state="detached")
        until(d, "document.getElementById('result').textContent.includes('✓')",
              timeout_ms=5000)
    # the second dashboard sent it too, and got the first's ack, not a refusal
    acks = [[m["duplicate"] for m in pages.frames[id(d)] if m["type"] == "ack"]
            for d in (first, second)]
    assert acks == [[False], [True]], acks
    assert not [m for d in (first, second) for m in pages.frames[id(d)] if m["type"] == "error"]
    wait(clock, "!!s.A.forfeit_delay")
    time.sleep(0.3)  # a second penalty would be in the log by now
    stored = log(live, tid)
    assert [e["event"]["do"] for e in stored["events"]] == ["opening_roll", "stop", "premature"]
    assert stored["events"][-1]["event"]["side"] == "A"
    key = summons_key(live, tid)
    assert stored["events"][-1]["idem_key"] == f"director/al.{key}.0.premature"
    handled = [x for x in stored["notes"] if x["type"] == "handled"]
    assert [(x["key"], x["seq"]) for x in handled] == [(key, 3)]
