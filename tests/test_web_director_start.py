"""The director introduces the clock in a game in progress, with the cube as it
stands (clock-script ``start``; the Italian rules: "The clock can be
introduced at the beginning of a game or during a game in progress").

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}


def _events(live: LiveServer, tid: int) -> list[dict[str, Any]]:
    return [e["event"] for e in live.api("GET", f"/api/tables/{tid}/log.json")["events"]]


def _start(d: Any, side: str, value: str, owner: str) -> None:
    d.select_option("#start-cube-value", value)
    d.select_option("#start-cube-owner", owner)
    d.click(f"[data-act='start-{side}']")
    d.wait_for_selector("#dlg-confirm [data-act='confirm']:not([disabled])")
    d.click("#dlg-confirm [data-act='confirm']")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")


def test_the_director_enters_the_cube_as_it_stands_when_the_clock_arrives(
        live: LiveServer, pages: Any) -> None:
    table = live.table(name="Table 4", rules="it-tournament", length=9,
                       players=["Ann", "Bob"])
    tid = table["id"]
    d = pages(live.director_url(), WIDE)
    d.click(f".card[data-table='{tid}']")
    d.wait_for_selector("#start-cube-value")
    # a centered cube at 4 is no cube a game can show: refused in words, setup kept
    _start(d, "A", "4", "")
    until(d, "document.getElementById('result').textContent.includes('centered cube at 4')",
          timeout_ms=5000)
    assert _events(live, tid) == []
    assert d.locator("[data-act='start-A']").count() == 1  # still in setup
    # the cube on the board: 4, Bob's; Ann on turn
    _start(d, "A", "4", "B")
    until(d, "document.querySelector('#detail .meta').textContent.includes('Cube 4 Bob')",
          timeout_ms=5000)
    start = _events(live, tid)
    assert [(e["do"], e["side"], e["cube"]) for e in start] == [
        ("start", "A", {"value": 4, "owner": "B"})]
    assert d.locator("[data-act='start-A']").count() == 0  # the clock is in use
