"""A command is applied once, whatever its age: a table's command ids.

Theory of operation
-------------------
Every command a device or a dashboard sends carries an id; stored, it is its
event's ``idem_key``, unique per table in the store.  A command whose id is
stored already is a duplicate: it is answered with the ack its event got
(``duplicate``), never applied again, however long ago it was stored.  (A
device resends its whole queue at each reconnection, and a queue may hold
presses stored long ago whose acks were lost with the link.)

Memory holds only a table's newest events (its window, ``live.snapshots``),
so it cannot always tell alone that an id was never stored.  For an id,
``CommandIds`` says one of three things:

- *known*: the window, or an answer of the store kept since, holds its event:
  a duplicate, answered at once;
- *new*: memory met every id of the match's log, and not this one: decided
  at once, without a database call (the press path's usual case).  Of the
  ids that left the window, memory keeps only their hashes, so a hash never
  met says "new" exactly, and a hash met says "ask";
- *unknown*: memory did not meet every id of the log (the table was folded
  from a snapshot at a start, or taken over from another process), or the
  hash was met: the store is asked before the command is decided, through
  the store's thread and deadline like every other call.  Memory that did
  not meet the ids a snapshot folded in reads them once (``Store.idem_keys``,
  their hashes kept), and is complete from then on: a table taken over goes
  on deciding its new commands without a database call each, however many
  tables arrive at once; a met hash asks for its one row
  (``Store.event_by_key``, by the table's unique index).

A command that waits for the store keeps its place: the table's ``Line``
holds it and every command that comes after it, in arrival order, and
decides each when its turn comes.  A table reloading from the store after a
failed commit (``TableRunner.reload``) waits in the same line, so no command is
decided on a table half reloaded.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from bgclock.store import Store, StoredEvent

log = logging.getLogger("bgclock.server")

#: Events the store gave back for a lookup, kept for the duplicates that
#: follow (a device resends its queue in order, once per reconnection).
RECALLED: Final = 512
#: Commands one table's line holds at most; past it a command is refused
#: (``busy``: the page sends it again), so a database that answers slowly
#: never grows the server's memory without end.
MAX_HELD: Final = 2000


class CommandIds:
    """The ids of a table's stored commands, as far as memory knows them."""

    __slots__ = ("window", "complete", "_left", "_recalled", "folded_upto")

    def __init__(self) -> None:
        #: The events of the window that have an id, by id.
        self.window: dict[str, StoredEvent] = {}
        #: Memory met every id of the match's log (in the window or in ``_left``).
        self.complete = True
        #: The hashes of the ids that left the window.
        self._left: set[int] = set()
        #: While not complete: the ids of the events up to this seq (folded
        #: into the snapshot the table started from) are not met yet.
        self.folded_upto = 0
        self._recalled: OrderedDict[str, StoredEvent] = OrderedDict()

    def load(self, window: Iterable[StoredEvent], left: Iterable[StoredEvent] = (), *,
             complete: bool, folded_upto: int = 0) -> None:
        """Start again from a folded log: ``window`` in memory, ``left`` folded
        into the base; ``complete`` when the two are the whole log, else the
        ids of the events up to ``folded_upto`` were not met."""
        self.window = {e.idem_key: e for e in window if e.idem_key is not None}
        self._left = {hash(e.idem_key) for e in left if e.idem_key is not None}
        self.complete = complete
        self.folded_upto = 0 if complete else folded_upto
        self._recalled.clear()

    def add(self, stored: StoredEvent) -> None:
        """An accepted event (committed or on its way)."""
        if stored.idem_key is not None:
            self.window[stored.idem_key] = stored

    def leave(self, stored: StoredEvent) -> None:
        """A committed event left the window (folded into the base)."""
        key = stored.idem_key
        if key is not None:
            if self.window.get(key) is stored:
                del self.window[key]
            self._left.add(hash(key))

    def forget(self, stored: StoredEvent) -> None:
        """An event that was never committed (the table rolled back)."""
        key = stored.idem_key
        if key is not None and self.window.get(key) is stored:
            del self.window[key]

    def find(self, key: str) -> StoredEvent | None:
        """The event stored (or being stored) under ``key``, if memory holds it."""
        return self.window.get(key) or self._recalled.get(key)

    def unknown(self, key: str) -> bool:
        """Only the store can say whether ``key`` was stored."""
        return (key not in self.window and key not in self._recalled
                and (not self.complete or hash(key) in self._left))

    async def recall(self, store: Store, table_id: int, key: str, committed_seq: int) -> None:
        """Ask the store for ``key``'s event; kept (``find``) when it is part
        of what this table committed (a row past ``committed_seq`` is a write
        the server answered as failed, which the store removes).  Memory not
        complete reads the ids it did not meet first, once, and then asks
        only for a met hash."""
        if not self.complete:
            self._left.update(hash(k) for k in await store.idem_keys(table_id, self.folded_upto))
            self.complete = True
            if not self.unknown(key):
                return
        stored = await store.event_by_key(table_id, key)
        if stored is None or stored.seq > committed_seq:
            return
        self._recalled[key] = stored
        if len(self._recalled) > RECALLED:
            self._recalled.popitem(last=False)


Step = Callable[[], Awaitable[None]]


class Line:
    """What waits at one table for the store, in arrival order: one task
    runs the steps, one at a time; none runs while the line is empty."""

    __slots__ = ("name", "_steps", "_task")

    def __init__(self, name: str) -> None:
        self.name = name
        self._steps: deque[Step] = deque()
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Something waits: what comes now must wait behind it."""
        return self._task is not None

    @property
    def full(self) -> bool:
        return len(self._steps) >= MAX_HELD

    def add(self, step: Step) -> None:
        self._steps.append(step)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def _run(self) -> None:
        try:
            while self._steps:
                step = self._steps.popleft()
                try:
                    await step()
                except Exception:  # one step's failure never stops the table's line
                    log.exception("%s: a waiting command failed", self.name)
        finally:
            # no await between the last look at the steps and here: a step
            # added after it starts a new task
            if self._task is asyncio.current_task():
                self._task = None

    def cancel(self) -> None:
        """Drop what waits (the table is closed or the server stops)."""
        self._steps.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None
