"""bgclock.store: the durable event log of every table.

One interface, two stores: SQLite (``SqliteStore``, the default, WAL with
``synchronous=FULL``) and PostgreSQL (``PostgresStore``, asyncpg).  Both run
the same migrations (``_schema.py``).  The log is append-only: an accepted
clock event is a ``StoredEvent`` with its table's sequence number; the server
commits many of them, from many tables, in one transaction (``commit``).

One process owns a store (``Store.claim``): a lock beside the SQLite file, a
session-level advisory lock on PostgreSQL.  Every call has a deadline
(``deadline_s``, ``DEFAULT_DEADLINE_S``): a database that does not answer in
time is a ``StoreUnavailable`` error, never a wait without end.  A write
whose outcome the deadline left unknown (a commit sent, no answer) is
*in doubt*: before its next write the store makes sure it is not in the
database (``Doubt``), so that what the server answered (an error) is what
the database holds.
"""

from __future__ import annotations

import abc
import json
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import orjson

from ._errors import Fenced, NotFound, StoreBusy, StoreError, StoreUnavailable
from ._fence import Epochs
from ._published import OutOfOrder, Publication, PublishedStore
from ._register import MAX_REGISTER, RegisterEntry, RegisterLine, RegisterStore


def canonical_json(obj: Any) -> str:
    """The stored form of an event's or a note's body: compact, keys sorted,
    ASCII (``json.dumps(obj, separators=(",", ":"), sort_keys=True)``).

    orjson writes the same bytes for what a body holds (strings, integers,
    booleans, null, lists and objects: the protocol has no floats) about 20
    times faster; a body it writes otherwise (non-ASCII text, which the
    standard library escapes, or an integer past 64 bits) is written by the
    standard library, so the stored bytes never change.  (The standard
    library escapes everything outside space..tilde: DEL too.)"""
    try:
        out = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError: an integer past 64 bits
        out = b"\x80"
    if out.isascii() and b"\x7f" not in out:
        return out.decode()
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


#: Seconds a database call may take before it is a ``StoreUnavailable`` error.
DEFAULT_DEADLINE_S = 5.0
#: The deadlines ``bgclock serve --db-timeout`` accepts, in seconds.
DEADLINE_BOUNDS = (1.0, 60.0)


def check_deadline(seconds: float) -> float:
    """``seconds`` if it is a deadline the stores accept, else ``ValueError``
    naming the option."""
    low, high = DEADLINE_BOUNDS
    if not low <= seconds <= high:  # also refuses nan
        raise ValueError(f"--db-timeout: {seconds} is outside {low:g}-{high:g} seconds")
    return float(seconds)


@dataclass(slots=True)
class Doubt:
    """Rows of writes whose outcome a deadline left unknown: the server told
    their senders they were not stored, so the store removes them (should
    they have landed after all) before it reads or writes anything else
    (a read that saw them would act on rows the next write takes away).  Keys:
    events ``(table_id, seq, received_ms)``, notes ``(table_id, n,
    received_ms)``, actions ``(tournament_id, n, at_ms)``, new tournaments
    ``(name, created_ms)`` and new tables ``(tournament_id, name,
    created_ms)`` (those two only while nothing refers to them)."""

    events: list[tuple[int, int, int]] = field(default_factory=list)
    notes: list[tuple[int, int, int]] = field(default_factory=list)
    actions: list[tuple[int, int, int]] = field(default_factory=list)
    tournaments: list[tuple[str, int]] = field(default_factory=list)
    tables: list[tuple[int, str, int]] = field(default_factory=list)

    def add(self, events: Sequence[StoredEvent] = (), notes: Sequence[StoredNote] = (),
            actions: Sequence[StoredAction] = ()) -> None:
        self.events.extend((e.table_id, e.seq, e.received_ms) for e in events)
        self.notes.extend((x.table_id, x.n, x.received_ms) for x in notes)
        self.actions.extend((a.tournament_id, a.n, a.at_ms) for a in actions)

    def extend(self, other: Doubt) -> None:
        for name in self.__slots__:
            getattr(self, name).extend(getattr(other, name))

    def copy(self) -> Doubt:
        return Doubt(**{name: list(getattr(self, name)) for name in self.__slots__})

    def drop(self, done: Doubt) -> None:
        """Forget what ``done`` (a ``copy`` of this one, since settled) holds."""
        for name in self.__slots__:
            del getattr(self, name)[:len(getattr(done, name))]

    def __bool__(self) -> bool:
        return any(getattr(self, name) for name in self.__slots__)

    def clear(self) -> None:
        for name in self.__slots__:
            getattr(self, name).clear()


