"""The director's desk (issue 19 §1, §2), in Italian at 1366×768: open
dashboards follow a table through its matches (each card and alert names who
sits there now), and the draw is random unless the director types a seed.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import time
import urllib.error
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
    pytest.mark.flaky(reruns=2, reruns_delay=1),
]
DESK = {"width": 1366, "height": 768}
PHONE = {"width": 412, "height": 915}
MATCHES = [("Ann", "Bob"), ("Cyd", "Dee"), ("Eve", "Fay")]


def wait(page: Any, cond: str) -> None:
    until(page,
        f"(() => {{ const s = window.BGTable && BGTable.app.state; return !!s && ({cond}); }})()",
        timeout_ms=5000)


def next_match(live: LiveServer, tid: int, players: tuple[str, str]) -> None:
    """POST next-match, again while the table is still storing its last commands."""
    spec = {"name": "Tavolo 1", "rules": "usbgf-2013-delay", "length": 3,
            "players": list(players)}

    def sent() -> bool:
        try:
            live.api("POST", f"/api/tables/{tid}/next-match", spec)
        except urllib.error.HTTPError as exc:
            assert exc.code == 409, exc.read()
            return False
        return True

    for _ in range(50):
        if sent():
            return
        time.sleep(0.1)  # the table stores its last commands: ask again
    raise AssertionError("next-match stayed busy")


def test_two_dashboards_name_the_players_of_each_match_at_a_table(
        live: LiveServer, pages: Any) -> None:
    table = live.table(name="Tavolo 1", players=list(MATCHES[0]))
    tid = table["id"]
    desks = [pages(live.director_url() + "&lang=it", DESK) for _ in range(2)]
    clock = pages(LiveServer.table_url(table, live.url) + "&lang=it", PHONE)
    card = f".card[data-table='{tid}']"
    called = f".alert[data-kind='director'][data-table='{tid}']"
    for k, players in enumerate(MATCHES):
        if k:
            next_match(live, tid, players)
        until(clock, f"!!BGTable.app.info && BGTable.app.info.players[0] === '{players[0]}'"
                     " && !!BGTable.app.state && BGTable.app.seq === 0", timeout_ms=5000)
        wait(clock, "s.phase !== undefined && s.phase !== 'match_over'")
        clock.click(f"#center .dice[data-die='A'] .die[data-n='{5 if k != 1 else 6}']")
        clock.click("#center .dice[data-die='B'] .die[data-n='2']")
        clock.click("#roll-start")
        wait(clock, "s.phase === 'playing'")
        clock.click("#btn-director")
        clock.click("#center [data-act='confirm']")
        for d in desks:
            d.wait_for_selector(called)
            until(d, f"document.querySelector(\"{card}\").textContent.includes('{players[0]}')"
                     f" && document.querySelector(\"{card}\").textContent.includes('{players[1]}')",
                  timeout_ms=5000)
            assert d.locator(called).count() == 1  # the earlier matches' calls are gone
            text = d.locator(card).inner_text()
            alert = d.locator(called).inner_text()
            assert "ha chiamato il direttore" in alert, alert
            assert players[0] in alert or players[1] in alert, alert
            for a, b in MATCHES[:k]:  # nobody of an earlier match is named
                for old in (a, b):
                    assert old not in text and old not in alert, (old, text, alert)
