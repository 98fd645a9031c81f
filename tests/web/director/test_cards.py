"""Finished clock cards fold away (issue 32 §5): a finished table's card is
one line below the running ones, and opens again when clicked.  On a
360x640 phone in Italian.

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


def test_a_finished_tables_card_folds_to_one_line_below_the_running_ones(pages: Pages) -> None:
    with running_server() as live:
        tid = int(live.tournament("Campionato")["id"])
        tables = [live.table(tid, name=f"Tavolo {k}", players=[f"A{k}", f"B{k}"])
                  for k in range(1, 5)]
        for t in tables[:3]:
            live.api("POST", f"/api/tables/{t['id']}/close", {})
        d = pages.open(live.director_url() + "&lang=it", PHONE)
        until(d, "document.querySelectorAll('.card[data-folded]').length === 3")
        order = d.evaluate("[...document.querySelectorAll('.card')].map((c) => c.dataset.table)")
        assert order == [str(t["id"]) for t in (tables[3], *tables[:3])]  # the running one first
        first = d.locator(f"#card-{tables[0]['id']}")
        height = first.bounding_box()["height"]
        full = d.locator(f"#card-{tables[3]['id']}").bounding_box()["height"]
        assert height * 2.5 < full, (height, full)  # one line against a whole card
        assert "Tavolo 1" in first.inner_text()
        first.click()  # opened: its card unfolds while it is the table shown
        until(d, f"!document.getElementById('card-{tables[0]['id']}').dataset.folded")
        assert not pages.errors, pages.errors
