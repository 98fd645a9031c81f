"""Breaks at a match played without a clock, folded from the desk's actions
(Italian rule book: "In all 13 point matches or more, each player is allowed
to take two breaks of 10mn duration each. For shorter matches each player has
one break of 10mn duration. ... If the duration of the pauses are not
respected penalties shall be awarded."; issue 38 §3)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._breaks import BREAK_MS, allowance, suggested_points
from tests.test_tournament_desk import _drawn, _ids

MIN = 60_000
AT = {"round": 0, "match": 0}


def _start(pid: int, at: int) -> dict[str, Any]:
    return {"do": "break_start", **AT, "player": pid, "at_ms": at}


def _end(at: int) -> dict[str, Any]:
    return {"do": "break_end", **AT, "at_ms": at}


@pytest.mark.parametrize(("length", "allowed"), [(1, 1), (7, 1), (11, 1), (12, 1), (13, 2),
                                                 (17, 2), (25, 2)])
def test_the_allowance_is_two_breaks_from_13_points_else_one(length: int, allowed: int) -> None:
    # it-rules: "In all 13 point matches or more ... two breaks ... shorter matches ... one"
    assert allowance(length) == allowed
    state, _ = _drawn(length=length)
    a, b = _ids(state)
    t = 0
    for k in range(allowed):
        state, done = state.after(_start(a, t))
        assert done["number"] == k + 1 and done["allowance"] == allowed
        state, _ = state.after(_end(t + 5 * MIN))
        t += 30 * MIN
    with pytest.raises(IllegalContest, match="break") as refused:
        state.after(_start(a, t))
    assert refused.value.code == "no_break_left"
    # the opponent's allowance is their own
    state, done = state.after(_start(b, t))
    assert done["side"] == "B" and done["number"] == 1


def test_one_break_at_a_time_and_an_end_needs_one_running() -> None:
    state, _ = _drawn(length=7)
    a, b = _ids(state)
    with pytest.raises(IllegalContest) as refused:
        state.after(_end(0))
    assert refused.value.code == "no_break"
    state, _ = state.after(_start(a, 0))
    with pytest.raises(IllegalContest) as refused:
        state.after(_start(b, MIN))
    assert refused.value.code == "break_running"
    state, done = state.after(_end(4 * MIN))
    assert done == {"player": state.bracket("main").rounds[0][0].a, "number": 1, "over_ms": 0,
                    "suggested": 0}
    with pytest.raises(InvalidContest, match="at_ms"):
        state.after(_start(b, 3 * MIN))  # before the last instant at this match


def test_a_break_is_timed_and_offers_the_penalty_once_over_ten_minutes() -> None:
    state, _ = _drawn(length=7)
    a, _ = _ids(state)
    state, _ = state.after(_start(a, 100 * MIN))
    match = state.break_views(105 * MIN)[0]
    assert (match["match"], match["a"]) == (0, state.players[a - 1].name)
    [view] = match["breaks"]
    assert view["running"] and view["left_ms"] == 5 * MIN and not view["alert"]
    assert match["used"] == {"A": 1, "B": 0} and match["allowance"] == 1
    [view] = state.break_views(100 * MIN + BREAK_MS + 1)[0]["breaks"]
    assert view["left_ms"] == 0 and view["over_ms"] == 1 and view["alert"]
    assert view["suggested"] == 1
    state, done = state.after(_end(123 * MIN))
    assert done["over_ms"] == 13 * MIN and done["suggested"] == 3
    # ended: its time stops at the end, whenever it is read
    [view] = state.break_views(200 * MIN)[0]["breaks"]
    assert view["over_ms"] == 13 * MIN and not view["running"] and view["alert"]


@given(st.integers(min_value=-10 * MIN, max_value=10**9))
def test_one_point_for_every_started_five_minutes_over(over: int) -> None:
    points = suggested_points(over)
    if over <= 0:
        assert points == 0
    else:  # (points - 1) full five minutes are not enough, points are
        assert (points - 1) * 5 * MIN < over <= points * 5 * MIN


def test_the_director_decides_the_penalty_and_it_is_recorded() -> None:
    state, log = _drawn(length=7)
    a, _ = _ids(state)
    pen = {"do": "break_penalty", **AT, "player": a, "number": 1, "points": 1}
    state, _ = state.after(_start(a, 0))
    with pytest.raises(IllegalContest) as refused:
        state.after({**pen, "at_ms": 9 * MIN})
    assert refused.value.code == "break_in_time"
    with pytest.raises(InvalidContest, match="number"):
        state.after({**pen, "number": 2, "at_ms": 11 * MIN})
    with pytest.raises(InvalidContest, match="points"):
        state.after({**pen, "points": 8, "at_ms": 11 * MIN})
    # the director may decide while the break still runs
    state, done = state.after({**pen, "at_ms": 11 * MIN})
    assert done == {"player": a, "number": 1, "points": 1}
    with pytest.raises(IllegalContest) as refused:
        state.after({**pen, "at_ms": 12 * MIN})
    assert refused.value.code == "penalty_decided"
    state, _ = state.after(_end(14 * MIN))
    [view] = state.break_views(14 * MIN)[0]["breaks"]
    assert view["penalty"] == 1 and not view["alert"]
    assert state.bracket("main").rounds[0][0].winner is None
    # the log replays to the same state
    again = Tournament.fold([*log, _start(a, 0), {**pen, "at_ms": 11 * MIN}, _end(14 * MIN)])
    assert again.to_dict() == state.to_dict()
    assert again.to_dict()["breaks"][0]["breaks"][0]["penalty"] == 1


def test_penalty_points_that_reach_the_length_end_the_match_as_a_late_arrival_s_do() -> None:
    state, _ = _drawn(length=7)
    a, _ = _ids(state)
    m = state.bracket("main").rounds[0][0]
    state, _ = state.after(_start(a, 0))
    state, _ = state.after(_end(21 * MIN))
    pen = {"do": "break_penalty", **AT, "player": a, "number": 1, "at_ms": 22 * MIN}
    with pytest.raises(InvalidContest, match="score"):
        state.after({**pen, "points": 3, "score": [2, 7]})
    state, done = state.after({**pen, "points": 3, "score": [2, 5]})
    assert done["score"] == [2, 7] and done["winner"] == m.b
    assert state.bracket("main").rounds[0][0].winner == m.b
    assert state.results[("main", 0, 0)].to_dict() == {
        "source": "disqualified", "player": m.a, "reason": "break", "score": [2, 7]}
    # the match is decided: its breaks are over
    with pytest.raises(IllegalContest) as refused:
        state.after(_start(a, 30 * MIN))
    assert refused.value.code == "already_decided"
    assert [v["match"] for v in state.break_views(30 * MIN)] == [1]


def test_a_break_needs_a_seated_match_with_its_players() -> None:
    state, log = _drawn(8, length=7)
    a, _ = _ids(state)
    c = state.by_name(state.bracket("main").rounds[0][1].a or "")
    assert c is not None
    with pytest.raises(InvalidContest, match="player"):
        state.after(_start(c.id, 0))
    with pytest.raises(IllegalContest) as refused:
        state.after({"do": "break_start", "round": 1, "match": 0, "player": a, "at_ms": 0})
    assert refused.value.code == "players_unknown"
    with pytest.raises(InvalidContest, match="at_ms"):
        state.after({"do": "break_start", **AT, "player": a})
    unseated = Tournament.fold(log[:-1])  # drawn, the round not started
    with pytest.raises(IllegalContest) as refused:
        unseated.after(_start(a, 0))
    assert refused.value.code == "not_at_table"
