"""The PostgreSQL store (asyncpg): the same interface, one transaction per commit.

``schema`` names the PostgreSQL schema the tables live in (created if absent);
the tests use a fresh one per run and drop it afterwards.

One process owns a schema: ``claim`` takes a session-level advisory lock
(``lock_key``: derived from the schema's name, so two schemas never collide)
on a connection of its own, held for the process's life.  A watchdog asks
that connection every second whether it is alive; should it break (or not
answer within the deadline), this process no longer owns the store: every
write fails with ``StoreUnavailable`` until the watchdog takes the lock back
on a fresh connection.  It takes it back only if nobody owned the store
meanwhile (the ``store_owner`` token in ``meta`` is still this process's);
otherwise the claim is lost for good and ``on_lost`` is told (``bgclock
serve`` then stops).  PostgreSQL drops the lock of a session that vanished
(a blackholed network) after ``idle_session_timeout``, set on that connection.

Every call has a deadline (``deadline_s``): acquiring a connection, the
statements and the release are bounded together; past it, or when the link
breaks, the connection is terminated (never handed back to the pool), the
pool's idle connections are expired (each would otherwise wait out its own
deadline once the database is back) and the call fails with
``StoreUnavailable``.  The server side is bounded too
(``statement_timeout``, and ``idle_in_transaction_session_timeout`` so a
transaction whose client went silent releases its locks).  A write cut off
that way is in doubt: its COMMIT may yet arrive.  Before the next write the
store ends the old session (``pg_terminate_backend``, waiting for it to go)
and deletes the rows it may have stored (``Doubt``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import socket
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from . import (
    ALL_SNAPSHOTS_SQL,
    DEFAULT_DEADLINE_S,
    PUT_SNAPSHOT_SQL,
    SETTLE_SQL,
    SNAPSHOT_COLS,
    UNSNAPPED_SQL,
    ArchivedMatch,
    Doubt,
    Epochs,
    Fenced,
    NotFound,
    Store,
    StoreBusy,
    StoredAction,
    StoredEvent,
    StoredNote,
    StoredSnapshot,
    StoreError,
    StoreUnavailable,
    TableRow,
    TableSpec,
    TournamentRow,
    _row_spec,
    archive_body,
    archived_match,
    numbered,
    snapshot_row,
    snapshot_values,
    tails_sql,
)
from ._published import PostgresPublished
from ._register import PostgresRegister
from ._schema import LATEST, VERSION_TABLE, statements

_TABLE_COLS = (
    "id, tournament_id, name, player_a, player_b, rules, length, score_a, score_b, teams, "
    "crawford, clock, created_ms, closed_ms, checkpoint_ms, warn_s"
)
_EVENT_COLS = "table_id, seq, idem_key, at_ms, body, source, lag_credit_ms, received_ms"
_NOTE_COLS = "table_id, n, seq, idem_key, at_ms, body, source, received_ms"
_BULK_EVENTS = (
    f"INSERT INTO clock_events ({_EVENT_COLS}) SELECT * FROM unnest("
    "$1::bigint[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[], "
    "$7::integer[], $8::bigint[])"
)
_BULK_NOTES = (
    f"INSERT INTO clock_notes ({_NOTE_COLS}) SELECT * FROM unnest("
    "$1::bigint[], $2::integer[], $3::integer[], $4::text[], $5::bigint[], $6::text[], "
    "$7::text[], $8::bigint[])"
)
#: The fence: the tables' lease rows still at the epochs this process took
#: them at, locked (``FOR SHARE``) until the commit, so a new owner's epoch
#: bump waits for this transaction or this one sees the bump and writes nothing.
_FENCE = (
    "SELECT l.id FROM leases AS l JOIN unnest($1::bigint[], $2::bigint[]) AS f(id, epoch) "
    "ON l.id = f.id AND l.epoch = f.epoch WHERE l.kind = 'table' FOR SHARE OF l"
)
_BULK_CHECKPOINTS = (
    "UPDATE clock_tables AS t SET checkpoint_ms = c.ms "
    "FROM unnest($1::bigint[], $2::bigint[]) AS c(id, ms) "
    "WHERE t.id = c.id AND (t.checkpoint_ms IS NULL OR t.checkpoint_ms < c.ms)"
)

#: A commit as one statement (one round trip, its own transaction): every
#: kind of row at once, the empty arrays inserting nothing.  Used when no
#: fence is checked first (one process; a cluster's commit reads the fence
#: in a transaction of its own).
_BULK_ALL = (
    f"WITH e AS (INSERT INTO clock_events ({_EVENT_COLS}) SELECT * FROM unnest("
    "$1::bigint[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[], "
    "$7::integer[], $8::bigint[])), "
    f"n AS (INSERT INTO clock_notes ({_NOTE_COLS}) SELECT * FROM unnest("
    "$9::bigint[], $10::integer[], $11::integer[], $12::text[], $13::bigint[], $14::text[], "
    "$15::text[], $16::bigint[])), "
    "c AS (UPDATE clock_tables AS t SET checkpoint_ms = c.ms "
    "FROM unnest($17::bigint[], $18::bigint[]) AS c(id, ms) "
    "WHERE t.id = c.id AND (t.checkpoint_ms IS NULL OR t.checkpoint_ms < c.ms)) "
    "SELECT 1"
)


async def _keep_session(conn: Any) -> None:
    """A pooled connection's reset on release: nothing beyond asyncpg's own
    (an open transaction rolled back, listeners dropped).  The store never
    changes a pooled session's settings, listens or takes session locks
    there, so the default reset (``RESET ALL``, ``UNLISTEN *``, unlocking
    advisory locks: a round trip per release) has nothing to undo."""


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as ``width`` column lists (the arrays ``unnest`` takes)."""
    return [list(col) for col in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]


