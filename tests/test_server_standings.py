"""The tournament's end on the server (issue 19 §4): standings after a
played-out Main and consolation (results entered by hand), the prize list,
the exports and the wall pairings, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _get(live: Any, path: str, status: int = 200) -> Any:
    r = await live.http.get(path, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return r


async def _played_out(live: Any, n: int = 8) -> tuple[str, dict[str, Any]]:
    """``n`` players drawn; every Main and consolation match started at its
    tables and won by hand by its first-listed player (side A)."""
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    for i in range(1, n + 1):
        await _post(live, f"{base}/players", {"name": f"Player {i:02d}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    state = (await _post(live, f"{base}/draw", {"seed": 7}))["state"]
    for event in ("main", "consolation"):
        r_no = 0
        while state[event] is not None and r_no < len(state[event]["rounds"]):
            ready = [i for i, m in enumerate(state[event]["rounds"][r_no])
                     if m["a"] and m["b"] and not m["winner"]]
            if ready:
                state = (await _post(live, f"{base}/rounds",
                                     {"event": event, "round": r_no}))["state"]
            for i in ready:
                m = state[event]["rounds"][r_no][i]
                state = (await _post(live, f"{base}/results", {
                    "event": event, "round": r_no, "match": i, "winner": m["a"],
                    "score": [5, 2]}))["state"]
            r_no += 1
    return base, state


async def test_standings_after_a_played_out_main_and_consolation(live: Any) -> None:
    base, state = await _played_out(live)
    final = state["main"]["rounds"][-1][0]
    body = (await _get(live, f"{base}/standings.json")).json()
    events = {e["event"]: e for e in body["events"]}
    main, cons = events["main"], events["consolation"]
    assert main["complete"] and main["champion"] == final["winner"] == final["a"]
    assert [p["label"] for p in main["placings"]] == ["1", "2", "3–4", "5–8"]
    assert main["placings"][1]["names"] == [final["b"]]
    assert cons["complete"] and [p["label"] for p in cons["placings"]] == ["1", "2", "3–4"]
    assert cons["champion"] == state["consolation"]["rounds"][-1][0]["winner"]


async def test_the_standings_say_in_play_until_a_place_is_decided(live: Any) -> None:
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    assert (await _get(live, f"{base}/standings.json")).json()["events"] == []
    for i in range(1, 5):
        await _post(live, f"{base}/players", {"name": f"P{i}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 1})
    main = (await _get(live, f"{base}/standings.json")).json()["events"][0]
    assert not main["complete"] and main["placings"] == [] and len(main["in_play"]) == 4
    rows = list(csv.DictReader(io.StringIO((await _get(live, f"{base}/standings.csv")).text)))
    assert {row["place"] for row in rows} == {"in play"}


async def test_the_prize_list_is_stored_printed_and_refused_when_bad(live: Any) -> None:
    base, _ = await _played_out(live)
    done = await _post(live, f"{base}/prizes",
                       {"event": "main", "prizes": ["€200", "€100", "Coppa", "Coppa"]})
    assert done["done"] == [{"event": "main", "places": 4}]
    assert done["state"]["prizes"] == {"main": ["€200", "€100", "Coppa", "Coppa"]}
    r = await live.http.post(f"{base}/prizes", json={"event": "main", "prizes": ["x" * 101]},
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.prizes[0]"), r.text
    r = await live.http.post(f"{base}/prizes", json={"event": "darts", "prizes": []},
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.event"), r.text
    body = (await _get(live, f"{base}/standings.json")).json()
    assert body["prizes"] == {"main": ["€200", "€100", "Coppa", "Coppa"]}  # unchanged
    main = body["events"][0]
    assert [p["prizes"] for p in main["placings"]][:3] == [["€200"], ["€100"],
                                                          ["Coppa", "Coppa"]]
    page = (await _get(live, f"{base}/standings.html?lang=it")).text
    assert '<html lang="it">' in page and "Classifica" in page and "€200" in page
    assert "Consolazione progressiva" in page
    en = (await _get(live, f"{base}/standings.html")).text
    assert '<html lang="en">' in en and "Standings" in en
    await _get(live, f"{base}/standings.html?lang=fr", status=422)
    # without the director's key: nothing
    r = await live.http.get(f"{base}/standings.json")
    assert r.status_code == 401


async def test_the_exports_list_standings_and_every_players_results(live: Any) -> None:
    base, state = await _played_out(live)
    rows = list(csv.DictReader(io.StringIO((await _get(live, f"{base}/standings.csv")).text)))
    main_rows = [row for row in rows if row["event"] == "main"]
    assert len(main_rows) == 8 and main_rows[0]["place"] == "1"
    results = (await _get(live, f"{base}/results.json")).json()["results"]
    first = state["main"]["rounds"][0][0]
    mine = [x for x in results if x["player"] == first["b"] and x["event"] == "main"]
    assert mine == [{"player": first["b"], "event": "main", "round": 1, "match": 1,
                     "table": mine[0]["table"], "opponent": first["a"], "result": "lost",
                     "score": [2, 5], "source": "hand"}]
    # every Main match appears once from each side
    assert len([x for x in results if x["event"] == "main"]) == 2 * 7
    text = (await _get(live, f"{base}/results.csv")).text
    assert text.startswith("player,event,round,match,table,opponent,result,score,source\r\n")
    assert len(text.strip().splitlines()) == len(results) + 1


async def test_the_wall_pairings_by_table_and_by_name(live: Any) -> None:
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"rounds": [{"clock": "none"}]})
    names = ["Zoe", "Anna", "Marco", "Luca", "Bea", "Carlo"]
    for i, name in enumerate(names, 1):
        await _post(live, f"{base}/players", {"name": name}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 3})
    await _get(live, f"{base}/pairings.html?event=consolation", status=409)
    started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0,
                                                   "tables": [12, 4]})
    page = (await _get(live, f"{base}/pairings.html?lang=it")).text
    assert '<html lang="it">' in page and "Turno 1" in page and "Per tavolo" in page
    by_table, by_name = page.split('id="by-name"')
    tables = [a["table"] for a in started["done"][0]["assigned"]]
    assert by_table.index(">4<") < by_table.index(">12<")  # sorted by table number
    seated = sorted((n for n in names if f"<tr><td>{n}</td>" in by_name),
                    key=lambda n: by_name.index(f"<tr><td>{n}</td>"))
    assert seated == sorted(seated)  # every seated player, by name
    assert len(seated) == 2 * len(tables)
    await _get(live, f"{base}/pairings.html?round=9", status=422)
    await _get(live, f"{base}/pairings.html?event=x", status=422)


async def test_the_room_shows_the_champion_and_the_registered_players(live: Any) -> None:
    base, state = await _played_out(live, n=4)
    tid = base.rsplit("/", 1)[1]
    token = (await _get(live, f"{base}/state")).json()["room_url"].split("token=")[1]
    room = (await live.http.get(f"/api/tournaments/{tid}/room.json?token={token}")).json()
    assert room["champions"]["main"] == state["main"]["rounds"][-1][0]["winner"]
    assert sorted(room["registered"]) == [f"Player {i:02d}" for i in range(1, 5)]


async def test_where_do_i_play_covers_the_swing_tables_too(live: Any) -> None:
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    for i in range(1, 5):
        await _post(live, f"{base}/players", {"name": f"P{i}"}, status=201)
    await _post(live, f"{base}/swing", {"start_vp": 100, "cpp": [10, 20], "clock": "none"},
                status=201)
    await _post(live, f"{base}/swing/rounds", {"seed": 4, "tables": [7, 9]})
    state = (await _get(live, f"{base}/state")).json()
    assert [(s["event"], s["table"]) for s in state["seats"]] == [("swing", 7), ("swing", 9)]
    token = state["room_url"].split("token=")[1]
    room = (await live.http.get(f"{base}/room.json?token={token}")).json()
    assert room["seats"] == state["seats"]
