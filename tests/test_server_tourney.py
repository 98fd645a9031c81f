"""The tournament on the server: players, the draw, rounds at tables, results
(issue 12), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bgclock.tournament import MainDraw
from tests._server_kit import (
    DIRECTOR,
    STORES,
    Device,
    anyio_backend,
    live,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _tournament(live: Any, name: str = "Open") -> str:
    r = await live.http.post("/api/tournaments", json={"name": name}, headers=DIRECTOR)
    assert r.status_code == 201, r.text
    return f"/api/tournaments/{r.json()['id']}"


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _state(live: Any, base: str) -> dict[str, Any]:
    r = await live.http.get(f"{base}/state", headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _field(live: Any, base: str, n: int, *, settings: dict[str, Any] | None = None,
                 seed: int = 11) -> dict[str, Any]:
    """``n`` players registered and checked in, the draw made with ``seed``."""
    if settings:
        await _post(live, f"{base}/settings", settings)
    csv_text = "name,federation_id\n" + "".join(f"P{i},FIBT{i}\n" for i in range(1, n + 1))
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    for i in range(1, n + 1):
        await _post(live, f"{base}/players/{i}/check-in")
    return await _post(live, f"{base}/draw", {"seed": seed})


async def test_players_are_registered_checked_in_withdrawn_and_drawn_with_the_seed(
        live: Any) -> None:
    base = await _tournament(live)
    body = await _post(live, f"{base}/players", {"name": "Ann", "federation_id": "IT-1"},
                       status=201)
    assert body["done"] == [{"player": 1}]
    r = await live.http.post(f"{base}/players.csv", content=b"Bob\nCy,IT-3\nDee\nEd\n",
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    for pid in (1, 2, 3, 4, 5):
        await _post(live, f"{base}/players/{pid}/check-in")
    await _post(live, f"{base}/players/5/withdraw")
    drawn = await _post(live, f"{base}/draw", {"seed": 1234})
    assert drawn["done"][-1] == {"seed": 1234, "size": 4}
    players = drawn["state"]["players"]
    assert [p["name"] for p in players] == ["Ann", "Bob", "Cy", "Dee", "Ed"]
    assert players[2]["federation_id"] == "IT-3" and players[4]["withdrawn"]
    # the same pure draw `bgclock draw simulate` uses, with the director's seed
    expected = MainDraw(["Ann", "Bob", "Cy", "Dee"], late_slots=0, rng=random.Random(1234))
    assert drawn["state"]["main"]["rounds"] == expected.bracket.to_dict()["rounds"]
    assert drawn["state"]["settings"]["seed"] == 1234


async def test_refused_inputs_name_the_field_and_change_nothing(live: Any) -> None:
    base = await _tournament(live)
    await _post(live, f"{base}/players", {"name": "Ann"}, status=201)
    before = await _state(live, base)
    bad: list[tuple[str, Any, int, str]] = [
        ("players", {"name": ""}, 422, "body.name"),
        ("players", {"name": "x" * 101}, 422, "body.name"),
        ("players", {"name": "A\u0000n"}, 422, "body.name"),
        ("players", {"name": "Ann"}, 422, "body.name"),
        ("players", {"name": "Bo", "federation_id": 7}, 422, "body.federation_id"),
        ("players", {"name": "Bo", "rank": 1}, 422, "body.rank"),
        ("settings", {"rounds": [{"length": 0}]}, 422, "body.rounds[0].length"),
        ("settings", {"rounds": [{"rules": "chess"}]}, 422, "body.rounds[0].rules"),
        ("settings", {"rounds": [{"clock": "maybe"}]}, 422, "body.rounds[0].clock"),
        ("settings", {"rounds": [{"rules": []}]}, 422, "body.rounds[0].rules"),
        ("settings", {"rounds": []}, 422, "body.rounds"),
        ("settings", {"rounds": [{"length": True}]}, 422, "body.rounds[0].length"),
        ("settings", {"late_slots": -1}, 422, "body.late_slots"),
        ("settings", {"seed": "abc"}, 422, "body.seed"),
        ("players/9/check-in", {}, 422, "body.player"),
        ("players/1/check-in", {"checked_in": "yes"}, 422, "body.checked_in"),
        ("draw", {}, 409, "nobody is checked in"),
        ("results", {"round": 0, "match": 0, "winner": "Ann"}, 409, "draw"),
        ("late/close", {}, 409, "draw"),
    ]
    for path, body, status, words in bad:
        r = await live.http.post(f"{base}/{path}", json=body, headers=DIRECTOR)
        assert r.status_code == status, (path, body, r.text)
        assert words in r.json()["message"], (path, r.json())
    # a CSV with one bad line is refused whole, naming the line
    r = await live.http.post(f"{base}/players.csv", content=b"name\nBo\nCy,1,2\n",
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 422 and "line 3" in r.json()["message"]
    r = await live.http.post(f"{base}/players.csv", content=b"Bo\nAnn\n",
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 422 and "line 2" in r.json()["message"]
    r = await live.http.post(f"{base}/players.csv", content=b"x" * (300 * 1024),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 413
    r = await live.http.post(f"{base}/players", json={"name": "Bo"})
    assert r.status_code == 401
    assert await _state(live, base) == before
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    assert [a["action"]["do"] for a in actions] == ["register"]


async def test_late_arrivals_fill_the_slots_in_order_and_closing_makes_byes(live: Any) -> None:
    base = await _tournament(live)
    await _field(live, base, 5, settings={"late_slots": 2})
    await _post(live, f"{base}/players", {"name": "Late"}, status=201)
    body = await _post(live, f"{base}/late/arrive", {"player": 6})
    main = body["state"]["main"]
    assert main["arrivals"] == ["Late"] and main["late_open"]
    position = main["late_slots"][0]
    assert main["rounds"][0][position // 2]["ab"[position % 2]] == "Late"
    body = await _post(live, f"{base}/late/close")
    assert not body["state"]["main"]["late_open"]
    r = await live.http.post(f"{base}/late/arrive", json={"player": 1}, headers=DIRECTOR)
    assert r.status_code == 409


async def _finish(device: Device, winner: str) -> None:
    """A one-point match at a table: the opening roll and the game."""
    ack = await device.cmd("opening_roll", dice=[3, 5])
    assert ack["type"] == "ack", ack
    ack = await device.cmd("game_over", winner=winner, result="single")
    assert ack["type"] == "ack", ack


async def _until(check: Any, timeout: float = 5.0) -> Any:
    for _ in range(int(timeout / 0.05)):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("never happened")


@pytest.mark.parametrize("kind", STORES)
async def test_a_round_at_tables_results_from_the_clock_and_the_same_tables_after_a_restart(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live)
            await _field(live, base, 4, settings={"rounds": [
                {"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]})
            started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            tables = started["tables"]
            assert [t["table"] for t in tables] == [1, 2]
            first = tables[0]
            info = (await live.http.get(f"/api/tables/{first['table_id']}",
                                        headers=DIRECTOR)).json()
            match = started["state"]["main"]["rounds"][0][first["match"]]
            assert info["players"] == [match["a"], match["b"]] and info["length"] == 1
            token = info["token"]
            async with Device.open(live.ws_url, {"token": token}) as device:
                await device.welcome()
                await _finish(device, "B")  # the clock says B won: into the draw at once

                async def decided() -> Any:
                    state = await _state(live, base)
                    return state["main"]["rounds"][0][first["match"]]["winner"]

                assert await _until(decided) == match["b"]
            state = await _state(live, base)
            result = next(m for m in state["matches"] if m["table"] == 1)["result"]
            assert result == {"source": "clock", "score": [0, 1]}
            # table 2 by hand; then the final goes to table 1 again
            m2 = state["main"]["rounds"][0][tables[1]["match"]]
            await _post(live, f"{base}/results", {"event": "main", "round": 0,
                                                  "match": tables[1]["match"],
                                                  "winner": m2["a"]})
            state = await _state(live, base)
            assert state["consolation"] is not None  # both first-match losers known
            final = await _post(live, f"{base}/rounds", {"event": "main", "round": 1,
                                                         "tables": [1]})
            again = final["tables"][0]
            assert again["table_id"] == first["table_id"]  # the same table, same link
            info = (await live.http.get(f"/api/tables/{first['table_id']}",
                                        headers=DIRECTOR)).json()
            assert info["token"] == token and info["seq"] == 0
            assert info["players"] == [match["b"], m2["a"]]
            archive = (await live.http.get(f"/api/tables/{first['table_id']}/archive.json",
                                           headers=DIRECTOR)).json()
            assert [e["event"]["do"] for e in archive["matches"][0]["events"]] == [
                "opening_roll", "game_over"]
            before = await _state(live, base)
        async with live_server(make) as live:  # a restart: the state comes back from its log
            after = await _state(live, base)
            assert {k: v for k, v in after.items() if k != "room_url"} == \
                {k: v for k, v in before.items() if k != "room_url"}
            async with Device.open(live.ws_url, {"token": token}) as device:
                await device.welcome()
                await _finish(device, "A")

                async def champion() -> Any:
                    return (await _state(live, base))["main"]["rounds"][1][0]["winner"]

                assert await _until(champion) == match["b"]


async def test_a_clock_policy_of_none_gives_no_clock_and_the_director_corrects(
        live: Any) -> None:
    base = await _tournament(live)
    await _field(live, base, 4, settings={"rounds": [
        {"length": 5, "rules": "it-tournament", "clock": "none"}]})
    started = await _post(live, f"{base}/rounds", {"round": 0})
    assert all(t["table_id"] is None and t["clock"] == "none" for t in started["tables"])
    tid = int(base.rsplit("/", 1)[1])
    tables = (await live.http.get(f"/api/tournaments/{tid}", headers=DIRECTOR)).json()["tables"]
    assert tables == []
    m = started["state"]["main"]["rounds"][0][0]
    await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": m["a"],
                                          "score": [5, 2]})
    r = await live.http.post(f"{base}/results", json={"round": 0, "match": 0,
                                                      "winner": m["b"]}, headers=DIRECTOR)
    assert r.status_code == 409  # a result is there: it is corrected, not entered again
    body = await _post(live, f"{base}/corrections", {"round": 0, "match": 0, "winner": m["b"],
                                                     "reason": "wrong sheet"})
    assert body["done"] == [{"winner": m["b"], "was": m["a"]}]
    assert body["state"]["main"]["rounds"][1][0]["a"] == m["b"]
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    assert actions[-1]["action"] == {"do": "correct", "round": 0, "match": 0,
                                     "winner": m["b"], "reason": "wrong sheet"}


async def test_the_room_display_opens_with_its_token_or_the_directors_key(live: Any) -> None:
    base = await _tournament(live)
    await _field(live, base, 4, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    await _post(live, f"{base}/rounds", {"round": 0})
    state = await _state(live, base)
    room_url = state["room_url"]
    tid = int(base.rsplit("/", 1)[1])
    token = room_url.split("token=")[1]
    r = await live.http.get(f"/room/{tid}?token={token}")
    assert r.status_code == 200 and "room/main.js" in r.text
    assert (await live.http.get(f"/room/{tid}?token=nope")).status_code == 403
    assert (await live.http.get(f"/room/{tid + 1}?token={token}")).status_code == 403
    room = (await live.http.get(f"/api/tournaments/{tid}/room.json?token={token}")).json()
    assert room["main"]["rounds"] == state["main"]["rounds"]
    assert len(room["matches"]) == 2 and room["matches"][0]["clock"]["phase"] == "setup"
    # a room token opens no table and no director's route
    assert (await live.http.get(f"{base}/state?token={token}")).status_code == 401


async def test_next_match_on_a_table_that_is_still_running_is_refused(live: Any) -> None:
    table = await live.table(length=3)
    async with Device.open(live.ws_url, {"token": table["token"]}) as device:
        await device.welcome()
        assert (await device.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
    body = {"rules": "usbgf-2013-delay", "length": 1, "players": ["X", "Y"]}
    r = await live.http.post(f"/api/tables/{table['id']}/next-match", json=body,
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "running"
    assert (await live.stored(table["id"]))[0]["event"]["do"] == "opening_roll"


async def test_a_flag_at_the_tables_expiry_puts_its_result_into_the_draw(live: Any) -> None:
    # usbgf-2013: a player whose time runs out loses the match
    base = await _tournament(live)
    await _field(live, base, 2, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    started = await _post(live, f"{base}/rounds", {"round": 0})
    table_id = started["tables"][0]["table_id"]
    final = started["state"]["main"]["rounds"][0][0]
    r = await live.http.patch(f"/api/tables/{table_id}", headers=DIRECTOR,
                              json={"clock": {"reserve_ms": 300, "delay_ms": 0}})
    assert r.status_code == 200, r.text
    info = r.json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        ack = await device.cmd("opening_roll", dice=[3, 5])  # B to play: B's clock runs
        assert ack["type"] == "ack"
        expiry = await device.expect("expiry")
        assert expiry["state"]["phase"] == "match_over"

    async def champion() -> Any:
        return (await _state(live, base))["main"]["rounds"][0][0]["winner"]

    assert await _until(champion) == final["a"]
    match = (await _state(live, base))["matches"][0]
    assert match["result"]["source"] == "clock"


async def test_next_match_archives_the_finished_match_and_keeps_the_tables_link(
        live: Any) -> None:
    table = await live.table(length=1)
    async with Device.open(live.ws_url, {"token": table["token"]}) as device:
        await device.welcome()
        await _finish(device, "A")
        body = {"rules": "it-tournament", "length": 5, "players": ["Xia", "Yul"]}
        r = await live.http.post(f"/api/tables/{table['id']}/next-match", json=body,
                                 headers=DIRECTOR)
        assert r.status_code == 200, r.text
        info = r.json()
        assert info["token"] == table["token"] and info["seq"] == 0
        assert info["players"] == ["Xia", "Yul"] and info["length"] == 5
        snapshot = await device.expect("snapshot")  # the device at the table sees the new match
        assert snapshot["seq"] == 0 and snapshot["state"]["phase"] == "setup"
        assert (await device.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
    assert [e["event"]["do"] for e in await live.stored(table["id"])] == ["opening_roll"]
    archive = (await live.http.get(f"/api/tables/{table['id']}/archive.json",
                                   headers=DIRECTOR)).json()["matches"]
    assert len(archive) == 1 and archive[0]["spec"]["players"] == ["Ann", "Bob"]
    assert [e["event"]["do"] for e in archive[0]["events"]] == ["opening_roll", "game_over"]
    r = await live.http.post(f"/api/tables/{table['id']}/next-match", json={"length": 0},
                             headers=DIRECTOR)
    assert r.status_code == 422
