"""Every process of a cluster shows every table live; quiet tables' leases go
back (issue 22: ``cluster.mirror``, ``cluster.handback``).

Real processes on PostgreSQL and Redis, as in ``tests/test_cluster.py`` (its
fixtures); waits are on state with deadlines (``eventually``), never sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
import pytest
import websockets

from bgclock.server.cluster import lease_key
from bgclock.server.cluster.handback import finished, quiet
from bgclock.server.live.hub import Hub
from bgclock.server.live.time import ManualClock
from bgclock.store import TableRow, TableSpec
from bgclock.store._sqlite import SqliteStore
from tests._server_kit import POSTGRES, anyio_backend
from tests.test_cluster import (
    AUTH,
    PASSWORD,
    Node,
    _device_ms,
    cluster,
    eventually,
    lease,
    make_table,
    phone,
    stored,
)
from tests.test_cluster import pytestmark as cluster_marks

__all__ = ["anyio_backend"]
pytestmark = cluster_marks


def _post(node: Node, path: str, body: Any = None) -> dict[str, Any]:
    r = httpx.post(node.url + path, json=body if body is not None else {}, headers=AUTH,
                   timeout=10)
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


def _drawn(node: Node, length: int) -> tuple[int, str]:
    """A tournament of two players on ``node``, drawn: (id, room token)."""
    tid = _post(node, "/api/tournaments", {"name": "Club"})["id"]
    base = f"/api/tournaments/{tid}"
    _post(node, f"{base}/settings", {"rounds": [
        {"length": length, "rules": "usbgf-2013-delay", "clock": "required"}]})
    r = httpx.post(node.url + f"{base}/players.csv", content=b"name\nAnn\nBob\n",
                   headers={**AUTH, "content-type": "text/csv"}, timeout=10)
    assert r.status_code == 201, r.text
    for player in r.json()["state"]["players"]:
        _post(node, f"{base}/players/{player['id']}/check-in")
    _post(node, f"{base}/draw", {"seed": 1})
    state = httpx.get(node.url + f"{base}/state", headers=AUTH, timeout=10).json()
    return tid, state["room_url"].split("token=")[1]


def _start_round(node: Node, tid: int) -> dict[str, Any]:
    """Its first round started: the match's clock table."""
    base = f"/api/tournaments/{tid}"
    _post(node, f"{base}/rounds", {"round": 0})
    state = httpx.get(node.url + f"{base}/state", headers=AUTH, timeout=10).json()
    table_id = next(m["table_id"] for m in state["matches"] if m["table_id"] is not None)
    return dict(httpx.get(f"{node.url}/api/tables/{table_id}", headers=AUTH,
                          timeout=10).json())


def _room(node: Node, length: int = 3) -> tuple[int, str, dict[str, Any]]:
    """A tournament of two players on ``node``, drawn, its round started: one
    match at a clock table.  (id, room token, the match's table)."""
    tid, token = _drawn(node, length)
    return tid, token, _start_round(node, tid)


