"""A More Swiss at the desk, in a browser, in Italian (issue 35 §2, §4): the
director chooses the format and the losses, makes the draw, pairs and starts
each round with one button, enters every result by hand until one player is
left, reads the field and a round's pairing explained, and prints the
standings.  Screenshots go to $BGCLOCK_SHOTS when set.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages, pick_tournament, until_api

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina")


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _shot(page: Any, name: str, part: str | None = None) -> None:
    """A screenshot of the page (or of its ``part``) when $BGCLOCK_SHOTS says where."""
    where = os.environ.get("BGCLOCK_SHOTS")
    if where:
        path = str(Path(where) / f"{name}.png")
        if part is None:
            page.screenshot(path=path, full_page=True)
        else:
            page.locator(part).screenshot(path=path)


def _done(d: Any, click: Any) -> None:
    """``click()``, then until the screen says it is done (the message line
    emptied first: it may still say the last action's "Fatto.")."""
    d.evaluate("document.querySelector('#tourney .msg').textContent = ''")
    click()
    until(d, "document.querySelector('#tourney .msg').textContent === 'Fatto.'")


def _confirm(d: Any) -> None:
    d.wait_for_selector("#dlg-confirm[open]")
    d.click("#dlg-confirm[open] [data-act='confirm']:not([disabled])")
    until(d, "document.querySelector('#tourney .msg').textContent === 'Fatto.'")
    d.evaluate("document.activeElement && document.activeElement.blur()")


def test_a_more_swiss_of_seven_played_to_a_winner_in_italian(live: LiveServer,
                                                           pages: Pages) -> None:
    tid = int(live.tournament("Serata del circolo")["id"])
    base = f"/api/tournaments/{tid}"
    for k, who in enumerate(NAMES, start=1):
        live.api("POST", f"{base}/players", {"name": who})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    d = pages.open(live.director_url() + "&lang=it", WIDE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#trn-format")
    d.select_option("#trn-format", "moreswiss")
    d.fill("#trn-losses", "2")
    d.fill("#trn-rounds", "5,it-tournament,none")
    _done(d, lambda: d.click("button:has-text('Salva le impostazioni')"))
    assert live.api("GET", f"{base}/state")["settings"]["format"] == "moreswiss"
    d.click("button:has-text('Sorteggia il tabellone')")
    _confirm(d)
    played = 0
    for n in range(1, 20):
        state = live.api("GET", f"{base}/state")
        if state["weekly"]["over"]:
            break
        start = f"button:has-text('Abbina e avvia il turno {n}')"
        _done(d, lambda: d.click(start))  # noqa: B023 (called at once)
        if n == 1:
            _shot(d, "weekly-round-1")
        # the round as the server paired it (the message line may have been
        # drawn again with the last action's "Fatto." by a background refresh)
        until_api(lambda n=n: len(live.api("GET", f"{base}/state")["main"]["rounds"]) >= n, 30)
        state = live.api("GET", f"{base}/state")
        for m in state["main"]["rounds"][n - 1]:
            if m["b"] is None:
                continue
            winner = min(m["a"], m["b"])
            item = d.locator("li", has_text=f"{m['a']} – {m['b']}").last
            d.evaluate("document.querySelector('#tourney .msg').textContent = ''")
            item.locator("button", has_text=f"ha vinto {winner}").click()
            _confirm(d)
            played += 1
    state = live.api("GET", f"{base}/state")
    assert state["weekly"]["finished"] and played >= 6
    field = d.locator("#trn-field")
    until(d, "[...document.querySelectorAll('#trn-field td')]"
             ".filter((x) => x.textContent === 'eliminato').length === 6")
    assert "Il campo: More Swiss" in field.inner_text()
    assert field.locator("td", has_text="può ancora vincere").count() == 1
    assert field.locator("td", has_text="eliminato").count() == 6
    assert "Classifica finale" in field.inner_text()
    d.click("button:has-text(\"Perché l'abbinamento del turno 2?\")")
    d.wait_for_selector("#trn-reasons li")
    _shot(d, "weekly-field", "#trn-field")
    champion = state["weekly"]["standings"][0]["player"]
    assert champion == "Anna"  # the first name always won
    printed = pages.open(f"{live.url}{base}/standings.html?lang=it&key={live.key}", WIDE)
    body = printed.inner_text("body")
    assert "Classifica" in body and "More Swiss" in body and "Anna" in body
    _shot(printed, "weekly-standings")
    wall = pages.open(f"{live.url}{base}/pairings.html?lang=it&round=1&key={live.key}", WIDE)
    assert "Turno di riposo" in wall.inner_text("body")
    _shot(wall, "weekly-wall")
