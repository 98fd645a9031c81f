"""The director's desk (issue 19 §1, §2), in Italian at 1366×768: open
dashboards follow a table through its matches (each card and alert names who
sits there now), and the draw is random unless the director types a seed.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import os
import time
import urllib.error
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import pick_tournament, settle
from tests.test_web_table import AXE, axe

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
DESK = {"width": 1366, "height": 768}
PHONE = {"width": 412, "height": 915}
MATCHES = [("Ann", "Bob"), ("Cyd", "Dee"), ("Eve", "Fay")]
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")


def wait(page: Any, cond: str) -> None:
    until(page,
        f"(() => {{ const s = window.__bgclock && __bgclock.app.state; "
        f"return !!s && ({cond}); }})()",
        timeout_ms=5000)


def next_match(live: LiveServer, tid: int, players: tuple[str, str]) -> None:
    """POST next-match, again while the table is still storing its last commands."""
    spec = {"name": "Tavolo 1", "rules": "usbgf-2013-delay", "length": 3,
            "players": list(players)}

    def sent() -> bool:
        try:
            live.api("POST", f"/api/tables/{tid}/next-match", spec)
        except urllib.error.HTTPError as exc:
            with exc:  # its socket, else finalized by a later test's collection
                assert exc.code == 409, exc.read()
            return False
        return True

    for _ in range(50):
        if sent():
            return
        time.sleep(0.1)  # the table stores its last commands: ask again
    raise AssertionError("next-match stayed busy")


def test_two_dashboards_name_the_players_of_each_match_at_a_table(
        live: LiveServer, pages: Any) -> None:
    table = live.table(name="Tavolo 1", players=list(MATCHES[0]))
    tid = table["id"]
    desks = [pages(live.director_url() + "&lang=it", DESK) for _ in range(2)]
    clock = pages(LiveServer.table_url(table, live.url) + "&lang=it", PHONE)
    card = f".card[data-table='{tid}']"
    called = f".alert[data-kind='director'][data-table='{tid}']"
    for k, players in enumerate(MATCHES):
        if k:
            next_match(live, tid, players)
        until(clock, f"!!__bgclock.app.info && __bgclock.app.info.players[0] === '{players[0]}'"
                     " && !!__bgclock.app.state && __bgclock.app.seq === 0", timeout_ms=5000)
        wait(clock, "s.phase !== undefined && s.phase !== 'match_over'")
        clock.click(f"#center .dice[data-die='A'] .die[data-n='{5 if k != 1 else 6}']")
        clock.click("#center .dice[data-die='B'] .die[data-n='2']")
        clock.click("#roll-start")
        wait(clock, "s.phase === 'playing'")
        settle(clock)
        clock.click("#btn-director")
        settle(clock)
        clock.click("#center [data-act='confirm']")
        for d in desks:
            d.wait_for_selector(called)
            until(d, f"document.querySelector(\"{card}\").textContent.includes('{players[0]}')"
                     f" && document.querySelector(\"{card}\").textContent.includes('{players[1]}')",
                  timeout_ms=5000)
            assert d.locator(called).count() == 1  # the earlier matches' calls are gone
            text = d.locator(card).inner_text()
            alert = d.locator(called).inner_text()
            assert "ha chiamato il direttore" in alert, alert
            assert players[0] in alert or players[1] in alert, alert
            for a, b in MATCHES[:k]:  # nobody of an earlier match is named
                for old in (a, b):
                    assert old not in text and old not in alert, (old, text, alert)


def _api_until(check: Any, timeout_s: float = 8.0) -> Any:
    """Until ``check()`` (read from the server) is truthy; its value."""
    end = time.monotonic() + timeout_s
    while not (got := check()):
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)
    return got


def _confirm(d: Any, says: str) -> None:
    """The confirmation names the action's effect; Confirm it."""
    d.wait_for_selector("#dlg-confirm[open]")
    text = d.locator("#dlg-confirm .confirm-text").inner_text()
    assert says in text, text
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")


def _english_left(d: Any) -> list[str]:
    """The English catalogue's phrases of the tournament screen (those its
    Italian differs from: names, numbers and codes aside) found on it."""
    return list(d.evaluate(r"""() => {
        const S = __bgclockDesk.i18n.STRINGS, en = S.en, it = S.it;
        const text = document.getElementById("tourney").innerText;
        const found = [];
        for (const k of Object.keys(en)) {
          if (!/^(trn|cf|hist|err|desk)\./.test(k) || en[k] === it[k]) continue;
          for (const part of en[k].split(/\{\w+\}/)) {
            const p = part.trim().replace(/[.:?,()]+$/, "");
            if (p.length >= 6 && p.includes(" ") && text.includes(p)) found.push(k + ": " + p);
          }
        }
        return found;
    }"""))


