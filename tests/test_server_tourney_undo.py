"""The director's desk on the server (issue 19 §2): the draw's seed drawn by
the server unless the director types one, and every action that changes the
draw, a result or a player's status undone by a compensating action in the
log; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bgclock.tournament import MainDraw
from tests._server_kit import DIRECTOR, Device, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _entered(live: Any, name: str, n: int, **settings: Any) -> str:
    """A tournament of ``n`` checked-in players P1..Pn, not drawn."""
    r = await live.http.post("/api/tournaments", json={"name": name}, headers=DIRECTOR)
    assert r.status_code == 201, r.text
    base = f"/api/tournaments/{r.json()['id']}"
    if settings:
        await _post(live, f"{base}/settings", settings)
    csv_text = "".join(f"P{i}\n" for i in range(1, n + 1))
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    for i in range(1, n + 1):
        await _post(live, f"{base}/players/{i}/check-in")
    return base


async def _log(live: Any, base: str) -> list[dict[str, Any]]:
    r = await live.http.get(f"{base}/actions", headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return list(r.json()["actions"])


async def test_a_draw_with_no_seed_typed_is_random_and_its_seed_is_logged(live: Any) -> None:
    draws, seeds = [], []
    for name in ("Open A", "Open B"):
        base = await _entered(live, name, 16)
        drawn = await _post(live, f"{base}/draw")
        seed = drawn["done"][-1]["seed"]
        # the log's draw action carries the seed it was drawn with
        logged = [s["action"] for s in await _log(live, base) if s["action"]["do"] == "draw"]
        assert logged == [{"do": "draw", "seed": seed}]
        assert drawn["state"]["settings"]["seed"] == seed
        # and it is the pure draw of that seed

        again = MainDraw([f"P{i}" for i in range(1, 17)], late_slots=0,
                         rng=random.Random(seed))
        slots = [[m["a"], m["b"]] for m in drawn["state"]["main"]["rounds"][0]]
        assert slots == [[m.a, m.b] for m in again.bracket.rounds[0]]
        draws.append(slots)
        seeds.append(seed)
        # the printed draw sheet says it
        r = await live.http.get(f"{base}/draw/main.html", headers=DIRECTOR)
        assert r.status_code == 200 and f"seed {seed}" in r.text
    assert seeds[0] != seeds[1] and draws[0] != draws[1]


async def test_the_directors_seed_is_kept_typed_at_the_draw_or_in_the_settings(
        live: Any) -> None:
    base = await _entered(live, "Typed", 4)
    assert (await _post(live, f"{base}/draw", {"seed": 0}))["done"] == [{"seed": 0, "size": 4}]
    base = await _entered(live, "Settings", 4, seed=99)
    assert (await _post(live, f"{base}/draw"))["done"] == [{"seed": 99, "size": 4}]


async def test_a_second_draw_is_refused_as_already_made_and_changes_nothing(live: Any) -> None:
    base = await _entered(live, "Twice", 6)
    first = await _post(live, f"{base}/draw")
    r = await live.http.post(f"{base}/draw", json={}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "already_drawn"
    r = await live.http.get(f"{base}/state", headers=DIRECTOR)
    assert r.json()["main"] == first["state"]["main"]


async def test_a_withdrawal_and_a_hand_result_are_undone_by_actions_in_the_log(
        live: Any) -> None:
    base = await _entered(live, "Undo", 4)
    drawn = await _post(live, f"{base}/draw", {"seed": 4})
    first = drawn["state"]["main"]["rounds"][0]
    players = {p["name"]: p["id"] for p in drawn["state"]["players"]}
    a, b = first[0]["a"], first[0]["b"]
    # a withdrawal decides the match; reinstating the player undoes it
    w = await _post(live, f"{base}/players/{players[a]}/withdraw")
    assert w["state"]["main"]["rounds"][0][0]["winner"] == b
    back = await _post(live, f"{base}/players/{players[a]}/reinstate")
    assert back["done"] == [{"player": players[a],
                             "undecided": [{"event": "main", "round": 0, "match": 0}]}]
    assert back["state"]["main"] == drawn["state"]["main"]
    assert not next(p for p in back["state"]["players"] if p["name"] == a)["withdrawn"]
    # a result by hand, reverted
    await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": a})
    undone = await _post(live, f"{base}/results/revert", {"round": 0, "match": 0})
    assert undone["done"] == [{"winner": None, "reverted": "result"}]
    assert undone["state"]["main"] == drawn["state"]["main"]
    # refusals carry their code and change nothing
    r = await live.http.post(f"{base}/results/revert", json={"round": 0, "match": 0},
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "no_result"
    r = await live.http.post(f"{base}/players/{players[a]}/reinstate", headers=DIRECTOR)
    assert r.status_code == 409 and r.json() == {
        "error": "not_withdrawn", "message": f"{a} has not withdrawn", "params": {"player": a}}
    r = await live.http.post(f"{base}/results/revert", json={"round": 0, "match": "x"},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "match" in r.json()["message"]
    # the log holds each action and its compensation, folded to the same state
    log = [s["action"]["do"] for s in await _log(live, base)]
    assert log[-5:] == ["draw", "withdraw", "reinstate", "result", "revert"]
    # both results of the first round, then the consolation is drawn: a
    # result its entrants came from can no longer be undone
    await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": a})
    await _post(live, f"{base}/results", {"round": 0, "match": 1, "winner": first[1]["a"]})
    before = (await live.http.get(f"{base}/state", headers=DIRECTOR)).json()
    assert before["consolation"] is not None
    r = await live.http.post(f"{base}/results/revert", json={"round": 0, "match": 0},
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "consolation_drawn"
    after = (await live.http.get(f"{base}/state", headers=DIRECTOR)).json()
    assert after["main"] == before["main"] and after["actions"] == before["actions"]


async def test_a_hand_result_while_the_clock_runs_is_asked_first_and_stops_that_clock(
        live: Any) -> None:
    base = await _entered(live, "Running", 4, rounds=[
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}])
    await _post(live, f"{base}/draw", {"seed": 2})
    started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
    t1 = started["tables"][0]
    m = started["state"]["main"]["rounds"][0][t1["match"]]
    info = (await live.http.get(f"/api/tables/{t1['table_id']}", headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        ack = await device.cmd("opening_roll", dice=[3, 5])
        assert ack["type"] == "ack", ack
        body = {"round": 0, "match": t1["match"], "winner": m["a"]}
        # asked first: refused with its code and the table, nothing changes
        r = await live.http.post(f"{base}/results", json=body, headers=DIRECTOR)
        assert r.status_code == 409, r.text
        assert r.json()["error"] == "clock_running"
        assert r.json()["params"] == {"table": t1["table"]}
        state = (await live.http.get(f"{base}/state", headers=DIRECTOR)).json()
        assert state["main"]["rounds"][0][t1["match"]]["winner"] is None
        table = (await live.http.get(f"/api/tables/{t1['table_id']}/log.json",
                                     headers=DIRECTOR)).json()
        assert [e["event"]["do"] for e in table["events"]] == ["opening_roll"]
        # confirmed: the clock is stopped by the director, then the result entered
        done = await _post(live, f"{base}/results", {**body, "stop_clock": True})
        assert done["done"] == [{"winner": m["a"]}]
        for _ in range(100):  # the table's writer stores the stop
            table = (await live.http.get(f"/api/tables/{t1['table_id']}/log.json",
                                         headers=DIRECTOR)).json()
            if len(table["events"]) > 1:
                break
            await asyncio.sleep(0.05)
        stop = table["events"][-1]["event"]
        assert stop["do"] == "stop" and stop["reason"] == "director"
        logged = [s["action"] for s in await _log(live, base)][-1]
        assert logged == {"do": "result", **body, "source": "hand"}


async def test_the_printed_draw_sheet_speaks_the_directors_language(live: Any) -> None:
    from bgclock.server.render.drawsheet import WORDS

    base = await _entered(live, "Stampa", 5, rounds=[
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "none"}])
    drawn = await _post(live, f"{base}/draw", {"seed": 8})
    await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
    seed = drawn["done"][0]["seed"]
    r = await live.http.get(f"{base}/draw/main.html?lang=it", headers=DIRECTOR)
    assert r.status_code == 200
    page = r.text
    assert '<html lang="it">' in page
    assert "Turno 1" in page and f"8 posti · seme {seed}" in page and "tavolo 1" in page
    english = {w.split("{")[0].strip() for k, w in WORDS["en"].items() if w != WORDS["it"][k]}
    body = page.split("</style>", 1)[1]
    assert [w for w in english if w and re.search(rf"\b{re.escape(w)}\b", body)] == []
    # an unknown language is English; the English sheet as before
    r = await live.http.get(f"{base}/draw/main.html?lang=xx<script>", headers=DIRECTOR)
    assert '<html lang="en">' in r.text and "Round 1" in r.text and "<script>" not in r.text


async def test_two_dashboards_confirming_the_same_undo_undo_it_once(live: Any) -> None:
    """Each dashboard's undo names what it showed (the winner and how many
    corrections): the second one, sent after the first was applied, is
    refused with its code and the hand result stands."""
    base = await _entered(live, "Two desks", 4)
    drawn = await _post(live, f"{base}/draw", {"seed": 4})
    a, b = drawn["state"]["main"]["rounds"][0][0]["a"], drawn["state"]["main"]["rounds"][0][0]["b"]
    await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": a})
    await _post(live, f"{base}/corrections", {"round": 0, "match": 0, "winner": b,
                                              "reason": "the sheet"})
    seen = {"round": 0, "match": 0, "winner": b, "corrections": 1}
    first, second = await asyncio.gather(
        live.http.post(f"{base}/results/revert", json=seen, headers=DIRECTOR),
        live.http.post(f"{base}/results/revert", json=seen, headers=DIRECTOR))
    codes = sorted([first.status_code, second.status_code])
    assert codes == [200, 409], (first.text, second.text)
    refusal = (second if second.status_code == 409 else first).json()
    assert refusal["error"] == "result_changed" and refusal["params"] == {"name": a}
    state = (await live.http.get(f"{base}/state", headers=DIRECTOR)).json()
    assert state["main"]["rounds"][0][0]["winner"] == a
    assert [s["action"]["do"] for s in await _log(live, base)][-3:] == [
        "result", "correct", "revert"]
    r = await live.http.post(f"{base}/results/revert", json={**seen, "corrections": -1},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "corrections" in r.json()["message"]
