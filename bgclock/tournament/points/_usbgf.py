"""USBGF master points (2019), as data and two formulas (issue 36 §4).

Source: usbgf.org, "How USBGF Master Points are Calculated" (2019), as the
issue quotes it:

> Match Win points = event weight × division weight × √(match length) / 3
> per match won; Placement points = event weight × division weight × 0.6 ×
> log2(players) × rank factor (1, 0.7, 0.5, 0.333, 0.25, 0.2, then
> 1/(R − 1)), tied players splitting the points of the ranks they share;
> division weights 1.0 / 0.7 / 0.5.

Readings: the rank factors of ranks 1 to 6 are the published figures as
printed (0.333 for the 4th, not 1/3); from the 7th, 1/(R − 1).  Players who
share ranks R..S each get the mean of those ranks' factors.  The event
weight is the federation's figure for the event (not in the text at hand:
an input, 1 by default).  Points are not money: they are floats, summed
unrounded and rounded half up to 2 decimals only where they are shown
(``rounded``).  The ABT's points are left out: their published text is not
at hand to pin them down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final

from .._errors import InvalidContest
from ..money import whole

SOURCE: Final = 'usbgf.org, "How USBGF Master Points are Calculated" (2019)'
#: Division weights, in the published order (1.0 / 0.7 / 0.5).
DIVISION_WEIGHTS: Final[dict[str, float]] = {"open": 1.0, "intermediate": 0.7, "novice": 0.5}
#: Rank factors of ranks 1..6 as published; from rank 7 on, 1/(R − 1).
RANK_FACTORS: Final = (1.0, 0.7, 0.5, 0.333, 0.25, 0.2)
#: Bounds: players of one division, a match's length, an event weight.
MAX_PLAYERS: Final = 100_000
MAX_LENGTH: Final = 99
MAX_EVENT_WEIGHT: Final = 100.0


def rank_factor(rank: int) -> float:
    """The factor of a rank: 1, 0.7, 0.5, 0.333, 0.25, 0.2, then 1/(R − 1).

    >>> [rank_factor(r) for r in (1, 4, 7)]
    [1.0, 0.333, 0.16666666666666666]
    """
    rank = whole(rank, "rank", 1, MAX_PLAYERS)
    return RANK_FACTORS[rank - 1] if rank <= len(RANK_FACTORS) else 1 / (rank - 1)


def _weight(event_weight: float, division: str) -> float:
    if division not in DIVISION_WEIGHTS:
        raise InvalidContest(f"division: must be one of {', '.join(DIVISION_WEIGHTS)}")
    if (isinstance(event_weight, bool) or not isinstance(event_weight, int | float)
            or not 0 < event_weight <= MAX_EVENT_WEIGHT):
        raise InvalidContest(f"event_weight: must be a number above 0 and at most "
                             f"{MAX_EVENT_WEIGHT:g}")
    return float(event_weight) * DIVISION_WEIGHTS[division]


def match_win_points(length: int, *, event_weight: float = 1.0,
                     division: str = "open") -> float:
    """The points of one match won to ``length``: EW × DW × √length / 3.

    >>> round(match_win_points(9), 4)
    1.0
    """
    length = whole(length, "length", 1, MAX_LENGTH)
    return _weight(event_weight, division) * math.sqrt(length) / 3


def placement_points(players: int, first: int, last: int | None = None, *,
                     event_weight: float = 1.0, division: str = "open") -> float:
    """The placement points of one player placed ``first`` (or sharing ranks
    ``first``..``last`` with the others placed there) among ``players``:
    EW × DW × 0.6 × log2(players) × the mean rank factor of those ranks.

    >>> round(placement_points(16, 1), 4)
    2.4
    """
    players = whole(players, "players", 2, MAX_PLAYERS)
    first = whole(first, "rank", 1, players)
    last = first if last is None else whole(last, "rank", first, players)
    mean = math.fsum(rank_factor(r) for r in range(first, last + 1)) / (last - first + 1)
    return _weight(event_weight, division) * 0.6 * math.log2(players) * mean


def rounded(points: float) -> float:
    """Points as shown: half up to 2 decimals (of the float's shortest
    decimal text, so 0.125 shows as 0.13).

    >>> rounded(0.125), rounded(2.675)
    (0.13, 2.68)
    """
    return float(Decimal(repr(points)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@dataclass(frozen=True, slots=True, kw_only=True)
class Finisher:
    """A player's record in one division: the lengths of the matches won,
    and the ranks held (``first``..``last``: shared when they differ)."""

    name: str
    won: tuple[int, ...]
    first: int
    last: int | None = None


def master_points(players: int, finishers: Sequence[Finisher], *, event_weight: float = 1.0,
                  division: str = "open") -> list[dict[str, Any]]:
    """Each finisher's master points: ``[{"name", "match_win", "placement",
    "total"}]`` (rounded for showing; the total is the unrounded sum
    rounded), in the order given."""
    out: list[dict[str, Any]] = []
    for f in finishers:
        wins = math.fsum(match_win_points(n, event_weight=event_weight, division=division)
                         for n in f.won)
        place = placement_points(players, f.first, f.last, event_weight=event_weight,
                                 division=division)
        out.append({"name": f.name, "match_win": rounded(wins), "placement": rounded(place),
                    "total": rounded(wins + place)})
    return out
