"""A director's double click sends a request once, in Italian at 1366×768:
"Crea" in the "+ Torneo" and "+ Tavolo" forms made two tournaments or two
tables; "Salva" on a new entry of the register sent it twice (the second
refused as a duplicate, so the director saw only an error although the save
worked); "Importa" imported twice ("0 aggiunti, 2 aggiornati" for two rows
just added).  Each request is held on its way (``page.route``) while the
button is clicked twice (and Enter pressed, in the forms), then let go; and
after a request that fails (a 500, or the network) the button works again.

Every ``fetch`` the page makes is counted by a script run before its own, so
"sent once" is read from the page as soon as the clicks are dispatched.
Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pump_until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
DESK = {"width": 1366, "height": 768}
#: Each fetch the page makes, as "METHOD /path", in ``window.__sent``.
COUNT = """
window.__sent = [];
const fetched = window.fetch.bind(window);
window.fetch = (input, init) => {
  const path = new URL(String(input), location.href).pathname;
  window.__sent.push(((init && init.method) || "GET") + " " + path);
  return fetched(input, init);
};
"""
#: A refusal the server never gives, answered once in place of the real one.
BOOM = {"error": "internal", "message": "errore di prova"}


def _sent(d: Any, what: str) -> int:
    return int(d.evaluate(f"window.__sent.filter((s) => s === {what!r}).length"))


class Hold:
    """A route for the requests of ``method`` to ``url``: each one held
    (``held``) until let go, or, once ``fail_next`` is set, the next one
    answered 500 (``"500"``) or dropped as by the network (``"abort"``);
    the page's other requests go through."""

    def __init__(self, d: Any, url: str | Callable[[str], bool], method: str = "POST") -> None:
        self.held: list[Any] = []
        self.hold = True
        self.fail_next = ""
        self.method = method
        d.route(url, self._handle)

    def _handle(self, route: Any) -> None:
        if route.request.method != self.method:
            route.continue_()
        elif self.fail_next == "500":
            self.fail_next = ""
            route.fulfill(status=500, json=BOOM)
        elif self.fail_next == "abort":
            self.fail_next = ""
            route.abort("failed")
        elif self.hold:
            self.held.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        """Let every held request go, and the later ones through."""
        self.hold = False
        while self.held:
            self.held.pop(0).continue_()


def _director(live: LiveServer, pages: Pages) -> Any:
    d = pages.open(live.director_url() + "&lang=it", DESK, init=COUNT)
    until(d, "document.getElementById('btn-new-tournament').textContent === '+ Torneo'")
    return d


def _sent_once_then_released(d: Any, hold: Hold, button: str, sent: str) -> None:
    """The clicks on ``button`` made while its request is held: sent once,
    the button disabled meanwhile; then the request is let go."""
    pump_until(d, lambda: bool(hold.held))
    assert _sent(d, sent) == 1
    assert d.locator(button).is_disabled()
    hold.release()


def _named(live: LiveServer, name: str) -> int:
    return sum(1 for tn in live.api("GET", "/api/tournaments")["tournaments"] if tn["name"] == name)


def test_a_double_click_on_create_makes_one_tournament(live: LiveServer, pages: Pages) -> None:
    d = _director(live, pages)
    hold = Hold(d, "**/api/tournaments")
    create = "#form-tournament button[type=submit]"
    d.click("#btn-new-tournament")
    d.fill("#tn-name", "Coppa Doppio Clic")
    d.dblclick(create)
    d.press("#tn-name", "Enter")  # Enter while the request is on its way
    _sent_once_then_released(d, hold, create, "POST /api/tournaments")
    until(d, "!document.getElementById('dlg-tournament').open")
    until(d, f"!document.querySelector({create!r}).disabled")
    assert _named(live, "Coppa Doppio Clic") == 1
    assert _sent(d, "POST /api/tournaments") == 1
    # a request that fails: the message says why, and Crea works again
    hold.fail_next = "500"
    d.click("#btn-new-tournament")
    d.fill("#tn-name", "Coppa Dopo l'Errore")
    d.click(create)
    until(d, "document.getElementById('tn-msg').textContent === 'errore di prova'")
    assert not d.locator(create).is_disabled()
    d.click(create)
    until(d, "!document.getElementById('dlg-tournament').open")
    assert _named(live, "Coppa Dopo l'Errore") == 1
    assert _sent(d, "POST /api/tournaments") == 3
    assert pages.errors == []


