"""Nothing secret in an address (issue 32 items 4 and 5), in a browser in
Italian at 1366x768: the director's printed link opens the dashboard at an
address without the key; every printout, export and page the dashboard
offers (the table's QR and match report, the QR sheet, the wall pairings,
the standings, the draw sheets, the sheet PINs, the room's wall, the rating
list, the register's export) opens without the director's key or a table
token in its address, each page printed to PDF with the browser's footer
(its address) carries neither; a wrong key shows a page in Italian.

Debian's chromium and poppler's pdftotext only; skipped without them.
``BGCLOCK_SHOTS=docs/screenshots`` refreshes the docs' pictures.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from bgclock.server.edge.auth import DirectorAuth
from tests._web import pick_tournament

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
    pytest.mark.skipif(shutil.which("pdftotext") is None,
                       reason="pdftotext is missing (apt-get install poppler-utils)"),
]
SHOTS = os.environ.get("BGCLOCK_SHOTS")
LAPTOP = {"width": 1366, "height": 768}
NAMES = ["Giulia Bianchi", "Marco Rossi", "Luca Esposito", "Sara Romano", "Paolo Colombo",
         "Anna Ricci", "Franco Marino", "Elena Greco"]
#: The browser's default footer: the page's address (and its title above).
FOOTER = '<div style="font-size:8px;width:100%;margin:0 1cm"><span class="url"></span></div>'
HEADER = '<div style="font-size:8px;width:100%;margin:0 1cm"><span class="title"></span></div>'
#: Addresses a device opens (a table's phone, the room's screen): their
#: token is printed on purpose (the QR sheet), never a director's page.
DEVICE = re.compile(r"/(t|room)/\d+\?token=")


def _evening(live: LiveServer) -> tuple[int, int]:
    """A drawn tournament seated in a room, a clock table, a register entry."""
    tid = int(live.tournament("Coppa Roma")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    for i, name in enumerate(NAMES, 1):
        entry = live.api("POST", "/api/register", {"name": name, "club": "Roma",
                                                   "rating": 150000 - 1000 * i})
        live.api("POST", f"{base}/players", {"name": name, "register_id": entry["id"]})
        live.api("POST", f"{base}/players/{i}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 5})
    live.api("POST", f"{base}/flight", {"room": "Sala Roma", "precedence": 1, "tables": 4})
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    table = live.table(tid, players=["Giulia Bianchi", "Marco Rossi"])
    return tid, int(table["id"])


def _context(browser: Any, errors: list[str]) -> Any:
    ctx = browser.new_context(viewport=LAPTOP, locale="it-IT")
    # the QR sheet's print dialog: noted, not opened (headless)
    ctx.add_init_script("window.print = () => { window.__printed = true; };")
    ctx.on("page", lambda p: p.on("pageerror", lambda e: errors.append(str(e))))
    return ctx


def _clean(url: str, live: LiveServer) -> None:
    assert live.key not in url and "key=" not in url, url
    assert "token=" not in url or DEVICE.search(url), url


def _printed(page: Any, path: Path) -> str:
    """``page`` printed to PDF with the browser's header and footer (title,
    address), as text."""
    page.pdf(path=str(path), format="A4", display_header_footer=True,
             header_template=HEADER, footer_template=FOOTER,
             margin={"top": "1.5cm", "bottom": "1.5cm"})
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True, timeout=60)
    return out.stdout


def test_no_address_or_printout_the_director_opens_carries_the_key(
        live: LiveServer, browser: Any, tmp_path: Path) -> None:
    tid, table = _evening(live)
    session = DirectorAuth(live.key).session()
    errors: list[str] = []
    ctx = _context(browser, errors)
    d = ctx.new_page()
    first = d.goto(live.director_url() + "&lang=it")
    # the printed link: the key exchanged for the session, the address clean
    assert first.request.redirected_from is not None
    assert first.request.redirected_from.url.endswith(f"key={live.key}&lang=it")
    assert d.url == f"{live.url}/director?lang=it"
    cookie = next(c for c in ctx.cookies() if c["name"] == "bgclock_director")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["value"] == session
    assert d.evaluate("document.cookie") == ""  # HttpOnly: no script reads it

    # the dashboard works by the session: its tables live, a table's detail
    until(d, f"!!document.querySelector('[data-table=\"{table}\"]')", 15000)
    d.evaluate(f"__bgclockDesk.select({table})")
    until(d, "!!document.querySelector('img.qr') && document.querySelector('img.qr').complete "
             "&& document.querySelector('img.qr').naturalWidth > 0", 10000)
    hrefs = d.eval_on_selector_all("a[href], img[src]", "xs => xs.map(x => x.href || x.src)")
    # the tournament screen (room, desk, standings) and the register
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')", 15000)
    pick_tournament(d, str(tid))
    d.wait_for_selector("#desk-exports a")
    d.wait_for_selector("#fl-events")
    hrefs += d.eval_on_selector_all("#tourney a[href]", "xs => xs.map(x => x.href)")
    d.click("#btn-register")
    d.wait_for_selector("#reg-print")
    hrefs += d.eval_on_selector_all("#register a[href]", "xs => xs.map(x => x.href)")
    for href in hrefs:
        _clean(href, live)

    # every page the dashboard opens in a new tab, opened as the director does
    opened: list[str] = []
    for anchor in d.locator("a[target=_blank]").all():
        href = anchor.get_attribute("href") or ""
        if not anchor.is_visible() or DEVICE.search(href) or re.search(r"\.(csv|json)$", href):
            continue
        with ctx.expect_page() as popup:
            anchor.click()
        page = popup.value
        page.wait_for_load_state()
        _clean(page.url, live)
        text = _printed(page, tmp_path / f"p{len(opened)}.pdf")
        assert live.key not in text and session not in text, page.url
        assert page.url.split("?")[0].removeprefix(live.url) in text.replace("\n", "")
        opened.append(page.url.removeprefix(live.url).split("?")[0])
        page.close()
    base = f"/api/tournaments/{tid}"
    for printout in (f"{base}/flight/pairings.html", f"{base}/standings.html",
                     f"{base}/pairings.html", f"{base}/draw/main.html",
                     f"{base}/draw/consolation.html", f"{base}/sheet-pins",
                     "/api/register/ratings.html", f"/api/tables/{table}/report.html"):
        assert printout in opened, (printout, opened)
    # the exports (downloads): by the session too, their addresses clean
    for href in hrefs:
        if re.search(r"\.(csv|json)(\?|$)", href) and not DEVICE.search(href):
            got = ctx.request.get(href)
            assert got.status == 200, href
            assert live.key not in got.text()

    # the QR sheet, printed from the dashboard itself: the tables' own links
    # (a phone opens its table by them), never the director's key
    d.click("#btn-print")
    until(d, "window.__printed === true", 5000)
    d.emulate_media(media="print")
    sheet = _printed(d, tmp_path / "qr.pdf")
    assert f"/t/{table}?token=" in sheet.replace("\n", "")
    assert live.key not in sheet and session not in sheet
    assert f"{live.url}/director?lang=it" in sheet.replace("\n", "")
    ctx.close()
    assert not errors, errors


def test_a_wrong_key_shows_a_page_in_the_browsers_language(
        live: LiveServer, browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    ctx = _context(browser, errors)
    page = ctx.new_page()
    answer = page.goto(f"{live.url}/director?key=non-la-chiave")
    assert answer.status == 401
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.locator("h1").inner_text() == "Le pagine del direttore"
    assert page.locator("#why").inner_text().startswith("Questa chiave non apre")
    assert "Apri il link del direttore" in page.locator("#todo").inner_text()
    assert not [c for c in ctx.cookies() if c["name"] == "bgclock_director"]
    page.screenshot(path=str(tmp_path / "wrong-key.png"))
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/director-wrong-key-1366x768-it.png")
    # no key at all: the same page, saying the browser holds none
    page.goto(f"{live.url}/director")
    assert page.locator("#why").get_attribute("data-why") == "missing"
    english = browser.new_context(viewport=LAPTOP, locale="en-GB")
    other = english.new_page()
    other.goto(f"{live.url}/director?key=not-the-key")
    assert other.locator("h1").inner_text() == "The director's pages"
    english.close()
    ctx.close()
    assert not errors, errors


def test_the_printed_link_followed_from_another_sites_page_opens_the_dashboard(
        live: LiveServer, browser: Any) -> None:
    """Why the cookie is SameSite=Lax (docs/architecture.md, "The director's
    session"): the link clicked in another site's page (a webmail, a chat)
    is a cross-site navigation, and a Strict cookie set by its answer would
    not go with the 303 that follows."""
    ctx = browser.new_context(viewport=LAPTOP, locale="it-IT")
    page = ctx.new_page()
    page.goto(live.url.replace("127.0.0.1", "localhost") + "/")  # another site
    page.evaluate("""url => { const a = document.createElement('a');
        a.href = url; a.id = 'go'; a.textContent = 'go'; document.body.append(a); }""",
                  live.director_url())
    with page.expect_navigation():
        page.click("#go")
    assert page.url == f"{live.url}/director"
    until(page, "document.getElementById('conn').dataset.status === 'online'", 15000)
    assert page.locator("#fatal").is_hidden()
    ctx.close()
