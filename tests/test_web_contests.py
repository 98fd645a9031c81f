"""Swing and couples in a browser (issue 13): a six-player Swing played on
three table pages until one player holds every VP, from the dashboard's
screen; couples encounters decided in phase 2 and in phase 3; the room
display.  Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pick, pump_until
from tests.test_web_match import act, menu, roll, wait
from tests.test_web_table import AXE, axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")


def _open_screen(d: Any, tid: int) -> None:
    """Open the screen on tournament ``tid`` and wait until it is drawn from
    that tournament's state: a form drawn before (another tournament's, or
    this one's before the pick's read) is drawn again under the typing."""
    d.click("#btn-contests")
    d.wait_for_selector("#con-pick")
    until(d, f"!!document.querySelector('#con-pick option[value=\"{tid}\"]')")
    if d.input_value("#con-pick") != str(tid):
        pick(d, "#con-pick", tid, ".con-players")
    else:
        until(d, "!!document.querySelector('.con-players')", 15000)


def _until_api(check: Any, timeout_s: float = 8.0) -> None:
    """Until ``check()`` (the server's state) holds."""
    end = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)


def _shot(d: Any, path: str) -> None:
    """The screen alone, its header not floating over it."""
    d.add_style_tag(content=".dir-head { position: static !important; }")
    d.locator("#contests").screenshot(path=path)


def _table_link(live: LiveServer, base: str, number: int) -> str:
    state = live.api("GET", f"{base}/state")
    table_id = state["tables"][str(number)]
    info = live.api("GET", f"/api/tables/{table_id}")
    return f"{live.url}/t/{table_id}?token={info['token']}"


