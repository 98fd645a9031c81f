"""What can still happen: the three readings, checked against brute force."""

from __future__ import annotations

import functools
import random

import pytest

from bgclock.board import Position, legal_plays
from bgclock.board._moves import ROLLS, generate
from bgclock.board._outcomes import (
    _FIRST,
    _OFF,
    _OUT,
    READINGS,
    RESULT_POINTS,
    RESULTS,
    SIDES,
    Solver,
    _pack_side,
    _Side,
    can_happen,
    outcome_table,
)
from tests.board_random import random_position

# -- one side's turn counts against plain recursion -------------------------------


def _done(goal: int, b: int) -> bool:
    if goal == _OFF:
        return b == 0
    if goal == _FIRST:
        return sum(b >> (4 * p) & 15 for p in range(26)) < 15
    return not b >> (4 * 19)


@functools.cache
def _exact(goal: int, b: int) -> tuple[int, int, int]:
    """(least, guaranteed, most) turns by plain minimax over all 21 rolls."""
    if _done(goal, b):
        return 0, 0, 0
    least = guaranteed = most = 0
    first = True
    for d1, d2 in ROLLS:
        nexts = [_exact(goal, k[0]) for k in generate(b, 0, 0, d1, d2)]
        lo = min(n[0] for n in nexts)
        gu = min(n[1] for n in nexts)
        hi = max(n[2] for n in nexts)
        least = lo if first else min(least, lo)
        guaranteed = max(guaranteed, gu)
        most = max(most, hi)
        first = False
    return least + 1, guaranteed + 1, most + 1


def _random_side(rng: random.Random, top: int, checkers: int, full: bool) -> int:
    side = [0] * 25
    for _ in range(rng.randint(1, checkers)):
        side[rng.randint(1, top) - 1] += 1
    if full:  # 15 checkers, none off: the rest stacked on the 1 point
        side[0] += 15 - sum(side)
    return _pack_side(tuple(side))


@pytest.mark.parametrize("goal", [_OFF, _FIRST, _OUT])
def test_side_counts_match_plain_minimax(goal: int) -> None:
    rng = random.Random(goal)
    side = _Side(goal)
    checked = 0
    for _ in range(300):
        top = 22 if goal == _OUT else 10
        b = _random_side(rng, top, 3, full=goal == _FIRST and rng.random() < 0.7)
        least, guaranteed, most = _exact(goal, b)
        lower, upper = side.bounds(b)
        assert side.least(b) == least
        assert lower <= guaranteed <= most <= upper or _done(goal, b)
        for t in range(-1, most + 2):
            assert side.guaranteed_exceeds(b, t) is (guaranteed > t)
            assert side.most_exceeds(b, t) is (most > t)
        checked += 1
    assert checked == 300


# -- whole races against a full game-tree search ------------------------------------


def _result_points(winner_is_mover: bool, after: Position) -> int:
    """Points of the game just ended by the mover (``after``: the loser on roll)."""
    loser = after.on_roll
    if sum(loser) < 15:
        return 1
    return 3 if any(loser[18:]) else 2


@functools.cache
def _successors(p: Position, d1: int, d2: int) -> tuple[Position, ...]:
    return tuple(play.position for play in legal_plays(p, d1, d2))


def brute(pos: Position, s_moves: bool, level: int, reading: str) -> bool:
    """The readings' definition, played out roll by roll (races only: finite)."""

    @functools.cache
    def value(p: Position, s_to_move: bool) -> bool:
        rolls_all = reading == "certain"
        plays_all = (not s_to_move) and reading != "possible"
        roll_values = []
        for d1, d2 in ROLLS:
            play_values = []
            for after in _successors(p, d1, d2):
                if sum(after.opponent) == 0:  # the mover is off
                    play_values.append(s_to_move and _result_points(True, after) >= level)
                else:
                    play_values.append(value(after, not s_to_move))
            roll_values.append(all(play_values) if plays_all else any(play_values))
        return all(roll_values) if rolls_all else any(roll_values)

    return value(pos, s_moves)


