"""Errors of the tournament rules (the same split as the clock engine's)."""

from __future__ import annotations


class ContestError(ValueError):
    """Base of every error the tournament rules raise."""


class InvalidContest(ContestError):
    """Malformed input: it could never be accepted (names the field)."""


class IllegalContest(ContestError):
    """Well formed, but the rules do not allow it now."""
