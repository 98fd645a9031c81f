"""Breaks in a match played without a clock (Italian rule book; issue 38 §3).

"In all 13 point matches or more, each player is allowed to take two breaks
of 10mn duration each. For shorter matches each player has one break of 10mn
duration. The authorized breaks must be taken between games. If the duration
of the pauses are not respected penalties shall be awarded."

Theory of operation
-------------------
A clock counts and times its own breaks; at a match without one the desk
does.  The director records a break's start (``break_start``: who, at which
instant) and its end (``break_end``); each is a tournament action folded by
``Tournament`` (``_running``), its instant written by the server, never read
here.  A ``BreakRecord`` is one break; a match keeps its breaks in order.

- **Allowance**: ``allowance(length)`` breaks per player, two for a match of
  13 points or more, else one; a break past it is refused.
- **Time**: a break lasts ``BREAK_MS`` (10 minutes); one that lasts longer
  (still running, or ended late) has run over by ``over_ms``.
- **Penalty**: the rule book gives no figure; the one scale it has for time
  not respected is the late arrival's, "1 point ... for every 5mn", and a
  penalty "shall be awarded" for any overrun.  **Reading**:
  ``suggested_points`` offers one point to the opponent for every started
  five minutes over (10:01 to 15:00 is one point, 15:01 to 20:00 two).  The
  director decides (``break_penalty``: the points, 0 for none); points that
  bring the opponent to the match length end the match as a late arrival's
  penalty points do (the opponent wins: ``disqualified``, reason ``break``).
- "between games" cannot be checked without a clock: the director sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ._late import POINT_EVERY_MS

#: A break's length: "10mn".
BREAK_MS: Final = 10 * 60_000
#: "13 point matches or more": two breaks each; shorter matches one.
LONG_MATCH: Final = 13
#: The most breaks a player may take (a bound on input: ``allowance``).
MAX_ALLOWANCE: Final = 2


def allowance(length: int) -> int:
    """Breaks each player may take in a match of ``length`` points.

    >>> allowance(13), allowance(11)
    (2, 1)
    """
    return MAX_ALLOWANCE if length >= LONG_MATCH else 1


def suggested_points(over_ms: int) -> int:
    """The penalty offered for a break ``over_ms`` past its 10 minutes: one
    point for every started five minutes over (none when in time).

    >>> suggested_points(0), suggested_points(1), suggested_points(300_000), \
suggested_points(300_001)
    (0, 1, 1, 2)
    """
    return 0 if over_ms <= 0 else 1 + (over_ms - 1) // POINT_EVERY_MS


@dataclass(slots=True, kw_only=True)
class BreakRecord:
    """One player's break at a match: its start, its end (None while it
    runs) and, once the director decided, the penalty points (0: none)."""

    #: The player's name and side ("A" or "B") in the match.
    player: str
    side: str
    #: Which of the player's breaks it is (1, 2).
    number: int
    start_ms: int
    end_ms: int | None = None
    #: The director's penalty in points (0: none), and when it was decided.
    penalty: int | None = None
    penalty_ms: int | None = None

    @property
    def limit_ms(self) -> int:
        """The instant its 10 minutes are up."""
        return self.start_ms + BREAK_MS

    def over_ms(self, now_ms: int) -> int:
        """How far past its 10 minutes it ran by ``now_ms`` (0: in time)."""
        until = now_ms if self.end_ms is None else min(now_ms, self.end_ms)
        return max(0, until - self.limit_ms)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "side": self.side, "number": self.number,
                "start_ms": self.start_ms, "end_ms": self.end_ms, "limit_ms": self.limit_ms,
                "penalty": self.penalty, "penalty_ms": self.penalty_ms}

    def view(self, now_ms: int) -> dict[str, Any]:
        """The record with its time at ``now_ms``: what is left of the 10
        minutes, how far over, and the penalty offered (the desk's alert)."""
        over = self.over_ms(now_ms)
        until = now_ms if self.end_ms is None else self.end_ms
        return {**self.to_dict(), "running": self.end_ms is None,
                "left_ms": max(0, self.limit_ms - until), "over_ms": over,
                "suggested": suggested_points(over),
                # the director has a penalty to decide
                "alert": over > 0 and self.penalty is None}


__all__ = ["BREAK_MS", "LONG_MATCH", "MAX_ALLOWANCE", "BreakRecord", "allowance",
           "suggested_points"]
