"""The table's timekeeper claim and provisional flags (issue 17 §1, §2), and
the hand-over by consent (issue 33 §3).

docs/protocol.md "Device time" (The timekeeper is a claim, The time changes
hands only with consent) and "Provisional flags": the device that makes the
first roll or press keeps the table's time; another device presses only once
the keeper's screen said yes, the keeper was silent past the bound, or the
director handed the time over; the claim is the table's (next
match, restart); a flag the server works out while the keeper is away is no
result until the keeper reconciles, the director confirms it, or the bound.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

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


def _results(live: Any) -> list[tuple[int, str | None]]:
    """Record what the tables tell the tournament (``hub.on_over``)."""
    told: list[tuple[int, str | None]] = []
    live.server.hub.on_over = lambda table, state: told.append((table.id, state.winner))
    return told


async def _info(live: Any, table: dict[str, Any]) -> dict[str, Any]:
    r = await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)
    assert r.status_code == 200
    return dict(r.json())


async def _notes(live: Any, table: dict[str, Any]) -> list[dict[str, Any]]:
    r = await live.http.get(f"/api/tables/{table['id']}/log.json", headers=DIRECTOR)
    return [n for n in r.json()["notes"] if n.get("type") == "keeper"]


async def _told(device: Device, test: Any) -> dict[str, Any]:
    """The first ``table`` message (received already or to come) whose info
    passes ``test``."""
    for message in device.history:
        if message["type"] == "table" and test(message["info"]):
            return dict(message["info"])
    while True:
        info = (await device.expect("table"))["info"]
        if test(info):
            return dict(info)


def _expiry(live: Any, table: dict[str, Any]) -> int:
    """The running clock's expiry on the table's time line."""
    at = live.server.hub.tables[table["id"]].match.expires_at()
    assert at is not None
    return int(at)


async def test_the_director_who_opened_the_link_first_never_keeps_the_time(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    laptop = {"token": table["token"], "device": "laptop", "name": "Linux Firefox ·ptop"}
    async with Device.open(live.ws_url, laptop) as watcher:
        await watcher.welcome()
        assert (await _info(live, table))["link"]["keeper"] is False  # hello claims nothing
        phone = {"token": table["token"], "device": "phone", "name": "Android Chrome ·hone"}
        async with Device.open(live.ws_url, phone) as p:
            await p.welcome()
            roll = await p.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
            assert roll["type"] == "ack"
            told = await watcher.expect("table")  # the other page hears who keeps the time
            assert told["info"]["link"]["keeper_device"] == "phone"
            assert told["info"]["link"]["keeper_name"] == "Android Chrome ·hone"
            clock.advance(5_000)
            refused = await watcher.cmd("hit", side="A")
            assert refused["code"] == "not_keeper"
            assert refused["params"] == {"keeper": "Android Chrome ·hone"}
            # the phone's press during an outage counts at its instant
            pressed = _now(clock, table)
            clock.advance(30_000)
            ack = await p.cmd("hit", side="A", device_at_ms=pressed)
            assert ack["at_ms"] == pressed
    notes = await _notes(live, table)
    assert [(n["device"], n["by"]) for n in notes] == [("phone", "press")]


async def test_a_second_device_takes_the_time_only_with_the_keepers_yes(manual: Any) -> None:
    """Issue 33: a player's own phone, opened from the QR code, asks; the
    table's phone refuses, then ignores, then agrees."""
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with (
        Device.open(live.ws_url, {"key": KEY}) as director,
        Device.open(live.ws_url, {"token": table["token"], "device": "one",
                                  "name": "Tavolo 1"}) as one,
        Device.open(live.ws_url, {"token": table["token"], "device": "two",
                                  "name": "Tavolo 1"}) as two,
    ):
        await director.welcome()
        await one.welcome()
        await two.welcome()
        await one.cmd("opening_roll", dice=[6, 1])
        assert (await two.cmd("hit", side="A"))["code"] == "not_keeper"
        # the director never keeps a table's time
        await director.send({"type": "keep_request", "table": table["id"]})
        assert (await director.expect("error"))["code"] == "forbidden"
        # asked: the keeper's screen hears of it, nothing changes
        await two.send({"type": "keep_request", "id": "k1"})
        pending = await two.expect("keep_pending")
        assert (pending["id"], pending["keeper"]) == ("k1", "Tavolo 1")
        asked = await one.expect("keep_asked")
        assert (asked["device"], asked["name"]) == ("two", "Tavolo 1")
        shown = await _told(director, lambda info: bool(info["link"]["asks"]))
        assert [a["device"] for a in shown["link"]["asks"]] == ["two"]
        assert shown["link"]["keeper_device"] == "one"
        assert (await two.cmd("hit", side="A"))["code"] == "not_keeper"
        # only the keeper's screen answers
        await two.send({"type": "keep_answer", "device": "two", "yes": True, "id": "a0"})
        wrong = await two.expect("error")
        assert wrong["code"] == "not_timekeeper" and wrong["params"] == {"keeper": "Tavolo 1"}
        # refused: the asker is told, the time stays
        await one.send({"type": "keep_answer", "device": "two", "yes": False, "id": "a1"})
        assert (await one.expect("ack"))["id"] == "a1"
        no = await two.expect("keep_refused")
        assert (no["id"], no["by"]) == ("k1", "keeper")
        await _told(director, lambda info: info["link"]["asks"] == [])
        assert (await two.cmd("hit", side="A"))["code"] == "not_keeper"
        # an answer to a request no longer waiting names the field
        await one.send({"type": "keep_answer", "device": "two", "yes": True})
        late = await one.expect("error")
        assert late["code"] == "no_request" and late["field"] == "keep_answer.device"
        # asked again and agreed
        await two.send({"type": "keep_request", "id": "k2"})
        await one.expect("keep_asked")
        await one.send({"type": "keep_answer", "device": "two", "yes": True})
        yes = await two.expect("keep_granted")
        assert (yes["id"], yes["by"], yes["previous"]) == ("k2", "consent", "Tavolo 1")
        for device in (one, two, director):  # shown on both devices and the dashboard
            await _told(device, lambda info: info["link"]["keeper_device"] == "two")
        clock.advance(1_000)
        assert (await two.cmd("hit", side="A", device_at_ms=_now(clock, table)))["type"] == "ack"
        assert (await one.cmd("hit", side="B"))["code"] == "not_keeper"
    notes = await _notes(live, table)
    assert [(n["device"], n["by"], n.get("previous")) for n in notes] == [
        ("one", "press", None), ("two", "consent", "one")]


