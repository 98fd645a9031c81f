"""The table's own device keeps its time (issue: the table clock keeps exact time).

The device that makes the table's first roll or press keeps its time: its
commands count at the instants it applied them (``device_at_ms``), within
bounds: never before the table's last accepted event, never after the
command's arrival.  Another device's presses are refused until it takes the
claim (``keep``: tests/test_server_keeper.py); a device without an id is
lag-compensated while no device keeps the time.  After a restart a
kept table is not stopped: the device reconciles its queued presses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bgclock.server.live.lag import DEFAULT_PARAMS
from bgclock.server.live.time import ManualClock

from ._server_kit import (  # noqa: F401 (anyio_backend: a fixture)
    DIRECTOR,
    KEY,
    STORES,
    Device,
    anyio_backend,
    live_server,
    store_factory,
)

pytestmark = pytest.mark.anyio


@pytest.fixture(params=STORES)
async def manual(request: Any, tmp_path: Path) -> Any:
    clock = ManualClock()
    async with (
        store_factory(request.param, tmp_path) as make,
        live_server(make, clock=clock, table_rate=(1000, 1000)) as server,
    ):
        yield server, clock


def _now(clock: ManualClock, table: dict[str, Any]) -> int:
    return clock.now_ms() - int(table["created_ms"])


async def test_an_outage_costs_the_keeper_nothing(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "phone-1"}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
        assert roll["at_ms"] == _now(clock, table)
    # the link is down: A presses 5 s later; the press reaches the server 20 s later
    clock.advance(5_000)
    pressed = _now(clock, table)
    clock.advance(20_000)
    hello = {"token": table["token"], "device": "phone-1", "last_seq": 1, "queued": 1}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        ack = await d.cmd("hit", side="A", device_at_ms=pressed, lag_ms=0)
        assert ack["type"] == "ack" and ack["at_ms"] == pressed
        assert ack["lag_credit_ms"] == 20_000
    events = await live.stored(table["id"])
    assert [e["at_ms"] for e in events] == [roll["at_ms"], pressed]


async def test_the_keepers_instant_is_bounded_by_the_log_and_the_arrival(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[6, 1])
        clock.advance(3_000)
        # before the last accepted event: counted at it
        early = await d.cmd("hit", side="A", device_at_ms=0)
        assert early["at_ms"] == roll["at_ms"]
        clock.advance(1_000)
        # in the future: counted at its arrival
        late = await d.cmd("hit", side="B", device_at_ms=_now(clock, table) + 60_000)
        assert late["at_ms"] == _now(clock, table)


async def test_a_second_device_is_refused_until_it_keeps_the_time(manual: Any) -> None:
    # docs/protocol.md "The timekeeper": never re-timed by a second device
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with (
        Device.open(live.ws_url, {"token": table["token"], "device": "keeper"}) as k,
        Device.open(live.ws_url, {"token": table["token"], "device": "other"}) as o,
    ):
        await k.welcome()
        await o.welcome()
        await k.cmd("opening_roll", dice=[6, 1])
        clock.advance(30_000)
        arrived = _now(clock, table)
        refused = await o.cmd("hit", side="A", device_at_ms=arrived - 20_000, lag_ms=20_000)
        assert refused["type"] == "error" and refused["code"] == "not_keeper"
        assert refused["refusal"] == "not_keeper" and refused["params"]["keeper"]
        # a device without an id is no keeper either
        async with Device.open(live.ws_url, {"token": table["token"]}) as anon:
            await anon.welcome()
            assert (await anon.cmd("hit", side="A"))["code"] == "not_keeper"
        ack = await k.cmd("hit", side="A", device_at_ms=arrived - 20_000)
        assert ack["type"] == "ack" and ack["at_ms"] == arrived - 20_000
        assert arrived - ack["at_ms"] > DEFAULT_PARAMS.cap_ms  # the keeper's instant counts


async def test_a_device_without_an_id_cannot_claim_instants(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1])
        clock.advance(30_000)
        ack = await d.cmd("hit", side="A", device_at_ms=1)
        assert _now(clock, table) - ack["at_ms"] == 0


async def test_a_press_before_a_flag_the_server_announced_counts_for_the_keeper(
    manual: Any,
) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard", "reserve_ms": 10_000})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[6, 1])
    # offline: A pressed at 9 s; the server's timer flags A at 10 s
    pressed = roll["at_ms"] + 9_000
    clock.advance(15_000)
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k",
                                         "last_seq": 1, "queued": 1}) as d:
        await d.expect("welcome")
        ack = await d.cmd("hit", side="A", device_at_ms=pressed)
        assert ack["type"] == "ack" and ack["at_ms"] == pressed
        update = d.last("update")
        assert update["state"]["phase"] == "playing" and update["state"]["on_turn"] == "B"
        assert update["state"]["A"]["reserve_ms"] == 1_000
    # the same press from a lag-compensated device would have lost to the flag
    t2 = await live.table(clock={"mode": "standard", "reserve_ms": 10_000})
    async with Device.open(live.ws_url, {"token": t2["token"]}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[6, 1])
        clock.advance(10_500)
        await d.expect("expiry")
        refused = await d.cmd("double", side="A", lag_ms=1_000)
        assert refused["type"] == "error" and refused["refusal"] == "match_over"


async def test_the_dashboard_sees_the_link_and_the_reconciliation(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
            await d.welcome()
            info = (await director.expect("table"))["info"]
            # saying hello claims nothing: the roll does
            assert info["link"]["state"] == "online" and info["link"]["keeper"] is False
            await d.cmd("opening_roll", dice=[6, 1])
            info = (await director.expect("table"))["info"]
            assert info["link"]["keeper"] is True and info["link"]["keeper_device"] == "k"
        info = (await director.expect("table"))["info"]
        assert info["link"]["state"] == "offline"
        assert info["link"]["offline_since_ms"] == clock.now_ms()
        clock.advance(4_000)
        pressed = _now(clock, table)
        clock.advance(4_000)
        async with Device.open(live.ws_url, {"token": table["token"], "device": "k",
                                             "last_seq": 1, "queued": 1}) as d:
            await d.expect("welcome")
            await d.cmd("hit", side="A", device_at_ms=pressed)
            for _ in range(5):
                info = (await director.expect("table"))["info"]
                if info["link"]["reconciled"]:
                    break
            assert info["link"]["reconciled"]["applied"] == 1
            assert info["link"]["state"] == "online"
    r = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
    assert r.json()["link"]["keeper"] is True


@pytest.mark.parametrize("store", STORES)
async def test_after_a_restart_the_keepers_presses_count_where_it_made_them(
    store: str, tmp_path: Path
) -> None:
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(clock={"mode": "standard"})
            hello = {"token": table["token"], "device": "tablet"}
            async with Device.open(live.ws_url, hello) as d:
                await d.welcome()
                roll = await d.cmd("opening_roll", dice=[6, 1])
            clock.advance(2_000)
        # the server is down for a minute; A pressed 10 s into the outage
        pressed = roll["at_ms"] + 12_000
        later = ManualClock(start_ms=clock.now_ms() + 60_000)
        async with live_server(make, clock=later) as live:
            r = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
            assert r.json()["attention"] == "restart"
            hello = {"token": table["token"], "device": "tablet", "last_seq": 1, "queued": 1}
            async with Device.open(live.ws_url, hello) as d:
                await d.expect("welcome")
                snapshot = await d.expect("snapshot")
                assert snapshot["state"]["phase"] == "playing"  # no restart stop
                ack = await d.cmd("hit", side="A", device_at_ms=pressed)
                assert ack["type"] == "ack" and ack["at_ms"] == pressed
            r = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
            assert r.json()["attention"] is None
            assert r.json()["link"]["reconciled"]["applied"] == 1
            events = await live.stored(table["id"])
            assert [(e["event"]["do"], e["at_ms"]) for e in events] == [
                ("opening_roll", roll["at_ms"]), ("hit", pressed)]


async def test_the_device_reads_its_tables_log_by_pages_and_only_its_own(manual: Any) -> None:
    """GET /api/tables/N/events: what the page folds with the browser engine."""
    from bgclock.server.routes import tables as tables_routes

    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    other = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"], "device": "phone-1"}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
        for i in range(5):
            clock.advance(1_000)
            await d.cmd("hit", side="A" if i % 2 == 0 else "B", device_at_ms=_now(clock, table))
    url = f"/api/tables/{table['id']}/events"
    r = await live.http.get(url, params={"token": table["token"]})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert body["seq"] == 6 and body["more"] is False
    assert [e["seq"] for e in body["events"]] == [1, 2, 3, 4, 5, 6]
    first = body["events"][0]["event"]
    assert (first["do"], first["dice"], first["at_ms"]) == ("opening_roll", [6, 1], 0)
    assert body["spec"]["rules"] == "usbgf-2013-delay" and body["spec"]["clock"] == {
        "mode": "standard"}
    # after a seq: only what follows; a page at most EVENTS_PAGE long
    r = await live.http.get(url, params={"token": table["token"], "after": 4})
    assert [e["seq"] for e in r.json()["events"]] == [5, 6]
    page, more = await live.server.hub.tables[table["id"]].events_after(2, 3)
    assert [e.seq for e in page] == [3, 4, 5] and more is True
    assert tables_routes.EVENTS_PAGE == 1000
    # another table's token, no token, a bad `after`: refused, naming why
    r = await live.http.get(url, params={"token": other["token"]})
    assert r.status_code == 403
    assert (await live.http.get(url)).status_code == 403
    r = await live.http.get(url, params={"token": table["token"], "after": "-1"})
    assert r.status_code == 422 and "after" in r.json()["message"]
    r = await live.http.get(url, params={"token": table["token"], "after": str(2**70)})
    assert r.status_code == 422
    # bounded: a token cannot make the server serve its log without end
    codes = [(await live.http.get(url, params={"token": table["token"]})).status_code
             for _ in range(20)]
    assert 429 in codes


async def test_a_device_that_pinged_then_fell_silent_is_offline_within_seconds(
        manual: Any, monkeypatch: Any) -> None:
    """Wi-Fi gone, nothing closed: the silence itself says the device is away."""
    import anyio

    from bgclock.server.ws import session

    monkeypatch.setattr(session, "SILENT_LINK_S", 0.5)
    live, _ = manual
    table = await live.table()
    hub = live.server.hub.tables[table["id"]]
    async with Device.open(live.ws_url, {"token": table["token"], "device": "phone-1"}) as d:
        await d.welcome()
        # a client that never pinged is never timed out (it may be a script)
        await anyio.sleep(1.0)
        assert hub.link()["state"] == "online"
        await d.send({"type": "ping", "v": 1, "t": 1.0})
        await d.expect("pong")
        await anyio.sleep(1.5)
        assert hub.link()["state"] == "offline"
        assert hub.link()["offline_since_ms"] is not None


async def test_a_director_adjust_meanwhile_is_merged_by_instant(manual: Any) -> None:
    """The keeper pressed during an outage; meanwhile the director added 30 s
    to B.  The press counts where it was made, before the adjust: the log
    is folded in the order of instants (the director's event keeps its own)."""
    live, clock = manual
    table = await live.table(rules="usbgf-2007-bronstein", length=5)
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[6, 1])
    clock.advance(8_000)
    pressed = _now(clock, table)            # A hits, offline, 8 s after the roll
    clock.advance(12_000)
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        adjust = await director.cmd("adjust", table=table["id"], side="B", delta_ms=30_000)
        assert adjust["type"] == "ack"
    clock.advance(5_000)
    hello = {"token": table["token"], "device": "k", "last_seq": 2, "queued": 1}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        ack = await d.cmd("hit", side="A", device_at_ms=pressed)
        assert ack["type"] == "ack" and ack["at_ms"] == pressed and ack["seq"] == 3
        await d.quiet(0.2)
        update = d.last("update")
        assert update["seq"] == 3 and update["state"]["on_turn"] == "B"
    r = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
    state = r.json()["state"]
    # A: 8 s used, all credited back (Bronstein); B: ran from the press, +30 s
    assert state["A"]["reserve_ms"] == 600_000
    assert state["B"]["reserve_ms"] == 600_000 + 30_000 - (_now(clock, table) - pressed)
    log = (await live.http.get(f"/api/tables/{table['id']}/log.json",
                               headers=DIRECTOR)).json()["events"]
    assert [(e["seq"], e["event"]["do"]) for e in log] == [
        (1, "opening_roll"), (3, "hit"), (2, "adjust")]
    assert [e["at_ms"] for e in log] == [roll["at_ms"], pressed, adjust["at_ms"]]
    # a restart folds the same log to the same match
    hub = live.server.hub.tables[table["id"]]
    from bgclock.server.live.fold import fold

    assert fold(hub.row.spec, hub.log).state(hub.match.now) == hub.match.state()