def test_the_desk_in_italian_draws_at_random_and_undoes_each_change_it_confirmed(
        live: LiveServer, pages: Any) -> None:
    tid = int(live.tournament("Coppa Desk")["id"])
    base = f"/api/tournaments/{tid}"
    for k, name in enumerate(("Ada", "Bea", "Cloe", "Dora"), 1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    d = pages(live.director_url() + "&lang=it", DESK)
    d.click("#btn-tourney")
    d.wait_for_selector("#trn-pick")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    # the seed field starts empty: the server draws one
    d.wait_for_selector("#trn-seed[placeholder='casuale']")
    assert d.input_value("#trn-seed") == ""
    # a double click on Draw opens one confirmation; the draw is made once
    d.locator("#tourney button", has_text="Sorteggia il tabellone").dblclick()
    d.wait_for_selector("#dlg-confirm[open]")
    if SHOTS:
        d.evaluate("getSelection().removeAllRanges()")  # the double click's selection
        d.screenshot(path=f"{SHOTS}/desk-1366x768-confirm-it.png")
    _confirm(d, "seme casuale")
    draws = _api_until(lambda: [x["action"] for x in live.api("GET", f"{base}/actions")["actions"]
                                if x["action"]["do"] == "draw"])
    assert len(draws) == 1 and isinstance(draws[0]["seed"], int)
    d.wait_for_selector(f"text=Sorteggiato con il seme {draws[0]['seed']}")
    state = live.api("GET", f"{base}/state")
    m = state["main"]["rounds"][0][0]
    a, b = m["a"], m["b"]
    ids = {p["name"]: p["id"] for p in state["players"]}

    def first_match() -> dict[str, Any]:
        return dict(live.api("GET", f"{base}/state")["main"]["rounds"][0][0])

    # a withdrawal, confirmed, then undone from the history
    d.locator("#tourney tr", has_text=a).locator("button", has_text="Ritira").click()
    _confirm(d, "Perde ogni incontro")
    _api_until(lambda: first_match()["winner"] == b)
    d.wait_for_selector(f"#trn-history >> text={a} ritirato")
    d.locator("#trn-history button", has_text="Reintegra").click()
    _confirm(d, f"Reintegrare {a}")
    _api_until(lambda: first_match()["winner"] is None)
    assert not live.api("GET", f"{base}/state")["players"][ids[a] - 1]["withdrawn"]
    # a result by hand, confirmed, then undone at the match
    d.locator("#tourney button", has_text=f"ha vinto {a}").first.click()
    _confirm(d, f"Vince {a}")
    _api_until(lambda: first_match()["winner"] == a)
    d.locator("#tourney button", has_text="Annulla il risultato").first.click()
    _confirm(d, "torna da decidere")
    _api_until(lambda: first_match()["winner"] is None)
    # a correction needs its reason: without one nothing is sent
    d.locator("#tourney button", has_text=f"ha vinto {a}").first.click()
    _confirm(d, f"Vince {a}")
    _api_until(lambda: first_match()["winner"] == a)
    d.locator("#tourney button", has_text=f"Correggi: ha vinto {b}").click()
    d.wait_for_selector("#tourney .msg.err >> text=richiede il motivo")
    assert d.locator("#dlg-confirm[open]").count() == 0
    d.fill("#trn-reason", "referto firmato")
    d.locator("#tourney button", has_text=f"Correggi: ha vinto {b}").click()
    _confirm(d, f"vince {b} invece di {a}")
    _api_until(lambda: first_match()["winner"] == b)
    # the history: who, what, when; the correction's undo puts A's win back
    d.wait_for_selector("#trn-history >> text=corretto")
    rows = d.locator("#trn-history tbody tr")
    assert "direttore" in rows.first.inner_text()
    if SHOTS:
        d.add_style_tag(content=".dir-head { position: static !important; }")
        d.locator("#trn-history").scroll_into_view_if_needed()
        d.screenshot(path=f"{SHOTS}/desk-1366x768-history-it.png")
    rows.first.locator("button", has_text="Annulla").click()
    _confirm(d, "ultima correzione")
    _api_until(lambda: first_match()["winner"] == a)
    # a refusal in Italian: the consolation drawn, its entrant's result stays
    second = live.api("GET", f"{base}/state")["main"]["rounds"][0][1]
    live.api("POST", f"{base}/results", {"round": 0, "match": 1, "winner": second["a"]})
    d.locator("#trn-pick").select_option(str(tid))  # read the state again
    d.wait_for_selector(f"#trn-history >> text=ha vinto {second['a']}")
    d.locator("#tourney button", has_text="Annulla il risultato").first.click()
    _confirm(d, "torna da decidere")
    d.wait_for_selector("#tourney .msg.err >> text=consolation è sorteggiata")
    assert first_match()["winner"] == a
    # nothing English on the Italian screen, nothing critical or serious for axe
    assert _english_left(d) == []
    if AXE.exists():
        assert axe(d) == []


def test_two_dashboards_confirming_the_same_undo_undo_it_once(
        live: LiveServer, pages: Any) -> None:
    """Both dashboards ask to undo the last correction of a hand result; the
    first confirms, then the second: the hand result stands, and the second
    dashboard says, in Italian, that the match changed meanwhile."""
    tid = int(live.tournament("Coppa Due Banchi")["id"])
    base = f"/api/tournaments/{tid}"
    for k, name in enumerate(("Ada", "Bea", "Cloe", "Dora"), 1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 3})
    m = live.api("GET", f"{base}/state")["main"]["rounds"][0][0]
    a, b = m["a"], m["b"]
    live.api("POST", f"{base}/results", {"round": 0, "match": 0, "winner": a})
    live.api("POST", f"{base}/corrections", {"round": 0, "match": 0, "winner": b,
                                             "reason": "referto"})
    desks = []
    for _ in range(2):
        d = pages(live.director_url() + "&lang=it", DESK)
        d.click("#btn-tourney")
        until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
        pick_tournament(d, str(tid))
        d.wait_for_selector(f"#tourney >> text=ha vinto {b}")
        d.locator("#tourney button", has_text="Annulla il risultato").first.click()
        d.wait_for_selector("#dlg-confirm[open]")
        desks.append(d)
    _confirm(desks[0], "ultima correzione")
    _api_until(lambda: live.api("GET", f"{base}/state")["main"]["rounds"][0][0]["winner"] == a)
    _confirm(desks[1], "ultima correzione")
    desks[1].wait_for_selector("#tourney .msg.err >> text=cambiato nel frattempo")
    assert live.api("GET", f"{base}/state")["main"]["rounds"][0][0]["winner"] == a
    reverts = [x for x in live.api("GET", f"{base}/actions")["actions"]
               if x["action"]["do"] == "revert"]
    assert len(reverts) == 1


