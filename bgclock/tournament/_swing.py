"""Swing (Italian rule book; tournament.md section 2).

"all players start with an equal amount of Victory Points (VP) and continue
to play until one player remains who accumulated all the VP ... each game
will start with an initial stake as set in the current tournament CPP (Chips
Per Point) ... if one of the players has less VP than the set CPP, the
initial stake would be his VP: the player would be 'All-in'; the CPP will be
raised at the end of every game."

Readings (tournament.md): the CPP steps up after each *round* (several tables
play at once); past the director's list it keeps rising by the list's last
step (``[c]`` means c, 2c, 3c, ...).  A game between stacks V_a and V_b at
CPP c has stake ``s = min(c, V_a, V_b)``, is all-in when ``min(V_a, V_b) < c``,
and moves ``min(points x cube x s, min(V_a, V_b))`` VP: nobody wins more than
the smaller stack, so nobody goes below 0 and VP are conserved.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ._errors import IllegalContest, InvalidContest

RESULTS: Final = {"single": 1, "gammon": 2, "backgammon": 3}
MAX_PLAYERS: Final = 4096
MAX_VP: Final = 10**12


def cpp_for_round(schedule: Sequence[int], round_no: int) -> int:
    """The CPP of round ``round_no`` (1-based) from the director's list.

    >>> [cpp_for_round([100], r) for r in (1, 2, 3)]
    [100, 200, 300]
    >>> [cpp_for_round([100, 250], r) for r in (1, 2, 3, 4)]
    [100, 250, 400, 550]
    """
    if round_no <= len(schedule):
        return schedule[round_no - 1]
    step = schedule[-1] - schedule[-2] if len(schedule) >= 2 else schedule[0]
    return max(1, schedule[-1] + (round_no - len(schedule)) * step)


def swing_game_result(points: int, cube: int, *, lost_on_time: bool) -> tuple[str, int]:
    """(single/gammon/backgammon, cube) of a Swing game played as a 1-point
    match on a clock: ``points`` the winner scored, ``cube`` the cube's value
    at the end.

    **Reading** (docs/tournament.md, Swing 2): a game lost on time is a
    *single* game at the cube's value when the time ran out (a double not yet
    taken does not count): the loser forfeits the stake it had accepted, and
    no gammon can be proven.  Penalty points an expiry gives (ABA standard)
    are not a gammon either.

    >>> swing_game_result(4, 2, lost_on_time=False)
    ('gammon', 2)
    >>> swing_game_result(0, 4, lost_on_time=True)
    ('single', 4)
    >>> swing_game_result(2, 1, lost_on_time=True)
    ('single', 1)
    """
    cube = cube if _is_int(cube) and 1 <= cube <= 4096 and not cube & (cube - 1) else 1
    if lost_on_time:
        return "single", cube
    points = max(1, points)
    if points % cube == 0 and points // cube in (1, 2, 3):
        return ("single", "gammon", "backgammon")[points // cube - 1], cube
    if points % 3 == 0:
        return "backgammon", _pow2(points // 3)
    return "single", _pow2(points)


def _pow2(n: int) -> int:
    p = 1
    while p * 2 <= min(n, 4096):
        p *= 2
    return p


@dataclass(frozen=True, slots=True, kw_only=True)
class SwingGame:
    """One single game of a round: ``winner`` (a or b) won ``result`` on ``cube``."""

    a: str
    b: str
    winner: str
    result: str = "single"
    cube: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOutcome:
    """What one game moved."""

    game: SwingGame
    stake: int
    all_in: bool
    vp_moved: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOutcome:
    round_no: int
    cpp: int
    games: tuple[GameOutcome, ...]
    sat_out: tuple[str, ...]

    @property
    def all_in(self) -> list[int]:
        """The indexes of the round's all-in games."""
        return [i for i, g in enumerate(self.games) if g.all_in]