def _tiny_race(rng: random.Random) -> Position:
    while True:
        mine = {rng.randint(1, 7): 1 for _ in range(rng.randint(1, 3))}
        theirs = {rng.randint(1, 7): 1 for _ in range(rng.randint(1, 3))}
        if rng.random() < 0.3:  # a straggler in the other's home board (backgammons)
            theirs = {rng.randint(19, 20): 1, 1: 14}
            mine = {p: 1 for p in mine if p <= 4} or {1: 1}
        if rng.random() < 0.3:
            mine[1] = mine.get(1, 0) + 15 - sum(mine.values())
        pos = Position.from_points(mine, theirs)
        if not pos.has_contact():
            return pos


def test_race_answers_match_the_game_tree() -> None:
    rng = random.Random(11)
    for _ in range(30):
        pos = _tiny_race(rng)
        solver = Solver(pos)
        for side in SIDES:
            for result in RESULTS:
                for reading in READINGS:
                    got = solver.answer(side, result, reading)
                    want = brute(pos, side == "on_roll", RESULT_POINTS[result], reading)
                    assert got.value is want, (str(pos), side, result, reading, got.reason)


def test_readings_are_nested() -> None:
    # certain => possible against best defence => possible, in every table
    rng = random.Random(3)
    for _ in range(60):
        pos = _tiny_race(rng)
        table = outcome_table(pos)
        for side in SIDES:
            for result in RESULTS:
                certain = table[side, result, "certain"].value
                defence = table[side, result, "against_best_defence"].value
                possible = table[side, result, "possible"].value
                assert not certain or defence
                assert not defence or possible


# -- hand-picked positions ---------------------------------------------------------


def test_two_checkers_on_the_ace_point_win_for_certain() -> None:
    pos = Position.from_points({1: 2}, {6: 15})
    answer = can_happen(pos, "on_roll", "backgammon", "certain")
    assert answer.value is False  # the opponent has no checker in our home board
    assert "no checker left" in answer.reason
    gammon = can_happen(pos, "on_roll", "gammon", "certain")
    assert gammon.value is True
    assert "at most 1 turn" in gammon.reason


def test_a_gammon_that_cannot_be_saved() -> None:
    # we are off in two turns whatever we roll; the opponent's two stragglers on its
    # 22 point need seven moves of a die before a checker is off: two turns even with 6-6
    pos = Position.from_points({1: 2, 2: 2}, {22: 2, 6: 13})
    assert can_happen(pos, "on_roll", "gammon", "certain").value is True
    assert can_happen(pos, "opponent", "single", "possible").value is False


def test_turn_order_decides_a_close_race() -> None:
    # each side has one checker on its 1 point: whoever rolls first wins, for certain
    pos = Position.from_points({1: 1}, {1: 1})
    assert can_happen(pos, "on_roll", "single", "certain").value is True
    assert can_happen(pos, "opponent", "single", "possible").value is False


def test_near_gin_that_is_not() -> None:
    # 2-1 leaves a checker behind: the opponent, off in one turn, can still win
    pos = Position.from_points({6: 1, 5: 1}, {1: 2})
    answer = can_happen(pos, "on_roll", "single", "certain")
    assert answer.value is False
    assert can_happen(pos, "on_roll", "single", "against_best_defence").value is True
    assert can_happen(pos, "opponent", "single", "against_best_defence").value is True


def test_backgammon_from_a_straggler() -> None:
    # the opponent's last checker sits on our 6 point (its 19); we are off in one turn
    pos = Position.from_points({1: 2}, {19: 1, 6: 14})
    assert can_happen(pos, "on_roll", "backgammon", "certain").value is True


def test_contact_decided_by_search() -> None:
    # the opponent is on the bar, we bear off our last two checkers whatever we roll
    pos = Position.from_points({1: 1, 2: 1}, {25: 1, 6: 14})
    answer = can_happen(pos, "on_roll", "single", "certain")
    assert answer.value is True
    assert answer.reason.startswith("contact:")


def test_contact_unknown_when_the_budget_runs_out() -> None:
    answer = can_happen(Position.initial(), "on_roll", "gammon", "certain", node_budget=30)
    assert answer.value is None
    assert "gave up" in answer.reason


