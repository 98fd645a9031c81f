"""USBGF master points (2019; usbgf.org, "How USBGF Master Points are
Calculated", as issue 36 quotes it): Match Win points = EW x DW x
sqrt(length) / 3 per match won; Placement points = EW x DW x 0.6 x
log2(players) x rank factor (1, 0.7, 0.5, 0.333, 0.25, 0.2, then 1/(R - 1)),
tied players splitting the points of the ranks they share; DW 1.0/0.7/0.5."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.tournament import InvalidContest
from bgclock.tournament.points import (
    DIVISION_WEIGHTS,
    SOURCE,
    Finisher,
    master_points,
    match_win_points,
    placement_points,
    rank_factor,
    rounded,
)


def test_the_tables_cite_their_source_and_hold_the_published_figures() -> None:
    assert "How USBGF Master Points are Calculated" in SOURCE
    assert DIVISION_WEIGHTS == {"open": 1.0, "intermediate": 0.7, "novice": 0.5}
    assert [rank_factor(r) for r in range(1, 7)] == [1.0, 0.7, 0.5, 0.333, 0.25, 0.2]
    # then 1/(R - 1)
    assert rank_factor(7) == 1 / 6 and rank_factor(33) == 1 / 32


def test_a_16_player_open_knockout_of_7_point_matches_by_hand() -> None:
    # Hand calculation (event weight 1, Open: division weight 1.0):
    # one match won to 7: sqrt(7) / 3 = 2.6457513 / 3 = 0.8819171.
    # placement base: 0.6 x log2(16) = 0.6 x 4 = 2.4.
    # - winner, 4 matches won, 1st: 4 x 0.8819171 = 3.5276684 -> 3.53;
    #   2.4 x 1 = 2.40; total 5.9276684 -> 5.93
    # - finalist, 3 won, 2nd: 2.6457513 -> 2.65; 2.4 x 0.7 = 1.68;
    #   total 4.3257513 -> 4.33
    # - a semi-finalist, 2 won, ranks 3-4 shared: 1.7638342 -> 1.76;
    #   2.4 x (0.5 + 0.333) / 2 = 2.4 x 0.4165 = 0.9996 -> 1.00;
    #   total 2.7634342 -> 2.76
    # - a quarter-finalist, 1 won, ranks 5-8 shared: 0.8819171 -> 0.88;
    #   2.4 x (0.25 + 0.2 + 1/6 + 1/7) / 4 = 2.4 x 0.7595238 / 4
    #   = 2.4 x 0.1898810 = 0.4557143 -> 0.46; total 1.3376314 -> 1.34
    # - a first-round loser, 0 won, ranks 9-16 shared: 1/8 + 1/9 + ... + 1/15
    #   = 0.125 + 0.1111111 + 0.1 + 0.0909091 + 0.0833333 + 0.0769231
    #   + 0.0714286 + 0.0666667 = 0.7253719; / 8 = 0.0906715;
    #   2.4 x 0.0906715 = 0.2176116 -> 0.22
    got = master_points(16, [
        Finisher(name="W", won=(7, 7, 7, 7), first=1),
        Finisher(name="F", won=(7, 7, 7), first=2),
        Finisher(name="S", won=(7, 7), first=3, last=4),
        Finisher(name="Q", won=(7,), first=5, last=8),
        Finisher(name="R", won=(), first=9, last=16),
    ])
    assert [(p["match_win"], p["placement"], p["total"]) for p in got] == [
        (3.53, 2.40, 5.93), (2.65, 1.68, 4.33), (1.76, 1.00, 2.76), (0.88, 0.46, 1.34),
        (0.0, 0.22, 0.22)]


def test_the_division_and_event_weights_multiply_both_kinds_of_points() -> None:
    # a 9-point match won: sqrt(9) / 3 = 1 point in the Open, 0.7 in the
    # Intermediate, 0.5 in the Novice; an event weighted 2 doubles them
    assert match_win_points(9) == pytest.approx(1.0)
    assert match_win_points(9, division="intermediate") == pytest.approx(0.7)
    assert match_win_points(9, division="novice", event_weight=2) == pytest.approx(1.0)
    # 32 players, 1st, Novice: 0.5 x 0.6 x 5 x 1 = 1.5
    assert placement_points(32, 1, division="novice") == pytest.approx(1.5)


@given(st.integers(2, 512), st.data())
def test_tied_players_together_hold_the_points_of_the_ranks_they_share(players: int,
                                                                      data: st.DataObject
                                                                      ) -> None:
    first = data.draw(st.integers(1, players))
    last = data.draw(st.integers(first, players))
    shared = placement_points(players, first, last) * (last - first + 1)
    alone = math.fsum(placement_points(players, r) for r in range(first, last + 1))
    assert shared == pytest.approx(alone)


def test_points_are_rounded_half_up_only_where_shown() -> None:
    assert rounded(0.125) == 0.13 and rounded(0.9996) == 1.0 and rounded(2.674999) == 2.67


@pytest.mark.parametrize(("call", "field"), [
    (lambda: match_win_points(0), "length"),
    (lambda: match_win_points(100), "length"),
    (lambda: match_win_points(7, division="expert"), "division"),
    (lambda: match_win_points(7, event_weight=0), "event_weight"),
    (lambda: match_win_points(7, event_weight=1e9), "event_weight"),
    (lambda: placement_points(1, 1), "players"),
    (lambda: placement_points(8, 9), "rank"),
    (lambda: placement_points(8, 4, 3), "rank"),
    (lambda: rank_factor(0), "rank"),
])
def test_bad_input_is_refused_naming_the_field(call: object, field: str) -> None:
    with pytest.raises(InvalidContest, match=f"^{field}: "):
        call()  # type: ignore[operator]
