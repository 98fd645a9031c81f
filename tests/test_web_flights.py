"""Flights in a browser, in Italian (issue 23 §1): two events share the room
"Sala Roma"; the director sets the room from the dashboard, starts rounds
with fewer tables than matches, and the dashboard and the room display show
every event by name with the matches waiting for a table.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from tests._web import pick_tournament
from tests.test_web_table import axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


def _event(live: LiveServer, name: str, prefix: str, n: int) -> tuple[int, str]:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    for i in range(1, n + 1):
        live.api("POST", f"{base}/players", {"name": f"{prefix} {i:02d}"})
        live.api("POST", f"{base}/players/{i}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 5})
    return tid, base


def _open(d: Any, live: LiveServer, tid: int) -> None:
    d.goto(live.director_url())
    if d.inner_text("#btn-lang").strip() == "IT":  # the language is kept across reloads
        d.click("#btn-lang")
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#fl-room")


def test_two_events_in_one_room_on_the_dashboard_and_the_room_display_in_italian(
        live: LiveServer, browser: Any, tmp_path: Path) -> None:
    inter, inter_base = _event(live, "Intermedio", "Inter", 8)
    champ, champ_base = _event(live, "Campionato", "Camp", 8)
    live.api("POST", f"{inter_base}/flight", {"room": "Sala Roma", "precedence": 2, "tables": 5})
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        d = ctx.new_page()
        d.on("pageerror", lambda e: errors.append(str(e)))
        _open(d, live, champ)
        # the Championship joins the room from the dashboard, precedence 1
        d.fill("#fl-room", "Sala Roma")
        d.fill("#fl-precedence", "1")
        d.fill("#fl-tables", "5")
        d.locator("#tourney button", has_text="Salva la sala").click()
        d.wait_for_selector("#fl-events tr[data-event='Intermedio']")
        assert live.api("GET", f"{champ_base}/state")["flight"] == {
            "room": "Sala Roma", "precedence": 1, "tables": 5}
        # the Intermediate holds four of the five tables; the Championship gets one, three wait
        live.api("POST", f"{inter_base}/rounds", {"round": 0})
        d.locator("#tourney button", has_text="Avvia Main turno 1").click()
        d.wait_for_selector("text=3 incontri attendono un tavolo")
        until(d, "[...document.querySelectorAll('#tourney li')]"
                 ".filter((n) => n.textContent.includes('in attesa di un tavolo')).length === 3")
        row = d.inner_text("#fl-events tr[data-event='Campionato']")
        assert "Campionato (questo evento)" in row and "tavoli 5" in row
        assert "tavoli 1, 2, 3, 4" in d.inner_text("#fl-events tr[data-event='Intermedio']")
        assert axe(d) == []
        d.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
        # the room display: every table of the room with its event's name, then who waits
        room_url = live.api("GET", f"{champ_base}/state")["room_url"]
        r = ctx.new_page()
        r.on("pageerror", lambda e: errors.append(str(e)))
        r.goto(room_url + "&rotate=0")
        if r.inner_text("#btn-lang").strip() == "IT":
            r.click("#btn-lang")
        r.wait_for_selector("#room-flight-tables tbody tr")
        assert r.inner_text("#h-flight") == "Sala Roma · tutti gli eventi"
        rows = r.locator("#room-flight-tables tbody tr").all_inner_texts()
        assert [x.split("\t")[:2] for x in rows] == [["1", "Intermedio"], ["2", "Intermedio"],
                                                     ["3", "Intermedio"], ["4", "Intermedio"],
                                                     ["5", "Campionato"]]
        assert "Main · Turno 1" in rows[0]
        waiting = r.locator("#room-flight-waiting li").all_inner_texts()
        assert len(waiting) == 3
        assert all(x.startswith("Campionato · Main · Turno 1") for x in waiting)
        assert r.inner_text("#room-flight caption") == "I tavoli di tutti gli eventi"
        # a result in the Intermediate frees table 2: the Championship's first waiting match sits
        m = next(x for x in live.api("GET", f"{inter_base}/state")["matches"] if x["table"] == 2)
        live.api("POST", f"{inter_base}/results", {"round": 0, "match": m["match"],
                                                   "winner": m["a"]})
        until(r, "document.querySelectorAll('#room-flight-waiting li').length === 2")
        until(r, "[...document.querySelectorAll('#room-flight-tables tbody tr')]"
                 ".some((n) => n.textContent.startsWith('2')"
                 " && n.textContent.includes('Campionato'))")
        assert axe(r) == []
        r.screenshot(path=str(tmp_path / "room.png"), full_page=True)
        shots = Path("/tmp/bgclock-flights-shots")
        shots.mkdir(exist_ok=True)
        for name in ("dashboard.png", "room.png"):
            (shots / name).write_bytes((tmp_path / name).read_bytes())
    finally:
        ctx.close()
    assert not errors, errors
