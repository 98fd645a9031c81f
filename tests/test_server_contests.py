"""Swing and couples run by the server and the clocks (issue 13), on SQLite
and PostgreSQL: the state is a fold of the tournament's log."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bgclock.tournament import Encounter, Swing, SwingGame
from bgclock.tournament._couples import Couple
from tests._server_kit import (
    DIRECTOR,
    STORES,
    Device,
    anyio_backend,
    live,
    live_server,
    store_factory,
)
from tests.test_server_tourney import _post, _state, _tournament, _until

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _players(live: Any, base: str, names: list[str]) -> None:
    csv_text = "name\n" + "".join(f"{n}\n" for n in names)
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text


def _without_links(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "room_url"}


@pytest.mark.parametrize("kind", STORES)
async def test_a_swing_played_to_one_holder_with_a_result_from_a_clock_and_a_restart(
        kind: str, tmp_path: Path) -> None:
    names = ["Ada", "Bea", "Cid", "Dan", "Eve"]
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live, "Swing day")
            await _players(live, base, names)
            body = await _post(live, f"{base}/swing", {
                "start_vp": 100, "cpp": [20, 40], "rules": "usbgf-2013-delay",
                "clock_override": {"reserve_ms": 120_000}}, status=201)
            swing = body["state"]["swing"]
            assert swing["vp"] == {n: 100 for n in names} and swing["cpp"] == 20
            assert swing["next_cpp"] == 40
            started = await _post(live, f"{base}/swing/rounds", {"seed": 7})
            # the pure pairing with the logged seed
            pure = Swing(names, start_vp=100, cpp=[20, 40])
            pairs, sitting = pure.pair(random.Random(7))
            games = started["state"]["swing"]["games"]
            assert [(g["a"], g["b"]) for g in games] == pairs
            assert started["state"]["swing"]["sitting"] == sitting
            tables = started["tables"]
            assert [t["table"] for t in tables] == [1, 2]
            info = (await live.http.get(f"/api/tables/{tables[0]['table_id']}",
                                        headers=DIRECTOR)).json()
            assert info["length"] == 1 and info["players"] == list(pairs[0])
            assert info["clock"] == {"reserve_ms": 120_000}
            # game 0 from its table's clock: B wins a gammon
            async with Device.open(live.ws_url, {"token": info["token"]}) as device:
                await device.welcome()
                assert (await device.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
                ack = await device.cmd("game_over", winner="B", result="gammon")
                assert ack["type"] == "ack", ack

                async def entered() -> Any:
                    return (await _state(live, base))["swing"]["games"][0]["winner"]

                assert await _until(entered) == pairs[0][1]
            game0 = (await _state(live, base))["swing"]["games"][0]
            assert (game0["result"], game0["cube"], game0["source"]) == ("gammon", 1, "clock")
            # game 1 by hand, doubled: the round is played
            done = await _post(live, f"{base}/swing/results", {
                "game": 1, "winner": pairs[1][0], "result": "single", "cube": 2})
            pure.play_round([
                SwingGame(
                    a=pairs[0][0], b=pairs[0][1], winner=pairs[0][1], result="gammon"),
                SwingGame(
                    a=pairs[1][0], b=pairs[1][1], winner=pairs[1][0], cube=2)])
            swing = done["state"]["swing"]
            assert swing["vp"] == pure.vp and sum(swing["vp"].values()) == 500
            assert swing["rounds"][0]["cpp"] == 20 and swing["cpp"] == 40
            assert len(swing["history"]) == 2 and not swing["under_way"]
            # a second round at the same tables: the same clock table, a fresh match
            again = await _post(live, f"{base}/swing/rounds", {"seed": 8})
            assert again["tables"][0]["table_id"] == tables[0]["table_id"]
            before = await _state(live, base)
        async with live_server(make) as live:  # the fold of the log gives the same state
            after = await _state(live, base)
            assert _without_links(after) == _without_links(before)
            # play by hand until one holds every VP
            rng = random.Random(3)
            for _ in range(200):
                state = await _state(live, base)
                sw = state["swing"]
                if sw["winner"] is not None:
                    break
                if not sw["under_way"]:
                    await _post(live, f"{base}/swing/rounds", {})
                    continue
                for i, g in enumerate((await _state(live, base))["swing"]["games"]):
                    if g["winner"] is None:
                        await _post(live, f"{base}/swing/results", {
                            "game": i, "winner": rng.choice([g["a"], g["b"]]),
                            "result": rng.choice(["single", "gammon", "backgammon"])})
            sw = (await _state(live, base))["swing"]
            assert sw["winner"] is not None and sw["vp"][sw["winner"]] == 500
            assert set(sw["out"]) == set(names) - {sw["winner"]}
            assert all(min(h.values()) >= 0 for h in sw["history"])
            r = await live.http.post(f"{base}/swing/rounds", json={}, headers=DIRECTOR)
            assert r.status_code == 409 and "over" in r.json()["message"]
            # every round's seed is in the log: the fold replays the pairings
            actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()
            rounds = [a["action"] for a in actions["actions"]
                      if a["action"]["do"] == "swing_round"]
            assert all(isinstance(a["seed"], int) for a in rounds)


async def test_swing_refusals_name_the_field_and_change_nothing(live: Any) -> None:
    base = await _tournament(live)
    await _players(live, base, ["Ada", "Bea", "Cid"])
    before = await _state(live, base)
    bad: list[tuple[str, Any, int, str]] = [
        ("swing", {"start_vp": 0, "cpp": [10]}, 422, "start_vp"),
        ("swing", {"start_vp": 10, "cpp": [10, 5]}, 422, "cpp"),
        ("swing", {"start_vp": 10, "cpp": "x"}, 422, "cpp"),
        ("swing", {"start_vp": 10, "cpp": [1], "players": [1]}, 422, "players"),
        ("swing", {"start_vp": 10, "cpp": [1], "players": [1, 9]}, 422, "players[1]"),
        ("swing", {"start_vp": 10, "cpp": [1], "rules": "chess"}, 422, "body.rules"),
        ("swing", {"start_vp": 10, "cpp": [1], "clock_override": {"reserve_ms": -1}}, 422,
         "clock_override"),
        ("swing", {"start_vp": 10, "cpp": [1], "clock": "maybe"}, 422, "body.clock"),
        ("swing", {"start_vp": 10, "cpp": [1], "vp": 3}, 422, "body.vp"),
        ("swing", {"start_vp": 10, "cpp": [100, 100, 200]}, 422, "cpp[1]"),
        ("swing", {"start_vp": 10, "cpp": [100, 90]}, 422, "cpp[1]"),
        ("swing/rounds", {"seed": 1}, 409, "no Swing"),
        ("swing/results", {"game": 0, "winner": "Ada", "result": "single"}, 409,
         "no Swing round"),
    ]
    for path, body, status, words in bad:
        r = await live.http.post(f"{base}/{path}", json=body, headers=DIRECTOR)
        assert r.status_code == status, (path, body, r.text)
        assert words in r.json()["message"], (path, r.json())
    assert await _state(live, base) == before
    await _post(live, f"{base}/swing", {"start_vp": 10, "cpp": [5], "clock": "none"},
                status=201)
    started = await _post(live, f"{base}/swing/rounds", {"seed": 1})
    assert started["tables"][0]["table_id"] is None  # no clock: results by hand
    g = started["state"]["swing"]["games"][0]
    for body, words in [({"game": 0, "winner": "Nobody", "result": "single"}, "winner"),
                        ({"game": 0, "winner": g["a"], "result": "single", "cube": 3}, "cube"),
                        ({"game": 0, "winner": g["a"], "result": "triple"}, "result"),
                        ({"game": 0, "winner": g["a"]}, "result"),
                        ({"game": 5, "winner": g["a"], "result": "single"}, "game")]:
        r = await live.http.post(f"{base}/swing/results", json=body, headers=DIRECTOR)
        assert r.status_code == 422 and words in r.json()["message"], r.text
    r = await live.http.post(f"{base}/swing/rounds", json={}, headers=DIRECTOR)
    assert r.status_code == 409 and "under way" in r.json()["message"]


@pytest.mark.parametrize("kind", STORES)
async def test_couples_encounters_decided_in_phase_two_and_in_phase_three(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live, "Couples")
            await _players(live, base, ["A1", "A2", "B1", "B2", "C1", "C2"])
            body = await _post(live, f"{base}/couples", {
                "format": "round_robin", "length": 3, "rules": "usbgf-2013-delay",
                "couples": [{"name": "Alfa", "players": [1, 2]},
                            {"name": "Beta", "players": [3, 4]},
                            {"name": "Gamma", "players": [5, 6]}]}, status=201)
            encs = body["state"]["couples"]["encounters"]
            assert len(encs) == 3
            e0 = encs[0]
            k = 0
            a = next(c for c in body["state"]["couples"]["couples"] if c["name"] == e0["a"])
            b = next(c for c in body["state"]["couples"]["couples"] if c["name"] == e0["b"])
            pure = Encounter(Couple(name=a["name"], players=tuple(a["players"])),
                             Couple(name=b["name"], players=tuple(b["players"])))
            # phase 1: two tables at once, the rule book's pairings
            started = await _post(live, f"{base}/couples/phases", {"encounter": k})
            assert [(t["a"], t["b"]) for t in started["tables"]] == pure.phases[0]
            assert [t["table"] for t in started["tables"]] == [1, 2]
            t1 = started["tables"][0]
            info = (await live.http.get(f"/api/tables/{t1['table_id']}",
                                        headers=DIRECTOR)).json()
            assert info["length"] == 3 and not info["teams"]
            r = await live.http.post(f"{base}/couples/phases", json={"encounter": k},
                                     headers=DIRECTOR)
            assert r.status_code == 409 and "phase 2" in r.json()["message"]
            # phase 1 match 0 from its clock: A1 (side A) wins 3-0
            async with Device.open(live.ws_url, {"token": info["token"]}) as device:
                await device.welcome()
                assert (await device.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
                ack = await device.cmd("game_over", winner="A", result="backgammon")
                assert ack["type"] == "ack", ack

                async def entered() -> Any:
                    st = await _state(live, base)
                    return st["couples"]["encounters"][k]["matches"][0]["winner"]

                assert await _until(entered) == pure.phases[0][0][0]
            m0 = (await _state(live, base))["couples"]["encounters"][k]["matches"][0]
            assert m0["source"] == "clock" and m0["score"] == [3, 0]
            await _post(live, f"{base}/couples/results", {
                "encounter": k, "phase": 1, "match": 1, "winner": pure.phases[0][1][0],
                "score": [3, 1]})
            # phase 2: one table, a consultation (the preset's team figures)
            p2 = await _post(live, f"{base}/couples/phases", {"encounter": k})
            assert len(p2["tables"]) == 1 and p2["tables"][0]["teams"]
            info2 = (await live.http.get(f"/api/tables/{p2['tables'][0]['table_id']}",
                                         headers=DIRECTOR)).json()
            assert info2["teams"] and info2["players"] == [a["name"], b["name"]]
            done = await _post(live, f"{base}/couples/results", {
                "encounter": k, "phase": 2, "match": 0, "winner": a["name"],
                "score": [3, 2]})
            enc = done["state"]["couples"]["encounters"][k]
            assert enc["winner"] == a["name"] and enc["decided_after_phase"] == 2
            # decided: no phase 3 unless the director asks
            r = await live.http.post(f"{base}/couples/phases", json={"encounter": k},
                                     headers=DIRECTOR)
            assert r.status_code == 409 and "decided" in r.json()["message"]
            r = await live.http.post(f"{base}/couples/results", headers=DIRECTOR, json={
                "encounter": k, "phase": 3, "match": 0, "winner": pure.phases[2][0][0]})
            assert r.status_code == 409
            # encounter 1 goes to phase 3, by hand, with no tables
            e1 = done["state"]["couples"]["encounters"][1]
            m = e1["matches"]
            wins = [m[0]["a"], m[1]["b"], e1["a"], m[3]["b"], m[4]["a"]]
            for idx, w in enumerate(wins):
                phase, match = m[idx]["phase"], m[idx]["match"]
                done = await _post(live, f"{base}/couples/results", {
                    "encounter": 1, "phase": phase, "match": match, "winner": w})
            enc1 = done["state"]["couples"]["encounters"][1]
            assert enc1["winner"] == e1["a"] and enc1["decided_after_phase"] == 3
            assert enc1["wins"] == {e1["a"]: 3, e1["b"]: 2}
            standings = done["state"]["couples"]["standings"]
            # one encounter each for two couples; the place comes from the server
            # (tournament.md 3: head to head, matches, points; ties share it)
            assert [(r["place"], r["couple"], r["encounters"], r["matches"], r["points"])
                    for r in standings] == [(1, "Beta", 1, 3, 6), (2, "Alfa", 1, 3, 0),
                                            (3, "Gamma", 0, 2, -6)]
            before = await _state(live, base)
        async with live_server(make) as live:
            assert _without_links(await _state(live, base)) == _without_links(before)
            tid = int(base.rsplit("/", 1)[1])
            room = before["room_url"].split("token=")[1]
            ev = (await live.http.get(f"/api/tournaments/{tid}/events.json?token={room}"))
            assert ev.status_code == 200 and ev.json()["couples"]["standings"] == standings
            assert (await live.http.get(f"/api/tournaments/{tid}/events.json?token=x")
                    ).status_code == 403


async def test_couples_knockout_pairs_the_next_round_and_refusals(live: Any) -> None:
    base = await _tournament(live)
    await _players(live, base, [f"P{i}" for i in range(1, 9)])
    bad = [({"couples": [{"name": "X", "players": [1, 2]}]}, "couples"),
           ({"couples": [{"name": "X", "players": [1, 2]}, {"name": "Y", "players": [2, 3]}]},
            "couples"),
           ({"couples": [{"name": "X", "players": [1]}, {"name": "Y", "players": [3, 4]}]},
            "couples[0].players"),
           ({"couples": [{"name": "X", "players": [1, 2]}, {"name": "Y", "players": [3, 4]}],
             "format": "swiss"}, "format")]
    for body, words in bad:
        r = await live.http.post(f"{base}/couples", json=body, headers=DIRECTOR)
        assert r.status_code == 422 and words in r.json()["message"], r.text
    body = await _post(live, f"{base}/couples", {
        "format": "knockout", "length": 1, "clock": "none",
        "couples": [{"name": f"K{i}", "players": [2 * i - 1, 2 * i]} for i in range(1, 5)]},
        status=201)
    assert len(body["state"]["couples"]["encounters"]) == 2
    for k in (0, 1):
        enc = (await _state(live, base))["couples"]["encounters"][k]
        m = enc["matches"]
        for idx in (0, 1, 2):
            await _post(live, f"{base}/couples/results", {
                "encounter": k, "phase": m[idx]["phase"], "match": m[idx]["match"],
                "winner": [m[0]["a"], m[1]["a"], enc["a"]][idx]})
    state = await _state(live, base)
    final = state["couples"]["encounters"][2]
    assert (final["a"], final["b"], final["round"]) == ("K1", "K3", 1)
    assert state["couples"]["champion"] is None


async def test_a_swing_game_lost_on_time_counts_as_a_single_game_from_the_clock(
        live: Any) -> None:
    # usbgf-2013: a player whose time runs out loses the match (a fixed short reserve)
    base = await _tournament(live)
    await _players(live, base, ["Ada", "Bea"])
    await _post(live, f"{base}/swing", {"start_vp": 50, "cpp": [10], "rules": "usbgf-2013-delay",
                                        "clock_override": {"reserve_ms": 300, "delay_ms": 0}},
                status=201)
    started = await _post(live, f"{base}/swing/rounds", {"seed": 3})
    game = started["state"]["swing"]["games"][0]
    info = (await live.http.get(f"/api/tables/{started['tables'][0]['table_id']}",
                                headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        ack = await device.cmd("opening_roll", dice=[3, 5])  # B to play: B's clock runs
        assert ack["type"] == "ack"
        expiry = await device.expect("expiry")
        assert expiry["state"]["phase"] == "match_over"

    async def played() -> Any:
        return (await _state(live, base))["swing"]["rounds"]

    rounds = await _until(played)
    g = rounds[0]["games"][0]
    assert (g["winner"], g["result"], g["cube"], g["source"]) == (game["a"], "single", 1,
                                                                  "clock")
    assert (await _state(live, base))["swing"]["vp"][game["a"]] == 60


async def test_a_swing_result_is_corrected_until_the_next_round_is_paired(live: Any) -> None:
    base = await _tournament(live)
    await _players(live, base, ["Ada", "Bea", "Cid", "Dan"])
    await _post(live, f"{base}/swing", {"start_vp": 100, "cpp": [10], "clock": "none"},
                status=201)
    started = await _post(live, f"{base}/swing/rounds", {"seed": 5})
    g0, g1 = started["state"]["swing"]["games"]
    r = await live.http.post(f"{base}/swing/corrections", headers=DIRECTOR,
                             json={"game": 0, "winner": g0["a"]})
    assert r.status_code == 409 and "no result" in r.json()["message"]
    await _post(live, f"{base}/swing/results", {"game": 0, "winner": g0["a"],
                                                 "result": "single"})
    # under way: the game's result changes, nothing is played yet
    body = await _post(live, f"{base}/swing/corrections",
                       {"game": 0, "winner": g0["b"], "result": "gammon", "reason": "sheet"})
    assert body["done"] == [{"game": 0, "winner": g0["b"], "was": g0["a"], "replayed": False}]
    body = await _post(live, f"{base}/swing/results", {"game": 1, "winner": g1["a"],
                                                        "result": "single"})
    vp = body["state"]["swing"]["vp"]
    assert (vp[g0["b"]], vp[g0["a"]], vp[g1["a"]]) == (120, 80, 110)
    # the last round played: it is played again from the stacks at its start
    body = await _post(live, f"{base}/swing/corrections",
                       {"game": 1, "winner": g1["b"], "cube": 4, "reason": "cube was 4"})
    assert body["done"][0]["replayed"]
    sw = body["state"]["swing"]
    assert (sw["vp"][g1["b"]], sw["vp"][g1["a"]]) == (140, 60)
    assert sw["history"][-1] == sw["vp"] and sum(sw["vp"].values()) == 400
    assert sw["rounds"][0]["games"][1]["corrected"] == {"from": [g1["a"], "single", 1],
                                                        "reason": "cube was 4"}
    await _post(live, f"{base}/swing/rounds", {"seed": 6})
    r = await live.http.post(f"{base}/swing/corrections", headers=DIRECTOR,
                             json={"game": 1, "winner": g1["a"]})
    assert r.status_code == 409


async def test_a_couples_correction_re_pairs_an_untouched_knockout_round(live: Any) -> None:
    base = await _tournament(live)
    await _players(live, base, [f"P{i}" for i in range(1, 9)])
    body = await _post(live, f"{base}/couples", {
        "format": "knockout", "length": 1, "clock": "none",
        "couples": [{"name": f"K{i}", "players": [2 * i - 1, 2 * i]} for i in range(1, 5)]},
        status=201)
    for k in (0, 1):
        enc = body["state"]["couples"]["encounters"][k]
        m = enc["matches"]
        for idx in (0, 1, 2):
            body = await _post(live, f"{base}/couples/results", {
                "encounter": k, "phase": m[idx]["phase"], "match": m[idx]["match"],
                "winner": [m[0]["a"], m[1]["a"], enc["a"]][idx]})
    final = body["state"]["couples"]["encounters"][2]
    assert (final["a"], final["b"]) == ("K1", "K3")
    # encounter 0's phase 2 went the other way: 2-1, undecided; the final is withdrawn
    enc0 = body["state"]["couples"]["encounters"][0]
    body = await _post(live, f"{base}/couples/corrections", {
        "encounter": 0, "phase": 2, "match": 0, "winner": enc0["b"], "reason": "sheet"})
    assert body["done"][0]["was"] == "K1" and body["done"][0]["encounter_winner"] is None
    couples = body["state"]["couples"]
    assert len(couples["encounters"]) == 2
    assert couples["encounters"][0]["matches"][2]["corrected"] == {"from": "K1",
                                                                   "reason": "sheet"}
    # K2 wins both phase 3 matches: K2 meets K3 in the final
    m = couples["encounters"][0]["matches"]
    for idx in (3, 4):
        body = await _post(live, f"{base}/couples/results", {
            "encounter": 0, "phase": 3, "match": m[idx]["match"], "winner": m[idx]["b"]})
    final = body["state"]["couples"]["encounters"][2]
    assert (final["a"], final["b"]) == ("K2", "K3")
    await _post(live, f"{base}/couples/results", {"encounter": 2, "phase": 1, "match": 0,
                                                  "winner": final["matches"][0]["a"]})
    r = await live.http.post(f"{base}/couples/corrections", headers=DIRECTOR, json={
        "encounter": 0, "phase": 2, "match": 0, "winner": "K1"})
    assert r.status_code == 409 and "later round" in r.json()["message"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_swing_game_lost_on_time_on_a_doubled_cube_is_a_single_times_the_cube(
        kind: str, tmp_path: Path) -> None:
    # Reading (docs/tournament.md): a single at the cube's value when the time ran out
    from bgclock.server.live.time import ManualClock

    clock = ManualClock()
    async with store_factory(kind, tmp_path) as make, live_server(make, clock=clock) as live:
        base = await _tournament(live)
        await _players(live, base, ["Ada", "Bea"])
        await _post(live, f"{base}/swing", {
            "start_vp": 50, "cpp": [10], "rules": "usbgf-2007-bronstein",
            "clock_override": {"reserve_ms": 60_000, "delay_ms": 0}}, status=201)
        started = await _post(live, f"{base}/swing/rounds", {"seed": 3})
        game = started["state"]["swing"]["games"][0]
        info = (await live.http.get(f"/api/tables/{started['tables'][0]['table_id']}",
                                    headers=DIRECTOR)).json()
        async with Device.open(live.ws_url, {"token": info["token"]}) as device:
            await device.welcome()
            for do, fields in (("opening_roll", {"dice": [3, 5]}),  # B's clock runs
                               ("double", {"side": "B"}), ("take", {"side": "A"})):
                ack = await device.cmd(do, **fields)
                assert ack["type"] == "ack", ack
            clock.advance(61_000)  # B's reserve runs out on a 2-cube
            expiry = await device.expect("expiry")
            assert expiry["state"]["phase"] == "match_over"
            assert expiry["state"]["cube"]["value"] == 2

        async def played() -> Any:
            return (await _state(live, base))["swing"]["rounds"]

        g = (await _until(played))[0]["games"][0]
        assert (g["winner"], g["result"], g["cube"], g["source"]) == (game["a"], "single", 2,
                                                                      "clock")
        assert (await _state(live, base))["swing"]["vp"][game["a"]] == 70  # 1 x 2 x 10
