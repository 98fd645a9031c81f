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

**Contact**: first a depth-first search for a short witness (the search
picks the rolls; a line for ``possible``, an AND/OR proof answering every
defender play for ``against_best_defence``, a line where the defender avoids
the result against every beneficiary play to refute ``certain``), ordered by
a heuristic with a growing allowance of deviations (limited discrepancy
search); then, with the rest of the same node budget, an exact AND/OR search
over all rolls and plays of both sides, deepened one turn at a time.  A
position that reaches no contact is answered by the race reasoning above.
When the budget runs out before a proof the result is ``None`` (unknown),
never a guess.

**Dice already rolled**: when the side on roll has rolled (``dice``), its
first turn is that roll, not a chance node: the answer is the answer after
each legal play of the roll (the other side then on roll, dice free),
combined over the plays as the reading quantifies the mover's plays (some
play for the beneficiary and for ``possible``, every play for the defender
otherwise).  The identities between readings used by ``outcome_table`` still
hold: a fixed roll is a chance node with one branch.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from bgclock.board._moves import ROLLS, Play, generate, legal_plays, pack
from bgclock.board._position import CHECKERS, Position

Side = Literal["on_roll", "opponent"]
Result = Literal["single", "gammon", "backgammon"]
Reading = Literal["possible", "against_best_defence", "certain"]

SIDES: Final[tuple[Side, ...]] = ("on_roll", "opponent")
RESULTS: Final[tuple[Result, ...]] = ("single", "gammon", "backgammon")
READINGS: Final[tuple[Reading, ...]] = ("possible", "against_best_defence", "certain")
RESULT_POINTS: Final[dict[Result, int]] = {"single": 1, "gammon": 2, "backgammon": 3}

DEFAULT_NODE_BUDGET: Final = 100_000

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


@functools.lru_cache(maxsize=1 << 16)
def _shape(b: int) -> tuple[int, int, int]:
    """(pips, blots: bit p for a lone checker on point p, where: bit 25 - p for a
    checker on point p and bit 0 for the bar, i.e. the points as the other side
    numbers them)."""
    pips = blots = where = 0
    for p in range(1, 26):
        k = b >> (4 * p) & 15
        if k:
            pips += k * p
            where |= 1 << (25 - p) if p < 25 else 1
            if k == 1 and p < 25:
                blots |= 1 << p
    return pips, blots, where


def _pips(b: int) -> int:
    return _shape(b)[0]


def _hit(opp: int, hits: int) -> int:
    """``opp`` (packed, its own numbering) after the mover hit the blots in ``hits``."""
    p = 1
    while hits >> p:
        if hits >> p & 1:
            opp += (1 << 100) - (1 << (4 * (25 - p)))
        p += 1
    return opp


def _exposed(mine: int, theirs: int) -> int:
    """Blots of ``mine`` that a checker of ``theirs`` could reach with one roll (12 pips)."""
    blots = _shape(mine)[1]
    behind = _shape(theirs)[2]  # bit x: a checker of theirs on my point x (0: the bar)
    n = 0
    while blots:
        low = blots & -blots
        a = low.bit_length() - 1
        if behind & (low - 1) >> max(0, a - 12) << max(0, a - 12):
            n += 1
        blots ^= low
    return n


def _home_excess(b: int) -> int:
    """Pips a side still needs to bring every checker into its home board."""
    return sum((b >> (4 * p) & 15) * (p - 6) for p in range(7, 26))


def _in_other_home(b: int) -> int:
    """Checkers of a side on its points 19..24 or on the bar."""
    return sum(b >> (4 * p) & 15 for p in range(19, 26))


def _roll_text(roll: tuple[int, int]) -> str:
    return f"{roll[1]}-{roll[0]}"


# the witness search's own rolls: the most pips first
_ROLLS_FAST_FIRST = tuple(reversed(_ROLLS_SLOW_FIRST))
_W_DEPTH: Final = 80  # plies a witness line may take
_W_SHARE: Final = 0.6  # part of a question's budget the witness search may use
_EXACT: Final = (1 << 30, 1 << 30)


