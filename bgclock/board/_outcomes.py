"""What can still happen: results of a game under three exact readings.

Theory of operation
-------------------
A *result* is "side S wins at least R" (R = single, gammon or backgammon; a
gammon is also a win).  S is the *beneficiary*, the other side the *defender*.
The game is a tree of rolls and plays; each reading quantifies its branches:

==========================  =======  ===================  ================
reading                     rolls    beneficiary's plays  defender's plays
==========================  =======  ===================  ================
possible                    some     some                 some
against best defence        some     some                 all
certain                     all      some                 all
==========================  =======  ===================  ================

"Against best defence" is the defender choosing every play to avoid R while
the dice (and the beneficiary) are free; "certain" is the beneficiary forcing
R whatever the dice.  By determinacy, "the defender can avoid R against the
beneficiary's best play" is exactly "R is not certain", so the rulings need
only these three readings.

**No contact** (every checker has passed every opposing one): the sides no
longer interact, so each side's bear-off is an independent process counted
in its own turns.  The side on roll moves first: its k-th turn comes before
the opponent's k-th turn.  Per side we need three turn counts:

- OFF: turns until all its checkers are off;
- FIRST: turns until it has borne off a checker (0 if it has one off);
- OUT: turns until no checker is in the other side's home board (0 if none).

With S finishing on its turn ``x`` and the defender's count ``y``, S wins at
least R iff ``x + c <= y`` where ``c`` is 0 if S is on roll, 1 otherwise, and
``y`` is the defender's OFF (single), FIRST (gammon: the defender has no
checker off when S finishes) or OUT (backgammon; a checker can be borne off
only once every checker is home, so OUT <= FIRST and a backgammon is already
a gammon).

Each count has three values: ``least`` (best dice, best plays), ``most``
(worst dice, worst plays) and ``guaranteed`` (worst dice, best plays: what the
side can guarantee).  A side's plays and dice affect only its own count, so:

- possible:              least(S, OFF) + c <= most(D, y)
- against best defence:  least(S, OFF) + c <= guaranteed(D, y)
- certain:               guaranteed(S, OFF) + c <= least(D, y)

``least`` has a closed form: every die moves one checker at most six pips, and
a 6 always does the most (a checker on point p needs ceil(p / 6) dice to get
off, a 6-6 plays four of them), so OFF needs ceil(sum(ceil(p/6)) / 4) turns,
FIRST ceil((sum over p > 6 of ceil((p-6)/6) + 1) / 4) and OUT ceil(n19 / 4)
(n19 = checkers on points 19..24).  ``most`` and ``guaranteed`` are decided by
a memoised search over the side's own positions, asking only "is the count
more than t?" for the one t that matters, and cut short by proven bounds
(see ``_Side``).

**Contact**: an exact AND/OR search over rolls and plays of both sides,
deepened one turn at a time; a position that reaches no contact is answered
by the race reasoning above.  When its node budget runs out before an answer
the result is ``None`` (unknown), never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bgclock.board._moves import ROLLS, generate, pack
from bgclock.board._position import CHECKERS, Position

Side = Literal["on_roll", "opponent"]
Result = Literal["single", "gammon", "backgammon"]
Reading = Literal["possible", "against_best_defence", "certain"]

SIDES: Final[tuple[Side, ...]] = ("on_roll", "opponent")
RESULTS: Final[tuple[Result, ...]] = ("single", "gammon", "backgammon")
READINGS: Final[tuple[Reading, ...]] = ("possible", "against_best_defence", "certain")
RESULT_POINTS: Final[dict[Result, int]] = {"single": 1, "gammon": 2, "backgammon": 3}

DEFAULT_NODE_BUDGET: Final = 80_000

_OFF, _FIRST, _OUT = 0, 1, 2
_GOAL_WORDS = {
    _OFF: "to bear off all its checkers",
    _FIRST: "to bear off a first checker",
    _OUT: "to bring its last checker out of {other}'s home board",
}
# the adversary's likely rolls first: small rolls slow a side down the most
_ROLLS_SLOW_FIRST = tuple(sorted(ROLLS, key=lambda r: (r[0] + r[1]) * (2 if r[0] == r[1] else 1)))


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer: ``value`` True / False, or None when the search gave up."""

    value: bool | None
    reason: str

    @property
    def word(self) -> str:
        """``"yes"``, ``"no"`` or ``"unknown"``."""
        return {True: "yes", False: "no", None: "unknown"}[self.value]


