"""A match has one result (issue 32 §2, docs/protocol.md "A result entered by
hand"): a result entered by hand closes the table's clock; its phone is told
who won, in its refusal's stable code, and every press after it is refused,
across a restart, until the table's next match.  On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, STORES, Device, anyio_backend, live_server, store_factory
from tests.test_server_tourney import _field, _post, _tournament

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

SETTINGS = {"rounds": [{"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]}


async def _first_round(live: Any) -> tuple[str, dict[str, Any]]:
    """A tournament of 4 drawn, its first round started at clock tables."""
    base = await _tournament(live)
    await _field(live, base, 4, settings=SETTINGS)
    return base, await _post(live, f"{base}/rounds", {"event": "main", "round": 0})


async def _token(live: Any, table_id: int) -> str:
    info = (await live.http.get(f"/api/tables/{table_id}", headers=DIRECTOR)).json()
    return str(info["token"])


@pytest.mark.parametrize("kind", STORES)
async def test_a_hand_result_closes_the_running_clock_and_its_phone_refuses_presses(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base, started = await _first_round(live)
            t1 = started["tables"][0]
            m1 = started["state"]["main"]["rounds"][0][t1["match"]]
            token = await _token(live, t1["table_id"])
            async with Device.open(live.ws_url, {"token": token, "device": "phone-1"}) as phone:
                await phone.welcome()
                assert (await phone.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
                body = {"round": 0, "match": t1["match"], "winner": m1["b"], "score": [3, 1]}
                # the clock runs: the director confirms stopping it first
                refused = await live.http.post(f"{base}/results", json=body, headers=DIRECTOR)
                assert refused.status_code == 409 and refused.json()["error"] == "clock_running"
                done = await _post(live, f"{base}/results", {**body, "stop_clock": True})
                assert done["closed"] == t1["table_id"]
                told = await phone.expect("table")
                while told["info"]["hand_result"] is None:
                    told = await phone.expect("table")
                assert told["info"]["hand_result"] == {"side": "B", "name": m1["b"],
                                                       "score": [3, 1]}
                stop = phone.last("update")
                assert stop["event"]["do"] == "stop" and stop["event"]["reason"] == "director"
                press = await phone.cmd("hit", side="B")
                assert press["type"] == "error" and press["code"] == "decided"
                assert press["refusal"] == "decided_by_hand"
                assert press["params"] == {"name": m1["b"]}
                # the same press sent again is refused again, nothing stored
                resume = await phone.cmd("resume")
                assert resume["code"] == "decided"
        async with live_server(make) as live:  # a restart keeps the table closed
            info = (await live.http.get(f"/api/tables/{t1['table_id']}",
                                        headers=DIRECTOR)).json()
            assert info["hand_result"]["name"] == m1["b"]
            async with Device.open(live.ws_url, {"token": token, "device": "phone-1"}) as phone:
                await phone.welcome()
                assert (await phone.cmd("resume"))["code"] == "decided"


async def test_a_hand_result_before_play_closes_the_table_too_and_the_next_match_opens_it(
        tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base, started = await _first_round(live)
        t1, t2 = started["tables"]
        rounds = started["state"]["main"]["rounds"][0]
        m1, m2 = rounds[t1["match"]], rounds[t2["match"]]
        token = await _token(live, t1["table_id"])
        done = await _post(live, f"{base}/results", {"round": 0, "match": t1["match"],
                                                     "winner": m1["a"]})
        assert done["closed"] == t1["table_id"]
        async with Device.open(live.ws_url, {"token": token, "device": "phone-1"}) as phone:
            _, snapshot = await phone.welcome()
            assert snapshot["info"]["hand_result"] == {"side": "A", "name": m1["a"],
                                                       "score": None}
            refused = await phone.cmd("opening_roll", dice=[3, 5])
            assert refused["code"] == "decided"
            await _post(live, f"{base}/results", {"round": 0, "match": t2["match"],
                                                  "winner": m2["a"]})
            nxt = await _post(live, f"{base}/rounds", {"event": "main", "round": 1})
            assert nxt["tables"][0]["table_id"] == t1["table_id"]  # the same clock table
            snap = await phone.expect("snapshot")
            assert snap["info"]["hand_result"] is None
            assert (await phone.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
