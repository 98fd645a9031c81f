"""Errors of the tournament rules (the same split as the clock engine's).

A refusal may carry a stable ``code`` and its ``params`` (names, numbers):
the pages translate the code from their catalogues (docs/protocol.md,
"Tournament refusals"), the English message stays for logs and scripts."""

from __future__ import annotations

from collections.abc import Mapping


class ContestError(ValueError):
    """Base of every error the tournament rules raise."""

    def __init__(self, message: str, code: str | None = None,
                 params: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, str | int] = dict(params or {})


class InvalidContest(ContestError):
    """Malformed input: it could never be accepted (names the field)."""


class IllegalContest(ContestError):
    """Well formed, but the rules do not allow it now."""
