"""The evening's flows say what happens next, on a 360x640 phone in Italian
(issue 32 §5): the prize lists saved as one form (a box being written
survives another dashboard's save; a save with nothing changed says so);
what draws the Progressive Consolation, shown where the director waits for
it, and the late arrivals' closing confirmed first; a late arrival's match
seated at once and the message naming its table.

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages
from tests.test_web_desk_phone import PHONE
from tests.web.tourney.test_breaks import _open

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena")
MSG = "document.querySelector('#tourney .msg').textContent"


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _tournament(live: LiveServer, name: str, late_slots: int,
                names: tuple[str, ...] = NAMES) -> str:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "it-tournament", "clock": "none"}], "late_slots": late_slots})
    for k, who in enumerate(names, start=1):
        live.api("POST", f"{base}/players", {"name": who})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 7})
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    return base


def _decide_first_round(live: LiveServer, base: str, r: int = 0) -> None:
    state = live.api("GET", f"{base}/state")
    for i, m in enumerate(state["main"]["rounds"][r]):
        if m["a"] and m["b"] and not m["winner"]:
            live.api("POST", f"{base}/results", {"event": "main", "round": r, "match": i,
                                                 "winner": m["a"]})


def test_the_prize_lists_are_saved_as_one_form(live: LiveServer, pages: Pages) -> None:
    base = _tournament(live, "Coppa dei Premi", 0, NAMES[:4])
    _decide_first_round(live, base)
    if live.api("GET", f"{base}/state")["main"]["late_open"]:
        live.api("POST", f"{base}/late/close", {})
    assert live.api("GET", f"{base}/state")["consolation"] is not None
    d = _open(live, pages, base)
    d.wait_for_selector("#st-prizes-consolation")
    d.fill("#st-prizes-main", "100 EUR\n50 EUR\n")
    d.fill("#st-prizes-consolation", "Coppa")
    d.click("#st-prizes-save")
    until(d, f"{MSG} === 'Premi salvati: Main 2 premi; Consolazione progressiva 1 premio.'")
    prizes = live.api("GET", f"{base}/state")["prizes"]
    assert prizes == {"main": ["100 EUR", "50 EUR"], "consolation": ["Coppa"]}
    # saved again unchanged: nothing is sent, and the line says so
    d.click("#st-prizes-save")
    until(d, f"{MSG} === 'Niente da salvare: i premi sono già questi.'")
    done = [a["action"]["do"] for a in live.api("GET", f"{base}/actions")["actions"]]
    assert done.count("prizes") == 2
    # a box being written survives another dashboard's save and the reads after it
    d.fill("#st-prizes-main", "120 EUR\n60 EUR")
    d.evaluate("document.activeElement && document.activeElement.blur()")
    live.api("POST", f"{base}/prizes", {"event": "consolation", "prizes": ["Coppa", "Targa"]})
    until(d, "document.getElementById('st-prizes-consolation').value === 'Coppa\\nTarga'")
    assert d.input_value("#st-prizes-main") == "120 EUR\n60 EUR"
    d.click("#st-prizes-save")
    until(d, f"{MSG} === 'Premi salvati: Main 2 premi.'")
    prizes = live.api("GET", f"{base}/state")["prizes"]
    assert prizes == {"main": ["120 EUR", "60 EUR"], "consolation": ["Coppa", "Targa"]}
    # an emptied box removes that list, and the line names it
    d.fill("#st-prizes-consolation", "")
    d.click("#st-prizes-save")
    until(d, f"{MSG} === 'Premi salvati: Consolazione progressiva nessun premio.'")
    assert live.api("GET", f"{base}/state")["prizes"] == {"main": ["120 EUR", "60 EUR"]}
    assert not pages.errors, pages.errors


def test_a_late_arrival_is_seated_and_closing_late_arrivals_draws_the_consolation(
        live: LiveServer, pages: Pages) -> None:
    base = _tournament(live, "Coppa dei Ritardatari", 3)
    late = live.api("POST", f"{base}/players", {"name": "Lucia"})["state"]["players"][-1]
    d = _open(live, pages, base)
    d.wait_for_selector("#trn-consolation-wait")
    assert "si sorteggia quando chiudi i ritardatari" in d.inner_text("#trn-consolation-wait")
    row = d.locator("#trn-players tr", has_text="Lucia")
    row.locator("button", has_text="Ritardatario").click()
    until(d, f"{MSG}.startsWith('Lucia è arrivato: la partita è al tavolo ')")
    state = live.api("GET", f"{base}/state")
    table = next(x["table"] for x in state["matches"]
                 if late["name"] in (x["a"], x["b"]))
    assert d.evaluate(MSG) == f"Lucia è arrivato: la partita è al tavolo {table}."
    _decide_first_round(live, base)
    d.evaluate("document.activeElement && document.activeElement.blur()")
    wait = "(document.getElementById('trn-consolation-wait') || {}).textContent"
    until(d, f"{wait}.startsWith('Tutte le partite del primo turno sono decise: chiudi i"
             " ritardatari; la Consolazione progressiva si sorteggia poi')")
    d.click("#trn-close-late")
    d.wait_for_selector("#dlg-confirm[open] >> text=Non si può annullare")
    assert "I 2 posti vuoti diventano turni di riposo" in d.inner_text("#dlg-confirm")
    assert live.api("GET", f"{base}/state")["main"]["late_open"]  # nothing before the confirm
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, f"{wait}.startsWith('I ritardatari sono chiusi: la Consolazione progressiva si"
             " sorteggia quando sono decise le partite del secondo turno')")
    assert not d.locator("#trn-close-late").count()
    # the second round's matches of the players with a bye: the consolation is drawn
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 1})
    _decide_first_round(live, base, 1)
    assert live.api("GET", f"{base}/state")["consolation"] is not None
    d.evaluate("document.activeElement && document.activeElement.blur()")
    until(d, "!document.getElementById('trn-consolation-wait')")
    assert not pages.errors, pages.errors


def test_check_in_has_a_search_and_all_present(live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa della Presenza")["id"])
    base = f"/api/tournaments/{tid}"
    for who in ("Anna Rossi", "Nicolò Bianchi", "Carla Verdi", "Dario Neri"):
        live.api("POST", f"{base}/players", {"name": who})
    d = _open(live, pages, base)
    d.wait_for_selector("#trn-players-q")
    assert d.inner_text("#trn-present") == "Presenti: 0 su 4"
    d.fill("#trn-players-q", "nicolo")
    until(d, "document.querySelectorAll('#trn-players tr').length === 1")
    assert "Nicolò Bianchi" in d.inner_text("#trn-players")
    assert d.input_value("#trn-players-q") == "nicolo"  # kept as the screen is drawn again
    d.locator("#trn-players button", has_text="Presente").first.click()
    until(d, "document.getElementById('trn-present').textContent === 'Presenti: 1 su 4'")
    d.fill("#trn-players-q", "")
    until(d, "document.querySelectorAll('#trn-players tr').length === 4")
    d.click("#trn-all-present")
    d.wait_for_selector("#dlg-confirm[open] >> text=Segnare presenti i 3 giocatori elencati")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, "document.getElementById('trn-present').textContent === 'Presenti: 4 su 4'")
    assert not d.locator("#trn-all-present").count()
    assert all(p["checked_in"] for p in live.api("GET", f"{base}/state")["players"])
    assert not pages.errors, pages.errors


def test_the_register_imports_an_italian_spreadsheet_after_a_preview(
        live: LiveServer, pages: Pages, tmp_path: Any) -> None:
    sheet = tmp_path / "soci.csv"
    sheet.write_bytes(("Cognome;Nome;Tessera;Circolo;Rating\r\n"
                       "Galli;Nicolò;IT777;Società del Dado;1.612,40\r\n").encode("cp1252"))
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    d.click("#btn-register")
    d.wait_for_selector("#reg-file")
    d.set_input_files("#reg-file", str(sheet))
    until(d, "document.getElementById('reg-csv').value.includes('Nicolò')")
    d.click("#reg-preview")
    d.wait_for_selector("#reg-preview-list")
    text = d.inner_text("#reg-preview-list")
    assert "L'importazione aggiungerà 1 e aggiornerà 0" in text
    assert "riga 2: Nicolò Galli · Società del Dado · 1612.40 (nuovo)" in text
    assert live.api("GET", "/api/register?q=galli")["total"] == 0
    d.click("#reg-import")
    until(d, "document.getElementById('reg-msg').textContent"
             " === 'Importati: 1 aggiunti, 0 aggiornati.'")
    assert live.api("GET", "/api/register?q=galli")["entries"][0]["club"] == "Società del Dado"
    assert not pages.errors, pages.errors


def test_seeding_by_rating_and_separation_by_club_are_buttons(
        live: LiveServer, pages: Pages) -> None:
    tid = int(live.tournament("Coppa delle Teste")["id"])
    base = f"/api/tournaments/{tid}"
    people = [("Anna Rossi", 170_000, "Roma"), ("Bruno Galli", 150_000, "Milano"),
              ("Carla Verdi", 180_000, "Roma"), ("Enzo Fabbri", 160_000, "Milano")]
    for k, (name, rating, club) in enumerate(people, 1):
        e = live.api("POST", "/api/register", {"name": name, "club": club})
        live.api("PATCH", f"/api/register/{e['id']}", {"rating": rating})
        live.api("POST", f"{base}/players", {"name": name, "register_id": e["id"]})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    # Dario is entered by name only: not in the register, so neither seeded nor grouped
    live.api("POST", f"{base}/players", {"name": "Dario Neri"})
    live.api("POST", f"{base}/players/5/check-in", {})
    d = _open(live, pages, base)
    d.wait_for_selector("#trn-seeds-rating")
    assert d.inner_text("#trn-seeds-rating") == "Teste di serie per rating"
    d.fill("#trn-seed-count", "5")
    d.click("#trn-seeds-rating")
    # Dario has no rating: four seeds, and the line says why not five
    until(d, f"{MSG} === 'Teste di serie per rating: [1] Carla Verdi, [2] Anna Rossi,"
             " [3] Enzo Fabbri, [4] Bruno Galli (solo 4 dei 5 chiesti hanno un rating"
             " nell\\'anagrafica e sono presenti).'")
    assert live.api("GET", f"{base}/state")["settings"]["seeds"] == [3, 1, 4, 2]
    until(d, "document.getElementById('trn-seeds').value === '3, 1, 4, 2'")
    d.click("#trn-groups-club")
    until(d, f"{MSG} === 'Separati per circolo: Anna Rossi, Carla Verdi; Bruno Galli,"
             " Enzo Fabbri.'")
    assert live.api("GET", f"{base}/state")["settings"]["groups"] == [[1, 3], [2, 4]]
    d.fill("#trn-seed-count", "-1")
    d.click("#trn-seeds-rating")
    until(d, f"{MSG} === 'Quante teste di serie: un numero intero, 0 o più.'")
    assert not pages.errors, pages.errors


def test_the_history_says_what_an_undo_undid_and_offers_only_what_the_server_does(
        live: LiveServer, pages: Pages) -> None:
    base = _tournament(live, "Coppa degli Annulli", 0, NAMES[:4])
    m = live.api("GET", f"{base}/state")["main"]["rounds"][0][0]
    at = {"event": "main", "round": 0, "match": 0}
    live.api("POST", f"{base}/results", {**at, "winner": m["a"]})
    live.api("POST", f"{base}/corrections", {**at, "winner": m["b"], "reason": "errore"})
    d = _open(live, pages, base)
    undo = "#trn-history tr[data-n] button[data-undo]"
    d.wait_for_selector(undo)
    d.click(undo)
    d.wait_for_selector("#dlg-confirm[open] >> text=Annullare l'ultima correzione")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    until(d, f"{MSG} === 'Fatto.'")
    newest = "document.querySelector('#trn-history tbody tr').textContent"
    until(d, f"{newest}.includes('Main T1 incontro 1: correzione annullata')")
    assert "risultato annullato" not in d.inner_text("#trn-history tbody tr >> nth=0")
    # the result by hand is undone next (another dashboard), and named so
    live.api("POST", f"{base}/results/revert", {**at, "winner": m["a"]})
    d.evaluate("document.activeElement && document.activeElement.blur()")
    until(d, f"{newest}.includes('Main T1 incontro 1: risultato annullato')")
    # the offer follows the server's rule: a clock's result is corrected, never undone
    rule = d.evaluate("""async () => {
        const url = performance.getEntriesByType('resource').map((e) => e.name)
          .find((n) => n.endsWith('/tourney/view/draw.js'));
        const H = await import(url.replace('/draw.js', '/history.js'));
        const D = await import(url);
        const log = [{n: 1, action: {do: 'result', round: 0, match: 0}},
                     {n: 2, action: {do: 'correct', round: 0, match: 0}},
                     {n: 3, action: {do: 'correct', round: 0, match: 0}},
                     {n: 4, action: {do: 'revert', round: 0, match: 0}},
                     {n: 5, action: {do: 'revert', round: 0, match: 0}},
                     {n: 6, action: {do: 'revert', round: 0, match: 0}}];
        return [D.undoable({source: 'clock'}), D.undoable({source: 'clock', corrections: 1}),
                D.undoable({source: 'hand'}), D.undoable({source: 'withdrawn'}),
                [...H.undoneBy(log).values()]];
    }""")
    assert rule == [False, True, True, False, ["correction", "correction", "result"]]
    assert not pages.errors, pages.errors
