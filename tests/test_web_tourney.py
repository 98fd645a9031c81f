"""The tournament screen of the dashboard and the room display, in a browser.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from tests._web import pick_tournament, settle
from tests.test_web_table import AXE, axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


def test_the_director_draws_starts_a_round_enters_a_result_and_the_room_shows_it(
        live: LiveServer, browser: Any) -> None:
    tid = int(live.tournament("Coppa Test")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}], "seed": 77})
    for name in ("Ann", "Bob", "Cleo", "Dan"):
        live.api("POST", f"{base}/players", {"name": name})
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        d = ctx.new_page()
        d.on("pageerror", lambda e: errors.append(str(e)))
        d.goto(live.director_url())
        d.click("#btn-tourney")
        d.wait_for_selector("#trn-pick")
        until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
        pick_tournament(d, str(tid))
        d.wait_for_selector("text=Check in")
        for _ in range(4):
            d.locator("#tourney button", has_text="Check in").first.click()
            d.wait_for_timeout(150)
        until(d, "document.querySelectorAll('#tourney button').length > 0 && "
                 "![...document.querySelectorAll('#tourney button')]"
                 ".some((b) => b.textContent === 'Check in')")
        d.locator("#tourney button", has_text="Make the draw").click()
        # the draw is confirmed first, the dialog naming its seed
        d.wait_for_selector("#dlg-confirm[open] >> text=with seed 77")
        d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
        d.wait_for_selector("text=Drawn with seed 77")
        d.locator("#tourney button", has_text="Start Main round 1").click()
        d.wait_for_selector("text=Table 1")
        state = live.api("GET", f"{base}/state")
        assert [m["table"] for m in state["matches"]] == [1, 2]
        first = state["main"]["rounds"][0][0]
        d.locator("#tourney button", has_text=f"{first['a']} won").first.click()
        d.wait_for_selector(f"#dlg-confirm[open] >> text={first['a']} wins")
        d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
        until(d, "document.querySelector('#tourney .msg').textContent === 'Done.'")
        state = live.api("GET", f"{base}/state")
        assert state["main"]["rounds"][1][0]["a"] == first["a"]

        room = ctx.new_page()
        room.on("pageerror", lambda e: errors.append(str(e)))
        room.goto(state["room_url"])
        until(room, "document.getElementById('room-title').textContent === 'Coppa Test'")
        until(room, "document.querySelectorAll("
                    "'#room-tables tbody tr:not(.room-heading)').length === 1")
        until(room, f"[...document.querySelectorAll('#sheet-main .won')]"
                    f".some((n) => n.textContent === {first['a']!r})")
        room.click("#btn-lang")
        until(room, "document.getElementById('h-tables').textContent === 'Tavoli'")
        if AXE.exists():  # no critical or serious violation on either screen
            assert axe(room) == []
            assert axe(d) == []
    finally:
        ctx.close()
    assert not errors, errors


def _play_on_the_table_page(page: Any, url: str) -> None:
    """A one-point match on its table page: the opening roll (6-1: A on turn),
    then A's menu: game over, single, confirmed."""
    page.goto(url)
    until(page, "window.__bgclock && __bgclock.app.state && __bgclock.app.state.phase === 'setup'",
          timeout_ms=10_000)
    page.click("#center .dice[data-die='A'] .die[data-n='6']")
    page.click("#center .dice[data-die='B'] .die[data-n='1']")
    page.click("#roll-start")
    until(page, "__bgclock.app.state.phase === 'playing' && __bgclock.app.state.on_turn === 'A'")
    page.click("#half-A .more")
    settle(page)
    page.click("#half-A [data-act='game_over']")
    settle(page)
    page.click("#half-A [data-act='game_over-single']")
    settle(page)
    page.click("#half-A [data-act='confirm']")
    until(page, "__bgclock.app.state.phase === 'match_over'")


def _wait_state(live: LiveServer, base: str, check: Any, timeout_s: float = 10) -> Any:
    import time

    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        state = live.api("GET", f"{base}/state")
        if check(state):
            return state
        time.sleep(0.1)
    raise AssertionError("the state never got there")


