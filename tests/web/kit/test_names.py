"""The pages' lists by name (kit/names.js) file names as the server's wall
sheets do (bgclock.tournament.surname_key): one order for one list.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import pytest

from bench.web_kit import CHROMIUM, running_server
from bgclock.tournament import surname_key
from tests._web import Pages
from tests.test_web_desk_phone import PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

NAMES = ["Nicolò Rossi", "Anna Ricci", "Bruno Russo", "Zeno Abate", "Mario De Luca",
         "Élodie Durand", "carla rossi", "Nicolo Rossi", "Anna van der Berg", "Luca d'Amico",
         "Ugo Damiani", "Cher"]


def test_the_pages_sort_by_surname_as_the_server_does(pages: Pages) -> None:
    with running_server() as live:
        d = pages.open(live.director_url() + "&lang=it", PHONE)
        d.wait_for_selector("#btn-tourney")
        got = d.evaluate("""async (names) => {
            const url = performance.getEntriesByType('resource').map((e) => e.name)
              .find((n) => /\\/kit\\/i18n\\.js(\\?|$)/.test(n));
            const N = await import(url.replace('/i18n.js', '/names.js'));
            return [...names].sort(N.bySurname);
        }""", list(reversed(NAMES)))
    assert got == sorted(NAMES, key=surname_key)
    assert got[2:5] == ["Ugo Damiani", "Luca d'Amico", "Mario De Luca"]  # under D, accents aside
