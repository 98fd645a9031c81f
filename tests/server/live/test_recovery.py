"""A table brought back (``live.recovery``).  A failed commit never leaves a
table unable to store (issue 33, item 2; ``Recovery.failed``,
``Recovery.reload``, ``Writer.discard``).

A commit the database refuses (here a ``UNIQUE ... seq`` error injected
once, with a press queued behind it) rolls the table back, takes back what
it had queued after it, reloads the table from the store and says so on the
dashboard; the presses sent again are stored, in order, and so is the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bgclock.core import OpeningRoll
from bgclock.server.live.commands import Summon
from bgclock.server.live.table_state import Keeper
from bgclock.server.live.time import ManualClock
from bgclock.store import StoredEvent, StoredNote, StoreError, StoreUnavailable
from tests._server_kit import KEY, STORES, Device, anyio_backend, live_server, store_factory
from tests.server.live.conftest import AtTable

__all__ = ["anyio_backend"]

FAST = (1000.0, 1000.0)
REFUSAL = "UNIQUE constraint failed: clock_events.table_id, clock_events.seq"


@pytest.fixture(params=STORES)
async def make(request: Any, tmp_path: Path) -> AsyncIterator[Any]:
    async with store_factory(request.param, tmp_path) as factory:
        yield factory


async def _until(test: Any) -> None:
    """Wait (on the loop) until ``test()`` holds."""
    for _ in range(5000):
        if test():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never came")


@pytest.mark.anyio
async def test_a_failed_commit_reloads_the_table_and_it_goes_on_storing(
        make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    async with live_server(make, clock=clock, table_rate=FAST) as live:
        table = await live.table(rules="usbgf-2013-delay", length=5)
        tid = table["id"]
        store = live.server.hub.writer.store
        real = store.commit
        gate = asyncio.Event()
        gate.set()
        refusals = [REFUSAL, REFUSAL]  # the batch, then the item alone

        async def commit(events: list[StoredEvent], checkpoints: dict[int, int],
                         notes: Sequence[StoredNote] = ()) -> None:
            await gate.wait()
            if refusals and events:
                raise StoreError(refusals.pop())
            await real(events, checkpoints, notes)

        hub = live.server.hub
        async with (
            Device.open(live.ws_url, {"token": table["token"], "device": "phone"}) as d,
            Device.open(live.ws_url, {"key": KEY}) as director,
        ):
            await d.welcome()
            await director.expect("welcome")
            assert (await d.cmd("opening_roll", dice=[6, 1]))["seq"] == 1
            monkeypatch.setattr(store, "commit", commit)
            gate.clear()
            await d.send({"type": "cmd", "id": "h-fail", "do": "hit", "side": "A"})
            await _until(lambda: hub.tables[tid].seq == 2)
            await d.send({"type": "cmd", "id": "h-behind", "do": "hit", "side": "B"})
            await _until(lambda: hub.tables[tid].seq == 3)  # queued behind the commit
            gate.set()
            errors = {(await d.expect("error"))["id"] for _ in range(2)}
            assert errors == {"h-fail", "h-behind"}
            while True:  # the dashboard's card hears of the reload
                info = (await director.expect("snapshot"))["info"]
                if info["reloaded"] is not None:
                    break
            assert REFUSAL in info["reloaded"]["why"] and info["reloaded"]["seq"] == 1
            # sent again (as the page does): stored in order, and so is the rest
            assert (await d.cmd("hit", side="A", id="h-fail"))["seq"] == 2
            assert (await d.cmd("hit", side="B", id="h-behind"))["seq"] == 3
            for n, side in enumerate("ABA"):
                ack = await d.cmd("hit", side=side)
                assert (ack["type"], ack["seq"]) == ("ack", 4 + n), ack
        stored = await live.stored(tid)
        assert [e["seq"] for e in stored] == [1, 2, 3, 4, 5, 6]
        assert [e["idem_key"] for e in stored][1:3] == ["h-fail", "h-behind"]
        assert hub.tables[tid].committed_seq == 6 and not hub.tables[tid].reloading


def test_a_refused_commit_takes_the_table_back_to_the_disk_and_tells_each_sender(
        at_table: AtTable) -> None:
    table = at_table.table
    phone = at_table.device("phone")
    table.summon(phone, "table", Summon(why="director", side="A", id="s-1", table=1))
    table.summon(phone, "table", Summon(why="dispute", side="B", id="s-2", table=1))
    assert len(table.notes) == 2 and table.committed_notes == 0
    at_table.commit(StoreUnavailable("the database is away"))
    assert table.notes == [] and table.generation == 1
    assert not table.reloading  # only away: no reload, the next commit goes as usual
    first = phone.refused[-1]
    assert (first.code, first.msg_id, first.table) == ("storage", "s-1", 1)
    assert first.message == "the database refused the summons; send it again"
    at_table.commit()  # the second was queued behind it: taken back, its sender told
    assert [r.msg_id for r in phone.refused] == ["s-1", "s-2"]
    assert "error" not in phone.kinds()  # live says no in its own terms: ws words it
    assert "summon" not in at_table.director.kinds()


def test_a_restart_stops_a_running_clock_at_its_checkpoint(at_table: AtTable) -> None:
    table = at_table.table
    table.match.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    stop = table.recovery.recover(checkpoint_ms=4_000)
    assert stop is not None and stop.at_ms == 4_000 and stop.event["reason"] == "restart"
    assert table.match.expires_at() is None and table.seq == 1 and table.committed_seq == 0
    table.recovery.recovered(stop)
    assert table.committed_seq == 1 and table.attention() == "restart"


def test_a_kept_tables_clock_runs_on_through_a_restart(at_table: AtTable) -> None:
    table = at_table.table
    table.match.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    table.keeper = Keeper("phone", "Tavolo 3")
    assert table.recovery.restarted() is None  # its keeper's queue counts at reconciling
    assert table.recovering and table.match.expires_at() is not None
    assert table.keeper_offline_since_ms == at_table.clock.now_ms()


@pytest.mark.anyio
async def test_a_log_the_engine_refuses_puts_the_table_in_quarantine(
        at_table: AtTable) -> None:
    table = at_table.table
    bad = StoredEvent(table_id=1, seq=1, idem_key=None, at_ms=0, source="table",
                      event={"v": 1, "do": "no_such_event", "at_ms": 0},
                      lag_credit_ms=0, received_ms=0)
    await table.recovery.load(table.row, None, [bad], [])
    assert table.quarantined is not None and "event 1" in table.quarantined
    assert table.seq == table.committed_seq == 1 and table.attention() == "quarantined"
