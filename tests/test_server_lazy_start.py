"""The first start on a log without snapshots (after an upgrade) answers
before it has folded every table: a table without a snapshot is registered
at start and folded on its first use, or by a background task one table at a
time (``Hub.ready``); its recovery is the one a start would have made, and
the next start folds from the snapshots that first start stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live import snapshots
from bgclock.server.live.commands import HitCmd
from bgclock.server.live.fold import fold
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.refusal import Refused
from bgclock.server.live.time import ManualClock
from bgclock.store import Store, StoredEvent, StoredNote, TableRow, TableSpec
from tests._server_kit import (
    DIRECTOR,
    KEY,
    STORES,
    Device,
    Live,
    anyio_backend,
    live_server,
    store_factory,
)

__all__ = ["anyio_backend"]
EVERY = 4
#: Longer than a start reads in one query (2 x EVERY): each log is read alone.
EVENTS = 12
CHECKPOINT_MS = EVENTS * 1000 + 500
SPEC = TableSpec(rules="usbgf-2013-delay", length=25, players=("Ann", "Bob"))


async def _evening(store: Store, created_ms: int, tables: int,
                   kept: tuple[int, ...] = ()) -> list[int]:
    """Tables whose logs were written without a snapshot (as before an
    upgrade), each clock left running, a checkpoint stored past its last
    event; the ``kept`` ones (by position) claimed by a device."""
    await store.open()
    try:
        t = await store.create_tournament("evening", created_ms)
        ids, events = [], []
        for _ in range(tables):
            row = await store.create_table(t.id, SPEC, created_ms)
            ids.append(row.id)
            events.append(StoredEvent(
                table_id=row.id, seq=1, idem_key="o", at_ms=1000, source="table",
                event={"do": "opening_roll", "at_ms": 1000, "dice": [6, 1], "v": 1},
                lag_credit_ms=0, received_ms=created_ms))
            events += [StoredEvent(
                table_id=row.id, seq=seq, idem_key=f"h{seq}", at_ms=seq * 1000, source="table",
                event={"do": "hit", "at_ms": seq * 1000, "side": "AB"[seq % 2], "v": 1},
                lag_credit_ms=0, received_ms=created_ms) for seq in range(2, EVENTS + 1)]
        notes = [StoredNote(table_id=ids[i], n=1, seq=1, idem_key=None, at_ms=1000,
                            note={"type": "keeper", "device": "phone", "name": None,
                                  "by": "press"}, source="table", received_ms=created_ms)
                 for i in kept]
        await store.commit(events, dict.fromkeys(ids, CHECKPOINT_MS), notes)
        assert [await store.snapshot(tid) for tid in ids] == [None] * tables
        return ids
    finally:
        await store.close()


async def _until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait on state, with a deadline (never on a duration)."""
    for _ in range(1000):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def _same_as_eager(live: Live, table_id: int) -> TableRunner:
    """The table is what an eager start makes of it: the fold of its whole
    stored log (the restart's stop included), its window after its base."""
    table: TableRunner = live.server.hub.tables[table_id]
    assert table.folded and table.quarantined is None
    events = await live.server.store.events(table_id)
    assert [e.seq for e in events] == list(range(1, table.committed_seq + 1))
    assert fold(table.row.spec, events).to_snapshot() == table.committed_match.to_snapshot()
    assert table.refold().to_snapshot() == table.committed_match.to_snapshot()
    return table


class _Sink:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def test_a_table_not_yet_folded_is_never_decided_on() -> None:
    # a path that forgot ``Hub.ready`` is refused, not decided on a blank match
    hub = Hub(store=None, clock=ManualClock())  # type: ignore[arg-type]  # never awaited
    row = TableRow(id=5, tournament_id=1, spec=SPEC, created_ms=0)
    table = hub._unfolded(row)
    assert hub.tables[5] is table and not table.folded
    info = table.info()
    assert info["loading"] is True and info["players"] == ["Ann", "Bob"]
    sink = _Sink()
    with pytest.raises(Refused) as refused:
        table.command(sink, "table", HitCmd(type="cmd", id="h", side="A"))
    assert refused.value.code == "loading" and table.seq == 0 and not sink.sent
    with pytest.raises(Refused, match="being loaded"):
        hub.table(5)


def _gated(make: Callable[[], Store], gated: set[int], entered: asyncio.Event,
           gate: asyncio.Event) -> Callable[[], Store]:
    """Stores whose log reads of the ``gated`` tables wait for ``gate``
    (``entered`` is set when one starts): a fold held midway."""
    def gated_make() -> Store:
        # (a test that fails while a fold is held still stops: the server's
        # stop cancels the folds under way)
        store = make()
        events = store.events

        async def held(table_id: int, after_seq: int = 0) -> list[StoredEvent]:
            if table_id in gated:
                entered.set()
                await gate.wait()
            return await events(table_id, after_seq)

        store.events = held  # type: ignore[method-assign]
        return store

    return gated_make


