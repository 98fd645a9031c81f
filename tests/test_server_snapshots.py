"""A table starts from its stored snapshot plus the events after it
(``bgclock.server.live.snapshots``), and keeps only a bounded window of its
log in memory: what it folds to is exactly what its whole log folds to."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bgclock.core import ClockError, Match
from bgclock.script import load_script, read_json
from bgclock.server.live import snapshots
from bgclock.server.live.fold import fold
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.time import ManualClock
from bgclock.store import NotFound, Store, StoredEvent, StoredSnapshot, TableRow, TableSpec
from tests._server_kit import (
    DIRECTOR,
    KEY,
    STORES,
    Device,
    Live,
    anyio_backend,
    damage_snapshot,
    live_server,
    store_factory,
)
from tests.conftest import SCRIPTS

__all__ = ["anyio_backend"]
EVERY = 4
SCRIPT_FILES = sorted(SCRIPTS.glob("*/*.json"))


def _script_log(path: Path) -> tuple[TableRow, list[StoredEvent]]:
    """A clock script's accepted events as a table's stored log (the
    director's kinds stored as the director's)."""
    script = load_script(read_json(path))
    spec = TableSpec(rules=script.rules, length=script.length, score=script.score,
                     teams=script.teams, crawford=script.crawford, clock=dict(script.clock))
    row = TableRow(id=1, tournament_id=1, spec=spec, created_ms=1_000)
    match, events = script.new_match(), []
    for step in script.steps:
        if step.event is None:
            continue
        try:
            match.apply(step.event)
        except ClockError:
            continue
        source = "director" if step.event.kind in ("adjust", "penalty", "ruling") else "table"
        events.append(StoredEvent(table_id=1, seq=len(events) + 1, idem_key=f"k{len(events)}",
                                  at_ms=step.event.at_ms, event=step.event.to_dict(),
                                  source=source, lag_credit_ms=0, received_ms=0))
    return row, events


def _figures(table: TableRunner) -> tuple[Any, ...]:
    state = table.table_state()
    return (table.seq, table.match.to_snapshot(), table.committed_match.to_snapshot(),
            state.log_end_ms, state.device_floor_ms)


@pytest.mark.parametrize("path", SCRIPT_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_stored_snapshot_and_its_tail_fold_as_the_whole_log(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 3)  # the window cut, many times
    row, events = _script_log(path)
    hub = Hub(store=None, clock=ManualClock())  # type: ignore[arg-type]  # never awaited
    whole = TableRunner(hub, row)
    whole.load(events)
    assert whole.refold().to_snapshot() == whole.match.to_snapshot()
    assert len(whole.log) <= 3 or whole.base.seq == 0
    for cut in range(1, len(events) + 1):
        prefix = TableRunner(hub, row)
        prefix.load(events[:cut])
        base = snapshots.base_after(snapshots.Base(), events[:cut],
                                    fold(row.spec, events[:cut]))
        stored = snapshots.encode(row, base, 0)
        back = StoredSnapshot(table_id=1, created_ms=row.created_ms, seq=stored.seq,
                              version=stored.version, saved_ms=0,
                              state=json.loads(stored.body()))
        read = snapshots.decode(row, back, prefix.match)
        if not snapshots.follows(read, events[cut:]):
            continue  # a later event folds before it: the start folds the whole log
        table = TableRunner(hub, row)
        table.load(events[cut:], base=read)
        assert _figures(table) == _figures(whole), f"snapshot at seq {cut}"


async def _until(check: Any, what: str) -> None:
    for _ in range(300):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def _stored_snapshot(live: Live, table_id: int, seq: int) -> StoredSnapshot:
    store: Store = live.server.store

    async def there() -> bool:
        snap = await store.snapshot(table_id)
        return snap is not None and snap.seq == seq

    await _until(there, f"no snapshot at seq {seq}")
    snap = await store.snapshot(table_id)
    assert snap is not None
    return snap


async def _same_as_whole_log(live: Live, table_id: int) -> None:
    """The live table's match is the fold of its whole stored log."""
    hub = live.server.hub.tables[table_id]
    assert hub.quarantined is None
    events = await live.server.store.events(table_id)
    assert [e.seq for e in events] == list(range(1, hub.committed_seq + 1))
    assert fold(hub.row.spec, events).to_snapshot() == hub.committed_match.to_snapshot()
    assert hub.refold().to_snapshot() == hub.committed_match.to_snapshot()


