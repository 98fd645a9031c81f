"""One tournament picker for the whole desk (issue 32 §3): the tournament
chosen in one screen is the one every other screen shows, and the one an
entry from the register goes to (never simply the last event created).
On a 360x640 phone in Italian.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages
from tests.test_web_desk_phone import PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _picked(pick: str, tid: int) -> str:
    return f"(document.getElementById('{pick}') || {{}}).value === '{tid}'"


def test_the_tournament_chosen_in_one_screen_is_every_screens(
        live: LiveServer, pages: Pages) -> None:
    champ = int(live.tournament("Campionato")["id"])
    begin = int(live.tournament("Principianti")["id"])  # the last one made
    anna = int(live.api("POST", "/api/register", {"name": "Anna Rossi"})["id"])
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{champ}\"]')")
    d.select_option("#trn-pick", str(champ))
    until(d, "document.querySelector('#tourney h3') !== null")
    d.click("#btn-register")
    until(d, _picked("reg-pick", champ))
    d.click(f"#register button[data-entry='{anna}']")
    until(d, "document.getElementById('reg-msg').textContent !== ''")
    names = [p["name"] for p in live.api("GET", f"/api/tournaments/{champ}/state")["players"]]
    assert names == ["Anna Rossi"]
    assert live.api("GET", f"/api/tournaments/{begin}/state")["players"] == []
    # chosen in the register: the tournament screen follows
    d.select_option("#reg-pick", str(begin))
    until(d, _picked("trn-pick", begin))
    assert not pages.errors, pages.errors
