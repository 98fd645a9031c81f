"""Issue 23's evidence in a browser, in Italian, at 1366x768: a three-flight
evening with 24 players in one room, the Last Chance drawn, the standings
and the rating list printed.

Three events (Campionato precedence 1, Intermedio 2, Principianti 3), eight
players each, every one of them taken from the players' register (so closing
the events rates them), share the room "Sala Roma" and its eight tables;
rounds are played without clocks, results entered by hand.  The Campionato
joins the room and starts its first round from the dashboard; when tables
are short its matches are seated first, and no table number is ever held by
two events (``GET .../flight`` after every step).  Its Last Chance is drawn
and shown on the dashboard; a side pool on it is printed with its
standings; the room's wall is printed to PDF; every event is played to its
end and closed, and the rating list is printed.

Debian's chromium only (never a downloaded one); skipped without it.
``BGCLOCK_SHOTS=docs/screenshots`` refreshes the docs' pictures
(``three-flights-*-it.png``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages, pick_tournament
from tests.test_web_table import AXE, axe

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")
LAPTOP = {"width": 1366, "height": 768}
ROOM = "Sala Roma"
TABLES = 8
#: The events, their precedence and their players (surnames by event).
EVENTS = {
    "Campionato": (1, ["Giulia Bianchi", "Marco Rossi", "Luca Esposito", "Sara Romano",
                       "Paolo Colombo", "Anna Ricci", "Franco Marino", "Elena Greco"]),
    "Intermedio": (2, ["Davide Bruno", "Chiara Gallo", "Matteo Conti", "Laura De Luca",
                       "Simone Costa", "Valentina Giordano", "Andrea Mancini", "Silvia Rizzo"]),
    "Principianti": (3, ["Stefano Lombardi", "Federica Moretti", "Alessio Barbieri",
                         "Martina Fontana", "Riccardo Santoro", "Giorgia Mariani",
                         "Lorenzo Rinaldi", "Irene Caruso"]),
}
#: English that must not show on an Italian page (whole words, case kept).
ENGLISH = ["Standings", "Round", "Place", "Player", "Prize", "Table", "Tables", "Opponent",
           "Waiting", "By table", "By name", "Rating list", "Experience", "Federation",
           "Side pools", "Payout", "Progressive Consolation", "Champion", "entry", "pot",
           "waiting", "every event", "in play", "Consolation", "Final", "Winner"]


@pytest.fixture
def live() -> Iterator[LiveServer]:
    """A server of its own for each test: the register is the server's,
    so each test starts from an empty one."""
    with running_server() as server:
        yield server


def _english(text: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", text)]


def _shot(page: Any, name: str, *, full_page: bool = False) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}", full_page=full_page)


def _room(live: LiveServer, base: str) -> dict[str, Any]:
    """The room as ``GET .../flight`` gives it, checked: no table number is
    held by two matches (of one event or of two), none past the room's count."""
    flight = live.api("GET", f"{base}/flight")["flight"]
    held = [(m["table"], e["name"]) for e in flight["events"] for m in e["matches"]]
    numbers = [t for t, _ in held]
    assert len(numbers) == len(set(numbers)), held
    assert all(1 <= t <= TABLES for t in numbers), held
    return dict(flight)


def _event(flight: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in flight["events"] if e["name"] == name)


def _room_until(live: LiveServer, base: str, done: Any, timeout_s: float = 20) -> dict[str, Any]:
    """Poll the room (checked each time) until ``done(flight)``: the room
    seats its waiting matches just after the result that freed a table."""
    deadline = time.monotonic() + timeout_s
    while True:
        flight = _room(live, base)
        if done(flight):
            return flight
        if time.monotonic() > deadline:
            raise AssertionError(f"the room never got there: {flight}")
        time.sleep(0.05)


def _result(live: LiveServer, base: str, event: str, r: int, i: int,
            winner: str = "a") -> dict[str, Any]:
    m = live.api("GET", f"{base}/state")[event]["rounds"][r][i]
    return dict(live.api("POST", f"{base}/results", {
        "event": event, "round": r, "match": i, "winner": m[winner], "score": [5, 2]})["state"])


def _play_out(live: LiveServer, base: str) -> dict[str, Any]:
    """Every match whose players are known decided by hand (side A wins),
    bracket after bracket, until none is left."""
    state = live.api("GET", f"{base}/state")
    while True:
        todo = [(e, r, i, m) for e in ("main", "consolation", "last_chance") if state.get(e)
                for r, ms in enumerate(state[e]["rounds"]) for i, m in enumerate(ms)
                if m["a"] and m["b"] and not m["winner"]]
        if not todo:
            return dict(state)
        e, r, i, m = todo[0]
        state = live.api("POST", f"{base}/results", {
            "event": e, "round": r, "match": i, "winner": m["a"], "score": [5, 3]})["state"]


