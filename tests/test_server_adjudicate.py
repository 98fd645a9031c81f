"""``POST /api/tables/{id}/adjudicate``: the ruling a position calls for, suggested.

The board engine rules on a table's dispute from the position the director
types; nothing is applied until the director sends the ruling command.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bgclock.board import Position, position_id
from tests._server_kit import (
    DIRECTOR,
    KEY,
    Device,
    anyio_backend,
    live,
)

__all__ = ["anyio_backend", "live"]

# A (on roll) bears off its last two checkers with any roll; B has all 15 on its
# 6 point and none off: A's gammon is certain (a backgammon is not possible).
GIN_GAMMON = position_id(Position.from_points({1: 2}, {6: 15}))
# A (on roll) has 15 checkers on its 12 point; B is off next turn: B's gammon is
# certain, its backgammon impossible.
FAR_BEHIND = position_id(Position.from_points({12: 15}, {1: 1}))
# Both sides holding, in full contact: a long search that gives up.
HOLDING = position_id(Position.from_points({20: 2, 13: 3, 8: 3, 6: 5, 4: 2},
                                           {20: 2, 13: 3, 8: 3, 6: 5, 4: 2}))


async def adjudicate(live: Any, table_id: int, body: dict[str, Any],
                     headers: dict[str, str] | None = None, timeout: float = 10) -> Any:
    return await live.http.post(f"/api/tables/{table_id}/adjudicate", json=body,
                                headers=DIRECTOR if headers is None else headers,
                                timeout=timeout)


async def state(live: Any, table_id: int) -> dict[str, Any]:
    r = await live.http.get(f"/api/tables/{table_id}", headers=DIRECTOR)
    return dict(r.json()["state"])


async def biba_expired(live: Any) -> dict[str, Any]:
    """biba-2014, 5 points, A at 4-0 (match point) flags 200 ms after the opening roll."""
    table = await live.table(rules="biba-2014", length=5, score=[4, 0],
                             clock={"reserve_ms": 0, "delay_ms": 200})
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"  # A on roll
        expiry = await d.expect("expiry")
    assert expiry["state"]["phase"] == "dispute"
    assert expiry["state"]["dispute"] == "time_expired"
    return table


async def rejected(live: Any, result: str) -> dict[str, Any]:
    """usbgf-2013: A, on roll, concedes ``result``; B rejects: a dispute."""
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        for do, fields in (("opening_roll", {"dice": [6, 1]}),
                           ("concede", {"side": "A", "result": result}),
                           ("reject", {"side": "B"})):
            assert (await d.cmd(do, **fields))["type"] == "ack"
    return table


async def apply(live: Any, table_id: int, command: dict[str, Any]) -> dict[str, Any]:
    """The director confirms the suggestion: the ruling command, as usual."""
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.welcome()
        fields = {k: v for k, v in command.items() if k != "do"}
        ack = await director.cmd(command["do"], table=table_id, **fields)
        assert ack["type"] == "ack", ack
    return await state(live, table_id)


@pytest.mark.anyio
async def test_biba_expiry_at_match_point_is_a_gin_and_the_director_applies_it(
        live: Any) -> None:
    # biba-2014 Time Expiration: A needs 1 point and B can no longer save the gammon
    table = await biba_expired(live)
    r = await adjudicate(live, table["id"], {"position": f"  {GIN_GAMMON}  "})
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["decision"], out["result"], out["ruling"]) == ("gin", "gammon", "gin")
    assert out["command"] == {"do": "ruling", "decision": "gin", "result": "gammon"}
    assert out["on_roll"] == "A" and "BIBA" in out["clause"] and out["reason"]
    # a suggestion only: nothing was applied
    assert (await state(live, table["id"]))["phase"] == "dispute"
    assert [e["event"]["do"] for e in await live.stored(table["id"])] == ["opening_roll"]
    after = await apply(live, table["id"], out["command"])
    assert (after["phase"], after["winner"], after["score"]) == ("match_over", "A", [6, 0])
    r = await adjudicate(live, table["id"], {"position": GIN_GAMMON})
    assert r.status_code == 409 and r.json()["error"] == "not_in_dispute"


@pytest.mark.anyio
async def test_biba_expiry_lost_when_the_opponent_can_still_avoid_it(live: Any) -> None:
    table = await biba_expired(live)
    r = await adjudicate(live, table["id"], {"position": FAR_BEHIND, "nodes": 1000})
    assert r.status_code == 200 and r.json()["decision"] == "lost"
    assert r.json()["command"] == {"do": "ruling", "decision": "lost"}


@pytest.mark.anyio
async def test_rejected_concessions_must_be_accepted_or_are_invalid(live: Any) -> None:
    # usbgf-2013 5.1: accept when no outcome more favorable for the opponent can occur
    single = await rejected(live, "single")
    r = await adjudicate(live, single["id"], {"position": FAR_BEHIND})
    assert r.status_code == 200 and r.json()["decision"] == "invalid"
    assert r.json()["ruling"] == "invalid" and "5.1" in r.json()["clause"]
    assert r.json()["command"] == {"do": "ruling", "decision": "invalid"}
    gammon = await rejected(live, "gammon")
    r = await adjudicate(live, gammon["id"], {"position": FAR_BEHIND})
    out = r.json()
    assert (out["decision"], out["ruling"]) == ("accept", "must_accept")
    assert out["command"] == {"do": "ruling", "decision": "accept"}
    after = await apply(live, gammon["id"], out["command"])
    assert after["score"] == [0, 2]


@pytest.mark.anyio
async def test_only_a_table_in_dispute(live: Any) -> None:
    table = await live.table()
    r = await adjudicate(live, table["id"], {"position": FAR_BEHIND})
    assert r.status_code == 409 and r.json()["error"] == "not_in_dispute"
    assert "no dispute" in r.json()["message"]
    r = await adjudicate(live, 99999, {"position": FAR_BEHIND})
    assert r.status_code == 404


@pytest.mark.anyio
@pytest.mark.parametrize("body, words", [
    ({"position": "not-a-position"}, "Position ID"),
    ({"position": "XGID=-b----E-C"}, "XGID"),
    ({"position": "   "}, "position"),
    ({"position": 42}, "position"),
    ({}, "position"),
    ({"position": GIN_GAMMON, "nodes": 0}, "nodes"),
    ({"position": GIN_GAMMON, "nodes": 1_000_001}, "nodes"),
    ({"position": GIN_GAMMON, "nodes": True}, "nodes"),
    ({"position": GIN_GAMMON, "apply": True}, "unknown field"),
])
async def test_an_unreadable_request_is_refused_in_words(live: Any, body: dict[str, Any],
                                                         words: str) -> None:
    table = await rejected(live, "single")
    r = await adjudicate(live, table["id"], body)
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert words in r.json()["message"]
    assert (await state(live, table["id"]))["phase"] == "dispute"


@pytest.mark.anyio
async def test_only_the_director(live: Any) -> None:
    table = await rejected(live, "gammon")
    for headers in ({"Authorization": f"Bearer {table['token']}"}, {}):
        r = await adjudicate(live, table["id"], {"position": FAR_BEHIND}, headers)
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = await live.http.post(f"/api/tables/{table['id']}/adjudicate?token={table['token']}",
                             json={"position": FAR_BEHIND})
    assert r.status_code == 401


@pytest.mark.anyio
async def test_the_server_stays_responsive_during_a_long_search(live: Any) -> None:
    table = await biba_expired(live)
    # the search is bounded by the nodes it checks, not by time: on a loaded
    # machine it takes longer, and the client waits for it (600 s: a hang guard)
    search = asyncio.create_task(adjudicate(live, table["id"],
                                            {"position": HOLDING, "nodes": 400_000},
                                            timeout=600))
    await asyncio.sleep(0.05)
    latencies = []
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        while not search.done():
            t0 = time.perf_counter()
            assert (await live.http.get("/healthz")).status_code == 200
            await d.send({"type": "ping", "t": 1})
            assert (await d.expect("pong"))["t"] == 1
            latencies.append(time.perf_counter() - t0)
            await asyncio.sleep(0.15)  # under a table device's rate limit (10 a second)
    r = await search
    assert r.status_code == 200
    out = r.json()
    # the search gave up: the director rules by eye
    assert (out["decision"], out["ruling"], out["command"]) == (None, "unknown", None)
    # the loop kept answering while the search ran (its latency is measured in
    # bench/, not asserted here: a loaded machine must not fail the suite)
    assert len(latencies) >= 3, latencies
