"""Time modes: how a running period spends reserve and allowance.

Each mode is a small stateless strategy over integers (milliseconds).  A side
with a live period has ``reserve`` (what its display shows now) and
``allow_left`` (what is not yet used of the period's allowance ``a``).

- simple delay: time is taken from the allowance first, then the reserve;
- Bronstein: the reserve falls at once; at the hit it is credited what was
  used of the allowance, ``a - allow_left`` (= min(e, a));
- standard: no allowance at all;
- increment (Fischer): the reserve falls at once; at the hit it is credited
  the whole allowance ``a`` whatever the time used.

In every mode ``allow_left`` falls with the running time (it is what the
display shows as ``delay_ms``), so a stop keeps what the paused period has left.
"""

from __future__ import annotations

from typing import Final


class TimeMode:
    """Interface of a time mode; subclasses are singletons without state."""

    name: str = ""
    #: True when the reserve is untouched while allowance is left.
    delay_first: bool = False

    def period_allowance(self, delay_ms: int, forfeited: bool) -> int:
        """The allowance a new period starts with."""
        return delay_ms

    def idle_delay(self, delay_ms: int, forfeit_pending: bool) -> int:
        """What ``delay_ms`` shows for a side with no live period."""
        return 0 if forfeit_pending else delay_ms

    def credit(self, allowance: int, allow_left: int) -> int:
        """Reserve credited when the side ends its own period with a hit."""
        return 0

    def spend(self, reserve: int, allow_left: int, dt: int) -> tuple[int, int]:
        """Reserve and allowance left after ``dt`` more milliseconds of running."""
        used = dt if dt < allow_left else allow_left
        return reserve - dt, allow_left - used

    def time_to_expiry(self, reserve: int, allow_left: int) -> int:
        """Milliseconds of running until the reserve reaches 0."""
        return reserve


class SimpleDelay(TimeMode):
    name = "simple_delay"
    delay_first = True

    def period_allowance(self, delay_ms: int, forfeited: bool) -> int:
        # A forfeited simple delay keeps its arithmetic: the player waits the
        # delay out before rolling (usbgf-2013 4.1, biba-2014 4.6).
        return delay_ms

    def idle_delay(self, delay_ms: int, forfeit_pending: bool) -> int:
        return delay_ms

    def spend(self, reserve: int, allow_left: int, dt: int) -> tuple[int, int]:
        if dt <= allow_left:
            return reserve, allow_left - dt
        return reserve - (dt - allow_left), 0

    def time_to_expiry(self, reserve: int, allow_left: int) -> int:
        return allow_left + reserve


class Bronstein(TimeMode):
    name = "bronstein"

    def period_allowance(self, delay_ms: int, forfeited: bool) -> int:
        return 0 if forfeited else delay_ms

    def credit(self, allowance: int, allow_left: int) -> int:
        return allowance - allow_left


class Increment(TimeMode):
    name = "increment"

    def period_allowance(self, delay_ms: int, forfeited: bool) -> int:
        return 0 if forfeited else delay_ms

    def credit(self, allowance: int, allow_left: int) -> int:
        return allowance


class Standard(TimeMode):
    name = "standard"

    def period_allowance(self, delay_ms: int, forfeited: bool) -> int:
        return 0

    def idle_delay(self, delay_ms: int, forfeit_pending: bool) -> int:
        return 0


SIMPLE_DELAY: Final = SimpleDelay()
BRONSTEIN: Final = Bronstein()
INCREMENT: Final = Increment()
STANDARD: Final = Standard()

MODES: Final[dict[str, TimeMode]] = {
    m.name: m for m in (SIMPLE_DELAY, BRONSTEIN, STANDARD, INCREMENT)
}