def _dashboard(d: Any, live: LiveServer, tid: int) -> None:
    d.goto(live.director_url() + "&lang=it")
    until(d, "document.getElementById('btn-tourney').textContent !== ''", 15000)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')", 15000)
    pick_tournament(d, str(tid))
    d.wait_for_selector("#fl-room")


def test_a_three_flight_evening_in_italian(live: LiveServer, pages: Pages,
                                          tmp_path: Path) -> None:
    key = f"key={live.key}"
    # the register: 24 players with ratings, the Campionato's the strongest
    entries: dict[str, int] = {}
    for k, (_, names) in enumerate(EVENTS.values()):
        for j, name in enumerate(names):
            entry = live.api("POST", "/api/register", {
                "name": name, "federation_id": f"FIBT{100 * k + j:03d}", "club": "Roma",
                "rating": 170000 - 10000 * k - 500 * j, "experience": 400 - 100 * k})
            entries[name] = int(entry["id"])
    before = {r["name"]: r["rating_points"]
              for r in live.api("GET", "/api/register/ratings.json")["ratings"]}
    assert len(before) == 24
    bases: dict[str, str] = {}
    ids: dict[str, int] = {}
    for name, (precedence, names) in EVENTS.items():
        tid = int(live.tournament(name)["id"])
        base = f"/api/tournaments/{tid}"
        ids[name], bases[name] = tid, base
        live.api("POST", f"{base}/settings", {
            "rounds": [{"length": 5, "clock": "none"}], "last_chance": name == "Campionato"})
        for i, n in enumerate(names, 1):
            live.api("POST", f"{base}/players", {"name": n, "register_id": entries[n]})
            live.api("POST", f"{base}/players/{i}/check-in", {})
        live.api("POST", f"{base}/draw", {"seed": 7 + precedence})
        if name != "Campionato":
            live.api("POST", f"{base}/flight", {"room": ROOM, "precedence": precedence,
                                                "tables": TABLES})
    champ = bases["Campionato"]
    inter = bases["Intermedio"]
    princ = bases["Principianti"]

    # the Campionato joins the room from the dashboard
    d = pages.open(live.director_url() + "&lang=it", LAPTOP)
    _dashboard(d, live, ids["Campionato"])
    d.fill("#fl-room", ROOM)
    d.fill("#fl-precedence", "1")
    d.fill("#fl-tables", str(TABLES))
    d.locator("#tourney button", has_text="Salva la sala").click()
    d.wait_for_selector("#fl-events tr[data-event='Principianti']")
    assert live.api("GET", f"{champ}/state")["flight"] == {
        "room": ROOM, "precedence": 1, "tables": TABLES}

    # the Intermedio and the Principianti fill the eight tables; the
    # Campionato's first round, started from the dashboard, waits
    live.api("POST", f"{inter}/rounds", {"event": "main", "round": 0})
    live.api("POST", f"{princ}/rounds", {"event": "main", "round": 0})
    room = _room(live, champ)
    assert [m["table"] for m in _event(room, "Intermedio")["matches"]] == [1, 2, 3, 4]
    assert [m["table"] for m in _event(room, "Principianti")["matches"]] == [5, 6, 7, 8]
    d.locator("#tourney button", has_text="Avvia Main turno 1").click()
    d.wait_for_selector("text=4 incontri attendono un tavolo")
    room = _room(live, champ)
    assert len(_event(room, "Campionato")["waiting"]) == 4
    assert _event(room, "Campionato")["matches"] == []

    # the Principianti's results free tables 5-8: the Campionato sits there
    for i in range(4):
        _result(live, princ, "main", 0, i)
        _room_until(live, champ, lambda f, n=i + 1: len(_event(f, "Campionato")["matches"]) == n)
    room = _room(live, champ)
    assert sorted(m["table"] for m in _event(room, "Campionato")["matches"]) == [5, 6, 7, 8]
    # the Principianti's next rounds find no table: they wait
    live.api("POST", f"{princ}/rounds", {"event": "main", "round": 1})
    live.api("POST", f"{princ}/rounds", {"event": "consolation", "round": 0})
    room = _room(live, champ)
    assert len(_event(room, "Principianti")["waiting"]) == 4
    # two Campionato results: their tables go to the Principianti, who wait alone
    for i in range(2):
        _result(live, champ, "main", 0, i)
    room = _room_until(live, champ, lambda f: len(_event(f, "Principianti")["waiting"]) == 2)
    assert len(_event(room, "Principianti")["matches"]) == 2
    # the Campionato's second round queues behind the Principianti's matches ...
    live.api("POST", f"{champ}/rounds", {"event": "main", "round": 1})
    room = _room(live, champ)
    assert [(w["event"], w["round"]) for w in _event(room, "Campionato")["waiting"]] == [
        ("main", 1)]
    # ... yet takes the next free table: the Campionato goes first
    freed = next(m["table"] for m in _event(room, "Intermedio")["matches"] if m["match"] == 0)
    _result(live, inter, "main", 0, 0)
    room = _room_until(live, champ, lambda f: not _event(f, "Campionato")["waiting"])
    assert any(m["table"] == freed and (m["round"], m["match"]) == (1, 0)
               for m in _event(room, "Campionato")["matches"])
    assert len(_event(room, "Principianti")["waiting"]) == 2

    # the room display: every table of the room with its event's name
    room_url = live.api("GET", f"{champ}/state")["room_url"]
    r = pages.open(room_url + "&lang=it&rotate=0", LAPTOP)
    r.wait_for_selector("#room-flight-tables tbody tr")
    until(r, "document.querySelectorAll('#room-flight-tables tbody tr').length === "
             f"{sum(len(e['matches']) for e in room['events'])}", 15000)
    assert r.inner_text("#h-flight") == f"{ROOM} · tutti gli eventi"
    rows = r.locator("#room-flight-tables tbody tr").all_inner_texts()
    assert {x.split("\t")[1] for x in rows} == set(EVENTS)
    assert len(r.locator("#room-flight-waiting li").all_inner_texts()) == 2
    text = r.inner_text("body")
    assert not _english(text), _english(text)
    assert "Consolazione progressiva · Turno 1" in r.inner_text("#room-flight")
    _shot(r, "three-flights-room-it.png", full_page=True)
    if AXE.exists():
        assert axe(r) == []

    # the room's wall, printed
    wall = pages.open(f"{live.url}{champ}/flight/pairings.html?lang=it&{key}", LAPTOP)
    wall.wait_for_selector("#by-table")
    text = wall.inner_text("body")
    assert not _english(text), _english(text)
    assert all(name in text for name in EVENTS) and "In attesa di un tavolo" in text
    _shot(wall, "three-flights-wall-it.png", full_page=True)
    pdf = tmp_path / "wall.pdf"
    wall.pdf(path=str(pdf), format="A4", print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    # by table, by name, then the matches waiting: each from a page of its own
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= 3
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf),
                        str(tmp_path / "wall")], check=True, timeout=60)
        made = sorted(tmp_path.glob("wall-*.png"))
        assert made
        if SHOTS:
            shutil.copy(made[0], f"{SHOTS}/three-flights-wall-a4-it.png")

    # the Campionato plays on until its Last Chance is drawn
    for i in range(2, 4):
        _result(live, champ, "main", 0, i)
    state = live.api("GET", f"{champ}/state")
    assert state["last_chance"] is None
    for i, m in enumerate(state["consolation"]["rounds"][0]):
        if m["a"] and m["b"] and not m["winner"]:
            _result(live, champ, "consolation", 0, i, "b")
    state = live.api("GET", f"{champ}/state")
    if state["last_chance"] is None:  # after a consolation bye: its second round
        for i, m in enumerate(state["consolation"]["rounds"][1]):
            if m["a"] and m["b"] and not m["winner"]:
                _result(live, champ, "consolation", 1, i, "b")
        state = live.api("GET", f"{champ}/state")
    assert state["last_chance"] is not None
    # the Campionato's consolation draw sheet, in Italian
    sheet = pages.open(f"{live.url}{champ}/draw/consolation.html?lang=it&{key}", LAPTOP)
    sheet.wait_for_selector(".m")
    assert "Consolazione progressiva" in sheet.inner_text("body")
    assert not _english(sheet.inner_text("body")), _english(sheet.inner_text("body"))
    lc = {x for m in state["last_chance"]["rounds"][0] for x in (m["a"], m["b"]) if x}
    assert lc and lc <= set(EVENTS["Campionato"][1])
    live.api("POST", f"{champ}/side-pools", {
        "pool": "Jackpot", "event": "main", "entry": 1000, "players": list(range(1, 9)),
        "split": [70, 30]})
    live.api("POST", f"{champ}/prizes", {"event": "main", "prizes": ["€ 200 e coppa", "€ 100"]})
    live.api("POST", f"{champ}/prizes", {"event": "last_chance", "prizes": ["€ 30"]})
    _dashboard(d, live, ids["Campionato"])
    until(d, "[...document.querySelectorAll('#tourney h4')]"
             ".some((n) => n.textContent === 'Last Chance')", 15000)
    d.wait_for_selector("#desk-exports a[href*='/draw/last_chance.html']")
    until(d, "document.querySelectorAll('#fl-events tbody tr').length === 3", 15000)
    assert "Campionato (questo evento)" in d.inner_text("#fl-events tr[data-event='Campionato']")
    assert not _english(d.inner_text("#fl-section"))
    if SHOTS:
        d.add_style_tag(content=".dir-head { position: static !important; }")
        d.locator("#fl-section").screenshot(path=f"{SHOTS}/three-flights-dashboard-it.png")
    if AXE.exists():
        d.focus("#fl-room")
        assert axe(d) == []

    # every event to its end; closing rates it
    ends = {name: _play_out(live, base) for name, base in bases.items()}
    _room_until(live, champ, lambda f: all(not e["matches"] and not e["waiting"]
                                           for e in f["events"]))
    rated = 0
    for tid in ids.values():
        closed = live.api("POST", f"/api/tournaments/{tid}/close")
        assert closed["status"] == "closed"
        assert closed["rated"]["now"] is True
        rated += int(closed["rated"]["matches"])
    # three brackets of 8: 7 Main + the consolation's and Last Chance's matches, each rated
    assert rated >= 3 * 7 + 2

    # the printed standings, each in Italian, with the champions and prizes
    for name, base in bases.items():
        st = pages.open(f"{live.url}{base}/standings.html?lang=it&{key}", LAPTOP)
        st.wait_for_selector("h2#st-main")
        assert st.evaluate("document.documentElement.lang") == "it"
        assert st.locator("h1").inner_text() == f"{name} · Classifica"
        text = st.inner_text("body")
        assert not _english(text), (name, _english(text))
        champion = ends[name]["main"]["rounds"][-1][0]["winner"]
        first = st.locator("#st-main ~ table tbody tr").first.inner_text().split("\t")
        assert first[:2] == ["1", champion]
        assert all(p in text for p in EVENTS[name][1])
        if name == "Campionato":
            assert first[2] == "€ 200 e coppa"
            assert "Last Chance" in text and "€ 30" in text
            st.wait_for_selector("#st-side-pools")
            assert "Jackpot" in text and "montepremi 80,00" in text
            _shot(st, "three-flights-standings-it.png", full_page=True)
            if AXE.exists():
                assert axe(st) == []

    # the rating list, printed: every player, ratings moved by the results
    after = {x["name"]: x["rating_points"]
             for x in live.api("GET", "/api/register/ratings.json")["ratings"]}
    assert set(after) == set(before)
    assert sum(after[n] != before[n] for n in after) >= 20
    sheet = pages.open(f"{live.url}/api/register/ratings.html?lang=it&{key}",
                       {"width": 794, "height": 1123})
    sheet.wait_for_selector("tbody tr")
    assert sheet.locator("h1").inner_text() == "Classifica rating"
    assert sheet.locator("tbody tr").count() == 24
    text = sheet.inner_text("body")
    assert not _english(text), _english(text)
    # in Italian, with a decimal comma
    assert all(n in text and after[n].replace(".", ",") in text for n in after)
    _shot(sheet, "three-flights-ratings-it.png", full_page=True)