class _OutOfBudget(Exception):
    pass


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _turns(n: int) -> str:
    return f"{n} turn" if n == 1 else f"{n} turns"


# -- one side of a race -----------------------------------------------------------
def _stats(b: int) -> tuple[int, int, int, int, int, int, int]:
    """(pips, checkers, dice to get off, dice to first off, E excess outside home,
    checkers on 19..24, excess beyond 18) for a packed side."""
    pips = n = m_off = m_first = excess = n19 = e19 = 0
    for p in range(1, 26):
        k = b >> (4 * p) & 15
        if not k:
            continue
        pips += k * p
        n += k
        m_off += k * _ceil_div(p, 6)
        if p > 6:
            m_first += k * _ceil_div(p - 6, 6)
            excess += k * (p - 6)
        if p >= 19:
            n19 += k
            e19 += k * (p - 18)
    return pips, n, m_off, m_first, excess, n19, e19


class _Side:
    """Turn counts of one side's bear-off in a race, for one goal.

    ``guaranteed_exceeds(b, t)``: the dice can keep the goal from being reached
    in ``t`` turns whatever the side plays (guaranteed count > t).
    ``most_exceeds(b, t)``: some dice and plays keep it from being reached in
    ``t`` turns (most count > t).

    Proven bounds cut the search (``lower <= guaranteed <= most <= upper``):
    - lower: ``least``; OFF: ceil(pips / 3) and ceil(checkers / 2) (a 2-1 moves
      three pips and bears off at most two checkers); FIRST: ceil((E + 1) / 3)
      with E the pips still needed to bring every checker home; OUT:
      ceil(E19 / 3), E19 the pips needed to leave points 19..24;
    - upper: OFF: pips + checkers drops by at least 3 every turn (a die of 2 or
      more moves two pips or bears off a checker, any die does at least one);
      FIRST: before the first checker is off every turn moves at least three
      pips and each checker keeps one; OUT: the same with one checker still
      on 19 or higher.
    """

    def __init__(self, goal: int) -> None:
        self.goal = goal
        self._guaranteed: dict[int, list[int]] = {}
        self._most: dict[int, list[int]] = {}
        self._succ: dict[tuple[int, int, int], list[int]] = {}
        self.nodes = 0
        self.limit: int | None = None  # set while inside a budgeted contact search

    def _count_node(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise _OutOfBudget

    def done(self, b: int) -> bool:
        if self.goal == _OFF:
            return b == 0
        if self.goal == _FIRST:
            return _stats(b)[1] < CHECKERS
        return not b >> (4 * 19)

    def least(self, b: int) -> int:
        if self.done(b):
            return 0
        _, _, m_off, m_first, _, n19, _ = _stats(b)
        if self.goal == _OFF:
            return _ceil_div(m_off, 4)
        if self.goal == _FIRST:
            return _ceil_div(m_first + 1, 4)
        return _ceil_div(n19, 4)

    def bounds(self, b: int) -> tuple[int, int]:
        """(lower, upper) bounds of the guaranteed and the most counts."""
        if self.done(b):
            return 0, 0
        pips, n, _, _, excess, _, e19 = _stats(b)
        least = self.least(b)
        if self.goal == _OFF:
            lower = max(least, _ceil_div(pips, 3), _ceil_div(n, 2))
            upper = (pips + n - 2) // 3 + 1
        elif self.goal == _FIRST:
            lower = max(least, _ceil_div(excess + 1, 3))
            upper = (pips - n) // 3 + 1
        else:
            lower = max(least, _ceil_div(e19, 3))
            upper = (pips - 18 - n) // 3 + 1
        return lower, max(lower, upper)

    def _progress(self, b: int) -> tuple[int, int]:
        """How far a position still is from the goal (smaller = closer)."""
        pips, n, _, _, excess, _, e19 = _stats(b)
        if self.goal == _OFF:
            return pips + n, pips
        if self.goal == _FIRST:
            return (0 if n < CHECKERS else excess + 1), pips
        return e19, pips

    def _successors(self, b: int, roll: tuple[int, int]) -> list[int]:
        """Results of a roll, the most progress first (the side's likely best play)."""
        key = (b, roll[0], roll[1])
        out = self._succ.get(key)
        if out is None:
            out = sorted((k[0] for k in generate(b, 0, 0, roll[0], roll[1])), key=self._progress)
            self._succ[key] = out
        return out

    def _interval(self, memo: dict[int, list[int]], b: int) -> list[int]:
        iv = memo.get(b)
        if iv is None:
            lower, upper = self.bounds(b)
            # count > t is known true for t < lo... stored as [true_up_to, false_from]
            iv = [lower - 1, upper]
            memo[b] = iv
        return iv

    def guaranteed_exceeds(self, b: int, t: int) -> bool:
        if t < 0:
            return True
        iv = self._interval(self._guaranteed, b)
        if t <= iv[0]:
            return True
        if t >= iv[1]:
            return False
        self._count_node()
        answer = False
        for roll in _ROLLS_SLOW_FIRST:
            if all(self.guaranteed_exceeds(nb, t - 1) for nb in self._successors(b, roll)):
                answer = True
                break
        if answer:
            iv[0] = max(iv[0], t)
        else:
            iv[1] = min(iv[1], t)
        return answer

    def most_exceeds(self, b: int, t: int) -> bool:
        if t < 0:
            return True
        iv = self._interval(self._most, b)
        if t <= iv[0]:
            return True
        if t >= iv[1]:
            return False
        self._count_node()
        answer = any(
            self.most_exceeds(nb, t - 1)
            for roll in _ROLLS_SLOW_FIRST
            for nb in reversed(self._successors(b, roll))
        )
        if answer:
            iv[0] = max(iv[0], t)
        else:
            iv[1] = min(iv[1], t)
        return answer


class _Race:
    """Exact answers for positions without contact (sides given packed)."""

    def __init__(self) -> None:
        self.sides = {g: _Side(g) for g in (_OFF, _FIRST, _OUT)}

    def answer(
        self,
        s_side: int,
        d_side: int,
        s_on_roll: bool,
        result: Result,
        reading: Reading,
        names: tuple[str, str],
    ) -> tuple[bool, str]:
        """Does the beneficiary (packed ``s_side``) win at least ``result``?"""
        s_name, d_name = names
        goal = {"single": _OFF, "gammon": _FIRST, "backgammon": _OUT}[result]
        mine = self.sides[_OFF]
        theirs = self.sides[goal]
        c = 0 if s_on_roll else 1
        order = f"{s_name} moves first" if s_on_roll else f"{d_name} moves first"
        d_goal = _GOAL_WORDS[goal].format(other=s_name)
        if goal == _FIRST and theirs.done(d_side):
            return False, f"{d_name} has already borne off a checker"
        if goal == _OUT and theirs.done(d_side):
            return False, f"{d_name} has no checker left in {s_name}'s home board"
        if reading in ("possible", "against_best_defence"):
            x = mine.least(s_side)
            t = x + c - 1
            if reading == "possible":
                ok = theirs.most_exceeds(d_side, t)
                how, how_not = "with the worst rolls and plays", "whatever happens"
            else:
                ok = theirs.guaranteed_exceeds(d_side, t)
                how = "whatever it plays, with the worst rolls"
                how_not = "with its best play, whatever the dice"
            s_part = f"{s_name} can be off in {_turns(x)} with the best rolls"
            if ok:
                return True, (
                    f"{s_part}; {d_name} can need at least {_turns(t + 1)} {d_goal} {how} "
                    f"({order})"
                )
            return False, (
                f"{d_name} manages {d_goal} within {_turns(max(t, 0))} {how_not}; "
                f"{s_part}, not sooner ({order})"
            )
        y = theirs.least(d_side)
        t = y - c
        late = mine.guaranteed_exceeds(s_side, t)
        d_part = f"{d_name} needs at least {_turns(y)} {d_goal}"
        if late:
            if t < 1:
                return False, (
                    f"{d_name} can manage {d_goal} in {_turns(y)} with the best rolls, "
                    f"before {s_name} can bear off ({order})"
                )
            return False, (
                f"bad rolls can keep {s_name} from bearing off within {_turns(t)}; "
                f"{d_name} can manage {d_goal} in {_turns(y)} with the best rolls ({order})"
            )
        # report the tightest guarantee (every query below t is cheap: t is small here)
        lower = mine.bounds(s_side)[0]
        sure = next(
            u for u in range(max(lower, 1), t + 1) if not mine.guaranteed_exceeds(s_side, u)
        )
        return True, (
            f"{s_name} is off in at most {_turns(sure)} whatever the dice; {d_part} ({order})"
        )


# -- packed positions ------------------------------------------------------------
def _top(b: int) -> int:
    """Highest occupied slot (25 = bar), 0 if the side has no checker left."""
    return (b.bit_length() + 3) >> 2 if b else 0


def _highest(b: int) -> int:
    return _top(b) - 1 if b else 0


def _contact(me: int, opp: int) -> bool:
    a = _highest(me)
    b = _highest(opp)
    return a > 0 and b > 0 and a + b >= 25


def _masks(opp: int) -> tuple[int, int]:
    blocked = blots = 0
    for p in range(1, 25):
        k = opp >> (4 * (25 - p)) & 15
        if k >= 2:
            blocked |= 1 << p
        elif k == 1:
            blots |= 1 << p
    return blocked, blots


def _count(b: int) -> int:
    n = 0
    while b:
        n += b & 15
        b >>= 4
    return n


def _pack_side(side: tuple[int, ...]) -> int:
    b = 0
    for i, n in enumerate(side):
        b |= n << (4 * (i + 1))
    return b


def _level(loser: int) -> int:
    """Points of the result when the other side has just borne off its last checker."""
    if _count(loser) < CHECKERS:
        return 1
    return 3 if loser >> (4 * 19) else 2


# -- the search ------------------------------------------------------------------------
class Solver:
    """Answers for one position; caches are shared between its questions.

    ``node_budget`` bounds each contact question's search (positions generated,
    a race search node counting as 21);
    race answers are always exact.  ``should_stop`` (optional) is polled
    between nodes so a caller may impose a deadline; this module never reads a
    clock.
    """

    def __init__(
        self,
        position: Position,
        *,
        node_budget: int = DEFAULT_NODE_BUDGET,
        should_stop: Callable[[], bool] | None = None,
        names: tuple[str, str] = ("the side on roll", "the opponent"),
    ) -> None:
        self.position = position
        self.node_budget = node_budget
        self.should_stop = should_stop
        self.names = names
        self.race = _Race()
        self._nodes = 0
        self._budget = node_budget
        self._race_start = 0
        self._memo: dict[tuple[int, int, bool], tuple[bool | None, int]] = {}

    def answer(
        self, winner: Side, result: Result, reading: Reading, *, budget: int | None = None
    ) -> Answer:
        """Can ``winner`` still win at least ``result``, under ``reading``?

        ``budget``: positions this question's contact search may expand
        (default: the solver's whole ``node_budget``).
        """
        self._budget = self.node_budget if budget is None else budget
        self._nodes = 0
        pos = self.position
        me = _pack_side(pos.on_roll)
        opp = _pack_side(pos.opponent)
        s_on_roll = winner == "on_roll"
        s_name, d_name = self.names if s_on_roll else self.names[::-1]
        level = RESULT_POINTS[result]
        over = pos.winner
        if over is not None:
            won = over == winner
            loser = opp if over == "on_roll" else me
            got = _level(loser)
            ok = won and got >= level
            text = f"the game is over: {self.names[0 if over == 'on_roll' else 1]} won"
            return Answer(ok, f"{text} ({['', 'single', 'gammon', 'backgammon'][got]})")
        d_side = opp if s_on_roll else me
        if level >= 2 and _count(d_side) < CHECKERS:
            return Answer(False, f"{d_name} has already borne off a checker")
        if not _contact(me, opp):
            s_side = me if s_on_roll else opp
            ok, why = self.race.answer(
                s_side, d_side, s_on_roll, result, reading, (s_name, d_name)
            )
            return Answer(ok, f"no contact: {why}")
        return self._contact_answer(me, opp, s_on_roll, level, result, reading, s_name)

    @property
    def nodes_used(self) -> int:
        """Positions the last question's contact search expanded."""
        return self._nodes

    # contact ---------------------------------------------------------------------
    def _contact_answer(
        self,
        me: int,
        opp: int,
        s_on_roll: bool,
        level: int,
        result: Result,
        reading: Reading,
        s_name: str,
    ) -> Answer:
        self._memo = {}
        self._level = level
        self._reading = reading
        self._result = result
        depth = 0
        value: bool | None = None
        sides = list(self.race.sides.values())
        self._race_start = sum(side.nodes for side in sides)
        for side in sides:  # race leaves count against the same budget
            side.limit = side.nodes + self._budget // 21
        try:
            while value is None:
                depth += 1
                value = self._node(me, opp, s_on_roll, depth)
                if depth > 200:  # pragma: no cover - the budget ends it first
                    break
        except _OutOfBudget:
            value = None
        finally:
            for side in sides:
                side.limit = None
            self._nodes += 21 * (sum(side.nodes for side in sides) - self._race_start)
        what = f"{s_name} winning at least a {result}" if result != "single" else (
            f"{s_name} winning"
        )
        if value is None:
            return Answer(None, (
                f"contact: the search gave up after {self._nodes} positions "
                f"({depth - 1} rolls looked ahead in full) without settling {what}"
            ))
        verdict = "holds" if value else "fails"
        return Answer(value, (
            f"contact: exhaustive search of {self._nodes} positions, "
            f"{depth} rolls deep (races after contact solved exactly): {what} {verdict}"
        ))

    def _charge(self, work: int) -> None:
        """Count search work (positions generated; a race node as 21) against the budget."""
        self._nodes += work
        race = sum(side.nodes for side in self.race.sides.values()) - self._race_start
        if self._nodes + 21 * race > self._budget or (
            self.should_stop is not None and self.should_stop()
        ):
            raise _OutOfBudget

    def _node(self, me: int, opp: int, s_moves: bool, depth: int) -> bool | None:
        """Value at a position with ``me`` to roll; ``s_moves``: the beneficiary rolls."""
        key = (me, opp, s_moves)
        hit = self._memo.get(key)
        if hit is not None and (hit[0] is not None or hit[1] >= depth):
            return hit[0]
        d_side = opp if s_moves else me
        if self._level >= 2 and _count(d_side) < CHECKERS:
            return False
        if not _contact(me, opp):
            s_side, d = (me, opp) if s_moves else (opp, me)
            ok, _ = self.race.answer(
                s_side, d, s_moves, self._result, self._reading, ("S", "D")
            )
            self._memo[key] = (ok, depth)
            return ok
        if depth == 0:
            return None
        self._charge(1)
        rolls_all = self._reading == "certain"
        plays_all = not s_moves and self._reading != "possible"
        blocked, blots = _masks(opp)
        roll_unknown = False
        roll_value = rolls_all  # identity of the AND / OR over rolls
        for d1, d2 in ROLLS:
            play_unknown = False
            play_value = plays_all
            plays = generate(me, blocked, blots, d1, d2)
            self._charge(len(plays))
            for nb, hits in plays:
                nopp = opp
                if hits:
                    p = 1
                    while hits >> p:
                        if hits >> p & 1:
                            nopp += (1 << 100) - (1 << (4 * (25 - p)))
                        p += 1
                if nb == 0:
                    v: bool | None = (s_moves and _level(nopp) >= self._level)
                else:
                    v = self._node(nopp, nb, not s_moves, depth - 1)
                if v is None:
                    play_unknown = True
                elif v != plays_all:
                    play_value = v
                    play_unknown = False
                    break
            rv: bool | None = None if play_unknown and play_value == plays_all else play_value
            if rv is None:
                roll_unknown = True
            elif rv != rolls_all:
                roll_value = rv
                roll_unknown = False
                break
        value: bool | None = None if roll_unknown and roll_value == rolls_all else roll_value
        self._memo[key] = (value, depth)
        return value


def can_happen(
    position: Position,
    winner: Side,
    result: Result,
    reading: Reading,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> Answer:
    """Can ``winner`` still win at least ``result`` from ``position``?

    >>> p = Position.from_points({1: 2}, {6: 15})
    >>> can_happen(p, "on_roll", "gammon", "certain").value
    True
    >>> can_happen(p, "on_roll", "backgammon", "possible").reason
    "no contact: the opponent has no checker left in the side on roll's home board"
    """
    return Solver(position, node_budget=node_budget).answer(winner, result, reading)


def outcome_table(
    position: Position,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    should_stop: Callable[[], bool] | None = None,
    names: tuple[str, str] = ("the side on roll", "the opponent"),
) -> dict[tuple[Side, Result, Reading], Answer]:
    """All 18 answers: each side, each result, each reading.

    ``node_budget`` is shared: each question may use the nodes left divided by
    the questions left, so nodes one question does not need go to the next.
    """
    solver = Solver(position, node_budget=node_budget, should_stop=should_stop, names=names)
    questions = [(s, r, g) for s in SIDES for r in RESULTS for g in READINGS]
    remaining = node_budget
    table: dict[tuple[Side, Result, Reading], Answer] = {}
    for i, (side, result, reading) in enumerate(questions):
        share = remaining // (len(questions) - i)
        table[side, result, reading] = solver.answer(side, result, reading, budget=share)
        remaining -= min(solver.nodes_used, share)
    return table


__all__ = [
    "Answer",
    "READINGS",
    "RESULTS",
    "RESULT_POINTS",
    "SIDES",
    "Solver",
    "can_happen",
    "outcome_table",
    "pack",
]
