"""Which tables this process owns, as the tables' hub asks it.

The hub runs the tables this process owns; whoever decides which those are
(``ownership.Ownership``: one process owns everything, or each table is
owned by the process holding its lease) answers the hub through this one
interface, given to it once (``Hub.owner``), instead of hooks set on the
hub and its writer from outside (issue 34 §1).  ``Alone`` is the answer of
a process that shares its tables with nobody: the hub's own until the
server gives it the ownership it chose.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from bgclock.store import Fenced


class TableOwner(ABC):
    """The hub's questions and news about the ownership of its tables."""

    @property
    @abstractmethod
    def owns_everything(self) -> bool:
        """This process owns every table and tournament: the hub folds every
        table at start (else each one when this process takes it) and this
        process completes the open tournaments at start."""

    @abstractmethod
    def owns(self, table_id: int) -> bool:
        """This process owns the table now (decides its commands, writes it)."""

    @abstractmethod
    async def own(self, table_id: int) -> bool:
        """Before a director's write that is not a command: this process owns
        the table, taking it now if nobody does (then loaded in place);
        False: another process owns it."""

    @abstractmethod
    def table_added(self, table_id: int) -> None:
        """A table was made here: the processes sharing the store learn of it."""

    @abstractmethod
    def relay(self, table_id: int, text: str, everyone: bool) -> None:
        """A broadcast of a table this process owns (``everyone``: for its
        devices too, else for the dashboards only), for the watchers that
        other processes serve."""

    @abstractmethod
    def table_fenced(self, fenced: Fenced) -> None:
        """A commit was refused because another process owns its tables now
        (after the commit's callbacks ran)."""


class Alone(TableOwner):
    """Nobody shares the tables: this process owns them all, and nobody
    else is told anything."""

    @property
    def owns_everything(self) -> bool:
        return True

    def owns(self, table_id: int) -> bool:
        return True

    async def own(self, table_id: int) -> bool:
        return True

    def table_added(self, table_id: int) -> None:
        return None

    def relay(self, table_id: int, text: str, everyone: bool) -> None:
        return None

    def table_fenced(self, fenced: Fenced) -> None:
        return None  # no fence without another owner: never called
