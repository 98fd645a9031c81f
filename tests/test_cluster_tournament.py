"""A tournament driven through two ``bgclock serve --cluster`` processes (issue 22).

The tournament is owned by one process (its lease); a director's request
at the other is forwarded to it and answered as it answers; a table owned by
the other process sends its match's result to the tournament's owner.
Real processes on PostgreSQL and Redis, a schema and a prefix of their own
(``tests.test_cluster``'s fixtures); waits are on state, never on time.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import httpx
import pytest
import websockets

from tests._server_kit import POSTGRES, anyio_backend
from tests.test_cluster import (
    AUTH,
    PASSWORD,
    Phone,
    _device_ms,
    _redis_up,
    cluster,
    eventually,
    lease,
    query,
    tournament_lease,
)

__all__ = ["anyio_backend"]

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
    pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379"),
]

#: One-point matches on the clock: a round ends in two presses per table.
SETTINGS = {"rounds": [{"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]}


async def stored_actions(schema: str, tournament_id: int) -> list[dict[str, Any]]:
    rows = await query(f'SELECT n, body, source, request_id FROM "{schema}".'
                       "tournament_actions WHERE tournament_id = $1 ORDER BY n", tournament_id)
    return [{**json.loads(r[1]), "n": r[0], "by": r[2], "request": r[3]} for r in rows]


def post(url: str, path: str, body: Any = None, **kw: Any) -> httpx.Response:
    if "content" in kw:
        return httpx.post(url + path, headers={**AUTH, **kw.pop("headers", {})}, timeout=15,
                          **kw)
    return httpx.post(url + path, json=body if body is not None else {}, headers=AUTH,
                      timeout=15)


def get(url: str, path: str) -> httpx.Response:
    return httpx.get(url + path, headers=AUTH, timeout=15)


def without_links(state: dict[str, Any]) -> dict[str, Any]:
    """A state as both processes see it (the room's link names the host asked)."""
    return {k: v for k, v in state.items() if k != "room_url"}


async def test_a_tournament_driven_through_two_processes_is_one_tournament() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        tid = httpx.post(f"{a.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                         timeout=10).json()["id"]
        base = f"/api/tournaments/{tid}"
        # a acts first: a owns the tournament
        assert post(a.url, f"{base}/settings", SETTINGS).status_code == 200
        assert await tournament_lease(schema, tid) == ("a", 1)
        # the players come through b: a enters them and b answers a's answer
        async with websockets.connect(b.ws) as dashboard:  # a director's dashboard at b
            await dashboard.send(json.dumps({"type": "hello", "key": PASSWORD}))
            csv = post(b.url, f"{base}/players.csv", content=b"name\nP1\nP2\nP3\nP4\n",
                       headers={"content-type": "text/csv"})
            assert csv.status_code == 201, csv.text
            names = [p["name"] for p in csv.json()["state"]["players"]]
            assert names == ["P1", "P2", "P3", "P4"]
            count = csv.json()["state"]["actions"]

            async def told() -> None:  # the tournament changed at a: b's dashboard hears
                async for text in dashboard:
                    msg = json.loads(text)
                    for m in msg["messages"] if msg["type"] == "batch" else [msg]:
                        if m["type"] == "tournament" and m["actions"] == count:
                            return

            await asyncio.wait_for(told(), 20)
        # a refusal is the owner's, word for word, naming its field
        refused = post(b.url, f"{base}/players", {"name": ""})
        local = post(a.url, f"{base}/players", {"name": ""})
        assert refused.status_code == local.status_code == 422
        assert refused.json() == local.json()
        assert refused.json()["message"].startswith("body.name")
        conflict = post(b.url, f"{base}/players", {"name": "P1"})
        assert conflict.status_code == 422 and conflict.json() == post(
            a.url, f"{base}/players", {"name": "P1"}).json()
        for pid in (1, 2, 3, 4):
            assert post(b.url, f"{base}/players/{pid}/check-in").status_code == 200
        assert post(b.url, f"{base}/draw", {"seed": 11}).status_code == 200
        # the round starts through b; a seats it (two tables made there)
        started = post(b.url, f"{base}/rounds", {"event": "main", "round": 0})
        assert started.status_code == 200, started.text
        assert without_links(started.json()["state"]) == without_links(
            get(a.url, f"{base}/state").json())
        assert without_links(get(b.url, f"{base}/state").json()) == without_links(
            get(a.url, f"{base}/state").json())
        assert await tournament_lease(schema, tid) == ("a", 1)  # nobody else took it
        tables = started.json()["tables"]
        assert [t["table"] for t in tables] == [1, 2]
        infos = [get(a.url, f"/api/tables/{t['table_id']}").json() for t in tables]
        # table 1's device at b (b owns that table), table 2's at a
        phones = [Phone(infos[0]["token"], "t1"), Phone(infos[1]["token"], "t2")]
        await phones[0].connect(b.ws)
        await phones[1].connect(a.ws)
        try:
            for p, info, winner in zip(phones, infos, ("B", "A"), strict=True):
                roll = await p.answered(await p.cmd("opening_roll", dice=[3, 5],
                                                    device_at_ms=_device_ms(info)))
                assert roll["type"] == "ack", roll
                over = await p.answered(await p.cmd("game_over", winner=winner,
                                                    result="single",
                                                    device_at_ms=_device_ms(info)))
                assert over["type"] == "ack", over
            assert await lease(schema, infos[0]["id"]) == ("b", 1)
            assert await lease(schema, infos[1]["id"]) == ("a", 1)

            def decided() -> bool:
                state = get(a.url, f"{base}/state").json()
                return all(m["winner"] is not None for m in state["main"]["rounds"][0])

            # b's table's result reached a's tournament (and a's own)
            await eventually(decided, what="both results in a's tournament")
        finally:
            for p in phones:
                await p.close()
        state = get(a.url, f"{base}/state").json()
        rounds = state["main"]["rounds"][0]
        by_table = {t["table"]: rounds[t["match"]] for t in tables}
        assert by_table[1]["winner"] == by_table[1]["b"]
        assert by_table[2]["winner"] == by_table[2]["a"]
        results = [m["result"] for m in state["matches"] if m["table"] in (1, 2)]
        assert results == [{"source": "clock", "score": [0, 1]},
                           {"source": "clock", "score": [1, 0]}]
        # the standings read the same at both processes
        standings = [get(n.url, f"{base}/standings.json") for n in (a, b)]
        assert standings[0].status_code == standings[1].status_code == 200
        assert standings[0].json() == standings[1].json()
        assert without_links(get(b.url, f"{base}/state").json()) == without_links(state)
        # each result stored once, by the owner
        log = await stored_actions(schema, tid)
        # the actions a forwarded request stored carry its id (b's), the
        # owner's own none
        imported = [x for x in log if x["do"] == "register"]
        assert len({x["request"] for x in imported}) == 1
        assert str(imported[0]["request"]).startswith("b.")
        assert all(x["request"] is None for x in log if x["do"] == "settings")
        entered = [x for x in log if x["do"] == "result"]
        assert len(entered) == 2 and all(x["by"] == "server" and x["source"] == "clock"
                                      for x in entered)
        assert [x["n"] for x in log] == list(range(1, len(log) + 1))
        # the final, started through b: a seats it, and the table b owns is
        # given its next match there (a's round start sends it to b)
        finalists = sorted([by_table[1]["winner"], by_table[2]["winner"]])
        final = post(b.url, f"{base}/rounds", {"event": "main", "round": 1})
        assert final.status_code == 200, final.text
        assert final.json()["not_ready"] == [], final.json()
        [seated] = final.json()["tables"]
        info = get(b.url, f"/api/tables/{seated['table_id']}").json()
        assert sorted(info["players"]) == finalists, info
        owned_by = await lease(schema, seated["table_id"])
        assert owned_by is not None
        # the table's match is the final at the process that owns it
        owner_url = a.url if owned_by[0] == "a" else b.url
        live = get(owner_url, f"/api/tables/{seated['table_id']}").json()
        assert sorted(live["players"]) == finalists and live["seq"] == 0, live


async def test_an_action_forwarded_to_a_keeper_killed_meanwhile_is_done_once_or_refused() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        tid = httpx.post(f"{a.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                         timeout=10).json()["id"]
        players = f"/api/tournaments/{tid}/players"
        assert post(a.url, players, {"name": "Ann"}).status_code == 201
        assert await tournament_lease(schema, tid) == ("a", 1)
        # a hangs (its sockets stay open), then dies while b's request is at it
        os.kill(a.serving.proc.pid, signal.SIGSTOP)
        async with httpx.AsyncClient(timeout=30) as client:
            sent = asyncio.get_running_loop().create_task(client.post(
                b.url + players, json={"name": "Bob"}, headers=AUTH))
            # (if the kill comes before b forwards, b takes the tournament
            # and enters Bob: the assertions below hold for either order)
            await asyncio.sleep(0.5)
            a.serving.kill9()
            answer = await sent
        log = await stored_actions(schema, tid)
        bobs = [x for x in log if x["do"] == "register" and x["name"] == "Bob"]
        if answer.status_code == 201:
            assert len(bobs) == 1
        else:
            # refused in words that say what happened, naming the silent process
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["error"] == "no_answer" and body["params"]["owner"] == "a"
            # the lease moved (a died): what a stored is final, and b says which
            done = body["params"]["done"]
            assert done in ("yes", "no"), body
            assert (done == "yes") == (len(bobs) == 1), (body, bobs)
            assert ("was done" if done == "yes" else "was not done") in body["message"]
            # b owns the tournament now (a's lease died with it): sent again,
            # Bob is entered, or refused as the name already taken
            again = post(b.url, players, {"name": "Bob"})
            assert again.status_code == (201 if not bobs else 422), again.text
        assert await tournament_lease(schema, tid) == ("b", 2)
        log = await stored_actions(schema, tid)
        assert [x["name"] for x in log if x["do"] == "register"] == ["Ann", "Bob"]
        print(f"forwarded while the owner was killed: {answer.status_code} "
              f"{answer.json().get('error', '')}")


async def test_a_result_whose_tournament_keeper_died_is_entered_by_the_tables_process() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        tid = httpx.post(f"{a.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                         timeout=10).json()["id"]
        base = f"/api/tournaments/{tid}"
        assert post(a.url, f"{base}/settings", SETTINGS).status_code == 200
        assert post(a.url, f"{base}/players.csv", content=b"P1\nP2\n",
                    headers={"content-type": "text/csv"}).status_code == 201
        for pid in (1, 2):
            assert post(a.url, f"{base}/players/{pid}/check-in").status_code == 200
        assert post(a.url, f"{base}/draw", {"seed": 5}).status_code == 200
        started = post(a.url, f"{base}/rounds", {"event": "main", "round": 0}).json()
        info = get(a.url, f"/api/tables/{started['tables'][0]['table_id']}").json()
        device = Phone(info["token"], "t1")
        await device.connect(b.ws)  # b owns the table
        try:
            roll = await device.answered(await device.cmd("opening_roll", dice=[3, 5],
                                                          device_at_ms=_device_ms(info)))
            assert roll["type"] == "ack"
            a.serving.kill9()  # the tournament's owner is gone
            over = await device.answered(await device.cmd("game_over", winner="A",
                                                          result="single",
                                                          device_at_ms=_device_ms(info)))
            assert over["type"] == "ack"

            def decided() -> bool:
                final = get(b.url, f"{base}/state").json()["main"]["rounds"][0][0]
                return final["winner"] is not None

            # b takes the tournament (folded from the store) and enters it
            await eventually(decided, what="the result entered by b")
        finally:
            await device.close()
        assert await tournament_lease(schema, tid) == ("b", 2)
        final = get(b.url, f"{base}/state").json()["main"]["rounds"][0][0]
        assert final["winner"] == final["a"]
        log = await stored_actions(schema, tid)
        assert [x["do"] for x in log].count("result") == 1


async def test_a_players_sheet_at_the_other_process_is_entered_by_the_keeper() -> None:
    """A table's score sheet (the table page's link, its token and the
    player's PIN) reaches the process that owns the tournament, whichever
    process the phone reached: entered once, refusals as the owner's."""
    async with cluster("a", "b") as (schema, (a, b)):
        tid = httpx.post(f"{a.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                         timeout=10).json()["id"]
        base = f"/api/tournaments/{tid}"
        assert post(a.url, f"{base}/settings", SETTINGS).status_code == 200
        csv = post(a.url, f"{base}/players.csv", content=b"name\nP1\nP2\n",
                   headers={"content-type": "text/csv"})
        assert csv.status_code == 201, csv.text
        for pid in (1, 2):
            assert post(a.url, f"{base}/players/{pid}/check-in").status_code == 200
        assert post(a.url, f"{base}/draw", {"seed": 3}).status_code == 200
        started = post(a.url, f"{base}/rounds", {"event": "main", "round": 0})
        assert started.status_code == 200, started.text
        [table] = started.json()["tables"]
        match = started.json()["state"]["main"]["rounds"][0][table["match"]]
        info = get(a.url, f"/api/tables/{table['table_id']}").json()
        pins = {p["name"]: p["pin"] for p in get(a.url, f"{base}/sheet-pins").json()["pins"]}
        url = f"{b.url}/api/tables/{table['table_id']}/sheet"
        sheet = {"by": "A", "winner": match["a"], "score": [1, 0]}
        # a wrong PIN at b: the owner's refusal, word for word
        wrong = httpx.post(url, params={"token": info["token"]},
                           json={**sheet, "pin": "00000000"}, timeout=15)
        here = httpx.post(f"{a.url}/api/tables/{table['table_id']}/sheet",
                          params={"token": info["token"]}, json={**sheet, "pin": "00000001"},
                          timeout=15)
        assert wrong.status_code == here.status_code == 403, wrong.text
        assert wrong.json()["message"] == here.json()["message"]
        # A's player's own sheet, then B's, through b: the owner enters both
        for by, name in (("A", match["a"]), ("B", match["b"])):
            r = httpx.post(url, params={"token": info["token"]},
                           json={**sheet, "by": by, "pin": pins[name]}, timeout=15)
            assert r.status_code == 200, r.text
        assert await tournament_lease(schema, tid) == ("a", 1)  # b never took it
        log = await stored_actions(schema, tid)
        sheets = [x for x in log if x["do"] == "sheet"]
        # (``by`` here is who stored it: the table's link)
        assert [(x["by"], x["via"]) for x in sheets] == [("table", "player")] * 2
        assert all(str(x["request"]).startswith("b.") for x in sheets)
        state = get(b.url, f"{base}/state").json()
        assert state["main"]["rounds"][0][table["match"]]["winner"] == match["a"]
