"""The dashboard's tournament screen reads its tournament again every few
seconds (kit/screen.js).  Such a background refresh builds the screen again
only when what it read changed, and never once the director is in the
screen: a refresh asked while nothing had focus, answered after the director
has clicked into a field, leaves the field, its text and its focus alone.
Typing in the side-pool form is what lost its first field to a refresh.

Debian's chromium only; skipped without it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pump_until
from tests.test_web_standings import LAPTOP, NAMES, _field, tourney_screen

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


class Loads:
    """The tournament screen's reads as the page makes them: a load of a
    drawn tournament (every one here) reads ``/state``, ``/actions``, the
    room's ``/flight`` when it shares one, and last ``/breaks``; the screen
    is drawn only after that last one, so a finished ``/breaks`` read ends a
    load (counting at ``/actions`` let a test mark the screen between a
    load's log and its breaks, and the load then drew it again).
    Only the reads asked since this began watching are counted (a read on
    its way before then is neither pending nor done)."""

    READS = ("/state", "/actions", "/flight", "/breaks")

    def __init__(self, page: Any) -> None:
        self.pending: set[Any] = set()
        self.done = 0
        page.on("request", self._asked)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._finished)

    def _asked(self, req: Any) -> None:
        if req.method == "GET" and req.url.endswith(self.READS):
            self.pending.add(req)

    def _finished(self, req: Any) -> None:
        if req in self.pending:
            self.pending.discard(req)
            if req.url.endswith("/breaks"):
                self.done += 1


def _settled(page: Any, loads: Loads) -> None:
    """Until the screen's opening loads are over: the first background
    refresh (one interval after the screen opened, with nothing in it
    focused) has come and gone, and nothing is being read."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    done = loads.done
    pump_until(page, lambda: loads.done > done and not loads.pending)
    page.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the load's last step


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
    pump_until(d, lambda: loads.done >= done + 2)
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")
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
    pump_until(d, lambda: bool(held))
    # ... the tournament changes meanwhile, and the director starts typing
    live.api("POST", f"{base}/side-pools", {"pool": "Serata", "event": "main", "players": [1, 2],
                                            "entry": 500, "split": [100]})
    d.fill("#pool-name", "Jackpot")
    # the director is in the screen: no load starts now; the held one is the only read left
    pump_until(d, lambda: len(loads.pending) == 1)
    done = loads.done
    held[0].continue_()
    pump_until(d, lambda: loads.done > done and not loads.pending)
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")  # the load's last step
    assert d.evaluate("document.activeElement && document.activeElement.id") == "pool-name"
    assert d.input_value("#pool-name") == "Jackpot"
    assert d.locator("#pool-list").inner_text() == "Nessun fondo premi."

    # once the director leaves the screen, the next refresh shows the pool, and the draft stays
    d.evaluate("document.activeElement.blur()")
    until(d, "!!document.querySelector('#pool-list li[data-pool=\"Serata\"]')", 15000)
    assert d.input_value("#pool-name") == "Jackpot"
    assert pages.errors == []


def _alfa_and_beta(live: LiveServer, pages: Pages,
                   shown: str) -> tuple[Any, Loads, str, str, str]:
    """Two drawn tournaments, Alfa (``NAMES[:4]``) and Beta (the rest), and
    the screen on the one ``shown``, its opening loads over: the page, its
    loads, Alfa's path, Alfa's id and Beta's id."""
    a = _field(live, "Torneo Alfa", NAMES[:4])
    b = _field(live, "Torneo Beta", NAMES[4:])
    live.api("POST", f"{a}/draw", {"seed": 3})
    live.api("POST", f"{b}/draw", {"seed": 4})
    d = tourney_screen(live, pages, a if shown == "alfa" else b, "#pool-save")
    loads = Loads(d)
    _settled(d, loads)
    return d, loads, a, a.rsplit("/", 1)[1], b.rsplit("/", 1)[1]


def test_an_answer_for_a_tournament_no_longer_chosen_is_not_shown(
        live: LiveServer, pages: Pages) -> None:
    """The director picks tournament A, then B before A's state has come:
    A's answer, come last, is dropped, and the screen shows B under B's
    name."""
    d, loads, a, a_id, b_id = _alfa_and_beta(live, pages, "beta")
    assert NAMES[4] in d.locator("#tourney").inner_text()
    held: list[Any] = []
    # the first read of A's state is held
    d.route(f"**/api/tournaments/{a_id}/state",
            lambda route: route.continue_() if held else held.append(route))
    d.select_option("#trn-pick", a_id)
    pump_until(d, lambda: bool(held))
    d.select_option("#trn-pick", b_id)
    until(d, f"document.getElementById('tourney').innerText.includes({NAMES[4]!r})", 15000)
    done = loads.done
    held[0].continue_()
    # A's load reads its log and breaks after its state: once they are in, it is over
    pump_until(d, lambda: loads.done > done and not loads.pending)
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")
    text = d.locator("#tourney").inner_text()
    assert NAMES[4] in text and NAMES[0] not in text
    assert d.input_value("#trn-pick") == b_id
    assert pages.errors == []


def test_an_action_answered_after_another_tournament_was_chosen_shows_that_one(
        live: LiveServer, pages: Pages) -> None:
    """The director saves a side pool in A and picks B before the answer has
    come: the pool is saved in A, and the screen shows B, not A's state."""
    d, loads, a, a_id, b_id = _alfa_and_beta(live, pages, "alfa")
    held: list[Any] = []
    saved: list[Any] = []
    d.route(f"**/api/tournaments/{a_id}/side-pools", lambda route: held.append(route))
    d.on("requestfinished",
         lambda req: saved.append(req) if req.url.endswith("/side-pools") else None)
    d.fill("#pool-name", "Jackpot")
    d.fill("#pool-entry", "10")
    for pid in (1, 2):
        d.check(f"#pool-p{pid}")
    d.fill("#pool-split", "100")
    d.click("#pool-save")
    pump_until(d, lambda: bool(held))
    d.select_option("#trn-pick", b_id)
    until(d, f"document.getElementById('tourney').innerText.includes({NAMES[4]!r})", 15000)
    done = loads.done
    held[0].continue_()
    # the action reads A's log and breaks after its answer: once they are in, it is over
    pump_until(d, lambda: bool(saved) and loads.done > done and not loads.pending)
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")
    assert [p["pool"] for p in live.api("GET", f"{a}/state")["side_pools"]] == ["Jackpot"]
    text = d.locator("#tourney").inner_text()
    assert NAMES[4] in text and NAMES[0] not in text
    assert d.locator("#pool-list").inner_text() == "Nessun fondo premi."
    assert pages.errors == []


def test_a_read_lost_on_the_way_does_not_stop_the_refreshes(
        live: LiveServer, pages: Pages) -> None:
    """A background refresh waits while a read is on its way, but not for
    ever: a read whose answer was lost (the Wi-Fi dropped it) holds the
    refreshes back for 20 s at most; its answer, should it come after all,
    is dropped.  The page's clock is Playwright's, moved on by the test."""
    base = _field(live, "Lettura persa", NAMES[:4])
    live.api("POST", f"{base}/draw", {"seed": 5})
    d = pages.open(live.director_url() + "&lang=it", LAPTOP)
    d.clock.install()  # before the screen's refresh timer is set
    d.click("#btn-tourney")
    tid = base.rsplit("/", 1)[1]
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    d.select_option("#trn-pick", tid)
    d.wait_for_selector("#pool-save")
    loads = Loads(d)
    _settled(d, loads)
    held: list[Any] = []
    d.route("**/api/tournaments/*/state", lambda route: held.append(route))
    d.clock.fast_forward(3500)
    pump_until(d, lambda: len(held) == 1)
    # 14 s later the first is still away: the refresh that came due asked nothing
    d.clock.fast_forward(14000)
    d.evaluate("new Promise((ok) => requestAnimationFrame(() => ok(0)))")
    assert len(held) == 1
    # past 20 s, the next one reads again
    d.clock.fast_forward(10000)
    pump_until(d, lambda: len(held) == 2)
    live.api("POST", f"{base}/side-pools", {"pool": "Serata", "event": "main", "players": [1, 2],
                                            "entry": 500, "split": [100]})
    held[1].continue_()
    until(d, "!!document.querySelector('#pool-list li[data-pool=\"Serata\"]')", 15000)
    # the lost read's failure, come last, says nothing
    held[0].abort()
    d.evaluate("new Promise((ok) => setTimeout(ok, 0))")
    assert d.locator("#tourney .msg").inner_text() == ""
    assert pages.errors == []
