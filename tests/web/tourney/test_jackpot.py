"""A jackpot at the desk, in a browser, in Italian, on a phone's screen
(360x640; issue 35 §3): the director sets a jackpot of 4 at 3 points in a
room, enters four players one by one, and the fourth entry draws it and
starts its round 1 at the room's tables by itself; the draw section shows
both matches at their tables.  Screenshots go to $BGCLOCK_SHOTS when set.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pick_tournament
from tests.web.tourney.test_weekly import _done, _shot, live

__all__ = ["live"]

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
PHONE = {"width": 360, "height": 640}
NAMES = ("Anna", "Bruno", "Carla", "Dario")


def test_a_jackpot_of_four_fills_and_starts_itself_in_italian(live: LiveServer,
                                                              pages: Pages) -> None:
    tid = int(live.tournament("Jackpot delle 15")["id"])
    base = f"/api/tournaments/{tid}"
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#trn-jackpot-size")
    assert "Jackpot (parte da solo quando è pieno)" in d.inner_text("#tourney")
    d.select_option("#trn-jackpot-size", "4")
    d.fill("#trn-jackpot-length", "3")
    d.fill("#trn-jackpot-room", "Sala B")
    _done(d, lambda: d.click("button:has-text('Salva le impostazioni')"))
    settings = live.api("GET", f"{base}/state")["settings"]
    assert settings["jackpot"] == {"size": 4, "length": 3, "room": "Sala B"}
    _shot(d, "jackpot-settings", ".form:has(#trn-jackpot-size)")
    for k, who in enumerate(NAMES, start=1):
        d.fill("#trn-name", who)
        _done(d, lambda: d.click("button:has-text('Iscrivi')"))
        state = live.api("GET", f"{base}/state")
        assert state["drawn"] == (k == len(NAMES))
    # the fourth entry drew it and started round 1 at the room's tables
    state = live.api("GET", f"{base}/state")
    assert sorted(m["table"] for m in state["matches"]) == [1, 2]
    assert state["flight"]["room"] == "Sala B"
    until(d, "document.querySelector('#tourney').innerText.includes('Sorteggiato con il seme')")
    text = d.inner_text("#tourney")
    for m in state["matches"]:
        assert f"{m['a']} – {m['b']}" in text
    # one more entry is refused, in Italian, and nothing changes
    d.fill("#trn-name", "Elena")
    d.evaluate("document.querySelector('#tourney .msg').textContent = ''")
    d.click("button:has-text('Iscrivi')")
    until(d, "document.querySelector('#tourney .msg').textContent.includes('pieno')")
    assert "Il jackpot è pieno (4 giocatori)." in d.inner_text("#tourney .msg")
    assert len(live.api("GET", f"{base}/state")["players"]) == 4
    # no part of the screen is wider than the phone
    wide = d.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"] + 1, wide
    _shot(d, "jackpot-started", "section:not(#tourney):has-text('Sorteggiato con il seme')")
    _shot(d, "jackpot-full", "#tourney .msg")