async def _standard(manual: Any) -> tuple[Any, ManualClock, dict[str, Any]]:
    """The server, its clock and a table on a standard clock."""
    live, clock = manual
    return live, clock, await live.table(clock={"mode": "standard"})


def _phone(live: Any, table: dict[str, Any], device: str) -> Any:
    """A table device with an id at ``table`` (``async with``)."""
    return Device.open(live.ws_url, {"token": table["token"], "device": device})


async def _keeps(device: Device) -> None:
    """The device's opening roll: it keeps the time."""
    await device.welcome()
    assert (await device.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"


async def _asks(device: Device, msg_id: str) -> dict[str, Any]:
    """The device asks for the time: the server's answer (pending or granted)."""
    await device.send({"type": "keep_request", "id": msg_id})
    while True:
        message = await device.recv()
        if message["type"] in ("keep_pending", "keep_granted", "error"):
            return message


async def test_an_unanswered_request_changes_nothing_and_leaves_with_its_device(
        manual: Any) -> None:
    live, clock, table = await _standard(manual)
    async with _phone(live, table, "one") as one:
        await _keeps(one)
        async with _phone(live, table, "two") as two:
            await two.welcome()
            assert (await _asks(two, "k1"))["type"] == "keep_pending"
            await one.expect("keep_asked")
            clock.advance(60 * 60_000)  # an hour unanswered, the keeper online all along
            again = await _asks(two, "k2")
            assert (again["type"], again["keeper"]) == ("keep_pending", "…one")
            assert (await two.cmd("hit", side="A"))["code"] == "not_keeper"
        # the asker left: its request went with it
        await _told(one, lambda info: info["link"]["asks"] == [])
    assert (await _info(live, table))["link"]["keeper_device"] == "one"
    assert [n["by"] for n in await _notes(live, table)] == ["press"]


async def test_a_keeper_silent_past_the_bound_lets_the_asker_take_the_time(
        manual: Any) -> None:
    live, clock, table = await _standard(manual)
    async with _phone(live, table, "one") as one:
        await _keeps(one)
    async with _phone(live, table, "two") as two:
        await two.welcome()
        clock.advance(live.server.hub.keeper_silent_ms - 1)
        # silent, not yet for the bound
        assert (await _asks(two, "k1"))["type"] == "keep_pending"
        clock.advance(1)
        granted = await _asks(two, "k2")
        assert (granted["type"], granted["id"], granted["by"]) == ("keep_granted", "k2", "silent")
        assert (await two.cmd("hit", side="A"))["type"] == "ack"
    assert [(n["device"], n["by"]) for n in await _notes(live, table)] == [
        ("one", "press"), ("two", "silent")]


async def test_the_director_hands_the_time_over_and_names_the_device(manual: Any) -> None:
    live, _ = manual
    table = await live.table(clock={"mode": "standard"})
    async with (
        Device.open(live.ws_url, {"key": KEY}) as director,
        Device.open(live.ws_url, {"token": table["token"], "device": "one"}) as one,
        Device.open(live.ws_url, {"token": table["token"], "device": "two",
                                  "name": "Tavolo 1"}) as two,
    ):
        await director.welcome()
        await one.welcome()
        await two.welcome()
        await one.cmd("opening_roll", dice=[6, 1])
        # a table device cannot hand the time over; nor to a device not there
        await two.send({"type": "keep_give", "device": "two", "table": table["id"]})
        assert (await two.expect("error"))["code"] == "forbidden"
        await director.send({"type": "keep_give", "table": table["id"], "device": "nobody"})
        bad = await director.expect("error")
        assert bad["code"] == "invalid" and bad["field"] == "keep_give.device"
        await two.send({"type": "keep_request", "id": "k1"})
        await two.expect("keep_pending")
        await director.send({"type": "keep_give", "table": table["id"], "device": "two",
                             "name": "Banco di Anna", "id": "g1"})
        assert (await director.expect("ack"))["id"] == "g1"
        granted = await two.expect("keep_granted")
        assert (granted["id"], granted["by"]) == ("k1", "director")
        told = await _told(one, lambda info: info["link"]["keeper_device"] == "two")
        assert told["link"]["keeper_name"] == "Banco di Anna" and told["link"]["asks"] == []
        assert (await two.cmd("hit", side="A"))["type"] == "ack"
    # the director's name outlives the device's own hello
    async with Device.open(live.ws_url, {"token": table["token"], "device": "two",
                                         "name": "Tavolo 1"}) as two:
        await two.welcome()
        assert (await _info(live, table))["link"]["keeper_name"] == "Banco di Anna"
    notes = await _notes(live, table)
    assert [(n["device"], n["by"], n.get("named")) for n in notes] == [
        ("one", "press", None), ("two", "director", True)]


async def test_the_former_keepers_presses_before_a_hand_over_count(manual: Any) -> None:
    """The phone keeps the time and loses its Wi-Fi; the players go on
    pressing it. A tablet takes the time over. When the phone comes back,
    what it did before the hand-over counts at its instants; what it did
    after is refused; and once the tablet has pressed, a press the phone
    made before the hand-over is refused and the dashboard is told."""
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with (
        Device.open(live.ws_url, {"key": KEY}) as director,
        Device.open(live.ws_url, {"token": table["token"], "device": "phone",
                                  "name": "Pixel"}) as phone,
        Device.open(live.ws_url, {"token": table["token"], "device": "tablet"}) as tablet,
    ):
        await director.welcome()
        await phone.welcome()
        await tablet.welcome()
        await phone.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
        start = _now(clock, table)
        # the phone, offline, applies A's press at +2 s, B's at +4 s and A's at +7 s
        clock.advance(5_000)
        await director.send({"type": "keep_give", "table": table["id"], "device": "tablet",
                             "id": "g1"})
        assert (await director.expect("ack"))["keeper"] is True
        handover = await _told(director, lambda i: (i["link"]["handover"] or {}).get(
            "from_name") == "Pixel")
        assert handover["link"]["handover"] == {"from_name": "Pixel", "at_ms": start + 5_000,
                                                "refused": 0}
        clock.advance(3_000)
        a = await phone.cmd("hit", side="A", device_at_ms=start + 2_000)
        b = await phone.cmd("hit", side="B", device_at_ms=start + 4_000)
        assert (a["type"], a["at_ms"], b["type"], b["at_ms"]) == (
            "ack", start + 2_000, "ack", start + 4_000)
        late = await phone.cmd("hit", side="A", device_at_ms=start + 7_000)
        assert late["code"] == "not_keeper"
        # the tablet's players press on from the phone's presses: A is on turn
        assert (await tablet.cmd("hit", side="A", device_at_ms=_now(clock, table)))["type"] == "ack"
        refused = await phone.cmd("hit", side="B", device_at_ms=start + 4_500, id="q4")
        assert refused["code"] == "handed_over" and refused["refusal"] == "handed_over"
        assert refused["params"] == {"keeper": "…blet"}
        told = await _told(director, lambda i: (i["link"]["handover"] or {}).get("refused") == 1)
        assert told["link"]["keeper_device"] == "tablet"
    events = await live.stored(table["id"])
    assert [(e["event"]["do"], e["event"].get("side"), e["at_ms"] - start) for e in events[1:]] == [
        ("hit", "A", 2_000), ("hit", "B", 4_000), ("hit", "A", 8_000)]
    assert [(n["device"], n["by"], n.get("previous")) for n in await _notes(live, table)] == [
        ("phone", "press", None), ("tablet", "director", "phone")]


@pytest.mark.parametrize("kind", STORES)
async def test_a_hand_over_not_yet_pressed_on_survives_a_restart(kind: str,
                                                                tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(clock={"mode": "standard"})
            async with (
                Device.open(live.ws_url, {"key": KEY}) as director,
                Device.open(live.ws_url, {"token": table["token"], "device": "phone"}) as phone,
                Device.open(live.ws_url, {"token": table["token"], "device": "tablet"}) as tablet,
            ):
                await director.welcome()
                await phone.welcome()
                await tablet.welcome()
                await phone.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
                start = _now(clock, table)
                clock.advance(5_000)
                await director.send({"type": "keep_give", "table": table["id"],
                                     "device": "tablet", "id": "g1"})
                await director.expect("ack")
        # the server restarts; the phone comes back with what it did before
        later = ManualClock(start_ms=clock.now_ms() + 10_000)
        async with live_server(make, clock=later) as live:
            info = await _info(live, table)
            assert info["link"]["keeper_device"] == "tablet"
            assert info["link"]["handover"]["at_ms"] == start + 5_000
            hello = {"token": table["token"], "device": "phone", "last_seq": 1, "queued": 1}
            async with Device.open(live.ws_url, hello) as phone:
                await phone.expect("welcome")
                ack = await phone.cmd("hit", side="A", device_at_ms=start + 3_000)
                assert (ack["type"], ack["at_ms"]) == ("ack", start + 3_000)
            # the tablet pressed since: the next restart knows it too
            async with Device.open(live.ws_url, {"token": table["token"],
                                                 "device": "tablet"}) as tablet:
                await tablet.expect("welcome")
                assert (await tablet.cmd("hit", side="B"))["type"] == "ack"
        async with live_server(make, clock=ManualClock(start_ms=later.now_ms() + 1_000)) as live:
            hello = {"token": table["token"], "device": "phone"}
            async with Device.open(live.ws_url, hello) as phone:
                await phone.expect("welcome")
                refused = await phone.cmd("hit", side="B", device_at_ms=start + 4_000)
                assert refused["code"] == "handed_over"


async def test_asking_for_the_time_needs_a_device_id(manual: Any) -> None:
    live, _ = manual
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as anon:
        await anon.welcome()
        await anon.send({"type": "keep_request"})
        error = await anon.expect("error")
        assert error["code"] == "invalid" and error["field"] == "hello.device"
    assert (await _info(live, table))["link"]["keeper"] is False


async def test_the_dashboard_follows_the_keeper_not_any_device(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "two"}) as two:
        await two.welcome()
        async with Device.open(live.ws_url, {"token": table["token"], "device": "one"}) as one:
            await one.welcome()
            await one.cmd("opening_roll", dice=[6, 1])
            gone = clock.now_ms()
        # a second phone is still connected: the keeper is offline all the same
        info = await _told(two, lambda info: info["link"]["state"] == "offline")
        assert info["link"]["offline_since_ms"] == gone and info["link"]["devices"] == 1
        assert (await _info(live, table))["link"]["state"] == "offline"


@pytest.mark.parametrize("kind", STORES)
async def test_the_claim_survives_the_next_match_and_a_restart(kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(length=1, clock={"mode": "standard"})
            hello = {"token": table["token"], "device": "phone"}
            async with Device.open(live.ws_url, hello) as d:
                await d.welcome()
                await d.cmd("opening_roll", dice=[6, 1])
                await d.cmd("game_over", winner="A", result="single")
                body = {"rules": "usbgf-2013-delay", "length": 3, "players": ["Cy", "Di"],
                        "clock": {"mode": "standard"}}
                r = await live.http.post(f"/api/tables/{table['id']}/next-match", json=body,
                                         headers=DIRECTOR)
                assert r.status_code == 200, r.text
                assert r.json()["link"]["keeper_device"] == "phone"
                await d.expect("snapshot")
                roll = await d.cmd("opening_roll", dice=[5, 2], device_at_ms=0)
                assert roll["type"] == "ack"
            clock.advance(2_000)
            notes = await _notes(live, table)
            assert [(n["device"], n["by"]) for n in notes] == [("phone", "carried")]
        # round 2 is killed; A pressed 10 s into the outage
        pressed = roll["at_ms"] + 12_000
        later = ManualClock(start_ms=clock.now_ms() + 60_000)
        async with live_server(make, clock=later) as live:
            info = await _info(live, table)
            assert info["link"]["keeper_device"] == "phone" and info["link"]["state"] == "offline"
            hello = {"token": table["token"], "device": "phone", "last_seq": 1, "queued": 1}
            async with Device.open(live.ws_url, hello) as d:
                await d.expect("welcome")
                assert (await d.expect("snapshot"))["state"]["phase"] == "playing"
                ack = await d.cmd("hit", side="A", device_at_ms=pressed)
                assert ack["at_ms"] == pressed
            events = await live.stored(table["id"])
            assert [e["event"]["do"] for e in events] == ["opening_roll", "hit"]  # no restart stop


async def test_a_flag_while_the_keeper_is_away_is_provisional_then_withdrawn(
        manual: Any) -> None:
    live, clock = manual
    told = _results(live)
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.welcome()
        async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
            await d.welcome()
            await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
        expiry = _expiry(live, table)
        clock.advance(table["created_ms"] + expiry + 1_000 - clock.now_ms())
        flag = await director.expect("expiry")
        assert flag["provisional"] is True and flag["at_ms"] == expiry
        info = await _info(live, table)
        assert info["provisional"]["at_ms"] == expiry
        assert info["provisional"]["key"] == f"{table['id']}:provisional:{expiry}"
        assert told == []  # never a result while provisional
        # the keeper comes back: its press came 1 s before the flag
        hello = {"token": table["token"], "device": "k", "last_seq": 1, "queued": 1}
        async with Device.open(live.ws_url, hello) as d:
            await d.expect("welcome")
            ack = await d.cmd("hit", side="A", device_at_ms=expiry - 1_000)
            assert ack["type"] == "ack" and ack["at_ms"] == expiry - 1_000
            info = await _info(live, table)
            assert info["provisional"] is None and info["conflict"] is None
    assert told == []


async def test_a_provisional_flag_is_final_once_the_keeper_reconciles(manual: Any) -> None:
    live, clock = manual
    told = _results(live)
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
    expiry = _expiry(live, table)
    clock.advance(table["created_ms"] + expiry + 1_000 - clock.now_ms())
    assert (await _info(live, table))["provisional"] is not None
    hello = {"token": table["token"], "device": "k", "last_seq": 1, "queued": 0}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        await _told(d, lambda info: info["provisional"] is None)
    assert told == [(table["id"], "B")]


async def test_the_director_confirms_a_provisional_flag(manual: Any) -> None:
    live, clock = manual
    told = _results(live)
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
    expiry = _expiry(live, table)
    clock.advance(table["created_ms"] + expiry + 1 - clock.now_ms())
    key = (await _info(live, table))["provisional"]["key"]
    assert told == []
    # no next match while the result is unknown
    body = {"rules": "usbgf-2013-delay", "length": 3, "players": ["Cy", "Di"]}
    r = await live.http.post(f"/api/tables/{table['id']}/next-match", json=body,
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "provisional"
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.welcome()
        await director.send({"type": "handle", "id": "h1", "table": table["id"], "key": key})
        await director.expect("ack")
    assert told == [(table["id"], "B")]
    assert (await _info(live, table))["provisional"] is None


async def test_the_bound_makes_a_flag_final_and_a_late_press_raises_a_conflict(
        manual: Any) -> None:
    live, clock = manual
    told = _results(live)
    live.server.hub.provisional_bound_ms = 60_000
    table = await live.table(clock={"mode": "standard"})
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
        expiry = _expiry(live, table)
        clock.advance(table["created_ms"] + expiry - 5_000 - clock.now_ms())
    # the keeper's link went 5 s before the flag: silent for 5 s at the flag
    clock.advance(5_001)
    assert told == [] and (await _info(live, table))["provisional"] is not None
    clock.advance(54_000)
    assert told == []  # the keeper was silent for less than the bound
    clock.advance(1_000)
    assert told == [(table["id"], "B")]
    assert (await _info(live, table))["provisional"] is None
    # the keeper comes back with a press made before the flag: the table's
    # log follows it, and the director is told the result told disagrees
    hello = {"token": table["token"], "device": "k", "last_seq": 1, "queued": 1}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        assert (await d.cmd("hit", side="A", device_at_ms=expiry - 500))["type"] == "ack"
    conflict = (await _info(live, table))["conflict"]
    assert conflict["told"]["winner"] == "B" and conflict["final"] is None
    assert told == [(table["id"], "B")]  # told once, never silently changed


async def test_the_draw_never_holds_a_provisional_flag_and_follows_the_reconciled_log(
        manual: Any) -> None:
    """A flag worked out during the keeper's outage, polled in the draw: never
    there; the keeper's press before it withdraws it; the draw then holds the
    result the table's reconciled log ends with."""
    from tests.test_server_tourney import _field, _post, _state, _tournament, _until

    live, clock = manual
    base = await _tournament(live)
    await _field(live, base, 2, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    started = await _post(live, f"{base}/rounds", {"round": 0})
    table_id = started["tables"][0]["table_id"]
    pair = started["state"]["main"]["rounds"][0][0]
    r = await live.http.patch(f"/api/tables/{table_id}", headers=DIRECTOR,
                              json={"clock": {"reserve_ms": 60_000, "delay_ms": 0}})
    assert r.status_code == 200, r.text
    table = r.json()
    async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
        await d.welcome()
        roll = await d.cmd("opening_roll", dice=[3, 5], device_at_ms=_now(clock, table))
        assert roll["type"] == "ack"  # B to play: B's clock runs
    expiry = _expiry(live, table)
    clock.advance(table["created_ms"] + expiry + 2_000 - clock.now_ms())

    async def winner() -> Any:
        return (await _state(live, base))["main"]["rounds"][0][0]["winner"]

    assert (await _info(live, table))["provisional"]["side"] == "B"
    room = (await live.http.get(f"{base}/room.json", headers=DIRECTOR)).json()
    [shown] = room["matches"]
    assert shown["winner"] is None and shown["clock"]["provisional"] is True  # the room says so
    for _ in range(4):  # the draw polled: the server's guess is never in it
        await asyncio.sleep(0.05)
        assert await winner() is None
    # the keeper is back: B pressed 1 s before the flag
    hello = {"token": table["token"], "device": "k", "last_seq": 1, "queued": 1}
    async with Device.open(live.ws_url, hello) as d:
        await d.expect("welcome")
        ack = await d.cmd("hit", side="B", device_at_ms=expiry - 1_000)
        assert ack["type"] == "ack"
        assert (await _info(live, table))["provisional"] is None
        await asyncio.sleep(0.05)
        assert await winner() is None
        # A's clock now runs out while the keeper is online: final at once
        clock.advance(table["created_ms"] + _expiry(live, table) + 1 - clock.now_ms())
        assert await _until(winner) == pair["b"]
    match = (await _state(live, base))["matches"][0]
    assert match["result"]["source"] == "clock"


@pytest.mark.parametrize("kind", STORES)
async def test_a_final_flag_stays_final_through_a_restart(kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        clock = ManualClock()
        async with live_server(make, clock=clock) as live:
            table = await live.table(clock={"mode": "standard"})
            async with Device.open(live.ws_url, {"token": table["token"], "device": "k"}) as d:
                await d.welcome()
                await d.cmd("opening_roll", dice=[6, 1], device_at_ms=_now(clock, table))
                expiry = _expiry(live, table)
                # the keeper is online at the flag: final at once
                clock.advance(table["created_ms"] + expiry + 1 - clock.now_ms())
                flag = await d.expect("expiry")
                assert flag["provisional"] is False
                await d.quiet(0.1)
            r = await live.http.get(f"/api/tables/{table['id']}/log.json", headers=DIRECTOR)
            finals = [n for n in r.json()["notes"] if n.get("type") == "flag_final"]
            assert [(n["at_ms"], n["how"]) for n in finals] == [(expiry, "keeper online")]
        later = ManualClock(start_ms=clock.now_ms() + 60_000)
        async with live_server(make, clock=later) as live:
            later.advance(1)  # the expiry's timer fires again after the restart
            # the keeper is away after the restart, yet the flag it saw stays final
            assert live.server.hub.tables[table["id"]].match.expires_at() is None
            assert (await _info(live, table))["provisional"] is None