async def _director_resumes_and_stops(live: Live, table_id: int, times: int,
                                      clock: ManualClock) -> None:
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        for _ in range(times):
            clock.advance(500)
            resume = await director.cmd("resume", table=table_id)
            assert resume["type"] == "ack", resume
            clock.advance(1_500)
            stop = await director.cmd("stop", table=table_id, side="A", reason="director")
            assert stop["type"] == "ack", stop


@pytest.mark.anyio
@pytest.mark.parametrize("store", STORES)
async def test_restarts_from_snapshots_fold_the_whole_log(
        store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2013-delay", length=5)
            tid = table["id"]
            async with Device.open(live.ws_url, {"token": table["token"]}) as d:
                await d.welcome()
                assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                for i in range(13):
                    clock.advance(2_000)
                    assert (await d.cmd("hit", side="AB"[i % 2]))["type"] == "ack"
            hub = live.server.hub.tables[tid]
            assert hub.committed_seq == 14
            # the window: the events after the base, never the whole log
            assert (hub.base.seq, [e.seq for e in hub.log]) == (8, list(range(9, 15)))
            await _stored_snapshot(live, tid, 12)
            await _same_as_whole_log(live, tid)
            # a device's log page from before the window is read from the store
            r = await live.http.get(f"/api/tables/{tid}/events",
                                    params={"token": table["token"], "after": 0})
            assert [e["seq"] for e in r.json()["events"]] == list(range(1, 15))
            page, more = await hub.events_after(2, 3)
            assert [e.seq for e in page] == [3, 4, 5] and more is True
            page, more = await hub.events_after(10, 3)
            assert [e.seq for e in page] == [11, 12, 13] and more is True
            page, more = await hub.events_after(12, 1000)
            assert [e.seq for e in page] == [13, 14] and more is False
            before = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()
        async with live_server(make, clock=clock) as live:
            hub = live.server.hub.tables[tid]
            # folded from the snapshot at 12 and the two events after it (and
            # the restart's stop: no device keeps the time)
            assert hub.base.seq == 12 and [e.seq for e in hub.log] == [13, 14, 15]
            assert hub.log[-1].event["reason"] == "restart"
            await _same_as_whole_log(live, tid)
            after = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()
            assert after["state"]["phase"] == "stopped"
            for key in ("on_turn", "score", "cube"):
                assert after["state"][key] == before["state"][key], key
            await _director_resumes_and_stops(live, tid, 5, clock)
            await _same_as_whole_log(live, tid)
            seq = live.server.hub.tables[tid].committed_seq
            snap = await _stored_snapshot(live, tid, seq - seq % EVERY)
            log = (await live.http.get(f"/api/tables/{tid}/log.json",
                                       headers=DIRECTOR)).json()["events"]
            assert [e["seq"] for e in log] == list(range(1, seq + 1))
        async with live_server(make, clock=clock) as live:
            hub = live.server.hub.tables[tid]
            assert hub.base.seq == snap.seq
            await _same_as_whole_log(live, tid)


@pytest.mark.anyio
@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("damage", ["not json", "another version", "another seq",
                                    "another engine", "folds before"])
async def test_a_damaged_snapshot_falls_back_to_the_whole_log(
        store: str, damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2013-delay", length=5)
            tid = table["id"]
            async with Device.open(live.ws_url, {"token": table["token"]}) as d:
                await d.welcome()
                assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                for i in range(8):
                    clock.advance(2_000)
                    assert (await d.cmd("hit", side="AB"[i % 2]))["type"] == "ack"
            snap = await _stored_snapshot(live, tid, 8)
            state = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()["state"]
            store_ = live.server.store
            body = dict(snap.state)
            if damage == "not json":
                await damage_snapshot(store_, tid, '{"match": [')
            elif damage == "another seq":
                await damage_snapshot(store_, tid, json.dumps({**body, "seq": 3}))
            elif damage == "another engine":
                await damage_snapshot(store_, tid, json.dumps(
                    {**body, "match": {**body["match"], "slots": "0" * 12}}))
            elif damage == "folds before":  # the tail would fold before what it holds
                match = dict(body["match"]["match"])
                match["now"] = 10**9
                await damage_snapshot(store_, tid, json.dumps(
                    {**body, "match": {**body["match"], "match": match}}))
            else:
                await live.server.store.put_snapshots([StoredSnapshot(
                    table_id=tid, created_ms=snap.created_ms, seq=snap.seq + 1,
                    version=snapshots.VERSION + 1, state=body, saved_ms=0)])
        async with live_server(make, clock=clock) as live:
            hub = live.server.hub.tables[tid]
            assert hub.quarantined is None
            assert hub.committed_seq == 10  # and the restart's stop
            await _same_as_whole_log(live, tid)
            got = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()["state"]
            for key in ("on_turn", "score", "cube"):
                assert got[key] == state[key], key
        assert "the whole log is folded" in caplog.text


def test_a_snapshot_of_another_match_is_not_read() -> None:
    row = TableRow(id=7, tournament_id=1, created_ms=50,
                   spec=TableSpec(rules="usbgf-2013-delay", length=5))
    match = Match.new("usbgf-2013-delay", length=5)
    stored = snapshots.encode(row, snapshots.Base(seq=3, match=match), 0)
    other = TableRow(id=7, tournament_id=1, created_ms=51, spec=row.spec)
    with pytest.raises(snapshots.Unreadable, match="another match"):
        snapshots.decode(other, stored, match)


@pytest.mark.anyio
@pytest.mark.parametrize("store", STORES)
async def test_one_table_loads_by_id_from_its_snapshot(
        store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2013-delay", length=5)
            tid = table["id"]
            async with Device.open(live.ws_url, {"token": table["token"]}) as d:
                await d.welcome()
                assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                for i in range(9):
                    clock.advance(2_000)
                    assert (await d.cmd("hit", side="AB"[i % 2]))["type"] == "ack"
                await _stored_snapshot(live, tid, 8)
                old = live.server.hub.tables[tid]
                loaded = await live.server.hub.load_table(tid)
                assert live.server.hub.tables[tid] is loaded and loaded is not old
                assert loaded.base.seq == 8 and [e.seq for e in loaded.log] == [9, 10, 11]
                assert loaded.watchers == old.watchers  # its devices stay connected
                # the clock ran: stopped at its checkpoint, as at a start
                assert loaded.committed_seq == 11
                await _same_as_whole_log(live, tid)
            with pytest.raises(NotFound):
                await live.server.hub.load_table(tid + 100)


@pytest.mark.anyio
async def test_a_command_id_older_than_the_window_is_never_stored_twice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the window no longer knows the id: the store does, and its ack is the answer
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory("sqlite", tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2013-delay", length=5)
            tid = table["id"]
            async with Device.open(live.ws_url, {"token": table["token"]}) as d:
                await d.welcome()
                assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                clock.advance(2_000)
                assert (await d.cmd("hit", side="A", id="first-hit"))["type"] == "ack"
                for i in range(12):
                    clock.advance(2_000)
                    assert (await d.cmd("hit", side="BA"[i % 2]))["type"] == "ack"
                assert "first-hit" not in live.server.hub.tables[tid].by_key
                clock.advance(2_000)
                again = await d.cmd("hit", side="B", id="first-hit")
                assert (again["type"], again["seq"], again["duplicate"]) == ("ack", 2, True)
                await d.quiet(0.1)
            assert live.server.hub.tables[tid].committed_seq == 14
            await _same_as_whole_log(live, tid)


@pytest.mark.anyio
@pytest.mark.parametrize("store", STORES)
async def test_a_next_match_starts_without_the_old_matchs_snapshot(
        store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2013-delay", length=5)
            tid = table["id"]
            async with Device.open(live.ws_url, {"token": table["token"]}) as d:
                await d.welcome()
                assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
                for i in range(8):
                    clock.advance(2_000)
                    assert (await d.cmd("hit", side="AB"[i % 2]))["type"] == "ack"
            async with Device.open(live.ws_url, {"key": KEY}) as director:
                await director.expect("welcome")
                stop = await director.cmd("stop", table=tid, side="A", reason="director")
                assert stop["type"] == "ack", stop
            await _stored_snapshot(live, tid, 8)
            clock.advance(60_000)
            r = await live.http.post(f"/api/tables/{tid}/next-match", headers=DIRECTOR,
                                     json={"rules": "usbgf-2013-delay", "length": 7,
                                           "players": ["Cy", "Di"]})
            assert r.status_code == 200, r.text
            hub = live.server.hub.tables[tid]
            assert (hub.seq, hub.base.seq, hub.log) == (0, 0, [])
            assert await live.server.store.snapshot(tid) is None
        async with live_server(make, clock=clock) as live:
            hub = live.server.hub.tables[tid]
            assert (hub.committed_seq, hub.base.seq) == (0, 0)
            assert hub.match.to_snapshot() == Match.new("usbgf-2013-delay",
                                                        length=7).to_snapshot()
