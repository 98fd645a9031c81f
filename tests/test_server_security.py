"""Bad input and intruders: every one gets a clear error and stores nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests._server_kit import (
    DIRECTOR,
    KEY,
    STORES,
    Device,
    anyio_backend,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


@pytest.fixture(params=STORES)
async def live(request: Any, tmp_path: Path) -> Any:
    async with (
        store_factory(request.param, tmp_path) as make,
        live_server(make, hello_timeout_s=0.3, table_rate=(30, 10)) as server,
    ):
        yield server


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("this is not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": "shout"}', "bad_message"),
        ('{"type": "cmd", "id": "x1", "do": "teleport"}', "invalid"),
        ('{"type": "cmd", "id": "x2", "do": "hit", "side": "C"}', "invalid"),
        ('{"type": "cmd", "id": "x3", "do": "opening_roll", "dice": [7, 1]}', "invalid"),
        ('{"type": "cmd", "id": "x4", "do": "opening_roll", "dice": [3, 3]}', "illegal"),
        ('{"type": "cmd", "id": "x5", "do": "hit", "side": "A", "at_ms": 0}', "invalid"),
        ('{"type": "cmd", "id": "x6", "do": "stop", "reason": "restart"}', "invalid"),
        ('{"type": "cmd", "id": "x7", "do": "game_over", "winner": "A", "result": {}}',
         "invalid"),
        ('{"type": "cmd", "id": "x8", "do": "hit", "side": "A", "lag_ms": -5}', "bad_message"),
        ('{"type": "cmd", "id": "", "do": "hit", "side": "A"}', "bad_message"),
        ('{"type": "cmd", "id": "x9", "do": "hit", "side": "A", "colour": "red"}', "invalid"),
        ('{"type": "cmd", "id": "x10", "do": "adjust", "side": "A", "delta_ms": 1000}',
         "forbidden"),
        ('{"type": "cmd", "id": "x11", "do": "ruling", "decision": "accept"}', "forbidden"),
        ('{"type": "cmd", "id": "x12", "table": 999, "do": "hit", "side": "A"}', "forbidden"),
        ('{"type": "hello", "token": "again"}', "bad_message"),
        ('{"type": "ping", "v": 2}', "bad_message"),
    ],
)
async def test_bad_input_gets_a_clear_error_and_the_connection_stays(
    live: Any, frame: str, code: str
) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.send(frame)
        error = await a.expect("error")
        assert error["code"] == code, error
        assert error["message"]
        # the connection is still usable
        ack = await a.cmd("opening_roll", dice=[4, 2])
        assert ack["type"] == "ack" and ack["seq"] == 1
    assert len(await live.stored(table["id"])) == 1


async def test_an_oversized_message_is_refused_and_the_connection_kept(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.send({"type": "cmd", "id": "big", "do": "hit", "side": "A", "pad": "x" * 5000})
        assert (await a.expect("error"))["code"] == "too_large"
        assert (await a.cmd("opening_roll", dice=[4, 2]))["type"] == "ack"
    assert len(await live.stored(table["id"])) == 1


async def test_a_huge_frame_closes_the_connection(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}, max_size=None) as a:
        await a.welcome()
        await a.send("x" * 100_000)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await a.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_a_flood_is_rate_limited(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        for n in range(60):
            await a.send({"type": "cmd", "id": f"h{n}", "do": "hit", "side": "A"})
            if n % 12 == 0:  # the link's pings are never shed (ws.shed)
                await a.send({"type": "ping", "t": n})
        answers = [await a.recv() for _ in range(65)]
        codes = [m.get("code") for m in answers if m["type"] == "error"]
        assert codes and set(codes) == {"rate_limited"}
        assert sum(m["type"] == "ack" for m in answers) <= 31
        assert [m["t"] for m in answers if m["type"] == "pong"] == [0, 12, 24, 36, 48]


async def test_a_flood_that_goes_on_closes_the_connection(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        for _ in range(300):
            await a.send({"type": "cmd", "id": "f", "do": "opening_roll", "dice": [1, 2]})
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await a.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert len(await live.stored(table["id"])) <= 1


@pytest.mark.parametrize("hello", [{"token": "1.forged"}, {"token": "nonsense"},
                                   {"key": "wrong"}, {}])
async def test_a_wrong_token_or_key_is_refused(live: Any, hello: dict[str, Any]) -> None:
    await live.table()
    async with Device.open(live.ws_url, hello) as intruder:
        error = await intruder.recv()
        assert error["type"] == "error" and error["code"] == "unauthorized"
        with pytest.raises(websockets.ConnectionClosed):
            await intruder.recv()


async def test_a_token_opens_its_own_table_only(live: Any) -> None:
    mine = await live.table()
    other = await live.table()
    async with (
        Device.open(live.ws_url, {"token": mine["token"]}) as a,
        Device.open(live.ws_url, {"token": other["token"]}) as b,
    ):
        await a.welcome()
        await b.welcome()
        error = await a.cmd("opening_roll", table=other["id"], dice=[5, 1])
        assert error["code"] == "forbidden"
        await a.send({"type": "sync", "table": other["id"]})
        assert (await a.expect("error"))["code"] == "forbidden"
        assert await b.quiet(0.2) == []
    assert await live.stored(other["id"]) == []


async def test_a_silent_handshake_times_out(live: Any) -> None:
    async with Device.open(live.ws_url) as idle:
        error = await idle.recv(timeout=3)
        assert error["code"] == "timeout"
        with pytest.raises(websockets.ConnectionClosed):
            await idle.recv()


async def test_hello_must_come_first(live: Any) -> None:
    async with Device.open(live.ws_url) as early:
        await early.send({"type": "ping", "t": 1})
        assert (await early.recv())["code"] == "hello_first"
        with pytest.raises(websockets.ConnectionClosed):
            await early.recv()


async def test_a_foreign_origin_is_refused(live: Any) -> None:
    table = await live.table()
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with Device.open(live.ws_url, {"token": table["token"]},
                               origin="http://evil.example"):
            pass
    assert refused.value.response.status_code == 403
    host = live.url.removeprefix("http://")
    async with Device.open(live.ws_url, {"token": table["token"]},
                           origin=f"http://{host}") as a:
        await a.welcome()


async def test_the_director_api_needs_the_key(live: Any) -> None:
    table = await live.table()
    for path in ("/api/tournaments", f"/api/tables/{table['id']}",
                 f"/api/tables/{table['id']}/log.csv", f"/api/tables/{table['id']}/qr.svg",
                 "/director"):
        assert (await live.http.get(path)).status_code == 401
        bad = {"Authorization": "Bearer nope"}
        assert (await live.http.get(path, headers=bad)).status_code == 401
        assert (await live.http.get(path, headers=DIRECTOR)).status_code == 200
    assert (await live.http.get(f"/director?key={KEY}")).status_code == 200
    r = await live.http.post("/api/tournaments", json={"name": "x"})
    assert r.status_code == 401


async def test_a_table_link_opens_its_page_only(live: Any) -> None:
    t1 = await live.table()
    t2 = await live.table()
    assert (await live.http.get(f"/t/{t1['id']}?token={t1['token']}")).status_code == 200
    assert (await live.http.get(f"/t/{t2['id']}?token={t1['token']}")).status_code == 403
    assert (await live.http.get(f"/t/{t1['id']}")).status_code == 403


async def test_a_device_may_not_play_the_director(live: Any) -> None:
    table = await live.table(rules="it-tournament")
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        for do, fields in [("late_start", {"side": "A"}), ("start", {"side": "A"}),
                           ("penalty", {"side": "A", "points": 1}),
                           ("premature", {"side": "B"})]:
            error = await a.cmd(do, **fields)
            assert error["code"] == "forbidden", error
            assert "only the director" in error["message"]
    assert await live.stored(table["id"]) == []


async def test_binary_frames_are_refused(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.ws.send(json.dumps({"type": "ping"}).encode())
        assert (await a.expect("error"))["code"] == "bad_message"
        await asyncio.sleep(0)
