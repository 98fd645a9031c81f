"""A match has one result, a person one entry (issue 32 §2 and §3), in a
browser in Italian at 360x640: a result entered by hand closes the phone's
clock (it says so and refuses a press); a clock result that arrives late and
disagrees is an alert under "Avvisi" naming both; a double entry in two
events of one room is refused, then confirmed; an entry made by mistake is
deleted before the draw.  Debian's chromium only; skipped without it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.sync.client as ws_client

from bench.web_kit import CHROMIUM, KEY, LiveServer, listening, until
from tests._web import Pages, pick_tournament

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
SMALL = {"width": 360, "height": 640}
#: BGCLOCK_SHOTS=dir keeps the screenshots.
SHOTS = os.environ.get("BGCLOCK_SHOTS")


class Held:
    """The server in a thread with its clocks' results held back on their
    way to the tournament (the race: a table's match ends on its clock while
    the director types its result by hand)."""

    def __init__(self, app: Any) -> None:
        self.hub = app.state.server.hub
        self.told = self.hub.on_over
        self.held: list[tuple[Any, Any]] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.hub.on_over = self._hold

    def _hold(self, table: Any, state: Any) -> None:
        self.loop = asyncio.get_running_loop()
        self.held.append((table, state))

    def release(self) -> None:
        def go() -> None:
            self.hub.on_over = self.told
            for table, state in self.held:
                self.told(table, state)

        assert self.loop is not None
        self.loop.call_soon_threadsafe(go)


@contextlib.contextmanager
def _server() -> Iterator[tuple[LiveServer, Held]]:
    import uvicorn

    from bgclock.server import create_app
    from bgclock.store.connect import open_store

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(open_store(str(Path(tmp) / "bgclock.db")), director_secret=KEY)
        with listening() as sock:
            port = int(sock.getsockname()[1])
            server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                                   log_level="warning", lifespan="on",
                                                   ws="websockets-sansio"))
            thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                                      daemon=True)
            thread.start()
            while not server.started and thread.is_alive():
                threading.Event().wait(0.01)
            try:
                yield LiveServer(url=f"http://127.0.0.1:{port}"), Held(app)
            finally:
                server.should_exit = True
                thread.join(timeout=10)


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=f"{SHOTS or '/tmp'}/{name}.png")


def _event(live: LiveServer, name: str, players: list[str]) -> str:
    tid = int(live.tournament(name)["id"])
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings",
             {"rounds": [{"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]})
    for p in players:
        live.api("POST", f"{base}/players", {"name": p})
    return base


def test_a_hand_result_closes_the_phones_clock_and_a_late_clock_result_is_an_alert(
        pages: Pages) -> None:
    with _server() as (live, held):
        base = _event(live, "Campionato", ["Anna", "Bruno", "Carla", "Dario"])
        for pid in (1, 2, 3, 4):
            live.api("POST", f"{base}/players/{pid}/check-in")
        live.api("POST", f"{base}/draw", {"seed": 3})
        started = live.api("POST", f"{base}/rounds", {"event": "main", "round": 0})
        t1, t2 = started["tables"]
        rounds = started["state"]["main"]["rounds"][0]
        m1, m2 = rounds[t1["match"]], rounds[t2["match"]]
        phone = pages.open(f"{t1['url']}&lang=it", SMALL)
        phone.wait_for_selector("#roll-start")
        # the director enters table 1's result by hand: the phone says so, in Italian
        live.api("POST", f"{base}/results", {"round": 0, "match": t1["match"],
                                             "winner": m1["b"]})
        until(phone, "(document.getElementById('center-title') || {}).textContent === "
              f"'risultato inserito dal direttore: ha vinto {m1['b']}'")
        assert phone.locator("#roll-start").count() == 0
        # a press is refused on the phone itself, in its language: nothing is sent
        phone.locator(".half .face").first.click()
        assert phone.evaluate("__bgclock.command({do: 'opening_roll', dice: [3, 5]})") is None
        assert phone.evaluate("__bgclock.conn.pending.length") == 0
        until(phone, "document.getElementById('toast').textContent.includes("
              "'il direttore ha inserito il risultato')")
        _shot(phone, "one-result-phone-it")
        # table 2 ends on its clock (A won) while the director types B by hand
        phone2 = pages.open(f"{t2['url']}&lang=it", SMALL)
        phone2.wait_for_selector("#roll-start")
        table2 = live.api("GET", f"/api/tables/{t2['table_id']}")
        with ws_client.connect(live.url.replace("http", "ws") + "/ws") as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "token": table2["token"]}))
            for k, (do, extra) in enumerate((("opening_roll", {"dice": [5, 3]}),
                                             ("game_over", {"winner": "A",
                                                            "result": "single"}))):
                ws.send(json.dumps({"type": "cmd", "id": f"x{k}", "do": do, **extra}))
                while True:
                    m = json.loads(ws.recv(timeout=5))
                    if m.get("id") == f"x{k}":
                        assert m["type"] == "ack", m
                        break
        until(phone2, "!!window.__bgclock && __bgclock.app.state && "
              "__bgclock.app.state.phase === 'match_over'")
        d = pages.open(live.director_url() + "&lang=it", SMALL)
        d.wait_for_selector("#alert-list")
        live.api("POST", f"{base}/results", {"round": 0, "match": t2["match"],
                                             "winner": m2["b"]})
        held.release()
        until(d, "!!document.querySelector('#alert-list [data-kind=clash]')")
        alert = d.locator("#alert-list [data-kind=clash]").inner_text()
        assert f"l'orologio dice che ha vinto {m2['a']}" in alert
        assert f"il torneo ha {m2['b']} (inserito a mano)" in alert
        assert "Main turno 1 incontro" in alert
        _shot(d, "one-result-alert-it")
        # "Correggi nel torneo": the tournament screen names both too, in Italian
        d.locator("#alert-list [data-kind=clash] [data-act=open-tournament]").click()
        tid = base.rsplit("/", 1)[1]
        until(d, f"!!document.querySelector('#trn-pick option[value=\"{tid}\"]')")
        pick_tournament(d, tid)
        d.wait_for_selector("#desk-clashes li[data-clash='1']")
        assert f"l'orologio dice che ha vinto {m2['a']}" in d.text_content("#desk-clashes")
        d.locator("#alert-list [data-kind=clash] [data-act=keep-held]").click()
        until(d, "!document.querySelector('#alert-list [data-kind=clash]')")
        assert live.api("GET", f"{base}/state")["clashes"][0]["dismissed"] is not None


def test_a_double_entry_is_refused_then_confirmed_and_a_mistake_deleted(
        pages: Pages) -> None:
    with _server() as (live, _):
        champ = _event(live, "Campionato", [])
        begin = _event(live, "Principianti", [])
        for b in (champ, begin):
            live.api("POST", f"{b}/flight", {"room": "Sala", "tables": 12})
        entry = live.api("POST", "/api/register", {"name": "Anna Rossi"})
        live.api("POST", f"{champ}/players", {"name": "Anna Rossi",
                                              "register_id": entry["id"]})
        tid = begin.rsplit("/", 1)[1]
        d = pages.open(live.director_url() + "&lang=it", SMALL)
        until(d, "document.getElementById('btn-register').textContent === 'Registro'")
        d.click("#btn-register")
        until(d, f"!!document.querySelector('#reg-pick option[value=\"{tid}\"]')")
        d.select_option("#reg-pick", tid)
        d.wait_for_selector("button[data-entry]")
        d.locator("button[data-entry]").first.click()
        d.wait_for_selector("#dlg-confirm[open] [data-act=confirm]:not([disabled])")
        question = d.locator("#dlg-confirm .confirm-text").inner_text()
        assert question == ("Anna Rossi è già iscritto a Campionato, nella stessa sala. "
                            "Iscriverlo anche a questo torneo?")
        _shot(d, "one-entry-confirm-it")
        assert live.api("GET", f"{begin}/state")["players"] == []  # refused so far
        d.click("#dlg-confirm [data-act=confirm]")
        d.wait_for_selector("button[data-delete]")
        assert [p["name"] for p in live.api("GET", f"{begin}/state")["players"]] == [
            "Anna Rossi"]
        # entered by mistake after all: deleted, before the draw
        d.locator("button[data-delete]").first.click()
        until(d, "document.getElementById('reg-msg').textContent === "
              "\"L'iscrizione di Anna Rossi è eliminata.\"")
        assert live.api("GET", f"{begin}/state")["players"] == []
        d.wait_for_selector("button[data-entry]")  # offered again, as never entered
        assert d.locator("button[data-delete]").count() == 0
        _shot(d, "one-entry-deleted-it")
