"""The epochs a store's writes are fenced by (a leaf, like ``_errors``)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Epochs(ABC):
    """The epochs this process holds its tables' and tournaments' leases at,
    when several processes share one store: a write for a table or a
    tournament not held at the epoch its lease row has now is refused whole
    (``Fenced``), nothing written (``PostgresStore.fenced_by``)."""

    @abstractmethod
    def epoch(self, kind: str, ident: int) -> int | None:
        """The epoch this process holds ``kind`` (``table`` or
        ``tournament``) ``ident`` at; None: not held."""