class Swing:
    """A Swing contest: a fold over rounds of single games."""

    def __init__(self, players: Sequence[str], *, start_vp: int,
                 cpp: Sequence[int]) -> None:
        names = list(players)
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise InvalidContest(f"players: from 2 to {MAX_PLAYERS} players")
        if any(not isinstance(n, str) or not n.strip() or len(n) > 100 for n in names):
            raise InvalidContest("players: each must be a name of 1-100 characters")
        if len(set(names)) != len(names):
            raise InvalidContest("players: names must be different")
        if not _is_int(start_vp) or not 1 <= start_vp <= MAX_VP:
            raise InvalidContest(f"start_vp: must be a whole number from 1 to {MAX_VP}")
        if not cpp or len(cpp) > 1000 or any(not _is_int(c) or not 1 <= c <= MAX_VP for c in cpp):
            raise InvalidContest("cpp: must be a list of whole numbers >= 1")
        for i in range(1, len(cpp)):
            if cpp[i] <= cpp[i - 1]:
                # "the CPP will be raised at the end of every game": every step rises
                raise InvalidContest(f"cpp[{i}]: must be above cpp[{i - 1}] ({cpp[i - 1]}): "
                                     "the CPP is raised every round")
        self.players = tuple(names)
        self.cpp_schedule = tuple(cpp)
        self.vp: dict[str, int] = {n: start_vp for n in names}
        self.rounds: list[RoundOutcome] = []
        #: How many times each player sat a round out.
        self.sat_out: dict[str, int] = {n: 0 for n in names}

    # ----------------------------------------------------------- reading

    @property
    def round_no(self) -> int:
        """The next round's number (1-based)."""
        return len(self.rounds) + 1

    @property
    def cpp(self) -> int:
        """The CPP of the next round."""
        return cpp_for_round(self.cpp_schedule, self.round_no)

    def active(self) -> list[str]:
        """Players still holding VP, in registration order."""
        return [n for n in self.players if self.vp[n] > 0]

    def out(self) -> list[str]:
        return [n for n in self.players if self.vp[n] == 0]

    @property
    def winner(self) -> str | None:
        active = self.active()
        return active[0] if len(active) == 1 else None

    def stake(self, a: str, b: str, cpp: int | None = None) -> tuple[int, bool]:
        """(stake per point, all-in) for a game between ``a`` and ``b`` now."""
        c = self.cpp if cpp is None else cpp
        smaller = min(self.vp[a], self.vp[b])
        return min(c, smaller), smaller < c

    # ----------------------------------------------------------- pairing

    def pair(self, rng: random.Random) -> tuple[list[tuple[str, str]], str | None]:
        """A random pairing of the active players for the next round and the
        one who sits out (odd count): nobody sits out twice before every
        active player has sat out once."""
        active = self.active()
        if len(active) < 2:
            raise IllegalContest("pair: the contest is over", "swing_finished")
        order = active[:]
        rng.shuffle(order)
        sitting = None
        if len(order) % 2:
            fewest = min(self.sat_out[n] for n in order)
            candidates = [n for n in order if self.sat_out[n] == fewest]
            sitting = rng.choice(candidates)
            order.remove(sitting)
        return [(order[i], order[i + 1]) for i in range(0, len(order), 2)], sitting

    # ----------------------------------------------------------- playing

    def play_round(self, games: Sequence[SwingGame]) -> RoundOutcome:
        """Apply one round's games (each active player at most once); the
        stakes come from the stacks at the round's start."""
        if self.winner is not None:
            raise IllegalContest("the contest is over: one player holds every VP",
                                 "swing_finished")
        seen: set[str] = set()
        for i, g in enumerate(games):
            where = f"games[{i}]"
            for name in (g.a, g.b):
                if name not in self.vp:
                    raise InvalidContest(f"{where}: unknown player {name!r}")
                if self.vp[name] == 0:
                    raise InvalidContest(f"{where}: {name} has no VP left and is out")
                if name in seen:
                    raise InvalidContest(f"{where}: {name} plays twice in one round")
                seen.add(name)
            if g.a == g.b:
                raise InvalidContest(f"{where}: a player cannot play itself")
            if g.winner not in (g.a, g.b):
                raise InvalidContest(f"{where}.winner: must be {g.a} or {g.b}")
            if g.result not in RESULTS:
                raise InvalidContest(f"{where}.result: must be single, gammon or backgammon")
            if not _is_int(g.cube) or g.cube < 1 or g.cube > 2**12 or g.cube & (g.cube - 1):
                raise InvalidContest(f"{where}.cube: must be 1, 2, 4, ... (at most 4096)")
        cpp = self.cpp
        outcomes = []
        start = dict(self.vp)
        for g in games:
            smaller = min(start[g.a], start[g.b])
            stake = min(cpp, smaller)
            moved = min(RESULTS[g.result] * g.cube * stake, smaller)
            loser = g.b if g.winner == g.a else g.a
            self.vp[g.winner] += moved
            self.vp[loser] -= moved
            outcomes.append(GameOutcome(game=g, stake=stake, all_in=smaller < cpp,
                                        vp_moved=moved))
        sat_out = tuple(n for n in self.players if start[n] > 0 and n not in seen)
        for n in sat_out:
            self.sat_out[n] += 1
        outcome = RoundOutcome(round_no=self.round_no, cpp=cpp, games=tuple(outcomes),
                               sat_out=sat_out)
        self.rounds.append(outcome)
        return outcome


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