def test_the_room_display_shows_the_room_when_its_flight_script_loads_late(
        live: LiveServer, pages: Pages) -> None:
    """The room hands each room body to its flight section by an event; a body
    read before the section listened was lost, and with the room's stream
    open (no polling) the section stayed hidden until the room changed.  A
    slow section module (a loaded laptop, a slow Wi-Fi) must not hide it:
    the page's one entry (room/main.js) imports it before it runs."""
    bases = []
    for name, precedence in (("Serata A", 1), ("Serata B", 2)):
        tid = int(live.tournament(name)["id"])
        base = f"/api/tournaments/{tid}"
        live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
        for i in range(1, 5):
            live.api("POST", f"{base}/players", {"name": f"{name} {i}"})
            live.api("POST", f"{base}/players/{i}/check-in", {})
        live.api("POST", f"{base}/draw", {"seed": 3})
        live.api("POST", f"{base}/flight", {"room": "Sala Verde", "precedence": precedence,
                                            "tables": 2})
        bases.append(base)
    live.api("POST", f"{bases[1]}/rounds", {"event": "main", "round": 0})
    room_url = live.api("GET", f"{bases[0]}/state")["room_url"]
    ctx = pages.browser.new_context(viewport=LAPTOP)
    pages.contexts.append(ctx)

    def slow(route: Any) -> None:
        # a slow network for this one script (not a wait: the page's own
        # room body would be read meanwhile, were the section not imported first)
        time.sleep(1.5)
        route.continue_()

    ctx.route("**/room/view/flight.js", slow)
    r = ctx.new_page()
    r.goto(room_url + "&lang=it&rotate=0")
    r.wait_for_selector("#room-flight-tables tbody tr", timeout=15000)
    assert r.locator("#room-flight-tables tbody tr").count() == 2
    assert r.inner_text("#h-flight") == "Sala Verde · tutti gli eventi"