#: How often the watchdog asks the claim's connection whether it is alive (s).
WATCH_INTERVAL_S = 1.0
#: How long a just-ended owner's lock may take to go (its session ending) before
#: a new server says the store is busy (s).
CLAIM_PATIENCE_S = 2.0
#: ``meta`` key of the token of the process that owns the store.
OWNER_META = "store_owner"

log = logging.getLogger("bgclock.store")
T = TypeVar("T")

#: Errors that say the link to the database is broken or stalled (the call may
#: succeed later), as opposed to a refusal by the database.
_LINK_ERRORS: tuple[type[BaseException], ...] = (
    TimeoutError, OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
)


def lock_key(schema: str) -> int:
    """The advisory lock number that says who owns ``schema`` (a signed 64-bit
    integer derived from its name)."""
    digest = hashlib.blake2b(f"bgclock-owner/{schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def migration_key(schema: str) -> int:
    """The transaction-level advisory lock number under which ``schema`` is
    made and migrated (one starter at a time; another schema never waits)."""
    digest = hashlib.blake2b(f"bgclock-migrate/{schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _table(r: Any) -> TableRow:
    return TableRow(id=r[0], tournament_id=r[1], spec=_row_spec(*tuple(r)[2:12], *tuple(r)[15:16]),
                    created_ms=r[12], closed_ms=r[13], checkpoint_ms=r[14])


def _event(r: Any) -> StoredEvent:
    return StoredEvent(table_id=r[0], seq=r[1], idem_key=r[2], at_ms=r[3],
                       event=json.loads(r[4]), source=r[5], lag_credit_ms=r[6],
                       received_ms=r[7])


def _note(r: Any) -> StoredNote:
    return StoredNote(table_id=r[0], n=r[1], seq=r[2], idem_key=r[3], at_ms=r[4],
                      note=json.loads(r[5]), source=r[6], received_ms=r[7])


class PostgresStore(PostgresRegister, PostgresPublished, Store):
    """A PostgreSQL database given by its URL."""

    def __init__(self, dsn: str, *, schema: str = "public",
                 deadline_s: float = DEFAULT_DEADLINE_S) -> None:
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ValueError(f"not a plain schema name: {schema!r}")
        self.dsn = dsn
        self.schema = schema
        self.deadline_s = deadline_s
        self._pool: asyncpg.Pool | None = None
        #: This process's name on the database (``pg_stat_activity``).
        self._token = secrets.token_hex(6)
        self.app_name = f"bgclock {socket.gethostname()[:30]} pid {os.getpid()} {self._token}"
        self._lock_conn: Any = None
        #: The commits' own connection (``commit``): no pool acquire and
        #: release per commit, its statements prepared once.
        self._writer: Any = None
        self._writer_lock = asyncio.Lock()
        self._lock_pid: int | None = None
        self._watch: asyncio.Task[None] | None = None
        self._lost: str | None = None
        #: The claim is lost for good (another server owned the store meanwhile).
        self._gone = False
        self._doubt = Doubt()
        #: The sessions whose writes are in doubt (ended before the next write).
        self._doubt_pids: set[int] = set()
        self._settling = asyncio.Lock()
        #: Several processes share the store (``fenced_by``): no whole-store
        #: claim; each table's writes and each tournament's actions are fenced
        #: by the epoch this process holds its lease at (None: not held, so
        #: the write fails).
        self.epochs: Epochs | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is closed")
        return self._pool

    def _settings(self) -> dict[str, str]:
        ms = str(int(self.deadline_s * 1000))
        return {"search_path": self.schema, "synchronous_commit": "on",
                "application_name": self.app_name, "statement_timeout": ms,
                "idle_in_transaction_session_timeout": str(int(self.deadline_s * 2000))}

    async def open(self) -> None:
        if self._pool is not None:
            return
        self._pool = await asyncpg.create_pool(
            self.dsn, min_size=1, max_size=4, timeout=self.deadline_s,
            command_timeout=self.deadline_s, server_settings=self._settings(),
            reset=_keep_session,
        )
        # Servers starting at once on the same schema take turns: the schema
        # made and every migration run under one transaction-level lock of
        # that schema's (``migration_key``), so the second finds the first's
        # work done (concurrent ``CREATE SCHEMA IF NOT EXISTS`` statements
        # otherwise race on the catalogue's unique index).
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1)", migration_key(self.schema))
            await c.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await c.execute(VERSION_TABLE)
            current = await c.fetchval("SELECT MAX(version) FROM schema_version") or 0
            for version in range(current + 1, LATEST + 1):
                for stmt in statements("postgres", version):
                    await c.execute(stmt)
                await c.execute("INSERT INTO schema_version (version) VALUES ($1)", version)

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        if self._pool is not None and self._doubt and self._lost is None:
            with contextlib.suppress(StoreError):  # nothing in doubt outlives the process
                await self._with(_nothing, writes=Doubt())
        if self._writer is not None:
            with contextlib.suppress(*_LINK_ERRORS, asyncpg.PostgresError):
                await asyncio.wait_for(self._writer.close(), self.deadline_s)
            self._writer.terminate()
            self._writer = None
        if self._lock_conn is not None:
            self._lock_conn.terminate()  # the session ends, and with it the lock
            self._lock_conn = None
        if self._pool is not None:
            try:
                await asyncio.wait_for(self._pool.close(), self.deadline_s)
            except _LINK_ERRORS:
                self._pool.terminate()
            self._pool = None

    # ----------------------------------------------------------- the claim

    async def _lock_connection(self) -> Any:
        idle_ms = int(max(30.0, 4 * self.deadline_s) * 1000)
        conn = await asyncpg.connect(
            self.dsn, timeout=self.deadline_s, command_timeout=self.deadline_s,
            server_settings={"application_name": self.app_name})
        try:
            await conn.execute(f"SET idle_session_timeout = {idle_ms}")
        except asyncpg.UndefinedObjectError:
            pass  # before PostgreSQL 14: a vanished owner's lock goes with TCP keepalive
        except BaseException:
            conn.terminate()
            raise
        conn.add_termination_listener(self._lock_closed)
        return conn

    async def _try_lock(self, conn: Any) -> bool:
        return bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)",
                                        lock_key(self.schema)))

    async def _holder_name(self, conn: Any) -> str:
        """The ``application_name`` of the session holding the lock ("" if unknown)."""
        key = lock_key(self.schema) & 0xFFFFFFFFFFFFFFFF
        try:
            name = await conn.fetchval(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                "AND l.classid::bigint = $1 AND l.objid::bigint = $2 AND l.objsubid = 1",
                key >> 32, key & 0xFFFFFFFF)
        except _LINK_ERRORS + (asyncpg.PostgresError,):
            return ""
        return str(name or "")

    async def _holder(self, conn: Any) -> str:
        """Who holds the lock, in words (empty if the database does not say)."""
        found = re.fullmatch(r"bgclock (\S*) pid (\d+) \w+", await self._holder_name(conn))
        return f" (pid {found.group(2)} on {found.group(1)})" if found else ""

    def fenced_by(self, epochs: Epochs) -> None:
        """Several processes share this store: every write is fenced by the
        epochs ``epochs`` holds (before ``claim``, which then claims nothing)."""
        self.epochs = epochs

    async def claim(self) -> None:
        if self._lock_conn is not None or self.epochs is not None:
            return  # a cluster's processes share the store: each table is fenced
        try:
            conn = await self._lock_connection()
        except _LINK_ERRORS as exc:
            raise StoreUnavailable(f"cannot reach the database to claim it: {exc}") from exc
        try:
            loop = asyncio.get_running_loop()
            until = loop.time() + CLAIM_PATIENCE_S
            while not await self._try_lock(conn):
                if loop.time() >= until:
                    raise StoreBusy(
                        f"schema {self.schema} is in use by another bgclock serve"
                        f"{await self._holder(conn)}: stop it first, or give another "
                        "--db-schema")
                await asyncio.sleep(0.2)
            await conn.execute(
                f'INSERT INTO "{self.schema}".meta (key, value) VALUES ($1, $2) '
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                OWNER_META, self._token)
        except BaseException:
            conn.terminate()
            raise
        self._lock_conn, self._lock_pid = conn, conn.get_server_pid()
        self._watch = asyncio.get_running_loop().create_task(self._watchdog(),
                                                             name="bgclock-store-claim")

    @property
    def lost(self) -> str | None:
        return self._lost

    def _lock_closed(self, conn: Any) -> None:
        if conn is self._lock_conn:
            self._lose("the database closed the connection that holds this server's claim")

    def _lose(self, why: str) -> None:
        if self._lost is None:
            log.error("%s: writes fail until it is back", why)
            self._lost = f"{why}; writes fail until it is back"
        if self._lock_conn is not None:
            self._lock_conn.terminate()
            self._lock_conn = None

    async def _watchdog(self) -> None:
        while not self._gone:
            await asyncio.sleep(WATCH_INTERVAL_S)
            conn = self._lock_conn
            if conn is not None:
                try:
                    await conn.fetchval("SELECT 1", timeout=self.deadline_s)
                except _LINK_ERRORS as exc:
                    self._lose(f"the database link that holds this server's claim broke "
                               f"({type(exc).__name__})")
                continue
            try:
                await asyncio.wait_for(self._reclaim(), self.deadline_s)
            except _LINK_ERRORS + (asyncpg.PostgresError,) as exc:
                log.info("the claim is not back yet: %s", exc)

    async def _reclaim(self) -> None:
        """Take the lock back, if nobody owned the store meanwhile."""
        conn = await self._lock_connection()
        try:
            if self._lock_pid is not None:  # our old session, if the database still has it
                await _end_sessions(conn, [self._lock_pid], self.app_name, self.deadline_s)
            taken = await self._try_lock(conn)
            if taken:
                owner = await conn.fetchval(
                    f'SELECT value FROM "{self.schema}".meta WHERE key = $1', OWNER_META)
            else:  # our old session still ending (try again), or another server
                holder = await self._holder_name(conn)
                owner = self._token if not holder or self._token in holder else holder
        except BaseException:
            conn.terminate()
            raise
        if not taken and owner == self._token:
            conn.terminate()
            return
        if owner != self._token:
            conn.terminate()
            self._gone = True
            self._lost = ("another bgclock serve owned the store while this one was away: "
                          "this server stops")
            log.error("%s", self._lost)
            if self.on_lost is not None:
                self.on_lost(self._lost)
            return
        self._lock_conn, self._lock_pid = conn, conn.get_server_pid()
        self._lost = None
        log.warning("the store's claim is back: writes go on")

    # ----------------------------------------------------------- calls

    def _new_doubt(self) -> Doubt:
        """The rows one write puts in doubt (``PostgresRegister._write``)."""
        return Doubt()

    async def _writer_connection(self) -> Any:
        """The commits' own connection (made again after it broke)."""
        conn = self._writer
        if conn is None or conn.is_closed():
            conn = self._writer = await asyncpg.connect(
                self.dsn, timeout=self.deadline_s, command_timeout=self.deadline_s,
                server_settings=self._settings())
        return conn

    async def _with(self, fn: Callable[[Any], Awaitable[T]], *,
                    writes: Doubt | None = None, own: bool = False) -> T:
        """``fn(conn)`` on a pooled connection (``own``: on the commits' own
        connection, one call at a time), all within the deadline.  A broken
        or stalled link terminates the connection (``StoreUnavailable``);
        ``writes``: the rows ``fn`` writes, in doubt should the link break."""
        if writes is not None and self._lost is not None:
            raise StoreUnavailable(self._lost)
        pool = self.pool
        conn: Any = None
        sent = False
        locked = False
        try:
            async with asyncio.timeout(self.deadline_s):
                if own:
                    await self._writer_lock.acquire()
                    locked = True
                    conn = await self._writer_connection()
                else:
                    conn = await pool.acquire()
                if self._doubt and self._lost is None:  # a read too: no row in doubt seen
                    await self._settle(conn)
                sent = writes is not None
                return await fn(conn)
        except NotFound:
            raise
        except _LINK_ERRORS as exc:
            if conn is not None:
                pid = conn.get_server_pid()
                conn.terminate()
                if own:
                    self._writer = None
                if sent and writes:
                    self._doubt.extend(writes)
                    self._doubt_pids.add(pid)
            # the pool's idle connections went the same way: each would
            # wait out a deadline of its own before failing; make fresh ones
            await pool.expire_connections()
            what = ("did not answer within " f"{self.deadline_s:g} s"
                    if isinstance(exc, TimeoutError) else f"is unreachable ({_words(exc)})")
            raise StoreUnavailable(f"the database {what}") from None
        except asyncpg.PostgresError as exc:
            raise StoreError(str(exc)) from exc
        finally:
            if locked:
                self._writer_lock.release()
            elif conn is not None:
                try:
                    await pool.release(conn, timeout=self.deadline_s)
                except (Exception, asyncio.CancelledError) as exc:  # noqa: BLE001
                    # it is terminated; a release cancelled midway (the
                    # request's client went) goes on shielded in the pool:
                    # the connection is the pool's again, terminating it is
                    # refused, and the cancellation goes on
                    with contextlib.suppress(asyncpg.InterfaceError):
                        conn.terminate()
                    if isinstance(exc, asyncio.CancelledError):
                        raise

    async def _settle(self, conn: Any) -> None:
        """End the sessions whose writes are in doubt, then delete those writes'
        rows (should they have landed): what the server answered is what the
        database holds."""
        async with self._settling:
            if not self._doubt:
                return
            await _end_sessions(conn, sorted(self._doubt_pids), self.app_name, self.deadline_s)
            async with conn.transaction():
                for kind, sql in SETTLE_SQL.items():
                    rows = getattr(self._doubt, kind)
                    if rows:
                        await conn.executemany(numbered(sql), rows)
            self._doubt.clear()
            self._doubt_pids.clear()

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._with(lambda c: c.fetch(sql, *args)))

    async def _fetchrow(self, sql: str, *args: Any, write: bool = False) -> Any:
        return await self._with(lambda c: c.fetchrow(sql, *args),
                                writes=Doubt() if write else None)

    async def _fetchval(self, sql: str, *args: Any, write: bool = False) -> Any:
        return await self._with(lambda c: c.fetchval(sql, *args),
                                writes=Doubt() if write else None)

    async def _execute(self, sql: str, *args: Any) -> None:
        """A write of one statement (refused while the claim is lost)."""
        await self._with(lambda c: c.execute(sql, *args), writes=Doubt())

    async def schema_version(self) -> int:
        return int(await self._fetchval("SELECT MAX(version) FROM schema_version"))

    async def get_meta(self, key: str) -> str | None:
        value = await self._fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
            key, value)
        return str(await self._fetchval("SELECT value FROM meta WHERE key = $1", key))

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", key, value)

    async def create_tournament(self, name: str, created_ms: int,
                                club: str | None = None) -> TournamentRow:
        tid = await self._with(lambda c: c.fetchval(
            "INSERT INTO tournaments (name, created_ms, club) VALUES ($1, $2, $3) RETURNING id",
            name, created_ms, club), writes=Doubt(tournaments=[(name, created_ms)]))
        return TournamentRow(id=tid, name=name, created_ms=created_ms, club=club)

    async def tournaments(self) -> list[TournamentRow]:
        rows = await self._fetch(
            "SELECT id, name, created_ms, closed_ms, club FROM tournaments ORDER BY id")
        return [TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3], club=r[4])
                for r in rows]

    async def tournament(self, tournament_id: int) -> TournamentRow:
        r = await self._fetchrow(
            "SELECT id, name, created_ms, closed_ms, club FROM tournaments WHERE id = $1",
            tournament_id)
        if r is None:
            raise NotFound(f"no tournament {tournament_id}")
        return TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3], club=r[4])

    async def close_tournament(self, tournament_id: int, closed_ms: int, *,
                               keep: Collection[int] = ()) -> list[int]:
        kept = sorted(set(keep))

        async def close(c: Any) -> list[int]:
            async with c.transaction():
                exists = await c.fetchval("SELECT 1 FROM tournaments WHERE id = $1",
                                          tournament_id)
                if exists is None:
                    raise NotFound(f"no tournament {tournament_id}")
                await c.execute("UPDATE tournaments SET closed_ms = $1 "
                                "WHERE id = $2 AND closed_ms IS NULL", closed_ms, tournament_id)
                rows = await c.fetch("UPDATE clock_tables SET closed_ms = $1 "
                                     "WHERE tournament_id = $2 AND closed_ms IS NULL "
                                     "AND NOT (id = ANY($3::bigint[])) "
                                     "RETURNING id", closed_ms, tournament_id, kept)
                return sorted(r[0] for r in rows)

        return await self._with(close, writes=Doubt())

    async def create_table(self, tournament_id: int, spec: TableSpec,
                           created_ms: int) -> TableRow:
        try:
            tid = await self._with(lambda c: c.fetchval(
                "INSERT INTO clock_tables (tournament_id, name, player_a, player_b, rules, "
                "length, score_a, score_b, teams, crawford, clock, created_ms, warn_s) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
                tournament_id, spec.name, spec.players[0], spec.players[1], spec.rules,
                spec.length, spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                json.dumps(spec.clock), created_ms, json.dumps(list(spec.warn_s))),
                writes=Doubt(tables=[(tournament_id, spec.name, created_ms)]))
        except StoreError as exc:
            if isinstance(exc.__cause__, asyncpg.ForeignKeyViolationError):
                raise NotFound(f"no tournament {tournament_id}") from exc
            raise
        return TableRow(id=tid, tournament_id=tournament_id, spec=spec, created_ms=created_ms)

    async def update_table(self, table_id: int, spec: TableSpec) -> TableRow:
        r = await self._fetchrow(
            "UPDATE clock_tables SET name = $1, player_a = $2, player_b = $3, rules = $4, "
            "length = $5, score_a = $6, score_b = $7, teams = $8, crawford = $9, clock = $10, "
            f"warn_s = $12 WHERE id = $11 RETURNING {_TABLE_COLS}",
            spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
            spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
            json.dumps(spec.clock), table_id, json.dumps(list(spec.warn_s)), write=True)
        if r is None:
            raise NotFound(f"no table {table_id}")
        return _table(r)

    async def close_table(self, table_id: int, closed_ms: int) -> None:
        await self._execute(
            "UPDATE clock_tables SET closed_ms = $1 WHERE id = $2 AND closed_ms IS NULL",
            closed_ms, table_id)

    async def tables(self, tournament_id: int | None = None) -> list[TableRow]:
        if tournament_id is None:
            rows = await self._fetch(f"SELECT {_TABLE_COLS} FROM clock_tables ORDER BY id")
        else:
            rows = await self._fetch(
                f"SELECT {_TABLE_COLS} FROM clock_tables WHERE tournament_id = $1 ORDER BY id",
                tournament_id)
        return [_table(r) for r in rows]

    async def table(self, table_id: int) -> TableRow:
        r = await self._fetchrow(f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = $1",
                                 table_id)
        if r is None:
            raise NotFound(f"no table {table_id}")
        return _table(r)

    async def events(self, table_id: int, after_seq: int = 0) -> list[StoredEvent]:
        rows = await self._fetch(
            f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = $1 AND seq > $2 "
            "ORDER BY seq", table_id, after_seq)
        return [_event(r) for r in rows]

    async def all_events(self) -> dict[int, list[StoredEvent]]:
        cols = ", ".join("e." + c.strip() for c in _EVENT_COLS.split(","))
        rows = await self._fetch(
            f"SELECT {cols} FROM clock_events e JOIN clock_tables t ON t.id = e.table_id "
            "WHERE t.closed_ms IS NULL ORDER BY e.table_id, e.seq")
        out: dict[int, list[StoredEvent]] = {}
        for r in rows:
            out.setdefault(r[0], []).append(_event(r))
        return out

    async def events_page(self, table_id: int, after_seq: int, limit: int) -> list[StoredEvent]:
        rows = await self._fetch(
            f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = $1 AND seq > $2 "
            "ORDER BY seq LIMIT $3", table_id, after_seq, limit)
        return [_event(r) for r in rows]

    async def idem_keys(self, table_id: int, upto_seq: int) -> list[str]:
        rows = await self._fetch("SELECT idem_key FROM clock_events WHERE table_id = $1 "
                                 "AND seq <= $2 AND idem_key IS NOT NULL", table_id, upto_seq)
        return [str(r[0]) for r in rows]

    async def event_by_key(self, table_id: int, idem_key: str) -> StoredEvent | None:
        row = await self._fetchrow(f"SELECT {_EVENT_COLS} FROM clock_events "
                                   "WHERE table_id = $1 AND idem_key = $2", table_id, idem_key)
        return None if row is None else _event(row)

    async def snapshot(self, table_id: int) -> StoredSnapshot | None:
        row = await self._fetchrow(
            f"SELECT {', '.join('s.' + c.strip() for c in SNAPSHOT_COLS.split(','))} "
            "FROM clock_snapshots s JOIN clock_tables t ON t.id = s.table_id "
            "AND t.created_ms = s.created_ms WHERE s.table_id = $1", table_id)
        return None if row is None else snapshot_row(tuple(row))

    async def all_snapshots(self) -> dict[int, StoredSnapshot]:
        return {r[0]: snapshot_row(tuple(r)) for r in await self._fetch(ALL_SNAPSHOTS_SQL)}

    async def stored_many(self, table_ids: Sequence[int]) -> dict[int, tuple[
            TableRow, StoredSnapshot | None, list[StoredEvent], list[StoredNote]]]:
        """What folding each of ``table_ids`` reads (its row, its snapshot of
        the current match, the events after it, its notes), in four reads on
        one connection for all of them: the tables a process takes over at
        once.  A table that does not exist is left out."""
        ids = list(table_ids)
        snap_cols = ", ".join("s." + c.strip() for c in SNAPSHOT_COLS.split(","))

        async def get(c: Any) -> dict[int, tuple[
                TableRow, StoredSnapshot | None, list[StoredEvent], list[StoredNote]]]:
            rows = {t.id: t for t in map(_table, await c.fetch(
                f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = ANY($1::bigint[])", ids))}
            snaps = {s.table_id: s for s in (snapshot_row(tuple(r)) for r in await c.fetch(
                f"SELECT {snap_cols} FROM clock_snapshots s JOIN clock_tables t "
                "ON t.id = s.table_id AND t.created_ms = s.created_ms "
                "WHERE s.table_id = ANY($1::bigint[])", ids))}
            found = sorted(rows)
            tails: dict[int, list[StoredEvent]] = {tid: [] for tid in found}
            for r in await c.fetch(
                    f"SELECT {_EVENT_COLS} FROM clock_events JOIN unnest($1::bigint[], "
                    "$2::bigint[]) AS w (wanted, past) ON table_id = w.wanted AND seq > w.past "
                    "ORDER BY table_id, seq",
                    found, [snaps[t].seq if t in snaps else 0 for t in found]):
                tails[r[0]].append(_event(r))
            notes: dict[int, list[StoredNote]] = {tid: [] for tid in found}
            for r in await c.fetch(f"SELECT {_NOTE_COLS} FROM clock_notes "
                                   "WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, n",
                                   found):
                notes[r[0]].append(_note(r))
            return {tid: (rows[tid], snaps.get(tid), tails[tid], notes[tid]) for tid in found}

        return await self._with(get)

    async def all_tails(self, whole_up_to: int = 0) -> dict[int, list[StoredEvent]]:
        async def get(c: Any) -> dict[int, list[StoredEvent]]:
            out: dict[int, list[StoredEvent]] = {}
            for r in await c.fetch(tails_sql(_EVENT_COLS)):
                out.setdefault(r[0], []).append(_event(r))
            short = [r[0] for r in await c.fetch(UNSNAPPED_SQL) if r[1] <= whole_up_to]
            out.update((tid, []) for tid in short)
            if short:
                for r in await c.fetch(
                        f"SELECT {_EVENT_COLS} FROM clock_events "
                        "WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, seq", short):
                    out[r[0]].append(_event(r))
            return out

        return await self._with(get)

    async def put_snapshots(self, snapshots: Sequence[StoredSnapshot]) -> None:
        rows = [snapshot_values(x) for x in snapshots]

        async def put(c: Any) -> None:
            async with c.transaction():
                await c.executemany(numbered(PUT_SNAPSHOT_SQL), rows)

        if rows:
            await self._with(put, writes=Doubt())

    async def notes(self, table_id: int) -> list[StoredNote]:
        rows = await self._fetch(
            f"SELECT {_NOTE_COLS} FROM clock_notes WHERE table_id = $1 ORDER BY n", table_id)
        return [_note(r) for r in rows]

    async def all_notes(self) -> dict[int, list[StoredNote]]:
        cols = ", ".join("x." + c.strip() for c in _NOTE_COLS.split(","))
        rows = await self._fetch(
            f"SELECT {cols} FROM clock_notes x JOIN clock_tables t ON t.id = x.table_id "
            "WHERE t.closed_ms IS NULL ORDER BY x.table_id, x.n")
        out: dict[int, list[StoredNote]] = {}
        for r in rows:
            out.setdefault(r[0], []).append(_note(r))
        return out

    async def actions(self, tournament_id: int) -> list[StoredAction]:
        rows = await self._fetch(
            "SELECT n, at_ms, body, source FROM tournament_actions WHERE tournament_id = $1 "
            "ORDER BY n", tournament_id)
        return [StoredAction(tournament_id=tournament_id, n=r[0], at_ms=r[1],
                             action=json.loads(r[2]), source=r[3]) for r in rows]

    async def append_actions(self, actions: Sequence[StoredAction]) -> None:
        rows = [(a.tournament_id, a.n, a.at_ms, a.body(), a.source, a.request_id)
                for a in actions]
        fenced: dict[int, int] = {}
        if self.epochs is not None:
            for tid in {a.tournament_id for a in actions}:
                epoch = self.epochs.epoch("tournament", tid)
                fenced[tid] = -1 if epoch is None else epoch

        async def append(c: Any) -> None:
            async with c.transaction():
                for tid, epoch in fenced.items():
                    if await c.fetchval(
                            "SELECT 1 FROM leases WHERE kind = 'tournament' AND id = $1 "
                            "AND epoch = $2 FOR SHARE", tid, epoch) is None:
                        raise Fenced(f"tournament {tid} is owned by another process now (a "
                                     "newer lease epoch): nothing written", [])
                await c.executemany(
                    "INSERT INTO tournament_actions (tournament_id, n, at_ms, body, source, "
                    "request_id) VALUES ($1, $2, $3, $4, $5, $6)", rows)

        writes = Doubt()
        writes.add(actions=actions)
        await self._with(append, writes=writes)

    async def request_stored(self, request_id: str) -> bool:
        rows = await self._fetch(
            "SELECT 1 FROM tournament_actions WHERE request_id = $1 LIMIT 1", request_id)
        return bool(rows)

    async def next_match(self, table_id: int, spec: TableSpec, created_ms: int, *,
                         tournament_id: int | None = None) -> TableRow:
        async def renew(c: Any) -> TableRow:
            async with c.transaction():
                row = await c.fetchrow(
                    f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = $1 FOR UPDATE", table_id)
                if row is None:
                    raise NotFound(f"no table {table_id}")
                old = _table(row)
                owner = old.tournament_id if tournament_id is None else tournament_id
                events = [_event(r) for r in await c.fetch(
                    f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = $1 ORDER BY seq",
                    table_id)]
                notes = [_note(r) for r in await c.fetch(
                    f"SELECT {_NOTE_COLS} FROM clock_notes WHERE table_id = $1 ORDER BY n",
                    table_id)]
                n = await c.fetchval(
                    "SELECT COALESCE(MAX(n), 0) + 1 FROM clock_archive WHERE table_id = $1",
                    table_id)
                events_json, notes_json = archive_body(events, notes)
                await c.execute(
                    "INSERT INTO clock_archive (table_id, n, spec, created_ms, archived_ms, "
                    "events, notes) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    table_id, n, json.dumps(old.spec.to_dict()), old.created_ms, created_ms,
                    events_json, notes_json)
                await c.execute("DELETE FROM clock_events WHERE table_id = $1", table_id)
                await c.execute("DELETE FROM clock_notes WHERE table_id = $1", table_id)
                await c.execute("DELETE FROM clock_snapshots WHERE table_id = $1", table_id)
                await c.execute(
                    "UPDATE clock_tables SET name = $1, player_a = $2, player_b = $3, "
                    "rules = $4, length = $5, score_a = $6, score_b = $7, teams = $8, "
                    "crawford = $9, clock = $10, warn_s = $11, created_ms = $12, "
                    "checkpoint_ms = NULL, tournament_id = $14 WHERE id = $13",
                    spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
                    spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                    json.dumps(spec.clock), json.dumps(list(spec.warn_s)), created_ms, table_id,
                    owner)
            return TableRow(id=table_id, tournament_id=owner, spec=spec,
                            created_ms=created_ms, closed_ms=old.closed_ms)

        return await self._with(renew, writes=Doubt())

    async def archive(self, table_id: int) -> list[ArchivedMatch]:
        rows = await self._fetch(
            "SELECT table_id, n, spec, created_ms, archived_ms, events, notes "
            "FROM clock_archive WHERE table_id = $1 ORDER BY n", table_id)
        return [archived_match(*tuple(r)) for r in rows]

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        epochs = self.epochs
        fenced: dict[int, int] = {}
        if epochs is not None:
            for tid in {*(e.table_id for e in events), *(x.table_id for x in notes),
                        *checkpoints}:
                fenced[tid] = -1 if (epoch := epochs.epoch("table", tid)) is None else epoch

        event_rows = [(e.table_id, e.seq, e.idem_key, e.at_ms, e.body(), e.source,
                       e.lag_credit_ms, e.received_ms) for e in events]
        note_rows = [(x.table_id, x.n, x.seq, x.idem_key, x.at_ms, x.body(), x.source,
                      x.received_ms) for x in notes]

        async def write(c: Any) -> None:
            if not fenced:
                await c.execute(_BULK_ALL, *_columns(event_rows, 8), *_columns(note_rows, 8),
                                list(checkpoints), list(checkpoints.values()))
                return
            async with c.transaction():
                if fenced:
                    held = {r[0] for r in await c.fetch(_FENCE, list(fenced),
                                                        list(fenced.values()))}
                    lost = sorted(set(fenced) - held)
                    if lost:
                        raise Fenced(f"tables {', '.join(map(str, lost))} are owned by "
                                     "another process now (a newer lease epoch): nothing "
                                     "written", lost)
                # One statement per kind of row, whatever the batch's size
                # (columns as arrays through unnest), not a round of
                # statements per row.
                if events:
                    await c.execute(_BULK_EVENTS, *_columns(event_rows, 8))
                if notes:
                    await c.execute(_BULK_NOTES, *_columns(note_rows, 8))
                if checkpoints:
                    await c.execute(_BULK_CHECKPOINTS, list(checkpoints),
                                    list(checkpoints.values()))

        writes = Doubt()
        writes.add(events=events, notes=notes)
        await self._with(write, writes=writes, own=True)


async def _nothing(conn: Any) -> None:
    """A write of nothing (``close`` settles what is in doubt with it)."""


def _words(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


async def _end_sessions(conn: Any, pids: Sequence[int], app_name: str, deadline_s: float) -> None:
    """End this process's old sessions ``pids`` (if the database still has them)
    and wait until they are gone: their open transactions are rolled back,
    their locks released."""
    if not pids:
        return
    await conn.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE pid = ANY($1::int[]) AND application_name = $2", list(pids), app_name)
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline_s
    while await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[]) "
            "AND application_name = $2", list(pids), app_name):
        if loop.time() >= until:
            raise StoreUnavailable("an old session of this server does not end")
        await asyncio.sleep(0.05)
