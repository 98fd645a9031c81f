"""The dashboard suggests the ruling on a dispute from the position the director types.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until
from bgclock.board import Position, position_id
from tests._web import settle

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

# Ann (A, on roll) bears off her last two checkers with any roll; Bob has all 15
# on his 6 point: the gammon is certain.
GIN_GAMMON = position_id(Position.from_points({1: 2}, {6: 15}))


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


def open_page(browser: Any, url: str, errors: list[str], viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def wait(page: Any, cond: str) -> None:
    until(page, f"(() => {{ const s = window.__bgclock && __bgclock.app.state; "
                f"return !!s && ({cond}); }})()", 5000)


def test_the_director_types_the_position_sees_the_ruling_and_applies_it(
        live: LiveServer, browser: Any) -> None:
    # biba-2014 Time Expiration: Ann, at match point (4-0 to 5), flags; Bob can no
    # longer save the gammon: gin
    table = live.table(name="Table 4", rules="biba-2014", length=5, score=[4, 0],
                       players=["Ann", "Bob"], clock={"reserve_ms": 0, "delay_ms": 300})
    tid = table["id"]
    errors: list[str] = []
    d = open_page(browser, live.director_url(), errors, {"width": 1280, "height": 900})
    clock = open_page(browser, LiveServer.table_url(table, live.url), errors,
                      {"width": 412, "height": 915})
    wait(clock, "s.phase !== undefined")
    clock.click("#center .dice[data-die='A'] .die[data-n='6']")
    clock.click("#center .dice[data-die='B'] .die[data-n='1']")
    clock.click("#roll-start")
    wait(clock, "s.phase === 'dispute'")
    d.wait_for_selector(f".alert[data-table='{tid}']")
    d.click(f".card[data-table='{tid}']")
    d.wait_for_selector("#sugg-position")
    assert "A · Ann" in d.locator("#suggest").inner_text()  # the side on roll
    # a position that cannot be read is refused in words
    d.fill("#sugg-position", "not-a-position")
    d.click("[data-act='suggest']")
    assert "Position ID" in d.wait_for_selector("#suggestion .err").inner_text()
    d.fill("#sugg-position", GIN_GAMMON)
    d.click("[data-act='suggest']")
    ruling = d.wait_for_selector("#suggestion .sugg-ruling")
    assert ruling.inner_text() == "gin: Ann keeps the match, 6–0"
    assert "can no longer avoid" in d.locator("#suggestion .sugg-reason").inner_text()
    assert "BIBA" in d.locator("#suggestion .sugg-clause").inner_text()
    # a suggestion only: nothing applied until the director confirms
    assert [e["event"]["do"] for e in live.api("GET", f"/api/tables/{tid}/log.json")["events"]
            ] == ["opening_roll"]
    d.click("[data-act='apply-suggestion']")
    assert "gin: Ann keeps the match, 6–0" in d.locator("#dlg-confirm").inner_text()
    d.click("#dlg-confirm [data-act='confirm']")
    wait(clock, "s.phase === 'match_over' && s.winner === 'A' && s.score[0] === 6")
    clock.wait_for_selector("#half-A.winner")
    d.wait_for_selector("#suggest", state="detached")
    (last,) = live.api("GET", f"/api/tables/{tid}/log.json")["events"][-1:]
    assert last["event"] == {**last["event"], "do": "ruling", "decision": "gin",
                             "result": "gammon"}
    assert last["source"] == "director"
    assert not errors, errors


def test_unknown_says_the_director_rules_by_eye(live: LiveServer, browser: Any) -> None:
    # usbgf-2013: Ann concedes a gammon, Bob rejects. The dashboard asks with the
    # default node budget, so the endpoint's answer is stubbed with the one it
    # gives when the search gives up (tests/test_server_adjudicate.py makes it)
    table = live.table(name="Table 5", length=7, players=["Ann", "Bob"])
    tid = table["id"]
    errors: list[str] = []
    d = open_page(browser, live.director_url() + "&lang=it", errors,
                  {"width": 1280, "height": 900})
    clock = open_page(browser, LiveServer.table_url(table, live.url), errors,
                      {"width": 412, "height": 915})
    wait(clock, "s.phase !== undefined")
    clock.click("#center .dice[data-die='A'] .die[data-n='6']")
    clock.click("#center .dice[data-die='B'] .die[data-n='1']")
    clock.click("#roll-start")
    wait(clock, "s.on_turn === 'A'")
    clock.click("#half-A .more")
    settle(clock)
    clock.click("#half-A [data-act='concede']")
    settle(clock)
    clock.click("#half-A [data-act='concede-gammon']")
    settle(clock)
    clock.click("#half-A [data-act='confirm']")
    wait(clock, "s.phase === 'offer'")
    clock.click("#half-B [data-act='reject']")
    settle(clock)
    clock.click("#half-B [data-act='confirm']")
    wait(clock, "s.phase === 'dispute'")
    d.route(f"**/api/tables/{tid}/adjudicate", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"decision": null, "result": null, "ruling": "unknown", "reason": "the search '
             'gave up", "clause": "USBGF 2013 5.1", "on_roll": "A", "seq": 3, "command": null}'))
    d.click(f".card[data-table='{tid}']")
    d.fill("#sugg-position", "4HPwATDgc/ABMA")
    d.click("[data-act='suggest']")
    assert "decidi a vista" in d.wait_for_selector("#suggestion .sugg-ruling").inner_text()
    assert d.locator("[data-act='apply-suggestion']").count() == 0
    assert d.locator("[data-act='ruling-accept']").count() == 1  # rule by eye
    assert not errors, errors
