"""A room owns its tables (issue 32 §1): two events of one room with fewer
tables than matches; the second event's match sits at the room's table 1
once the first's ends there: the same clock table (id, link, token,
timekeeper), its next match, and its result goes to the event seated.
DESIGN.md: "An event's 'table N' is a seat at the room's table N, never a
new clock."  On SQLite and PostgreSQL, across a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, STORES, Device, anyio_backend, live_server, store_factory
from tests.test_server_flights import _get, _post

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

CLOCKED = {"rounds": [{"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]}


async def _event(live: Any, name: str, prefix: str, precedence: int | None) -> str:
    """An event of four players drawn, one-point matches on the clock, in the
    room "Sala Roma" of two tables (``precedence`` None: in no room)."""
    base = f"/api/tournaments/{(await _post(live, '/api/tournaments', {'name': name}, 201))['id']}"
    await _post(live, f"{base}/settings", CLOCKED)
    if precedence is not None:
        await _post(live, f"{base}/flight", {"room": "Sala Roma", "precedence": precedence,
                                              "tables": 2})
    csv_text = "name\n" + "".join(f"{prefix}{i}\n" for i in range(1, 5))
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    for i in range(1, 5):
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 7})
    return base


async def _until(live: Any, read: Any) -> Any:
    """``read()``'s value once it is truthy (the room's seating and the
    clock's result run after the answers)."""
    for _ in range(250):
        await live.server.tourneys.flights.idle()
        value = await read()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def _finish(device: Device, winner: str) -> None:
    """A one-point match at a table: the opening roll and the game."""
    for cmd, args in (("opening_roll", {"dice": [3, 5]}),
                      ("game_over", {"winner": winner, "result": "single"})):
        ack = await device.cmd(cmd, **args)
        assert ack["type"] == "ack", ack


def _at(state: dict[str, Any], table: int) -> dict[str, Any] | None:
    """The event's undecided match at table number ``table``."""
    return next((m for m in state["matches"] if m["table"] == table and m["winner"] is None),
                None)


def _seated(state: dict[str, Any], table: int) -> dict[str, Any] | None:
    """The event's undecided match at table number ``table`` once it has its
    clock table: a seat gives the number, then the table (a read between
    the two sees the number alone)."""
    match = _at(state, table)
    return match if match is not None and match.get("table_id") is not None else None


