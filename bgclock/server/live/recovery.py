"""A table brought back: from the store at a start, after a failed commit, or in quarantine.

A table is folded from its stored snapshot and the events after it, or from
its whole log when the snapshot cannot be used (``Recovery.load``); a log
the engine refuses to replay puts the table in quarantine: it keeps its
log, takes no commands, and the director sees why.  After a restart a
running clock stops at its last checkpoint, unless a device keeps the
table's time: that clock ran on at the table, and the device's queued
presses count when it reconciles (``restarted``).

Every commit a table asks for goes through ``commit``: should it fail, the
table is rebuilt from its committed prefix, its commands still queued are
taken back from the writer, and the senders of the lost commands get a
``storage`` error (the pages send them again); unless the database was only
away, the table then reloads from the store (``reload``: the store is the
truth) and its dashboard card says so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from bgclock.core import Stop
from bgclock.server.live import snapshots
from bgclock.server.live.flags import Flags
from bgclock.server.live.fold import (
    Unfoldable,
    final_flags_of,
    handled_of,
    handover_of,
    keeper_of,
)
from bgclock.server.live.messages import dumps, update_message
from bgclock.server.live.refusal import Refused
from bgclock.server.live.snapshots import Base
from bgclock.server.live.table import Table, Watcher
from bgclock.server.live.writer import Rows
from bgclock.store import (
    Fenced,
    Store,
    StoredEvent,
    StoredNote,
    StoredSnapshot,
    StoreError,
    StoreUnavailable,
    TableRow,
)

log = logging.getLogger("bgclock.server")

#: What folding one table reads: its row, its snapshot, the events after it
#: and its notes.
Stored = tuple[TableRow, StoredSnapshot | None, list[StoredEvent], list[StoredNote]]


async def read_stored(store: Store, table_id: int, *, closed_notes: bool = True) -> Stored:
    """What folding one table reads: its row, its snapshot, the events
    after it and its notes (none for a closed table unless
    ``closed_notes``, as a start reads it)."""
    row = await store.table(table_id)
    snap = await store.snapshot(table_id)
    tail = await store.events(table_id, snap.seq if snap else 0)
    if row.closed_ms is not None and not closed_notes:
        return row, snap, tail, []
    return row, snap, tail, await store.notes(table_id)


class Recovery:
    """How one table comes back to what the store holds."""

    def __init__(self, table: Table, flags: Flags) -> None:
        self.table = table
        self.flags = flags

    # ------------------------------------------------------------- loading

    async def load(self, row: TableRow, snap: StoredSnapshot | None,
                   tail: list[StoredEvent], notes: list[StoredNote]) -> None:
        """Fold the table from ``snap`` and ``tail`` (the events after it), or
        from its whole log when the snapshot cannot be used; quarantined
        when the log cannot be replayed."""
        t = self.table
        base: Base | None = None
        if snap is not None:
            try:
                base = snapshots.decode(row, snap, t.match)
            except snapshots.Unreadable as exc:
                log.warning("table %d: its snapshot is not used (%s): the whole log is "
                            "folded", row.id, exc)
            else:
                if not snapshots.follows(base, tail):
                    log.warning("table %d: the log does not follow its snapshot at seq %d: "
                                "the whole log is folded", row.id, base.seq)
                    base = None
            if base is None:
                tail = await t.hub.store.events(row.id)
        try:
            t.load(tail, notes, base)
        except Unfoldable as exc:
            if base is not None:  # the snapshot may be what is wrong: the log says
                log.warning("table %d: %s after its snapshot: the whole log is folded",
                            row.id, exc)
                await self.load(row, None, await t.hub.store.events(row.id), notes)
                return
            # one bad log never stops the server: the table keeps its log,
            # takes no commands, and the director sees why
            self.quarantine(str(exc), tail, notes)

    def quarantine(self, reason: str, events: list[StoredEvent],
                   notes: list[StoredNote] | None = None) -> None:
        """The stored log cannot be replayed: keep it, refuse commands, tell the director."""
        t = self.table
        t.quarantined = reason
        t.base = Base()
        t.snapped = None
        t.log = list(events)
        t.ids.load(t.log, complete=True)
        t.seq = t.committed_seq = events[-1].seq if events else 0
        # its notes too: the director may still mark its alert handled
        t.notes = list(notes or [])
        t.committed_notes = len(t.notes)
        t.note_keys = {x.idem_key: x for x in t.notes if x.idem_key is not None}
        t.handled = handled_of(t.notes)
        log.error("table %d is quarantined: %s", t.id, reason)

    # ------------------------------------------------------------ restarts

    def restarted(self, started_ms: int | None = None) -> StoredEvent | None:
        """A loaded table after a restart: its running clock's stop, if any
        (``started_ms``: the start's instant, for a table folded after it)."""
        t = self.table
        if t.quarantined is not None:
            return None
        if t.keeper is not None:  # no device is connected yet
            t.keeper_offline_since_ms = (t.hub.clock.now_ms() if started_ms is None
                                         else started_ms)
        return self.recover(t.row.checkpoint_ms, started_ms)

    def recover(self, checkpoint_ms: int | None,
                started_ms: int | None = None) -> StoredEvent | None:
        """After a restart: a running clock stops at its last checkpoint,
        unless a device keeps the table's time: that clock ran on at the
        table, and the device's queued presses count when it reconciles.
        ``started_ms``: the server's start (a table folded after it is
        recovered as of then); None: now."""
        t = self.table
        if t.closed or t.match.expires_at() is None:
            return None
        now = t.hub.clock.now_ms() if started_ms is None else started_ms
        if t.keeper is not None:
            t.recovering = True
            t.keeper_offline_since_ms = now
            return None
        at = max(checkpoint_ms or 0, t.match.now)
        t.match.advance(at)  # an expiry before the checkpoint happened: apply it
        if t.match.expires_at() is None:
            return None
        stop = Stop(at_ms=at, reason="restart")
        t.match.apply(stop)
        t.seq += 1
        stored = StoredEvent(table_id=t.id, seq=t.seq, idem_key=None, at_ms=at,
                             event=stop.to_dict(), source="server", lag_credit_ms=0,
                             received_ms=now)
        t.log.append(stored)
        return stored

    def recovered(self, stored: StoredEvent) -> None:
        """The restart's stop is on disk."""
        t = self.table
        t.committed_seq = stored.seq
        t.committed_match = t.match.copy()
        t.recent.append((stored.seq, dumps(update_message(stored, t.match.state().to_dict()))))
        t.take_snapshot()

    # ------------------------------------------------------- failed commits

    def commit(self, rows: Rows, sender: Watcher, msg_id: str | None,
               refusal: Callable[[BaseException | None], str],
               then: Callable[[], None]) -> None:
        """Queue ``rows`` for the writer; once committed, ``then()``.  Should
        the commit fail, the table goes back to what the disk holds
        (``failed``) and ``sender`` gets a ``storage`` error saying
        ``refusal(error)``; should an earlier commit have failed meanwhile
        (the rows were taken back), ``refusal(None)``."""
        t = self.table
        generation = t.generation

        def done(error: BaseException | None) -> None:
            if generation != t.generation or error is not None:
                own = error if generation == t.generation else None
                if own is not None:
                    self.failed(own)
                sender.refuse(Refused("storage", refusal(own), msg_id=msg_id, table=t.id))
                return
            then()

        t.hub.writer.submit(rows, done)

    def failed(self, error: BaseException) -> None:
        """A commit failed: go back to what the disk holds, then, unless the
        database was only away (or the table is another process's now),
        reload from it."""
        t = self.table
        self.rollback(error)
        if not isinstance(error, StoreUnavailable | Fenced) and not t.reloading:
            t.reloading = True
            t.line.add(partial(self.reload, str(error)))

    async def reload(self, why: str) -> None:
        """Fold the table again from the store (its truth), as a start does
        but without stopping its clock, and say so on the dashboard's card
        (``info.reloaded``).  Should the store not answer, the table goes on
        from its committed prefix (``rollback``)."""
        t = self.table
        try:
            row, snap, tail, notes = await read_stored(t.hub.store, t.id)
            t.row = row
            await self.load(row, snap, tail, notes)
        except StoreError as exc:
            log.error("table %d could not be reloaded (it goes on from memory): %s",
                      t.id, exc)
            return
        finally:
            t.reloading = False
        t.generation += 1
        t.reloaded = {"at_ms": t.hub.clock.now_ms(), "seq": t.committed_seq, "why": why}
        log.warning("table %d reloaded from the database at seq %d after a failed commit (%s)",
                    t.id, t.committed_seq, why)
        self.flags.rearm()
        t.broadcast(t.snapshot_message())

    def rollback(self, error: BaseException | None = None) -> None:
        """A commit failed: go back to what the disk holds; what the table
        queued after it is taken back from the writer (``error``: what its
        senders are told)."""
        t = self.table
        t.generation += 1
        for stored in t.log[t.committed_seq - t.base.seq:]:
            t.ids.forget(stored)
        t.log = t.log[: t.committed_seq - t.base.seq]
        t.seq = t.committed_seq
        t.hub.writer.discard(t.id, error or StoreError("an earlier command failed"))
        t.ack_waiters.clear()
        t.notes = t.notes[: t.committed_notes]
        t.note_keys = {x.idem_key: x for x in t.notes if x.idem_key is not None}
        t.note_waiters.clear()
        t.handled = handled_of(t.notes)
        t.handle_waiters.clear()
        t.keeper = keeper_of(t.notes)
        t.handover = handover_of(t.notes, t.log)
        t.final_flags = final_flags_of(t.notes)
        t.match = t.committed_match.copy()
        self.flags.rearm()
        t.broadcast(t.snapshot_message())
