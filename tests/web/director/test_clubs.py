"""A club's director on a hosted server, in the browser (issue 37 §4): the
club's link opens the dashboard in Italian on a phone (the key exchanged for
the club's session), which shows the club's tables and tournaments only,
live, while another club's table plays beside them, and the club's own
players' register (its screen and the tournament's search in it), never
another club's people; the club's public list of events on the same phone.

Debian's chromium only; skipped without it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from bgclock.cli import main
from tests._web import Pages
from tests.test_web_device import director_command

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")]

PHONE = {"width": 360, "height": 640}


@contextlib.contextmanager
def _hosted(tmp_path: Path, capsys: pytest.CaptureFixture[str]
            ) -> Iterator[tuple[LiveServer, LiveServer, LiveServer]]:
    """The server, as its own director, as Lucca's and as Pisa's."""
    db = tmp_path / "hosted.db"
    keys = {}
    for club in ("lucca", "pisa"):
        # in a thread of its own: this one runs Playwright's event loop
        with ThreadPoolExecutor(1) as one:
            assert one.submit(main, ["clubs", "add", club, "--db", str(db)]).result() == 0
        keys[club] = capsys.readouterr().out.split()[-1]
    with running_server(db) as server:
        yield (server, LiveServer(url=server.url, key=keys["lucca"]),
               LiveServer(url=server.url, key=keys["pisa"]))


def test_a_clubs_dashboard_on_a_phone_shows_its_own_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pages: Pages) -> None:
    with _hosted(tmp_path, capsys) as (server, lucca, pisa):
        mine = lucca.table(int(lucca.tournament("Circolo di Lucca")["id"]),
                           players=["Anna", "Bruno"])
        theirs = pisa.table(int(pisa.tournament("Circolo di Pisa")["id"]),
                            players=["Carla", "Dario"])
        # one federation id, a person in each club's register
        lucca.api("POST", "/api/register", {"name": "Elena Lucchese", "federation_id": "F-1"})
        pisa.api("POST", "/api/register", {"name": "Fabio Pisano", "federation_id": "F-1"})
        page = pages.open(lucca.director_url() + "&lang=it", PHONE)
        # the key left the address for the club's session
        until(page, f"location.search.indexOf({lucca.key!r}) < 0")
        page.wait_for_selector(f".card[data-table='{mine['id']}']")
        # the club named, and its register
        assert page.locator("#club-name").inner_text().strip() == "· lucca"
        assert page.locator("#btn-register").is_visible()
        # Pisa's table plays: its card never comes to Lucca's dashboard
        assert director_command(pisa, theirs["id"], do="opening_roll", dice=[6, 1])["type"] \
            == "ack"
        assert director_command(lucca, mine["id"], do="opening_roll", dice=[5, 2])["type"] \
            == "ack"
        until(page, f"!!document.querySelector(\".card[data-table='{mine['id']}'] .run\")"
                    f" || document.querySelector(\".card[data-table='{mine['id']}']\")"
                    ".textContent.includes('Anna')")
        assert page.locator(f".card[data-table='{theirs['id']}']").count() == 0
        text = page.locator("body").inner_text()
        assert "Carla" not in text and "Circolo di Pisa" not in text
        # the tournament screen's picker lists the club's own
        page.click("#btn-tourney")
        until(page, "document.querySelectorAll('#trn-pick option').length >= 1")
        options = page.locator("#trn-pick option").all_inner_texts()
        assert options == ["Circolo di Lucca"], options
        page.wait_for_selector("#trn-name")
        # the tournament's search in the club's own register: F-1 is Lucca's person
        page.fill("#trn-reg-q", "F-1")
        page.click("#trn-reg-find")
        page.wait_for_selector("#trn-reg-found li")
        found = page.locator("#trn-reg-found li").all_inner_texts()
        assert len(found) == 1 and found[0].startswith("Elena Lucchese (F-1)"), found
        # the Register screen: the club's people only
        page.click("#btn-register")
        until(page, "document.body.textContent.includes('Elena Lucchese')")
        assert "Fabio Pisano" not in page.locator("body").inner_text()
        page.screenshot(path=str(tmp_path / "club-dashboard-360x640-it.png"), full_page=True)
        assert pages.errors == []
        # Pisa's own key on the same server sees Lucca's table nowhere either
        assert [t["name"] for t in pisa.api("GET", "/api/tournaments")["tournaments"]] == [
            "Circolo di Pisa"]
        assert server.api("GET", "/api/tournaments")["tournaments"][0]["club"] == "lucca"


def test_a_clubs_public_events_on_a_phone_in_italian(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pages: Pages) -> None:
    with _hosted(tmp_path, capsys) as (server, lucca, pisa):
        shown = int(lucca.tournament("Coppa delle Mura")["id"])
        lucca.tournament("Torneo privato")
        other = int(pisa.tournament("Coppa della Torre")["id"])
        for club, tid in ((lucca, shown), (pisa, other)):
            club.api("PATCH", f"/api/tournaments/{tid}", {"public": True})
        page = pages.open(f"{server.url}/p/lucca?lang=it", PHONE)
        page.wait_for_selector("#events li")
        items = page.locator("#events li").all_inner_texts()
        assert items == ["Coppa delle Mura"], items
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        page.screenshot(path=str(tmp_path / "club-events-360x640-it.png"), full_page=True)
        page.click("#events a")
        until(page, f"location.pathname === '/p/{shown}'")
        assert pages.errors == []
