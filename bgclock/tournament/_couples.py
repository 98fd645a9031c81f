"""Couples (Italian rule book; tournament.md section 3).

"Each encounter between couples takes place in three phases: 1. Player 1 of
couple A plays against player 2 of couple B; at the same time player 2 of
couple A plays against player 1 of couple B; 2. Couple A plays against couple
B exactly as in a 'double consultation'; 3. Player 1 of couple A plays
against player 1 of couple B and at the same time player 2 of couple A plays
against player 2 of couple B."

Reading (tournament.md): each of the five matches counts one; the couple with
three wins wins the encounter, decided as soon as one has three; matches
still unplayed are then not scheduled unless the director asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ._errors import IllegalContest, InvalidContest

WINS_NEEDED: Final = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Couple:
    name: str
    players: tuple[str, str]


def schedule(a: Couple, b: Couple) -> list[list[tuple[str, str]]]:
    """The three phases' pairings, fixed by the rule book (player of couple A
    first): [[A1-B2, A2-B1], [A-B], [A1-B1, A2-B2]]."""
    (a1, a2), (b1, b2) = a.players, b.players
    return [[(a1, b2), (a2, b1)], [(a.name, b.name)], [(a1, b1), (a2, b2)]]


class Encounter:
    """One encounter between two couples: a fold over its matches' winners."""

    def __init__(self, a: Couple, b: Couple) -> None:
        names = [a.name, b.name, *a.players, *b.players]
        if any(not isinstance(n, str) or not n.strip() or len(n) > 100 for n in names):
            raise InvalidContest("couples: names must be 1-100 characters")
        if len(set(names)) != len(names):
            raise InvalidContest("couples: every couple and player name must be different")
        self.a, self.b = a, b
        self.phases = schedule(a, b)
        #: Winners (player or couple names) of the matches played, per phase.
        self.results: list[list[str]] = [[], [], []]
        self.decided_after_phase: int | None = None

    def _couple_of(self, phase: int, winner: str) -> str:
        if phase == 1:
            return winner
        return self.a.name if winner in self.a.players else self.b.name

    @property
    def wins(self) -> dict[str, int]:
        out = {self.a.name: 0, self.b.name: 0}
        for phase, winners in enumerate(self.results):
            for w in winners:
                out[self._couple_of(phase, w)] += 1
        return out

    @property
    def winner(self) -> str | None:
        for name, n in self.wins.items():
            if n >= WINS_NEEDED:
                return name
        return None

    def next_match(self) -> tuple[int, int] | None:
        """(phase, match) of the next match to play, or None when the
        encounter is decided or complete."""
        if self.winner is not None:
            return None
        for phase, pairs in enumerate(self.phases):
            if len(self.results[phase]) < len(pairs):
                return phase, len(self.results[phase])
        return None

    def scheduled(self) -> list[list[tuple[str, str]]]:
        """The pairings scheduled so far: every phase up to the one in which
        the encounter was decided (all three while undecided)."""
        last = 3 if self.decided_after_phase is None else self.decided_after_phase
        last = max(last, max((i + 1 for i, r in enumerate(self.results) if r), default=0))
        return self.phases[:last]

    def record(self, phase: int, winner: str, *, director_asked: bool = False) -> None:
        """The next match of ``phase`` (0-based) was won by ``winner``."""
        if not 0 <= phase < 3:
            raise InvalidContest("phase: must be 1, 2 or 3")
        pairs = self.phases[phase]
        done = self.results[phase]
        if len(done) >= len(pairs):
            raise InvalidContest(f"phase {phase + 1} has only {len(pairs)} match(es)")
        earlier = [i for i in range(phase) if len(self.results[i]) < len(self.phases[i])]
        if earlier and self.winner is None:
            raise IllegalContest(f"phase {phase + 1} cannot start before phase "
                                 f"{earlier[0] + 1} is complete", "phase_order",
                                 {"phase": phase + 1, "before": earlier[0] + 1})
        if self.winner is not None and not director_asked:
            raise IllegalContest("the encounter is decided: the director must ask for "
                                 "the remaining matches", "encounter_decided")
        pair = pairs[len(done)]
        if winner not in pair:
            raise InvalidContest(f"winner: must be {pair[0]} or {pair[1]}")
        was_decided = self.winner is not None
        done.append(winner)
        if not was_decided and self.winner is not None:
            self.decided_after_phase = phase + 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """One couple's line in the standings; couples still tied share ``place``."""

    place: int
    couple: str
    encounters: int
    matches: int
    points: int


def standings(encounters: Sequence[Encounter],
              points: dict[tuple[int, str], int] | None = None) -> list[Standing]:
    """Couples ranked by encounters won; then, between exactly two couples
    tied on encounters who met, the encounter(s) between them; then matches
    won; then points difference (``points`` maps (encounter index, couple) to
    its points difference, when the director keeps it).

    **Reading** (tournament.md section 3): couples still tied share the place
    (the same ``place``, the next place skipped: 1, 2, 2, 4), never an order by
    name; among them the lines keep the order the couples first appear in.
    """
    rows: dict[str, list[int]] = {}
    won_against: dict[tuple[str, str], int] = {}
    met: set[frozenset[str]] = set()
    for i, e in enumerate(encounters):
        wins = e.wins
        for name in (e.a.name, e.b.name):
            row = rows.setdefault(name, [0, 0, 0])
            row[1] += wins[name]
            row[2] += (points or {}).get((i, name), 0)
        if e.winner is not None:
            rows[e.winner][0] += 1
            loser = e.b.name if e.winner == e.a.name else e.a.name
            won_against[(e.winner, loser)] = won_against.get((e.winner, loser), 0) + 1
            met.add(frozenset((e.a.name, e.b.name)))
    order = list(rows)  # first appearance: the tie's display order, not a rank
    by_encounters: dict[int, list[str]] = {}
    for name in order:
        by_encounters.setdefault(rows[name][0], []).append(name)
    # Each block: couples whose place is decided by matches and points only.
    blocks: list[list[str]] = []
    for enc in sorted(by_encounters, reverse=True):
        group = by_encounters[enc]
        if len(group) == 2 and frozenset(group) in met:
            x, y = group
            xy, yx = won_against.get((x, y), 0), won_against.get((y, x), 0)
            if xy != yx:
                blocks += [[x], [y]] if xy > yx else [[y], [x]]
                continue
        blocks.append(group)
    out: list[Standing] = []
    for block in blocks:
        key = {n: (rows[n][1], rows[n][2]) for n in block}
        ranked = sorted(block, key=lambda n: (-key[n][0], -key[n][1]))
        first = len(out) + 1
        for k, name in enumerate(ranked):
            place = first + k
            if k and key[name] == key[ranked[k - 1]]:
                place = out[-1].place
            r = rows[name]
            out.append(Standing(place=place, couple=name, encounters=r[0], matches=r[1],
                                points=r[2]))
    return out
