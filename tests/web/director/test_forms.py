"""'+ Table' before any tournament says what to do first (issue 32 §5): the
tournament's form opens with the reason, and the table's form follows once
the tournament is created.  The QR sheet's cards name the event.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import pytest

from bench.web_kit import CHROMIUM, running_server, until
from tests._web import Pages
from tests.test_web_desk_phone import PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


def test_a_table_before_any_tournament_says_create_the_tournament_first(pages: Pages) -> None:
    with running_server() as live:
        d = pages.open(live.director_url() + "&lang=it", PHONE)
        d.click("#btn-new-table")
        d.wait_for_selector("#dlg-tournament[open]")
        assert d.inner_text("#tn-msg") == ("Un tavolo appartiene a un torneo: crea prima il "
                                           "torneo, poi i suoi tavoli.")
        assert not d.locator("#dlg-table[open]").count()
        d.fill("#tn-name", "Campionato")
        d.locator("#form-tournament [type=submit]").click()
        d.wait_for_selector("#dlg-table[open]")  # then its tables
        until(d, "document.getElementById('tb-tournament').selectedOptions[0].textContent"
                 " === 'Campionato'")
        assert not pages.errors, pages.errors


def test_the_qr_cards_name_the_event(pages: Pages) -> None:
    with running_server() as live:
        tid = int(live.tournament("Principianti")["id"])
        live.table(tid, name="Table 3 · Main R1", players=["Anna", "Bruno"])
        d = pages.open(live.director_url() + "&lang=it", PHONE)
        until(d, "document.querySelectorAll('.card').length === 1")
        d.evaluate("window.print = () => {}")
        d.click("#btn-print")
        until(d, "!!document.querySelector('#print-sheet h2')")
        assert d.inner_text("#print-sheet h2") == "Principianti · Tavolo 3 · Main T1 · Anna – Bruno"
        assert not pages.errors, pages.errors