#: How a store removes the rows of each kind in doubt (``?`` placeholders;
#: PostgreSQL's are numbered by ``numbered``), children before parents.
SETTLE_SQL = {
    "events": "DELETE FROM clock_events WHERE table_id = ? AND seq = ? AND received_ms = ?",
    "notes": "DELETE FROM clock_notes WHERE table_id = ? AND n = ? AND received_ms = ?",
    "actions": "DELETE FROM tournament_actions WHERE tournament_id = ? AND n = ? AND at_ms = ?",
    "tables": "DELETE FROM clock_tables AS t WHERE tournament_id = ? AND name = ? "
              "AND created_ms = ? AND NOT EXISTS (SELECT 1 FROM clock_events e "
              "WHERE e.table_id = t.id) AND NOT EXISTS (SELECT 1 FROM clock_notes x "
              "WHERE x.table_id = t.id) AND NOT EXISTS (SELECT 1 FROM clock_archive a "
              "WHERE a.table_id = t.id)",
    "tournaments": "DELETE FROM tournaments AS o WHERE name = ? AND created_ms = ? "
                   "AND NOT EXISTS (SELECT 1 FROM clock_tables t WHERE t.tournament_id = o.id) "
                   "AND NOT EXISTS (SELECT 1 FROM tournament_actions a "
                   "WHERE a.tournament_id = o.id)",
}


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders as ``$1, $2, ...`` (PostgreSQL)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], 1)) + parts[-1]


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRow:
    """A tournament (the director's *event*)."""

    id: int
    name: str
    created_ms: int
    closed_ms: int | None = None
    #: The club whose director made it, on a server of many clubs
    #: (``bgclock clubs add``); None: the server's own director's.
    club: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created_ms": self.created_ms,
                "closed_ms": self.closed_ms, "status": "closed" if self.closed_ms else "open",
                "club": self.club}


