"""What this process holds of the cluster's tables, in one place.

Its leases (``lease.Leases``), and what it is doing with the tables: those
it is taking (a lock per table: one take at a time), those it took and is
loading, those it is handing over, and whether it is leaving.  From them,
the one answer to "does this process own the table now" (``owns``), asked
by the process's ownership (``node.Cluster``), the hand-back of quiet
tables (``handback``) and the hand-over of a leaving or balancing process
(``drain``), which each get this object rather than the whole node.
"""

from __future__ import annotations

import asyncio

from bgclock.server.cluster.lease import Leases


class Holding:
    """This process's tables in the cluster: held, being taken, loaded or
    handed over."""

    def __init__(self, leases: Leases) -> None:
        self.leases = leases
        #: This process's name in the cluster.
        self.node = leases.node
        #: This process is leaving: it takes no lease (``drain``).
        self.draining = False
        #: Tables being handed over now (``drain.hand_over``): not served.
        self.leaving: set[int] = set()
        #: Tables whose lease this process took and which it is loading:
        #: not served until loaded (a device's hello waits in the take).
        self.loading: set[int] = set()
        self._taking: dict[int, asyncio.Lock] = {}

    def owns(self, table_id: int) -> bool:
        """The table's lease is held here, and the table is neither being
        loaded nor handed over."""
        return (self.leases.epoch("table", table_id) is not None
                and table_id not in self.leaving and table_id not in self.loading)

    def taking(self, table_id: int) -> bool:
        """This process is taking the table's lease now."""
        lock = self._taking.get(table_id)
        return lock is not None and lock.locked()

    def take_lock(self, table_id: int) -> asyncio.Lock:
        """The table's lock: one take of it at a time."""
        return self._taking.setdefault(table_id, asyncio.Lock())

    def tables(self) -> list[int]:
        """The tables whose leases this process holds."""
        return [ident for kind, ident in list(self.leases.held) if kind == "table"]
