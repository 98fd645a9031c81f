"""Flights on the server: two events in one room share its table numbers
(issue 23 §1), on SQLite and PostgreSQL.  The rule book: "Matches of the
Championship and Intermediate take precedence" (italian-tournament-rules)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, STORES, anyio_backend, live, live_server, store_factory

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _get(live: Any, path: str) -> dict[str, Any]:
    r = await live.http.get(path, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _event(live: Any, name: str, n: int, prefix: str, **flight: Any) -> str:
    r = await live.http.post("/api/tournaments", json={"name": name}, headers=DIRECTOR)
    assert r.status_code == 201, r.text
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    await _post(live, f"{base}/flight", {"room": "Sala Roma", **flight})
    csv_text = "name\n" + "".join(f"{prefix}{i}\n" for i in range(1, n + 1))
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    for i in range(1, n + 1):
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 7})
    return base


async def _held(live: Any, *bases: str) -> dict[int, str]:
    """Every table number an undecided match holds, with its event: none twice."""
    out: dict[int, str] = {}
    for base in bases:
        state = await _get(live, f"{base}/state")
        for m in state["matches"]:
            if m["winner"] is None:
                assert m["table"] not in out, (m["table"], base, out)
                out[m["table"]] = base
    return out


async def _until(live: Any, base: str, check: Any) -> dict[str, Any]:
    """The state once ``check(state)`` holds (the room's seating runs after the answer)."""
    await live.server.tourneys.flights.idle()
    state = await _get(live, f"{base}/state")
    for _ in range(200):
        if check(state):
            return state
        await asyncio.sleep(0.02)
        await live.server.tourneys.flights.idle()
        state = await _get(live, f"{base}/state")
    raise AssertionError(state)


async def test_two_events_share_the_rooms_tables_and_a_freed_table_seats_the_waiting(
        live: Any) -> None:
    champ = await _event(live, "Championship", 8, "C", precedence=1, tables=6)
    inter = await _event(live, "Intermediate", 8, "I", precedence=2, tables=6)
    # the Intermediate starts first: four matches, tables 1 to 4
    body = await _post(live, f"{inter}/rounds", {"round": 0})
    assert [t["table"] for t in body["tables"]] == [1, 2, 3, 4] and body["waiting"] == []
    # the Championship: two tables left of six, two matches wait
    body = await _post(live, f"{champ}/rounds", {"round": 0})
    assert [t["table"] for t in body["tables"]] == [5, 6]
    assert [(w["event_name"], w["round"]) for w in body["waiting"]] == [("Championship", 0)] * 2
    assert len(await _held(live, champ, inter)) == 6
    state = await _get(live, f"{champ}/state")
    waiting = [(w["round"], w["match"]) for w in state["waiting"]]
    assert len(waiting) == 2
    # a result at the Intermediate's table 2 frees it: the Championship's first waiting match
    inter_state = await _get(live, f"{inter}/state")
    m = next(x for x in inter_state["matches"] if x["table"] == 2)
    await _post(live, f"{inter}/results", {"round": 0, "match": m["match"], "winner": m["a"]})
    state = await _until(live, champ, lambda s: len(s["waiting"]) == 1)
    seated = next(x for x in state["matches"] if (x["round"], x["match"]) == waiting[0])
    assert seated["table"] == 2
    assert [(w["round"], w["match"]) for w in state["waiting"]] == waiting[1:]
    assert len(await _held(live, champ, inter)) == 6
    # the director's own numbers: one another event holds is refused, naming it
    for x in inter_state["matches"]:
        if x["table"] != 2:
            await _post(live, f"{inter}/results", {"round": 0, "match": x["match"],
                                                   "winner": x["b"]})
    # the Intermediate's last results freed 1, 3, 4: the Championship's waiting match took 1
    state = await _until(live, champ, lambda s: not s["waiting"])
    assert {x["table"] for x in state["matches"] if x["winner"] is None} == {1, 2, 5, 6}
    before = await _get(live, f"{inter}/state")
    r = await live.http.post(f"{inter}/rounds", json={"round": 1, "tables": [5, 3]},
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("tables[0]: table 5 is "
                                                                   "taken by Championship")
    r = await live.http.post(f"{inter}/rounds", json={"round": 1, "tables": [7, 3]},
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("tables[0]")
    assert (await _get(live, f"{inter}/state"))["actions"] == before["actions"]
    body = await _post(live, f"{inter}/rounds", {"round": 1, "tables": [4, 3]})
    assert [t["table"] for t in body["tables"]] == [4, 3]
    assert len(await _held(live, champ, inter)) == 6
    # the room's events by name, for the dashboard and the room display
    flight = (await _get(live, f"{inter}/flight"))["flight"]
    assert flight["room"] == "Sala Roma" and flight["tables"] == 6
    assert [(e["name"], e["precedence"], len(e["matches"])) for e in flight["events"]] == [
        ("Championship", 1, 4), ("Intermediate", 2, 2)]
    room = await _get(live, f"{champ}/room.json")
    assert [e["name"] for e in room["flight"]["events"]] == ["Championship", "Intermediate"]
    assert {m["table"] for e in room["flight"]["events"] for m in e["matches"]} == {1, 2, 3, 4,
                                                                                    5, 6}


async def test_interleaved_round_starts_and_precedence_when_tables_are_short(
        live: Any) -> None:
    beginners = await _event(live, "Principianti", 8, "B", precedence=3, tables=4)
    champ = await _event(live, "Championship", 4, "C", precedence=1, tables=4)
    inter = await _event(live, "Intermediate", 4, "I", precedence=2, tables=4)
    # beginners first: all four tables
    body = await _post(live, f"{beginners}/rounds", {"round": 0})
    assert [t["table"] for t in body["tables"]] == [1, 2, 3, 4]
    # the Intermediate and then the Championship start with no table free: both wait
    body = await _post(live, f"{inter}/rounds", {"round": 0})
    assert body["tables"] == [] and len(body["waiting"]) == 2
    body = await _post(live, f"{champ}/rounds", {"round": 0})
    assert body["tables"] == []
    assert [w["event_name"] for w in body["waiting"]] == ["Championship"] * 2 + [
        "Intermediate"] * 2
    # three tables free at once: the Championship's two, then one Intermediate
    b = await _get(live, f"{beginners}/state")
    for x in b["matches"][:3]:
        await _post(live, f"{beginners}/results", {"round": 0, "match": x["match"],
                                                   "winner": x["a"]})
    c = await _until(live, champ, lambda s: not s["waiting"])
    i = await _until(live, inter, lambda s: len(s["waiting"]) == 1)
    assert len([x for x in c["matches"] if x["winner"] is None]) == 2
    assert len([x for x in i["matches"] if x["winner"] is None]) == 1
    assert len(await _held(live, beginners, champ, inter)) == 4
    # bounds and fields: a refusal names the field and changes nothing
    before = await _get(live, f"{champ}/state")
    for body, words in [({"room": ""}, "body.room"), ({"room": "S", "precedence": 0},
                                                       "body.precedence"),
                        ({"room": "S", "tables": 10_000}, "body.tables"),
                        ({"room": "S", "seats": 3}, "body.seats")]:
        r = await live.http.post(f"{champ}/flight", json=body, headers=DIRECTOR)
        assert r.status_code == 422 and words in r.json()["message"], r.text
    r = await live.http.post(f"{champ}/flight", json={"room": "Altra sala"}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("room:")
    assert (await _get(live, f"{champ}/state"))["actions"] == before["actions"]


async def test_the_rooms_wall_and_exports_name_every_event(live: Any) -> None:
    champ = await _event(live, "Campionato", 4, "C", precedence=1, tables=3)
    inter = await _event(live, "Intermedio", 8, "I", precedence=2, tables=3)
    await _post(live, f"{inter}/rounds", {"round": 0})
    await _post(live, f"{champ}/rounds", {"round": 0})
    r = await live.http.get(f"{inter}/flight/pairings.html?lang=it", headers=DIRECTOR)
    assert r.status_code == 200, r.text
    page = r.text
    assert "Sala Roma · Abbinamenti" in page and "In attesa di un tavolo" in page
    # the Intermediate started first and holds the three tables (a match at its table
    # is never moved); the Championship's two wait ahead of the Intermediate's fourth
    assert page.index("In attesa di un tavolo") < page.index("Campionato · Main · Turno 1")
    assert "Intermedio · Main · Turno 1" in page
    r = await live.http.get(f"{champ}/flight.csv", headers=DIRECTOR)
    assert r.status_code == 200
    lines = r.text.splitlines()
    assert lines[0] == "room,event_name,precedence,status,table,event,round,match,a,b"
    rows = [x.split(",") for x in lines[1:]]
    assert [(x[1], x[2], x[3], x[4]) for x in rows] == [
        ("Intermedio", "2", "table", "1"), ("Intermedio", "2", "table", "2"),
        ("Intermedio", "2", "table", "3"), ("Campionato", "1", "waiting", ""),
        ("Campionato", "1", "waiting", ""), ("Intermedio", "2", "waiting", "")], rows
    r = await live.http.get(f"{champ}/flight/standings.csv", headers=DIRECTOR)
    assert r.status_code == 200
    names = {line.split(",")[0] for line in r.text.splitlines()[1:]}
    assert names == {"Campionato", "Intermedio"}
    r = await live.http.get(f"{champ}/flight/pairings.html?lang=fr", headers=DIRECTOR)
    assert r.status_code == 422 and "query.lang" in r.json()["message"]
    await _post(live, "/api/tournaments", {"name": "Solo"}, status=201)
    r = await live.http.get("/api/tournaments/3/flight.csv", headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "no_room"


async def test_round_starts_sent_at_once_never_take_the_same_table(live: Any) -> None:
    bases = [await _event(live, f"Evento {k}", 8, f"E{k}P", precedence=k, tables=10)
             for k in (1, 2, 3)]
    answers = await asyncio.gather(*(live.http.post(f"{b}/rounds", json={"round": 0},
                                                    headers=DIRECTOR) for b in bases))
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    held = await _held(live, *bases)  # asserts no number twice
    assert sorted(held) == list(range(1, 11))
    waiting = [len((await _get(live, f"{b}/state"))["waiting"]) for b in bases]
    assert sum(waiting) == 2
    # who waits depends on who came first; once tables free, precedence decides
    states = [await _get(live, f"{b}/state") for b in bases]
    for b, st in zip(bases, states, strict=True):
        for m in st["matches"]:
            if m["winner"] is None:
                await _post(live, f"{b}/results", {"round": 0, "match": m["match"],
                                                   "winner": m["a"]})
                break
    for b in bases:
        await _until(live, b, lambda s: not s["waiting"])
    assert len(await _held(live, *bases)) == 9


@pytest.mark.parametrize("kind", STORES)
async def test_a_table_freed_just_before_a_stop_is_taken_at_restart(kind: str,
                                                                   tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as first:
            champ = await _event(first, "Championship", 4, "C", precedence=1, tables=2)
            inter = await _event(first, "Intermediate", 4, "I", precedence=2, tables=2)
            await _post(first, f"{inter}/rounds", {"round": 0})
            body = await _post(first, f"{champ}/rounds", {"round": 0})
            assert body["tables"] == [] and len(body["waiting"]) == 2
            # the server stops after the result is stored, before its seating task runs
            first.server.tourneys.flights.poke = lambda hub: None
            m = (await _get(first, f"{inter}/state"))["matches"][0]
            await _post(first, f"{inter}/results", {"round": 0, "match": m["match"],
                                                    "winner": m["a"]})
            assert len((await _get(first, f"{champ}/state"))["waiting"]) == 2
        async with live_server(make) as again:
            state = await _until(again, champ, lambda s: len(s["waiting"]) == 1)
            assert [x["table"] for x in state["matches"]] == [m["table"]]
