"""The draw: the Main and its Progressive Consolation (tournament.md section 4).

"The board of the Main will be drawn randomly. Byes of the Progressive
Consolation will be drawn if possible first among players without a bye in
the Main. On the tournament board, late arrivals will be assigned in
numerical order: the tournament director will decide how many late arrivals
to keep available and how long."

Theory of operation
-------------------
A bracket of size S (a power of 2) has S first-round slots; match i of round 1
is slots 2i and 2i+1, and match i of round r+1 takes the winners of matches
2i and 2i+1 of round r.  The draw places the *non-players* first: one per
first-round match at most, spread by halving — at every node of the bracket
the two halves get counts differing by at most one, for the non-players as a
whole and for the byes among them (so the late-arrival slots are spread too).
Then the registered players fill the other slots in a random order.  All
randomness comes from one ``random.Random`` passed in: the same seed gives the
same draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ._errors import IllegalContest, InvalidContest

MAX_PLAYERS: Final = 4096

#: What a first-round slot holds before names are known.
BYE: Final = "bye"
LATE: Final = "late"


def bracket_size(n: int) -> int:
    """The smallest power of 2 holding ``n`` entries (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def spread(rng: random.Random, matches: int, non_players: int, byes: int) -> list[str | None]:
    """Which first-round matches get a non-player, and which of those are
    byes: a list over matches of BYE, LATE or None, halves differing by at
    most one at every level for both counts."""
    if not 0 <= byes <= non_players <= matches:
        raise ValueError("cannot spread more non-players than matches")
    if matches == 1:
        if non_players == 0:
            return [None]
        return [BYE if byes else LATE]
    half = matches // 2
    e_hi, e_lo = (non_players + 1) // 2, non_players // 2
    b_hi, b_lo = (byes + 1) // 2, byes // 2
    if non_players % 2 == 0 and byes % 2 == 1 and rng.random() < 0.5:
        # equal halves of non-players: the extra bye may go either way
        left = spread(rng, half, e_lo, b_lo)
        right = spread(rng, half, e_hi, b_hi)
        return left + right
    first_gets_extra = rng.random() < 0.5
    big = spread(rng, half, e_hi, b_hi)
    small = spread(rng, half, e_lo, b_lo)
    return big + small if first_gets_extra else small + big


@dataclass(slots=True, kw_only=True)
class Match:
    """One match of a bracket: ``a``/``b`` are names, or None for a bye (or a
    slot not yet known); ``winner`` once decided."""

    a: str | None = None
    b: str | None = None
    winner: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"a": self.a, "b": self.b, "winner": self.winner}