def test_game_over_positions() -> None:
    pos = Position.from_points({}, {19: 1, 6: 14})
    assert can_happen(pos, "on_roll", "backgammon", "possible").value is True
    assert can_happen(pos, "opponent", "single", "possible").value is False


def test_opening_position_everything_possible_nothing_certain() -> None:
    table = outcome_table(Position.initial())
    for side in SIDES:
        for result in RESULTS:
            assert table[side, result, "possible"].value is True
            assert table[side, result, "against_best_defence"].value is not False
            assert table[side, result, "certain"].value is False
    assert table["on_roll", "single", "against_best_defence"].value is True
    assert "a line" in table["on_roll", "single", "possible"].reason
    assert "rolls 6-6" in table["on_roll", "single", "possible"].reason


def test_opening_possible_win_needs_few_nodes() -> None:
    answer = can_happen(Position.initial(), "on_roll", "single", "possible", node_budget=2_000)
    assert answer.value is True


def test_closed_board_gammon_certain_with_the_opponent_on_the_bar() -> None:
    # our last two checkers on the ace point go off whatever we roll; the opponent
    # is on the bar with no checker off: a backgammon, for certain
    pos = Position.from_points({1: 2}, {25: 1, 6: 14})
    assert can_happen(pos, "on_roll", "gammon", "certain").value is True
    assert can_happen(pos, "on_roll", "backgammon", "certain").value is True
    assert can_happen(pos, "opponent", "single", "possible").value is False


def test_closed_board_gammon_not_certain() -> None:
    # a closed board with the opponent on the bar, but we must open it as we bear off:
    # the opponent can come in with 6-6, run home and save the gammon
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, {25: 1, 1: 14})
    certain = can_happen(pos, "on_roll", "gammon", "certain")
    assert certain.value is False
    assert "avoids it" in certain.reason
    assert can_happen(pos, "on_roll", "gammon", "possible").value is True
    assert can_happen(pos, "opponent", "gammon", "possible").value is False


# -- dice already rolled ------------------------------------------------------------------
def _small_race(rng: random.Random) -> Position:
    """A small bear-off: few checkers, so every answer is exact and quick."""
    while True:
        pos = random_position(rng, "bearoff")
        if sum(pos.on_roll) <= 5 and sum(pos.opponent) <= 5:
            return pos


@pytest.mark.parametrize("seed", range(6))
def test_rolled_dice_split_the_unrolled_answer(seed: int) -> None:
    # with the dice free, "possible" is some roll's answer and "certain" every roll's;
    # "against best defence" for the side on roll: some roll (the dice are free)
    rng = random.Random(seed)
    pos = _small_race(rng)
    free = Solver(pos)
    rolled = {roll: Solver(pos, dice=roll) for roll in ROLLS}
    for side in SIDES:
        for result in RESULTS:
            for reading in READINGS:
                answers = [rolled[r].answer(side, result, reading).value for r in ROLLS]
                assert None not in answers
                whole = free.answer(side, result, reading).value
                if reading == "certain":
                    assert whole == all(answers), (pos, side, result, reading)
                else:
                    assert whole == any(answers), (pos, side, result, reading)


def test_a_rolled_six_five_bears_off_the_last_two() -> None:
    # two checkers left on the 6 and 5 points, the opponent off next turn
    pos = Position.from_points({6: 1, 5: 1}, {1: 2})
    assert Solver(pos).answer("on_roll", "single", "certain").value is False
    won = Solver(pos, dice=(6, 5), names=("B", "A")).answer("on_roll", "single", "certain")
    assert won.value is True
    assert won.reason.startswith("B has rolled 6-5 and can play 6/off 5/off; then the game is "
                                 "over: B won")
    lost = Solver(pos, dice=(2, 1), names=("B", "A")).answer("on_roll", "single", "possible")
    assert lost.value is False
    assert lost.reason.startswith("B has rolled 2-1, and after any of its 3 plays the answer "
                                  "is no")


def test_rolled_dice_outside_one_to_six_are_refused() -> None:
    with pytest.raises(ValueError, match="1..6"):
        Solver(Position.initial(), dice=(0, 7))
