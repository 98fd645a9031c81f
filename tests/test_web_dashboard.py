"""The director's dashboard during play: confirmations that a double-click cannot
confirm, the detail that closes, and the dashboard's newer screens.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
    pytest.mark.flaky(reruns=2, reruns_delay=1),
]
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 412, "height": 915}


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


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(url: str, viewport: dict[str, int]) -> Any:
        ctx = browser.new_context(viewport=viewport)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def wait(page: Any, cond: str) -> None:
    page.wait_for_function(
        f"(() => {{ const s = window.BGTable && BGTable.app.state; return !!s && ({cond}); }})()",
        timeout=5000)


def events(live: LiveServer, tid: int) -> list[dict[str, Any]]:
    return list(live.api("GET", f"/api/tables/{tid}/log.json")["events"])


def expired(live: LiveServer, pages: Any) -> tuple[Any, Any, int]:
    """biba-2014, Ann (A) at match point flags after the opening roll: a dispute."""
    table = live.table(name="Table 3", rules="biba-2014", length=5, score=[4, 0],
                       players=["Ann", "Bob"], clock={"reserve_ms": 0, "delay_ms": 300})
    tid = table["id"]
    d = pages(live.director_url(), WIDE)
    clock = pages(LiveServer.table_url(table, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    clock.click("#center .dice[data-die='A'] .die[data-n='6']")
    clock.click("#center .dice[data-die='B'] .die[data-n='1']")
    clock.click("#roll-start")
    wait(clock, "s.phase === 'dispute'")
    d.click(f".card[data-table='{tid}']")
    d.wait_for_selector("[data-act='ruling-lost']")
    return d, clock, tid


def test_a_double_click_never_confirms_and_one_ruling_is_sent_once(
        live: LiveServer, pages: Any) -> None:
    d, clock, tid = expired(live, pages)
    # a double-click on the opener: the dialog opens, nothing is sent
    d.dblclick("[data-act='ruling-lost']")
    d.wait_for_selector("#dlg-confirm[open]")
    opener = d.locator("[data-act='ruling-lost']").bounding_box()
    ok = d.locator("#dlg-confirm [data-act='confirm']").bounding_box()
    assert opener is not None and ok is not None
    apart = (ok["y"] >= opener["y"] + opener["height"] or opener["y"] >= ok["y"] + ok["height"]
             or ok["x"] >= opener["x"] + opener["width"] or opener["x"] >= ok["x"] + ok["width"])
    assert apart, (opener, ok)
    d.click("#dlg-confirm [data-act='cancel']")
    # the opener and the confirm button clicked in one go: the confirmation is deaf
    d.evaluate("""() => {
        document.querySelector("[data-act='ruling-lost']").click();
        document.querySelector("#dlg-confirm [data-act='confirm']").click();
    }""")
    assert d.locator("#dlg-confirm[open]").count() == 1
    time.sleep(0.3)  # a ruling sent by mistake would be in the log by now
    assert [e["event"]["do"] for e in events(live, tid)] == ["opening_roll"]
    # a double-click on Confirm (once it listens) sends the ruling once
    d.wait_for_selector("#dlg-confirm [data-act='confirm']:not([disabled])")
    d.dblclick("#dlg-confirm [data-act='confirm']")
    wait(clock, "s.phase === 'match_over'")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")
    time.sleep(0.3)
    assert [e["event"]["do"] for e in events(live, tid)] == ["opening_roll", "ruling"]


def test_the_detail_closes_with_its_button_and_with_esc(live: LiveServer, pages: Any) -> None:
    table = live.table(name="Table 9", players=["Cleo", "Dan"])
    d = pages(live.director_url(), WIDE)
    d.click(f".card[data-table='{table['id']}']")
    d.wait_for_selector("#detail:not([hidden])")
    d.click("[data-act='close-detail']")
    d.wait_for_selector("#detail", state="hidden")
    d.click(f".card[data-table='{table['id']}']")
    d.wait_for_selector("#detail:not([hidden])")
    d.keyboard.press("Escape")
    d.wait_for_selector("#detail", state="hidden")
    # Esc in a confirmation closes the dialog only
    d.click(f".card[data-table='{table['id']}']")
    d.click("[data-act='late_start-A']")
    d.wait_for_selector("#dlg-confirm[open]")
    d.keyboard.press("Escape")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")
    assert d.locator("#detail:not([hidden])").count() == 1
