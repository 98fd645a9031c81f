"""The ownership of tables and tournaments, as one interface.

Every table and every tournament has one owner: the process that runs it
(decides its commands, stores its writes, sends its updates).  One process
owns everything (``local.LocalOwnership``); in a cluster each is owned by
the process that holds its lease, and the others reach it through their
owner (``server/cluster/``).  The code of one process asks this interface
only, at the points where it matters:

- *tables*: does this process own the table (``owns``), does it exist at
  all, perhaps made by another process just now (``known``), and the copy
  to read it from (``readable``: the table itself, or a read-only mirror of
  another process's);
- *devices and dashboards*: a device's hello served elsewhere
  (``device_hello``), a dashboard's hello and its leaving, a director's
  message for a table owned elsewhere (``forwards``);
- *requests*: a director's request on a tournament or a table's write run
  by its owner (``run_at_owner``);
- *tournaments* (``TournamentOwner``, the service's part): take the
  tournament before an action, a write fenced, a change told to every
  process, a round's match seated at the table's owner, a table's result
  delivered to the tournament's owner.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from bgclock.server.live.hub import TableRunner
from bgclock.server.tournaments.host import TournamentOwner
from bgclock.server.ws.connection import Connection
from bgclock.server.ws.protocol import Hello


class Ownership(TournamentOwner):
    """Who owns each table and tournament, and how a process reaches what it
    does not own.  ``TournamentOwner`` has the tournaments' part."""

    # ------------------------------------------------------------ lifetime

    @abstractmethod
    async def start(self) -> None:
        """Before the server serves."""

    @abstractmethod
    async def stop(self) -> None:
        """After the server stopped serving (the tables' hub still runs)."""

    @abstractmethod
    async def leave(self) -> None:
        """This process is leaving (``SIGTERM``): what it owns is handed over
        to the processes that stay, before it stops."""

    # ------------------------------------------------------------ tables

    @abstractmethod
    async def known(self, table_id: int) -> bool:
        """The table exists (made by this process or, just now, another)."""

    @abstractmethod
    async def readable(self, table: TableRunner) -> TableRunner:
        """The copy of ``table`` to read now: itself when owned here, else
        a read-only mirror of its owner's."""

    @abstractmethod
    async def readable_room(self, tournament_id: int) -> None:
        """A room display is opened here: the tournament's tables owned
        elsewhere are to be readable here too, live."""

    # ------------------------------------------------------------ devices

    @abstractmethod
    async def device_hello(self, conn: Connection, hello: Hello, table_id: int) -> bool:
        """A table device's hello: False when this process serves the table
        (the session goes on as usual); True when the device was served by
        the table's owner until it went (the session is over)."""

    @abstractmethod
    async def director_hello(self, conn: Connection, since: dict[int, int]) -> None:
        """A dashboard said hello here: every table's updates are to reach it,
        those of tables owned elsewhere from their owners."""

    @abstractmethod
    def director_gone(self, conn: Connection) -> None:
        """A dashboard's connection here closed."""

    @abstractmethod
    def forwards(self, conn: Connection, message: Any, text: str) -> bool:
        """True when a director's decoded ``message`` (its ``text``) is for a
        table owned elsewhere and was sent there (the answer comes back to
        ``conn``); False: served here."""

    # ------------------------------------------------------------ requests

    @abstractmethod
    async def run_at_owner(self, kind: str, ident: int, app: Any, scope: Any, receive: Any,
                           send: Any, *, of_table: bool = False) -> None:
        """Run a director's request (``scope``) on tournament or table ``ident``
        (``kind``; ``of_table``: ``ident`` is a table's, and what runs it is
        the table's tournament's owner) through ``app`` at its owner: here,
        or at the owning process, whose answer is sent."""