@dataclass(slots=True, kw_only=True)
class Bracket:
    """A single-elimination bracket: rounds of matches in bracket order."""

    size: int
    rounds: list[list[Match]] = field(default_factory=list)

    @classmethod
    def empty(cls, size: int) -> Bracket:
        rounds = []
        n = size // 2
        while n >= 1:
            rounds.append([Match() for _ in range(n)])
            n //= 2
        return cls(size=size, rounds=rounds)

    def slots(self) -> list[str | None]:
        return [x for m in self.rounds[0] for x in (m.a, m.b)] if self.rounds else []

    def advance_byes(self) -> None:
        """A bye moves its player on at once."""
        for i, m in enumerate(self.rounds[0] if self.rounds else []):
            if m.winner is None and (m.a is None) != (m.b is None):
                self.set_winner(0, i, m.a or m.b)

    def set_winner(self, round_index: int, match_index: int, winner: str | None) -> None:
        m = self.rounds[round_index][match_index]
        if winner is None or winner not in (m.a, m.b):
            raise IllegalContest(f"winner: must be {m.a} or {m.b}")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner")
        m.winner = winner
        if round_index + 1 < len(self.rounds):
            nxt = self.rounds[round_index + 1][match_index // 2]
            if match_index % 2 == 0:
                nxt.a = winner
            else:
                nxt.b = winner

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def to_dict(self) -> dict[str, object]:
        return {"size": self.size,
                "rounds": [[m.to_dict() for m in r] for r in self.rounds]}


class MainDraw:
    """The Main: N registered players and K late-arrival slots."""

    def __init__(self, players: Sequence[str], *, late_slots: int,
                 rng: random.Random) -> None:
        names = list(players)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise InvalidContest(f"players: from 1 to {MAX_PLAYERS}")
        if len(set(names)) != len(names):
            raise InvalidContest("players: names must be different")
        if not isinstance(late_slots, int) or late_slots < 0:
            raise InvalidContest("late: must be a whole number >= 0")
        size = bracket_size(len(names) + late_slots)
        if len(names) * 2 < size:
            raise InvalidContest(
                f"late: {late_slots} late-arrival slots leave {len(names)} registered "
                f"players less than half of a bracket of {size}: a bye or a late slot "
                "would face another")
        self.bracket = Bracket.empty(size)
        kinds = spread(rng, size // 2, size - len(names), size - len(names) - late_slots)
        order = names[:]
        rng.shuffle(order)
        slots: list[str | None] = []
        self.late_positions: list[int] = []
        self.bye_positions: list[int] = []
        for i, kind in enumerate(kinds):
            pair: list[str | None]
            if kind is None:
                pair = [order.pop(), order.pop()]
            else:
                pair = [order.pop(), None]
                if rng.random() < 0.5:
                    pair.reverse()
                empty = 2 * i + pair.index(None)
                (self.late_positions if kind == LATE else self.bye_positions).append(empty)
            slots.extend(pair)
        for i, m in enumerate(self.bracket.rounds[0]):
            m.a, m.b = slots[2 * i], slots[2 * i + 1]
        self.arrivals: list[str] = []
        self.late_open = late_slots > 0
        if not self.late_open:
            self.bracket.advance_byes()

    @property
    def size(self) -> int:
        return self.bracket.size

    def arrive(self, name: str) -> int:
        """A late arrival takes the next late slot in numerical order; its
        0-based first-round position."""
        if not self.late_open:
            raise IllegalContest("late arrivals are closed")
        if name in self.bracket.slots() or name in self.arrivals:
            raise InvalidContest(f"{name} is already in the draw")
        n = len(self.arrivals)
        if n >= len(self.late_positions):
            raise IllegalContest("every late-arrival slot is taken")
        position = self.late_positions[n]
        m = self.bracket.rounds[0][position // 2]
        if position % 2 == 0:
            m.a = name
        else:
            m.b = name
        self.arrivals.append(name)
        return position

    def close_late(self) -> None:
        """The late slots left become byes; their players move on."""
        self.late_open = False
        self.bracket.advance_byes()

    def had_bye(self, name: str) -> bool:
        m = next((m for m in self.bracket.rounds[0] if name in (m.a, m.b)), None)
        return m is not None and (m.a is None or m.b is None)


def first_match_losers(main: MainDraw) -> list[str] | None:
    """The consolation's entrants: every player whose first *played* Main
    match is a loss; None while one of them is not known yet."""
    rounds = main.bracket.rounds
    losers: list[str] = []
    first_played: dict[str, tuple[int, Match]] = {}
    for r, matches in enumerate(rounds):
        for m in matches:
            if m.a is None or m.b is None:
                if r > 0:
                    return None  # a slot of a later round is not known yet
                continue
            for name in (m.a, m.b):
                first_played.setdefault(name, (r, m))
    players = [x for x in main.bracket.slots() if x is not None]
    for name in players:
        if name not in first_played:
            if main.bracket.champion == name:
                continue
            return None
        _, m = first_played[name]
        if m.winner is None:
            return None
        if m.winner != name:
            losers.append(name)
    return losers


class ConsolationDraw:
    """The Progressive Consolation of the Main's first-match losers: its
    byes go first to entrants who had no bye in the Main."""

    def __init__(self, main: MainDraw, entrants: Sequence[str], rng: random.Random) -> None:
        names = list(entrants)
        size = bracket_size(len(names)) if len(names) > 1 else 1
        self.bracket = Bracket.empty(size) if size > 1 else Bracket(size=size, rounds=[])
        if size == 1:
            self.bracket.rounds = []
            self.only = names[0] if names else None
            return
        self.only = None
        byes = size - len(names)
        kinds = spread(rng, size // 2, byes, byes)
        without = [n for n in names if not main.had_bye(n)]
        with_bye = [n for n in names if main.had_bye(n)]
        rng.shuffle(without)
        rng.shuffle(with_bye)
        first_in_line = without + with_bye  # the byes go to these first
        bye_takers = first_in_line[:byes]
        rest = first_in_line[byes:]
        rng.shuffle(rest)
        for i, kind in enumerate(kinds):
            m = self.bracket.rounds[0][i]
            if kind is None:
                m.a, m.b = rest.pop(), rest.pop()
            else:
                pair = [bye_takers.pop(), None]
                if rng.random() < 0.5:
                    pair.reverse()
                m.a, m.b = pair
        self.bracket.advance_byes()


def simulate(players: int, *, seed: int, late: int = 0, arrivals: int = 0,
             consolation: bool = False) -> dict[str, object]:
    """``bgclock draw simulate``: draw a Main for P1..PN with ``late`` slots,
    fill ``arrivals`` of them with L1..LJ, close late arrivals, and play every
    match with a winner drawn from the seed (tournament.md, bgclock draw)."""
    if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise InvalidContest(f"players: must be a whole number from 1 to {MAX_PLAYERS}")
    if not isinstance(late, int) or not 0 <= late <= MAX_PLAYERS:
        raise InvalidContest(f"late: must be a whole number from 0 to {MAX_PLAYERS}")
    if not isinstance(arrivals, int) or not 0 <= arrivals <= late:
        raise InvalidContest("arrivals: must be a whole number from 0 to --late")
    rng = random.Random(seed)
    main = MainDraw([f"P{i}" for i in range(1, players + 1)], late_slots=late, rng=rng)
    late_slots = list(main.late_positions)
    for j in range(1, arrivals + 1):
        main.arrive(f"L{j}")
    main.close_late()
    cons: ConsolationDraw | None = None
    rounds = main.bracket.rounds
    for r, matches in enumerate(rounds):
        for i, m in enumerate(matches):
            if m.winner is None:
                main.bracket.set_winner(r, i, rng.choice([m.a, m.b]))
        if consolation and cons is None:
            entrants = first_match_losers(main)
            if entrants is not None:
                cons = ConsolationDraw(main, entrants, rng)
    out: dict[str, object] = {"main": {"size": main.size, "late_slots": late_slots,
                                       "rounds": main.bracket.to_dict()["rounds"]}}
    if consolation:
        if cons is None:  # only when nobody played a match (a single player)
            cons = ConsolationDraw(main, [], rng)
        for r, matches in enumerate(cons.bracket.rounds):
            for i, m in enumerate(matches):
                if m.winner is None:
                    cons.bracket.set_winner(r, i, rng.choice([m.a, m.b]))
        out["consolation"] = cons.bracket.to_dict()
    return out