def _compress(steps: list[str]) -> str:
    """Join a line's turns, folding a repeated pair of turns: "3 times: A ..., B ..."."""
    out: list[str] = []
    i = 0
    while i < len(steps):
        pair = steps[i:i + 2]
        k = 1
        while len(pair) == 2 and steps[i + 2 * k:i + 2 * k + 2] == pair:
            k += 1
        if k > 1:
            out.append(f"{k} times ({', '.join(pair)})")
            i += 2 * k
        else:
            out.append(steps[i])
            i += 1
    return ", ".join(out)


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
        witness_search: bool = True,
        dice: tuple[int, int] | None = None,
    ) -> None:
        if dice is not None and not all(1 <= d <= 6 for d in dice):
            raise ValueError(f"dice must be 1..6, got {dice[0]}-{dice[1]}")
        self.position = position
        self.dice = dice
        self._after: dict[Position, Solver] = {}  # per play of ``dice``
        self.witness_search = witness_search
        self._exhaustive = True  # the tests switch the fallback off to check witnesses alone
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
        if self.dice is not None:
            return self._rolled_answer(winner, result, reading)
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

    # dice already rolled ----------------------------------------------------------
    def _rolled_answer(self, winner: Side, result: Result, reading: Reading) -> Answer:
        """The answer when the side on roll has already rolled ``self.dice``."""
        assert self.dice is not None
        mover, other = self.names
        roll = f"{self.dice[0]}-{self.dice[1]}"
        plays = legal_plays(self.position, *self.dice)
        # the mover's plays: "every" when the mover defends and the reading is not
        # ``possible``, else "some"
        every = winner == "opponent" and reading != "possible"
        after_side: Side = "opponent" if winner == "on_roll" else "on_roll"
        budget, used = self._budget, 0
        answers: list[tuple[Play, Answer]] = []
        open_plays = list(plays)
        still_open: list[Play] = []
        # rounds of growing shares: a small one for every play first (one of them
        # often settles the question), then four times more for the plays still open
        share = max(64, budget // (2 * len(plays)))
        while open_plays:
            still_open = []
            for play in open_plays:
                solver = self._after.get(play.position)
                if solver is None:
                    solver = Solver(
                        play.position, node_budget=self.node_budget,
                        should_stop=self.should_stop, names=(other, mover),
                        witness_search=self.witness_search,
                    )
                    solver.race = self.race  # race counts do not depend on the position
                    solver._exhaustive = self._exhaustive
                    self._after[play.position] = solver
                given = min(share, max(0, budget - used))
                a = solver.answer(after_side, result, reading, budget=given)
                used += min(solver.nodes_used, given)
                if a.value is None:
                    still_open.append(play)
                    continue
                answers.append((play, a))
                if a.value != every:  # one play settles it
                    break
            if (answers and answers[-1][1].value != every) or used >= budget:
                break
            open_plays, share = still_open, share * 4
        settled = bool(answers) and answers[-1][1].value != every
        undecided = 0 if settled else len(still_open)
        self._nodes = used
        n = len(plays)
        how_many = "its only play" if n == 1 else f"any of its {n} plays"
        if settled:
            play, a = answers[-1]
            if every:
                return Answer(False, (
                    f"{mover} has rolled {roll} and can play {play.notation()}; then {a.reason}"
                ))
            return Answer(True, (
                f"{mover} has rolled {roll} and can play {play.notation()}; then {a.reason}"
            ))
        if undecided:
            return Answer(None, (
                f"{mover} has rolled {roll}: {undecided} of its {n} plays could not be "
                f"settled within the search budget"
            ))
        play, a = answers[0]
        return Answer(every, (
            f"{mover} has rolled {roll}, and after {how_many} the answer is "
            f"{'yes' if every else 'no'} (e.g. after {play.notation()}: {a.reason})"
        ))

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
        d_name = self.names[1] if s_on_roll else self.names[0]
        self._w_names = (s_name, d_name)
        what = f"{s_name} winning at least a {result}" if result != "single" else (
            f"{s_name} winning"
        )
        budget = self._budget
        sides = list(self.race.sides.values())
        self._race_start = sum(side.nodes for side in sides)
        # 1. a short witness, searched depth first (it may use part of the budget)
        witness: str | None = None
        self._set_limit(int(budget * _W_SHARE) if self.witness_search else 0)
        try:
            if self.witness_search:
                witness = self._witness(me, opp, s_on_roll)
        except _OutOfBudget:
            witness = None
        if witness is not None:
            self._end_limit()
            return Answer(reading != "certain", f"contact: {witness}")
        # 2. the exhaustive search with the rest of the budget
        depth = 0
        value: bool | None = None
        self._set_limit(budget if self._exhaustive else 0)
        try:
            while value is None:
                depth += 1
                value = self._node(me, opp, s_on_roll, depth)
                if depth > 200:  # pragma: no cover - the budget ends it first
                    break
        except _OutOfBudget:
            value = None
        finally:
            self._end_limit()
        if value is None:
            return Answer(None, (
                f"contact: the search gave up after {self._nodes} positions "
                f"(no short line found; {depth - 1} rolls looked ahead in full) "
                f"without settling {what}"
            ))
        verdict = "holds" if value else "fails"
        return Answer(value, (
            f"contact: exhaustive search of {self._nodes} positions, "
            f"{depth} rolls deep (races after contact solved exactly): {what} {verdict}"
        ))

    def _race_used(self) -> int:
        return sum(side.nodes for side in self.race.sides.values()) - self._race_start

    def _set_limit(self, budget: int) -> None:
        """Let the search (positions + 21 x race nodes) use up to ``budget`` in all."""
        self._budget = budget
        left = max(0, budget - self._nodes - 21 * self._race_used())
        for side in self.race.sides.values():  # race leaves count against the same budget
            side.limit = side.nodes + left // 21

    def _end_limit(self) -> None:
        for side in self.race.sides.values():
            side.limit = None
        self._nodes += 21 * self._race_used()
        self._race_start = sum(side.nodes for side in self.race.sides.values())

    # the witness search ---------------------------------------------------------
    def _witness(self, me: int, opp: int, s_on_roll: bool) -> str | None:
        """A short proof of a "yes" (possible, against best defence) or of a "no"
        (certain), or None.

        The search chooses the rolls of both sides.  Proving a "yes" it plays
        for the beneficiary (and, for ``possible``, for the defender too); for
        ``against_best_defence`` every defender play must be answered.
        Disproving ``certain`` it plays for the defender, avoiding the result,
        and answers every beneficiary play.  Depth first, the likeliest choices
        first, with a growing allowance of choices off that order (limited
        discrepancy search); races are leaves answered exactly.
        """
        prove = self._reading != "certain"
        self._w_prove = prove
        self._w_all_s = not prove
        self._w_all_d = self._reading == "against_best_defence"
        self._w_done: dict[tuple[int, int, bool], tuple[object, ...]] = {}
        self._w_fail: dict[tuple[int, int, bool], tuple[int, int]] = {}
        self._w_opts: dict[
            tuple[int, int, bool], list[tuple[tuple[int, int], list[tuple[int, int]]]]
        ] = {}
        for disc in range(0, 200):
            self._w_cut = False
            if self._w(me, opp, s_on_roll, _W_DEPTH, disc):
                return self._w_describe((me, opp, s_on_roll))
            if not self._w_cut:  # nothing was left out: no witness within the depth
                return None
        return None  # pragma: no cover - the budget ends it first

    def _w_leaf(self, me: int, opp: int, s_moves: bool) -> bool | None:
        """Success of the witness at a position decided without search, else None."""
        key = (me, opp, s_moves)
        d_side = opp if s_moves else me
        if self._level >= 2 and _count(d_side) < CHECKERS:
            if self._w_prove:
                return False
            self._w_done[key] = ("leaf", f"then {self._w_names[1]} has borne off a checker")
            return True
        if not _contact(me, opp):
            s_side, d = (me, opp) if s_moves else (opp, me)
            ok, why = self.race.answer(
                s_side, d, s_moves, self._result, self._reading, self._w_names
            )
            if ok == self._w_prove:
                self._w_done[key] = ("leaf", f"then no contact: {why}")
                return True
            return False
        return None

    def _w(self, me: int, opp: int, s_moves: bool, depth: int, disc: int) -> bool:
        key = (me, opp, s_moves)
        if key in self._w_done:
            return True
        fail = self._w_fail.get(key)
        if fail is not None and fail[0] >= depth and fail[1] >= disc:
            return False
        leaf = self._w_leaf(me, opp, s_moves)
        if leaf is not None:
            if not leaf:
                self._w_fail[key] = _EXACT
            return leaf
        if depth == 0:
            self._w_cut = True
            return False
        ok = self._w_expand(key, me, opp, s_moves, depth, disc)
        if not ok and (fail is None or disc >= fail[1]):
            self._w_fail[key] = (depth, disc)
        return ok

    def _w_terminal(self, s_moved: bool, loser: int) -> bool:
        """Success of the witness when the side that just moved has borne off."""
        s_wins = s_moved and _level(loser) >= self._level
        return s_wins == self._w_prove

    def _w_score(self, s_side: int, d_side: int) -> int:
        """How promising a position is for the witness (smaller: better)."""
        level = self._level
        if self._w_prove:  # the beneficiary racing home, the defender kept back
            score = 2 * _pips(s_side) + max(0, _top(s_side) + _top(d_side) - 26)
            if level == 1:
                score -= _pips(d_side)
            elif level == 2:
                score -= 2 * _home_excess(d_side)
            else:
                score -= 20 * _in_other_home(d_side)
            if self._w_all_d:
                score += 12 * _exposed(s_side, d_side)
            return score
        # the defender avoiding the result
        if level == 1:
            score = 2 * _pips(d_side) - _pips(s_side)
        elif level == 2:
            score = 2 * _home_excess(d_side) - _pips(s_side)
        else:
            score = 20 * _in_other_home(d_side) - _pips(s_side)
        return score + 12 * _exposed(d_side, s_side)

    def _w_results(
        self, me: int, opp: int, s_moves: bool, roll: tuple[int, int], sign: int
    ) -> list[tuple[int, int]]:
        """A roll's results (the other side after hits, the mover), the best for the
        witness first (``sign`` -1: the worst first)."""
        blocked, blots = _masks(opp)
        plays = generate(me, blocked, blots, roll[0], roll[1])
        self._charge(len(plays))
        ranked = []
        for nb, hits in plays:
            nopp = _hit(opp, hits) if hits else opp
            s_side, d_side = (nb, nopp) if s_moves else (nopp, nb)
            ranked.append((sign * self._w_score(s_side, d_side), nopp, nb))
        ranked.sort(key=lambda r: r[0])
        return [(o, b) for _, o, b in ranked]

    def _w_option(
        self, key: tuple[int, int, bool], i: int, all_plays: bool, prover_moves: bool
    ) -> tuple[tuple[int, int], list[tuple[int, int]]]:
        """The ``i``-th roll tried at a node, with its results in the order tried;
        kept per node, as the discrepancy rounds come back to the same nodes."""
        me, opp, s_moves = key
        options = self._w_opts.get(key)
        if options is None:
            options = self._w_opts[key] = []
            if all_plays:
                # every play must be answered: the rolls with the fewest plays
                # first (a blocked side has few)
                every = [
                    (roll, self._w_results(me, opp, s_moves, roll, -1))
                    for roll in _ROLLS_SLOW_FIRST
                ]
                every.sort(key=lambda o: len(o[1]))
                options.extend(every)
        else:
            self._charge(1)
        while len(options) <= i:
            rolls = _ROLLS_FAST_FIRST if prover_moves else _ROLLS_SLOW_FIRST
            roll = rolls[len(options)]
            options.append((roll, self._w_results(me, opp, s_moves, roll, 1)))
        return options[i]

    def _w_expand(
        self, key: tuple[int, int, bool], me: int, opp: int, s_moves: bool, depth: int, disc: int
    ) -> bool:
        self._charge(1)
        all_plays = self._w_all_s if s_moves else self._w_all_d
        prover_moves = s_moves == self._w_prove
        for ri in range(21):
            if ri > disc:
                self._w_cut = True
                break
            roll, kids = self._w_option(key, ri, all_plays, prover_moves)
            if all_plays:
                if all(self._w_kid(k, s_moves, depth - 1, disc - ri) for k in kids):
                    first = kids[0]
                    nxt = None if first[1] == 0 else (first[0], first[1], not s_moves)
                    self._w_done.setdefault(key, ("all", roll, len(kids), nxt))
                    return True
                continue
            for pi, (nopp, nb) in enumerate(kids):
                if ri + pi > disc:
                    self._w_cut = True
                    break
                if self._w_kid((nopp, nb), s_moves, depth - 1, disc - ri - pi):
                    nxt = None if nb == 0 else (nopp, nb, not s_moves)
                    self._w_done.setdefault(key, ("some", roll, 1, nxt))
                    return True
        return False

    def _w_kid(self, kid: tuple[int, int], s_moved: bool, depth: int, disc: int) -> bool:
        nopp, nb = kid
        if nb == 0:
            return self._w_terminal(s_moved, nopp)
        return self._w(nopp, nb, not s_moved, depth, disc)

    def _w_describe(self, key: tuple[int, int, bool]) -> str:
        s_name, d_name = self._w_names
        steps: list[str] = []
        end = ""
        cur: tuple[int, int, bool] | None = key
        while cur is not None and len(steps) < 4 * _W_DEPTH:  # the chain is acyclic
            entry = self._w_done[cur]
            if entry[0] == "leaf":
                end = str(entry[1])
                break
            _, roll, n_plays, nxt = entry
            assert isinstance(roll, tuple) and isinstance(n_plays, int)
            who = s_name if cur[2] else d_name
            text = f"{who} rolls {_roll_text(roll)}"
            if entry[0] == "all" and n_plays > 1:
                text += f" (any of its {n_plays} plays)"
            steps.append(text)
            if nxt is None:
                won = s_name if cur[2] else d_name
                end = f"{won} bears off its last checker"
            cur = nxt if isinstance(nxt, tuple) else None
        line = _compress(steps)
        if self._w_prove:
            kind = "a line" if self._reading == "possible" else (
                f"a line that wins against every defence of {d_name}"
            )
            return f"{kind}: {line}; {end}"
        return f"a line where {d_name} avoids it against every play of {s_name}: {line}; {end}"

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


def _question(names: tuple[str, str], side: Side, result: Result, reading: Reading) -> str:
    who = names[0] if side == "on_roll" else names[1]
    what = "winning" if result == "single" else f"winning at least a {result}"
    how = {
        "possible": "possible",
        "against_best_defence": "possible against best defence",
        "certain": "certain",
    }[reading]
    return f"{who} {what} is {how}"


def _inferred(
    table: dict[tuple[Side, Result, Reading], Answer],
    names: tuple[str, str],
    side: Side,
    result: Result,
    reading: Reading,
) -> Answer | None:
    """An answer that follows from answers already known, or None.

    Every "yes" and "no" of the search is a finite proof, so these hold:
    a result implies the smaller ones and a reading the weaker ones;
    ``certain`` for one side is the negation of ``against_best_defence`` for
    the other (a single game: one side wins); if one side cannot win at all,
    the other wins for certain.
    """
    other: Side = "opponent" if side == "on_roll" else "on_roll"
    ri, gi = RESULTS.index(result), READINGS.index(reading)
    for (s2, r2, g2), a in table.items():
        if a.value is None or s2 != side or (r2, g2) == (result, reading):
            continue
        r2i, g2i = RESULTS.index(r2), READINGS.index(g2)
        if (a.value and r2i >= ri and g2i >= gi) or (not a.value and r2i <= ri and g2i <= gi):
            yes = "yes" if a.value else "no"
            return Answer(a.value, f"as {_question(names, s2, r2, g2)} ({yes}): {a.reason}")
    if result != "single":
        return None
    rules: list[tuple[Reading, Reading, bool | None, bool]] = [
        # (this reading, the other side's reading, its value needed (None: any), negate)
        ("certain", "against_best_defence", None, True),
        ("against_best_defence", "certain", None, True),
        ("certain", "possible", False, True),
        ("possible", "certain", False, True),
    ]
    for mine, theirs, needed, negate in rules:
        if reading != mine:
            continue
        dual = table.get((other, "single", theirs))
        if dual is None or dual.value is None or (
            needed is not None and dual.value is not needed
        ):
            continue
        value = not dual.value if negate else dual.value
        yes = "yes" if dual.value else "no"
        return Answer(value, (
            f"as {_question(names, other, 'single', theirs)} ({yes}) and one side wins: "
            f"{dual.reason}"
        ))
    return None


def outcome_table(
    position: Position,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    should_stop: Callable[[], bool] | None = None,
    names: tuple[str, str] = ("the side on roll", "the opponent"),
    known: Mapping[tuple[Side, Result, Reading], Answer] | None = None,
    dice: tuple[int, int] | None = None,
) -> dict[tuple[Side, Result, Reading], Answer]:
    """All 18 answers: each side, each result, each reading.

    ``node_budget`` is shared: each question may use the nodes left divided by
    the questions left, so nodes one question does not need go to the next;
    what is left after a first pass goes to the questions still unknown.
    Answers that follow from others already known (see ``_inferred``) are not
    searched for: the ``possible`` and ``against_best_defence`` questions come
    first, as their "yes" answers are found by short witnesses and settle the
    other side's ``certain``.  ``known``: answers already found (e.g. with a
    larger budget); they are used as they are.  ``dice``: the side on roll has
    already rolled them.
    """
    solver = Solver(position, node_budget=node_budget, should_stop=should_stop, names=names,
                    dice=dice)
    order = [(s, r, g) for g in READINGS for s in SIDES for r in RESULTS]
    remaining = node_budget
    found: dict[tuple[Side, Result, Reading], Answer] = {
        k: a for k, a in (known or {}).items() if a.value is not None
    }

    def settle() -> None:
        changed = True
        while changed:  # answers found late may settle questions left open
            changed = False
            for key in order:
                answer = found.get(key)
                if answer is None or answer.value is None:
                    late = _inferred(found, names, *key)
                    if late is not None:
                        found[key] = late
                        changed = True

    given: dict[tuple[Side, Result, Reading], int] = {}
    for i, (side, result, reading) in enumerate(order):
        known_now = _inferred(found, names, side, result, reading)
        if known_now is not None:
            found[side, result, reading] = known_now
            continue
        if (side, result, reading) in found:
            continue
        share = remaining // (2 * (len(order) - i))  # half: the rest goes to a second pass
        given[side, result, reading] = share
        found[side, result, reading] = solver.answer(side, result, reading, budget=share)
        remaining -= min(solver.nodes_used, share)
    # what is left goes to the questions still open, half of it at a time (an
    # answer often settles others: its dual, the results and readings it implies)
    for key in order:
        settle()
        if found[key].value is not None or remaining < node_budget // 20:
            continue
        share = remaining // 2 if remaining >= node_budget // 5 else remaining
        if 2 * share < 3 * given.get(key, 0):
            continue  # the same search would give up again
        answer = solver.answer(*key, budget=share)
        if answer.value is not None:
            found[key] = answer
        remaining -= min(solver.nodes_used, share)
    settle()
    return {(s, r, g): found[s, r, g] for s in SIDES for r in RESULTS for g in READINGS}


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
