"""A table's devices and its timekeeper (``live.devices``), without a server
(docs/protocol.md "The timekeeper", "The time changes hands only with
consent")."""

from __future__ import annotations

from bgclock.server.live.commands import KeepAnswer, KeepRequest
from bgclock.server.live.table_state import Keeper
from tests.server.live.conftest import AtTable


def test_the_keepers_goodbye_makes_the_time_the_servers_and_every_device_hears_it(
        at_table: AtTable) -> None:
    table = at_table.table
    table.keeper = Keeper("phone", "Tavolo 3")
    phone = at_table.device("phone", "Tavolo 3")
    tablet = at_table.device("tablet")
    assert table.devices_online == 2 and table.keeper_offline_since_ms is None
    at_table.leaves(phone)
    assert table.keeper_offline_since_ms == at_table.clock.now_ms()
    link = tablet.last("table")["info"]["link"]
    assert link["state"] == "offline" and link["keeper_name"] == "Tavolo 3"
    at_table.clock.advance(5_000)
    at_table.device("phone", "Tavolo 3")  # back: every device hears it too
    assert table.keeper_offline_since_ms is None
    assert tablet.last("table")["info"]["link"]["state"] == "online"


def test_a_request_for_the_time_changes_nothing_until_the_keeper_says_yes(
        at_table: AtTable) -> None:
    table = at_table.table
    table.keeper = Keeper("phone", "Tavolo 3")
    phone = at_table.device("phone", "Tavolo 3")
    tablet = at_table.device("tablet", "Tablet")
    table.keep_request(tablet, "table", KeepRequest(id="kr-1", table=1))
    assert tablet.last("keep_pending")["keeper"] == "Tavolo 3"
    assert phone.last("keep_asked")["device"] == "tablet"
    assert table.keeper == Keeper("phone", "Tavolo 3") and not at_table.saved
    table.keep_answer(phone, "table", KeepAnswer(device="tablet", yes=True, id="ka-1", table=1))
    assert table.keeper == Keeper("tablet", "Tablet") and not table.asks
    assert tablet.last("keep_granted")["by"] == "consent"
    assert phone.last("ack")["id"] == "ka-1"
    note = at_table.commit()
    assert getattr(note, "note", None) == {"type": "keeper", "device": "tablet",
                                           "name": "Tablet", "by": "consent",
                                           "previous": "phone"}
    assert table.handover is not None and table.handover.previous.device == "phone"


def test_the_keepers_no_leaves_the_time_where_it_is(at_table: AtTable) -> None:
    table = at_table.table
    table.keeper = Keeper("phone", "Tavolo 3")
    phone = at_table.device("phone", "Tavolo 3")
    tablet = at_table.device("tablet")
    table.keep_request(tablet, "table", KeepRequest(id="kr-1", table=1))
    table.keep_answer(phone, "table", KeepAnswer(device="tablet", yes=False, table=1))
    assert tablet.last("keep_refused")["by"] == "keeper"
    assert table.keeper == Keeper("phone", "Tavolo 3") and not table.asks
    assert not at_table.saved  # nothing stored
