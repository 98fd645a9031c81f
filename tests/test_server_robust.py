"""What one table (or one token) can do to the rest of the room: edits racing
commands, a log that cannot be replayed, a failing statement, a long catch-up,
floods of no-op presses and summonses, ids of two senders, a closed table
after a restart.  Each case runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live import table as _table
from bgclock.store import StoredEvent, TableRow, TableSpec
from tests._server_kit import (
    DIRECTOR,
    KEY,
    STORES,
    Device,
    anyio_backend,
    live,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

SPEC = TableSpec(rules="usbgf-2013-delay", length=3, players=("Ann", "Bob"))


def _event(table_id: int, seq: int, event: dict[str, Any]) -> StoredEvent:
    return StoredEvent(table_id=table_id, seq=seq, idem_key=f"k{seq}", at_ms=seq * 1000,
                       event=event, source="table", lag_credit_ms=0, received_ms=0)


async def test_an_edit_and_the_first_command_never_both_succeed(live: Any) -> None:
    table = await live.table()
    hub_table = live.server.hub.tables[table["id"]]
    store = live.server.store
    release = asyncio.Event()
    real_update = store.update_table

    async def slow_update(table_id: int, spec: TableSpec) -> TableRow:
        await release.wait()
        return await real_update(table_id, spec)

    store.update_table = slow_update
    try:
        async with Device.open(live.ws_url, {"token": table["token"]}) as a:
            await a.welcome()
            edit = asyncio.create_task(live.http.patch(
                f"/api/tables/{table['id']}", json={"length": 5}, headers=DIRECTOR))
            while not hub_table.editing:
                await asyncio.sleep(0.01)
            # the first press lands while the edit is being stored: it waits
            refused = await a.cmd("opening_roll", dice=[6, 1])
            assert refused["type"] == "error" and refused["code"] == "busy"
            release.set()
            assert (await edit).status_code == 200
            assert (await a.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
    finally:
        store.update_table = real_update
    late = await live.http.patch(f"/api/tables/{table['id']}", json={"length": 7},
                                 headers=DIRECTOR)
    assert late.status_code == 409 and late.json()["error"] == "started"
    got = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
    assert got.json()["length"] == 5 and got.json()["state"]["phase"] != "setup"
    assert len(await live.stored(table["id"])) == 1


@pytest.mark.parametrize("kind", STORES)
async def test_a_log_that_cannot_be_replayed_quarantines_its_table_only(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        store = make()
        await store.open()
        t = await store.create_tournament("Open", 0)
        bad = await store.create_table(t.id, SPEC, 0)
        good = await store.create_table(t.id, SPEC, 0)
        # a take with no double: the engine refuses to replay it
        await store.commit([_event(bad.id, 1, {"do": "opening_roll", "at_ms": 1000,
                                               "dice": [6, 1]}),
                            _event(bad.id, 2, {"do": "take", "at_ms": 2000, "side": "B"})], {})
        await store.close()
        async with (
            live_server(make) as live,
            Device.open(live.ws_url, {"key": KEY}) as director,
        ):
            token = live.server.tokens.token
            _, snapshot = await director.welcome()
            infos = {m["table"]: m["info"] for m in [snapshot, *await director.quiet(0.3)]
                     if m["type"] == "snapshot"}
            assert "event 2" in infos[bad.id]["quarantined"]
            assert infos[bad.id]["attention"] == "quarantined"
            assert infos[good.id]["quarantined"] is None
            async with Device.open(live.ws_url, {"token": token(bad.id)}) as a:
                await a.welcome()
                refused = await a.cmd("opening_roll", dice=[6, 1])
                assert refused["code"] == "quarantined" and "event 2" in refused["message"]
            async with Device.open(live.ws_url, {"token": token(good.id)}) as b:
                await b.welcome()
                assert (await b.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
            # the bad log is kept, untouched
            assert [e["seq"] for e in await live.stored(bad.id)] == [1, 2]


@pytest.mark.parametrize("kind", STORES)
async def test_a_failing_statement_fails_only_its_own_command(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make, live_server(make) as live:
        table = await live.table()
        # a table the database does not hold: every write of it fails
        ghost_row = TableRow(id=10_000, tournament_id=1, spec=SPEC, created_ms=0)
        live.server.hub.add(ghost_row)
        async with (
            Device.open(live.ws_url, {"token": table["token"]}) as a,
            Device.open(live.ws_url, {"key": KEY}) as director,
        ):
            await a.welcome()
            await director.welcome()
            # sent together: they are likely to share a group commit
            await director.send({"type": "cmd", "id": "g1", "table": 10_000,
                                 "do": "opening_roll", "dice": [6, 1]})
            for n, (do, extra) in enumerate([("opening_roll", {"dice": [6, 1]}),
                                             ("hit", {"side": "A"}), ("hit", {"side": "B"})]):
                await a.send({"type": "cmd", "id": f"r{n}", "do": do, **extra})
            answers = [await a.expect("ack") for _ in range(3)]
            assert [x["id"] for x in answers] == ["r0", "r1", "r2"]
            ghost = await director.expect("error")
            assert ghost["id"] == "g1" and ghost["code"] == "storage"
        assert [e["seq"] for e in await live.stored(table["id"])] == [1, 2, 3]


async def test_a_sqlite_transaction_never_stays_open_after_an_error(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make:
        store = make()
        await store.open()
        t = await store.create_tournament("Open", 0)
        with pytest.raises(OverflowError):
            await store.close_tournament(2**70, 1)
        row = await store.create_table(t.id, SPEC, 0)
        await store.commit([_event(row.id, 1, {"do": "opening_roll", "at_ms": 1000,
                                               "dice": [6, 1]})], {})
        await store.close()
        again = make()
        await again.open()
        assert [e.seq for e in await again.events(row.id)] == [1]
        await again.close()


@pytest.mark.parametrize("kind", STORES)
async def test_a_closed_table_keeps_its_final_state_after_a_restart(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            table = await live.table()
            async with Device.open(live.ws_url, {"token": table["token"]}) as a:
                await a.welcome()
                await a.cmd("opening_roll", dice=[6, 1])
                await a.cmd("hit", side="A")
            before = (await live.http.get(f"/api/tables/{table['id']}",
                                          headers=DIRECTOR)).json()
            closed = await live.http.post(f"/api/tables/{table['id']}/close",
                                          headers=DIRECTOR)
            assert closed.status_code == 200
        async with live_server(make) as live:
            after = (await live.http.get(f"/api/tables/{table['id']}",
                                         headers=DIRECTOR)).json()
            assert after["status"] == "closed" and after["seq"] == 2
            assert after["state"]["on_turn"] == before["state"]["on_turn"] == "B"
            assert after["state"]["phase"] == before["state"]["phase"]


async def test_a_device_far_behind_gets_the_snapshot_not_the_whole_log(
        live: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_table, "CATCH_UP_EVENTS", 3)
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.cmd("opening_roll", dice=[6, 1])
        for n in range(5):
            await a.cmd("hit", side="AB"[n % 2])
    for last_seq, updates in [(0, []), (2, []), (3, [4, 5, 6]), (5, [6]), (6, [])]:
        async with Device.open(live.ws_url, {"token": table["token"],
                                             "last_seq": last_seq}) as b:
            await b.expect("welcome")
            got = []
            while (m := await b.recv())["type"] != "snapshot":
                got.append(m["seq"])
            assert got == updates, last_seq
            assert m["seq"] == 6


async def test_a_device_id_never_swallows_the_directors_command(live: Any) -> None:
    table = await live.table()
    async with (
        Device.open(live.ws_url, {"token": table["token"]}) as a,
        Device.open(live.ws_url, {"key": KEY}) as director,
    ):
        await a.welcome()
        await director.welcome()
        assert (await a.cmd("opening_roll", id="x-1", dice=[6, 1]))["seq"] == 1
        await director.send({"type": "cmd", "id": "x-1", "table": table["id"], "do": "hit",
                             "side": "A"})
        ack = await director.expect("ack")
        assert ack["id"] == "x-1" and ack["duplicate"] is False and ack["seq"] == 2
        # each sender's resend is still recognised
        again = await a.cmd("opening_roll", id="x-1", dice=[6, 1])
        assert again["duplicate"] is True and again["seq"] == 1
    assert [e["event"]["do"] for e in await live.stored(table["id"])] == ["opening_roll", "hit"]


async def test_floods_of_presses_that_change_nothing_store_nothing(live: Any) -> None:
    table = await live.table()
    live.server.hub.table_rate = (20, 0.001)
    other = await live.table()
    async with (
        Device.open(live.ws_url, {"token": other["token"]}) as a,
        Device.open(live.ws_url, {"token": other["token"]}) as b,
    ):
        await a.welcome()
        await b.welcome()
        assert (await a.cmd("opening_roll", dice=[6, 1]))["seq"] == 1  # A on turn
        for device in (a, b):
            for _ in range(3):
                noop = await device.cmd("hit", side="B")
                assert noop["type"] == "ack" and noop["noop"] is True
        # summonses: the same call while nothing happened is one note
        for device in (a, b, a):
            await device.send({"type": "summon", "id": f"s{id(device)}", "why": "director",
                               "side": "A"})
            assert (await device.expect("ack"))["note"] == 1
        # the table's own limit holds whatever the number of its connections
        answers = [await (a, b)[n % 2].cmd("hit", side="AB"[n % 2]) for n in range(20)]
        limited = [x for x in answers if x.get("code") == "rate_limited"]
        assert limited and "this table" in limited[0]["message"]
    assert len(await live.stored(other["id"])) == 1 + 20 - len(limited)
    notes = (await live.http.get(f"/api/tables/{other['id']}/log.json",
                                 headers=DIRECTOR)).json()["notes"]
    assert len(notes) == 1
    assert len(await live.stored(table["id"])) == 0
