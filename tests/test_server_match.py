"""A whole match over WebSockets: commands, broadcasts, acks, idempotency, reconnects."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

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


async def test_a_whole_match_is_played_and_every_watcher_sees_it(live: Any) -> None:
    table = await live.table(length=1)
    token = table["token"]
    async with (
        Device.open(live.ws_url, {"token": token}) as a,
        Device.open(live.ws_url, {"token": token}) as b,
        Device.open(live.ws_url, {"key": KEY}) as director,
    ):
        for d in (a, b):
            welcome, snap = await d.welcome()
            assert welcome["role"] == "table" and snap["seq"] == 0
        welcome, snap = await director.welcome()
        assert welcome["role"] == "director" and table["id"] in welcome["tables"]
        ack = await a.cmd("opening_roll", dice=[3, 5])
        assert ack["type"] == "ack" and ack["seq"] == 1
        for watcher in (b, director):
            update = await watcher.expect("update")
            assert update["seq"] == 1 and update["state"]["on_turn"] == "B"
        assert (await b.cmd("hit", side="B"))["seq"] == 2
        assert (await a.cmd("hit", side="A"))["seq"] == 3
        ack = await b.cmd("game_over", winner="B", result="single")
        assert ack["seq"] == 4
        update = await director.expect("update")
        while update["seq"] < 4:
            update = await director.expect("update")
        assert update["state"]["phase"] == "match_over"
        assert update["state"]["winner"] == "B"
    events = await live.stored(table["id"])
    assert [e["event"]["do"] for e in events] == ["opening_roll", "hit", "hit", "game_over"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]


async def test_a_refused_command_answers_its_sender_only_and_stores_nothing(live: Any) -> None:
    table = await live.table()
    async with (
        Device.open(live.ws_url, {"token": table["token"]}) as a,
        Device.open(live.ws_url, {"token": table["token"]}) as b,
    ):
        await a.welcome()
        await b.welcome()
        error = await a.cmd("hit", side="A")  # no clock runs: a hit does nothing, not stored
        assert error["type"] == "ack" and error["noop"] is True
        error = await a.cmd("double", side="A")
        assert error["type"] == "error" and error["code"] == "illegal"
        assert "no game is in progress" in error["message"]
        assert error["refusal"] == "no_game" and error["params"] == {"event": "double"}
        assert await b.quiet(0.2) == []
    assert len(await live.stored(table["id"])) == 0


async def test_a_resend_never_applies_twice(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        first = await a.cmd("opening_roll", id="press-1", dice=[6, 1])
        second = await a.cmd("opening_roll", id="press-1", dice=[6, 1])
        assert first["duplicate"] is False and second["duplicate"] is True
        assert (first["seq"], first["at_ms"]) == (second["seq"], second["at_ms"])
    # after a reconnect too
    async with Device.open(live.ws_url, {"token": table["token"], "last_seq": 1}) as a:
        await a.welcome()
        again = await a.cmd("opening_roll", id="press-1", dice=[6, 1])
        assert again["duplicate"] is True and again["seq"] == 1
    assert len(await live.stored(table["id"])) == 1


async def test_a_device_that_reconnects_gets_what_it_missed(live: Any) -> None:
    table = await live.table()
    token = table["token"]
    async with Device.open(live.ws_url, {"token": token}) as a:
        await a.welcome()
        await a.cmd("opening_roll", dice=[6, 1])
        seen = await a.cmd("hit", side="A")
        await a.cmd("hit", side="B")
        await a.cmd("stop", side="A", reason="fallen_dice")
        live_updates = []
    async with Device.open(live.ws_url, {"token": token}) as watcher:
        await watcher.welcome()
    async with Device.open(live.ws_url, {"token": token, "last_seq": seen["seq"]}) as b:
        assert (await b.recv())["type"] == "welcome"
        for _ in range(2):
            live_updates.append(await b.recv())
        snapshot = await b.recv()
    assert [u["type"] for u in live_updates] == ["update", "update"]
    assert [u["seq"] for u in live_updates] == [3, 4]
    assert live_updates[-1]["state"]["phase"] == "stopped"
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == 4
    stored = await live.stored(table["id"])
    assert [u["state"] for u in live_updates] == [e["state"] for e in stored[2:]]


async def test_the_director_drives_any_table(live: Any) -> None:
    t1 = await live.table()
    t2 = await live.table(rules="it-tournament")
    async with Device.open(live.ws_url, {"key": KEY}) as director:
        await director.expect("welcome")
        ack = await director.cmd("late_start", table=t2["id"], side="A")
        assert ack["type"] == "ack", ack
        ack = await director.cmd("opening_roll", table=t1["id"], dice=[2, 4])
        assert ack["type"] == "ack"
        ack = await director.cmd("adjust", table=t1["id"], side="A", delta_ms=30_000)
        assert ack["type"] == "ack" and ack["lag_credit_ms"] == 0
        error = await director.cmd("hit", side="A")
        assert error["code"] == "bad_message"  # the director must name the table
        error = await director.cmd("hit", table=999, side="A")
        assert error["code"] == "not_found"


async def test_a_ping_is_answered_with_the_servers_clock(live: Any) -> None:
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as a:
        await a.welcome()
        await a.send({"type": "ping", "t": 12.5})
        pong = await a.expect("pong")
        assert pong["t"] == 12.5 and isinstance(pong["server_ms"], int)
        await a.send({"type": "sync"})
        assert (await a.expect("snapshot"))["table"] == table["id"]


async def test_expiry_reaches_every_watcher_at_its_instant(live: Any) -> None:
    # a 300 ms standard clock: the flag falls while nobody presses
    table = await live.table(rules="usbgf-2007-bronstein",
                             clock={"mode": "standard", "reserve_ms": 300})
    async with (
        Device.open(live.ws_url, {"token": table["token"]}) as a,
        Device.open(live.ws_url, {"key": KEY}) as director,
    ):
        await a.welcome()
        await director.welcome()
        ack = await a.cmd("opening_roll", dice=[6, 2])
        expiry = await a.expect("expiry")
        assert expiry["at_ms"] == ack["at_ms"] + 300
        assert expiry["state"]["phase"] == "match_over"
        assert expiry["state"]["A"]["expired"] is True
        assert expiry["state"]["A"]["reserve_ms"] == 0
        seen = await director.expect("expiry")
        assert seen["at_ms"] == expiry["at_ms"]
        late = await a.cmd("double", side="A")
        assert late["code"] == "illegal"


@pytest.mark.parametrize("kind", STORES)
async def test_the_restart_attention_ends_with_a_table_message(kind: str,
                                                               tmp_path: Path) -> None:
    # protocol: `table` is sent when a table's attention changes, also back to null
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as first:
            table = await first.table()
            async with Device.open(first.ws_url, {"token": table["token"]}) as a:
                await a.welcome()
                assert (await a.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
        # A's clock was running: the second server stops it
        async with (
            live_server(make) as second,
            Device.open(second.ws_url, {"token": table["token"]}) as a,
            Device.open(second.ws_url, {"key": KEY}) as director,
        ):
            _, snap = await a.welcome()
            assert snap["info"]["attention"] == "restart"
            _, snap = await director.welcome()
            assert snap["info"]["attention"] == "restart"
            assert (await a.cmd("resume"))["type"] == "ack"
            await director.expect("table")
            for watcher in (a, director):  # the sender's came before its ack
                message = watcher.last("table")
                assert message["table"] == table["id"]
                assert message["info"]["attention"] is None
                assert message["info"]["seq"] == 3
                # after the update it ends, never before
                kinds = [m["type"] for m in watcher.history]
                assert kinds.index("update") < kinds.index("table")
            assert (await a.cmd("hit", side="A"))["type"] == "ack"
            assert [m["type"] for m in await director.quiet(0.2)] == ["update"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_player_summons_the_director_to_claim_a_premature_action(
        kind: str, tmp_path: Path) -> None:
    # usbgf-2013 §4.1, biba-2014 §4.6: the player on turn stops both clocks and
    # summons the director to claim the time penalty
    async with store_factory(kind, tmp_path) as make:
        async with (
            live_server(make) as live,
            Device.open(live.ws_url, {"key": KEY}) as director,
        ):
            table = await live.table()
            other = await live.table()
            await director.expect("welcome")
            async with (
                Device.open(live.ws_url, {"token": table["token"]}) as bob,
                Device.open(live.ws_url, {"token": table["token"]}) as ann,
            ):
                await bob.welcome()
                await ann.welcome()
                assert (await bob.cmd("opening_roll", dice=[2, 5]))["seq"] == 1  # B on turn
                stop = await bob.cmd("stop", side="B", reason="director")
                assert stop["seq"] == 2
                await bob.send({"type": "summon", "v": 1, "id": "s-1", "why": "premature",
                                "side": "B"})
                ack = await bob.expect("ack")
                assert ack["id"] == "s-1" and ack["duplicate"] is False and ack["note"] == 1
                assert ack["seq"] == 2 and ack["at_ms"] >= stop["at_ms"]
                said = await director.expect("summon")
                assert said == {"type": "summon", "table": table["id"], "why": "premature",
                                "side": "B", "at_ms": ack["at_ms"], "seq": 2, "n": 1,
                                "source": "table"}
                assert (await ann.expect("summon"))["why"] == "premature"
                # the same id again: stored once, acknowledged again
                await bob.send({"type": "summon", "id": "s-1", "why": "premature",
                                "side": "B"})
                again = await bob.expect("ack")
                assert again["duplicate"] is True and again["note"] == 1
                # refused: wrong values, unknown fields, another table, the director
                # without a table
                for bad, code in [
                    ({"why": "coffee", "side": "B"}, "invalid"),
                    ({"why": "director", "side": "C"}, "invalid"),
                    ({"why": "director"}, "invalid"),
                    ({"why": "director", "side": "A", "do": "stop"}, "bad_message"),
                    ({"why": "director", "side": "A", "table": other["id"]}, "forbidden"),
                ]:
                    await ann.send({"type": "summon", **bad})
                    assert (await ann.expect("error"))["code"] == code, bad
                await director.send({"type": "summon", "why": "dispute", "side": "A"})
                assert (await director.expect("error"))["code"] == "bad_message"
                # the engine never saw it: the seq is unchanged
                resumed = await ann.cmd("resume")
                assert resumed["seq"] == 3
                await director.send({"type": "summon", "table": table["id"], "why": "director",
                                     "side": "A"})
                said = await director.expect("summon")
                assert said["n"] == 2 and said["source"] == "director" and said["seq"] == 3
            closed = await live.http.post(f"/api/tables/{other['id']}/close",
                                          headers=DIRECTOR)
            assert closed.status_code == 200
            await director.send({"type": "summon", "table": other["id"], "why": "director",
                                 "side": "A"})
            assert (await director.expect("error"))["code"] == "closed"
            # the exports have the notes
            base = f"/api/tables/{table['id']}"
            log = (await live.http.get(f"{base}/log.json", headers=DIRECTOR)).json()
            assert [(x["n"], x["why"], x["side"], x["seq"], x["source"], x["idem_key"])
                    for x in log["notes"]] == [(1, "premature", "B", 2, "table", "s-1"),
                                               (2, "director", "A", 3, "director", None)]
            assert [e["seq"] for e in log["events"]] == [1, 2, 3]
            rows = list(csv.DictReader(io.StringIO(
                (await live.http.get(f"{base}/log.csv", headers=DIRECTOR)).text)))
            assert [(r["kind"], r["do"], r["side"]) for r in rows] == [
                ("event", "opening_roll", ""), ("event", "stop", "B"),
                ("note", "summon", "B"), ("event", "resume", ""), ("note", "summon", "A")]
            assert rows[2]["details"] == "why=premature" and rows[2]["A_reserve_ms"] == ""
            report = (await live.http.get(f"{base}/report", headers=DIRECTOR)).json()
            assert [x["why"] for x in report["summons"]] == ["premature", "director"]
            assert report["sides"]["B"]["premature_claims"] == 1
            assert report["sides"]["A"]["summons"] == 1
        # durable: a director who comes after a restart still sees who called
        async with (
            live_server(make) as live,
            Device.open(live.ws_url, {"key": KEY, "since": {str(table["id"]): 3}}) as late,
            Device.open(live.ws_url, {"key": KEY}) as fresh,
        ):
            await fresh.expect("welcome")
            said = [m for m in await fresh.quiet(0.3) if m["type"] == "summon"]
            assert [(m["n"], m["why"]) for m in said] == [(1, "premature"), (2, "director")]
            said = [m for m in await late.quiet(0.3) if m["type"] == "summon"]
            assert [(m["n"], m["why"]) for m in said] == [(2, "director")]
            async with Device.open(live.ws_url, {"token": table["token"]}) as bob:
                await bob.welcome()
                await bob.send({"type": "summon", "id": "s-1", "why": "premature",
                                "side": "B"})
                assert (await bob.expect("ack"))["duplicate"] is True