#: The low-time warnings of a table that names none (seconds of reserve).
DEFAULT_WARN_S: tuple[int, ...] = (60, 20, 10)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """What the director says about a table's match."""

    name: str = ""
    players: tuple[str, str] = ("A", "B")
    rules: str
    length: int
    score: tuple[int, int] = (0, 0)
    teams: bool = False
    crawford: bool = False
    clock: dict[str, Any] = field(default_factory=dict)
    #: The low-time warnings the table's page gives, whole seconds, highest first.
    warn_s: tuple[int, ...] = DEFAULT_WARN_S

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players), "rules": self.rules,
                "length": self.length, "score": list(self.score), "teams": self.teams,
                "crawford": self.crawford, "clock": dict(self.clock),
                "warn_s": list(self.warn_s)}


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    """A table as stored: its spec and its life."""

    id: int
    tournament_id: int
    spec: TableSpec
    created_ms: int
    closed_ms: int | None = None
    checkpoint_ms: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredEvent:
    """One accepted event of a table's log."""

    table_id: int
    seq: int
    #: The command's idempotency key (None for the server's own events).
    idem_key: str | None
    at_ms: int
    #: ``Event.to_dict()``.
    event: dict[str, Any]
    #: "table", "director" or "server".
    source: str
    lag_credit_ms: int
    #: Wall clock (ms since 1970) when the server received the command.
    received_ms: int

    def body(self) -> str:
        return canonical_json(self.event)


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredNote:
    """Something said at a table that is not a clock event: the engine never
    sees it (a summons of the director).  Kept in the table's log beside the
    events, numbered per table."""

    table_id: int
    #: The note's number in its table: 1, 2, ...
    n: int
    #: The table's seq when it was made (the events before it).
    seq: int
    #: The message's idempotency key (None when it had none).
    idem_key: str | None
    at_ms: int
    #: What was said, e.g. ``{"type": "summon", "why": "premature", "side": "B"}``.
    note: dict[str, Any]
    #: "table" or "director".
    source: str
    #: Wall clock (ms since 1970) when the server received it.
    received_ms: int

    def body(self) -> str:
        return canonical_json(self.note)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "seq": self.seq, "at_ms": self.at_ms, **self.note,
                "source": self.source, "idem_key": self.idem_key,
                "received_ms": self.received_ms}


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredSnapshot:
    """A table's match folded up to ``seq`` (``bgclock.server.live.snapshots``):
    a start folds it plus the events after ``seq``.  Only an optimisation: a
    snapshot the server cannot read (another ``version``, another time line)
    is ignored and the whole log folded."""

    table_id: int
    #: The table's ``created_ms`` when it was taken: the match's time line (a
    #: next match starts another, and a snapshot of the old one is not read).
    created_ms: int
    #: The last event it covers.
    seq: int
    #: The snapshot's format (``bgclock.core.SNAPSHOT_VERSION`` and the server's own).
    version: int
    #: What the server folds from (``Match.to_snapshot()`` and the table's own figures).
    state: dict[str, Any]
    #: Wall clock (ms since 1970) when it was written.
    saved_ms: int

    def body(self) -> str:
        return orjson.dumps(self.state).decode()


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredAction:
    """One director action of a tournament's log (``bgclock.tournament``)."""

    tournament_id: int
    #: The action's number in its tournament: 1, 2, ...
    n: int
    #: Wall clock (ms since 1970) when the server accepted it.
    at_ms: int
    #: The action, e.g. ``{"do": "register", "name": "Ann"}``.
    action: dict[str, Any]
    #: "director" or "server" (a result from a table's clock).
    source: str
    #: The id of the forwarded request that stored it (a cluster: PostgreSQL
    #: only), or None.
    request_id: str | None = None

    def body(self) -> str:
        # msgspec: a 2,048-row import's bodies in 0.6 ms, not 8, on the event loop
        return msgspec.json.encode(self.action, order="sorted").decode()

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "at_ms": self.at_ms, "action": self.action, "source": self.source}


@dataclass(frozen=True, slots=True, kw_only=True)
class ArchivedMatch:
    """A match a table played before its current one: its spec and whole log."""

    table_id: int
    n: int
    spec: TableSpec
    created_ms: int
    archived_ms: int
    events: list[StoredEvent]
    notes: list[StoredNote]


def archive_body(events: Sequence[StoredEvent], notes: Sequence[StoredNote]) -> tuple[str, str]:
    """The stored form of an archived match's events and notes (JSON lists)."""
    return (json.dumps([[e.seq, e.idem_key, e.at_ms, e.event, e.source, e.lag_credit_ms,
                         e.received_ms] for e in events], separators=(",", ":")),
            json.dumps([[x.n, x.seq, x.idem_key, x.at_ms, x.note, x.source, x.received_ms]
                        for x in notes], separators=(",", ":")))


def archived_match(table_id: int, n: int, spec: str, created_ms: int, archived_ms: int,
                   events: str, notes: str) -> ArchivedMatch:
    data = json.loads(spec)
    return ArchivedMatch(
        table_id=table_id, n=n, created_ms=created_ms, archived_ms=archived_ms,
        spec=TableSpec(name=data["name"], players=tuple(data["players"]), rules=data["rules"],
                       length=data["length"], score=tuple(data["score"]), teams=data["teams"],
                       crawford=data["crawford"], clock=data["clock"],
                       warn_s=tuple(data["warn_s"])),
        events=[StoredEvent(table_id=table_id, seq=e[0], idem_key=e[1], at_ms=e[2], event=e[3],
                            source=e[4], lag_credit_ms=e[5], received_ms=e[6])
                for e in json.loads(events)],
        notes=[StoredNote(table_id=table_id, n=x[0], seq=x[1], idem_key=x[2], at_ms=x[3],
                          note=x[4], source=x[5], received_ms=x[6]) for x in json.loads(notes)])


