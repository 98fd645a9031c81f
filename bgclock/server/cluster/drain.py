"""A process leaves and joins without a gap: its tables handed over.

Theory of operation
-------------------
*Handing a table over* (``hand_over``) is what a takeover after a death
does, without the wait for the lease to expire.  For a batch of tables this
process owns, in one synchronous step (no command can come between): each
is marked leaving (``Holding.owns`` says no: a command that reaches it now
is answered ``not_owner``, which the page sends again after it reconnects),
stops running here (its timers cancelled, its row kept dormant) and, when
its clock runs, has a checkpoint at this instant queued.  Then the writer's
queue is waited on (a barrier behind everything the tables had decided:
their acks go out, at this process's epoch), the leases are unlocked (the
rows keep their epochs: the next owner bumps them, and a late write of
this process's would be fenced), and only then are the tables' devices
told (``not_owner``, close code ``MOVED_CLOSE``; a relayed device through
its process, ``drop``): they reconnect, to any process, which takes the
lease on their hello, folds the table from the store and takes their
queued presses with their device instants.  A table whose clock runs with a
timekeeper goes on running (its keeper reconciles, as after a restart); one
without is stopped at the hand-over's checkpoint, as after a restart.

*Draining* (``node.Cluster.drain``: ``SIGTERM``, or ``bgclock drain``) hands every table
over, then the tournaments' leases go back; meanwhile this process takes no
lease (``Holding.draining``) and the devices it relays to other processes
are sent to reconnect too.  It is bounded (``DRAIN_S``): a table whose
commits do not come back by then is left to its lease dying with the
process, as after a ``kill``.

*Balancing* (``Balance``): every ``BALANCE_S`` a process counts the tables
each live process owns (the lease rows whose lock is held now:
``pg_locks``).  One that owns at least ``BALANCE_SLACK`` fewer than the fair
share (the tables over the processes seen, itself included) for
``BALANCE_PATIENCE`` rounds in a row (not a moment of a round's devices
connecting, each to the process that takes its table) asks the
busiest processes to release some (``release``, at most ``BALANCE_BATCH`` a
round); an owner hands over its tables quiet at the moment (nothing on the
way to the store, no edit or flag pending; a stopped clock first, then a
running one with its timekeeper) and names them back (``released``); the
asker takes their leases.  The devices follow as above.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Final

import orjson

from bgclock.server.cluster.bus import Bus
from bgclock.server.cluster.handback import Handback
from bgclock.server.cluster.holding import Holding
from bgclock.server.cluster.lease import lease_key
from bgclock.server.cluster.mirror import MirroredTable
from bgclock.server.live.hub import Hub, TableRunner

log = logging.getLogger("bgclock.cluster")

#: The bound on a drain (s): then the process exits whatever is left.
DRAIN_S: Final = 10.0
#: How often a process compares its tables with the others' (s).
BALANCE_S: Final = 1.0
#: A process this many tables under the fair share asks for some.
BALANCE_SLACK: Final = 2
#: At most this many tables asked for in one round (a few per second).
BALANCE_BATCH: Final = 8
#: Rounds in a row a process must be short before it asks: a share that is
#: short only while the devices of a round are still connecting (each to
#: the process that takes its table) evens out by itself, and moving those
#: tables would only send their phones to reconnect.
BALANCE_PATIENCE: Final = 3


def movable(table: TableRunner) -> bool:
    """Nothing of the table is on the way to the store or pending a bound:
    it can move now without a press waiting for it."""
    return (table.folded and not isinstance(table, MirroredTable)
            and table.quarantined is None
            and table.seq == table.committed_seq
            and table.committed_notes == len(table.notes)
            and not table.editing and table.provisional is None
            and table.reconcile_left <= 0 and not table.line.busy)


def balance_order(tables: Iterable[TableRunner]) -> list[TableRunner]:
    """The tables a process may give to another now, the best first: a
    stopped clock, then a running one kept by a timekeeper (it runs on at
    the next owner); never one running without (it would be stopped)."""
    stopped, running = [], []
    for table in tables:
        if table.closed or not movable(table):
            continue
        if table.match.expires_at() is None:
            stopped.append(table)
        elif table.keeper is not None:
            running.append(table)
    return stopped + running


async def hand_over(hub: Hub, holding: Holding, handback: Handback, table_ids: list[int],
                    send_away: Callable[[TableRunner], None], *, within: float) -> list[int]:
    """Hand the tables over (see the module's text), their devices sent
    away by ``send_away`` once the leases went back; the tables handed."""
    leaving: list[TableRunner] = []
    checkpoints: dict[int, int] = {}
    for table_id in table_ids:  # one synchronous step: nothing comes between
        table = hub.tables.get(table_id)
        if table is None or not holding.owns(table_id) or holding.taking(table_id):
            continue
        holding.leaving.add(table_id)
        if (at := table.checkpoint_ms()) is not None:
            checkpoints[table_id] = at
        hub.drop(table_id)
        handback.quiet_since.pop(table_id, None)
        leaving.append(table)
    if not leaving:
        return []
    if checkpoints:
        hub.writer.checkpoint(checkpoints)
    stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def barrier(error: BaseException | None) -> None:
        if not stored.done():
            stored.set_result(None)

    hub.writer.submit(None, barrier)
    try:
        await asyncio.wait_for(stored, within)
    except TimeoutError:
        log.error("%d tables: their commits did not come back within %g s: handed over "
                  "anyway (a late write is fenced)", len(leaving), within)
    ids = [t.id for t in leaving]
    try:
        await holding.leases.release_many("table", ids)
    finally:
        holding.leaving.difference_update(ids)
    for table in leaving:
        send_away(table)
    log.warning("%d tables handed over by %s: %s", len(ids), holding.node,
                ", ".join(map(str, ids)))
    return ids


class Balance:
    """This process's share of the tables (see the module's text).  The
    tables it asked for and was named are taken by its node (``taken``
    counts them)."""

    def __init__(self, hub: Hub, holding: Holding, bus: Bus, handback: Handback,
                 send_away: Callable[[TableRunner], None]) -> None:
        self.hub = hub
        self.holding = holding
        self.bus = bus
        self.handback = handback
        #: How a table handed over tells its devices (``node.Cluster.send_away``).
        self.send_away = send_away
        #: Tables this process asked for and took so far.
        self.taken = 0
        #: Rounds in a row this process has been short of its share.
        self.short = 0

    async def counts(self) -> Counter[str]:
        """Tables per live owner: the lease rows whose lock is held now."""
        leases = self.holding.leases
        rows = await leases.query("SELECT id, owner FROM leases WHERE kind = 'table'")
        locks = await leases.query(
            "SELECT classid::int8, objid::int8 FROM pg_locks "
            "WHERE locktype = 'advisory' AND objsubid = 1 AND granted")
        held = set()
        for high, low in locks:
            key = (int(high) << 32) | int(low)
            held.add(key - (1 << 64) if key >= 1 << 63 else key)
        schema = leases.schema
        return Counter(str(owner) for ident, owner in rows
                       if lease_key(schema, "table", int(ident)) in held)

    async def round(self) -> None:
        """Ask the busiest processes for tables when this one has too few."""
        if self.holding.draining:
            return
        counts = await self.counts()
        mine = counts.pop(self.holding.node, 0)
        if not counts:
            return
        fair = (sum(counts.values()) + mine) // (len(counts) + 1)
        want = min(fair - mine, BALANCE_BATCH)
        if want < BALANCE_SLACK:
            self.short = 0
            return
        self.short += 1
        if self.short < BALANCE_PATIENCE:
            return
        for owner, n in counts.most_common():
            give = min(n - fair, want)
            if give <= 0:
                break
            self.bus.publish(self.bus.node_channel(owner), orjson.dumps(
                {"k": "release", "from": self.holding.node, "n": give}))
            want -= give
            if want <= 0:
                break

    async def release(self, msg: dict[str, Any]) -> None:
        """Another process asked for tables: hand some quiet ones over and
        name them to it (it takes their leases)."""
        if self.holding.draining:
            return
        n = max(0, min(int(msg.get("n") or 0), BALANCE_BATCH))
        hub = self.hub
        owned = [hub.tables[ident] for ident in self.holding.tables() if ident in hub.tables]
        chosen = [t.id for t in balance_order(owned)[:n]]
        if not chosen:
            return
        ids = await hand_over(hub, self.holding, self.handback, chosen, self.send_away,
                              within=DRAIN_S / 2)
        if ids:
            self.bus.publish(self.bus.node_channel(str(msg["from"])), orjson.dumps(
                {"k": "released", "from": self.holding.node, "t": ids}))
