"""The tournament's end and the wall in a browser (issue 19 §4), in Italian:
the printable standings and wall pairings at 1366x768, the wall pairings
printed to PDF, the room display at 1920x1080 with its champion, its welcome
view before round 1 and "Dove gioco?", and the dashboard's search.

Debian's chromium only; skipped without it.  ``BGCLOCK_SHOTS=docs/screenshots``
refreshes the docs' pictures.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from bgclock.tournament import surname_key
from tests._web import Pages, pick_tournament
from tests.test_web_table import AXE, axe

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")
LAPTOP = {"width": 1366, "height": 768}
ROOM = {"width": 1920, "height": 1080}
NAMES = ["Giulia Bianchi", "Marco Rossi", "Luca Esposito", "Sara Romano", "Paolo Colombo",
         "Anna Ricci", "Franco Marino", "Elena Greco"]


def _shot(page: Any, name: str, *, full_page: bool = False) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}", full_page=full_page)


def _field(live: LiveServer, name: str, names: list[str]) -> str:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    for i, n in enumerate(names, 1):
        live.api("POST", f"{base}/players", {"name": n})
        live.api("POST", f"{base}/players/{i}/check-in", {})
    return base


def tourney_screen(live: LiveServer, pages: Pages, base: str, ready: str) -> Any:
    """The dashboard in Italian at 1366x768, its tournament screen open on
    the tournament at ``base``, once ``ready`` (a selector) is drawn."""
    d = pages.open(live.director_url() + "&lang=it", LAPTOP)
    d.click("#btn-tourney")
    tid = base.rsplit("/", 1)[1]
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, tid)
    d.wait_for_selector(ready)
    return d


def _play_out(live: LiveServer, base: str) -> dict[str, Any]:
    """Every Main and consolation match at its tables, won by hand by side A."""
    state = live.api("POST", f"{base}/draw", {"seed": 5})["state"]
    for event in ("main", "consolation"):
        r = 0
        while state[event] is not None and r < len(state[event]["rounds"]):
            ready = [i for i, m in enumerate(state[event]["rounds"][r])
                     if m["a"] and m["b"] and not m["winner"]]
            if ready:
                state = live.api("POST", f"{base}/rounds", {"event": event, "round": r})["state"]
            for i in ready:
                m = state[event]["rounds"][r][i]
                state = live.api("POST", f"{base}/results", {
                    "event": event, "round": r, "match": i, "winner": m["a"],
                    "score": [5, 3]})["state"]
            r += 1
    return dict(state)


def test_standings_and_wall_pairings_in_italian_printed_and_the_champion_in_the_room(
        live: LiveServer, pages: Pages, tmp_path: Path) -> None:
    base = _field(live, "Coppa Roma", NAMES)
    state = _play_out(live, base)
    live.api("POST", f"{base}/prizes", {"event": "main", "prizes": [
        "€ 200 e coppa", "€ 100", "€ 40", "€ 40"]})
    live.api("POST", f"{base}/prizes", {"event": "consolation", "prizes": ["€ 50"]})
    champion = state["main"]["rounds"][-1][0]["winner"]
    key = f"key={live.key}"

    st = pages.open(f"{live.url}{base}/standings.html?lang=it&{key}", LAPTOP)
    st.wait_for_selector("h2#st-main")
    assert st.evaluate("document.documentElement.lang") == "it"
    assert st.locator("h1").inner_text() == "Coppa Roma · Classifica"
    first = st.locator("#st-main ~ table tbody tr").first
    assert first.inner_text().split("\t") == ["1", champion, "€ 200 e coppa"]
    assert st.locator("text=Consolazione progressiva").count() == 1
    _shot(st, "standings-1366x768-it.png", full_page=True)
    if AXE.exists():
        assert axe(st) == []

    wall = pages.open(f"{live.url}{base}/pairings.html?event=main&round=1&lang=it&{key}",
                      LAPTOP)
    wall.wait_for_selector("#by-name")
    assert wall.locator("h1").inner_text() == "Coppa Roma · Main · Turno 1"
    by_table = wall.locator("table").nth(0).locator("tbody tr td.table").all_inner_texts()
    assert by_table == sorted(by_table, key=int) and len(by_table) == 4
    by_name = wall.locator("table").nth(1).locator("tbody tr td:first-child").all_inner_texts()
    assert by_name == sorted(NAMES, key=surname_key)  # by surname (issue 32 §5)
    assert by_name[:2] == ["Giulia Bianchi", "Paolo Colombo"]
    _shot(wall, "pairings-1366x768-it.png", full_page=True)
    if AXE.exists():
        assert axe(wall) == []
    pdf = tmp_path / "pairings.pdf"
    wall.pdf(path=str(pdf), format="A4", print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "2", str(pdf),
                        str(tmp_path / "page")], check=True, timeout=60)
        made = sorted(tmp_path.glob("page-*.png"))
        assert len(made) == 2  # by table on page 1, by name on page 2
        if SHOTS:
            shutil.copy(made[0], f"{SHOTS}/pairings-a4-it-page1.png")
            shutil.copy(made[1], f"{SHOTS}/pairings-a4-it-page2.png")

    sheet = pages.open(f"{live.url}{base}/draw/main.html?{key}", LAPTOP)
    sheet.wait_for_selector(".c")
    # each box sits level with the middle of its connector (its two feeders)
    level = sheet.evaluate("""() => [...document.querySelectorAll('.c:not(.one)')].map((c) => {
        const [col, rows] = c.getAttribute('style').split(';');
        const next = 'grid-column:' + (parseInt(col.split(':')[1], 10) + 1) + ';' + rows;
        const box = [...document.querySelectorAll('.m')].find((m) =>
          m.getAttribute('style') === next);
        const cr = c.getBoundingClientRect(), b = box.getBoundingClientRect();
        return Math.abs((cr.top + cr.bottom) / 2 - (b.top + b.bottom) / 2);
    })""")
    assert level and max(level) < 2
    _shot(sheet, "drawsheet-1366x768-connectors.png", full_page=True)

    room_url = live.api("GET", f"{base}/state")["room_url"]
    room = pages.open(room_url + "&lang=it&view=champion", ROOM)
    until(room, "!document.getElementById('v-champion').hidden && "
                "document.querySelector('.room-champ') !== null")
    assert room.locator(".room-champ").inner_text() == "★ " + champion
    assert room.locator("#h-champion").inner_text() == "Campione"
    _shot(room, "room-1920x1080-champion.png")
    if AXE.exists():
        assert axe(room) == []
    # the results: by event with headings, the newest first in each
    res = pages.open(room_url + "&lang=it&view=results", ROOM)
    until(res, "document.querySelectorAll('#room-results tr.room-heading').length >= 1")
    heads = res.locator("#room-results tr.room-heading").all_inner_texts()
    assert heads[0] == "Main"
    first_row = res.locator("#room-results tbody tr").nth(1).inner_text()
    assert "Finale" in first_row or "Turno 3" in first_row  # the Main's final first
    assert pages.errors == []


def test_the_room_welcomes_before_round_1_and_finds_where_a_player_plays(
        live: LiveServer, pages: Pages) -> None:
    base = _field(live, "Serata del martedì", NAMES[:6])
    room_url = live.api("GET", f"{base}/state")["room_url"]
    room = pages.open(room_url + "&lang=it", ROOM)
    until(room, "!document.getElementById('v-welcome').hidden && "
                "document.querySelectorAll('#room-registered li').length === 6")
    assert room.locator("#room-welcome-count").inner_text() == "6 giocatori iscritti"
    assert room.locator("#v-tables").is_hidden()  # no empty grid
    _shot(room, "room-1920x1080-welcome.png")
    if AXE.exists():
        assert axe(room) == []
    # two late-arrival slots: open ones read as such, not as byes
    live.api("POST", f"{base}/settings", {"late_slots": 2})
    state = live.api("POST", f"{base}/draw", {"seed": 2})["state"]
    assert len(state["main"]["late_slots"]) == 2 and state["main"]["late_open"]
    sheet = pages.open(room_url + "&lang=it&view=main", ROOM)
    until(sheet, "document.querySelectorAll('#sheet-main .late-slot').length === 2")
    assert sheet.locator("#sheet-main .late-slot").first.inner_text() == "ritardatario"
    assert "bye" not in sheet.locator("#sheet-main").inner_text()
    state = live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})["state"]
    m = state["matches"][0]
    # the first-match loser is not "eliminated" before the consolation is drawn
    live.api("POST", f"{base}/results", {"event": "main", "round": 0,
                                         "match": m["match"], "winner": m["a"]})
    names = pages.open(room_url + "&lang=it&view=names", ROOM)
    until(names, f"[...document.querySelectorAll('#room-names li')].some((li) => "
                 f"li.textContent.includes({m['b']!r}) && "
                 "li.textContent.includes('in attesa del tabellone di consolazione'))")
    assert "eliminato" not in names.locator("#room-names").inner_text()
    live_match = next(x for x in state["matches"] if x["match"] != m["match"])
    who = live_match["a"]
    room.fill("#room-search", who.split()[1][:4].lower())
    until(room, "!document.getElementById('v-search').hidden && "
                f"document.getElementById('room-found').textContent.includes({who + ':'!r})")
    found = room.locator("#room-found").inner_text()
    assert f"{who}: tavolo {live_match['table']} · contro {live_match['b']}" in found
    assert "Main · turno 1" in found
    _shot(room, "room-1920x1080-search.png")

    d = tourney_screen(live, pages, base, "#st-search")
    # the dashboard's draw: the open late slots by name, not "bye"
    until(d, "document.getElementById('tourney').textContent.includes('ritardatario')")
    d.fill("#st-search", who[:3])
    until(d, "document.querySelectorAll('#st-found li').length >= 1")
    assert f"{who}: tavolo {live_match['table']}" in d.locator("#st-found").inner_text()
    d.fill("#st-prizes-main", "€ 100\n€ 50\n")
    d.click("#st-prizes-save")  # the prize lists: one form
    until(d, "document.querySelector('#tourney .msg') && "
             "!document.querySelector('#tourney .msg').classList.contains('err') && "
             "document.querySelector('#tourney .msg').textContent !== ''")
    assert live.api("GET", f"{base}/state")["prizes"] == {"main": ["€ 100", "€ 50"]}
    if SHOTS:
        d.locator("#st-section").screenshot(path=f"{SHOTS}/dashboard-standings-it.png")
    if AXE.exists():
        d.focus("#st-search")  # no refresh re-renders the screen under axe
        assert axe(d) == []
    assert pages.errors == []


def test_a_side_pool_is_added_replaced_and_removed_on_the_dashboard_in_italian(
        live: LiveServer, pages: Pages) -> None:
    """Issue 23 §5 on the dashboard: the standings section's side-pool form.
    What the page can tell is refused before sending, in Italian, naming the
    field, and nothing changes; the server's refusal comes back in Italian."""
    base = _field(live, "Jackpot del giovedì", NAMES[:6])
    state = live.api("POST", f"{base}/draw", {"seed": 3})["state"]
    assert state["side_pools"] == []
    d = tourney_screen(live, pages, base, "#pool-save")
    assert d.locator("#pool-list").inner_text() == "Nessun fondo premi."
    msg = "document.querySelector('#tourney .msg')"

    d.fill("#pool-name", "Jackpot")
    d.fill("#pool-entry", "12,50")
    for pid in (1, 2, 3):
        d.check(f"#pool-p{pid}")
    d.fill("#pool-split", "60, 30")
    d.click("#pool-save")
    until(d, f"{msg}.classList.contains('err') && {msg}.textContent.startsWith('Ripartizione')")
    assert "sommano a 90" in d.locator("#tourney .msg").inner_text()
    assert live.api("GET", f"{base}/state")["side_pools"] == []
    # what was typed is still there after the refusal
    assert d.input_value("#pool-name") == "Jackpot" and d.is_checked("#pool-p2")

    d.fill("#pool-split", "70, 30")
    d.click("#pool-save")
    until(d, "!!document.querySelector('#pool-list li[data-pool=\"Jackpot\"]')")
    pools = live.api("GET", f"{base}/state")["side_pools"]
    assert pools == [{"pool": "Jackpot", "event": "main", "entry": 1250, "members": NAMES[:3],
                      "split": [70, 30], "pot": 3750}]
    row = d.locator("#pool-list li[data-pool='Jackpot']").inner_text()
    assert "quota 12,50" in row and "montepremi 37,50" in row and "3 giocatori" in row
    assert d.input_value("#pool-name") == ""  # the form is emptied once saved

    # Edit fills the form; saved under the same name, the pool is replaced
    d.click("#pool-list button:has-text('Modifica Jackpot')")
    until(d, "document.getElementById('pool-name').value === 'Jackpot'")
    assert d.input_value("#pool-entry") == "12,50" and d.input_value("#pool-split") == "70, 30"
    d.fill("#pool-entry", "10")
    d.uncheck("#pool-p3")
    d.fill("#pool-split", "100")
    d.click("#pool-save")
    until(d, "document.querySelector('#pool-list li[data-pool=\"Jackpot\"]')"
             ".textContent.includes('montepremi 20,00')")
    pools = live.api("GET", f"{base}/state")["side_pools"]
    assert [(p["pool"], p["entry"], p["members"], p["split"]) for p in pools] == [
        ("Jackpot", 1000, NAMES[:2], [100])]

    # removed meanwhile from elsewhere: the server's refusal, in Italian
    d.focus("#pool-name")  # no refresh re-renders the screen meanwhile
    live.api("POST", f"{base}/side-pools", {"pool": "Jackpot", "players": []})
    d.click("#pool-list button:has-text('Elimina Jackpot')")
    d.wait_for_selector("#dlg-confirm[open] >> text=Eliminare il fondo premi «Jackpot»")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    refusal = "Non c'è un fondo premi «Jackpot»."
    until(d, f"{msg}.classList.contains('err') && {msg}.textContent === {refusal!r}")
    until(d, "document.getElementById('pool-list').textContent === 'Nessun fondo premi.'")

    # and removed from here, confirmed first
    live.api("POST", f"{base}/side-pools", {"pool": "Serata", "event": "main", "players": [4, 5],
                                            "entry": 500, "split": [100]})
    d.locator("#trn-reason").focus()
    d.locator("#trn-reason").blur()  # the screen's refresh reads it again
    d.wait_for_selector("#pool-list li[data-pool='Serata']")
    d.click("#pool-list button:has-text('Elimina Serata')")
    d.wait_for_selector("#dlg-confirm[open] >> text=2 giocatori, montepremi 10,00")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, "document.getElementById('pool-list').textContent === 'Nessun fondo premi.'")
    assert live.api("GET", f"{base}/state")["side_pools"] == []
    if AXE.exists():
        d.focus("#pool-name")
        assert axe(d) == []
    assert pages.errors == []
