"""A room owns its tables (issue 32 §1), in a browser, in Italian at 360×640:
two events share the room "Sala Roma" with fewer tables than matches; the
phone left on table 1 follows the Principianti's match seated there once the
Campionato's is over (same link, nothing reloaded), and the QR sheet has one
card per physical table, naming the event seated.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import settle

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
SMALL = {"width": 360, "height": 640}
SHOTS = Path("/tmp/bgclock-room-tables-shots")


def _event(live: LiveServer, name: str, prefix: str, precedence: int) -> tuple[int, str]:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 1, "rules": "it-tournament", "clock": "required"}]})
    live.api("POST", f"{base}/flight", {"room": "Sala Roma", "precedence": precedence,
                                        "tables": 2})
    for i in range(1, 5):
        live.api("POST", f"{base}/players", {"name": f"{prefix} {i:02d}"})
        live.api("POST", f"{base}/players/{i}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 5})
    return tid, base


def _at(live: LiveServer, base: str, table: int) -> dict[str, Any] | None:
    state = live.api("GET", f"{base}/state")
    return next((m for m in state["matches"] if m["table"] == table and m["winner"] is None),
                None)


def test_the_phone_on_table_one_follows_the_other_events_match_and_one_qr_card_per_table(
        live: LiveServer, pages: Any) -> None:
    SHOTS.mkdir(exist_ok=True)
    _, champ = _event(live, "Campionato", "Camp", 1)
    _, princ = _event(live, "Principianti", "Princ", 2)
    started = live.api("POST", f"{champ}/rounds", {"round": 0})
    t1 = next(t["table_id"] for t in started["tables"] if t["table"] == 1)
    assert len(live.api("POST", f"{princ}/rounds", {"round": 0})["waiting"]) == 2
    table = live.api("GET", f"/api/tables/{t1}")
    phone = pages(LiveServer.table_url(table, live.url) + "&lang=it", SMALL)
    c1 = _at(live, champ, 1)
    assert c1 is not None
    until(phone, f"!!__bgclock.app.info && __bgclock.app.info.players[0] === '{c1['a']}'")
    phone.screenshot(path=str(SHOTS / "phone-campionato.png"))
    # the Campionato's match at table 1 is decided: the Principianti's first waiting match
    # sits at the room's table 1, and the phone lying there shows it, on the same link
    live.api("POST", f"{champ}/results", {"round": 0, "match": c1["match"], "winner": c1["a"]})
    for _ in range(100):
        p1 = _at(live, princ, 1)
        if p1 is not None and p1["table_id"] is not None:  # seated, then its clock set
            break
        phone.wait_for_timeout(50)
    assert p1 is not None and p1["table_id"] == t1
    until(phone, f"__bgclock.app.info.players[0] === '{p1['a']}'"
                 f" && __bgclock.app.info.players[1] === '{p1['b']}'", timeout_ms=8000)
    assert phone.url.startswith(f"{live.url}/t/{t1}?")
    body = phone.inner_text("body")
    assert p1["a"] in body and p1["b"] in body and c1["b"] not in body
    # the phone plays the Principianti's match: its opening roll starts the clock
    until(phone, "!!__bgclock.app.state && __bgclock.app.seq === 0"
                 " && __bgclock.app.state.phase !== 'match_over'")
    phone.click("#center .dice[data-die='A'] .die[data-n='5']")
    phone.click("#center .dice[data-die='B'] .die[data-n='2']")
    phone.click("#roll-start")
    until(phone, "__bgclock.app.state.phase === 'playing'")
    settle(phone)
    phone.screenshot(path=str(SHOTS / "phone-principianti.png"))
    # the director's QR sheet: one card per physical table, naming the event seated
    desk = pages.open(live.director_url() + "&lang=it", SMALL, init="window.print = () => {};")
    desk.wait_for_selector(f".card[data-table='{t1}']")
    until(desk, "document.querySelectorAll('.card[data-table]').length === 2")
    desk.click("#btn-print")
    until(desk, "document.querySelectorAll('#print-sheet .print-card').length === 2")
    cards = desk.locator("#print-sheet .print-card h2").all_inner_texts()
    assert cards[0] == f"Tavolo 1 · Principianti · Main T1 · {p1['a']} – {p1['b']}", cards
    assert cards[1].startswith("Tavolo 2 · Campionato · Main T1 · "), cards
    assert "Table" not in " ".join(cards)
    card = desk.inner_text(f".card[data-table='{t1}']")
    assert "Tavolo 1 · Principianti" in card, card
    desk.screenshot(path=str(SHOTS / "dashboard.png"), full_page=True)
    desk.emulate_media(media="print")
    desk.screenshot(path=str(SHOTS / "qr-sheet.png"), full_page=True)
