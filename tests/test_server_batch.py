"""Batch frames (hello ``batch``): what one commit sends a connection comes
as one frame; a client that did not ask gets a frame per message."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests._server_kit import KEY, Device, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def frame(device: Device) -> dict[str, Any]:
    """The next WebSocket frame, as it came (a batch is not unpacked)."""
    return dict(json.loads(await asyncio.wait_for(device.ws.recv(), 5)))


async def settle(device: Device) -> None:
    await device.welcome()
    await device.quiet(0.2)  # the keeper's table message, if any


async def test_a_press_is_one_frame_to_its_sender_and_plain_frames_to_the_rest(
        live: Any) -> None:
    table = await live.table()
    token = table["token"]
    async with (
        Device.open(live.ws_url, {"token": token, "batch": True}) as a,
        Device.open(live.ws_url, {"token": token}) as b,
    ):
        await settle(a)
        await settle(b)
        await a.send({"type": "cmd", "id": "r1", "do": "opening_roll", "dice": [3, 5]})
        got = await frame(a)
        assert got["type"] == "batch"
        kinds = [m["type"] for m in got["messages"]]
        assert kinds == ["update", "ack"]  # the update first, as without batch
        update, ack = got["messages"]
        assert update["seq"] == ack["seq"] == 1 and ack["id"] == "r1"
        assert update["state"]["on_turn"] == "B"
        plain = await frame(b)  # no batch asked: the update alone, as before
        assert plain["type"] == "update" and plain["seq"] == 1
        # a refusal is not a commit's: it comes alone at once
        await a.send({"type": "cmd", "id": "r2", "do": "take"})
        error = await frame(a)
        assert error["type"] == "error" and error["id"] == "r2"


async def test_a_dashboard_gets_one_frame_per_commit_for_every_table_in_it(
        live: Any) -> None:
    one, two = await live.table(), await live.table()
    writer = live.server.hub.writer
    gate, entered = asyncio.Event(), asyncio.Event()
    commit = writer.store.commit

    async def held(*args: Any, **kwargs: Any) -> None:
        entered.set()
        await gate.wait()
        await commit(*args, **kwargs)

    async with (
        Device.open(live.ws_url, {"token": one["token"]}) as a,
        Device.open(live.ws_url, {"token": two["token"]}) as b,
        Device.open(live.ws_url, {"key": KEY, "batch": True}) as director,
        Device.open(live.ws_url, {"key": KEY}) as plain_director,
    ):
        for d in (a, b):
            await settle(d)
        for d in (director, plain_director):
            await d.expect("welcome")
            await d.quiet(0.3)  # the snapshots of every table
        writer.store.commit = held
        try:
            await a.send({"type": "cmd", "id": "x", "do": "opening_roll", "dice": [6, 1]})
            await asyncio.wait_for(entered.wait(), 5)  # x is in the held commit
            await b.send({"type": "cmd", "id": "y", "do": "opening_roll", "dice": [2, 4]})
            await a.send({"type": "cmd", "id": "z", "do": "hit", "side": "A"})
            for _ in range(500):  # both queued behind it (a bounded wait on state)
                if len(writer._items) >= 2:
                    break
                await asyncio.sleep(0.01)
            assert len(writer._items) == 2
        finally:
            writer.store.commit = commit
            gate.set()
        alone = await frame(director)  # the first commit held one update: no batch
        assert (alone["type"], alone["table"], alone["seq"]) == ("update", one["id"], 1)
        got = await frame(director)
        assert got["type"] == "batch"
        assert [(m["type"], m["table"], m["seq"]) for m in got["messages"]] == [
            ("update", two["id"], 1), ("update", one["id"], 2)]
        plain = [await frame(plain_director) for _ in range(3)]
        assert [(m["type"], m["table"], m["seq"]) for m in plain] == [
            ("update", one["id"], 1), ("update", two["id"], 1), ("update", one["id"], 2)]
