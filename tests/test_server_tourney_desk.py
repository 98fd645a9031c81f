"""The director's desk around the rounds (issue 12): late arrivals at a match
counted by the server or started on the clock, score sheets, the ruling
committee and its appeals, the exports; on SQLite and PostgreSQL, with a
ManualClock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live.time import ManualClock
from tests._server_kit import (
    DIRECTOR,
    STORES,
    Device,
    anyio_backend,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

MIN = 60_000


@pytest.fixture(params=STORES)
async def manual(request: Any, tmp_path: Path) -> Any:
    clock = ManualClock()
    async with (
        store_factory(request.param, tmp_path) as make,
        live_server(make, clock=clock, table_rate=(1000, 1000)) as server,
    ):
        yield server, clock


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _state(live: Any, base: str) -> dict[str, Any]:
    r = await live.http.get(f"{base}/state", headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _until(check: Any, timeout: float = 5.0) -> Any:
    for _ in range(int(timeout / 0.02)):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def _started(live: Any, n: int = 4, clock: str = "none", length: int = 7,
                   late_slots: int = 0) -> tuple[str, dict[str, Any]]:
    """A tournament of ``n`` players drawn, its first round at tables."""
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"late_slots": late_slots, "rounds": [
        {"length": length, "rules": "usbgf-2013-delay", "clock": clock}]})
    for i in range(1, n + 1):
        await _post(live, f"{base}/players", {"name": f"P{i}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 7})
    started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
    return base, started


def _pid(state: dict[str, Any], name: str) -> int:
    return next(p["id"] for p in state["players"] if p["name"] == name)


def _match(state: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return dict(state["main"]["rounds"][0][i])


async def test_a_late_player_without_a_clock_loses_points_then_the_match(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live)
    state = started["state"]
    m = _match(state)
    late_id = _pid(state, m["a"])
    now = clock.now_ms()
    body = await _post(live, f"{base}/late/absent", {"event": "main", "round": 0, "match": 0,
                                                     "player": late_id, "scheduled_ms": now})
    assert body["done"][0]["from_ms"] == now + 20 * MIN  # the scheduled start + 20 min
    late = body["state"]["late"][0]
    assert late["absent"] == [m["a"]] and not late["clock"]
    assert late["count"]["points"] == 0 and late["count"]["out_ms"] == now + 40 * MIN
    clock.advance(25 * MIN)  # 5 min past the director's moment: one point

    async def points() -> Any:
        s = await _state(live, base)
        return s["late"][0]["count"]["points"] == 1 and s

    s = await _until(points)
    assert s["late"][0]["count"]["score"] == [0, 1]
    # 7 points: more than half of 7 is 4 points, 20 minutes after from_ms
    clock.advance(15 * MIN)

    async def decided() -> Any:
        s = await _state(live, base)
        return _match(s)["winner"] and s

    s = await _until(decided)
    assert _match(s)["winner"] == m["b"]
    result = next(x for x in s["matches"] if x["match"] == 0)["result"]
    assert result == {"source": "disqualified", "player": m["a"], "reason": "late",
                      "score": [0, 4]}
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    # the server's own action disqualified him (others it takes may follow it)
    disqualified = [a for a in actions if a["action"]["do"] == "disqualify"]
    assert [a["source"] for a in disqualified] == ["server"], actions
    assert "count" not in s["late"][0] or s["late"][0]["count"]["over"]


async def test_arriving_stops_the_count_and_a_restart_keeps_it(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live)
    state = started["state"]
    m = _match(state, 1)
    late_id = _pid(state, m["b"])
    from_ms = clock.now_ms() + 1_000
    await _post(live, f"{base}/late/absent", {"round": 0, "match": 1, "player": late_id,
                                             "from_ms": from_ms})
    clock.advance(11 * MIN)  # two points
    body = await _post(live, f"{base}/late/arrive", {"player": late_id})
    assert body["done"][0]["late"]["points"] == 2
    assert body["done"][0]["late"]["score"] == [2, 0]
    clock.advance(60 * MIN)
    await asyncio.sleep(0.1)
    s = await _state(live, base)
    assert _match(s, 1)["winner"] is None
    late = s["late"][0]
    assert late["arrived_ms"] == {m["b"]: from_ms + 11 * MIN - 1_000}
    assert late["count"]["points"] == 2 and late["count"]["arrived"]
    # refused: not a player of that match; a decided match
    r = await live.http.post(f"{base}/late/absent", headers=DIRECTOR, json={
        "round": 0, "match": 1, "player": _pid(state, _match(state, 0)["a"])})
    assert r.status_code == 422 and "body.player" in r.json()["message"]
    r = await live.http.post(f"{base}/late/absent", headers=DIRECTOR, json={
        "round": 0, "match": 1, "player": late_id, "scheduled_ms": "soon"})
    assert r.status_code == 422 and "scheduled_ms" in r.json()["message"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_count_survives_a_restart(kind: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make, clock=clock) as live:
            base, started = await _started(live)
            m = _match(started["state"])
            late_id = _pid(started["state"], m["a"])
            await _post(live, f"{base}/late/absent", {"round": 0, "match": 0,
                                                     "player": late_id,
                                                     "from_ms": clock.now_ms()})
        clock.advance(30 * MIN)  # the server was down past the threshold
        async with live_server(make, clock=clock) as live:
            # folded again at start: the timers are re-armed without a reader

            async def decided() -> Any:
                s = await _state(live, base)
                return _match(s)["winner"]

            assert await _until(decided) == m["b"]


async def test_with_a_clock_the_absent_players_clock_starts_at_the_chosen_moment(
        manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, clock="required")
    state = started["state"]
    table = started["tables"][0]
    m = _match(state, table["match"])
    late_id = _pid(state, m["b"])
    from_ms = clock.now_ms() + 2 * MIN
    body = await _post(live, f"{base}/late/absent", {"round": 0, "match": table["match"],
                                                     "player": late_id, "from_ms": from_ms})
    assert body["state"]["late"][0]["clock"] is True
    assert "count" not in body["state"]["late"][0]  # the clock keeps the time
    assert await live.stored(table["table_id"]) == []
    clock.advance(2 * MIN)

    async def started_clock() -> Any:
        return await live.stored(table["table_id"])

    events = await _until(started_clock)
    info = (await live.http.get(f"/api/tables/{table['table_id']}", headers=DIRECTOR)).json()
    assert events[0]["event"]["do"] == "late_start" and events[0]["event"]["side"] == "B"
    assert events[0]["source"] == "director"
    assert events[0]["at_ms"] == from_ms - int(info["created_ms"])
    assert info["state"]["on_turn"] == "B" and info["state"]["phase"] == "playing"


@pytest.mark.parametrize("kind", STORES)
async def test_a_late_start_due_after_a_restart_is_sent(kind: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make, clock=clock) as live:
            base, started = await _started(live, clock="required")
            table = started["tables"][0]
            m = _match(started["state"], table["match"])
            await _post(live, f"{base}/late/absent", {
                "round": 0, "match": table["match"], "player": _pid(started["state"], m["a"]),
                "from_ms": clock.now_ms() + 10 * MIN})
        async with live_server(make, clock=clock) as live:
            clock.advance(10 * MIN)

            async def started_clock() -> Any:
                return await live.stored(table["table_id"])

            events = await _until(started_clock)
            assert events[0]["event"]["do"] == "late_start"
            assert events[0]["event"]["side"] == "A"


async def test_the_table_page_shows_the_count(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, clock="on_request")
    state = started["state"]
    table = started["tables"][0]
    m = _match(state, table["match"])
    info = (await live.http.get(f"/api/tables/{table['table_id']}", headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        await _post(live, f"{base}/late/absent", {"round": 0, "match": table["match"],
                                                 "player": _pid(state, m["a"]),
                                                 "from_ms": clock.now_ms()})
        msg = await device.expect("table")
        assert msg["info"]["late"]["absent"] == [m["a"]]
        assert msg["info"]["late"]["points"] == 0
        clock.advance(5 * MIN)
        msg = await device.expect("table")
        assert msg["info"]["late"]["points"] == 1 and msg["info"]["late"]["score"] == [0, 1]
        await _post(live, f"{base}/late/arrive", {"player": _pid(state, m["a"])})
        msg = await device.expect("table")
        assert msg["info"]["late"]["arrived"]


async def test_score_sheets_agree_or_are_flagged_and_the_director_settles(manual: Any) -> None:
    live, _clock = manual
    base, started = await _started(live, n=8, clock="on_request")
    state = started["state"]
    m0, m1 = _match(state, 0), _match(state, 1)
    pins = {p["name"]: p["pin"] for p in (await live.http.get(
        f"{base}/sheet-pins", headers=DIRECTOR)).json()["pins"]}
    assert len(pins) == 8 and all(len(p) == 8 and p.isdigit() for p in pins.values())
    assert (await live.http.get(f"{base}/sheet-pins")).status_code in (401, 403)
    sheet = {"event": "main", "round": 0, "match": 0}
    # A's paper sheet, entered by the director: the player's own
    body = await _post(live, f"{base}/sheets", {**sheet, "by": "A", "winner": m0["a"],
                                               "score": [7, 3]})
    assert body["done"][0]["final"] is False and body["done"][0]["outcome"] == "waiting"
    table = next(x for x in started["tables"] if x["match"] == 0)
    info = (await live.http.get(f"/api/tables/{table['table_id']}", headers=DIRECTOR)).json()
    url, token = f"/api/tables/{table['table_id']}/sheet", {"token": info["token"]}
    b_sheet = {"by": "B", "winner": m0["a"], "score": [7, 3]}
    # B's sheet from the table with the table's token alone: kept, not agreed
    r = await live.http.post(url, params=token, json=b_sheet)
    assert r.status_code == 200, r.text
    assert r.json()["done"][0]["final"] is False
    assert "table's token" in r.json()["done"][0]["why"]
    # a PIN that is not B's player's (A's, or made up): refused, nothing changes
    for pin in (pins[m0["a"]], "00000000"):
        r = await live.http.post(url, params=token, json={**b_sheet, "pin": pin})
        assert r.status_code == 403 and "pin" in r.json()["message"], r.text
    r = await live.http.post(url, params=token, json={**b_sheet, "pin": "123"})
    assert r.status_code == 422 and "body.pin" in r.json()["message"]
    assert _match(await _state(live, base), 0)["winner"] is None
    # with B's own PIN: the two players' own sheets agree
    r = await live.http.post(url, params=token, json={**b_sheet, "pin": pins[m0["b"]]})
    assert r.status_code == 200, r.text
    assert r.json()["done"][0]["final"] is True
    s = await _state(live, base)
    assert _match(s, 0)["winner"] == m0["a"]
    result = next(x for x in s["matches"] if x["match"] == 0)["result"]
    assert result == {"source": "hand", "sheets": "agreed", "score": [7, 3]}
    # a wrong token
    r = await live.http.post(url, params={"token": "1.x"}, json={"by": "A", "winner": m0["a"]})
    assert r.status_code == 403
    # match 1: one table token hands in both sides' sheets, the same: it waits
    t1 = next(x for x in started["tables"] if x["match"] == 1)
    info1 = (await live.http.get(f"/api/tables/{t1['table_id']}", headers=DIRECTOR)).json()
    url1, token1 = f"/api/tables/{t1['table_id']}/sheet", {"token": info1["token"]}
    games_a = [[2, 0], [2, 1], [7, 1]]
    games_b = [[2, 0], [2, 3], [2, 7]]
    for by in ("A", "B"):
        r = await live.http.post(url1, params=token1,
                                 json={"by": by, "winner": m1["a"], "games": games_a})
        assert r.status_code == 200 and r.json()["done"][0]["final"] is False, r.text
    row = next(x for x in (await _state(live, base))["sheets"] if x["match"] == 1)
    assert row["outcome"] == "director" and not row["mismatch"] and row["winner"] is None
    # each player's own sheet, game by game: they differ from game 2, which B
    # began trailing 0-2: B's sheet stands, flagged to the director
    for by, games in (("A", games_a), ("B", games_b)):
        player = m1["a"] if by == "A" else m1["b"]
        winner = m1["a"] if games[-1][0] == 7 else m1["b"]
        r = await live.http.post(url1, params=token1, json={
            "by": by, "winner": winner, "games": games, "pin": pins[player]})
        assert r.status_code == 200, r.text
    assert r.json()["done"][0]["outcome"] == "trailing"
    s = await _state(live, base)
    assert _match(s, 1)["winner"] == m1["b"]
    assert next(x for x in s["matches"] if x["match"] == 1)["result"] == {
        "source": "hand", "sheets": "trailing", "score": [2, 7], "trailing": "B", "game": 2}
    row = next(x for x in s["sheets"] if x["match"] == 1)
    assert row["flagged"] and row["trailing"] == "B" and row["game"] == 2
    assert row["sheets"]["A"]["games"] == games_a and row["sheets"]["A"]["via"] == "player"
    # the director may still correct it
    body = await _post(live, f"{base}/corrections", {**sheet, "match": 1, "winner": m1["a"],
                                                    "reason": "A's sheet was right"})
    assert _match(body["state"], 1)["winner"] == m1["a"]
    r = await live.http.post(f"{base}/sheets", headers=DIRECTOR,
                             json={**sheet, "by": "C", "winner": m0["a"]})
    assert r.status_code == 422 and "body.by" in r.json()["message"]
    r = await live.http.post(f"{base}/sheets", headers=DIRECTOR, json={
        **sheet, "match": 1, "by": "A", "winner": m1["a"], "games": [[3, 3]]})
    assert r.status_code == 422 and "games[0]" in r.json()["message"]


async def test_wrong_sheet_pins_make_the_table_wait(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, clock="on_request")
    m0 = _match(started["state"], 0)
    table = next(x for x in started["tables"] if x["match"] == 0)
    info = (await live.http.get(f"/api/tables/{table['table_id']}", headers=DIRECTOR)).json()
    url, token = f"/api/tables/{table['table_id']}/sheet", {"token": info["token"]}
    body = {"by": "A", "winner": m0["a"]}
    for k in range(5):
        r = await live.http.post(url, params=token, json={**body, "pin": f"{k:08d}"})
        assert r.status_code == 403, r.text
    pins = {p["name"]: p["pin"] for p in (await live.http.get(
        f"{base}/sheet-pins", headers=DIRECTOR)).json()["pins"]}
    # even the right PIN waits now: no sixth guess within the minute
    r = await live.http.post(url, params=token, json={**body, "pin": pins[m0["a"]]})
    assert r.status_code == 429 and "pin" in r.json()["message"]
    # without a PIN the table's sheet is still kept
    r = await live.http.post(url, params=token, json=body)
    assert r.status_code == 200 and r.json()["done"][0]["final"] is False
    # a minute after the last wrong PIN the table may try again
    clock.advance(60_000)
    r = await live.http.post(url, params=token, json={**body, "pin": pins[m0["a"]]})
    assert r.status_code == 200, r.text
    assert r.json()["done"][0]["outcome"] == "waiting"


async def test_the_committee_hears_an_appeal_with_a_member_replaced(manual: Any) -> None:
    live, _clock = manual
    base, started = await _started(live, n=8)
    state = started["state"]
    m = _match(state)
    a_id, b_id = _pid(state, m["a"]), _pid(state, m["b"])
    others = [p["id"] for p in state["players"] if p["id"] not in (a_id, b_id)]
    r = await live.http.post(f"{base}/appeals", headers=DIRECTOR, json={
        "round": 0, "match": 0, "by": a_id, "ruling": "the dice were cocked"})
    assert r.status_code == 409 and "committee" in r.json()["message"]
    r = await live.http.post(f"{base}/committee", headers=DIRECTOR, json={"members": [1, 2]})
    assert r.status_code == 422 and "body.members" in r.json()["message"]
    body = await _post(live, f"{base}/committee", {"members": [a_id, others[0], others[1]]})
    assert [x["id"] for x in body["state"]["committee"]] == [a_id, others[0], others[1]]
    # a member who plays the match must be replaced
    r = await live.http.post(f"{base}/appeals", headers=DIRECTOR, json={
        "round": 0, "match": 0, "by": b_id, "ruling": "the dice were cocked"})
    assert r.status_code == 409 and "substitute" in r.json()["message"]
    body = await _post(live, f"{base}/appeals", {
        "round": 0, "match": 0, "by": b_id, "ruling": "the dice were cocked",
        "substitutes": [others[2]]}, status=201)
    assert body["done"] == [{"appeal": 1, "panel": [others[2], others[0], others[1]]}]
    r = await live.http.post(f"{base}/appeals/1/decision", headers=DIRECTOR, json={
        "votes": {str(others[0]): "overturn"}})
    assert r.status_code == 422 and "body.votes" in r.json()["message"]
    body = await _post(live, f"{base}/appeals/1/decision", {
        "votes": {str(others[0]): "overturn", str(others[1]): "uphold",
                  str(others[2]): "overturn", "director": "overturn"},
        "hearing": "both players heard"})
    assert body["done"] == [{"appeal": 1, "decision": "overturned"}]  # 3-1
    appeal = body["state"]["appeals"][0]
    assert appeal["decision"] == "overturned" and appeal["hearing"] == "both players heard"
    assert (appeal["event"], appeal["round"], appeal["match"]) == ("main", 0, 0)
    r = await live.http.post(f"{base}/appeals/1/decision", headers=DIRECTOR, json={
        "votes": {str(others[0]): "uphold", str(others[1]): "uphold",
                  str(others[2]): "uphold"}})
    assert r.status_code == 409
    # the room display shows the committee and the appeals
    room = (await live.http.get(f"{base}/room.json", headers=DIRECTOR)).json()
    assert [x["name"] for x in room["committee"]] == [m["a"], *(
        next(p["name"] for p in state["players"] if p["id"] == o) for o in others[:2])]
    assert room["appeals"][0]["decision"] == "overturned"


async def test_the_draw_and_results_export_as_csv_json_and_a_printable_sheet(
        manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, n=6, clock="none", late_slots=2)
    state = started["state"]
    m = _match(state, 0)
    winner = m["a"] or m["b"]
    if m["a"] and m["b"]:
        await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": winner,
                                             "score": [7, 5]})
    r = await live.http.get(f"{base}/draw.csv", headers=DIRECTOR)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    lines = r.text.splitlines()
    assert lines[0] == ("event,round,match,table,a,b,winner,source,score,disqualified,"
                        "corrected_from,reason")
    size = state["main"]["size"]
    assert len(lines) == 1 + size - 1  # the Main's matches; no consolation yet
    first = lines[1].split(",")
    assert first[:3] == ["main", "1", "1"]
    if m["a"] and m["b"]:
        assert first[6:9] == [winner, "hand", "7-5"]
    data = (await live.http.get(f"{base}/draw.json", params={"key": DIRECTOR[
        "Authorization"][7:]})).json()
    assert data["tournament"] == "Open" and data["seed"] == 7
    assert data["main"]["rounds"] == state["main"]["rounds"] if not (m["a"] and m["b"]) \
        else len(data["matches"]) == size - 1
    page = await live.http.get(f"{base}/draw/main.html", headers=DIRECTOR)
    assert page.status_code == 200 and "@page" in page.text and "A4 landscape" in page.text
    assert "Round 1" in page.text and "Final" in page.text
    for p in state["players"]:
        assert p["name"] in page.text
    r = await live.http.get(f"{base}/draw/consolation.html", headers=DIRECTOR)
    assert r.status_code == 409  # not drawn yet
    r = await live.http.get(f"{base}/draw/swiss.html", headers=DIRECTOR)
    assert r.status_code == 404
    r = await live.http.get(f"{base}/draw.csv")
    assert r.status_code == 401