def test_a_12_player_main_played_on_table_pages_until_the_consolation_is_drawn(
        live: LiveServer, browser: Any) -> None:
    """12 players (11 checked in, 2 late slots, one filled), round 1 and 2 played
    on the table pages: the results flow into the draw and the consolation is
    drawn; a late arrival's count shows on the table page and the room."""
    import time

    tid = int(live.tournament("Trofeo dei Dodici")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"late_slots": 2, "seed": 12, "rounds": [
        {"length": 1, "rules": "usbgf-2013-delay", "clock": "required"},
        {"length": 1, "rules": "usbgf-2013-delay", "clock": "on_request"}]})
    names = [f"Player {c}" for c in "ABCDEFGHIJKL"]
    for name in names:
        live.api("POST", f"{base}/players", {"name": name})
    for pid in range(1, 12):
        live.api("POST", f"{base}/players/{pid}/check-in")
    live.api("POST", f"{base}/draw", {})
    live.api("POST", f"{base}/late/arrive", {"player": 12})
    state = live.api("POST", f"{base}/late/close", {})["state"]
    slots = [p for m in state["main"]["rounds"][0] for p in (m["a"], m["b"]) if p]
    assert sorted(slots) == sorted(names) and state["main"]["size"] == 16
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        started = live.api("POST", f"{base}/rounds", {"round": 0})
        assert len(started["tables"]) == 4  # 12 players in 16 slots: 4 byes
        for table in started["tables"]:
            _play_on_the_table_page(page, table["url"])
        state = _wait_state(live, base, lambda s: all(
            m["winner"] for m in s["main"]["rounds"][0] if m["a"] and m["b"]))
        assert all(m["result"]["source"] == "clock" for m in state["matches"])
        # round 2 at the same tables (renewed): one player is late, counted by the server
        started = live.api("POST", f"{base}/rounds", {"round": 1})
        tables = started["tables"]
        assert len(tables) == 4 and {t["table"] for t in tables} == {1, 2, 3, 4}
        late_t = tables[0]
        m = started["state"]["main"]["rounds"][1][late_t["match"]]
        late_id = next(p["id"] for p in state["players"] if p["name"] == m["b"])
        live.api("POST", f"{base}/late/absent", {"round": 1, "match": late_t["match"],
                                                "player": late_id,
                                                "from_ms": int(time.time() * 1000) - 2 * 60_000})
        page.goto(late_t["url"])
        until(page, "!!document.getElementById('late-note')", timeout_ms=10_000)
        note = page.text_content("#late-note") or ""
        # one point falls at 5 minutes; in a one-point match it disqualifies
        assert m["b"] in note and "0 penalty point" in note and "0–0" in note
        assert "next point at" in note and "disqualified at" in note
        room = ctx.new_page()
        room.on("pageerror", lambda e: errors.append(str(e)))
        room.goto(state["room_url"] + "&view=late")
        until(room, "document.querySelectorAll('#room-late li').length === 1")
        text = room.text_content("#room-late") or ""
        assert m["b"] in text and "next point in" in text and "disqualified in" in text
        live.api("POST", f"{base}/late/arrive", {"player": late_id})
        until(page, "(document.getElementById('late-note') || {}).textContent"
                    ".includes('the count stopped')", timeout_ms=10_000)
        for table in tables:
            _play_on_the_table_page(page, table["url"])
        state = _wait_state(live, base, lambda s: s["consolation"] is not None)
        assert all(m["winner"] for m in state["main"]["rounds"][1])
        losers = {m["b"] if m["winner"] == m["a"] else m["a"]
                  for m in state["main"]["rounds"][0] if m["a"] and m["b"]}
        entrants = {p for m in state["consolation"]["rounds"][0] for p in (m["a"], m["b"]) if p}
        assert losers <= entrants
        room.goto(state["room_url"] + "&view=consolation")
        until(room, "document.querySelectorAll('#sheet-consolation li').length > 0")
    finally:
        ctx.close()
    assert not errors, errors


