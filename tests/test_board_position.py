"""bgclock.board Position: construction, pips, contact."""

from __future__ import annotations

import pytest

from bgclock.board import InvalidPosition, Position


def test_initial_position_counts() -> None:
    p = Position.initial()
    assert p.pip_counts() == (167, 167)
    assert p.borne_off == (0, 0)
    assert p.has_contact()
    assert p.winner is None


def test_from_points_and_borne_off() -> None:
    p = Position.from_points({1: 2, 25: 1}, {6: 3})
    assert p.on_roll[0] == 2 and p.on_roll[24] == 1
    assert p.borne_off == (12, 12)
    assert p.pip_counts() == (2 + 25, 18)


@pytest.mark.parametrize(
    ("mine", "theirs", "contact"),
    [
        ({13: 1}, {11: 1}, False),  # my 13 is its 12: it is past my checker
        ({14: 1}, {12: 1}, True),  # its 12 is my 13: I still have to pass it
        ({6: 5}, {6: 5}, False),
        ({25: 1, 1: 1}, {1: 1}, True),  # on the bar, the opponent still on the board
        ({24: 1}, {24: 1}, True),
    ],
)
def test_contact(mine: dict[int, int], theirs: dict[int, int], contact: bool) -> None:
    assert Position.from_points(mine, theirs).has_contact() is contact


def test_swapped_twice_is_identity() -> None:
    p = Position.from_points({3: 2, 20: 1}, {25: 1, 6: 4})
    assert p.swapped().swapped() == p
    assert p.swapped().on_roll == p.opponent


@pytest.mark.parametrize(
    ("mine", "theirs", "message"),
    [
        ({1: 16}, {6: 1}, "16 checkers"),
        ({5: 1}, {20: 1}, "both sides"),  # my 5 is its 20
        ({26: 1}, {1: 1}, "no point 26"),
        ({}, {}, "both sides have borne off"),
    ],
)
def test_invalid_positions_say_why(
    mine: dict[int, int], theirs: dict[int, int], message: str
) -> None:
    with pytest.raises(InvalidPosition, match=message):
        Position.from_points(mine, theirs)


def test_negative_and_short_sides_refused() -> None:
    with pytest.raises(InvalidPosition, match="-1 checkers"):
        Position(on_roll=(-1,) + (0,) * 24, opponent=(1,) + (0,) * 24)
    with pytest.raises(InvalidPosition, match="25 counts"):
        Position(on_roll=(1,) * 3, opponent=(1,) + (0,) * 24)


def test_winner_when_a_side_is_off() -> None:
    assert Position.from_points({}, {1: 1}).winner == "on_roll"
    assert Position.from_points({1: 1}, {}).winner == "opponent"