class Store(RegisterStore, PublishedStore):
    """The interface both stores implement (every method is a coroutine); the
    players' register's part is ``RegisterStore`` (``_register``), the
    publications' ``PublishedStore`` (``_published``)."""

    #: Seconds each call may take (``StoreUnavailable`` past it).
    deadline_s: float = DEFAULT_DEADLINE_S
    #: Told (once, with the reason) when the claim is lost for good: another
    #: process owned the store meanwhile (``bgclock serve`` then stops).
    on_lost: Callable[[str], None] | None = None

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema to the latest version (nothing if open)."""

    async def table(self, table_id: int) -> TableRow:
        """One table's row (``NotFound`` if there is none)."""
        for row in await self.tables():
            if row.id == table_id:
                return row
        raise NotFound(f"no table {table_id}")

    @abc.abstractmethod
    async def claim(self) -> None:
        """Make this process the store's one server, until ``close``: ``StoreBusy``
        (saying who holds it) if another process does.  Nothing if claimed.

        The whole store is one lock today; a cluster of servers would replace
        it by a lease per table (docs/architecture.md)."""

    @property
    @abc.abstractmethod
    def lost(self) -> str | None:
        """Why this process, having claimed the store, does not hold it now
        (every write fails meanwhile), or None."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release the connection(s) and the claim."""

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The highest migration applied."""

    @abc.abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abc.abstractmethod
    async def set_meta_if_absent(self, key: str, value: str) -> str:
        """Store ``value`` unless ``key`` has one; return the stored value."""

    @abc.abstractmethod
    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing any value it had."""

    @abc.abstractmethod
    async def create_tournament(self, name: str, created_ms: int,
                                club: str | None = None) -> TournamentRow:
        """A new tournament, the club ``club``'s (None: the server's director's)."""

    @abc.abstractmethod
    async def tournaments(self) -> list[TournamentRow]: ...

    @abc.abstractmethod
    async def tournament(self, tournament_id: int) -> TournamentRow:
        """Raise ``NotFound`` if absent."""

    @abc.abstractmethod
    async def close_tournament(self, tournament_id: int, closed_ms: int, *,
                               keep: Collection[int] = ()) -> list[int]:
        """Close it and its open tables but those in ``keep`` (a room's
        tables its other events go on using); return the tables closed."""

    @abc.abstractmethod
    async def create_table(
        self, tournament_id: int, spec: TableSpec, created_ms: int
    ) -> TableRow: ...

    @abc.abstractmethod
    async def update_table(self, table_id: int, spec: TableSpec) -> TableRow: ...

    @abc.abstractmethod
    async def close_table(self, table_id: int, closed_ms: int) -> None: ...

    @abc.abstractmethod
    async def tables(self, tournament_id: int | None = None) -> list[TableRow]:
        """Every table (of one tournament), by id."""

    @abc.abstractmethod
    async def events(self, table_id: int, after_seq: int = 0) -> list[StoredEvent]:
        """A table's log after ``after_seq``, in order."""

    @abc.abstractmethod
    async def all_events(self) -> dict[int, list[StoredEvent]]:
        """Every open table's log (for recovery at start)."""

    @abc.abstractmethod
    async def events_page(self, table_id: int, after_seq: int, limit: int) -> list[StoredEvent]:
        """At most ``limit`` events of a table's log after ``after_seq``, in order."""

    @abc.abstractmethod
    async def idem_keys(self, table_id: int, upto_seq: int) -> list[str]:
        """The command ids of the table's current match's events up to
        ``upto_seq`` (those a snapshot folded in), in no order: a table
        folded from its snapshot learns them once, so that it can tell a new
        command from one stored long ago without asking again
        (``live.idempotency``)."""

    @abc.abstractmethod
    async def event_by_key(self, table_id: int, idem_key: str) -> StoredEvent | None:
        """The event of the table's current match stored under ``idem_key``
        (a command's id), or None: one row by the ``(table_id, idem_key)``
        index, whatever the log's length (``live.idempotency``)."""

    @abc.abstractmethod
    async def snapshot(self, table_id: int) -> StoredSnapshot | None:
        """A table's stored snapshot of its current match, if it has one."""

    @abc.abstractmethod
    async def all_snapshots(self) -> dict[int, StoredSnapshot]:
        """Every open table's snapshot of its current match (for a start)."""

    @abc.abstractmethod
    async def all_tails(self, whole_up_to: int = 0) -> dict[int, list[StoredEvent]]:
        """For a start: the events after its snapshot (``all_snapshots``) of
        every open table that has one, and the whole log of every open table
        without one whose log holds at most ``whole_up_to`` events (an empty
        list for a table without events).  A table missing from the answer
        has a longer log without a snapshot, read alone (``events``): one
        call never reads the whole evening."""

    @abc.abstractmethod
    async def put_snapshots(self, snapshots: Sequence[StoredSnapshot]) -> None:
        """Store each table's snapshot in place of its older one (a snapshot
        of an older seq, or of a time line the table no longer has, changes
        nothing): not part of any event's commit, and refused like any write
        while the claim is lost."""

    @abc.abstractmethod
    async def notes(self, table_id: int) -> list[StoredNote]:
        """A table's notes, in order."""

    @abc.abstractmethod
    async def all_notes(self) -> dict[int, list[StoredNote]]:
        """Every open table's notes (for recovery at start)."""

    @abc.abstractmethod
    async def actions(self, tournament_id: int) -> list[StoredAction]:
        """A tournament's director actions, in order."""

    @abc.abstractmethod
    async def append_actions(self, actions: Sequence[StoredAction]) -> None:
        """Append actions in one transaction (durable when this returns; all or
        nothing); ``StoreError`` if a number is taken."""

    async def request_stored(self, request_id: str) -> bool:
        """Whether a forwarded request (``StoredAction.request_id``) stored
        any action.  Only a cluster forwards requests, and it runs on
        PostgreSQL: another store never holds one."""
        return False

    @abc.abstractmethod
    async def next_match(self, table_id: int, spec: TableSpec, created_ms: int, *,
                         tournament_id: int | None = None) -> TableRow:
        """Archive the table's match (its spec, events and notes) and start a
        fresh one on the same table: the new spec, an empty log, a new time
        line from ``created_ms``; all in one transaction.  The old match's
        snapshot goes with it.  ``tournament_id``: the event whose match the
        table holds from now on (a room's table seating another event's
        match: its result goes there); None keeps the table's."""

    @abc.abstractmethod
    async def archive(self, table_id: int) -> list[ArchivedMatch]:
        """The matches a table played before its current one, in order."""

    @abc.abstractmethod
    async def commit(
        self, events: list[StoredEvent], checkpoints: dict[int, int],
        notes: Sequence[StoredNote] = (),
    ) -> None:
        """Append ``events`` and ``notes`` and record ``checkpoints`` (table ->
        match ms) in one transaction, durable when this returns; all or nothing."""


