"""gnubg Position ID / Match ID and XGID: known values, round trips, gnubg itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.board import (
    InvalidId,
    MatchState,
    Position,
    match_from_id,
    match_id,
    position_from_id,
    position_from_xgid,
    position_id,
    read_position,
    xgid,
)
from tests.board_random import random_position


@st.composite
def positions(draw: st.DrawFn) -> Position:
    return random_position(random.Random(draw(st.integers(0, 2**32))))


@st.composite
def matches(draw: st.DrawFn) -> MatchState:
    length = draw(st.integers(0, 64))
    top = max(length - 1, 0) if length else 200
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return MatchState(
        length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        cube=1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        on_roll=draw(st.integers(0, 1)),
        crawford=draw(st.booleans()) if length else False,
        dice=dice,
    )


def test_opening_position_id() -> None:
    # gnubg manual, "A technical description of the Position ID"
    assert position_id(Position.initial()) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.initial()


def test_known_match_id() -> None:
    # an ID quoted on the bug-gnubg list (2009-07): 9-point match, 0-0, player 1 rolled 51
    m = match_from_id("cIkmAQAAAAAA")
    assert (m.length, m.score, m.cube, m.cube_owner, m.on_roll, m.dice) == (
        9, (0, 0), 1, None, 1, (5, 1),
    )


def test_opening_xgid() -> None:
    pos, m = position_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    assert pos == Position.initial()
    assert (m.on_roll, m.length, m.cube, m.cube_owner) == (1, 0, 1, None)


def test_xgid_orientation_when_o_is_on_roll() -> None:
    # X (upper case) has 2 on its 1 point; O (lower case) has 3 on X's 20 = O's 5, O on roll
    pos, m = position_from_xgid("XGID=-B------------------c-----:1:-1:-1:00:3:2:0:7:10")
    assert m.on_roll == 0
    assert pos.on_roll[4] == 3  # O's 5 point
    assert pos.opponent[0] == 2  # X's 1 point
    assert (m.cube, m.cube_owner, m.score_on_roll, m.score_opponent, m.length) == (2, 0, 2, 3, 7)


@given(positions())
def test_position_id_round_trip(pos: Position) -> None:
    assert position_from_id(position_id(pos)) == pos


@given(matches())
def test_match_id_round_trip(m: MatchState) -> None:
    again = match_from_id(match_id(m))
    assert again.length == m.length and again.score == m.score
    assert (again.cube, again.cube_owner, again.on_roll) == (m.cube, m.cube_owner, m.on_roll)
    assert (again.crawford, again.dice) == (m.crawford, m.dice)


@given(positions(), matches())
def test_xgid_round_trip(pos: Position, m: MatchState) -> None:
    again_pos, again = position_from_xgid(xgid(pos, m))
    assert again_pos == pos
    assert (again.length, again.score, again.cube, again.cube_owner) == (
        m.length, m.score, m.cube, m.cube_owner,
    )
    assert again.on_roll == m.on_roll and again.dice == m.dice


@pytest.mark.parametrize(
    "bad",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////"],
)
def test_bad_position_ids_refused(bad: str) -> None:
    with pytest.raises(InvalidId):
        position_from_id(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",
        "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",
    ],
)
def test_bad_xgids_refused(bad: str) -> None:
    with pytest.raises(InvalidId):
        position_from_xgid(bad)


def test_bad_match_id_refused() -> None:
    with pytest.raises(InvalidId):
        match_from_id("cIkmAQAAAAA")


def test_position_ids_agree_with_gnubg() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    rng = random.Random(7)
    for _ in range(2000):
        pos = random_position(rng)
        board = [list(pos.opponent), list(pos.on_roll)]
        assert position_id(pos) == gnubg_nn.position_id(board)
        back = gnubg_nn.board_from_position_id(position_id(pos))
        assert Position(on_roll=tuple(back[1]), opponent=tuple(back[0])) == pos


def test_read_position_as_typed() -> None:
    # what a director types: a Position ID, ID:MATCHID or an XGID, spaces around
    opening = position_from_id("4HPwATDgc/ABMA")
    assert read_position("  4HPwATDgc/ABMA\n") == (opening, None)
    m = MatchState(length=9, score=(2, 5), cube=2, on_roll=1)
    pos, match = read_position(f"4HPwATDgc/ABMA:{match_id(m)}")
    assert pos == opening and match == match_from_id(match_id(m))
    assert read_position(xgid(opening, m)) == position_from_xgid(xgid(opening, m))
    assert read_position(xgid(opening, m)[len("XGID="):])[0] == opening


@pytest.mark.parametrize("bad", ["", "   ", "hello", "4HPwATDgc/ABMA:zz", "XGID=-b----E-C"])
def test_read_position_refuses_in_words(bad: str) -> None:
    with pytest.raises(InvalidId) as err:
        read_position(bad)
    assert str(err.value)