@pytest.mark.anyio
@pytest.mark.parametrize("store", STORES)
async def test_a_first_start_without_snapshots_answers_before_folding_every_table(
        store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        ids = await _evening(make(), clock.now_ms() - 60_000, 4)
        first, held, last = ids[0], ids[1], ids[3]
        entered, gate = asyncio.Event(), asyncio.Event()
        async with live_server(_gated(make, {held}, entered, gate), clock=clock) as live:
            hub = live.server.hub
            started_ms = hub.started_ms
            waiting: dict[int, int] = {}
            ready = hub.ready

            async def counted(table_id: int | None) -> Any:
                if table_id is not None:
                    waiting[table_id] = waiting.get(table_id, 0) + 1
                return await ready(table_id)

            hub.ready = counted  # who waits for which table's fold
            # the background fold went through the first table and is held
            # reading the second's log: the others are registered, not folded
            await asyncio.wait_for(entered.wait(), 10)
            assert hub.tables[first].folded
            assert [hub.tables[t].folded for t in ids[1:]] == [False, False, False]
            clock.advance(5_000)  # the fold comes after the start

            # a dashboard lists every table; the unfolded ones as cards without a state
            async with Device.open(live.ws_url, {"key": KEY}) as director:
                welcome = await director.expect("welcome")
                assert welcome["tables"] == ids
                said: dict[int, list[dict[str, Any]]] = {t: [] for t in ids}
                while not all(said[t] for t in ids):
                    m = await director.recv()
                    if m["type"] in ("table", "snapshot"):
                        said[m["table"]].append(m)
                assert said[first][-1]["type"] == "snapshot"
                for t in ids[1:]:
                    assert [(m["type"], m["info"]["loading"]) for m in said[t]] == [
                        ("table", True)]

                # a press at a table the background has not reached: it is
                # folded on its use, and accepted, while the others wait
                resume = await director.cmd("resume", table=last)
                assert resume["type"] == "ack", resume
                assert hub.tables[last].folded and not hub.tables[ids[2]].folded
                assert not hub.tables[held].folded

                # the held table touched by a read and a device mid-fold: they
                # wait for the same fold, which runs once
                read = asyncio.ensure_future(live.http.get(f"/api/tables/{held}",
                                                           headers=DIRECTOR))
                token = live.server.tokens.token(held)
                async with Device.open(live.ws_url, {"token": token}) as device:

                    async def both_wait() -> bool:
                        return waiting.get(held, 0) >= 2  # the read and the device
                    await _until(both_wait, "the read and the device never asked for the table")
                    assert not hub.tables[held].folded
                    gate.set()
                    welcomed, snapshot = await device.welcome()
                    assert snapshot["state"]["phase"] == "stopped"
                    got = await read
                    assert got.status_code == 200, got.text
                    assert got.json()["state"]["stopped_reason"] == "restart"
                    assert "loading" not in got.json()

                async def all_folded() -> bool:
                    return all(hub.tables[t].folded for t in ids)
                await _until(all_folded, "the background fold never finished")
                assert hub.deferred_folds == dict.fromkeys(ids, 1)
                # the dashboard got each table's state once it was folded

                def states_seen() -> set[int]:
                    return {m["table"] for m in director.history if m["type"] == "snapshot"}
                while states_seen() != set(ids):
                    await director.recv()

            for t in ids:
                table = await _same_as_eager(live, t)
                stop = (await live.server.store.events(t))[EVENTS]
                # recovered as a start would have: stopped at the checkpoint,
                # as of the start's instant, however late the fold came
                assert stop.event["reason"] == "restart" and stop.at_ms == CHECKPOINT_MS
                assert stop.received_ms == started_ms
                assert table.committed_seq == EVENTS + (2 if t == last else 1)
                assert table.base.seq > 0  # its window, not its whole log

            async def snapshots_stored() -> bool:
                return all([await live.server.store.snapshot(t) is not None for t in ids])
            await _until(snapshots_stored, "the first start stored no snapshots")
            states = {t: hub.tables[t].committed_match.to_snapshot() for t in ids}

        async with live_server(make, clock=clock) as live:
            hub = live.server.hub
            # every table loads from its snapshot at start: nothing is deferred
            assert all(hub.tables[t].folded for t in ids) and hub.deferred_folds == {}
            for t in ids:
                table = await _same_as_eager(live, t)
                assert table.base.seq > 0
                if t != last:  # (its clock, resumed, was stopped by this restart)
                    assert table.committed_match.to_snapshot() == states[t]


@pytest.mark.anyio
async def test_a_kept_table_is_folded_first_and_recovered_as_of_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its clock ran on at the table (the device keeps the time) and may flag:
    # the background folds it before the others, and its keeper is away
    # since the start, not since the fold
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)
    async with store_factory("sqlite", tmp_path) as make:
        clock = ManualClock()
        ids = await _evening(make(), clock.now_ms() - 60_000, 3, kept=(2,))
        entered, gate = asyncio.Event(), asyncio.Event()
        async with live_server(_gated(make, {ids[0]}, entered, gate), clock=clock) as live:
            hub = live.server.hub
            await asyncio.wait_for(entered.wait(), 10)  # held at the first unkept table
            kept = hub.tables[ids[2]]
            assert kept.folded and not hub.tables[ids[0]].folded
            assert not hub.tables[ids[1]].folded
            clock.advance(3_000)
            gate.set()

            async def all_folded() -> bool:
                return all(hub.tables[t].folded for t in ids)
            await _until(all_folded, "the background fold never finished")
            assert kept.keeper is not None and kept.recovering
            assert kept.keeper_offline_since_ms == hub.started_ms
            assert kept.committed_seq == EVENTS  # no stop: its clock runs on
            assert kept.match.expires_at() is not None and kept.timer is not None
            for t in ids[:2]:
                assert (await _same_as_eager(live, t)).committed_seq == EVENTS + 1
            await _same_as_eager(live, ids[2])