def _row_spec(
    name: str, player_a: str, player_b: str, rules: str, length: int, score_a: int,
    score_b: int, teams: Any, crawford: Any, clock: str, warn_s: str | None,
) -> TableSpec:
    return TableSpec(name=name, players=(player_a, player_b), rules=rules, length=length,
                     score=(score_a, score_b), teams=bool(teams), crawford=bool(crawford),
                     clock=json.loads(clock),
                     warn_s=DEFAULT_WARN_S if warn_s is None else tuple(json.loads(warn_s)))


def sqlite_path(url: str) -> str:
    """The SQLite file a store URL names; ``ValueError`` (naming the scheme) for
    a URL of another kind.  A plain path is a path; ``sqlite:///name.db`` is
    relative and ``sqlite:////abs/name.db`` absolute (SQLAlchemy's reading);
    ``sqlite://`` or ``sqlite:///:memory:`` a database in memory."""
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", url)
    if found is None:
        if not url:
            raise ValueError("--db: empty path")
        return url
    scheme = found.group(1).lower()
    if scheme != "sqlite":
        raise ValueError(f"--db: unknown database scheme {scheme!r} (give a SQLite file path, "
                         "sqlite:///PATH or postgresql://...)")
    rest = url[len(found.group(0)):]
    if rest in ("", "/", "/:memory:"):
        return ":memory:"
    if not rest.startswith("/"):
        raise ValueError(f"--db: {url!r}: write sqlite:///PATH (three slashes; four for an "
                         "absolute path)")
    return rest[1:]


