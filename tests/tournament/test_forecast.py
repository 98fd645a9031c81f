"""The round's forecast (issue 32 §8): each match's end from its clock, the
round's end and the match holding it up."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament.forecast import (
    MOVES_PER_GAME,
    ROOM_GAMES,
    MatchClock,
    expected_games,
    forecast_match,
    forecast_round,
    prior_game_ms,
    room_game_ms,
)

MIN = 60_000


def clock(**kw: Any) -> MatchClock:
    """A 7-point USBGF match (2 min a point, 12 s delay) begun at 0."""
    fields: dict[str, Any] = {"key": "t1", "length": 7, "score": (0, 0), "game": 1,
                              "reserve_ms": (14 * MIN, 14 * MIN), "delay_ms": 12_000,
                              "start_reserve_ms": (14 * MIN, 14 * MIN), "started_ms": 0,
                              "now_ms": 0}
    return MatchClock(**{**fields, **kw})


def test_games_left_follow_the_score() -> None:
    assert expected_games(1, 1) == 1  # double match point: one game
    assert expected_games(0, 5) == 0
    assert expected_games(3, 5) == expected_games(5, 3)
    assert expected_games(7, 7) > expected_games(4, 7) > expected_games(1, 7) >= 1


def test_a_match_not_yet_under_way_is_forecast_at_its_clocks_allowance() -> None:
    m = clock()
    f = forecast_match(m)
    assert f.game_ms == prior_game_ms(m)
    assert prior_game_ms(m) == round(28 * MIN / expected_games(7, 7) + 12_000 * MOVES_PER_GAME)
    assert f.end_ms == f.left_ms and not f.bounded


def test_a_slow_table_is_forecast_later_than_a_quick_one_at_the_same_score() -> None:
    quick = forecast_match(clock(score=(3, 2), game=4, now_ms=30 * MIN))
    slow = forecast_match(clock(score=(3, 2), game=4, now_ms=60 * MIN,
                                reserve_ms=(8 * MIN, 9 * MIN)))
    assert slow.game_ms > quick.game_ms and slow.left_ms > quick.left_ms


def test_the_clocks_bound_a_table_whose_reserves_are_nearly_spent() -> None:
    # 90 minutes for 3 games, both reserves nearly gone: it cannot last its past pace
    m = clock(score=(2, 1), game=4, now_ms=90 * MIN, reserve_ms=(30_000, 20_000))
    f = forecast_match(m)
    games = expected_games(5, 6) - 0.5
    assert f.bounded and f.left_ms == 50_000 + round(12_000 * MOVES_PER_GAME * games)


def test_a_match_over_ends_now() -> None:
    f = forecast_match(clock(score=(7, 3), game=8, now_ms=70 * MIN, over=True))
    assert (f.end_ms, f.left_ms) == (70 * MIN, 0)


def test_the_round_ends_with_its_last_match_which_holds_it_up() -> None:
    now = 40 * MIN
    matches = [clock(key="t1", score=(5, 4), game=6, now_ms=now),
               clock(key="t2", score=(1, 0), game=2, now_ms=now),
               clock(key="t3", score=(6, 6), game=9, now_ms=now)]
    f = forecast_round(matches)
    assert f.holding == "t2" and f.end_ms == max(x.end_ms for x in f.matches)
    assert [x.key for x in f.matches] == ["t1", "t2", "t3"]
    assert forecast_round([]).end_ms is None and forecast_round([]).holding is None


def test_the_rooms_pace_is_the_prior_once_enough_games_are_played() -> None:
    few = [clock(key=k, game=2, now_ms=10 * MIN) for k in range(ROOM_GAMES - 1)]
    assert room_game_ms(few) is None
    many = [clock(key=k, game=3, now_ms=50 * MIN) for k in range(ROOM_GAMES)]
    assert room_game_ms(many) == 20 * MIN  # 50 minutes for 2½ games each
    new = clock(key="new", now_ms=50 * MIN, started_ms=50 * MIN)
    f = forecast_round([*many, new])
    assert next(x for x in f.matches if x.key == "new").game_ms == room_game_ms([*many, new])


@pytest.mark.parametrize(("field", "value"), [
    ("length", 0), ("game", 0), ("score", (-1, 0)), ("reserve_ms", (-5, 0)),
    ("now_ms", -1)])
def test_a_clock_that_cannot_be_is_refused_naming_the_field(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=field.split("_")[0]):
        clock(**{field: value})
