"""The dashboards' alerts are the server's: which are handled is stored once,
sent to every director, kept across restarts; a confirmation is applied once
whatever the number of dashboards that send it (protocol: `handle`, `handles`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, KEY, STORES, Device, live_server, store_factory

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def claimed(live: Any) -> tuple[dict[str, Any], str]:
    """usbgf-2013 §4.1: Bob, on turn, stops both clocks and claims a premature
    action by Ann; the dashboard's alert for it is ``T:summon:1``."""
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as bob:
        await bob.welcome()
        assert (await bob.cmd("opening_roll", dice=[2, 5]))["seq"] == 1  # B on turn
        assert (await bob.cmd("stop", side="B", reason="director"))["seq"] == 2
        await bob.send({"type": "summon", "id": "s-1", "why": "premature", "side": "B"})
        assert (await bob.expect("ack"))["note"] == 1
    return table, f"{table['id']}:summon:1"


async def notes(live: Any, table_id: int) -> list[dict[str, Any]]:
    r = await live.http.get(f"/api/tables/{table_id}/log.json", headers=DIRECTOR)
    return list(r.json()["notes"])


@pytest.mark.parametrize("kind", STORES)
async def test_an_alert_handled_on_one_dashboard_is_handled_on_every_one(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            table, alert = await claimed(live)
            tid = table["id"]
            async with (
                Device.open(live.ws_url, {"key": KEY}) as first,
                Device.open(live.ws_url, {"key": KEY}) as second,
            ):
                await first.expect("welcome")
                await second.expect("welcome")
                await first.quiet(0.2)
                await second.quiet(0.2)
                await first.send({"type": "handle", "v": 1, "id": f"hd.{alert}", "table": tid,
                                  "key": alert})
                ack = await first.expect("ack")
                assert ack["id"] == f"hd.{alert}" and ack["duplicate"] is False
                assert ack["note"] == 2 and ack["seq"] == 2
                told = {"type": "handled", "table": tid, "keys": [alert]}
                assert first.last("handled") == told  # before its ack
                assert await second.expect("handled") == told
                # the other dashboard marks it too (a click a moment later): stored once
                await second.send({"type": "handle", "id": "hd-2", "table": tid, "key": alert})
                again = await second.expect("ack")
                assert again["duplicate"] is True and again["note"] == 2
                assert [m["type"] for m in await first.quiet(0.2)] == []
                # a table device may not
                async with Device.open(live.ws_url, {"token": table["token"]}) as bob:
                    await bob.welcome()
                    await bob.send({"type": "handle", "table": tid, "key": f"{tid}:flag:2"})
                    assert (await bob.expect("error"))["code"] == "forbidden"
            stored = [x for x in await notes(live, tid) if x["type"] == "handled"]
            assert [(x["n"], x["key"], x["seq"], x["source"], x["idem_key"])
                    for x in stored] == [(2, alert, 2, "director", f"handled/{alert}")]
        # a reload or a restart keeps it: every director is told at its hello
        async with (
            live_server(make) as live,
            Device.open(live.ws_url, {"key": KEY, "since": {str(tid): 2}}) as late,
        ):
            await late.expect("welcome")
            said = [m for m in await late.quiet(0.3) if m["type"] == "handled"]
            assert said == [{"type": "handled", "table": tid, "keys": [alert]}]
            await late.send({"type": "handle", "id": "hd-3", "table": tid, "key": alert})
            assert (await late.expect("ack"))["duplicate"] is True


@pytest.mark.parametrize("kind", STORES)
async def test_a_confirmation_sent_by_two_dashboards_is_applied_once(
        kind: str, tmp_path: Path) -> None:
    # usbgf-2013 §4.1: the penalty for a premature action is applied once
    async with store_factory(kind, tmp_path) as make, live_server(make) as live:
        table, alert = await claimed(live)
        tid = table["id"]
        confirm = {"type": "cmd", "id": f"al.{alert}.0.premature", "table": tid,
                   "do": "premature", "side": "A", "handles": alert}
        async with (
            Device.open(live.ws_url, {"key": KEY}) as first,
            Device.open(live.ws_url, {"key": KEY}) as second,
        ):
            await first.expect("welcome")
            await second.expect("welcome")
            await first.quiet(0.2)
            await second.quiet(0.2)
            # both at once, and the first dashboard's double click
            await first.send(confirm)
            await second.send(confirm)
            await first.send(confirm)
            acks = [await first.expect("ack"), await second.expect("ack"),
                    await first.expect("ack")]
            await second.quiet(0.2)
            assert sorted(a["duplicate"] for a in acks) == [False, True, True]
            assert {a["seq"] for a in acks} == {3}
            for d in (first, second):
                kinds = [m["type"] for m in d.history]
                # the update, then the alert handled (in the same commit), then the ack
                assert kinds.count("update") == 1 and kinds.count("handled") == 1
                assert kinds.index("update") < kinds.index("handled")
                assert d.last("handled")["keys"] == [alert]
            assert kinds.index("handled") < kinds.index("ack")
            # the same alert settled with another command: refused, nothing applied
            again = await second.cmd("premature", id="dir-other-1", table=tid, side="A",
                                     handles=alert)
            assert again["code"] == "handled"
        log = (await live.http.get(f"/api/tables/{tid}/log.json", headers=DIRECTOR)).json()
        assert [e["event"]["do"] for e in log["events"]] == ["opening_roll", "stop",
                                                             "premature"]
        assert log["events"][-1]["idem_key"] == f"director/al.{alert}.0.premature"
        handled = [x for x in log["notes"] if x["type"] == "handled"]
        assert [(x["key"], x["seq"], x["at_ms"]) for x in handled] == [
            (alert, 3, log["events"][-1]["at_ms"])]


async def test_a_bad_key_is_refused_naming_the_field(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        table = await live.table()
        other = await live.table()
        tid = table["id"]
        async with Device.open(live.ws_url, {"key": KEY}) as director:
            await director.expect("welcome")
            for key, words in [
                ("x", "key: must be TABLE:KIND:MARK"),
                (f"{tid}:summon:1;DROP", "key: must be TABLE:KIND:MARK"),
                (f"{tid}:Summon:1", "key: must be TABLE:KIND:MARK"),
                (f"{tid}:summon:" + "9" * 80, "key: must have at most 80 characters"),
                (17, "key: must be a string"),
                (f"{other['id']}:flag:0", f"key: must name table {tid}"),
            ]:
                await director.send({"type": "handle", "id": "h-1", "table": tid, "key": key})
                error = await director.expect("error")
                assert error["code"] == "invalid", key
                assert error["message"].startswith(f"handle.{words}"), error
                assert error["id"] == "h-1" and error["table"] == tid
            await director.send({"type": "handle", "table": tid})
            assert (await director.expect("error"))["message"].startswith("handle.key:")
            await director.send({"type": "handle", "table": tid, "key": f"{tid}:flag:0",
                                 "why": "x"})
            assert (await director.expect("error"))["code"] == "bad_message"
            bad = await director.cmd("adjust", table=tid, side="A", delta_ms=1000,
                                     handles=f"{tid}:flag")
            assert bad["code"] == "invalid"
            assert bad["message"].startswith("cmd.handles: must be TABLE:KIND:MARK")
            await director.send({"type": "handle", "table": 999, "key": "999:flag:0"})
            assert (await director.expect("error"))["code"] == "not_found"
        # nothing was stored
        r = await live.http.get(f"/api/tables/{tid}/log.json", headers=DIRECTOR)
        assert r.json()["events"] == [] and r.json()["notes"] == []
        # a table device may not settle an alert with its command
        async with Device.open(live.ws_url, {"token": table["token"]}) as ann:
            await ann.welcome()
            refused = await ann.cmd("opening_roll", dice=[6, 1], handles=f"{tid}:flag:0")
            assert refused["code"] == "forbidden"
