"""The dashboard's tournament and register screens in Italian: on a 360x640
phone nothing runs off the right edge (the page never scrolls sideways: a
finished tournament's prize lists and history, the register's list with its
buttons); the register's refusals (a CSV import, a duplicate name, a rating
the page cannot read) in Italian from their codes, not the server's English;
the score-sheet form's "director" and the screens' names for screen readers
in the page's language; a tournament made on one dashboard shows in another
dashboard's open tournament picker, its choice kept.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages, pick_tournament
from tests.test_web_standings import NAMES, _field, _play_out

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
PHONE = {"width": 360, "height": 640}
DESK = {"width": 1366, "height": 768}

#: Whether the page scrolls sideways, and every button drawn past the right
#: edge of the screen (in a box that scrolls or not) in the screen ``sel``.
WIDTH = """(sel) => {
  const w = document.documentElement.clientWidth;
  const past = [...document.querySelectorAll(sel + " button")]
    .filter((b) => b.getClientRects().length && b.getBoundingClientRect().right > w + 0.5)
    .map((b) => b.textContent + " " + Math.round(b.getBoundingClientRect().right));
  return {page: document.documentElement.scrollWidth, root: document.querySelector(sel).scrollWidth,
          width: w, past: past};
}"""


def _import_csv(live: LiveServer, text: str) -> None:
    req = urllib.request.Request(live.url + "/api/register.csv", data=text.encode(), method="POST")
    req.add_header("Authorization", f"Bearer {live.key}")
    req.add_header("Content-Type", "text/csv")
    with urllib.request.urlopen(req, timeout=10) as r:
        r.read()


def _fits(d: Any, sel: str) -> None:
    got = d.evaluate(WIDTH, sel)
    assert got["width"] == PHONE["width"], got
    assert got["page"] <= PHONE["width"] and got["root"] <= PHONE["width"], got
    assert got["past"] == [], got


def _english_left(d: Any, sel: str, prefixes: str) -> list[str]:
    """The English catalogue's phrases (keys matching ``prefixes``, those
    whose Italian differs) found in the screen ``sel``."""
    return list(d.evaluate(r"""([sel, prefixes]) => {
        const S = __bgclockDesk.i18n.STRINGS, en = S.en, it = S.it;
        const text = document.querySelector(sel).innerText;
        const found = [];
        for (const k of Object.keys(en)) {
          if (!new RegExp("^(" + prefixes + ")\\.").test(k) || en[k] === it[k]) continue;
          for (const part of en[k].split(/\{\w+\}/)) {
            const p = part.trim().replace(/[.:?,()“”]+$/, "");
            if (p.length >= 6 && p.includes(" ") && text.includes(p)) found.push(k + ": " + p);
          }
        }
        return found;
    }""", [sel, prefixes]))


def _message(d: Any, text: str) -> None:
    # the import's answer on a loaded machine: a bound against a hang
    until(d, f"(document.getElementById('reg-msg') || {{}}).textContent === {text!r}", 30000)


def test_a_finished_tournament_and_the_register_fit_a_360_px_phone_in_italian(
        live: LiveServer, pages: Pages) -> None:
    base = _field(live, "Coppa del Telefono", NAMES)
    _play_out(live, base)
    live.api("POST", f"{base}/prizes", {"event": "main", "prizes": ["€ 200 e coppa", "€ 100"]})
    tid = base.rsplit("/", 1)[1]
    _import_csv(live, "name,federation_id,club,rating,experience\n" + "".join(
        f"{n},FIBT{k},Circolo Roma,{1600 - k},{100 * k}\n" for k, n in enumerate(NAMES)))
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    _fits(d, "body")  # the main dashboard fitted before, and still does
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, tid)
    d.wait_for_selector("#trn-history button[data-undo]")
    d.wait_for_selector("#st-prizes-consolation")
    d.wait_for_selector("#st-prizes-save >> text=Salva i premi")
    _fits(d, "#tourney")
    # the undo of the newest result is on screen, its row's words above it
    undo = d.locator("#trn-history button[data-undo]").first
    undo.scroll_into_view_if_needed()
    box = undo.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    d.click("#btn-tourney")
    d.click("#btn-register")
    until(d, f"!!document.querySelector('#reg-pick option[value=\"{tid}\"]')")
    d.select_option("#reg-pick", tid)
    d.wait_for_selector("table.reg-list button[data-entry]")
    until(d, "document.querySelectorAll('table.reg-list tbody tr').length >= 8")
    _fits(d, "#register")
    # a player's history (a table of its own) fits too
    d.locator("table.reg-list tbody tr").first.locator("button", has_text="Storico").click()
    d.wait_for_selector("#reg-history")
    _fits(d, "#register")
    assert pages.errors == []


def test_the_register_s_refusals_are_said_in_italian(live: LiveServer, pages: Pages) -> None:
    ugo = live.api("POST", "/api/register", {"name": "Ugo Tognazzi"})
    d = pages.open(live.director_url() + "&lang=it", DESK)
    until(d, "document.getElementById('btn-register').textContent === 'Registro'")
    d.click("#btn-register")
    d.wait_for_selector("#reg-import")
    # a CSV row the server refuses: its row and field, in Italian
    d.fill("#reg-csv", "name,rating\nEva,mille\n")
    d.click("#reg-import")
    _message(d, "Riga 2: rating: scrivi un rating da -10000,00 a 10000,00, come 1500 o 1522,36.")
    assert d.get_attribute("#reg-msg", "class") == "msg err"
    assert d.input_value("#reg-csv") == "name,rating\nEva,mille\n"  # kept, to correct
    # a column the register does not have
    d.fill("#reg-csv", "name,città\nEva,Roma\n")
    d.click("#reg-import")
    _message(d, "Riga 1: colonna sconosciuta «città» "
                "(le colonne: id, name, federation_id, club, rating, experience).")
    # the same name saved again, without a federation id
    d.fill("#reg-name", "Ugo Tognazzi")
    d.click("#reg-save")
    _message(d, f"Ugo Tognazzi è già nel registro come Ugo Tognazzi (n. {ugo['id']}): "
                "indica una tessera per distinguere due persone.")
    assert d.input_value("#reg-name") == "Ugo Tognazzi"
    # the same federation id as another entry
    live.api("POST", "/api/register", {"name": "Vittorio Gassman", "federation_id": "FIBT9"})
    d.fill("#reg-name", "Alberto Sordi")
    d.fill("#reg-fed", "FIBT9")
    d.click("#reg-save")
    until(d, "document.getElementById('reg-msg').textContent.startsWith('La tessera FIBT9 è già')")
    # a rating the page cannot read is said before anything is sent
    d.fill("#reg-fed", "")
    d.fill("#reg-rating", "mille")
    d.click("#reg-save")
    _message(d, "Rating: scrivi un rating da -10000 a 10000, come 1500 o 1522,36.")
    assert live.api("GET", "/api/register?q=Sordi")["total"] == 0
    text = d.locator("#register").inner_text()
    for english in ("must be a rating", "is already in the register", "unknown column"):
        assert english not in text, text
    assert _english_left(d, "#register", "reg") == []
    assert pages.errors == []


def test_the_sheet_form_and_the_screens_names_follow_the_language(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa dei Nomi")["id"])
    base = f"/api/tournaments/{tid}"
    for k, name in enumerate(("Ada", "Bea"), 1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 1})
    d = pages.open(live.director_url() + "&lang=it", DESK)
    labels = "['tourney', 'contests', 'register'].map((id) => " \
             "document.getElementById(id).getAttribute('aria-label'))"
    until(d, f"{labels}.join('|') === 'Torneo|Swing e coppie|Registro dei giocatori'")
    d.click("#btn-tourney")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.wait_for_selector("#desk-sheet-by")
    options = d.locator("#desk-sheet-by option").all_inner_texts()
    assert options == ["direttore", "A", "B"]
    assert d.locator("#desk-sheet-by").input_value() == "director"  # the value sent stays
    # in English, the same
    d.click("#btn-lang")
    until(d, f"{labels}.join('|') === \"Tournament|Swing and couples|Players' register\"")
    until(d, "document.querySelector('#desk-sheet-by option').textContent === 'director'")
    assert pages.errors == []


def test_a_tournament_made_on_another_dashboard_shows_in_the_open_picker(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa di Prima")["id"])
    live.api("POST", f"/api/tournaments/{tid}/players", {"name": "Ada"})
    b = pages.open(live.director_url() + "&lang=it", DESK)
    b.click("#btn-tourney")
    until(b, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(b, str(tid))
    b.wait_for_selector("#tourney >> text=Ada")
    b.evaluate("document.activeElement && document.activeElement.blur()")
    # dashboard A makes a tournament with its "+ Torneo" form
    a = pages.open(live.director_url() + "&lang=it", DESK)
    until(a, "document.getElementById('btn-new-tournament').textContent === '+ Torneo'")
    a.click("#btn-new-tournament")
    a.fill("#tn-name", "Coppa Nuova")
    a.click("#form-tournament button[type=submit]")
    until(a, "!document.getElementById('dlg-tournament').open")
    made = [tn["id"] for tn in live.api("GET", "/api/tournaments")["tournaments"]
            if tn["name"] == "Coppa Nuova"]
    assert len(made) == 1
    # B's open picker lists it within its refresh; B still shows its own tournament
    until(b, f"!!document.querySelector('#trn-pick option[value=\"{made[0]}\"]')",
          timeout_ms=10000)
    assert b.locator(f"#trn-pick option[value='{made[0]}']").inner_text() == "Coppa Nuova"
    assert b.locator("#trn-pick").input_value() == str(tid)
    assert "Ada" in b.locator("#tourney").inner_text()
    assert pages.errors == []
