"""The dashboard's tournament screen reads its tournament again every few
seconds (kit/screen.js).  Such a background refresh builds the screen again
only when what it read changed, and never once the director is in the
screen: a refresh asked while nothing had focus, answered after the director
has clicked into a field, leaves the field, its text and its focus alone.
Typing in the side-pool form is what lost its first field to a refresh.

Debian's chromium only; skipped without it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages
from tests.test_web_standings import NAMES, _field, tourney_screen

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


class Loads:
    """The tournament screen's reads as the page makes them: a load reads
    ``/state`` and then ``/actions``, so a finished ``/actions`` read ends one.
    Only the reads asked since this began watching are counted (a read on
    its way before then is neither pending nor done)."""

    def __init__(self, page: Any) -> None:
        self.pending: set[Any] = set()
        self.done = 0
        page.on("request", self._asked)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._finished)

    def _asked(self, req: Any) -> None:
        if req.method == "GET" and req.url.endswith(("/state", "/actions")):
            self.pending.add(req)

    def _finished(self, req: Any) -> None:
        if req in self.pending:
            self.pending.discard(req)
            if req.url.endswith("/actions"):
                self.done += 1


def _pump_until(page: Any, cond: Any, timeout_s: float = 15.0) -> None:
    """Until ``cond()`` holds, letting the page's events reach this thread
    (each ``evaluate`` dispatches what Playwright received meanwhile)."""
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("not true in time")
        page.evaluate("1")


def _settled(page: Any, loads: Loads) -> None:
    """Until the screen's opening loads are over: the first background
    refresh (one interval after the screen opened, with nothing in it
    focused) has come and gone, and nothing is being read."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    done = loads.done
    _pump_until(page, lambda: loads.done > done and not loads.pending)


def test_a_refresh_that_reads_nothing_new_leaves_the_screen_as_it_is(
        live: LiveServer, pages: Pages) -> None:
    base = _field(live, "Refresh a vuoto", NAMES[:4])
    live.api("POST", f"{base}/draw", {"seed": 1})
    d = tourney_screen(live, pages, base, "#pool-save")
    loads = Loads(d)
    _settled(d, loads)
    # a mark on the screen's nodes: a screen built again has none
    d.evaluate("document.getElementById('pool-save').dataset.mark = 'kept'")
    done = loads.done
    _pump_until(d, lambda: loads.done >= done + 2)
    assert d.evaluate("document.getElementById('pool-save').dataset.mark") == "kept"

    # what changes is shown by the next refresh
    live.api("POST", f"{base}/side-pools", {"pool": "Serata", "event": "main", "players": [1, 2],
                                            "entry": 500, "split": [100]})
    until(d, "!!document.querySelector('#pool-list li[data-pool=\"Serata\"]')", 15000)
    assert d.evaluate("document.getElementById('pool-save').dataset.mark") is None
    assert pages.errors == []


def test_a_refresh_answered_after_the_director_clicked_into_a_field_leaves_it_alone(
        live: LiveServer, pages: Pages) -> None:
    base = _field(live, "Refresh in volo", NAMES[:4])
    live.api("POST", f"{base}/draw", {"seed": 2})
    d = tourney_screen(live, pages, base, "#pool-save")
    loads = Loads(d)
    _settled(d, loads)
    held: list[Any] = []
    # the first read of the state is held; any later one goes through
    d.route("**/api/tournaments/*/state",
            lambda route: route.continue_() if held else held.append(route))
    # the refresh is asked while nothing in the screen has focus ...
    _pump_until(d, lambda: bool(held))
    # ... the tournament changes meanwhile, and the director starts typing
    live.api("POST", f"{base}/side-pools", {"pool": "Serata", "event": "main", "players": [1, 2],
                                            "entry": 500, "split": [100]})
    d.fill("#pool-name", "Jackpot")
    # the director is in the screen: no load starts now; the held one is the only read left
    _pump_until(d, lambda: len(loads.pending) == 1)
    done = loads.done
    held[0].continue_()
    _pump_until(d, lambda: loads.done > done and not loads.pending)
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the load's last step
    assert d.evaluate("document.activeElement && document.activeElement.id") == "pool-name"
    assert d.input_value("#pool-name") == "Jackpot"
    assert d.locator("#pool-list").inner_text() == "Nessun fondo premi."

    # once the director leaves the screen, the next refresh shows the pool, and the draft stays
    d.evaluate("document.activeElement.blur()")
    until(d, "!!document.querySelector('#pool-list li[data-pool=\"Serata\"]')", 15000)
    assert d.input_value("#pool-name") == "Jackpot"
    assert pages.errors == []
