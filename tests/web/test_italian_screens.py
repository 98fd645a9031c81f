"""No English on an Italian screen (issue 32 §5): every dashboard screen
(the director's cards and alerts, the tournament, the register, the Swing
and couples, the room display) walked at 360x640 in Italian, its visible
text checked against the English catalogue's phrases whose Italian differs
(every catalogue the pages merge: kit/i18n.js).

Debian's chromium only (never a downloaded one); skipped without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, running_server, until
from tests._web import Pages, pick_tournament
from tests.test_web_desk_phone import PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

#: The English phrases the page shows, in any screen of it: the page's own
#: dictionary (the one module the page loaded), each entry's parts between
#: its {placeholders}, six characters or more with a space.
ENGLISH_LEFT = r"""async () => {
    const url = performance.getEntriesByType('resource').map((e) => e.name)
      .find((n) => /\/kit\/i18n\.js(\?|$)/.test(n));
    const S = (await import(url)).I18N.STRINGS, en = S.en, it = S.it;
    const text = document.body.innerText;
    const found = [];
    for (const k of Object.keys(en)) {
      if (it[k] === undefined || en[k] === it[k]) continue;
      for (const part of en[k].split(/\{\w+\}/)) {
        const p = part.trim().replace(/^[·:–,]+\s*/, '').replace(/[.:?,()“”·–]+$/, '').trim();
        if (p.length >= 6 && p.includes(' ') && text.includes(p)) found.push(k + ': ' + p);
      }
    }
    for (const w of ['Table ', 'Consolation', ' match ', 'Losers']) {
      if (text.includes(w)) found.push('word: ' + w.trim());
    }
    return found;
}"""


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _evening(live: LiveServer) -> tuple[int, dict[str, Any]]:
    """An event with clocks: the Main's first round decided by hand (its
    clocks stopped), late arrivals closed, the consolation's first round and
    the Main's second at their tables."""
    tid = int(live.tournament("Campionato")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}], "late_slots": 0})
    for k, who in enumerate(("Anna Rossi", "Bruno Galli", "Carla Verdi", "Dario Neri",
                             "Elena Fabbri", "Fabio Conti", "Gina Greco", "Ugo Fois"), 1):
        e = live.api("POST", "/api/register", {"name": who, "club": "Circolo Roma"})
        live.api("POST", f"{base}/players", {"name": who, "register_id": e["id"]})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 3})
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    state = live.api("GET", f"{base}/state")
    for i, m in enumerate(state["main"]["rounds"][0]):
        live.api("POST", f"{base}/results", {"event": "main", "round": 0, "match": i,
                                             "winner": m["a"], "stop_clock": True})
    if live.api("GET", f"{base}/state")["main"]["late_open"]:
        live.api("POST", f"{base}/late/close", {})
    live.api("POST", f"{base}/rounds", {"event": "main", "round": 1})
    live.api("POST", f"{base}/rounds", {"event": "consolation", "round": 0})
    return tid, live.api("GET", f"{base}/state")


def _left(d: Any) -> list[str]:
    return list(d.evaluate(ENGLISH_LEFT))


def test_every_dashboard_screen_in_italian_shows_no_english(
        live: LiveServer, pages: Pages) -> None:
    tid, state = _evening(live)
    d = pages.open(live.director_url() + "&lang=it", PHONE)
    until(d, "[...document.querySelectorAll('.card')].some((c) =>"
             " c.textContent.includes('Consolazione T1'))")
    found = {"director": _left(d)}
    for screen, button, ready in (
            ("tourney", "#btn-tourney", "#trn-history tbody tr"),
            ("contests", "#btn-contests", "#contests"),
            ("register", "#btn-register", ".reg-found tbody tr >> text=Anna Rossi")):
        d.click(button)
        if screen == "tourney":
            until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
            pick_tournament(d, str(tid))
        d.wait_for_selector(ready)
        found[screen] = _left(d)
    room = pages.open(state["room_url"] + "&lang=it", PHONE)
    until(room, "document.body.innerText.includes('Anna Rossi')")
    found["room"] = _left(room)
    assert {k: v for k, v in found.items() if v} == {}
    # the server's labels that reach a screen only with a clash, in Italian
    labels = d.evaluate("""async () => {
        const names = performance.getEntriesByType('resource').map((e) => e.name);
        const desk = await import(names.find((n) => n.endsWith('/tourney/view/desk.js')));
        const cards = await import(names.find((n) => n.endsWith('/director/view/cards.js')));
        const state = await import(names.find((n) => n.endsWith('/director/state.js')));
        return [desk.clashMatch('Main R1 match 2'), desk.clashMatch('Last Chance R2 match 1'),
                cards.matchLabel('Consolation R1 match 3'),
                state.shownName('Table 1 · Last Chance R2'),
                state.shownName('Table 4 · Principianti · Consolation R1')];
    }""")
    assert labels == ["Main T1 incontro 2", "Last Chance T2 incontro 1",
                      "Consolazione turno 1 incontro 3", "Tavolo 1 · Last Chance T2",
                      "Tavolo 4 · Principianti · Consolazione T1"]
    assert not pages.errors, pages.errors
