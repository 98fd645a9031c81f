"""The time changes hands only with consent (issue 33 §3): the pure rules of
``live.table_state`` (``ask_keep``, ``answer_keep``, ``give_keep``), without a
hub, a writer or a clock (docs/protocol.md "The time changes hands only with
consent")."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from bgclock.server.live.table_state import (
    KEEPER_SILENT_MS,
    Ask,
    Asked,
    Claimed,
    Declined,
    Keeper,
    Refuse,
    TableState,
    answer_keep,
    ask_keep,
    give_keep,
    keeper_silent,
)

TABLE = Keeper("table-phone", "Tavolo 3")
KEPT = TableState(keeper=TABLE, keeper_online=True, log_end_ms=10_000, device_floor_ms=10_000,
                  match_ms=10_000, expiry_ms=900_000,
                  present=MappingProxyType({"table-phone": "Tavolo 3", "own": "Tavolo 3"}))
ASK = Ask("own", "Tavolo 3", 1_000, "kr-1")
ASKED = dataclasses.replace(KEPT, asks=MappingProxyType({"own": ASK}))


def test_a_players_phone_asks_and_nothing_changes_until_the_keeper_answers() -> None:
    asked = ask_keep(KEPT, "own", "Tavolo 3", "table", now_ms=1_000, msg_id="kr-1")
    assert asked == Asked(ASK, TABLE)
    # asking again keeps the first request (and its instant)
    assert ask_keep(ASKED, "own", "Tavolo 3", "table", now_ms=9_000, msg_id="kr-2") == Asked(
        ASK, TABLE)


def test_the_keeper_refuses_and_the_time_stays() -> None:
    assert answer_keep(ASKED, "table-phone", "table", "own", yes=False) == Declined(ASK, TABLE)


def test_the_keeper_agrees_and_the_time_moves_by_consent() -> None:
    granted = answer_keep(ASKED, "table-phone", "table", "own", yes=True)
    assert granted == Claimed(Keeper("own", "Tavolo 3"), TABLE, "consent", ASK)


def test_only_the_keepers_screen_answers() -> None:
    for device, role in (("own", "table"), ("other", "table"), (None, "director")):
        refused = answer_keep(ASKED, device, role, "own", yes=True)
        assert isinstance(refused, Refuse) and refused.refusal == "not_timekeeper", device
        assert dict(refused.params or {}) == {"keeper": "Tavolo 3"}


def test_an_answer_to_no_request_names_the_field() -> None:
    refused = answer_keep(KEPT, "table-phone", "table", "own", yes=True)
    assert isinstance(refused, Refuse) and refused.refusal == "no_request"
    assert refused.field == "keep_answer.device"


def test_a_keeper_silent_past_the_bound_gives_the_time_to_the_asker() -> None:
    gone = dataclasses.replace(KEPT, keeper_online=False, keeper_offline_since_ms=100_000)
    just_before = 100_000 + KEEPER_SILENT_MS - 1
    assert not keeper_silent(gone, just_before)
    assert isinstance(ask_keep(gone, "own", None, "table", now_ms=just_before), Asked)
    taken = ask_keep(gone, "own", "Tavolo 3", "table", now_ms=just_before + 1, msg_id="kr-9")
    assert isinstance(taken, Claimed)
    assert (taken.keeper, taken.previous, taken.how) == (Keeper("own", "Tavolo 3"), TABLE,
                                                         "silent")
    # a keeper online is never silent, however long ago it last pressed
    assert not keeper_silent(dataclasses.replace(gone, keeper_online=True), 10**9)


def test_nobody_keeps_the_time_the_asker_takes_it() -> None:
    free = dataclasses.replace(KEPT, keeper=None, keeper_online=False)
    taken = ask_keep(free, "own", "Tavolo 3", "table", now_ms=0)
    assert isinstance(taken, Claimed) and (taken.previous, taken.how) == (None, "keep")


def test_the_director_hands_the_time_over_from_the_dashboard() -> None:
    # to the device that asks, or to one connected to the table
    assert give_keep(ASKED, "director", "own") == Claimed(
        Keeper("own", "Tavolo 3"), TABLE, "director", ASK)
    named = give_keep(KEPT, "director", "own", "Banco di Anna")
    assert named == Claimed(Keeper("own", "Banco di Anna", named=True), TABLE, "director")
    unknown = give_keep(KEPT, "director", "elsewhere")
    assert isinstance(unknown, Refuse) and unknown.field == "keep_give.device"
    device = give_keep(ASKED, "table", "own")
    assert isinstance(device, Refuse) and device.code == "forbidden"
    closed = give_keep(dataclasses.replace(ASKED, closed=True), "director", "own")
    assert isinstance(closed, Refuse) and closed.code == "closed"
