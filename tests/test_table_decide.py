"""The table's pure decision (``bgclock.server.live.table_state``), rule by
rule, without a hub, a writer or a clock (issue 17 §5)."""

from __future__ import annotations

import dataclasses

import pytest

from bgclock.server.live.lag import DEFAULT_PARAMS, LagQuota
from bgclock.server.live.table_state import (
    PROVISIONAL_BOUND_MS,
    Accept,
    Ask,
    Asked,
    Claimed,
    Duplicate,
    Flag,
    Handover,
    Keeper,
    Press,
    Refuse,
    TableState,
    ask_keep,
    decide,
    flag,
    provisional_final,
)

KEEPER = Keeper("phone", "Android Chrome ·hone")
KEPT = TableState(keeper=KEEPER, keeper_online=True, log_end_ms=10_000,
                  device_floor_ms=10_000, match_ms=10_000, expiry_ms=900_000)


def press(**fields: object) -> Press:
    base: dict[str, object] = {"role": "table", "do": "hit", "side": "A", "device": "phone",
                               "arrival_ms": 20_000}
    return Press(**{**base, **fields})  # type: ignore[arg-type]


def accepted(answer: object) -> Accept:
    assert isinstance(answer, Accept), answer
    return answer


# ------------------------------------------------------------------ roles

def test_a_table_device_sends_only_the_players_commands() -> None:
    answer = decide(KEPT, press(do="adjust"))
    assert answer == Refuse("forbidden", "only the director may adjust")
    assert isinstance(decide(KEPT, press(role="director", do="adjust", device=None)), Accept)


def test_only_the_director_settles_an_alert() -> None:
    answer = decide(KEPT, press(handles="1:flag:2"))
    assert isinstance(answer, Refuse) and answer.code == "forbidden"


@pytest.mark.parametrize(("change", "code"), [
    ({"closed": True}, "closed"), ({"quarantined": "event 3"}, "quarantined"),
    ({"editing": True}, "busy")])
def test_a_table_that_takes_no_commands_says_why(change: dict[str, object], code: str) -> None:
    state = dataclasses.replace(KEPT, **change)  # type: ignore[arg-type]
    for sender in (press(), press(role="director", device=None)):
        answer = decide(state, sender)
        assert isinstance(answer, Refuse) and answer.code == code


# ----------------------------------------------------------- idempotency

def test_a_known_id_is_a_duplicate_never_applied_twice() -> None:
    assert decide(KEPT, press(known=True)) == Duplicate()
    # even from a device that no longer keeps the time: its first ack again
    assert decide(KEPT, press(known=True, device="other")) == Duplicate()


def test_an_alert_handled_already_is_refused() -> None:
    answer = decide(KEPT, press(role="director", device=None, handles="1:flag:2",
                                handled=True))
    assert isinstance(answer, Refuse) and answer.code == "handled"


# ------------------------------------------------------------ the claim

def test_the_first_press_of_a_device_with_an_id_claims_the_time() -> None:
    free = dataclasses.replace(KEPT, keeper=None, keeper_online=False)
    answer = accepted(decide(free, press(do="opening_roll", side=None, device="tab",
                                         device_name="Tab", device_at_ms=15_000)))
    assert answer.claim == Keeper("tab", "Tab")
    assert answer.at_ms == 15_000  # its instant counts at once


def test_the_director_and_a_device_without_an_id_never_claim() -> None:
    free = dataclasses.replace(KEPT, keeper=None, keeper_online=False)
    assert accepted(decide(free, press(role="director", device=None))).claim is None
    anon = accepted(decide(free, press(device=None, device_at_ms=1)))
    assert anon.claim is None and anon.at_ms == 20_000  # lag-compensated, not its instant


def test_another_device_is_refused_naming_the_keeper() -> None:
    for other in ("tablet", None):
        answer = decide(KEPT, press(device=other))
        assert isinstance(answer, Refuse) and answer.code == "not_keeper"
        assert answer.refusal == "not_keeper"
        assert dict(answer.params or {}) == {"keeper": "Android Chrome ·hone"}
    # offline or not: a second phone never re-times the keeper's presses
    offline = dataclasses.replace(KEPT, keeper_online=False)
    assert isinstance(decide(offline, press(device="tablet")), Refuse)


