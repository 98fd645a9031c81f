"""An evening's money at the desk, in Italian (issue 36): the fee set, three
entries paid at the desk ("Pagato", confirmed) and one not, the draw's
confirmation naming who has not paid, the last entry paid by note after the
draw, results entered by hand, and the prize-giving sheet printed (its PDF's
text checked: the amounts worked out from the entries).

Debian's chromium only; skipped without it.  ``BGCLOCK_SHOTS=<dir>`` keeps
the screenshots."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages, pick_tournament

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
SHOTS = os.environ.get("BGCLOCK_SHOTS")
LAPTOP = {"width": 1366, "height": 900}
NAMES = ("Anna", "Bruno", "Carla", "Dario")


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}", full_page=True)


def _confirm(d: Any, text: str, then: str) -> None:
    """Confirm the dialog saying ``text``; until ``then`` holds on the page."""
    d.wait_for_selector(f"#dlg-confirm[open] >> text={text}")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, then)
    d.evaluate("document.activeElement && document.activeElement.blur()")


def _status(pid: int) -> str:
    return f"document.querySelector(\"#mon-players tr[data-player='{pid}'] td:nth-child(4)\")"


def test_an_evening_of_entries_paid_at_the_desk_to_the_prize_giving(
        live: LiveServer, pages: Pages, tmp_path: Path) -> None:
    tid = int(live.tournament("Coppa del Lunedì")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    for k, name in enumerate(NAMES, start=1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    d = pages.open(live.director_url() + "&lang=it", LAPTOP)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#mon-section")
    # the money: 25,00 EUR a head, 80 % back, 10,00 added
    d.fill("#mon-fee", "25")
    d.fill("#mon-return", "80")
    d.fill("#mon-added", "10,00")
    d.click("#mon-form button")
    until(d, "document.querySelector('#tourney .msg').textContent === 'Fatto.'")
    until(d, "document.querySelector('#mon-totals').textContent.includes('montepremi 90,00 EUR')")
    assert "Non hanno ancora pagato: Anna, Bruno, Carla, Dario." in d.inner_text("#mon-unpaid")
    for pid, name in ((1, "Anna"), (2, "Bruno"), (3, "Carla")):
        d.click(f"#mon-players button[data-pay='{pid}']")
        _confirm(d, f"{name} ha pagato 25,00 EUR in contanti?",
                 f"{_status(pid)}.textContent === 'pagato'")
    assert d.inner_text("#mon-unpaid") == "Non hanno ancora pagato: Dario."
    assert d.inner_text("#mon-players tr[data-player='1'] td:nth-child(4)") == "pagato"
    assert d.inner_text("#mon-players tr[data-player='4'] td:nth-child(4)") == "non pagato"
    _shot(d, "money-desk-it.png")
    # the draw's confirmation names who has not paid
    d.click("#tourney button:has-text('Sorteggia il tabellone')")
    d.wait_for_selector("#dlg-confirm[open] >> text=Non hanno ancora pagato: Dario.")
    _shot(d, "money-draw-warning-it.png")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, "![...document.querySelectorAll('#tourney button')].some("
             "(b) => b.textContent === 'Sorteggia il tabellone')")  # drawn
    # Dario pays after the draw, by note
    d.fill("#mon-note", "bonifico")
    d.click("#mon-players tr[data-player='4'] button:has-text('Pagato con nota')")
    _confirm(d, "Dario ha pagato 25,00 EUR con nota (bonifico)?",
             "document.querySelector('#mon-unpaid').textContent === 'Hanno pagato tutti.'")
    assert "note 25,00 EUR" in d.inner_text("#mon-totals")
    # the results, by hand
    state = live.api("GET", f"{base}/state")
    for r in range(2):
        for i, m in enumerate(state["main"]["rounds"][r]):
            if m["a"] and m["b"] and not m["winner"]:
                state = live.api("POST", f"{base}/results", {
                    "event": "main", "round": r, "match": i, "winner": m["a"],
                    "score": [5, 2]})["state"]
    champion = state["main"]["rounds"][1][0]["winner"]
    live.api("POST", f"/api/tournaments/{tid}/close", {})
    # the prize-giving sheet, from the desk's link, printed
    with d.context.expect_page() as opened:
        d.click("#mon-section a:has-text('Foglio della premiazione')")
    sheet = opened.value
    sheet.wait_for_selector("h1")
    assert "Premiazione" in sheet.inner_text("h1")
    _shot(sheet, "money-prize-giving-it.png")
    pdf = tmp_path / "premiazione.pdf"
    sheet.pdf(path=str(pdf), format="A4", print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                              capture_output=True, text=True, timeout=60).stdout
        # 4 entries x 25,00 x 80 % + 10,00 = 90,00, the winner alone below 8 entries
        assert "Montepremi: 4 iscrizioni × 25,00 EUR × 80 % + 10,00 EUR aggiunti = 90,00 EUR" \
            in " ".join(text.split())
        line = next(x for x in text.splitlines() if champion in x)
        assert "90,00 EUR" in line
        assert "Firma" in text and "Master point" in text
        assert "Provvisorio" not in text
    if SHOTS:
        shutil.copy(pdf, f"{SHOTS}/premiazione.pdf")
    assert pages.errors == []