def _get(node: Node, path: str) -> dict[str, Any]:
    r = httpx.get(node.url + path, headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


class Stream:
    """A room display's ``room.stream``: its views as they come."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    async def read(self, url: str) -> None:
        async with httpx.AsyncClient(timeout=None) as http, http.stream("GET", url) as r:
            assert r.status_code == 200
            async for line in r.aiter_lines():
                if line.startswith("data: "):
                    self.views.append(orjson.loads(line.removeprefix("data: ")))


@contextlib.asynccontextmanager
async def streaming(url: str) -> AsyncIterator[Stream]:
    stream = Stream()
    task = asyncio.get_running_loop().create_task(stream.read(url))
    try:
        yield stream
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _match(view: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """The room's match at ``table`` (by its players: the room shows no ids),
    or {} if the room shows it at no table."""
    return dict(next((m for m in view["matches"] if [m["a"], m["b"]] == table["players"]),
                     {}))


def _clock(view: dict[str, Any], table: dict[str, Any]) -> dict[str, Any] | None:
    clock = _match(view, table).get("clock")
    return clock if isinstance(clock, dict) else None


async def _lease_free(schema: str, table_id: int) -> bool:
    """Nobody holds the table's lease (its advisory lock is free)."""
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        key = lease_key(schema, "table", table_id)
        got = bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", key))
        if got:
            await conn.fetchval("SELECT pg_advisory_unlock($1)", key)
        return got
    finally:
        await conn.close()


# ---------------------------------------------------------------- the tests

async def test_a_press_on_a_is_read_live_at_b_and_in_its_room() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        tid, token, table = _room(a)
        n = table["id"]
        # b reads the table before anyone plays: it mirrors it from here on
        assert _get(b, f"/api/tables/{n}")["state"]["phase"] == "setup"
        room = f"/api/tournaments/{tid}/room.json?token={token}"
        assert _clock(_get(b, room), table)["phase"] == "setup"  # type: ignore[index]
        async with phone(a.ws, table["token"], "keeper") as keeper:
            roll = await keeper.answered(await keeper.cmd(
                "opening_roll", dice=[6, 1], device_at_ms=_device_ms(table)))
            assert roll["type"] == "ack"
            assert await lease(schema, n) == ("a", 1)

            def at_b() -> bool:
                got = _get(b, f"/api/tables/{n}")
                return bool(got["seq"] == roll["seq"] and got["state"]["phase"] == "playing")

            await eventually(at_b, what="b's GET shows the roll made on a")
            hit = await keeper.answered(await keeper.cmd(
                "hit", side="A", device_at_ms=_device_ms(table)))
            await eventually(lambda: _get(b, f"/api/tables/{n}")["seq"] == hit["seq"],
                             what="b's GET shows the press made on a")
            here, there = _get(a, f"/api/tables/{n}"), _get(b, f"/api/tables/{n}")
            # the same state (its running clock read at each one's now)
            for key in ("phase", "score", "on_turn", "cube"):
                assert here["state"].get(key) == there["state"].get(key), key
            # what only the keeper knows (its device online) comes from it
            assert there["link"]["state"] == "online"
            assert there["link"]["keeper_device"] == "keeper"

            def room_at_b() -> bool:
                clock = _clock(_get(b, room), table)
                return clock is not None and clock["on_turn"] == here["state"]["on_turn"] \
                    and clock["phase"] == "playing"

            await eventually(room_at_b, what="b's room.json shows the press made on a")
            log = _get(b, f"/api/tables/{n}/log.json")
            assert [e["event"]["do"] for e in log["events"]] == ["opening_roll", "hit"]
            assert log["table"]["seq"] == hit["seq"]
            # (its running clock is mirrored at b for a while: b writes nothing for it)
            await eventually(lambda: _get(b, f"/api/tables/{n}")["state"]["at_ms"]
                             > there["state"]["at_ms"] + 1500, what="time passing at b")
        assert await lease(schema, n) == ("a", 1)  # b read it, never took it
        err = b.stop()
        assert "owned by another process" not in err and "fenced" not in err, err


async def test_a_room_stream_on_b_sees_a_result_at_a_table_owned_by_a() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        tid, token = _drawn(a, length=1)
        async with streaming(f"{b.url}/api/tournaments/{tid}/room.stream?token={token}") as s:
            await eventually(lambda: bool(s.views), what="the stream's first view on b")
            assert not any(isinstance(m["clock"], dict) for m in s.views[0]["matches"])
            # the round starts on a (it keeps the tournament): b's display sees
            # its match at its clock table
            table = _start_round(a, tid)
            await eventually(lambda: (_clock(s.views[-1], table) or {}).get("phase") == "setup",
                             what="the round started on a, on b's display")
            async with phone(a.ws, table["token"], "keeper") as keeper:
                await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                                       device_at_ms=_device_ms(table)))
                # a press at a's table pushes b's display (the table's change alone)
                await eventually(lambda: (_clock(s.views[-1], table) or {}).get("phase")
                                 == "playing", what="the roll on a, on b's display")
                over = await keeper.answered(await keeper.cmd(
                    "game_over", winner="A", result="single", device_at_ms=_device_ms(table)))
                assert over["type"] == "ack"
                assert await lease(schema, table["id"]) == ("a", 1)

                def result_pushed() -> bool:
                    # the result in the room: a keeps the table and the
                    # tournament, which takes the table's result; b folds the
                    # tournament again (the match over at its table may show
                    # first, or be pushed in the same view)
                    return bool(_match(s.views[-1], table).get("winner") == table["players"][0])

                await eventually(result_pushed, what="b's room display sees a's result")


async def test_a_dashboard_open_on_b_gets_a_table_made_on_a() -> None:
    async with cluster("a", "b") as (schema, (a, b)), websockets.connect(b.ws) as ws:
        got: list[dict[str, Any]] = []

        async def read() -> None:
            async for text in ws:
                msg = json.loads(text)
                got.extend(msg["messages"] if msg["type"] == "batch" else [msg])

        reader = asyncio.get_running_loop().create_task(read())
        try:
            await ws.send(json.dumps({"type": "hello", "key": PASSWORD}))
            await eventually(lambda: any(m["type"] == "welcome" for m in got),
                             what="the dashboard's welcome on b")
            table = make_table(a, players=["Cy", "Di"])
            await eventually(lambda: any(m["type"] == "table" and m["table"] == table["id"]
                                         for m in got),
                             what="the table made on a appears on b's dashboard")
            info = next(m["info"] for m in got
                        if m["type"] == "table" and m["table"] == table["id"])
            assert info["players"] == ["Cy", "Di"]
            # and it is live there: a press on a reaches it
            async with phone(a.ws, table["token"], "keeper") as keeper:
                roll = await keeper.answered(await keeper.cmd(
                    "opening_roll", dice=[6, 1], device_at_ms=_device_ms(table)))
                await eventually(lambda: any(m["type"] == "update" and m["table"] == table["id"]
                                             and m["seq"] == roll["seq"] for m in got),
                                 what="the press on a at b's dashboard")
        finally:
            reader.cancel()


