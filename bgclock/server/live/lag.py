"""Lag compensation: how much of a press's network delay the server credits.

Pure arithmetic, in the manner of lichess's lag tracker (scalachess
``LagTracker``): each side of a match has a *quota* of compensation.  A press
that says its one-way delay was ``lag_ms`` is credited ``min(lag_ms, cap,
quota)``; the quota then loses what was credited and gains a little, never
above its ceiling.  A steady link whose delay averages under the gain is fully
compensated, a spike is paid from the reserve, and a device that claims a huge
lag gains at most ``initial + gain x presses`` in total and ``cap`` on one press.

The credited instant is also clamped by the caller: never before the match's
last event (``credited_instant``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final


@dataclass(frozen=True, slots=True, kw_only=True)
class LagParams:
    """The tracker's figures (integer ms)."""

    #: Never more than this on one press.
    cap_ms: int = 1000
    #: Quota added after every press.
    gain_ms: int = 250
    #: Quota a side starts with.
    initial_ms: int = 1000
    #: The quota's ceiling.
    max_ms: int = 2500


DEFAULT_PARAMS: Final = LagParams()


@dataclass(frozen=True, slots=True, kw_only=True)
class LagQuota:
    """One side's compensation reserve; every operation returns a new one."""

    quota_ms: int
    params: LagParams = DEFAULT_PARAMS

    @classmethod
    def new(cls, params: LagParams = DEFAULT_PARAMS) -> LagQuota:
        return cls(quota_ms=params.initial_ms, params=params)

    def offer(self, lag_ms: int) -> int:
        """What a press claiming ``lag_ms`` may be credited (before clamping)."""
        return max(0, min(lag_ms, self.params.cap_ms, self.quota_ms))

    def spend(self, credit_ms: int) -> LagQuota:
        """The quota after a press that was actually credited ``credit_ms``."""
        if credit_ms < 0 or credit_ms > self.quota_ms:
            raise ValueError(f"cannot credit {credit_ms} ms from a quota of {self.quota_ms} ms")
        quota = min(self.quota_ms - credit_ms + self.params.gain_ms, self.params.max_ms)
        return replace(self, quota_ms=quota)


def credited_instant(arrival_ms: int, offered_ms: int, floor_ms: int) -> tuple[int, int]:
    """The instant a press counts at and the credit actually given.

    ``arrival_ms`` is when the server received it, ``offered_ms`` what the quota
    allows, ``floor_ms`` the match's last event (or expiry): a press never
    reaches back past it, nor counts after its arrival.
    """
    if arrival_ms <= floor_ms:
        return floor_ms, 0
    at = max(arrival_ms - offered_ms, floor_ms)
    return at, arrival_ms - at


def compensate(
    quota: LagQuota, lag_ms: int, arrival_ms: int, floor_ms: int
) -> tuple[int, int, LagQuota]:
    """Credit one press: (instant, credit, new quota)."""
    at, credit = credited_instant(arrival_ms, quota.offer(lag_ms), floor_ms)
    return at, credit, quota.spend(credit)
