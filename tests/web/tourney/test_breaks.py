"""The tournament screen's breaks and single score sheet, on a 360x640 phone
in Italian (issue 38 §3, §4): the "Pausa" button of a match played without
a clock, its confirmation, the count used/allowed, the time left, the alert
past the 10 minutes offering the penalty, confirmed; one player's sheet in
and the other's missing, the rule's words and the director's confirmation.
The server runs on a ManualClock the test moves (never wall time).

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from bgclock.server.live.time import ManualClock
from tests._web import Pages, pick_tournament
from tests.test_web_desk_phone import PHONE, _english_left, _fits
from tests.test_web_table import AXE, axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
MIN = 60_000
CLOCK = ManualClock()


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """The server on a clock the test moves (timers never fired from here:
    nothing in these tournaments waits on one)."""
    with running_server(clock=CLOCK) as server:
        yield server


def _advance(ms: int) -> None:
    CLOCK.advance(ms, fire_timers=False)


def _tournament(live: LiveServer, name: str, length: int) -> tuple[str, dict[str, Any]]:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": length, "rules": "it-tournament", "clock": "none"}], "seed": 5})
    for k, who in enumerate(("Anna", "Bruno", "Carla", "Dario"), start=1):
        live.api("POST", f"{base}/players", {"name": who})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 5})
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    return base, live.api("GET", f"{base}/state")


def _open(live: LiveServer, pages: Pages, base: str) -> Any:
    tid = base.rsplit("/", 1)[1]
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, tid)
    return d


def _confirm(d: Any, text: str) -> None:
    d.wait_for_selector(f"#dlg-confirm[open] >> text={text}")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, "document.querySelector('#tourney .msg').textContent === 'Fatto.'")
    # out of the screen: the periodic reads are shown again
    d.evaluate("document.activeElement && document.activeElement.blur()")


def _item(d: Any) -> Any:
    return d.locator("#desk-breaks li[data-breaks='main-0-0']")


def test_a_break_without_a_clock_on_a_phone_in_italian(live: LiveServer, pages: Pages) -> None:
    base, state = _tournament(live, "Coppa delle Pause", 13)
    m = state["main"]["rounds"][0][0]
    d = _open(live, pages, base)
    d.wait_for_selector("#desk-breaks li[data-breaks='main-0-0']")
    until(d, "document.querySelector(\"#desk-breaks li[data-breaks='main-0-0']\")"
             f".textContent.includes('pause {m['a']} 0/2 · {m['b']} 0/2')")
    _item(d).locator("button", has_text=f"Pausa: {m['a']}").click()
    _confirm(d, f"Iniziare la pausa 1 di 2 di {m['a']} al tavolo 1?")
    until(d, f"document.querySelector(\"#desk-breaks [role='timer']\").textContent === "
             f"'Pausa 1 di {m['a']}: restano 10:00'")
    assert f"pause {m['a']} 1/2" in _item(d).inner_text()
    # one break at a time at a match: no "Pausa" while it runs, its end instead
    assert _item(d).locator("button", has_text="Pausa:").count() == 0
    _advance(4 * MIN)
    until(d, "document.querySelector(\"#desk-breaks [role='timer']\").textContent"
             ".endsWith('restano 6:00')", timeout_ms=10_000)
    _advance(8 * MIN)  # 12 minutes: 2 over
    d.wait_for_selector("#desk-breaks [role='alert']", timeout=10_000)
    alert = d.locator("#desk-breaks [role='alert']")
    assert "ha superato i 10 minuti di 2:00" in alert.inner_text()
    assert "Se la durata delle pause non è rispettata" in alert.inner_text()
    assert alert.locator("input[type='number']").input_value() == "1"  # the offer
    _item(d).locator("button", has_text="Fine della pausa").click()
    _confirm(d, f"Terminare la pausa di {m['a']} al tavolo 1?")
    # ended, the penalty still to decide: the alert stays
    d.wait_for_selector("#desk-breaks [role='alert'] >> text=Assegna la penalità")
    _fits(d, "#tourney")
    assert _english_left(d, "#desk-breaks", "desk|cf") == []
    if AXE.exists():  # no critical or serious violation with the alert on screen
        assert axe(d) == []
    d.locator("#desk-breaks [role='alert'] button", has_text="Assegna la penalità").click()
    _confirm(d, f"1 punto di penalità a {m['b']} per la pausa 1 di {m['a']}")
    d.wait_for_selector(f"#desk-breaks >> text=Pausa 1 di {m['a']}: 2:00 oltre, "
                        "penalità di 1 punto")
    assert d.locator("#desk-breaks [role='alert']").count() == 0
    view = live.api("GET", f"{base}/breaks")["breaks"][0]["breaks"][0]
    assert (view["penalty"], view["over_ms"], view["running"]) == (1, 2 * MIN, False)
    assert pages.errors == []


def test_one_sheet_in_the_desk_offers_the_presumption_in_italian(
        live: LiveServer, pages: Pages) -> None:
    base, state = _tournament(live, "Coppa dei Segnapunti", 7)
    m = state["main"]["rounds"][0][1]
    live.api("POST", f"{base}/sheets", {"event": "main", "round": 0, "match": 1, "by": "B",
                                        "winner": m["b"], "score": [4, 7]})
    d = _open(live, pages, base)
    line = d.locator("#desk-sheets li[data-presume='1']")
    line.wait_for()
    words = line.inner_text()
    assert f"è arrivato solo il segnapunti di {m['b']} ({m['b']} vince 4–7)" in words
    assert f"manca quello di {m['a']}" in words
    assert ("«La mancata tenuta del punteggio crea presunzione a favore dell'avversario "
            "in caso di contestazione.»") in words
    line.locator("button", has_text=f"Convalida il segnapunti di {m['b']}").click()
    _confirm(d, f"{m['b']} vince al tavolo 2 sul solo segnapunti di {m['b']}")
    after = live.api("GET", f"{base}/state")
    assert after["main"]["rounds"][0][1]["winner"] == m["b"]
    assert next(x for x in after["matches"] if x["match"] == 1)["result"]["sheets"] == "presumed"
    _fits(d, "#tourney")
    assert pages.errors == []
