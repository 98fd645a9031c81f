"""The SQLite store: one connection, owned by one worker thread.

WAL mode with ``synchronous=FULL``: a commit is on disk when it returns, and
readers never block the writer.  Every call runs on the store's single thread
(sqlite3 connections belong to the thread that made them), so the event loop
never waits on the disk.

One process owns the file: ``claim`` takes an exclusive ``flock`` on a
sibling file, ``NAME.lock`` (beside ``NAME``), held until ``close``.  The
kernel drops it when the process ends, however it ends, so a crash leaves no
stale lock; the file itself stays (it holds the owner's pid, for the message
a second server prints).

Every call has a deadline (``deadline_s``): SQLite waits that long for a lock
held by another connection (``busy_timeout``), and the event loop waits that
long for the store's thread.  A call past it is interrupted
(``Connection.interrupt``) and answered ``StoreUnavailable``; the thread may
still be stuck in it (a disk that does not answer), so the next calls queue
behind it and fail by their own deadlines until it returns.  A write that
timed out is in doubt: the next write first deletes its rows, should they
have landed after all (``Doubt``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import sqlite3
import sys
import threading
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson

from . import (
    ALL_SNAPSHOTS_SQL,
    DEFAULT_DEADLINE_S,
    PUT_SNAPSHOT_SQL,
    SETTLE_SQL,
    SNAPSHOT_COLS,
    UNSNAPPED_SQL,
    ArchivedMatch,
    Doubt,
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
    snapshot_row,
    snapshot_values,
    tails_sql,
)
from ._published import SqlitePublished
from ._register import SqliteRegister
from ._schema import LATEST, SQLITE_FOREIGN_KEY_CHECKS, VERSION_TABLE, statements

T = TypeVar("T")

_TABLE_COLS = (
    "id, tournament_id, name, player_a, player_b, rules, length, score_a, score_b, teams, "
    "crawford, clock, created_ms, closed_ms, checkpoint_ms, warn_s"
)
_EVENT_COLS = "table_id, seq, idem_key, at_ms, body, source, lag_credit_ms, received_ms"
_NOTE_COLS = "table_id, n, seq, idem_key, at_ms, body, source, received_ms"


def _from_json_rows(table: str, cols: str) -> str:
    """One INSERT of every row of a JSON array of rows (``json_each``)."""
    names = [c.strip() for c in cols.split(",")]
    values = ", ".join(f"value ->> {i}" for i in range(len(names)))
    return f"INSERT INTO {table} ({cols}) SELECT {values} FROM json_each(?) ORDER BY key"


#: A commit is a fixed handful of statements, whatever the number of rows: the
#: sqlite3 module releases the GIL around every step of every row, and takes it
#: back before the next, so an ``executemany`` of n rows is n hand-offs between
#: this thread and a busy event loop (each up to the interpreter's 5 ms switch
#: interval): at 2,000 running tables a commit took seconds that way.
_BULK_EVENTS = _from_json_rows("clock_events", _EVENT_COLS)
_BULK_NOTES = _from_json_rows("clock_notes", _NOTE_COLS)
_BULK_CHECKPOINTS = (
    "UPDATE clock_tables AS t SET checkpoint_ms = c.value ->> 1 FROM json_each(?) AS c "
    "WHERE t.id = c.value ->> 0 AND (t.checkpoint_ms IS NULL OR t.checkpoint_ms < c.value ->> 1)"
)
if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        """Lock one byte far past the pid (Windows refuses reads of a locked range)."""
        os.lseek(fd, 4096, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def _read_pid(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 32).decode("ascii", "replace").strip()


#: ``->>`` and ``UPDATE ... FROM``: SQLite 3.38 (older libraries run one statement per row).
BULK_SQLITE = sqlite3.sqlite_version_info >= (3, 38, 0)


def _rows_json(rows: list[Any]) -> str:
    """Rows as one JSON array for ``json_each`` (which reads the values back
    whatever their escapes): orjson, or the standard library for what orjson
    refuses (a lone surrogate, an integer past 64 bits)."""
    try:
        return orjson.dumps(rows).decode()
    except TypeError:
        return json.dumps(rows, separators=(",", ":"))


def _table(row: tuple[Any, ...]) -> TableRow:
    return TableRow(id=row[0], tournament_id=row[1], spec=_row_spec(*row[2:12], *row[15:16]),
                    created_ms=row[12], closed_ms=row[13], checkpoint_ms=row[14])


def _event(row: tuple[Any, ...]) -> StoredEvent:
    return StoredEvent(table_id=row[0], seq=row[1], idem_key=row[2], at_ms=row[3],
                       event=json.loads(row[4]), source=row[5], lag_credit_ms=row[6],
                       received_ms=row[7])


def _note(row: tuple[Any, ...]) -> StoredNote:
    return StoredNote(table_id=row[0], n=row[1], seq=row[2], idem_key=row[3], at_ms=row[4],
                      note=json.loads(row[5]), source=row[6], received_ms=row[7])


#: A commit of at most this many rows is written as plain statements.
SMALL_COMMIT = 4

class StoreThread:
    """The store's one thread: calls run in order, each answered on the
    caller's event loop.

    Not a ``ThreadPoolExecutor``: a commit is one call, and the executor's
    hand-off (a work item, a ``concurrent.futures.Future`` and its
    condition variable, the chained asyncio future) cost as much CPU as a
    small commit's statements; here a call is one ``SimpleQueue.put`` and
    its answer one ``call_soon_threadsafe``."""

    def __init__(self, name: str = "bgclock-sqlite") -> None:
        self.name = name
        self._calls: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any],
                                             Callable[[], Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._dropping = False

    @property
    def started(self) -> bool:
        """A call was submitted (the thread runs, or ran)."""
        return self._thread is not None

    def submit(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """Run ``fn`` on the store's thread (after the calls before it)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self.name,
                                            daemon=True)
            self._thread.start()
        self._calls.put((loop, future, fn))
        return future

    def _work(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, future, fn = call
            if self._dropping or future.cancelled():
                # dropped, or its caller gave up before it began (a deadline:
                # the caller put its writes in doubt, and a settle may already
                # have run for them): it must never run late
                outcome: tuple[bool, Any] = (False, None)
            else:
                try:
                    outcome = (True, fn())
                except BaseException as exc:  # noqa: BLE001 - handed to the caller
                    outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_answer, future, *outcome)

    def shutdown(self, *, wait: bool, cancel_futures: bool = False) -> None:
        """No more calls; ``cancel_futures``: the queued ones are dropped."""
        self._dropping = self._dropping or cancel_futures
        self._calls.put(None)
        if wait and self._thread is not None:
            self._thread.join()


