"""Contact answers checked against a plain solution of the whole game graph.

The reference below knows nothing of the solver: it builds every position
reachable from small contact positions (all rolls, all legal plays, hits and
re-entries included) and solves each reading as a reachability game by
iterating to the least fixpoint: a result holds where it can be forced in a
finite number of turns, which is what every "yes" of the solver proves (and
every "no" refutes).

Two universes keep the graphs small:
- one checker a side (the other fourteen borne off): single games, every
  position of the universe (about 1,350);
- one checker against one checker plus fourteen on the ace point: gammons
  and backgammons of the lone checker's side (a position where the other side
  has borne off a checker is a leaf: no gammon any more).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from bgclock.board import Position
from bgclock.board._moves import ROLLS, generate
from bgclock.board._outcomes import (
    READINGS,
    RESULT_POINTS,
    RESULTS,
    SIDES,
    Reading,
    Result,
    Side,
    Solver,
    _pack_side,
    outcome_table,
)

State = tuple[int, int, bool]  # (side to roll, other side, "A" rolls) - packed sides


def _count(b: int) -> int:
    return sum(b >> (4 * p) & 15 for p in range(26))


def _after_hits(other: int, hits: int) -> int:
    """The other side (its own numbering) after the mover hit on its points ``hits``."""
    for p in range(1, 25):
        if hits >> p & 1:
            q = 25 - p  # the same point in the other side's numbering
            assert other >> (4 * q) & 15 == 1
            other += (1 << (4 * 25)) - (1 << (4 * q))
    return other


def _masks(other: int) -> tuple[int, int]:
    blocked = blots = 0
    for p in range(1, 25):
        k = other >> (4 * (25 - p)) & 15
        if k >= 2:
            blocked |= 1 << p
        elif k == 1:
            blots |= 1 << p
    return blocked, blots


class Graph:
    """Every position reachable from ``starts``: per state, per roll, the plays as
    ("end", points won by the mover), ("cut", 0) (outside the universe: the
    result asked about is lost) or ("go", index of the next state)."""

    def __init__(self, starts: Iterable[State], keep: int = 0) -> None:
        self.index: dict[State, int] = {}
        self.states: list[State] = []
        self.moves: list[list[list[tuple[str, int]]]] = []
        for s in starts:
            self._add(s)
        i = 0
        while i < len(self.states):
            me, other, a_rolls = self.states[i]
            blocked, blots = _masks(other)
            per_roll = []
            for d1, d2 in ROLLS:
                outs = []
                for nb, hits in generate(me, blocked, blots, d1, d2):
                    nother = _after_hits(other, hits)
                    if nb == 0:
                        points = 1 if _count(nother) < 15 else 3 if nother >> (4 * 19) else 2
                        outs.append(("end", points))
                    elif keep and _count(me) >= keep > _count(nb):  # the pile broke
                        outs.append(("cut", 0))
                    else:
                        outs.append(("go", self._add((nother, nb, not a_rolls))))
                per_roll.append(outs)
            self.moves.append(per_roll)
            i += 1

    def _add(self, s: State) -> int:
        j = self.index.get(s)
        if j is None:
            j = self.index[s] = len(self.states)
            self.states.append(s)
        return j

    def solve(self, winner_is_a: bool, level: int, reading: str) -> list[bool]:
        """Least fixpoint, for every state: can the winner be made to win ``level``?"""
        value = [False] * len(self.states)
        rolls_all = reading == "certain"
        changed = True
        while changed:
            changed = False
            for i, (_, _, a_rolls) in enumerate(self.states):
                if value[i]:
                    continue
                s_moves = a_rolls == winner_is_a
                plays_all = not s_moves and reading != "possible"
                per_roll = (
                    [
                        (s_moves and x >= level) if kind == "end"
                        else value[x] if kind == "go" else False
                        for kind, x in outs
                    ]
                    for outs in self.moves[i]
                )
                rolls = (all(v) if plays_all else any(v) for v in per_roll)
                if all(rolls) if rolls_all else any(rolls):
                    value[i] = True
                    changed = True
        return value


def _state(pos: Position) -> State:
    return (_pack_side(pos.on_roll), _pack_side(pos.opponent), True)


def _one(rng: random.Random) -> dict[int, int]:
    return {rng.choice(list(range(1, 26)) + [22, 23, 24]): 1}


def _positions(rng: random.Random, n: int, piled: bool) -> list[Position]:
    out: list[Position] = []
    seen = set()
    while len(out) < n:
        mine, theirs = _one(rng), _one(rng)
        if piled:
            theirs[1] = theirs.get(1, 0) + 14
        if rng.random() < 0.5:
            mine, theirs = theirs, mine
        if any(p != 25 and 25 - p in theirs for p in mine):
            continue
        pos = Position.from_points(mine, theirs)
        if pos.has_contact() and str(pos) not in seen:
            seen.add(str(pos))
            out.append(pos)
    return out


QUESTIONS = [(s, r, g) for s in SIDES for r in RESULTS for g in READINGS]
SINGLES = _positions(random.Random(2024), 300, piled=False)
PILED = _positions(random.Random(2025), 200, piled=True)


class Reference:
    """Values of the questions for positions of one universe, solved once."""

    def __init__(self, positions: list[Position], keep: int) -> None:
        # both sides of every state: "A" (the side on roll at the start) and "B"
        starts = [_state(p) for p in positions]
        starts += [(b, a, False) for a, b, _ in starts]
        self.graph = Graph(starts, keep)
        self._cache: dict[tuple[bool, int, str], list[bool]] = {}

    def value(self, pos: Position, side: Side, result: Result, reading: Reading) -> bool:
        key = (side == "on_roll", RESULT_POINTS[result], reading)
        if key not in self._cache:
            self._cache[key] = self.graph.solve(*key)
        return self._cache[key][self.graph.index[_state(pos)]]


@pytest.fixture(scope="module")
def singles() -> Reference:
    return Reference(SINGLES, 0)


@pytest.fixture(scope="module")
def piled() -> Reference:
    return Reference(PILED, 15)


def _check(
    ref: Reference, positions: list[Position], asked: list[tuple[Side, Result, Reading]],
    piled: bool,
) -> tuple[int, int, int]:
    decided = by_witness = unknown = 0
    for pos in positions:
        new = Solver(pos)
        old = Solver(pos, witness_search=False)
        for side, result, reading in asked:
            if piled:  # only the lone checker's side can win more than a single game
                lone = pos.on_roll if side == "on_roll" else pos.opponent
                if sum(lone) != 1:
                    continue
            got = new.answer(side, result, reading)
            where = (str(pos), side, result, reading, got.reason)
            if got.value is None:
                unknown += 1
                assert old.answer(side, result, reading).value is None, where
                continue
            decided += 1
            by_witness += "line" in got.reason
            assert got.value is ref.value(pos, side, result, reading), where
    return decided, by_witness, unknown


@pytest.mark.parametrize("part", range(3))
def test_single_games_match_the_game_graph(singles: Reference, part: int) -> None:
    decided, by_witness, unknown = _check(singles, SINGLES[part::3], QUESTIONS, False)
    assert unknown == 0 and decided > 1000 and by_witness > 100


def test_gammons_match_the_game_graph(piled: Reference) -> None:
    asked = [q for q in QUESTIONS if q[1] != "single"]
    decided, by_witness, unknown = _check(piled, PILED, asked, True)
    assert unknown == 0 and decided > 500 and by_witness > 50


def test_witness_alone_matches_the_game_graph(singles: Reference) -> None:
    # the witness search without the exhaustive fallback: each "yes" / "no" it
    # gives must hold too
    checked = 0
    for pos in SINGLES[::2]:
        solver = Solver(pos)
        solver._exhaustive = False
        for side, result, reading in QUESTIONS:
            got = solver.answer(side, result, reading)
            if got.value is not None and "line" in got.reason:
                checked += 1
                assert got.value is singles.value(pos, side, result, reading), (
                    str(pos), side, result, reading, got.reason,
                )
    assert checked > 300


def test_tables_match_the_game_graph(singles: Reference, piled: Reference) -> None:
    # the table also infers answers from one another (readings nested, results
    # nested, "certain" the dual of the other side's "against best defence")
    for ref, positions in ((singles, SINGLES[:60]), (piled, PILED[:60])):
        for pos in positions:
            table = outcome_table(pos)
            for (side, result, reading), got in table.items():
                if ref is piled and sum(pos.on_roll if side == "on_roll" else pos.opponent) != 1:
                    continue
                if got.value is not None and (ref is singles or result != "single"):
                    want = ref.value(pos, side, result, reading)
                    assert got.value is want, (str(pos), side, result, reading, got.reason)
