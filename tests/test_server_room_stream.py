"""The room display pushed (``room.stream``, bgclock/server/_roomfeed.py):
the room token opens a read-only stream of server-sent events, the whole
room view now and after every change, built once for every display."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
import pytest

from tests._server_kit import Device, anyio_backend, live
from tests.test_server_tourney import _field, _post, _state, _tournament

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


class Stream:
    """One display's stream: its events' data, decoded, as they come."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.aiter_lines()

    async def next(self, timeout: float = 30.0) -> dict[str, Any]:  # a hang guard
        async def read() -> dict[str, Any]:
            kind = None
            async for line in self.lines:
                if line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: ") and kind == "room":
                    return dict(orjson.loads(line.removeprefix("data: ")))
            raise AssertionError("the stream ended")
        return await asyncio.wait_for(read(), timeout)


@contextlib.asynccontextmanager
async def opened(live: Any, path: str) -> AsyncIterator[Stream]:
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as http, http.stream(
            "GET", path) as r:
        assert r.status_code == 200, await r.aread()
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in r.headers
        yield Stream(r)


async def _room(live: Any) -> tuple[int, str, dict[str, Any]]:
    base = await _tournament(live)
    await _field(live, base, 4, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    await _post(live, f"{base}/rounds", {"round": 0})
    state = await _state(live, base)
    return int(base.rsplit("/", 1)[1]), state["room_url"].split("token=")[1], state


def _still(room: dict[str, Any]) -> dict[str, Any]:
    """The view without what moves by itself (the time now, a clock's match
    time, the round's forecast, worked out from the time now)."""
    return {**room, "server_ms": 0, "forecast": None, "matches": [
        {**m, "clock": m["clock"] and {**m["clock"], "at_ms": 0}} for m in room["matches"]]}


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return _still(a) == _still(b)


async def test_the_room_token_opens_a_stream_of_the_room_view(live: Any) -> None:
    tid, token, _ = await _room(live)
    path = f"/api/tournaments/{tid}/room.stream?token={token}"
    for bad in (f"/api/tournaments/{tid}/room.stream?token=nope",
                f"/api/tournaments/{tid}/room.stream"):
        assert (await live.http.get(bad)).status_code == 403
    assert (await live.http.get(f"/api/tournaments/x/room.stream?token={token}")
            ).status_code == 404
    async with opened(live, path) as stream:
        first = await stream.next()
        polled = (await live.http.get(f"/api/tournaments/{tid}/room.json?token={token}")
                  ).json()
        assert _same(first, polled), [(k, first[k], polled.get(k)) for k in first
                                      if first[k] != polled.get(k)]
    for _ in range(500):  # the display left: nothing kept
        if not live.server.room_feed.rooms:
            break
        await asyncio.sleep(0.01)
    assert live.server.room_feed.rooms == {}


async def test_a_change_at_a_table_is_pushed_once_to_every_display(live: Any) -> None:
    tid, token, state = await _room(live)
    path = f"/api/tournaments/{tid}/room.stream?token={token}"
    feed = live.server.room_feed
    async with opened(live, path) as one, opened(live, path) as two:
        before = await one.next()
        assert _same(await two.next(), before)
        clocked = [i for i, m in enumerate(before["matches"]) if m["clock"] is not None]
        assert clocked
        i = clocked[0]
        assert before["matches"][i]["clock"]["phase"] == "setup"
        table_id = state["matches"][i]["table_id"]
        built = feed.built
        async with Device.open(live.ws_url, {
                "token": live.server.tokens.token(table_id)}) as device:
            await device.welcome()
            assert (await device.cmd("opening_roll", dice=[3, 1]))["type"] == "ack"
            # the device's arrival may be pushed first: read until the press's view
            seen_one = [await one.next()]
            while seen_one[-1]["matches"][i]["clock"]["phase"] == "setup":
                seen_one.append(await one.next())
            seen_two = [await two.next() for _ in seen_one]
        assert seen_one == seen_two  # the same views, in the same order, for both displays
        assert len(seen_one) <= 2, seen_one  # the arrival, then the press
        assert feed.built - built == len(seen_one)  # each built once, not once per display


async def test_a_tournament_action_is_pushed(live: Any) -> None:
    tid, token, state = await _room(live)
    base = f"/api/tournaments/{tid}"
    async with opened(live, f"{base}/room.stream?token={token}") as stream:
        before = await stream.next()
        m = state["matches"][0]
        await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": m["a"],
                                               "score": [3, 0]})
        after = await stream.next()
        assert before["matches"][0]["winner"] is None
        assert after["matches"][0]["winner"] == m["a"]


async def test_closing_the_feed_ends_every_stream(live: Any) -> None:
    tid, token, _ = await _room(live)
    async with opened(live, f"/api/tournaments/{tid}/room.stream?token={token}") as stream:
        await stream.next()
        live.server.room_feed.close()
        with pytest.raises(AssertionError, match="ended"):
            await stream.next()