def _answer(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """A store call's outcome, on its caller's loop (``StoreThread``)."""
    if future.done():
        return  # its caller gave up (a deadline)
    if ok:
        future.set_result(value)
    elif value is None:
        future.cancel()
    else:
        future.set_exception(value)


class SqliteStore(SqliteRegister, SqlitePublished, Store):
    """The embedded default store (a file path, or ``:memory:`` for tests)."""

    def __init__(self, path: str | Path, *, deadline_s: float = DEFAULT_DEADLINE_S) -> None:
        self.path = str(path)
        self.deadline_s = deadline_s
        self._pool = StoreThread()
        self._db: sqlite3.Connection | None = None
        #: The desk's big reads (the register's lists): a read-only connection
        #: on a thread of its own, so a read of 10,000 rows never queues a
        #: table's commit behind it (WAL: a reader sees the last commit and
        #: never waits for the writer).  ``:memory:`` has one connection only.
        self._reader = StoreThread("bgclock-sqlite-read")
        self._rdb: sqlite3.Connection | None = None
        #: Commit every kind of row in one statement (``BULK_SQLITE``).
        self.bulk = BULK_SQLITE
        #: The claim's lock file, open while this process owns the store.
        self._lock_fd: int | None = None
        #: Writes a deadline left in doubt (guarded by ``_doubt_lock``: the loop
        #: adds, the store's thread settles).
        self._doubt = Doubt()
        self._doubt_lock = threading.Lock()

    @property
    def lock_path(self) -> Path:
        """The file whose ``flock`` says who owns the store."""
        real = Path(self.path).resolve()
        return real.with_name(real.name + ".lock")

    async def claim(self) -> None:
        if self._lock_fd is not None or self.path == ":memory:":
            return
        path = self.lock_path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot make the lock file {path}: "
                             f"{exc.strerror or exc}") from exc
        try:
            if not _try_lock(fd):
                holder = _read_pid(fd)
                who = f" (pid {holder})" if holder.isdigit() else ""
                raise StoreBusy(f"{self.path} is in use by another bgclock serve{who}: stop "
                                "it first, or give another --db")
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()}\n".ljust(16).encode("ascii"))
        except BaseException:
            os.close(fd)
            raise
        self._lock_fd = fd

    @property
    def lost(self) -> str | None:
        return None  # a flock is held until the process lets it go

    async def _run(self, fn: Callable[[sqlite3.Connection], T], *,
                   writes: Doubt | None = None) -> T:
        """``fn(db)`` on the store's thread, within the deadline.  ``writes``:
        the rows ``fn`` writes, in doubt should the deadline pass.  Every
        call, a read too, first settles what earlier writes left in doubt: a
        table reloaded after a failed commit, or a resent command looked up
        by its id, must not find a row its sender was told was not stored
        (and that the next write would take away)."""
        def call() -> T:
            if self._db is None:
                raise StoreError("the store is closed")
            try:
                self._settle(self._db)
                return fn(self._db)
            except BaseException as exc:
                # whatever failed (a statement, a value Python cannot bind),
                # an open transaction never outlives its call
                if self._db.in_transaction:
                    self._db.rollback()
                if isinstance(exc, sqlite3.OperationalError) and (
                        "locked" in str(exc) or "interrupted" in str(exc)):
                    raise StoreUnavailable(f"the database is busy: {exc}") from exc
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(str(exc)) from exc
                raise

        future = self._pool.submit(call)
        try:
            async with asyncio.timeout(self.deadline_s):
                return await future
        except TimeoutError:
            if writes:
                with self._doubt_lock:
                    self._doubt.extend(writes)
            if self._db is not None:
                self._db.interrupt()  # whatever it is stuck in, if SQLite can stop it
            raise StoreUnavailable(f"the database did not answer within "
                                   f"{self.deadline_s:g} s") from None

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(db)`` on the read connection's thread, within the deadline
        (on the store's own thread for ``:memory:``)."""
        if self.path == ":memory:" or self._doubt:
            # rows in doubt are settled on the store's thread first (``_run``)
            return await self._run(fn)

        def call() -> T:
            if self._db is None:
                raise StoreError("the store is closed")
            if self._rdb is None:
                uri = Path(self.path).resolve().as_uri() + "?mode=ro"
                self._rdb = sqlite3.connect(uri, uri=True, isolation_level=None,
                                            check_same_thread=False)
                self._rdb.execute(f"PRAGMA busy_timeout={int(self.deadline_s * 1000)}")
            try:
                return fn(self._rdb)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "interrupted" in str(exc):
                    raise StoreUnavailable(f"the database is busy: {exc}") from exc
                raise StoreError(str(exc)) from exc
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from exc

        future = self._reader.submit(call)
        try:
            async with asyncio.timeout(self.deadline_s):
                return await future
        except TimeoutError:
            if self._rdb is not None:
                self._rdb.interrupt()
            raise StoreUnavailable(f"the database did not answer within "
                                   f"{self.deadline_s:g} s") from None

    def _settle(self, db: sqlite3.Connection) -> None:
        """Delete the rows of writes left in doubt (the store's thread, before a write)."""
        with self._doubt_lock:
            if not self._doubt:
                return
            pending = self._doubt.copy()
        db.execute("BEGIN IMMEDIATE")
        for kind, sql in SETTLE_SQL.items():
            rows = getattr(pending, kind)
            if rows:
                db.executemany(sql, rows)
        db.execute("COMMIT")
        with self._doubt_lock:
            self._doubt.drop(pending)

    async def open(self) -> None:
        if self._db is not None:
            return

        def connect() -> None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA busy_timeout={int(self.deadline_s * 1000)}")
            db.execute(VERSION_TABLE)
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            # foreign keys off while the schema changes (a table made again,
            # migration 11, drops the one others point at: SQLite's own way,
            # sqlite.org/lang_altertable.html); what points at it is checked
            # before the migration commits
            db.execute("PRAGMA foreign_keys=OFF")
            for version in range(current + 1, LATEST + 1):
                db.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in statements("sqlite", version):
                        db.execute(stmt)
                    for table in SQLITE_FOREIGN_KEY_CHECKS.get(version, ()):
                        bad = db.execute(f"PRAGMA foreign_key_check({table})").fetchone()
                        if bad is not None:
                            raise StoreError(f"migration {version}: {table} row {bad[1]} "
                                             f"points at no {bad[2]}")
                    db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.rollback()
                    db.close()
                    raise
            db.execute("PRAGMA foreign_keys=ON")
            self._db = db

        await self._pool.submit(connect)

    async def close(self) -> None:
        if self._db is None and self._lock_fd is None:
            return  # closed already (or never opened)

        def shut() -> None:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._settle(self._db)  # nothing in doubt outlives the process
                self._db.close()
                self._db = None

        def shut_reader() -> None:
            if self._rdb is not None:
                self._rdb.close()
                self._rdb = None

        if self._reader.started:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.deadline_s):
                    await self._reader.submit(shut_reader)
            self._reader.shutdown(wait=False, cancel_futures=True)
        future = self._pool.submit(shut)
        try:
            async with asyncio.timeout(self.deadline_s):
                await future
            self._pool.shutdown(wait=True)
        except TimeoutError:  # the thread is stuck: leave it, let the process end
            self._pool.shutdown(wait=False, cancel_futures=True)
        finally:
            if self._lock_fd is not None:
                with contextlib.suppress(OSError):
                    os.close(self._lock_fd)  # and with it the flock
                self._lock_fd = None

    async def schema_version(self) -> int:
        return await self._run(
            lambda db: int(db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
        )

    async def get_meta(self, key: str) -> str | None:
        def get(db: sqlite3.Connection) -> str | None:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

        return await self._run(get)

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        def put(db: sqlite3.Connection) -> str:
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
            return str(db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])

        return await self._run(put)

    async def set_meta(self, key: str, value: str) -> None:
        await self._run(lambda db: db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)))

    async def create_tournament(self, name: str, created_ms: int,
                                club: str | None = None) -> TournamentRow:
        def create(db: sqlite3.Connection) -> TournamentRow:
            cur = db.execute("INSERT INTO tournaments (name, created_ms, club) VALUES (?, ?, ?)",
                             (name, created_ms, club))
            assert cur.lastrowid is not None
            return TournamentRow(id=cur.lastrowid, name=name, created_ms=created_ms, club=club)

        return await self._run(create, writes=Doubt(tournaments=[(name, created_ms)]))

    async def tournaments(self) -> list[TournamentRow]:
        def get(db: sqlite3.Connection) -> list[TournamentRow]:
            rows = db.execute(
                "SELECT id, name, created_ms, closed_ms, club FROM tournaments ORDER BY id"
            ).fetchall()
            return [TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3], club=r[4])
                    for r in rows]

        return await self._run(get)

    async def tournament(self, tournament_id: int) -> TournamentRow:
        def get(db: sqlite3.Connection) -> TournamentRow:
            r = db.execute("SELECT id, name, created_ms, closed_ms, club FROM tournaments "
                           "WHERE id = ?", (tournament_id,)).fetchone()
            if r is None:
                raise NotFound(f"no tournament {tournament_id}")
            return TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3], club=r[4])

        return await self._run(get)

    async def close_tournament(self, tournament_id: int, closed_ms: int, *,
                               keep: Collection[int] = ()) -> list[int]:
        kept = set(keep)

        def close(db: sqlite3.Connection) -> list[int]:
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute(
                "UPDATE tournaments SET closed_ms = ? WHERE id = ? AND closed_ms IS NULL",
                (closed_ms, tournament_id))
            ids = [r[0] for r in db.execute(
                "SELECT id FROM clock_tables WHERE tournament_id = ? AND closed_ms IS NULL",
                (tournament_id,)) if r[0] not in kept]
            db.executemany("UPDATE clock_tables SET closed_ms = ? WHERE id = ?",
                           [(closed_ms, i) for i in ids])
            db.execute("COMMIT")
            if cur.rowcount == 0 and not ids:
                exists = db.execute("SELECT 1 FROM tournaments WHERE id = ?",
                                    (tournament_id,)).fetchone()
                if exists is None:
                    raise NotFound(f"no tournament {tournament_id}")
            return ids

        return await self._run(close)

    async def create_table(self, tournament_id: int, spec: TableSpec,
                           created_ms: int) -> TableRow:
        def create(db: sqlite3.Connection) -> TableRow:
            if db.execute("SELECT 1 FROM tournaments WHERE id = ?",
                          (tournament_id,)).fetchone() is None:
                raise NotFound(f"no tournament {tournament_id}")
            cur = db.execute(
                "INSERT INTO clock_tables (tournament_id, name, player_a, player_b, rules, "
                "length, score_a, score_b, teams, crawford, clock, created_ms, warn_s) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, spec.name, spec.players[0], spec.players[1], spec.rules,
                 spec.length, spec.score[0], spec.score[1], int(spec.teams),
                 int(spec.crawford), json.dumps(spec.clock), created_ms,
                 json.dumps(list(spec.warn_s))))
            assert cur.lastrowid is not None
            return TableRow(id=cur.lastrowid, tournament_id=tournament_id, spec=spec,
                            created_ms=created_ms)

        return await self._run(create, writes=Doubt(
            tables=[(tournament_id, spec.name, created_ms)]))

    async def update_table(self, table_id: int, spec: TableSpec) -> TableRow:
        def update(db: sqlite3.Connection) -> TableRow:
            db.execute(
                "UPDATE clock_tables SET name = ?, player_a = ?, player_b = ?, rules = ?, "
                "length = ?, score_a = ?, score_b = ?, teams = ?, crawford = ?, clock = ?, "
                "warn_s = ? WHERE id = ?",
                (spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
                 spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                 json.dumps(spec.clock), json.dumps(list(spec.warn_s)), table_id))
            row = db.execute(f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = ?",
                             (table_id,)).fetchone()
            if row is None:
                raise NotFound(f"no table {table_id}")
            return _table(row)

        return await self._run(update)

    async def close_table(self, table_id: int, closed_ms: int) -> None:
        await self._run(lambda db: db.execute(
            "UPDATE clock_tables SET closed_ms = ? WHERE id = ? AND closed_ms IS NULL",
            (closed_ms, table_id)))

    async def tables(self, tournament_id: int | None = None) -> list[TableRow]:
        def get(db: sqlite3.Connection) -> list[TableRow]:
            if tournament_id is None:
                rows = db.execute(f"SELECT {_TABLE_COLS} FROM clock_tables ORDER BY id")
            else:
                rows = db.execute(f"SELECT {_TABLE_COLS} FROM clock_tables "
                                  "WHERE tournament_id = ? ORDER BY id", (tournament_id,))
            return [_table(r) for r in rows.fetchall()]

        return await self._run(get)

    async def events(self, table_id: int, after_seq: int = 0) -> list[StoredEvent]:
        return await self._run(lambda db: [_event(r) for r in db.execute(
            f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = ? AND seq > ? "
            "ORDER BY seq", (table_id, after_seq)).fetchall()])

    async def all_events(self) -> dict[int, list[StoredEvent]]:
        return await self._run(lambda db: _by_open_table(
            db, "clock_events", _EVENT_COLS, "seq", _event))

    async def events_page(self, table_id: int, after_seq: int, limit: int) -> list[StoredEvent]:
        return await self._run(lambda db: [_event(r) for r in db.execute(
            f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = ? AND seq > ? "
            "ORDER BY seq LIMIT ?", (table_id, after_seq, limit)).fetchall()])

    async def idem_keys(self, table_id: int, upto_seq: int) -> list[str]:
        return await self._run(lambda db: [str(r[0]) for r in db.execute(
            "SELECT idem_key FROM clock_events WHERE table_id = ? AND seq <= ? "
            "AND idem_key IS NOT NULL", (table_id, upto_seq)).fetchall()])

    async def event_by_key(self, table_id: int, idem_key: str) -> StoredEvent | None:
        def get(db: sqlite3.Connection) -> StoredEvent | None:
            row = db.execute(f"SELECT {_EVENT_COLS} FROM clock_events "
                             "WHERE table_id = ? AND idem_key = ?", (table_id, idem_key)).fetchone()
            return None if row is None else _event(row)

        return await self._run(get)

    async def snapshot(self, table_id: int) -> StoredSnapshot | None:
        def get(db: sqlite3.Connection) -> StoredSnapshot | None:
            row = db.execute(
                f"SELECT {', '.join('s.' + c.strip() for c in SNAPSHOT_COLS.split(','))} "
                "FROM clock_snapshots s JOIN clock_tables t ON t.id = s.table_id "
                "AND t.created_ms = s.created_ms WHERE s.table_id = ?", (table_id,)).fetchone()
            return None if row is None else snapshot_row(row)

        return await self._run(get)

    async def all_snapshots(self) -> dict[int, StoredSnapshot]:
        return await self._run(lambda db: {r[0]: snapshot_row(r) for r in db.execute(
            ALL_SNAPSHOTS_SQL)})

    async def all_tails(self, whole_up_to: int = 0) -> dict[int, list[StoredEvent]]:
        def get(db: sqlite3.Connection) -> dict[int, list[StoredEvent]]:
            out: dict[int, list[StoredEvent]] = {}
            for r in db.execute(tails_sql(_EVENT_COLS)):
                out.setdefault(r[0], []).append(_event(r))
            short = [tid for tid, last in db.execute(UNSNAPPED_SQL) if last <= whole_up_to]
            out.update((tid, []) for tid in short)
            if short:
                for r in db.execute(
                        f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id IN "
                        "(SELECT value FROM json_each(?)) ORDER BY table_id, seq",
                        (json.dumps(short),)):
                    out[r[0]].append(_event(r))
            return out

        return await self._run(get)

    async def put_snapshots(self, snapshots: Sequence[StoredSnapshot]) -> None:
        rows = [snapshot_values(x) for x in snapshots]

        def put(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(PUT_SNAPSHOT_SQL, rows)
            db.execute("COMMIT")

        if rows:
            await self._run(put, writes=Doubt())

    async def notes(self, table_id: int) -> list[StoredNote]:
        return await self._run(lambda db: [_note(r) for r in db.execute(
            f"SELECT {_NOTE_COLS} FROM clock_notes WHERE table_id = ? ORDER BY n",
            (table_id,)).fetchall()])

    async def all_notes(self) -> dict[int, list[StoredNote]]:
        return await self._run(lambda db: _by_open_table(
            db, "clock_notes", _NOTE_COLS, "n", _note))

    async def actions(self, tournament_id: int) -> list[StoredAction]:
        return await self._run(lambda db: [
            StoredAction(tournament_id=tournament_id, n=r[0], at_ms=r[1],
                         action=json.loads(r[2]), source=r[3])
            for r in db.execute("SELECT n, at_ms, body, source FROM tournament_actions "
                                "WHERE tournament_id = ? ORDER BY n", (tournament_id,))])

    async def append_actions(self, actions: Sequence[StoredAction]) -> None:
        rows = [(a.tournament_id, a.n, a.at_ms, a.body(), a.source) for a in actions]

        def append(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT INTO tournament_actions (tournament_id, n, at_ms, body, "
                           "source) VALUES (?, ?, ?, ?, ?)", rows)
            db.execute("COMMIT")

        writes = Doubt()
        writes.add(actions=actions)
        await self._run(append, writes=writes)

    async def next_match(self, table_id: int, spec: TableSpec, created_ms: int, *,
                         tournament_id: int | None = None) -> TableRow:
        def renew(db: sqlite3.Connection) -> TableRow:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = ?",
                             (table_id,)).fetchone()
            if row is None:
                raise NotFound(f"no table {table_id}")
            old = _table(row)
            owner = old.tournament_id if tournament_id is None else tournament_id
            events = [_event(r) for r in db.execute(
                f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = ? ORDER BY seq",
                (table_id,))]
            notes = [_note(r) for r in db.execute(
                f"SELECT {_NOTE_COLS} FROM clock_notes WHERE table_id = ? ORDER BY n",
                (table_id,))]
            n = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM clock_archive WHERE table_id = ?",
                           (table_id,)).fetchone()[0]
            events_json, notes_json = archive_body(events, notes)
            db.execute("INSERT INTO clock_archive (table_id, n, spec, created_ms, archived_ms, "
                       "events, notes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (table_id, n, json.dumps(old.spec.to_dict()), old.created_ms, created_ms,
                        events_json, notes_json))
            db.execute("DELETE FROM clock_events WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM clock_notes WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM clock_snapshots WHERE table_id = ?", (table_id,))
            db.execute(
                "UPDATE clock_tables SET name = ?, player_a = ?, player_b = ?, rules = ?, "
                "length = ?, score_a = ?, score_b = ?, teams = ?, crawford = ?, clock = ?, "
                "warn_s = ?, created_ms = ?, checkpoint_ms = NULL, tournament_id = ? "
                "WHERE id = ?",
                (spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
                 spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                 json.dumps(spec.clock), json.dumps(list(spec.warn_s)), created_ms, owner,
                 table_id))
            db.execute("COMMIT")
            return TableRow(id=table_id, tournament_id=owner, spec=spec,
                            created_ms=created_ms, closed_ms=old.closed_ms)

        return await self._run(renew)

    async def archive(self, table_id: int) -> list[ArchivedMatch]:
        return await self._run(lambda db: [archived_match(*r) for r in db.execute(
            "SELECT table_id, n, spec, created_ms, archived_ms, events, notes "
            "FROM clock_archive WHERE table_id = ? ORDER BY n", (table_id,))])

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        event_rows = [(e.table_id, e.seq, e.idem_key, e.at_ms, e.body(), e.source,
                       e.lag_credit_ms, e.received_ms) for e in events]
        note_rows = [(x.table_id, x.n, x.seq, x.idem_key, x.at_ms, x.body(), x.source,
                      x.received_ms) for x in notes]
        # A few rows go as plain statements (cheaper than the JSON arrays
        # for a commit of one press); more as a fixed handful of statements
        # over JSON arrays (``executemany`` gives the GIL back at every row).
        bulk = self.bulk and len(event_rows) + len(note_rows) + len(checkpoints) > SMALL_COMMIT
        if bulk:
            # Built here, on the event loop, in one go: the worker thread then
            # runs a fixed handful of statements whatever the batch's size.
            events_json = _rows_json(event_rows)
            notes_json = _rows_json(note_rows)
            checkpoints_json = _rows_json(list(checkpoints.items()))

        def write(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            if bulk:
                if event_rows:
                    db.execute(_BULK_EVENTS, (events_json,))
                if note_rows:
                    db.execute(_BULK_NOTES, (notes_json,))
                if checkpoints:
                    db.execute(_BULK_CHECKPOINTS, (checkpoints_json,))
                db.execute("COMMIT")
                return
            if event_rows:
                db.executemany(
                    f"INSERT INTO clock_events ({_EVENT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    event_rows)
            if note_rows:
                db.executemany(
                    f"INSERT INTO clock_notes ({_NOTE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    note_rows)
            if checkpoints:
                db.executemany(
                    "UPDATE clock_tables SET checkpoint_ms = ? WHERE id = ? "
                    "AND (checkpoint_ms IS NULL OR checkpoint_ms < ?)",
                    [(ms, tid, ms) for tid, ms in checkpoints.items()])
            db.execute("COMMIT")

        writes = Doubt()
        writes.add(events=events, notes=notes)
        await self._run(write, writes=writes)


R = TypeVar("R")


def _by_open_table(db: sqlite3.Connection, table: str, cols: str, order: str,
                   convert: Callable[[Any], R]) -> dict[int, list[R]]:
    """Rows of ``table`` for every open table, grouped by table id (first column)."""
    out: dict[int, list[R]] = {}
    for r in db.execute(
        f"SELECT {', '.join('x.' + c.strip() for c in cols.split(','))} "
        f"FROM {table} x JOIN clock_tables t ON t.id = x.table_id "
        f"WHERE t.closed_ms IS NULL ORDER BY x.table_id, x.{order}"
    ):
        out.setdefault(r[0], []).append(convert(r))
    return out
