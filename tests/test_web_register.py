"""The players' register in a browser, in Italian (issue 23 §4): players
imported from CSV on the dashboard's register screen, registered in a
tournament from it, the tournament closed (with its confirmation) and rated,
a player's history, and the printable rating list.  Debian's chromium only
(never a downloaded one); skipped without it."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pick_tournament, pump_until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")
NAMES = ["Ada Rossi", "Bruno Verdi", "Carla Neri", "Dario Gallo"]


def _message(d: Any, text: str) -> None:
    until(d, f"(document.getElementById('reg-msg') || {{}}).textContent === {text!r}")


def test_the_register_screen_in_italian_rates_a_closed_tournament(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa Roma")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    d = pages.open(live.director_url() + "&lang=it", WIDE)
    until(d, "document.getElementById('btn-register').textContent === 'Registro'")
    d.click("#btn-register")
    d.wait_for_selector("#reg-import")
    csv_text = "name,federation_id,club,rating,experience\n" + "".join(
        f"{n},FIBT{k},Roma,{1600 - 50 * k},{100 * k}\n" for k, n in enumerate(NAMES))
    d.fill("#reg-csv", csv_text)
    d.click("#reg-import")
    _message(d, "Importati: 4 aggiunti, 0 aggiornati.")
    # a row in error names its row and field, in Italian, and nothing is imported
    d.fill("#reg-csv", "name,rating\nEva,mille\n")
    d.click("#reg-import")
    _message(d, "Riga 2: rating: scrivi un rating da -10000,00 a 10000,00, come 1500 o 1522,36.")
    assert live.api("GET", "/api/register")["total"] == 4
    # registration from the register, in the tournament picked
    until(d, f"!!document.querySelector('#reg-pick option[value=\"{tid}\"]')")
    d.select_option("#reg-pick", str(tid))
    for k in range(4):
        d.wait_for_selector("button[data-entry]")
        d.locator("button[data-entry]").first.click()
        until(d, f"document.querySelectorAll('button[data-entry]').length === {3 - k}")
    players = live.api("GET", f"{base}/state")["players"]
    assert sorted(p["name"] for p in players) == sorted(NAMES)
    assert all(p["register_id"] for p in players)
    for p in players:
        live.api("POST", f"{base}/players/{p['id']}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 2})
    for event, r, i in (("main", 0, 0), ("main", 0, 1), ("consolation", 0, 0),
                        ("main", 1, 0)):
        m = live.api("GET", f"{base}/state")[event]["rounds"][r][i]
        live.api("POST", f"{base}/results", {"event": event, "round": r, "match": i,
                                             "winner": m["b"]})
    # closing asks first, then rates the four matches
    d.click("#reg-close")
    d.wait_for_selector("#dlg-confirm[open] [data-act=confirm]:not([disabled])")
    assert "Coppa Roma" in d.locator("#dlg-confirm .confirm-text").inner_text()
    d.click("#dlg-confirm [data-act=confirm]")
    _message(d, "Chiuso: 4 partite valutate.")
    assert live.api("GET", f"/api/tournaments/{tid}")["status"] == "closed"
    # by rating: the history of the first
    ratings = live.api("GET", "/api/register/ratings.json")["ratings"]
    d.select_option("#reg-order", "rating")
    d.click("#reg-find")
    # the list read again, by rating (the list by name is on screen until then)
    until(d, "(document.querySelector('table.reg-list tbody tr') || {}).textContent"
             f"?.includes({ratings[0]['name']!r})")
    d.locator("table.reg-list tbody tr").first.locator("button", has_text="Storico").click()
    d.wait_for_selector("#reg-history table")
    history = d.locator("#reg-history").inner_text()
    assert "Storico di" in history and "Coppa Roma" in history
    assert ratings[0]["name"] in history and ratings[0]["rating_points"] in history
    if SHOTS:
        d.add_style_tag(content=".dir-head { position: static !important; }")
        d.locator("#register").screenshot(path=f"{SHOTS}/register-it.png")
    # the printable list, in the director's language
    href = d.get_attribute("#reg-print", "href")
    assert href is not None and "lang=it" in href and "key=" not in href
    # opened in the dashboard's browser (its director's session), as a click does
    sheet = d.context.new_page()
    sheet.set_viewport_size({"width": 794, "height": 1123})
    sheet.goto(live.url + href)
    sheet.wait_for_selector("table")
    assert sheet.locator("h1").inner_text() == "Classifica rating"
    rows = sheet.locator("tbody tr")
    assert rows.count() == 4
    assert ratings[0]["name"] in rows.first.inner_text()
    if SHOTS:
        sheet.screenshot(path=f"{SHOTS}/register-ratings-it.png", full_page=True)


def test_the_players_screen_registers_a_known_player_from_the_register(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Sera al circolo")["id"])
    base = f"/api/tournaments/{tid}"
    entry = live.api("POST", "/api/register", {"name": "Elena Sala", "federation_id": "FIBT77"})
    d = pages.open(live.director_url() + "&lang=it", WIDE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#trn-reg-q")
    d.fill("#trn-reg-q", "fibt77")
    d.click("#trn-reg-find")
    d.wait_for_selector(f"#trn-reg-found button[data-entry=\"{entry['id']}\"]")
    d.click(f"#trn-reg-found button[data-entry=\"{entry['id']}\"]")
    until(d, "(document.getElementById('trn-reg-found') || {textContent: ''})"
             ".textContent.includes('giocatore 1')")
    players = live.api("GET", f"{base}/state")["players"]
    assert [(p["name"], p["federation_id"], p["register_id"]) for p in players] == [
        ("Elena Sala", "FIBT77", entry["id"])]


def _held_search(d: Any, box: str, pattern: str, first: str, second: str, found: str,
                 name: str) -> None:
    """Search ``first`` in ``box`` with its answer held (``pattern``, the
    route), then ``second``; once ``found`` (a selector) lists the second's
    one row, release the first's answer, wait until the page has it, and
    check that the one row is still ``name`` and the box still ``second``."""
    held: list[Any] = []
    finished: list[Any] = []
    d.route(pattern, lambda route: held.append(route))
    d.on("requestfinished",
         lambda req: finished.append(req) if f"q={first}" in req.url else None)
    d.fill(box, first)
    d.press(box, "Enter")
    pump_until(d, lambda: bool(held))
    d.fill(box, second)
    d.press(box, "Enter")
    until(d, f"document.querySelectorAll({found!r}).length === 1")
    held[0].continue_()
    pump_until(d, lambda: bool(finished))
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the search's last step
    rows = d.locator(found)
    assert rows.count() == 1 and name in rows.first.inner_text()
    assert d.input_value(box) == second


def test_a_search_typed_over_shows_the_last_one_asked(live: LiveServer, pages: Pages) -> None:
    """The director searches "Tosi", then "Sarti" before the first answer has
    come: the answer for "Tosi", come last, is not shown under "Sarti"."""
    for n in ("Ilario Tosi", "Ivo Sarti"):
        live.api("POST", "/api/register", {"name": n})
    d = pages.open(live.director_url() + "&lang=it", WIDE)
    until(d, "document.getElementById('btn-register').textContent === 'Registro'")
    d.click("#btn-register")
    until(d, "document.getElementById('register').innerText.includes('Ivo Sarti')")
    _held_search(d, "#reg-q", "**/*q=Tosi*", "Tosi", "Sarti",
                 "table.reg-list tbody tr", "Ivo Sarti")
    assert pages.errors == []


def test_a_search_typed_over_in_the_registration_form_keeps_the_last_one(
        live: LiveServer, pages: Pages) -> None:
    """The same in the Players & draw screen's search of the register: the
    answer for "Mori", come after the one for "Bassi", neither lists Olga
    Mori nor puts "Mori" back in the box."""
    for n in ("Olga Mori", "Oreste Bassi"):
        live.api("POST", "/api/register", {"name": n})
    tid = int(live.tournament("Coppa dei Colli")["id"])
    d = pages.open(live.director_url() + "&lang=it", WIDE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#trn-reg-q")
    _held_search(d, "#trn-reg-q", "**/register-search?*q=Mori*", "Mori", "Bassi",
                 "#trn-reg-found li", "Oreste Bassi")
    assert pages.errors == []


def test_a_sheet_typed_before_the_screens_first_read_answers_is_kept(
        live: LiveServer, pages: Pages) -> None:
    # a long register read (a venue's 10,000 players): the director types the
    # CSV while the screen's first read is on its way; its answer draws the
    # screen again, and the sheet stays as typed
    held: list[Any] = []
    released: list[bool] = []

    def hold(route: Any) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    d = pages.open(live.director_url() + "&lang=it", WIDE)
    until(d, "document.getElementById('btn-register').textContent === 'Registro'")
    d.route(re.compile(r"/api/register\?"), hold)
    d.click("#btn-register")
    d.wait_for_selector("#reg-import")
    pump_until(d, lambda: bool(held))  # the read is asked, not answered
    d.fill("#reg-csv", "name,rating\nEva Kant,1650\n")
    d.locator("#reg-file").focus()  # out of the field: a render draws it again
    released.append(True)
    for route in held:
        route.continue_()
    until(d, "document.querySelector('table.reg-list') !== null")
    assert d.input_value("#reg-csv") == "name,rating\nEva Kant,1650\n"
    d.click("#reg-import")
    _message(d, "Importati: 1 aggiunti, 0 aggiornati.")