async def _roll_hit_and_break(keeper: Any, table: dict[str, Any]) -> None:
    """Three presses, the clock stopped for a break at the end (seq 3)."""
    for do, fields in (("opening_roll", {"dice": [6, 1]}), ("hit", {"side": "A"}),
                       ("stop", {"side": "B", "reason": "break"})):
        ack = await keeper.answered(await keeper.cmd(
            do, device_at_ms=_device_ms(table), **fields))
        assert ack["type"] == "ack", ack


async def test_a_quiet_table_is_handed_back_and_taken_by_b_with_its_log() -> None:
    async with cluster("a", "b", extra=("--release-idle-s", "0.5")) as (schema, (a, b)):
        table = make_table(a)
        n = table["id"]
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await _roll_hit_and_break(keeper, table)
            assert await lease(schema, n) == ("a", 1)
            assert not await _lease_free(schema, n)  # a device is here: a keeps it
        # no device, the clock stopped: a hands the lease back
        await eventually(lambda: _lease_free(schema, n), what="a hands the lease back")
        assert await lease(schema, n) == ("a", 1)  # the row keeps its epoch
        async with phone(b.ws, table["token"], "keeper") as keeper:
            snap = await _snapshot(keeper)
            assert snap["seq"] == 3 and snap["state"]["phase"] == "stopped"
            assert snap["info"]["link"]["keeper_device"] == "keeper"  # the claim survives
            assert await lease(schema, n) == ("b", 2)  # b took it, a newer epoch
            for do, fields in (("resume", {}), ("hit", {"side": "B"})):
                ack = await keeper.answered(await keeper.cmd(
                    do, device_at_ms=_device_ms(table), **fields))
                assert ack["type"] == "ack", ack
            assert ack["seq"] == 5
        events = await stored(schema, n)
        assert [e["do"] for e in events] == ["opening_roll", "hit", "stop", "resume", "hit"]
        assert [e["seq"] for e in events] == [1, 2, 3, 4, 5]
        said = [x for x in a.stop().splitlines() if "lease is handed back" in x]
        assert said and f"table {n}:" in said[0], said


async def test_a_table_handed_back_under_a_room_display_stays_live_there_as_a_mirror() -> None:
    async with cluster("a", "b", extra=("--release-idle-s", "0.5")) as (schema, (a, b)):
        tid, token, table = _room(a)
        n = table["id"]
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await _roll_hit_and_break(keeper, table)
        room = f"{a.url}/api/tournaments/{tid}/room.stream?token={token}"
        async with streaming(room) as s:  # a room display at a: a keeps a mirror
            await eventually(lambda: _lease_free(schema, n), what="a hands the lease back")
            # read back in place of its runner: the state it had, not a blank
            # table nor a closed one
            seen = _get(a, f"/api/tables/{n}")
            assert (seen["seq"], seen["status"]) == (3, "open"), seen
            view = _get(a, f"/api/tournaments/{tid}/room.json?token={token}")
            assert (_clock(view, table) or {}).get("phase") == "stopped", view
            async with phone(b.ws, table["token"], "keeper") as keeper:
                await _snapshot(keeper)
                assert await lease(schema, n) == ("b", 2)
                ack = await keeper.answered(await keeper.cmd(
                    "resume", device_at_ms=_device_ms(table)))
                assert ack["type"] == "ack" and ack["seq"] == 4, ack
                # the mirror at a follows b's updates: a's room display is pushed
                await eventually(lambda: (_clock(s.views[-1], table) or {}).get("phase")
                                 == "playing", what="b's press on a's room display")
                assert _get(a, f"/api/tables/{n}")["seq"] == 4


async def _snapshot(p: Any) -> dict[str, Any]:
    await eventually(lambda: any(m["type"] == "snapshot" for m in p.history),
                     what="the device's snapshot")
    return dict(next(m for m in p.history if m["type"] == "snapshot"))


# ------------------------------------------------------------ what is quiet