def test_another_device_only_asks_for_the_time_while_the_keeper_is_there() -> None:
    # issue 33: a player's own phone no longer takes the time by asking
    asked = ask_keep(KEPT, "tablet", "Tab", "table", now_ms=5_000, msg_id="k1")
    assert asked == Asked(Ask("tablet", "Tab", 5_000, "k1"), KEEPER)
    # the keeper asking for its own time changes nothing
    mine = ask_keep(KEPT, "phone", None, "table", now_ms=5_000)
    assert isinstance(mine, Claimed) and mine.keeper == KEEPER and mine.previous == KEEPER
    director = ask_keep(KEPT, None, None, "director", now_ms=5_000)
    assert isinstance(director, Refuse) and director.code == "forbidden"
    anon = ask_keep(KEPT, None, None, "table", now_ms=5_000)
    assert isinstance(anon, Refuse) and anon.field == "hello.device"
    closed = ask_keep(dataclasses.replace(KEPT, closed=True), "tablet", None, "table", now_ms=0)
    assert isinstance(closed, Refuse) and closed.code == "closed"


def test_the_former_keepers_press_before_the_hand_over_counts_at_its_instant() -> None:
    # the tablet took the time over at 18 s; the phone, offline, had pressed at 14 s
    tablet = Keeper("tablet", "Tab")
    state = dataclasses.replace(KEPT, keeper=tablet,
                                handover=Handover(KEEPER, at_ms=18_000))
    answer = accepted(decide(state, press(device_at_ms=14_000)))
    assert (answer.at_ms, answer.credit_ms, answer.before_handover) == (14_000, 6_000, True)
    assert answer.claim is None  # the time stays the tablet's
    # never before the last event the phone could have seen
    assert accepted(decide(state, press(device_at_ms=1))).at_ms == 10_000
    # before the director's events since: merged by instant
    later = dataclasses.replace(state, log_end_ms=16_000, match_ms=16_000)
    assert accepted(decide(later, press(device_at_ms=14_000))).merge
    # made at or after the hand-over: the phone no longer keeps the time
    for at in (18_000, 19_000):
        refusal = decide(state, press(device_at_ms=at))
        assert isinstance(refusal, Refuse) and refusal.code == "not_keeper"
    # without its device instant (a device that sent none), or another device
    assert decide(state, press()) == decide(state, press(device="other", device_at_ms=14_000))
    assert isinstance(decide(state, press()), Refuse)


def test_once_the_new_keeper_pressed_the_former_keepers_past_is_refused() -> None:
    tablet = Keeper("tablet", "Tab")
    state = dataclasses.replace(KEPT, keeper=tablet,
                                handover=Handover(KEEPER, at_ms=18_000, pressed=True))
    refusal = decide(state, press(device_at_ms=14_000))
    assert isinstance(refusal, Refuse) and refusal.code == refusal.refusal == "handed_over"
    assert dict(refusal.params or {}) == {"keeper": "Tab"}
    assert "director has been told" in refusal.message
    # the new keeper's own presses are the keeper's, as before
    assert accepted(decide(state, press(device="tablet", device_at_ms=19_000))).at_ms == 19_000


def test_a_keepers_label_is_its_name_or_the_end_of_its_id() -> None:
    assert Keeper("d-0123abcd", "Pixel").label() == "Pixel"
    assert Keeper("d-0123abcd").label() == "…abcd"


# ---------------------------------------------------- the instant rules

def test_the_directors_command_counts_at_its_arrival() -> None:
    answer = accepted(decide(KEPT, press(role="director", device=None, device_at_ms=1)))
    assert (answer.at_ms, answer.credit_ms) == (20_000, 0)
    late = dataclasses.replace(KEPT, match_ms=25_000)  # never before the match's instant
    assert accepted(decide(late, press(role="director", device=None))).at_ms == 25_000


def test_the_keepers_instant_counts_within_its_bounds() -> None:
    answer = accepted(decide(KEPT, press(device_at_ms=14_000)))
    assert (answer.at_ms, answer.credit_ms, answer.merge) == (14_000, 6_000, False)
    # never after its arrival, never before the last event it could have seen
    assert accepted(decide(KEPT, press(device_at_ms=99_000))).at_ms == 20_000
    assert accepted(decide(KEPT, press(device_at_ms=1))).at_ms == 10_000
    assert accepted(decide(KEPT, press(device_at_ms=14_000))).quota is None  # no quota spent