def test_both_players_hand_in_their_score_sheets_on_the_table_page(
        live: LiveServer, browser: Any) -> None:
    tid = int(live.tournament("Coppa dei Segnapunti")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"seed": 3, "rounds": [
        {"length": 5, "rules": "it-tournament", "clock": "on_request"}]})
    for pid, name in enumerate(("Ann", "Bob", "Cleo", "Dan"), start=1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{pid}/check-in")
    live.api("POST", f"{base}/draw", {})
    started = live.api("POST", f"{base}/rounds", {"round": 0})
    table = started["tables"][0]
    m = started["state"]["main"]["rounds"][0][table["match"]]
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(table["url"])
        until(page, "window.__bgclock && __bgclock.app.state && __bgclock.app.info")
        pins = {p["name"]: p["pin"] for p in live.api("GET", f"{base}/sheet-pins")["pins"]}
        page.click("#btn-settings")
        page.click("#btn-sheet")
        # without a PIN: kept as the table's sheet, it cannot make the result
        page.click("#center [data-sheet='A'] [data-sheet-winner='B']")
        until(page, "!document.getElementById('toast').hidden")
        state = live.api("GET", f"{base}/state")
        sheet = next(s for s in state["sheets"] if s["match"] == table["match"])
        assert sheet["sheets"] == {"A": {"winner": m["b"], "via": "table"}}
        assert sheet["winner"] is None
        # the other side's sheet from the same token, without a PIN: it waits
        page.click("#center [data-sheet='B'] [data-sheet-winner='B']")
        _wait_state(live, base, lambda s: "B" in next(
            x for x in s["sheets"] if x["match"] == table["match"])["sheets"])
        assert live.api("GET", f"{base}/state")["main"]["rounds"][0][table["match"]][
            "winner"] is None
        # each player's own sheet, the running score and their PIN: they differ
        # from game 2, which B began trailing 0-1, so B's sheet stands, flagged
        for side, player, games, winner in (("A", m["a"], "1-0 1-2, 1-5", "B"),
                                            ("B", m["b"], "1-0 3-0 5-0", "A")):
            page.fill(f"#center [data-sheet-games='{side}']", games)
            page.fill(f"#center [data-sheet-pin='{side}']", pins[player])
            page.click(f"#center [data-sheet='{side}'] [data-sheet-winner='{winner}']")
            _wait_state(live, base, lambda s: next(  # noqa: B023
                x for x in s["sheets"] if x["match"] == table["match"]
            )["sheets"][side]["via"] == "player")  # noqa: B023
        state = _wait_state(live, base, lambda s: s["main"]["rounds"][0][table["match"]]
                            ["winner"] == m["a"])
        result = next(x for x in state["matches"] if x["match"] == table["match"])["result"]
        assert result == {"source": "hand", "sheets": "trailing", "score": [5, 0],
                          "trailing": "B", "game": 2}
        sheet = next(s for s in state["sheets"] if s["match"] == table["match"])
        assert sheet["sheets"]["A"] == {"winner": m["b"], "score": [1, 5],
                                        "games": [[1, 0], [1, 2], [1, 5]], "via": "player"}
        # the director's desk shows the flag and links the players' PINs
        d = ctx.new_page()
        d.on("pageerror", lambda e: errors.append(str(e)))
        d.goto(live.director_url())
        d.click("#btn-tourney")
        until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
        pick_tournament(d, str(tid))
        d.wait_for_selector(f"#desk-sheets [data-flagged='{table['match']}']")
        assert m["b"] in d.locator(f"#desk-sheets [data-flagged='{table['match']}']").inner_text()
        # the director's session opens it: no key in its address
        assert (d.locator("#desk-sheet-pins").get_attribute("href") or "").endswith(
            f"/api/tournaments/{tid}/sheet-pins")
        if AXE.exists():
            assert axe(page) == []
    finally:
        ctx.close()
    assert not errors, errors


def test_a_hand_result_closes_the_table_page_so_no_clock_result_follows_it(
        live: LiveServer, browser: Any) -> None:
    """The director enters B by hand: the table's page says so and offers no
    roll, so its clock cannot give the other winner (issue 32 §2; the clock
    result that lost the race is an alert: tests/test_web_one_result.py)."""
    tid = int(live.tournament("Coppa del Conflitto")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"seed": 5, "rounds": [
        {"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]})
    for pid, name in enumerate(("Ann", "Bob", "Cleo", "Dan"), start=1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{pid}/check-in")
    live.api("POST", f"{base}/draw", {})
    started = live.api("POST", f"{base}/rounds", {"round": 0})
    table = started["tables"][0]
    m = started["state"]["main"]["rounds"][0][table["match"]]
    live.api("POST", f"{base}/results", {"round": 0, "match": table["match"],
                                         "winner": m["b"]})
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(table["url"])
        until(page, "(document.getElementById('center-title') || {}).textContent === "
              f"'result entered by the director: {m['b']} won'")
        assert page.locator("#center .dice").count() == 0
        assert live.api("GET", f"{base}/state")["clashes"] == []
    finally:
        ctx.close()
    assert not errors, errors
