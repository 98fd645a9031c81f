"""How a store fails (a leaf: every store module imports it, it imports none)."""

from __future__ import annotations

from collections.abc import Sequence


class StoreError(RuntimeError):
    """The database refused an operation."""


class NotFound(StoreError):
    """No such tournament or table."""


class StoreUnavailable(StoreError):
    """The database did not answer within the deadline, or the connection to it
    broke, or this process no longer owns the store: the same call may
    succeed later (the server answers 503).  A write it cut off is in doubt
    (``Doubt``)."""


class StoreBusy(StoreError):
    """Another process owns the store (``Store.claim``)."""


class Fenced(StoreError):
    """A write for tables this process no longer owns: another process took
    their lease (a newer epoch) and the commit was refused whole, nothing
    written (``bgclock.server.cluster``)."""

    def __init__(self, message: str, table_ids: Sequence[int]) -> None:
        super().__init__(message)
        self.table_ids = tuple(table_ids)