def test_the_keepers_command_before_the_directors_events_is_merged() -> None:
    state = dataclasses.replace(KEPT, log_end_ms=16_000, match_ms=16_000)
    answer = accepted(decide(state, press(device_at_ms=14_000)))
    assert answer.merge and answer.refold and answer.at_ms == 14_000


def test_a_keepers_press_before_a_derived_flag_refolds() -> None:
    state = dataclasses.replace(KEPT, match_ms=30_000, expiry_ms=None)  # flag derived at 30 s
    answer = accepted(decide(state, press(device_at_ms=25_000, arrival_ms=40_000)))
    assert answer.refold and not answer.merge and answer.at_ms == 25_000


def test_any_other_command_is_lag_compensated_from_its_sides_quota() -> None:
    free = dataclasses.replace(KEPT, keeper=None, keeper_online=False)
    answer = accepted(decide(free, press(device=None, lag_ms=5_000)))
    assert answer.at_ms == 20_000 - DEFAULT_PARAMS.cap_ms
    assert answer.quota_key == "A"
    assert answer.quota == LagQuota.new().spend(DEFAULT_PARAMS.cap_ms)
    spent = free.with_quota("A", LagQuota(quota_ms=100))
    assert accepted(decide(spent, press(device=None, lag_ms=5_000))).at_ms == 19_900
    # a command that names no side draws on the table's quota
    roll = accepted(decide(free, press(device=None, do="resume", side=None, lag_ms=10)))
    assert roll.quota_key == "-"


# ---------------------------------------------------------- expiry

def test_a_command_past_the_expiry_sees_the_flag_first() -> None:
    state = dataclasses.replace(KEPT, expiry_ms=18_000)
    answer = accepted(decide(state, press(role="director", device=None)))
    assert answer.flag == Flag(18_000, provisional=False)
    assert accepted(decide(KEPT, press(device_at_ms=14_000))).flag is None


@pytest.mark.parametrize(("change", "provisional"), [
    ({}, False),
    ({"keeper_online": False}, True),
    ({"recovering": True}, True),
    ({"reconcile_left": 2}, True),
    ({"keeper": None, "keeper_online": False}, False),  # no keeper: nobody to wait for
])
def test_a_flag_is_provisional_while_the_keeper_is_away(change: dict[str, object],
                                                        provisional: bool) -> None:
    state = dataclasses.replace(KEPT, **change)  # type: ignore[arg-type]
    assert flag(state) == Flag(900_000, provisional=provisional)
    assert flag(dataclasses.replace(state, expiry_ms=None)) is None


def test_a_provisional_flag_is_final_when_the_keeper_is_back_or_after_the_bound() -> None:
    away = dataclasses.replace(KEPT, keeper_online=False)
    assert provisional_final(KEPT, offline_since_ms=None, now_ms=0)
    assert not provisional_final(away, offline_since_ms=1_000,
                                 now_ms=1_000 + PROVISIONAL_BOUND_MS - 1)
    assert provisional_final(away, offline_since_ms=1_000, now_ms=1_000 + PROVISIONAL_BOUND_MS)
    assert not provisional_final(away, offline_since_ms=None, now_ms=10**12)


def test_the_state_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        KEPT.keeper = None  # type: ignore[misc]
    before = dict(KEPT.quotas)
    KEPT.with_quota("A", LagQuota(quota_ms=1))
    assert dict(KEPT.quotas) == before
    with pytest.raises(TypeError):
        KEPT.quotas["A"] = LagQuota(quota_ms=1)  # type: ignore[index]


def test_a_match_the_director_decided_by_hand_takes_no_press_but_acks_a_repeat() -> None:
    # issue 32 §2: a hand result closes the match at its table, whoever presses
    decided = dataclasses.replace(KEPT, decided_by="Bob", expiry_ms=None)
    for who in (press(), press(role="director", device=None, do="resume"),
                press(device="other")):
        refused = decide(decided, who)
        assert isinstance(refused, Refuse) and refused.code == "decided"
        assert refused.refusal == "decided_by_hand" and refused.params == {"name": "Bob"}
    # a press stored before the result, sent again: its ack again, nothing new
    assert isinstance(decide(decided, press(known=True)), Duplicate)
