"""The writer: every table's accepted events and notes, committed in groups.

Theory of operation
-------------------
Tables hand the writer what they accepted (``submit``: an event, a note, or
an event with its note, all or nothing) with a callback; one task takes
everything queued, from every table, and commits it in one transaction
(group commit), then runs the callbacks in order with the commit's outcome.
A batch the database refuses is tried again item by item, so only the bad
items fail (and, after a table's first failure, that table's later items:
its log never has a hole).  A table that rolled back after a failure takes
its items still queued back (``discard``): they were numbered after the
failed one, and committing them would leave the table's memory and the
database apart (the ``UNIQUE ... seq`` errors that stopped a table storing).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from bgclock.store import (
    Fenced,
    Store,
    StoredEvent,
    StoredNote,
    StoredSnapshot,
    StoreError,
    StoreUnavailable,
)

log = logging.getLogger("bgclock.server")

_Done = Callable[[BaseException | None], None]
#: What the writer commits as one: an event or a note, or an event and its
#: note (a command that handles an alert), all or nothing.
Rows = StoredEvent | StoredNote | tuple[StoredEvent | StoredNote, ...]


def _rows(item: Rows | None) -> tuple[StoredEvent | StoredNote, ...]:
    return () if item is None else item if isinstance(item, tuple) else (item,)


def batch_message(texts: list[str]) -> str:
    """One ``batch`` frame of already encoded messages, in their order
    (spliced, not decoded and encoded again)."""
    return '{"type":"batch","messages":[' + ",".join(texts) + "]}"


class FrameBatch:
    """The messages a commit's callbacks send, one frame per connection.

    While ``active`` (the writer's callbacks for one commit run, with no
    await between them), a connection that said hello with ``batch`` hands
    its messages to ``hold`` instead of sending them; ``flush`` then sends
    each such connection one ``batch`` frame (or its only message alone).
    A press's sender thus gets its update and its ack in one frame, and a
    dashboard one frame per commit whatever the number of tables in it:
    frames, not bytes, are what a press costs the server."""

    def __init__(self) -> None:
        self.active = False
        self._held: dict[Any, list[str]] = {}

    def hold(self, conn: Any, text: str) -> None:
        held = self._held.get(conn)
        if held is None:
            self._held[conn] = [text]
        else:
            held.append(text)

    def flush(self) -> None:
        self.active = False
        held, self._held = self._held, {}
        for conn, texts in held.items():
            conn.send(texts[0] if len(texts) == 1 else batch_message(texts))


class Writer:
    """Group commit: takes everything queued and commits it in one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: The frames of one commit's callbacks (``FrameBatch``).
        self.frames = FrameBatch()
        self._items: list[tuple[Rows | None, _Done]] = []
        self._checkpoints: dict[int, int] = {}
        self._snapshots: dict[int, StoredSnapshot] = {}
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.batches = 0
        #: Since when (``time.monotonic``) the database has not answered, or None.
        self.failing_since: float | None = None
        #: Told of a commit refused because another process owns its tables
        #: now, after the callbacks ran.
        self.on_fenced: Callable[[Fenced], None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="bgclock-writer")

    def submit(self, stored: Rows | None, done: _Done) -> None:
        """Queue an event or a note, or a tuple of them committed together
        (or, with None, just a callback that must wait for what was queued
        before it)."""
        self._items.append((stored, done))
        self._wakeup.set()

    def discard(self, table_id: int, error: BaseException) -> None:
        """Take back a table's items still queued (not yet in a commit): each
        callback gets ``error`` now.  A table that rolled back calls it, so
        that nothing numbered after its failed item is ever committed."""
        kept: list[tuple[Rows | None, _Done]] = []
        dropped: list[_Done] = []
        for stored, done in self._items:
            rows = _rows(stored)
            if rows and rows[0].table_id == table_id:
                dropped.append(done)
            else:
                kept.append((stored, done))
        if not dropped:
            return
        self._items = kept
        for done in dropped:
            try:
                done(error)
            except Exception:  # a broken watcher must not stop the table
                log.exception("after-commit callback failed")

    def forget_checkpoint(self, table_id: int) -> None:
        """Drop a table's checkpoint and snapshot not yet stored (its match is
        being replaced)."""
        self._checkpoints.pop(table_id, None)
        self._snapshots.pop(table_id, None)

    def snapshot(self, snapshot: StoredSnapshot) -> None:
        """Store a table's snapshot after what is being committed (apart from
        the events: a snapshot not stored only makes a start fold more)."""
        self._snapshots[snapshot.table_id] = snapshot
        self._wakeup.set()

    def checkpoint(self, checkpoints: dict[int, int]) -> None:
        self._checkpoints.update(checkpoints)
        self._wakeup.set()

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            items, self._items = self._items, []
            checkpoints, self._checkpoints = self._checkpoints, {}
            rows = [r for s, _ in items for r in _rows(s)]
            events = [r for r in rows if isinstance(r, StoredEvent)]
            notes = [r for r in rows if isinstance(r, StoredNote)]
            errors: dict[int, BaseException] = {}
            if events or checkpoints or notes:
                try:
                    await self.store.commit(events, checkpoints, notes)
                    self.batches += 1
                    if self.failing_since is not None:
                        log.warning("the database answers again (after %.0f s): commits go on",
                                    time.monotonic() - self.failing_since)
                        self.failing_since = None
                except StoreUnavailable as exc:
                    # the database is away or stalled: every item fails now (one
                    # by one, each would wait out its own deadline), and so do
                    # those queued meanwhile (the database was not answering all
                    # the time they waited): no command waits past one deadline
                    if self.failing_since is None:  # once, not every second
                        self.failing_since = time.monotonic()
                        log.error("%s: commands get storage errors until it answers", exc)
                    log.debug("commit of %d events failed: %s", len(events), exc)
                    items, self._items = items + self._items, []
                    errors = dict.fromkeys(range(len(items)), exc)
                except StoreError as exc:
                    log.error("commit of %d events failed: %s", len(events), exc)
                    errors = await self._one_by_one(items, checkpoints, exc)
            self.frames.active = True
            try:
                for i, (_, done) in enumerate(items):
                    try:
                        done(errors.get(i))
                    except Exception:  # a broken watcher must not stop the writer
                        log.exception("after-commit callback failed")
            finally:
                self.frames.flush()
            if self.on_fenced is not None:
                for fenced in {id(e): e for e in errors.values() if isinstance(e, Fenced)}.values():
                    assert isinstance(fenced, Fenced)
                    self.on_fenced(fenced)
            if self._snapshots:
                stored, self._snapshots = self._snapshots, {}
                try:
                    await self.store.put_snapshots(list(stored.values()))
                except StoreError as exc:
                    log.warning("%d snapshots not stored (a start folds more): %s",
                                len(stored), exc)
            if (self._closing and not self._items and not self._checkpoints
                    and not self._snapshots):
                return

    async def _one_by_one(self, items: list[tuple[Rows | None, _Done]],
                          checkpoints: dict[int, int],
                          error: StoreError) -> dict[int, BaseException]:
        """The batch failed: commit each item alone, so that only the bad ones
        fail (and, after a table's first failure, that table's later items:
        its log never has a hole)."""
        errors: dict[int, BaseException] = {}
        failed_tables: set[int] = set()
        for i, (stored, _) in enumerate(items):
            rows = _rows(stored)
            if not rows:
                continue
            table_id = rows[0].table_id
            if table_id in failed_tables:
                errors[i] = error
                continue
            events = [r for r in rows if isinstance(r, StoredEvent)]
            notes = [r for r in rows if isinstance(r, StoredNote)]
            try:
                await self.store.commit(events, {}, notes)
            except StoreError as exc:
                errors[i] = exc
                failed_tables.add(table_id)
        if checkpoints:
            try:
                await self.store.commit([], checkpoints)
            except StoreError as exc:
                log.error("checkpoints not stored: %s", exc)
        return errors

    async def close(self) -> None:
        """Commit what is queued, then stop."""
        if self._task is None:
            return
        self._closing = True
        self._wakeup.set()
        await self._task
        self._task = None
