"""Late arrival with no clock in use (Italian rule book; tournament.md section 1).

"1 point added to opponent's score for every 5mn being late, starting from
the moment chosen by the Tournament Director ... As soon as penalty points
amount to more than half of the needed number of points to win the match, the
missing player will be disqualified."

A ``LateArrival`` is a pure fold: the director's choice of ``from_ms``, the
instants at which time is read, and the arrival.  Points fall at
``from_ms + k x 300,000`` for k = 1, 2, ... (the first after the first full
five minutes); a point due at the instant of arrival counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._errors import IllegalContest, InvalidContest

#: Five minutes: one point for the opponent.
POINT_EVERY_MS: Final = 5 * 60_000
#: The director's usual moment: the scheduled start + 20 minutes.
DEFAULT_GRACE_MS: Final = 20 * 60_000
SIDES: Final = ("A", "B")


@dataclass(frozen=True, slots=True, kw_only=True)
class LateState:
    """The match at an instant while (or after) a side was late."""

    at_ms: int
    score: tuple[int, int]
    over: bool
    winner: str | None
    disqualified: str | None
    #: Penalty points the late side has cost so far.
    points: int
    arrived: bool


class LateArrival:
    """One match with ``absent`` sides ("A", "B", or both) late at its start.

    >>> late = LateArrival(length=7, absent=("A",), from_ms=1_200_000)
    >>> late.state(1_500_000).score
    (0, 1)
    """

    def __init__(self, *, length: int, absent: tuple[str, ...], from_ms: int,
                 score: tuple[int, int] = (0, 0)) -> None:
        if not _is_int(length) or not 1 <= length <= 10_000:
            raise InvalidContest("length: must be a whole number of points from 1")
        if not absent or len(set(absent)) != len(absent) or any(s not in SIDES for s in absent):
            raise InvalidContest("absent: must be 'A', 'B' or both")
        if not _is_int(from_ms) or from_ms < 0:
            raise InvalidContest("from_ms: must be a whole number of milliseconds >= 0")
        if len(score) != 2 or not all(_is_int(s) and 0 <= s < length for s in score):
            raise InvalidContest("score: each must be a whole number from 0 to length - 1")
        self.length = length
        self.absent = tuple(absent)
        self.from_ms = from_ms
        self.start_score = (score[0], score[1])
        self.now = 0
        self.arrived_ms: int | None = None

    @property
    def late_side(self) -> str | None:
        """The side whose lateness costs points (none when both are late)."""
        return self.absent[0] if len(self.absent) == 1 else None

    def _limit(self) -> tuple[int, int] | None:
        """(points at which the late side is out, the opponent's index)."""
        late = self.late_side
        if late is None:
            return None
        opponent = 1 - SIDES.index(late)
        needed = self.length - self.start_score[opponent]
        # "more than half of the needed number of points"; reaching the
        # match length ends it too (never later than the half).
        return min(needed // 2 + 1, needed), opponent

    def _points_at(self, t: int) -> int:
        if self.late_side is None or t < self.from_ms:
            return 0
        return (t - self.from_ms) // POINT_EVERY_MS

    def arrive(self, at_ms: int) -> None:
        """The late side (or sides) arrived at ``at_ms``: the count stops there."""
        self._advance(at_ms)
        if self.arrived_ms is not None:
            raise IllegalContest("arrive: the late player has already arrived",
                                 "already_arrived")
        if self.state(at_ms).over:
            return  # already disqualified: the match is over, arriving changes nothing
        self.arrived_ms = at_ms

    def _advance(self, at_ms: int) -> None:
        if not _is_int(at_ms) or at_ms < self.now:
            raise InvalidContest(f"at_ms: time cannot go backwards ({at_ms} < {self.now})")
        self.now = at_ms

    def state(self, at_ms: int | None = None) -> LateState:
        """The match at ``at_ms`` (default: the last instant read)."""
        if at_ms is not None:
            self._advance(at_ms)
        t = self.now if self.arrived_ms is None else min(self.now, self.arrived_ms)
        points = self._points_at(t)
        score = list(self.start_score)
        over = False
        winner = disqualified = None
        limit = self._limit()
        if limit is not None:
            out_at, opponent = limit
            if points >= out_at:
                points = out_at
                over = True
                winner = SIDES[opponent]
                disqualified = SIDES[1 - opponent]
            score[opponent] += points
        return LateState(at_ms=self.now, score=(score[0], score[1]), over=over, winner=winner,
                         disqualified=disqualified, points=points,
                         arrived=self.arrived_ms is not None)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