__all__ = [
    "ArchivedMatch", "DEADLINE_BOUNDS", "DEFAULT_DEADLINE_S", "DEFAULT_WARN_S", "Doubt", "Epochs",
    "Fenced",
    "MAX_REGISTER", "NotFound", "OutOfOrder", "Publication", "RegisterEntry", "RegisterLine",
    "Store", "StoreBusy",
    "StoreError", "StoreUnavailable", "StoredAction", "StoredSnapshot",
    "StoredEvent", "StoredNote", "TableRow",
    "TableSpec",
    "TournamentRow", "check_deadline", "sqlite_path",
]


#: Columns of a stored snapshot, in ``StoredSnapshot``'s order.
SNAPSHOT_COLS = "table_id, created_ms, seq, version, body, saved_ms"

#: Store a snapshot unless the table's time line is another or a newer one is
#: stored (``?`` placeholders: the six columns, then table id and created_ms).
PUT_SNAPSHOT_SQL = (
    f"INSERT INTO clock_snapshots ({SNAPSHOT_COLS}) SELECT ?, ?, ?, ?, ?, ? "
    "WHERE EXISTS (SELECT 1 FROM clock_tables WHERE id = ? AND created_ms = ?) "
    "ON CONFLICT (table_id) DO UPDATE SET created_ms = excluded.created_ms, "
    "seq = excluded.seq, version = excluded.version, body = excluded.body, "
    "saved_ms = excluded.saved_ms WHERE clock_snapshots.created_ms <> excluded.created_ms "
    "OR clock_snapshots.seq < excluded.seq"
)

#: Every open table's snapshot of its current match.
ALL_SNAPSHOTS_SQL = (
    f"SELECT {', '.join('s.' + c.strip() for c in SNAPSHOT_COLS.split(','))} "
    "FROM clock_snapshots s JOIN clock_tables t ON t.id = s.table_id "
    "AND t.created_ms = s.created_ms WHERE t.closed_ms IS NULL ORDER BY s.table_id"
)


def tails_sql(event_cols: str) -> str:
    """The events after its snapshot's seq of every open table that has one."""
    cols = ", ".join("e." + c.strip() for c in event_cols.split(","))
    return (f"SELECT {cols} FROM clock_snapshots s JOIN clock_tables t ON t.id = s.table_id "
            "AND t.created_ms = s.created_ms JOIN clock_events e ON e.table_id = s.table_id "
            "AND e.seq > s.seq WHERE t.closed_ms IS NULL ORDER BY e.table_id, e.seq")


#: Every open table without a snapshot of its current match, and its last seq.
UNSNAPPED_SQL = (
    "SELECT t.id, COALESCE((SELECT MAX(e.seq) FROM clock_events e WHERE e.table_id = t.id), 0) "
    "FROM clock_tables t WHERE t.closed_ms IS NULL AND NOT EXISTS (SELECT 1 FROM "
    "clock_snapshots s WHERE s.table_id = t.id AND s.created_ms = t.created_ms) ORDER BY t.id"
)


def snapshot_row(row: Sequence[Any]) -> StoredSnapshot:
    """A stored snapshot; a body that is not a JSON object reads as an empty
    state (which the server does not read: it folds the whole log)."""
    try:
        state = orjson.loads(row[4])
    except orjson.JSONDecodeError:
        state = {}
    return StoredSnapshot(table_id=row[0], created_ms=row[1], seq=row[2], version=row[3],
                          state=state if isinstance(state, dict) else {}, saved_ms=row[5])


def snapshot_values(x: StoredSnapshot) -> tuple[Any, ...]:
    """A snapshot's values for ``PUT_SNAPSHOT_SQL``."""
    return (x.table_id, x.created_ms, x.seq, x.version, x.body(), x.saved_ms,
            x.table_id, x.created_ms)
