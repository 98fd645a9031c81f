"""The players' register in both stores (issue 23 §4): entries, their rated
matches, and which tournaments were rated.

``RegisterStore`` is the part of the ``Store`` interface the register uses;
``SqliteRegister`` and ``PostgresRegister`` implement it for each store over
the tables of migrations 5 and 11 (``_schema.py``).  Ratings are integers in
hundredths of a point (``bgclock.tournament._rating``).

A register per club (issue 37 §4, migration 11): every entry is in the
register of one *owner*, the club whose director keeps it, or the server's
own (``owner`` None here, stored as '').  Every method takes the owner and
reads or changes that register only: an entry of another register is as
absent as an id never given (``NotFound``), a federation id is one person's
within a register, and a whole list, a search and the stamp cover one
register.  (An entry's ``club`` is the person's own club as the register
writes it, not the owner.)
"""

from __future__ import annotations

import abc
import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from ._errors import NotFound, StoreError

T = TypeVar("T")

#: The register holds at most this many entries (a search or a list is bounded by it).
MAX_REGISTER = 20_000


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterEntry:
    """A player kept across tournaments."""

    id: int = 0
    name: str
    #: ``register_key(name)``: the identity of the name.
    name_key: str
    federation_id: str | None = None
    club: str | None = None
    #: Hundredths of a point.
    rating: int
    #: Points of rated matches finished.
    experience: int
    created_ms: int = 0
    updated_ms: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "federation_id": self.federation_id,
                "club": self.club, "rating": self.rating, "experience": self.experience,
                "created_ms": self.created_ms, "updated_ms": self.updated_ms}


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterLine:
    """One rated match of one player: its change."""

    player_id: int
    n: int = 0
    tournament_id: int
    tournament_name: str
    event: str
    round: int
    match: int
    opponent_id: int
    opponent_name: str
    length: int
    won: bool
    rating_before: int
    rating_after: int
    experience_before: int
    experience_after: int
    at_ms: int

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "tournament_id": self.tournament_id,
                "tournament_name": self.tournament_name, "event": self.event,
                "round": self.round, "match": self.match, "opponent_id": self.opponent_id,
                "opponent_name": self.opponent_name, "length": self.length, "won": self.won,
                "rating_before": self.rating_before, "rating_after": self.rating_after,
                "experience_before": self.experience_before,
                "experience_after": self.experience_after, "at_ms": self.at_ms}


_ENTRY_COLS = ("id, name, name_key, federation_id, club, rating, experience, created_ms, "
               "updated_ms")
_LINE_COLS = ("player_id, n, tournament_id, tournament_name, event, round, match, opponent_id, "
              "opponent_name, length, won, rating_before, rating_after, experience_before, "
              "experience_after, at_ms")


def _owner(owner: str | None) -> str:
    """The stored ``owner`` of a register: '' for the server's own (None), a
    club's name for the club's (never empty: that would be the server's)."""
    if owner is None:
        return ""
    if not isinstance(owner, str) or not owner:
        raise ValueError(f"owner: {owner!r} is not a club's name")
    return owner


def _entry(r: Any) -> RegisterEntry:
    return RegisterEntry(id=r[0], name=r[1], name_key=r[2], federation_id=r[3], club=r[4],
                         rating=r[5], experience=r[6], created_ms=r[7], updated_ms=r[8])


def _line(r: Any) -> RegisterLine:
    return RegisterLine(player_id=r[0], n=r[1], tournament_id=r[2], tournament_name=r[3],
                        event=r[4], round=r[5], match=r[6], opponent_id=r[7],
                        opponent_name=r[8], length=r[9], won=bool(r[10]), rating_before=r[11],
                        rating_after=r[12], experience_before=r[13], experience_after=r[14],
                        at_ms=r[15])


