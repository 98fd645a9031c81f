"""The durable floor: what storing a press costs at the least, with bgclock's own kind of store.

``bench/bare_server.py --durable sqlite:PATH`` (or ``--durable
postgresql://...``) stores every press before its ack, as ``bgclock serve``
does, and does nothing else: no clock engine, no checks, no snapshots, no
checkpoints, no notes.  What it mirrors, and from where:

* One row per press (``floor_presses``: the columns of bgclock's
  ``clock_events``, primary key ``(table_id, seq)`` and ``UNIQUE (table_id,
  idem_key)``, the idem key being the press's id), its body the event's JSON
  encoded on the event loop, as ``StoredEvent.body`` is.  No foreign key to a
  table of tables (bgclock's SQLite store turns ``foreign_keys`` on).
* Group commit (``bgclock.server.live.writer.Writer._run``): a press is
  queued with its callback; one task takes everything queued, commits it as
  one transaction, then runs the callbacks in order; presses arriving while a
  commit is in flight go into the next one.  The callbacks' messages go out
  as one ``batch`` frame per connection per commit to a client that said
  hello with ``batch`` (``FrameBatch``): the press's update to its table's
  watchers and the director, its ack to its sender.
* SQLite (``bgclock.store._sqlite.SqliteStore``): ``journal_mode=WAL``,
  ``synchronous=FULL``, ``busy_timeout`` of the deadline (``open``); one
  connection owned by one thread, a call handed to it by a ``SimpleQueue``
  and answered by ``call_soon_threadsafe`` (``StoreThread``), awaited under
  ``asyncio.timeout(deadline)`` and interrupted past it (``_run``); a commit
  of up to ``SMALL_COMMIT`` rows as an ``executemany`` of plain INSERTs, a
  bigger one as one INSERT over a JSON array built on the loop (``commit``,
  ``_BULK_EVENTS``, ``_rows_json``), in ``BEGIN IMMEDIATE ... COMMIT``.
* PostgreSQL (``bgclock.store._postgres.PostgresStore``): asyncpg; the
  commits' own connection (``_writer_connection``) with the store's session
  settings (``_settings``: ``synchronous_commit=on``, ``statement_timeout``
  and ``idle_in_transaction_session_timeout`` from the deadline); a commit is
  one statement, ``INSERT ... SELECT * FROM unnest($1::bigint[], ...)``
  (``commit``'s ``_BULK_ALL``, its events part), under the writer lock and
  ``asyncio.timeout(deadline)`` (``_with(..., own=True)``); a broken or
  stalled link terminates the connection, and the next commit makes another.

Left out on purpose (the rest of bgclock's work, not the floor's): the doubt
of a write past its deadline and its settling, the store's claim (flock or
advisory lock), the one-by-one retry of a refused batch, a cluster's fence.
A commit that fails answers each of its presses ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import orjson

#: ``bgclock.store.DEFAULT_DEADLINE_S``.
DEADLINE_S = 5.0
#: ``bgclock.store._sqlite.SMALL_COMMIT``: more rows go as one JSON array.
SMALL_COMMIT = 4

COLS = "table_id, seq, idem_key, at_ms, body, source, lag_credit_ms, received_ms"
TABLE = """CREATE TABLE IF NOT EXISTS floor_presses (
    table_id {bigint} NOT NULL, seq INTEGER NOT NULL, idem_key TEXT, at_ms {bigint} NOT NULL,
    body TEXT NOT NULL, source TEXT NOT NULL, lag_credit_ms INTEGER NOT NULL,
    received_ms {bigint} NOT NULL, PRIMARY KEY (table_id, seq), UNIQUE (table_id, idem_key))"""
SQLITE_INSERT = f"INSERT INTO floor_presses ({COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
SQLITE_BULK = (f"INSERT INTO floor_presses ({COLS}) SELECT "
               + ", ".join(f"value ->> {i}" for i in range(8))
               + " FROM json_each(?) ORDER BY key")
PG_BULK = (f"INSERT INTO floor_presses ({COLS}) SELECT * FROM unnest("
           "$1::bigint[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[], "
           "$7::integer[], $8::bigint[])")

Row = tuple[int, int, str, int, str, str, int, int]


class SqliteFloor:
    """One SQLite connection on one thread (``StoreThread``, ``SqliteStore._run``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._calls: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any],
                                             Callable[[], Any]]] = queue.SimpleQueue()
        self._db: sqlite3.Connection | None = None
        threading.Thread(target=self._work, name="floor-sqlite", daemon=True).start()

    def _work(self) -> None:
        while True:
            loop, future, fn = self._calls.get()
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_answer, future, *outcome)

    async def _run(self, fn: Callable[[], Any]) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._calls.put((loop, future, fn))
        try:
            async with asyncio.timeout(DEADLINE_S):
                return await future
        except TimeoutError:
            if self._db is not None:
                self._db.interrupt()
            raise

    async def open(self) -> None:
        def connect() -> None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA busy_timeout={int(DEADLINE_S * 1000)}")
            db.execute(TABLE.format(bigint="INTEGER"))
            self._db = db

        await self._run(connect)

    async def commit(self, rows: list[Row]) -> None:
        bulk = len(rows) > SMALL_COMMIT
        rows_json = orjson.dumps(rows).decode() if bulk else ""

        def write() -> None:
            db = self._db
            assert db is not None
            db.execute("BEGIN IMMEDIATE")
            try:
                if bulk:
                    db.execute(SQLITE_BULK, (rows_json,))
                else:
                    db.executemany(SQLITE_INSERT, rows)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.rollback()
                raise

        await self._run(write)


