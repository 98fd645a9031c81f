"""The round's forecast on the director's dashboard and the room display,
in Italian (issue 32 §8).

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


def test_the_dashboard_and_the_room_show_when_the_round_ends_in_italian(
        live: LiveServer, pages: Any) -> None:
    tid = live.api("POST", "/api/tournaments", {"name": "Serata"})["id"]
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 7, "rules": "usbgf-2013-delay", "clock": "required"}]})
    for i in range(1, 5):
        live.api("POST", f"{base}/players", {"name": f"Giocatore {i}"})
        live.api("POST", f"{base}/players/{i}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 3})
    started = live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    assert len(started["tables"]) == 2
    d = pages(live.director_url(), WIDE)
    if d.inner_text("#btn-lang").strip() == "IT":  # the button names the other language
        d.click("#btn-lang")
    until(d, "document.querySelectorAll('.card[data-table]').length === 2")
    d.evaluate("() => window.__bgclockDesk.loadForecasts()")
    until(d, "document.querySelectorAll('[data-forecast]').length === 2")
    lines = d.locator("[data-forecast]").all_inner_texts()
    assert all(x.startswith("fine prevista ~") for x in lines), lines
    assert sum("⚑ trattiene il turno" in x for x in lines) == 1, lines
    round_line = d.inner_text("[data-round-forecast]")
    assert round_line.startswith("Fine del turno prevista ~")
    assert "la trattiene il tavolo" in round_line
    # the room display, in Italian: each match's end and the round's
    room = pages(live.api("GET", f"{base}/state")["room_url"] + "&rotate=0", WIDE)
    if room.inner_text("#btn-lang").strip() == "IT":
        room.click("#btn-lang")
    until(room, "!!document.querySelector('[data-round-forecast]')")
    assert room.inner_text("[data-round-forecast]").startswith("Fine del turno prevista ~")
    cells = room.locator("#room-tables tbody td:nth-child(5)").all_inner_texts()
    assert sum(" · fine ~" in c for c in cells) == 2, cells
    assert not pages.errors