def test_a_double_click_on_create_makes_one_table(live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa dei Tavoli")["id"])
    d = _director(live, pages)
    until(d, f"!!__bgclockDesk.app.tournaments[{tid}]")
    hold = Hold(d, f"**/api/tournaments/{tid}/tables")
    d.click("#btn-new-table")
    d.select_option("#tb-tournament", str(tid))
    d.fill("#tb-name", "Tavolo Doppio")
    d.fill("#tb-a", "Ada")
    d.fill("#tb-b", "Bea")
    d.dblclick("#tb-submit")
    d.press("#tb-name", "Enter")  # Enter while the request is on its way
    _sent_once_then_released(d, hold, "#tb-submit", f"POST /api/tournaments/{tid}/tables")
    until(d, "!document.getElementById('dlg-table').open")
    until(d, "!document.getElementById('tb-submit').disabled")
    tables = live.api("GET", f"/api/tournaments/{tid}")["tables"]
    assert [tb["name"] for tb in tables] == ["Tavolo Doppio"]
    # the network fails: the message says so, and Crea works again
    hold.fail_next = "abort"
    d.click("#btn-new-table")
    d.select_option("#tb-tournament", str(tid))
    d.fill("#tb-name", "Tavolo Dopo l'Errore")
    d.click("#tb-submit")
    until(d, "document.getElementById('tb-msg').className === 'msg err'"
             " && document.getElementById('tb-msg').textContent !== ''")
    assert not d.locator("#tb-submit").is_disabled()
    d.click("#tb-submit")
    until(d, "!document.getElementById('dlg-table').open")
    tables = live.api("GET", f"/api/tournaments/{tid}")["tables"]
    assert sorted(tb["name"] for tb in tables) == sorted(["Tavolo Doppio", "Tavolo Dopo l'Errore"])
    assert _sent(d, f"POST /api/tournaments/{tid}/tables") == 3
    assert pages.errors == []


def _register(live: LiveServer, pages: Pages) -> Any:
    """The register screen, once its first reads are shown (a tournament is
    chosen for it: the last one listed), so that no answer still to come
    builds its form again under the test's typing."""
    live.tournament("Coppa del Registro")
    d = _director(live, pages)
    until(d, "document.getElementById('btn-register').textContent === 'Registro'")
    d.click("#btn-register")
    d.wait_for_selector("#reg-pick option[selected]", state="attached")
    return d


def _message(d: Any, text: str) -> None:
    until(d, f"(document.getElementById('reg-msg') || {{}}).textContent === {text!r}")


def _entries(live: LiveServer, name: str) -> list[str]:
    found = live.api("GET", "/api/register?limit=50&q=" + urllib.parse.quote(name))["entries"]
    return [e["name"] for e in found]


def test_a_double_click_on_save_adds_one_register_entry(live: LiveServer, pages: Pages) -> None:
    d = _register(live, pages)
    hold = Hold(d, lambda url: urllib.parse.urlsplit(url).path == "/api/register")
    d.fill("#reg-name", "Ada Doppia")
    d.dblclick("#reg-save")
    _sent_once_then_released(d, hold, "#reg-save", "POST /api/register")
    _message(d, "Fatto.")
    until(d, "!document.getElementById('reg-save').disabled")
    assert "err" not in (d.get_attribute("#reg-msg", "class") or "")
    assert _entries(live, "Ada Doppia") == ["Ada Doppia"]
    assert _sent(d, "POST /api/register") == 1
    # a save that fails: the message says why, what was typed stays, Salva works again
    hold.fail_next = "500"
    d.fill("#reg-name", "Bice Doppia")
    d.click("#reg-save")
    _message(d, "errore di prova")
    assert not d.locator("#reg-save").is_disabled()
    assert d.input_value("#reg-name") == "Bice Doppia"
    d.click("#reg-save")
    _message(d, "Fatto.")
    assert _entries(live, "Bice Doppia") == ["Bice Doppia"]
    assert _sent(d, "POST /api/register") == 3
    assert pages.errors == []


def test_a_double_click_on_import_imports_once(live: LiveServer, pages: Pages) -> None:
    d = _register(live, pages)
    hold = Hold(d, "**/api/register.csv")
    d.fill("#reg-csv", "name,federation_id\nCarlo Import,FIBT901\nDina Import,FIBT902\n")
    d.dblclick("#reg-import")
    _sent_once_then_released(d, hold, "#reg-import", "POST /api/register.csv")
    _message(d, "Importati: 2 aggiunti, 0 aggiornati.")
    until(d, "!document.getElementById('reg-import').disabled")
    assert _entries(live, "Import") == ["Carlo Import", "Dina Import"]
    assert _sent(d, "POST /api/register.csv") == 1
    # the network fails: the message says so, the rows stay, Importa works again
    hold.fail_next = "abort"
    rows = "name,federation_id\nElio Import,FIBT903\nFede Import,FIBT904\n"
    d.fill("#reg-csv", rows)
    d.click("#reg-import")
    until(d, "document.getElementById('reg-msg').className === 'msg err'")
    assert not d.locator("#reg-import").is_disabled()
    assert d.input_value("#reg-csv") == rows
    d.click("#reg-import")
    _message(d, "Importati: 2 aggiunti, 0 aggiornati.")
    assert _entries(live, "Import") == ["Carlo Import", "Dina Import", "Elio Import", "Fede Import"]
    assert _sent(d, "POST /api/register.csv") == 3
    assert pages.errors == []
