"""Leases handed back: a table this process owns and nobody uses goes.

Theory of operation
-------------------
Every ``period`` the process looks at each table it holds the lease of.  A
table is *quiet* when no device is connected to it (here or relayed from
another process: both are among its watchers), its clock is stopped (no
expiry ahead), and nothing of it is on the way to the store (every event and
note committed, no edit, no provisional flag waiting for its bound, no
timekeeper's queue being reconciled).  A quiet table whose match is over (or
which is closed) is handed back at once; another after ``idle_s`` of
quiet.  Handing back is synchronous up to the lease's unlock: the table
leaves the hub (made dormant, or kept as a read-only mirror when a room
display here shows its tournament) before the lock goes, so no command can
come between; the lease row keeps its epoch, and the next process to take
the table bumps it and folds the table from the store, as a takeover does.

A table with a running clock is never handed back: its expiry is its
owner's to judge, and its checkpoints are written while it runs.
"""

from __future__ import annotations

import logging
import time

from bgclock.server.cluster.holding import Holding
from bgclock.server.cluster.mirror import MirroredTable, Mirrors
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.store import StoreError

log = logging.getLogger("bgclock.cluster")


def quiet(table: TableRunner) -> bool:
    """No device, a stopped clock, nothing on the way to the store."""
    return (not table.watchers
            and (table.closed or table.match.expires_at() is None)
            and table.seq == table.committed_seq
            and table.committed_notes == len(table.notes)
            and not table.editing
            and table.provisional is None
            and table.reconcile_left <= 0)


def finished(table: TableRunner) -> bool:
    """The table's match is over, or the table is closed."""
    return table.closed or table.match.phase == "match_over"


class Handback:
    """This process's quiet tables, and their leases handed back."""

    def __init__(self, hub: Hub, holding: Holding, mirrors: Mirrors, idle_s: float) -> None:
        self.hub = hub
        self.holding = holding
        self.mirrors = mirrors
        self.idle_s = idle_s
        #: How often the tables are looked at (s).
        self.period = max(0.1, min(1.0, idle_s / 4))
        #: Since when (``time.monotonic``) each kept table is quiet.
        self.quiet_since: dict[int, float] = {}
        #: Tables handed back so far.
        self.released = 0

    async def sweep(self) -> None:
        hub = self.hub
        now = time.monotonic()
        held = self.holding.tables()
        for table_id in list(self.quiet_since):
            if table_id not in held:
                del self.quiet_since[table_id]
        for table_id in held:
            table = hub.tables.get(table_id)
            if table is None or isinstance(table, MirroredTable) or not quiet(table):
                self.quiet_since.pop(table_id, None)
                continue
            since = self.quiet_since.setdefault(table_id, now)
            if finished(table) or now - since >= self.idle_s:
                await self.release(table)

    async def release(self, table: TableRunner) -> None:
        """Hand the table's lease back (the caller saw it quiet)."""
        hub, holding = self.hub, self.holding
        table_id = table.id
        if holding.taking(table_id) or not holding.owns(table_id) or not quiet(table):
            return
        why = ("its match is over" if finished(table) else
               f"no device and its clock stopped for {self.idle_s:g} s")
        mirror: MirroredTable | None = None
        if self.mirrors.wanted(table.row.tournament_id):  # a room display here shows it
            try:  # quiet: all it holds is stored, and read back as a mirror
                mirror = await MirroredTable.read(hub, table_id)
            except StoreError as exc:
                log.warning("table %d: not kept as a mirror (%s)", table_id, exc)
            if (hub.tables.get(table_id) is not table or holding.taking(table_id)
                    or not holding.owns(table_id) or not quiet(table)
                    or (mirror is not None and mirror.committed_seq != table.committed_seq)):
                return  # it moved meanwhile: looked at again at the next sweep
        self.quiet_since.pop(table_id, None)
        hub.writer.forget_checkpoint(table_id)
        if mirror is not None:
            self.mirrors.adopt(mirror)
        else:
            hub.drop(table_id)
        await holding.leases.release("table", table_id)
        self.released += 1
        log.warning("table %d: %s: its lease is handed back (the next device takes it "
                    "at any process)", table_id, why)
