"""The public page and a player's own page in a browser (issue 37 §1, §2):
Italian on a phone at 360x640, axe-clean, a result pushed without a reload,
the name search leading to the player's page, printed to PDF, the wall
sheet's QR code, and the page taken down while it is open.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages
from tests.test_web_table import AXE, axe

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")]

#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")
PHONE = {"width": 360, "height": 640}
NAMES = ["Giulia Bianchi", "Marco Rossi", "Luca Esposito", "Sara Romano", "Paolo Colombo",
         "Anna Ricci", "Franco Marino", "Elena Greco"]


def _shot(page: Any, name: str, tmp_path: Path) -> None:
    page.screenshot(path=str(tmp_path / name), full_page=True)
    if SHOTS:
        shutil.copy(tmp_path / name, f"{SHOTS}/{name}")


def _event(live: LiveServer) -> tuple[str, int, dict[str, Any]]:
    """Eight players, round 1 at its tables with clocks, one result in,
    prizes set, and the tournament made public."""
    tid = int(live.tournament("Coppa Roma")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 5, "rules": "usbgf-2013-delay", "clock": "required"}], "seed": 5})
    for i, n in enumerate(NAMES, 1):
        live.api("POST", f"{base}/players", {"name": n})
        live.api("POST", f"{base}/players/{i}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 5})
    state = live.api("POST", f"{base}/rounds", {"round": 0})["state"]
    m0 = state["matches"][0]
    live.api("POST", f"{base}/results", {"round": 0, "match": 0, "winner": m0["a"],
                                         "score": [5, 2]})
    live.api("POST", f"{base}/prizes", {"event": "main", "prizes": ["200 €", "100 €"]})
    up = live.api("PATCH", f"/api/tournaments/{tid}", {"public": True})
    return base, tid, up["state"]


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"))


def test_the_public_page_on_a_phone_in_italian(live: LiveServer, pages: Pages,
                                               tmp_path: Path) -> None:
    base, tid, state = _event(live)
    url = state["public_url"]
    assert url == f"{live.url}/p/{tid}"
    page = pages.open(url + "?lang=it", PHONE)
    until(page, "document.body.dataset.ready === '1'")
    until(page, "Number(document.body.dataset.pushed || 0) >= 1")
    assert page.locator("h1").inner_text() == "Coppa Roma"
    assert page.locator("#h-tables").inner_text() == "Ai tavoli ora"
    assert page.locator("#h-standings").inner_text() == "Classifica e premi"
    assert page.locator("#pub-tables tbody tr").count() == 3  # match 1 is decided
    assert page.locator("#pub-results li").count() == 1
    assert _fits(page)
    _shot(page, "public-360x640-it.png", tmp_path)
    if AXE.exists():
        assert axe(page) == []

    # a result entered at the desk reaches the open page, pushed, without a reload
    page.evaluate("window.__notReloaded = true")
    pushed = page.evaluate("Number(document.body.dataset.pushed)")
    m1 = state["matches"][1]
    live.api("POST", f"{base}/results", {"round": 0, "match": 1, "winner": m1["b"],
                                         "score": [1, 5]})
    until(page, f"Number(document.body.dataset.pushed) > {pushed}")
    until(page, "document.querySelectorAll('#pub-results li').length === 2")
    assert page.evaluate("window.__notReloaded === true")
    assert page.locator("#pub-tables tbody tr").count() == 2

    # printed: the whole page on A4
    pdf = tmp_path / "public.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf),
                        str(tmp_path / "print")], check=True, timeout=60)
        made = sorted(tmp_path.glob("print-*.png"))
        assert made
        if SHOTS:
            shutil.copy(made[0], f"{SHOTS}/public-a4-it-page1.png")

    # the name search leads to the player's own page
    winner = m1["b"]
    page.fill("#pub-search", winner.split()[0][:4].lower())
    until(page, "document.querySelectorAll('#pub-found a').length >= 1")
    page.locator("#pub-found a", has_text=winner).click()
    until(page, "document.body.dataset.ready === '1' && "
                "document.querySelector('h1').textContent !== 'Coppa Roma'")
    assert page.locator("h1").inner_text() == winner
    assert "/player/" in page.url
    assert page.locator("#h-next").inner_text() == "Prossima partita"
    assert page.locator("#pub-mine li").all_inner_texts()[0].startswith(
        f"ha battuto {m1['a']} 5–1")
    assert _fits(page)
    _shot(page, "public-player-360x640-it.png", tmp_path)
    if AXE.exists():
        assert axe(page) == []


def test_a_players_page_follows_the_evening_and_the_page_comes_down(
        live: LiveServer, pages: Pages, tmp_path: Path) -> None:
    base, tid, state = _event(live)
    seated = state["matches"][2]
    pid = next(p["id"] for p in state["players"] if p["name"] == seated["a"])
    page = pages.open(f"{state['public_url']}/player/{pid}?lang=it", PHONE)
    until(page, "document.body.dataset.ready === '1'")
    card = page.locator("#pub-next").inner_text()
    assert f"Tavolo {seated['table']}" in card and f"contro {seated['b']}" in card
    # the player wins at the table: the page moves on to the next round
    live.api("POST", f"{base}/results", {"round": 0, "match": 2, "winner": seated["a"],
                                         "score": [5, 0]})
    until(page, "document.querySelector('#pub-next').textContent.includes('Turno 2')")
    until(page, "document.querySelectorAll('#pub-mine li').length === 1")
    assert "ha battuto" in page.locator("#pub-mine").inner_text()
    # taken down: the open page says so, and its address answers 404
    live.api("PATCH", f"/api/tournaments/{tid}", {"public": False})
    until(page, "!document.getElementById('pub-error').hidden", 10000)
    assert page.locator("#pub-error").inner_text() == "La pagina di questo torneo non è pubblica."
    assert page.locator("#v-player").is_hidden()
    pages.errors.clear()  # the 404 of the data read is the point, not a page error


def test_the_wall_sheet_carries_the_public_pages_qr_code(live: LiveServer, pages: Pages,
                                                         tmp_path: Path) -> None:
    base, tid, state = _event(live)
    wall = pages.open(f"{live.url}{base}/pairings.html?lang=it&key={live.key}",
                      {"width": 1366, "height": 768})
    wall.wait_for_selector("#by-name")
    assert wall.locator(".qr svg[role=img]").count() == 1
    assert wall.locator(".qr figcaption span").inner_text() == state["public_url"]
    _shot(wall, "pairings-qr-1366x768-it.png", tmp_path)
    if AXE.exists():
        assert axe(wall) == []
    live.api("PATCH", f"/api/tournaments/{tid}", {"public": False})
    wall.reload()
    wall.wait_for_selector("#by-name")
    assert wall.locator(".qr").count() == 0


def test_the_published_page_on_the_hosted_server(pages: Pages, tmp_path: Path) -> None:
    """issue 37 §3: a venue publishes; the hosted server's /p/{club}/{id} is
    the same page, in Italian on a phone, its player links under the club."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from bench.web_kit import running_server
    from bgclock.server.edge.named_keys import PUBLISHING, add_key
    from bgclock.store.connect import open_store

    hosted_db = tmp_path / "hosted.db"

    async def make_key() -> str:
        store = open_store(str(hosted_db))
        await store.open()
        try:
            return await add_key(store, PUBLISHING, "roma")
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        key = pool.submit(asyncio.run, make_key()).result()
    with running_server(hosted_db) as hosted, running_server(
            tmp_path / "venue.db", publish_to=hosted.url, publish_key=key) as venue:
        _, tid, state = _event(venue)
        assert state["public_url"] == f"{hosted.url}/p/roma/{tid}"
        _published(state["public_url"] + ".json")
        page = pages.open(state["public_url"] + "?lang=it", PHONE)
        until(page, "document.body.dataset.ready === '1'")
        assert page.locator("h1").inner_text() == "Coppa Roma"
        assert page.locator("#pub-tables tbody tr").count() == 3
        assert page.locator("#pub-results li").count() == 1
        assert _fits(page)
        link = page.locator("#pub-players a").first.get_attribute("href") or ""
        assert link.startswith(f"/p/roma/{tid}/player/"), link
        if AXE.exists():
            assert axe(page) == []
        page.close()  # its stream would hold the hosted server's stop


def _published(url: str) -> None:
    """Wait until the hosted server has the publication with its first result."""
    import json
    import time
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                if len(json.loads(r.read())["results"]) == 2:
                    return
        except urllib.error.HTTPError:
            pass
        assert time.monotonic() < deadline, f"never published: {url}"
        time.sleep(0.1)