def _like(text: str) -> str:
    """``%text%`` with LIKE's own characters taken literally (escape ``\\``)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


_ORDER = {"name": "name_key, id", "rating": "rating DESC, name_key, id", "id": "id"}
#: The same orders as sort keys (a whole list is sorted where it is decoded).
_SORT: dict[str, Callable[[RegisterEntry], Any]] = {
    "name": lambda e: (e.name_key, e.id),
    "rating": lambda e: (-e.rating, e.name_key, e.id),
    "id": lambda e: e.id,
}


#: ``register_stamp``'s aggregate over one register (the same SQL in both
#: stores, ``{owner}`` its one parameter's mark).
_STAMP_SQL = (
    "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(rating), 0), "
    "COALESCE(SUM(experience), 0), COALESCE(SUM(updated_ms), 0), "
    "COALESCE(SUM(length(name) + length(COALESCE(federation_id, '')) + "
    "length(COALESCE(club, ''))), 0) FROM register_players WHERE owner = {owner}")


def _entries_of(text: str | bytes, order: str) -> list[RegisterEntry]:
    """A whole register read as one JSON array of rows (``_ENTRY_COLS``),
    decoded and sorted by ``order``.  Called off the event loop: 20,000 rows
    are tens of milliseconds of Python."""
    out = [_entry(r) for r in orjson.loads(text)]
    out.sort(key=_SORT[order])
    return out


class RegisterStore(abc.ABC):
    """The register's part of the store interface (every method a coroutine).

    ``owner``, keyword-only and never defaulted, names the register a call
    reads or changes: None the server's own, else a club's name."""

    @abc.abstractmethod
    async def register_add(self, entry: RegisterEntry, *, owner: str | None) -> RegisterEntry:
        """Insert ``entry`` into ``owner``'s register (its id is given by the
        store); ``StoreError`` when its federation id is taken there."""

    @abc.abstractmethod
    async def register_update(self, entry: RegisterEntry, *,
                              owner: str | None) -> RegisterEntry:
        """Replace entry ``entry.id``'s name, key, federation id, club, rating and
        experience; ``NotFound`` (another register's too); ``StoreError`` when
        the federation id is taken in the register."""

    @abc.abstractmethod
    async def register_entry(self, entry_id: int, *, owner: str | None) -> RegisterEntry:
        """``NotFound`` if absent from ``owner``'s register."""

    @abc.abstractmethod
    async def register_find(self, *, owner: str | None, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        """The entries of ``owner``'s register with exactly this federation
        id, or this name key."""

    @abc.abstractmethod
    async def register_search(self, text: str, *, owner: str | None, limit: int,
                              offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        """Entries of ``owner``'s register whose name key holds ``text``
        (already a key) or whose federation id is ``text`` (any case), ordered
        by ``order`` ("name" or "rating"), one page; and how many match in
        all.  ``text`` empty: all."""

    @abc.abstractmethod
    async def register_list(self, order: str = "name", *,
                            owner: str | None) -> list[RegisterEntry]:
        """Every entry of ``owner``'s register, ordered by ``order`` ("name",
        "rating" or "id"), as one snapshot, read without holding up the
        tables' writes: on SQLite on a read-only connection of its own thread
        (WAL: readers never wait for the writer), on PostgreSQL in one
        statement whose rows come back as one JSON text, decoded and sorted
        off the event loop (issue 32 §7)."""

    @abc.abstractmethod
    async def register_stamp(self, *, owner: str | None) -> tuple[int, ...]:
        """A fingerprint of ``owner``'s whole register that any write to it
        changes (how many entries, the last id, the sums of ratings,
        experience, times of change and lengths of the words): a list built
        at one stamp is the list while the stamp holds.  One aggregate read,
        off the writer's way."""

    @abc.abstractmethod
    async def register_save(self, entries: Sequence[RegisterEntry], *,
                            owner: str | None) -> list[RegisterEntry]:
        """Update the entries with an id and add those without, in
        ``owner``'s register, in one transaction (all or nothing: an id of
        another register is ``NotFound``)."""

    @abc.abstractmethod
    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine], *, owner: str | None) -> bool:
        """Rate a tournament once: record it, append ``lines`` (numbered per
        player) and set each player's rating and experience to their last
        line's, in one transaction.  False (nothing done) if it was rated.
        Every line's player is of ``owner``'s register, else ``NotFound``
        and nothing done."""

    @abc.abstractmethod
    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        """When the tournament was rated and how many matches; None if not
        (a tournament is one club's: its id says whose)."""

    @abc.abstractmethod
    async def register_history(self, entry_id: int, *,
                               owner: str | None) -> list[RegisterLine]:
        """An entry's rated matches, in order (none for another register's)."""


def _finals(lines: Sequence[RegisterLine]) -> dict[int, RegisterLine]:
    last: dict[int, RegisterLine] = {}
    for line in lines:
        last[line.player_id] = line
    return last


def _foreign(players: set[int], own: set[int]) -> None:
    """Rating touches the owner's people only: ``NotFound`` naming the first
    player of ``players`` not among ``own``."""
    others = sorted(players - own)
    if others:
        raise NotFound(f"no register entry {others[0]}")


class SqliteRegister:
    """``RegisterStore`` over ``SqliteStore``'s one connection."""

    if TYPE_CHECKING:
        async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

        async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

    async def register_add(self, entry: RegisterEntry, *, owner: str | None) -> RegisterEntry:
        own = _owner(owner)

        def add(db: sqlite3.Connection) -> RegisterEntry:
            cur = db.execute(
                "INSERT INTO register_players (name, name_key, federation_id, club, rating, "
                "experience, created_ms, updated_ms, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (entry.name, entry.name_key, entry.federation_id, entry.club, entry.rating,
                 entry.experience, entry.created_ms, entry.updated_ms, own))
            assert cur.lastrowid is not None
            return replace(entry, id=cur.lastrowid)

        return await self._run(add)

    async def register_update(self, entry: RegisterEntry, *,
                              owner: str | None) -> RegisterEntry:
        own = _owner(owner)

        def update(db: sqlite3.Connection) -> RegisterEntry:
            row = db.execute(
                "UPDATE register_players SET name = ?, name_key = ?, federation_id = ?, "
                "club = ?, rating = ?, experience = ?, updated_ms = ? WHERE id = ? "
                f"AND owner = ? RETURNING {_ENTRY_COLS}",
                (entry.name, entry.name_key, entry.federation_id, entry.club, entry.rating,
                 entry.experience, entry.updated_ms, entry.id, own)).fetchone()
            if row is None:
                raise NotFound(f"no register entry {entry.id}")
            return _entry(row)

        return await self._run(update)

    async def register_entry(self, entry_id: int, *, owner: str | None) -> RegisterEntry:
        own = _owner(owner)
        row = await self._run(lambda db: db.execute(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE id = ? AND owner = ?",
            (entry_id, own)).fetchone())
        if row is None:
            raise NotFound(f"no register entry {entry_id}")
        return _entry(row)

    async def register_find(self, *, owner: str | None, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        own = _owner(owner)
        if federation_id is not None:
            where, arg = "federation_id = ?", federation_id
        elif name_key is not None:
            where, arg = "name_key = ?", name_key
        else:
            return []
        return await self._run(lambda db: [_entry(r) for r in db.execute(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE owner = ? AND {where} "
            "ORDER BY id", (own, arg))])

    async def register_search(self, text: str, *, owner: str | None, limit: int,
                              offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        where = "owner = ? AND (name_key LIKE ? ESCAPE '\\' OR lower(federation_id) = ?)"
        args = (_owner(owner), _like(text), text.lower())

        def get(db: sqlite3.Connection) -> tuple[list[RegisterEntry], int]:
            total = db.execute(f"SELECT COUNT(*) FROM register_players WHERE {where}",
                               args).fetchone()[0]
            rows = db.execute(f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} "
                              f"ORDER BY {_ORDER[order]} LIMIT ? OFFSET ?",
                              (*args, limit, offset))
            return [_entry(r) for r in rows], int(total)

        return await self._read(get)

    async def register_list(self, order: str = "name", *,
                            owner: str | None) -> list[RegisterEntry]:
        sort = _ORDER[order]  # a KeyError for an order there is not
        own = _owner(owner)

        def get(db: sqlite3.Connection) -> list[RegisterEntry]:
            # one row, one step: fetching 10,000 rows one by one hands the GIL
            # to and fro 10,000 times with a busy event loop
            text = db.execute(f"SELECT json_group_array(json_array({_ENTRY_COLS})) "
                              f"FROM (SELECT {_ENTRY_COLS} FROM register_players "
                              f"WHERE owner = ? ORDER BY {sort})", (own,)).fetchone()[0]
            return _entries_of(text, order)

        return await self._read(get)

    async def register_stamp(self, *, owner: str | None) -> tuple[int, ...]:
        own = _owner(owner)
        row = await self._read(lambda db: db.execute(
            _STAMP_SQL.format(owner="?"), (own,)).fetchone())
        return tuple(int(x) for x in row)

    async def register_save(self, entries: Sequence[RegisterEntry], *,
                            owner: str | None) -> list[RegisterEntry]:
        own = _owner(owner)

        def save(db: sqlite3.Connection) -> list[RegisterEntry]:
            db.execute("BEGIN IMMEDIATE")
            out = []
            for e in entries:
                if e.id:
                    row = db.execute(
                        "UPDATE register_players SET name = ?, name_key = ?, federation_id = ?, "
                        "club = ?, rating = ?, experience = ?, updated_ms = ? WHERE id = ? "
                        f"AND owner = ? RETURNING {_ENTRY_COLS}",
                        (e.name, e.name_key, e.federation_id, e.club, e.rating, e.experience,
                         e.updated_ms, e.id, own)).fetchone()
                    if row is None:
                        raise NotFound(f"no register entry {e.id}")
                    out.append(_entry(row))
                else:
                    row = db.execute(
                        "INSERT INTO register_players (name, name_key, federation_id, club, "
                        "rating, experience, created_ms, updated_ms, owner) VALUES "
                        f"(?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_ENTRY_COLS}",
                        (e.name, e.name_key, e.federation_id, e.club, e.rating, e.experience,
                         e.created_ms, e.updated_ms, own)).fetchone()
                    out.append(_entry(row))
            db.execute("COMMIT")
            return out

        return await self._run(save)

    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine], *, owner: str | None) -> bool:
        own_name = _owner(owner)
        players = {line.player_id for line in lines}

        def rate(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            done = db.execute("SELECT 1 FROM register_rated WHERE tournament_id = ?",
                              (tournament_id,)).fetchone()
            if done is not None:
                db.execute("ROLLBACK")
                return False
            ids = orjson.dumps(sorted(players)).decode()
            own = {r[0] for r in db.execute(
                "SELECT id FROM register_players WHERE owner = ? AND id IN "
                "(SELECT value FROM json_each(?))", (own_name, ids))}
            _foreign(players, own)  # raises: rolled back
            db.execute("INSERT INTO register_rated (tournament_id, rated_ms, matches) "
                        "VALUES (?, ?, ?)", (tournament_id, rated_ms, len(lines) // 2))
            for line in lines:
                n = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM register_history "
                               "WHERE player_id = ?", (line.player_id,)).fetchone()[0]
                db.execute(f"INSERT INTO register_history ({_LINE_COLS}) VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (line.player_id, n, *_line_values(line)))
            for pid, last in _finals(lines).items():
                db.execute("UPDATE register_players SET rating = ?, experience = ?, "
                           "updated_ms = ? WHERE id = ? AND owner = ?",
                           (last.rating_after, last.experience_after, rated_ms, pid, own_name))
            db.execute("COMMIT")
            return True

        return await self._run(rate)

    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self._run(lambda db: db.execute(
            "SELECT rated_ms, matches FROM register_rated WHERE tournament_id = ?",
            (tournament_id,)).fetchone())
        return None if row is None else (int(row[0]), int(row[1]))

    async def register_history(self, entry_id: int, *,
                               owner: str | None) -> list[RegisterLine]:
        own = _owner(owner)
        return await self._run(lambda db: [_line(r) for r in db.execute(
            f"SELECT {_LINE_COLS} FROM register_history WHERE player_id = ? AND player_id IN "
            "(SELECT id FROM register_players WHERE owner = ?) ORDER BY n", (entry_id, own))])


def _line_values(line: RegisterLine) -> tuple[Any, ...]:
    """A line's columns after ``player_id, n``."""
    return (line.tournament_id, line.tournament_name, line.event, line.round, line.match,
            line.opponent_id, line.opponent_name, line.length, int(line.won),
            line.rating_before, line.rating_after, line.experience_before,
            line.experience_after, line.at_ms)


class PostgresRegister:
    """``RegisterStore`` over ``PostgresStore``'s pool."""

    if TYPE_CHECKING:
        async def _with(self, fn: Callable[[Any], Awaitable[T]], *,
                        writes: Any = None) -> T: ...

        def _new_doubt(self) -> Any: ...

    async def _read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """A read within the store's deadline (``PostgresStore._with``)."""
        return await self._with(fn)

    async def _write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """A write within the store's deadline, refused while the store's
        claim is lost (``PostgresStore._with``)."""
        return await self._with(fn, writes=self._new_doubt())

    async def register_add(self, entry: RegisterEntry, *, owner: str | None) -> RegisterEntry:
        own = _owner(owner)
        try:
            rid = await self._write(lambda c: c.fetchval(
                "INSERT INTO register_players (name, name_key, federation_id, club, rating, "
                "experience, created_ms, updated_ms, owner) VALUES ($1, $2, $3, $4, $5, $6, "
                "$7, $8, $9) RETURNING id", entry.name, entry.name_key, entry.federation_id,
                entry.club, entry.rating, entry.experience, entry.created_ms, entry.updated_ms,
                own))
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc
        return replace(entry, id=int(rid))

    async def register_update(self, entry: RegisterEntry, *,
                              owner: str | None) -> RegisterEntry:
        own = _owner(owner)
        try:
            row = await self._write(lambda c: c.fetchrow(
                "UPDATE register_players SET name = $1, name_key = $2, federation_id = $3, "
                "club = $4, rating = $5, experience = $6, updated_ms = $7 WHERE id = $8 "
                f"AND owner = $9 RETURNING {_ENTRY_COLS}", entry.name, entry.name_key,
                entry.federation_id, entry.club, entry.rating, entry.experience,
                entry.updated_ms, entry.id, own))
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc
        if row is None:
            raise NotFound(f"no register entry {entry.id}")
        return _entry(row)

    async def register_entry(self, entry_id: int, *, owner: str | None) -> RegisterEntry:
        own = _owner(owner)
        row = await self._read(lambda c: c.fetchrow(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE id = $1 AND owner = $2",
            entry_id, own))
        if row is None:
            raise NotFound(f"no register entry {entry_id}")
        return _entry(row)

    async def register_find(self, *, owner: str | None, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        own = _owner(owner)
        if federation_id is not None:
            where, arg = "federation_id = $2", federation_id
        elif name_key is not None:
            where, arg = "name_key = $2", name_key
        else:
            return []
        rows = await self._read(lambda c: c.fetch(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE owner = $1 AND {where} "
            "ORDER BY id", own, arg))
        return [_entry(r) for r in rows]

    async def register_search(self, text: str, *, owner: str | None, limit: int,
                              offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        where = "owner = $1 AND (name_key LIKE $2 ESCAPE '\\' OR lower(federation_id) = $3)"
        args = (_owner(owner), _like(text), text.lower())

        async def search(c: Any) -> tuple[Any, Any]:
            total = await c.fetchval(
                f"SELECT COUNT(*) FROM register_players WHERE {where}", *args)
            rows = await c.fetch(
                f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} "
                f"ORDER BY {_ORDER[order]} LIMIT $4 OFFSET $5", *args, limit, offset)
            return total, rows

        total, rows = await self._read(search)
        return [_entry(r) for r in rows], int(total)

    async def register_list(self, order: str = "name", *,
                            owner: str | None) -> list[RegisterEntry]:
        _ORDER[order]  # noqa: B018 - a KeyError for an order there is not
        own = _owner(owner)
        cols = ", ".join(c.strip() for c in _ENTRY_COLS.split(","))
        text = await self._read(lambda c: c.fetchval(
            f"SELECT COALESCE(json_agg(json_build_array({cols})), '[]')::text "
            "FROM register_players WHERE owner = $1", own))
        return await asyncio.to_thread(_entries_of, text, order)

    async def register_stamp(self, *, owner: str | None) -> tuple[int, ...]:
        own = _owner(owner)
        row = await self._read(lambda c: c.fetchrow(_STAMP_SQL.format(owner="$1"), own))
        return tuple(int(x) for x in row)

    async def register_save(self, entries: Sequence[RegisterEntry], *,
                            owner: str | None) -> list[RegisterEntry]:
        own = _owner(owner)

        async def save(c: Any) -> list[RegisterEntry]:
            out = []
            async with c.transaction():
                for e in entries:
                    if e.id:
                        row = await c.fetchrow(
                            "UPDATE register_players SET name = $1, name_key = $2, "
                            "federation_id = $3, club = $4, rating = $5, experience = $6, "
                            f"updated_ms = $7 WHERE id = $8 AND owner = $9 "
                            f"RETURNING {_ENTRY_COLS}",
                            e.name, e.name_key, e.federation_id, e.club, e.rating,
                            e.experience, e.updated_ms, e.id, own)
                        if row is None:
                            raise NotFound(f"no register entry {e.id}")
                    else:
                        row = await c.fetchrow(
                            "INSERT INTO register_players (name, name_key, federation_id, club, "
                            "rating, experience, created_ms, updated_ms, owner) VALUES "
                            f"($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {_ENTRY_COLS}",
                            e.name, e.name_key, e.federation_id, e.club, e.rating,
                            e.experience, e.created_ms, e.updated_ms, own)
                    out.append(_entry(row))
            return out

        try:
            return await self._write(save)
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc

    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine], *, owner: str | None) -> bool:
        own_name = _owner(owner)
        players = {line.player_id for line in lines}

        async def rate(c: Any) -> bool:
            async with c.transaction():
                done = await c.fetchval(
                    "INSERT INTO register_rated (tournament_id, rated_ms, matches) "
                    "VALUES ($1, $2, $3) ON CONFLICT (tournament_id) DO NOTHING RETURNING 1",
                    tournament_id, rated_ms, len(lines) // 2)
                if done is None:
                    return False
                own = {r[0] for r in await c.fetch(
                    "SELECT id FROM register_players WHERE owner = $1 AND id = ANY($2::bigint[])",
                    own_name, sorted(players))}
                _foreign(players, own)  # raises: the transaction rolls back
                marks = ", ".join(f"${k}" for k in range(1, 17))
                for line in lines:
                    n = await c.fetchval("SELECT COALESCE(MAX(n), 0) + 1 FROM register_history "
                                         "WHERE player_id = $1", line.player_id)
                    await c.execute(f"INSERT INTO register_history ({_LINE_COLS}) VALUES ({marks})",
                                    line.player_id, n, *_line_values(line))
                for pid, last in _finals(lines).items():
                    await c.execute("UPDATE register_players SET rating = $1, experience = $2, "
                                    "updated_ms = $3 WHERE id = $4 AND owner = $5",
                                    last.rating_after, last.experience_after, rated_ms, pid,
                                    own_name)
            return True

        return await self._write(rate)

    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT rated_ms, matches FROM register_rated WHERE tournament_id = $1",
            tournament_id))
        return None if row is None else (int(row[0]), int(row[1]))

    async def register_history(self, entry_id: int, *,
                               owner: str | None) -> list[RegisterLine]:
        own = _owner(owner)
        rows = await self._read(lambda c: c.fetch(
            f"SELECT {_LINE_COLS} FROM register_history WHERE player_id = $1 AND player_id IN "
            "(SELECT id FROM register_players WHERE owner = $2) ORDER BY n", entry_id, own))
        return [_line(r) for r in rows]


def _pg_errors() -> type[Exception]:
    import asyncpg  # type: ignore[import-untyped]

    return asyncpg.IntegrityConstraintViolationError  # type: ignore[no-any-return]
