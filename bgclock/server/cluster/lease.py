"""Leases: which process of a cluster owns a table (or a tournament) now.

Theory of operation
-------------------
A lease is two things on the shared PostgreSQL database:

1. a **session-level advisory lock** keyed by (schema, kind, id)
   (``lease_key``), taken with ``pg_try_advisory_lock`` on one connection of
   this process kept for leases only.  It dies with that connection: a
   process killed with ``kill -9`` has its socket closed by the kernel and
   PostgreSQL releases its locks at once; a process paused (SIGSTOP) or cut
   off stops sending its heartbeat (``SELECT 1`` every ``HEARTBEAT_S``) and
   PostgreSQL ends its idle session after ``LEASE_TTL_S``
   (``idle_session_timeout``, set on that connection only);
2. a **row** in ``leases`` (kind, id, owner node, epoch): each acquisition
   bumps the epoch, in its own committed statement, *before* the new owner
   reads the table's log.

Every write of a table's events and notes is fenced: the commit's
transaction reads the table's row ``FOR SHARE`` at the epoch this process
took it at (``PostgresStore.commit``), so a former owner that wakes up after
the bump writes nothing (``Fenced``), and a bump that comes while a former
owner's commit is in flight waits for it, so the new owner's fold sees it.

When the lease connection breaks, this process does not drop its tables at
once: it reconnects, takes each lock again and keeps those whose row still
holds its epoch (nobody took them meanwhile); the others are lost
(``on_lost``).  Meanwhile its writes go on, fenced by the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import asyncpg  # type: ignore[import-untyped]

from bgclock.server.cluster.batch import Batched
from bgclock.store import Epochs

log = logging.getLogger("bgclock.cluster")

#: PostgreSQL ends the lease connection of a process silent this long (s):
#: a paused or cut-off owner's leases are free after at most this.
LEASE_TTL_S: Final = 3.0
#: How often the lease connection says it is alive (s).
HEARTBEAT_S: Final = 0.5

#: The kinds of things leased.
KINDS: Final = ("table", "tournament")


def lease_key(schema: str, kind: str, ident: int) -> int:
    """The advisory lock number of one lease (a signed 64-bit integer derived
    from the schema, the kind and the id, so schemas never collide)."""
    digest = hashlib.blake2b(f"bgclock-lease/{schema}/{kind}/{ident}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Leases(Epochs):
    """This process's leases, on one connection of their own; the store's
    writes are fenced by their epochs (``Epochs``)."""

    def __init__(self, dsn: str, schema: str, node: str, *, deadline_s: float,
                 on_lost: Callable[[str, int, str], None]) -> None:
        self.dsn = dsn
        self.schema = schema
        self.node = node
        self.deadline_s = deadline_s
        #: Told ``(kind, id, why)`` when a lease is gone for good.
        self.on_lost = on_lost
        #: (kind, id) -> the epoch this process holds it at.
        self.held: dict[tuple[str, int], int] = {}
        self._conn: Any = None
        self._lock = asyncio.Lock()
        self._beat: asyncio.Task[None] | None = None
        self._closing = False
        #: The takes asked for, sent together (``take``); a lease not taken: None.
        self._takes: Batched[tuple[str, int], int | None] = Batched(
            self._take_batch, lambda _: None, "bgclock-lease-take")
        #: Leases whose row still holds our epoch but whose lock the new
        #: connection could not take yet (our old session still ending).
        self._unlocked: set[tuple[str, int]] = set()

    async def _connect(self) -> Any:
        conn = await asyncpg.connect(
            self.dsn, timeout=self.deadline_s, command_timeout=self.deadline_s,
            server_settings={"application_name": f"bgclock lease {self.node}",
                             "search_path": self.schema,
                             "idle_session_timeout": str(int(LEASE_TTL_S * 1000))})
        return conn

    async def open(self) -> None:
        self._conn = await self._connect()
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat(),
                                                            name="bgclock-lease-heartbeat")

    async def close(self) -> None:
        self._closing = True
        await self._takes.close()
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
            self._beat = None
        if self._conn is not None:
            self._conn.terminate()  # the session ends, and with it every lock
            self._conn = None
        self.held.clear()

    def epoch(self, kind: str, ident: int) -> int | None:
        """The epoch this process holds ``kind`` ``ident`` at (None: not held)."""
        return self.held.get((kind, ident))

    async def take(self, kind: str, ident: int) -> int | None:
        """Take the lease if nobody holds it: its new epoch, or None.

        Takes asked for while another round trip is in flight go together in
        the next one (``batch.Batched``): when a process leaves, the tables it
        owned arrive at the others all at once, and each would otherwise wait
        for every take queued before it on this one connection."""
        held = self.held.get((kind, ident))
        if held is not None:
            return held
        return await self._takes.get((kind, ident))

    async def _take_batch(self, wanted: list[tuple[str, int]]
                          ) -> dict[tuple[str, int], int | None]:
        """Every lease of ``wanted`` taken that can be, a round trip per kind;
        (kind, id) -> the epoch of each taken."""
        out: dict[tuple[str, int], int | None] = {}
        async with self._lock:
            for kind in KINDS:
                idents = [i for k, i in wanted if k == kind]
                if not idents:
                    continue
                for i, epoch in (await self._take_many(kind, idents)).items():
                    self.held[(kind, i)] = out[(kind, i)] = epoch
                    log.info("%s %d: this process (%s) owns it now, epoch %d",
                             kind, i, self.node, epoch)
        return out

    async def _take_many(self, kind: str, idents: list[int]) -> dict[int, int]:
        """One round trip: try each lease's lock, and bump the epoch of each
        one taken (committed before anyone reads its table); id -> epoch."""
        conn = self._conn
        if conn is None or conn.is_closed():
            return {}
        keys = [lease_key(self.schema, kind, i) for i in idents]
        try:
            # the locks are tried in the CTE (a volatile function: evaluated
            # once a row, never inlined), the rows of those taken upserted
            rows = await conn.fetch(
                "WITH wanted AS (SELECT * FROM unnest($1::int8[], $2::int8[]) AS w (k, id)), "
                "got AS (SELECT id FROM wanted WHERE pg_try_advisory_lock(k)) "
                "INSERT INTO leases (kind, id, owner, epoch, taken_ms) "
                "SELECT $3, id, $4, 1, $5 FROM got ON CONFLICT (kind, id) DO UPDATE SET "
                "owner = EXCLUDED.owner, epoch = leases.epoch + 1, "
                "taken_ms = EXCLUDED.taken_ms RETURNING id, epoch",
                keys, idents, kind, self.node, int(time.time() * 1000))
        except BaseException:
            # no epoch, no lease: the locks taken go back (or with the
            # connection); one not taken is a warning of the server's, no more
            with contextlib.suppress(Exception):
                await conn.fetchval("SELECT count(pg_advisory_unlock(k)) "
                                    "FROM unnest($1::int8[]) AS k", keys)
            raise
        return {int(r["id"]): int(r["epoch"]) for r in rows}

    async def owner(self, kind: str, ident: int) -> str | None:
        """The node that took ``kind`` ``ident`` last (it may be gone)."""
        async with self._lock:
            conn = self._conn
            if conn is None or conn.is_closed():
                return None
            value = await conn.fetchval("SELECT owner FROM leases WHERE kind = $1 AND id = $2",
                                        kind, ident)
        return None if value is None else str(value)

    async def release(self, kind: str, ident: int) -> None:
        """Give a lease up (its lock; the row keeps the epoch)."""
        self.held.pop((kind, ident), None)
        async with self._lock:
            conn = self._conn
            if conn is not None and not conn.is_closed():
                await conn.fetchval("SELECT pg_advisory_unlock($1)",
                                    lease_key(self.schema, kind, ident))

    async def release_many(self, kind: str, idents: list[int]) -> None:
        """Give leases up in one round trip (their locks; the rows keep the
        epochs: the next owner bumps them)."""
        if not idents:
            return
        for ident in idents:
            self.held.pop((kind, ident), None)
        async with self._lock:
            conn = self._conn
            if conn is not None and not conn.is_closed():
                await conn.fetchval("SELECT count(pg_advisory_unlock(k)) FROM unnest($1::int8[]) "
                                    "AS k", [lease_key(self.schema, kind, i) for i in idents])

    async def query(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows read on the lease connection (none when it is down)."""
        async with self._lock:
            conn = self._conn
            if conn is None or conn.is_closed():
                return []
            return [tuple(r) for r in await conn.fetch(sql)]

    def forget(self, kind: str, ident: int) -> None:
        """This process no longer owns it (fenced): forget the epoch; the
        lock, if still held, goes with the connection or ``release``."""
        self.held.pop((kind, ident), None)

    async def _heartbeat(self) -> None:
        while not self._closing:
            await asyncio.sleep(HEARTBEAT_S)
            conn = self._conn
            try:
                if conn is None or conn.is_closed():
                    raise ConnectionError("the lease connection is closed")
                async with self._lock:
                    await conn.fetchval("SELECT 1", timeout=self.deadline_s)
                if self._unlocked:
                    async with self._lock:
                        await self._check(conn, list(self._unlocked))
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
                    ConnectionError) as exc:
                log.warning("the lease connection broke (%s): taking the leases again",
                            type(exc).__name__)
                await self._retake()

    async def _retake(self) -> None:
        """A fresh lease connection: keep each lease nobody took meanwhile."""
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
        try:
            conn = await self._connect()
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("no lease connection yet (%s)", exc)
            return
        async with self._lock:
            self._conn = conn
            await self._check(conn, list(self.held))

    async def _check(self, conn: Any, leases: list[tuple[str, int]]) -> None:
        """Take each lock again; keep the leases whose row holds our epoch."""
        for kind, ident in leases:
            epoch = self.held.get((kind, ident))
            if epoch is None:
                self._unlocked.discard((kind, ident))
                continue
            key = lease_key(self.schema, kind, ident)
            got = await conn.fetchval("SELECT pg_try_advisory_lock($1)", key)
            now = await conn.fetchval(
                "SELECT epoch FROM leases WHERE kind = $1 AND id = $2", kind, ident)
            if now == epoch:
                # nobody took it: ours still (the lock, if our old session
                # still holds it, is tried again at the next heartbeat; the
                # writes are fenced by the epoch meanwhile)
                if got:
                    self._unlocked.discard((kind, ident))
                    log.warning("%s %d: the lease is back (epoch %d): writes go on",
                                kind, ident, epoch)
                else:
                    self._unlocked.add((kind, ident))
                continue
            if got:  # free, but another process owned it meanwhile: give it back
                await conn.fetchval("SELECT pg_advisory_unlock($1)", key)
            self._unlocked.discard((kind, ident))
            self.held.pop((kind, ident), None)
            self.on_lost(kind, ident, f"another process took it (epoch {now}, ours {epoch})")
