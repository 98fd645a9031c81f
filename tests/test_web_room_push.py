"""The room display listens to its pushed room (``room.stream``) in a
browser: a result shows without a read of room.json, and the page's files
come from the versioned static URL.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from bgclock.server.render.pages import versioned_url
from tests._web import pump_until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")]


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _round_under_way(live: LiveServer, name: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A four-player tournament with its first round started: its path, its
    state and its first match."""
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}], "seed": 5})
    for player in ("Ann", "Bob", "Cleo", "Dan"):
        live.api("POST", f"{base}/players", {"name": player})
    for pid in (1, 2, 3, 4):
        live.api("POST", f"{base}/players/{pid}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 5})
    live.api("POST", f"{base}/rounds", {"round": 0})
    state = live.api("GET", f"{base}/state")
    return base, state, state["main"]["rounds"][0][0]


def _won(name: str) -> str:
    """The expression: the main sheet shows ``name`` as a winner."""
    return (f"[...document.querySelectorAll('#sheet-main .won')]"
            f".some((n) => n.textContent === {name!r})")


@contextlib.contextmanager
def _room_page(errors: list[str]) -> Iterator[Any]:
    """A page at 1280x900 in Debian's chromium, its errors into ``errors``."""
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield page
        finally:
            browser.close()


def test_a_result_reaches_the_room_display_pushed_not_polled(live: LiveServer) -> None:
    base, state, first = _round_under_way(live, "Coppa Push")
    errors: list[str] = []
    reads: list[str] = []
    with _room_page(errors) as page:
        files: list[str] = []

        def seen(request: Any) -> None:
            if "/room.json" in request.url:
                reads.append(request.url)
            if "/static/" in request.url:
                files.append(request.url)

        page.on("request", seen)
        page.goto(state["room_url"])
        until(page, "Number(document.body.dataset.pushed || 0) >= 1")
        until(page, "document.getElementById('room-title').textContent === 'Coppa Push'")
        assert files and all(versioned_url() + "/" in u for u in files), files
        reads_before = len(reads)
        pushed = page.evaluate("Number(document.body.dataset.pushed)")
        live.api("POST", f"{base}/results", {"round": 0, "match": 0,
                                             "winner": first["a"], "score": [3, 0]})
        until(page, f"Number(document.body.dataset.pushed) > {pushed}")
        until(page, _won(first["a"]))
        # the stream was open all along: no read of room.json since it opened
        assert len(reads) == reads_before, reads
    assert not errors, errors


def test_a_read_answered_after_the_stream_opened_does_not_hide_a_result(
        live: LiveServer) -> None:
    """The display reads room.json once as it opens, beside its stream.  An
    answer to that read which comes after the stream has opened and pushed a
    result is older than what the display shows: it is dropped, and the
    result stays on the wall (shown, it hid the result until the next
    change in the room)."""
    base, state, first = _round_under_way(live, "Coppa Lettura")
    before = live.api("GET", f"{base}/room.json")  # the room before the result
    errors: list[str] = []
    held: list[Any] = []
    answered: list[str] = []
    with _room_page(errors) as page:
        page.route("**/room.json?*", lambda route: held.append(route))
        page.on("requestfinished",
                lambda req: answered.append(req.url) if "/room.json" in req.url else None)
        page.goto(state["room_url"])
        until(page, "Number(document.body.dataset.pushed || 0) >= 1")
        pump_until(page, lambda: bool(held))
        live.api("POST", f"{base}/results", {"round": 0, "match": 0,
                                             "winner": first["a"], "score": [3, 0]})
        until(page, _won(first["a"]))
        # the opening read's answer, built before the result, comes now
        held[0].fulfill(status=200, content_type="application/json",
                        body=json.dumps(before))
        pump_until(page, lambda: bool(answered))
        page.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the read's last step
        assert page.evaluate(_won(first["a"]))
    assert not errors, errors


def test_the_room_clock_speaks_the_rooms_language(live: LiveServer) -> None:
    # an Italian room on an English browser (Chromium here is en-US): the
    # time of day in 24-hour, never "AM/PM"
    tid = int(live.tournament("Coppa Ora")["id"])
    room_url = live.api("GET", f"/api/tournaments/{tid}/state")["room_url"]
    sep = "&" if "?" in room_url else "?"
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(room_url + sep + "lang=it")
            until(page, "document.getElementById('room-now').textContent !== ''")
            shown = page.evaluate("document.getElementById('room-now').textContent")
            assert re.fullmatch(r"\d{2}:\d{2}", shown), shown
            assert page.evaluate("document.documentElement.lang") == "it"
        finally:
            browser.close()
    assert not errors, errors