async def test_a_press_the_directors_events_refuse_counts_after_them(manual: Any) -> None:
    """The keeper passed a double offline; meanwhile the director stopped the
    clocks.  Before the stop the pass would refuse the stop: it counts after it."""
    live, clock = manual
    table = await live.table(rules="usbgf-2007-bronstein", length=5)
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1])
        clock.advance(1_000)
        await d.cmd("double", side="A")
    clock.advance(3_000)
    passed = _now(clock, table)
    clock.advance(3_000)
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        stop = await director.cmd("stop", table=table["id"], side="B", reason="director")
        assert stop["type"] == "ack"
    clock.advance(2_000)
    hello = {"token": table["token"], "device": "k", "last_seq": 3, "queued": 1}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        ack = await d.cmd("pass", side="B", device_at_ms=passed)
        assert ack["type"] == "ack" and ack["at_ms"] == stop["at_ms"]


@pytest.mark.parametrize("store", STORES)
async def test_a_merged_log_comes_back_the_same_after_a_restart(store: str,
                                                               tmp_path: Path) -> None:
    async with store_factory(store, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(rules="usbgf-2007-bronstein", length=5)
            hello = {"token": table["token"], "device": "k"}
            async with Device.open(live.ws_url, hello) as d:
                await d.welcome()
                await d.cmd("opening_roll", dice=[6, 1])
            clock.advance(5_000)
            pressed = _now(clock, table)
            clock.advance(5_000)
            async with Device.open(live.ws_url, {"key": KEY}) as director:
                await director.expect("welcome")
                await director.cmd("penalty", table=table["id"], side="A", points=1)
            async with Device.open(live.ws_url, {**hello, "last_seq": 2, "queued": 1}) as d:
                await d.expect("welcome")
                assert (await d.cmd("hit", side="A", device_at_ms=pressed))["at_ms"] == pressed
            before = (await live.http.get(f"/api/tables/{table['id']}",
                                          headers=DIRECTOR)).json()["state"]
        async with live_server(make, clock=clock) as live:
            hub = live.server.hub.tables[table["id"]]
            assert hub.quarantined is None
            after = hub.state_now().to_dict()
            for key in ("phase", "on_turn", "score", "A", "B"):
                assert after[key] == before[key], key
            # a device catching up from seq 1 gets the merged event by seq
            async with Device.open(live.ws_url, {**hello, "last_seq": 1}) as d:
                await d.expect("welcome")
                await d.quiet(0.2)
                assert [m["seq"] for m in d.history if m["type"] == "update"] == [2, 3]