@pytest.mark.parametrize("kind", STORES)
async def test_a_rooms_table_one_is_one_clock_for_every_event_that_sits_there(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            champ = await _event(live, "Campionato", "C", 1)
            princ = await _event(live, "Principianti", "P", 2)
            started = await _post(live, f"{champ}/rounds", {"round": 0})
            t1, t2 = (t["table_id"] for t in started["tables"])
            body = await _post(live, f"{princ}/rounds", {"round": 0})
            assert body["tables"] == [] and len(body["waiting"]) == 2
            one = await _get(live, f"/api/tables/{t1}")
            token = one["token"]
            c1 = _at(await _get(live, f"{champ}/state"), 1)
            assert c1 is not None and one["players"] == [c1["a"], c1["b"]]
            async with Device.open(live.ws_url, {"token": token, "device": "phone-1",
                                                  "name": "Android Chrome"}) as device:
                await device.welcome()
                await _finish(device, "B")  # the Campionato's match ends on the clock

                async def princ_at_one() -> Any:
                    return _seated(await _get(live, f"{princ}/state"), 1)

                p1 = await _until(live, princ_at_one)
                # the Campionato has its result from the clock, and only it
                champ_state = await _get(live, f"{champ}/state")
                done = next(m for m in champ_state["matches"] if m["table"] == 1)
                assert done["winner"] == c1["b"] and done["result"]["source"] == "clock"
                # the Principianti's match sits at the same clock table: its next match
                assert p1["table_id"] == t1
                one = await _get(live, f"/api/tables/{t1}")
                assert one["token"] == token and one["seq"] == 0
                assert one["players"] == [p1["a"], p1["b"]]
                assert one["tournament_id"] == int(princ.rsplit("/", 1)[1])
                assert one["name"] == "Table 1 · Principianti · Main R1"
                assert one["link"]["keeper_device"] == "phone-1"  # the timekeeper, kept
                # the phone left on table 1 was told: the other event's match is next
                await _until(live, lambda: _told(device, p1))
                # one clock per physical table: no third table was made
                tables = [t for base in (champ, princ) for t in (await _get(live, base))["tables"]]
                assert sorted(t["id"] for t in tables) == [t1, t2]
                # a hand result at the Campionato's table 2 (never played): the other
                # waiting match takes the room's table 2, not a new clock
                c2 = _at(champ_state, 2)
                assert c2 is not None
                await _post(live, f"{champ}/results", {"round": 0, "match": c2["match"],
                                                       "winner": c2["a"]})

                async def princ_at_two() -> Any:
                    return _seated(await _get(live, f"{princ}/state"), 2)

                assert (await _until(live, princ_at_two))["table_id"] == t2
                champ_state = await _get(live, f"{champ}/state")
                await _finish(device, "A")  # the Principianti's match ends on the clock

                async def princ_done() -> Any:
                    s = await _get(live, f"{princ}/state")
                    return next(m for m in s["matches"] if m["table"] == 1
                                and (m["a"], m["b"]) == (p1["a"], p1["b"]))["winner"]

                assert await _until(live, princ_done) == p1["a"]
                assert await _get(live, f"{champ}/state") == champ_state  # nothing there
            princ_tid = int(princ.rsplit("/", 1)[1])
            assert {t["id"] for t in (await _get(live, princ))["tables"]} == {t1, t2}
            before = await _get(live, f"{princ}/state")
        async with live_server(make) as live:  # a restart: the room's tables as they were
            after = await _get(live, f"{princ}/state")
            assert {**after, "room_url": ""} == {**before, "room_url": ""}
            assert {t["id"] for t in (await _get(live, princ))["tables"]} == {t1, t2}
            # the Campionato closes: the room's tables stay for the Principianti
            closed = await _post(live, f"{champ}/close")
            assert closed["closed_tables"] == []
            two = await _get(live, f"/api/tables/{t2}")
            assert two["status"] == "open" and two["tournament_id"] == princ_tid
            # the last event of the room closes them
            closed = await _post(live, f"{princ}/close")
            assert closed["closed_tables"] == [t1, t2]


async def _told(device: Device, match: dict[str, Any]) -> bool:
    """The device got the table's snapshot holding ``match``'s players."""
    while True:
        try:
            message = await device.recv(timeout=0.05)
        except TimeoutError:
            break
        if message["type"] == "snapshot" and message["info"]["players"] == [match["a"],
                                                                             match["b"]]:
            return True
    return any(m["type"] == "snapshot" and m["info"]["players"] == [match["a"], match["b"]]
               for m in device.history)


@pytest.mark.parametrize("kind", ["sqlite"])
async def test_an_event_closing_hands_a_room_table_it_alone_used_to_the_others(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make, live_server(make) as live:
        princ = await _event(live, "Principianti", "P", 2)
        champ = await _event(live, "Campionato", "C", 1)
        started = await _post(live, f"{champ}/rounds", {"round": 0})
        t1, t2 = (t["table_id"] for t in started["tables"])
        state = await _get(live, f"{champ}/state")
        for m in state["matches"]:  # decided by hand, then the final by hand: the event ends
            await _post(live, f"{champ}/results", {"round": 0, "match": m["match"],
                                                   "winner": m["a"]})
        await live.server.tourneys.flights.idle()
        # the Principianti never sat at a table yet: the Campionato's close keeps the room's
        closed = await _post(live, f"{champ}/close")
        assert closed["closed_tables"] == []
        started = await _post(live, f"{princ}/rounds", {"round": 0})
        assert sorted(t["table_id"] for t in started["tables"]) == [t1, t2]
        one = await _get(live, f"/api/tables/{t1}")
        assert one["name"].startswith("Table 1 · Principianti · ")


async def test_a_tournament_without_a_room_closes_its_tables(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _event(live, "Open", "O", None)
        started = await _post(live, f"{base}/rounds", {"round": 0})
        ids = sorted(t["table_id"] for t in started["tables"])
        assert (await _get(live, f"/api/tables/{ids[0]}"))["name"] == "Table 1 · Main R1"
        assert (await _post(live, f"{base}/close"))["closed_tables"] == ids