def test_a_result_by_hand_while_the_clock_runs_is_asked_twice_and_stops_it(
        live: LiveServer, pages: Any) -> None:
    tid = int(live.tournament("Coppa Orologio")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    for k, name in enumerate(("Ada", "Bea"), 1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {"seed": 1})
    started = live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
    (table,) = started["tables"]
    m = started["state"]["main"]["rounds"][0][0]
    clock = pages(table["url"] + "&lang=it", PHONE)
    wait(clock, "s.phase !== undefined")
    clock.click("#center .dice[data-die='A'] .die[data-n='5']")
    clock.click("#center .dice[data-die='B'] .die[data-n='2']")
    clock.click("#roll-start")
    wait(clock, "s.phase === 'playing'")
    d = pages(live.director_url() + "&lang=it", DESK)
    d.click("#btn-tourney")
    d.wait_for_selector("#trn-pick")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    # the server's table name ("Table 1 · Main R1") in the director's language on its card
    card = f".card[data-table='{table['table_id']}']"
    until(d, f"!!document.querySelector(\"{card}\") && document.querySelector(\"{card}\")"
             ".textContent.includes('Tavolo 1 · Main T1')")
    assert "Table" not in d.locator(card).inner_text()
    d.locator("#tourney button", has_text=f"ha vinto {m['a']}").first.click()
    d.wait_for_selector(f"#dlg-confirm[open] >> text=Vince {m['a']}")
    d.click("#dlg-confirm [data-act='confirm']:not([disabled])")
    # the server says the clock runs: a second question (the same dialog), then it is stopped
    d.wait_for_selector(f"#dlg-confirm[open] >> text=L'orologio del tavolo {table['table']}")
    assert live.api("GET", f"{base}/state")["main"]["rounds"][0][0]["winner"] is None
    _confirm(d, "Fermarlo e registrare questo risultato")
    wait(clock, "s.phase === 'stopped' || s.phase === 'match_over'")
    state = live.api("GET", f"{base}/state")
    assert state["main"]["rounds"][0][0]["winner"] == m["a"]
    events = live.api("GET", f"/api/tables/{table['table_id']}/log.json")["events"]
    assert {"do": "stop", "reason": "director"}.items() <= events[-1]["event"].items()


def test_a_double_click_on_start_round_starts_it_once_and_shows_no_error(
        live: LiveServer, pages: Any) -> None:
    tid = int(live.tournament("Coppa Doppio")["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "none"}]})
    for k, name in enumerate(("Ada", "Bea", "Cloe", "Dora"), 1):
        live.api("POST", f"{base}/players", {"name": name})
        live.api("POST", f"{base}/players/{k}/check-in", {})
    live.api("POST", f"{base}/draw", {})
    d = pages(live.director_url() + "&lang=it", DESK)
    d.click("#btn-tourney")
    d.wait_for_selector("#trn-pick")
    until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
    pick_tournament(d, str(tid))
    d.locator("#tourney button", has_text="Avvia Main turno 1").dblclick()
    until(d, "['Fatto.', 'Già fatto.'].includes(document.querySelector('#tourney .msg')"
             ".textContent)")
    assert d.locator("#tourney .msg.err").count() == 0
    starts = [x for x in live.api("GET", f"{base}/actions")["actions"]
              if x["action"]["do"] == "start_round"]
    assert len(starts) == 1