def _answer(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return  # its caller gave up (the deadline)
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class PostgresFloor:
    """The commits' own asyncpg connection (``PostgresStore._writer_connection``, ``_with``)."""

    def __init__(self, dsn: str, schema: str) -> None:
        self.dsn = dsn
        self.schema = schema
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def _connection(self) -> Any:
        import asyncpg  # type: ignore[import-untyped]

        if self._conn is None or self._conn.is_closed():
            ms = str(int(DEADLINE_S * 1000))
            self._conn = await asyncpg.connect(
                self.dsn, timeout=DEADLINE_S, command_timeout=DEADLINE_S,
                server_settings={"search_path": self.schema, "synchronous_commit": "on",
                                 "statement_timeout": ms,
                                 "idle_in_transaction_session_timeout": str(2 * int(ms))})
        return self._conn

    async def open(self) -> None:
        conn = await self._connection()
        await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
        await conn.execute(TABLE.format(bigint="BIGINT"))

    async def commit(self, rows: list[Row]) -> None:
        import asyncpg

        columns = [list(col) for col in zip(*rows, strict=True)]
        conn: Any = None
        try:
            async with asyncio.timeout(DEADLINE_S), self._lock:
                conn = await self._connection()
                await conn.execute(PG_BULK, *columns)
        except asyncpg.PostgresError:
            raise  # refused: the connection is fine
        except Exception:
            if conn is not None:  # broken or stalled: never used again
                conn.terminate()
                self._conn = None
            raise


class Floor:
    """Group commit of presses, then their messages (``Writer``, ``FrameBatch``)."""

    def __init__(self, store: SqliteFloor | PostgresFloor) -> None:
        self.store = store
        self._items: list[tuple[Row, Callable[[BaseException | None], None]]] = []
        self._wakeup = asyncio.Event()
        #: connection -> (it reads ``batch`` frames, the messages held for it)
        self._held: dict[Any, tuple[bool, list[str]]] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def submit(self, row: Row, done: Callable[[BaseException | None], None]) -> None:
        self._items.append((row, done))
        self._wakeup.set()

    def send(self, ws: Any, text: str, batch: bool) -> None:
        """A message of a commit's callbacks, held until they all ran: then
        one frame per connection (hello ``batch``), else a frame per message."""
        held = self._held.get(ws)
        if held is None:
            self._held[ws] = held = (batch, [])
        held[1].append(text)

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            items, self._items = self._items, []
            if not items:
                continue
            error: BaseException | None = None
            try:
                await self.store.commit([row for row, _ in items])
            except Exception as exc:  # noqa: BLE001 - every press of the commit is told
                error = exc
            for _, done in items:
                done(error)
            held, self._held = self._held, {}
            for ws, (batch, texts) in held.items():
                frames = ([texts[0] if len(texts) == 1 else
                           '{"type":"batch","messages":[' + ",".join(texts) + "]}"]
                          if batch else texts)
                for frame in frames:
                    with contextlib.suppress(Exception):  # a watcher gone meanwhile
                        await ws.send_text(frame)


async def open_floor(where: str, schema: str) -> Floor:
    """``sqlite:PATH`` or ``postgresql://...`` (its table in ``schema``): the floor, opened."""
    store: SqliteFloor | PostgresFloor
    if where.startswith("sqlite:"):
        store = SqliteFloor(where.removeprefix("sqlite:"))
    else:
        store = PostgresFloor(where, schema)
    await store.open()
    floor = Floor(store)
    floor.start()
    return floor