def test_a_six_player_swing_on_three_table_pages_until_one_holds_everything(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Swing Roma")["id"])
    base = f"/api/tournaments/{tid}"
    names = ["Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
    for name in names:
        live.api("POST", f"{base}/players", {"name": name})
    d = pages.open(live.director_url(), WIDE)
    _open_screen(d, tid)
    d.wait_for_selector("#sw-create")
    d.fill("#sw-vp", "100")
    d.fill("#sw-cpp", "40,80")
    d.fill("#sw-rules", "usbgf-2013-delay")
    d.fill("#sw-reserve", "120")
    d.click("#sw-create")
    d.wait_for_selector("#sw-pair")
    swing = live.api("GET", f"{base}/state")["swing"]
    assert swing["clock_override"] == {"reserve_ms": 120_000} and swing["cpp"] == 40
    assert "CPP now: 40" in d.locator(".cpp-now").inner_text()
    room = pages.open(live.api("GET", f"{base}/state")["room_url"], WIDE)
    room.wait_for_selector("#room-swing:not([hidden]) .vp-table")
    tables: dict[int, Any] = {}
    rounds = 0
    while True:
        state = live.api("GET", f"{base}/state")
        if state["swing"]["winner"]:
            break
        rounds += 1
        assert rounds <= 8
        d.click("#sw-pair")
        until(d, "document.querySelectorAll('.swing-games li').length > 0")
        if rounds == 2:  # the room shows the round's games, the CPP and who is all-in
            until(room, f"document.querySelectorAll('#room-swing .swing-games li').length === "
                        f"{len(live.api('GET', f'{base}/state')['swing']['games'])}")
            assert "CPP" in room.locator("#room-swing .cpp-now").inner_text()
            if SHOTS:
                d.wait_for_timeout(500)  # the table links
                _shot(d, f"{SHOTS}/swing-round.png")
                room.locator("#room-swing").screenshot(path=f"{SHOTS}/swing-room.png")
        sw = live.api("GET", f"{base}/state")["swing"]
        assert sw["under_way"] and len(sw["games"]) == len([n for n in names
                                                            if sw["vp"][n] > 0]) // 2
        expected = []
        for i, g in enumerate(sw["games"]):
            page = tables.get(g["table"])
            if page is None:
                page = tables[g["table"]] = pages.open(_table_link(live, base, g["table"]))
            wait(page, "s.phase === 'setup' && s.length === 1", timeout=8000)
            # the richer player wins (so the contest ends in a few rounds)
            win, lose = ("A", "B") if sw["vp"][g["a"]] >= sw["vp"][g["b"]] else ("B", "A")
            dice = {win: 5, lose: 2}
            if (rounds + i) % 2:
                # the loser rolls higher, concedes a gammon on turn; the winner accepts
                dice = {win: 2, lose: 5}
                roll(page, dice["A"], dice["B"])
                wait(page, f"s.phase === 'playing' && s.on_turn === '{lose}'")
                menu(page, lose, "concede-gammon")
                wait(page, "s.phase === 'offer'")
                act(page, win, "accept")
                expected.append("gammon")
            else:
                roll(page, dice["A"], dice["B"])
                wait(page, f"s.phase === 'playing' && s.on_turn === '{win}'")
                menu(page, win, "game_over-backgammon")
                expected.append("backgammon")
            wait(page, "s.phase === 'match_over'")
        # every result came from a clock: the round is played
        until(d, "!!document.querySelector('#sw-pair') || "
                 "!!document.querySelector('.swing-winner')", 10000)
        played = live.api("GET", f"{base}/state")["swing"]["rounds"][-1]
        assert all(g["source"] == "clock" for g in played["games"])
        assert [g["result"] for g in played["games"]] == expected
        if rounds == 1:  # the director corrects a result of the round just played
            g0 = played["games"][0]
            d.select_option("#sw-fix-result-0", "single")
            d.locator(".swing-last li").first.locator(
                "button", has_text=f"Correct: {g0['winner']} won").click()
            _until_api(lambda: live.api("GET", f"{base}/state")["swing"]["rounds"][0]
                       ["games"][0]["corrected"] is not None)
            fixed = live.api("GET", f"{base}/state")["swing"]
            assert fixed["rounds"][0]["games"][0]["result"] == "single"
            assert fixed["rounds"][0]["games"][0]["corrected"]["from"] == [
                g0["winner"], g0["result"], 1]
            assert sum(fixed["vp"].values()) == 600
            until(d, "!!document.querySelector('#sw-pair')")
    sw = live.api("GET", f"{base}/state")["swing"]
    assert sw["vp"][sw["winner"]] == 600 and len(sw["out"]) == 5
    assert len(tables) == 3
    d.wait_for_selector(".swing-winner")
    assert d.locator(".vp-chart polyline").count() == 6
    room.wait_for_selector("#room-swing .swing-winner")
    assert sw["winner"] in room.locator("#room-swing .swing-winner").inner_text()
    room.click("#btn-lang")
    until(room, "document.getElementById('h-swing').textContent === 'Swing' && "
                "document.querySelector('#room-swing .swing-winner').textContent"
                ".includes('ha tutti i VP')")
    if AXE.exists():
        assert axe(room) == []
        assert axe(d) == []


def test_couples_encounters_decided_in_phase_two_and_in_phase_three(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppie Milano")["id"])
    base = f"/api/tournaments/{tid}"
    for name in ["Anna", "Aldo", "Bice", "Beppe", "Carlo", "Chiara"]:
        live.api("POST", f"{base}/players", {"name": name})
    d = pages.open(live.director_url(), WIDE)
    _open_screen(d, tid)
    d.wait_for_selector("#cp-create")
    d.fill("#cp-list", "Rossi,1,2\nBianchi,3,4\nVerdi,5,6")
    d.fill("#cp-length", "1")
    d.fill("#cp-rules", "usbgf-2013-delay")
    d.click("#cp-create")
    d.wait_for_selector(".standings")
    cp = live.api("GET", f"{base}/state")["couples"]
    assert len(cp["encounters"]) == 3 and cp["format"] == "round_robin"
    e0 = cp["encounters"][0]
    enc = d.locator(".encounter[data-encounter='0']")
    enc.locator("button", has_text="Start the next phase").click()
    until(d, "document.querySelectorAll(\".encounter[data-encounter='0'] .table-link\")"
             ".length === 2")
    # phase 1 from the two tables' clocks: player 1 of the first couple wins one,
    # player 2 of the first couple the other
    for number in (1, 2):
        page = pages.open(_table_link(live, base, number))
        wait(page, "s.phase === 'setup'")
        roll(page, 5, 2)
        wait(page, "s.phase === 'playing' && s.on_turn === 'A'")
        menu(page, "A", "game_over-single")
        wait(page, "s.phase === 'match_over'")

    def phase1_done() -> bool:
        got = live.api("GET", f"{base}/state")["couples"]["encounters"][0]
        return all(m["winner"] for m in got["matches"][:2])

    _until_api(phase1_done)
    got = live.api("GET", f"{base}/state")["couples"]["encounters"][0]
    assert [m["source"] for m in got["matches"][:2]] == ["clock", "clock"]
    assert got["wins"][e0["a"]] == 2
    # phase 2, a consultation at one table; its result by hand decides the encounter
    until(d, "[...document.querySelectorAll(\".encounter[data-encounter='0'] li\")]"
             ".slice(0, 2).every((li) => li.textContent.includes('★'))", 8000)
    enc.locator("button", has_text="Start the next phase").click()
    until(d, "document.querySelector(\".encounter[data-encounter='0']\").textContent"
             ".includes('consultation')")
    table1 = live.api("GET", f"{base}/state")["tables"]["1"]
    _until_api(lambda: live.api("GET", f"/api/tables/{table1}")["teams"])
    info = live.api("GET", f"/api/tables/{table1}")
    assert info["teams"] and info["players"] == [e0["a"], e0["b"]]
    enc.locator("button", has_text=f"{e0['a']} won").click()
    until(d, "document.querySelector(\".encounter[data-encounter='0'] .decided\") !== null")
    assert "3–0" in enc.locator(".decided").inner_text()
    assert enc.locator("button", has_text="Play the remaining matches anyway").count() == 1
    # encounter 1 goes to phase 3 (by hand, from the dashboard)
    e1 = cp["encounters"][1]
    m = e1["matches"]
    enc1 = d.locator(".encounter[data-encounter='1']")
    for idx, winner in [(0, m[0]["a"]), (1, m[1]["b"]), (2, e1["a"]), (3, m[3]["b"]),
                        (4, m[4]["a"])]:
        item = enc1.locator("li").nth(idx)
        item.locator("button", has_text=f"{winner} won").click()
        _until_api(lambda: live.api("GET", f"{base}/state")["couples"]["encounters"][1]
                   ["matches"][idx]["winner"] == winner)  # noqa: B023
        until(d, f"document.querySelectorAll(\".encounter[data-encounter='1'] li\")[{idx}]"
                 f".textContent.includes('★')")
    got = live.api("GET", f"{base}/state")["couples"]
    assert got["encounters"][1]["decided_after_phase"] == 3
    assert got["encounters"][1]["wins"] == {e1["a"]: 3, e1["b"]: 2}
    top = got["standings"][0]
    assert top["encounters"] == 1
    d.wait_for_selector(".encounter[data-encounter='1'] .decided")
    if SHOTS:
        _shot(d, f"{SHOTS}/couples-dashboard.png")
    room = pages.open(live.api("GET", f"{base}/state")["room_url"], WIDE)
    room.wait_for_selector("#room-couples:not([hidden]) .standings")
    assert room.locator("#room-couples .standings tbody tr").count() == 3
    # the place column is the server's place (couples still tied share it)
    places = [str(r["place"]) for r in live.api("GET", f"{base}/state")["couples"]["standings"]]
    assert room.locator("#room-couples .standings tbody tr td:first-child").all_inner_texts() \
        == places
    assert d.locator(".standings tbody tr td:first-child").all_inner_texts() == places
    if SHOTS:
        room.screenshot(path=f"{SHOTS}/couples-room.png", full_page=True)
    if AXE.exists():
        assert axe(room) == []
        assert axe(d) == []


def test_a_swing_read_for_a_tournament_no_longer_chosen_is_not_shown(
        live: LiveServer, pages: Pages) -> None:
    """The director picks the tournament with a Swing, then the one without
    before the first's state has come: the first's answer, come last, does
    not put its Swing under the second's name (kit/screen.js)."""
    ids = []
    for name in ("Swing Alfa", "Swing Beta"):
        tid = int(live.tournament(name)["id"])
        for player in ("Ada", "Bruno", "Carla", "Dario"):
            live.api("POST", f"/api/tournaments/{tid}/players", {"name": player})
        ids.append(tid)
    alfa, beta = ids
    live.api("POST", f"/api/tournaments/{alfa}/swing", {"start_vp": 100, "cpp": [40]})
    d = pages.open(live.director_url(), WIDE)
    _open_screen(d, beta)
    d.wait_for_selector("#sw-create")
    held: list[Any] = []
    answered: list[str] = []
    d.route(f"**/api/tournaments/{alfa}/state", lambda route: held.append(route))
    d.on("requestfinished",
         lambda req: answered.append(req.url) if req.url.endswith("/state") else None)
    d.select_option("#con-pick", str(alfa))
    pump_until(d, lambda: bool(held))
    d.select_option("#con-pick", str(beta))
    pump_until(d, lambda: any(u.endswith(f"/{beta}/state") for u in answered))
    held[0].continue_()
    pump_until(d, lambda: any(u.endswith(f"/{alfa}/state") for u in answered))
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the load's last step
    assert d.locator("#sw-create").count() == 1
    assert d.locator("#contests .cpp-now").count() == 0
    assert d.input_value("#con-pick") == str(beta)
    assert pages.errors == []


def test_the_room_shows_the_newest_read_of_the_swing(live: LiveServer, pages: Pages) -> None:
    """The room display reads the Swing every two seconds.  A read
    answered after a later one (here with the events as they were before the
    Swing was created) does not take the Swing off the wall."""
    tid = int(live.tournament("Swing in sala")["id"])
    base = f"/api/tournaments/{tid}"
    for player in ("Ada", "Bruno", "Carla", "Dario"):
        live.api("POST", f"{base}/players", {"name": player})
    before = live.api("GET", f"{base}/events.json")
    assert before["swing"] is None
    live.api("POST", f"{base}/swing", {"start_vp": 100, "cpp": [40]})
    room = pages.open(live.api("GET", f"{base}/state")["room_url"], WIDE)
    room.wait_for_selector("#room-swing:not([hidden]) .vp-table")
    held: list[Any] = []
    finished: list[Any] = []
    asked_after: list[Any] = []

    def hold(route: Any) -> None:
        if held:
            asked_after.append(route.request)
            route.continue_()
        else:
            held.append(route)

    # the next read is held; the one after it goes through and is answered
    room.route("**/events.json?*", hold)
    room.on("requestfinished",
            lambda req: finished.append(req) if "/events.json" in req.url else None)
    pump_until(room, lambda: any(r in finished for r in asked_after))
    held[0].fulfill(status=200, content_type="application/json", body=json.dumps(before))
    pump_until(room, lambda: held[0].request in finished)
    room.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the read's last step
    assert room.locator("#room-swing").is_visible()
    assert pages.errors == []
