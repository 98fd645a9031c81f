"""Issue 23 on the dashboard, in a browser, in Italian: the director sets the
seeds, the groups kept apart and the Last Chance, makes the draw, and starts
the Last Chance's first round once the consolation's first losers are known;
the standings with a side pool print in Italian.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from tests._web import pick_tournament

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


def _play(live: LiveServer, base: str, event: str, rounds: int, rng: random.Random) -> Any:
    """Decide (by hand, through the API) every match of ``event``'s first
    ``rounds`` rounds whose players are known."""
    state = live.api("GET", f"{base}/state")
    for r in range(rounds):
        for i, m in enumerate(state[event]["rounds"][r]):
            if m["a"] and m["b"] and not m["winner"]:
                state = live.api("POST", f"{base}/results", {
                    "event": event, "round": r, "match": i,
                    "winner": rng.choice([m["a"], m["b"]])})["state"]
    return state


def _open(d: Any, live: LiveServer, tid: int) -> None:
    d.goto(live.director_url())
    if d.inner_text("#btn-lang").strip() == "IT":  # the language is kept across reloads
        d.click("#btn-lang")
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#trn-seeds")


def test_seeds_groups_and_a_last_chance_from_the_dashboard_in_italian(
        live: LiveServer, browser: Any, tmp_path: Path) -> None:
    tid = int(live.tournament("Coppa Formati")["id"])
    base = f"/api/tournaments/{tid}"
    for i in range(1, 17):
        live.api("POST", f"{base}/players", {"name": f"Giocatore {i:02d}"})
        live.api("POST", f"{base}/players/{i}/check-in")
    errors: list[str] = []
    ctx = browser.new_context(viewport=WIDE)
    try:
        d = ctx.new_page()
        d.on("pageerror", lambda e: errors.append(str(e)))
        _open(d, live, tid)
        d.fill("#trn-seed", "31")
        d.fill("#trn-seeds", "1, 2, 3, 4")
        d.fill("#trn-groups", "5, 6, 7, 8\n9, 10")
        d.check("#trn-last-chance")
        d.locator("#tourney button", has_text="Salva le impostazioni").click()
        state = None
        for _ in range(100):
            state = live.api("GET", f"{base}/state")
            if state["settings"]["last_chance"]:
                break
            d.wait_for_timeout(100)
        assert state is not None
        assert state["settings"]["seeds"] == [1, 2, 3, 4]
        assert state["settings"]["groups"] == [[5, 6, 7, 8], [9, 10]]
        d.locator("#tourney button", has_text="Sorteggia il tabellone").click()
        # the draw cannot be undone: the dashboard asks first (confirm.js)
        d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
        d.wait_for_selector("text=Sorteggiato con il seme 31")
        state = live.api("GET", f"{base}/state")
        first = [x for m in state["main"]["rounds"][0] for x in (m["a"], m["b"])]
        assert ("Giocatore 01" in first[:8]) != ("Giocatore 02" in first[:8])
        club = {f"Giocatore {i:02d}": 0 for i in (5, 6, 7, 8)} | {
            "Giocatore 09": 1, "Giocatore 10": 1}
        for m in state["main"]["rounds"][0]:
            assert m["a"] not in club or m["b"] not in club or club[m["a"]] != club[m["b"]]
        rng = random.Random(4)
        _play(live, base, "main", 1, rng)
        _play(live, base, "consolation", 1, rng)
        live.api("POST", f"{base}/side-pools", {
            "pool": "Jackpot", "event": "main", "entry": 500, "players": list(range(1, 17)),
            "split": [70, 30]})
        _open(d, live, tid)  # the dashboard reads the state afresh
        d.locator("#tourney button", has_text="Avvia Last Chance turno 1").click()
        until(d, "[...document.querySelectorAll('#tourney li')]"
                 ".some((n) => n.textContent.includes('Tavolo'))")
        state = live.api("GET", f"{base}/state")
        assert {m["event"] for m in state["matches"]} >= {"last_chance"}
        lc_tables = {m["table"] for m in state["matches"]
                     if m["event"] == "last_chance" and not m["winner"]}
        assert len(lc_tables) == 2
        # the live table cards name the event the match is of
        until(d, "[...document.querySelectorAll('#dash-cards .card, .card')]"
                 ".some((n) => n.textContent.includes('Last Chance'))")
        d.wait_for_selector("#desk-exports a[href*='/draw/last_chance.html']")
        d.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
        page = ctx.new_page()
        page.goto(f"{live.url}{base}/standings.html?lang=it&key={live.key}")
        page.wait_for_selector("#st-side-pools")
        text = page.inner_text("body")
        assert "Last Chance" in text and "Jackpot" in text and "montepremi 80,00" in text
        page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
        shots = Path("/tmp/bgclock-formats-shots")
        shots.mkdir(exist_ok=True)
        for name in ("dashboard.png", "standings.png"):
            (shots / name).write_bytes((tmp_path / name).read_bytes())
    finally:
        ctx.close()
    assert not errors, errors
