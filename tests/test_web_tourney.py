"""The tournament screen of the dashboard and the room display, in a browser.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from tests.test_web_table import AXE, axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
    pytest.mark.flaky(reruns=2, reruns_delay=1),
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
        d.select_option("#trn-pick", str(tid))
        d.wait_for_selector("text=Check in")
        for _ in range(4):
            d.locator("#tourney button", has_text="Check in").first.click()
            d.wait_for_timeout(150)
        until(d, "document.querySelectorAll('#tourney button').length > 0 && "
                 "![...document.querySelectorAll('#tourney button')]"
                 ".some((b) => b.textContent === 'Check in')")
        d.locator("#tourney button", has_text="Make the draw").click()
        d.wait_for_selector("text=Drawn with seed 77")
        d.locator("#tourney button", has_text="Start Main round 1").click()
        d.wait_for_selector("text=Table 1")
        state = live.api("GET", f"{base}/state")
        assert [m["table"] for m in state["matches"]] == [1, 2]
        first = state["main"]["rounds"][0][0]
        d.locator("#tourney button", has_text=f"{first['a']} won").first.click()
        until(d, "document.querySelector('#tourney .msg').textContent === 'Done.'")
        state = live.api("GET", f"{base}/state")
        assert state["main"]["rounds"][1][0]["a"] == first["a"]

        room = ctx.new_page()
        room.on("pageerror", lambda e: errors.append(str(e)))
        room.goto(state["room_url"])
        until(room, "document.getElementById('room-title').textContent === 'Coppa Test'")
        until(room, "document.querySelectorAll('#room-tables tbody tr').length === 1")
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
