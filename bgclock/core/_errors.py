"""Errors raised by the clock engine.

``InvalidCommand`` means the command is malformed (a side that is not A or B,
dice of 7, a time that goes backwards); ``IllegalCommand`` means it is well
formed but the rules do not allow it now.  Both leave the match untouched.
"""

from __future__ import annotations


class ClockError(ValueError):
    """Base class of every error the engine raises."""


class InvalidCommand(ClockError):
    """The command is malformed: it could never be accepted."""


class IllegalCommand(ClockError):
    """The command is well formed but the rules do not allow it now."""
