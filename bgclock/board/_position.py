"""A backgammon position, seen from the side on roll.

Each side's checkers are a 25-tuple counted from that side's own bear-off:
index ``i`` (0..23) is that side's point ``i + 1`` and index 24 is its bar.
Checkers not on the board are borne off (15 minus the sum).  The side on roll
is always ``on_roll``; after a play the two tuples swap (``swapped``).

A side's point ``p`` is the other side's point ``25 - p``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CHECKERS: Final = 15
POINTS: Final = 24
BAR: Final = 24  # index of the bar in a side's tuple


class BoardError(ValueError):
    """Base class of every error raised by ``bgclock.board``."""


class InvalidPosition(BoardError):
    """The checkers do not make a legal backgammon position."""


class InvalidId(BoardError):
    """A Position ID, Match ID or XGID that cannot be read."""


def _check_side(name: str, side: tuple[int, ...]) -> None:
    if len(side) != POINTS + 1:
        raise InvalidPosition(
            f"{name}: expected 25 counts (24 points and the bar), got {len(side)}"
        )
    for i, n in enumerate(side):
        if not isinstance(n, int) or n < 0:
            where = "the bar" if i == BAR else f"point {i + 1}"
            raise InvalidPosition(f"{name}: {n!r} checkers on {where}")
    total = sum(side)
    if total > CHECKERS:
        raise InvalidPosition(f"{name} has {total} checkers on the board; a side has 15")


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """Checkers of both sides, the side on roll first.

    ``on_roll[i]`` / ``opponent[i]``: checkers on that side's own point ``i + 1``
    (``i`` in 0..23); index 24 is the bar.  Borne-off checkers are implied.

    >>> p = Position.initial()
    >>> p.pip_counts()
    (167, 167)
    >>> p.has_contact()
    True
    """

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_side("the side on roll", self.on_roll)
        _check_side("the opponent", self.opponent)
        for i in range(POINTS):
            if self.on_roll[i] and self.opponent[POINTS - 1 - i]:
                raise InvalidPosition(
                    f"point {i + 1} of the side on roll holds checkers of both sides"
                )
        if sum(self.on_roll) == 0 and sum(self.opponent) == 0:
            raise InvalidPosition("both sides have borne off all their checkers")

    # -- construction -------------------------------------------------------
    @classmethod
    def _trusted(cls, on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """Build without validation: for results of legal plays only."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "on_roll", on_roll)
        object.__setattr__(pos, "opponent", opponent)
        return pos

    @classmethod
    def initial(cls) -> Position:
        """The starting position."""
        side = [0] * 25
        side[5], side[7], side[12], side[23] = 5, 3, 5, 2
        return cls(on_roll=tuple(side), opponent=tuple(side))

    @classmethod
    def from_points(
        cls, on_roll: dict[int, int], opponent: dict[int, int]
    ) -> Position:
        """Build from ``{point: count}`` maps, each in its side's own numbering.

        Point 25 is the bar; absent points are empty.

        >>> Position.from_points({1: 2}, {6: 1}).borne_off
        (13, 14)
        """
        def side(m: dict[int, int]) -> tuple[int, ...]:
            counts = [0] * 25
            for point, n in m.items():
                if not 1 <= point <= 25:
                    raise InvalidPosition(f"no point {point}: points are 1..24, 25 is the bar")
                counts[point - 1] += n
            return tuple(counts)

        return cls(on_roll=side(on_roll), opponent=side(opponent))

    # -- queries --------------------------------------------------------------
    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (side on roll, opponent)."""
        return CHECKERS - sum(self.on_roll), CHECKERS - sum(self.opponent)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side needs to bear off: (side on roll, opponent)."""
        return (
            sum((i + 1) * n for i, n in enumerate(self.on_roll)),
            sum((i + 1) * n for i, n in enumerate(self.opponent)),
        )

    def has_contact(self) -> bool:
        """True while some checker still has to pass an opposing checker."""
        back = _furthest_back(self.on_roll)
        other = _furthest_back(self.opponent)
        return back > 0 and other > 0 and back + other >= 25

    @property
    def winner(self) -> str | None:
        """``"on_roll"`` or ``"opponent"`` once a side has borne off all, else None."""
        if sum(self.on_roll) == 0:
            return "on_roll"
        if sum(self.opponent) == 0:
            return "opponent"
        return None

    def swapped(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position(on_roll=self.opponent, opponent=self.on_roll)

    def __str__(self) -> str:
        def fmt(side: tuple[int, ...]) -> str:
            parts = [f"{i + 1}:{n}" for i, n in enumerate(side[:POINTS]) if n]
            if side[BAR]:
                parts.append(f"bar:{side[BAR]}")
            off = CHECKERS - sum(side)
            if off:
                parts.append(f"off:{off}")
            return " ".join(parts) or "-"

        return f"on roll [{fmt(self.on_roll)}] / opponent [{fmt(self.opponent)}]"


def _furthest_back(side: tuple[int, ...]) -> int:
    """The side's rearmost checker's point (25 for the bar), 0 if none left."""
    for i in range(POINTS, -1, -1):
        if side[i]:
            return i + 1
    return 0