SPEC = TableSpec(name="1", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=3)


@pytest.fixture
async def hub(tmp_path: Any) -> AsyncIterator[Hub]:
    store = SqliteStore(tmp_path / "quiet.db")
    yield Hub(store, ManualClock())


async def test_a_table_with_a_running_clock_a_device_or_a_pending_write_is_not_quiet(
        hub: Hub) -> None:
    from bgclock.core import Hit, OpeningRoll, Stop
    from bgclock.server.live.hub import TableRunner

    table = TableRunner(hub, TableRow(id=1, tournament_id=1, spec=SPEC, created_ms=0))
    assert quiet(table) and not finished(table)  # a new table, nobody there
    table.match.apply(OpeningRoll(at_ms=1000, dice=(6, 1)))
    assert table.match.expires_at() is not None
    assert not quiet(table)  # its clock runs: never handed back
    table.match.apply(Hit(at_ms=2000, side="A"))
    table.match.apply(Stop(at_ms=3000, side="B", reason="break"))
    assert quiet(table)
    table.watchers.add(object())  # type: ignore[arg-type]
    assert not quiet(table)  # a device is connected
    table.watchers.clear()
    table.seq = table.committed_seq + 1
    assert not quiet(table)  # an event on its way to the store
    table.seq = table.committed_seq
    table.closed = True
    assert quiet(table) and finished(table)


# ------------------------------------------------------------ what a mirror does

def _stored(seq: int, event: dict[str, Any]) -> Any:
    from bgclock.store import StoredEvent

    return StoredEvent(table_id=1, seq=seq, idem_key=None, at_ms=int(event["at_ms"]),
                       event=event, source="table", lag_credit_ms=0, received_ms=0)


async def test_a_mirror_follows_its_owners_updates_and_asks_to_be_folded_again_on_a_gap(
        hub: Hub) -> None:
    from bgclock.server.cluster.mirror import MirroredTable

    table = MirroredTable(hub, TableRow(id=1, tournament_id=1, spec=SPEC, created_ms=0))
    roll = {"v": 1, "do": "opening_roll", "at_ms": 1000, "dice": [6, 1]}
    assert table.follow(_stored(1, roll), "update 1")
    assert table.committed_seq == 1 and table.match.state().phase == "playing"
    assert table.follow(_stored(1, roll), "again")  # one it holds: skipped
    hit = {"v": 1, "do": "hit", "at_ms": 2000, "side": "A"}
    assert not table.follow(_stored(3, hit), "update 3")  # seq 2 missed: fold again
    assert table.committed_seq == 1
    early = {"v": 1, "do": "hit", "at_ms": 500, "side": "A"}
    assert not table.follow(_stored(2, early), "update 2")  # folded before the roll
    assert table.follow(_stored(2, hit), "update 2")
    assert table.committed_seq == 2 and table.match.state().on_turn == "B"
    # its clock runs at its owner: nothing of it is stored here
    assert table.match.expires_at() is not None and table.checkpoint_ms() is None
    table.info()  # the store's card until the owner's is heard
    table.mirrored = {"id": 1, "status": "open", "online": ["phone"], "seq": 0}
    assert table.info() == {"id": 1, "status": "open", "online": ["phone"], "seq": 2}


async def test_a_mirror_takes_no_command_and_relays_nothing(hub: Hub) -> None:
    from bgclock.server.cluster.mirror import MirroredTable
    from bgclock.server.live.hub import TableRunner
    from bgclock.server.live.owner import Alone
    from bgclock.server.live.refusal import Refused
    from bgclock.server.ws.protocol import decode

    relayed: list[int] = []

    class Relays(Alone):
        def relay(self, table_id: int, text: str, everyone: bool) -> None:
            relayed.append(table_id)

    hub.owner = Relays()
    row = TableRow(id=1, tournament_id=1, spec=SPEC, created_ms=0)
    owned, table = TableRunner(hub, row), MirroredTable(hub, row)
    cmd = decode(json.dumps({"type": "cmd", "id": "late-1", "table": 1, "do": "opening_roll",
                             "dice": [6, 1]}))

    class Sink:
        def send(self, text: str) -> None:
            raise AssertionError(text)

    for decide in (table.command, table.receive):
        with pytest.raises(Refused) as refused:
            decide(Sink(), "director", cmd)  # type: ignore[arg-type]
        assert refused.value.code == "not_owner"
    assert table.seq == 0 and table.state_now().phase == "setup"
    owned.broadcast(owned.table_message())
    assert relayed == [1]  # its owner's broadcast goes on the table's channel
    table.broadcast(table.table_message())
    table.broadcast_directors(table.table_message())
    assert relayed == [1]  # a mirror's does not
