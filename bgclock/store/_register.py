"""The players' register in both stores (issue 23 §4): entries, their rated
matches, and which tournaments were rated.

``RegisterStore`` is the part of the ``Store`` interface the register uses;
``SqliteRegister`` and ``PostgresRegister`` implement it for each store over
the tables of migration 5 (``_schema.py``).  Ratings are integers in
hundredths of a point (``bgclock.tournament._rating``).
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


#: ``register_stamp``'s aggregate (the same SQL in both stores).
_STAMP_SQL = (
    "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(rating), 0), "
    "COALESCE(SUM(experience), 0), COALESCE(SUM(updated_ms), 0), "
    "COALESCE(SUM(length(name) + length(COALESCE(federation_id, '')) + "
    "length(COALESCE(club, ''))), 0) FROM register_players")


def _entries_of(text: str | bytes, order: str) -> list[RegisterEntry]:
    """A whole register read as one JSON array of rows (``_ENTRY_COLS``),
    decoded and sorted by ``order``.  Called off the event loop: 20,000 rows
    are tens of milliseconds of Python."""
    out = [_entry(r) for r in orjson.loads(text)]
    out.sort(key=_SORT[order])
    return out


class RegisterStore(abc.ABC):
    """The register's part of the store interface (every method a coroutine)."""

    @abc.abstractmethod
    async def register_add(self, entry: RegisterEntry) -> RegisterEntry:
        """Insert ``entry`` (its id is given by the store); ``StoreError`` when
        its federation id is taken."""

    @abc.abstractmethod
    async def register_update(self, entry: RegisterEntry) -> RegisterEntry:
        """Replace entry ``entry.id``'s name, key, federation id, club, rating and
        experience; ``NotFound``; ``StoreError`` when the federation id is taken."""

    @abc.abstractmethod
    async def register_entry(self, entry_id: int) -> RegisterEntry:
        """``NotFound`` if absent."""

    @abc.abstractmethod
    async def register_find(self, *, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        """The entries with exactly this federation id, or this name key."""

    @abc.abstractmethod
    async def register_search(self, text: str, *, limit: int, offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        """Entries whose name key holds ``text`` (already a key) or whose
        federation id is ``text`` (any case), ordered by ``order`` ("name" or
        "rating"), one page; and how many match in all.  ``text`` empty: all."""

    @abc.abstractmethod
    async def register_list(self, order: str = "name") -> list[RegisterEntry]:
        """Every entry, ordered by ``order`` ("name", "rating" or "id"), as one
        snapshot, read without holding up the tables' writes: on SQLite on a
        read-only connection of its own thread (WAL: readers never wait for
        the writer), on PostgreSQL in one statement whose rows come back as one
        JSON text, decoded and sorted off the event loop (issue 32 §7)."""

    @abc.abstractmethod
    async def register_stamp(self) -> tuple[int, ...]:
        """A fingerprint of the whole register that any write changes (how
        many entries, the last id, the sums of ratings, experience, times of
        change and lengths of the words): a list built at one stamp is the
        list while the stamp holds.  One aggregate read, off the writer's way."""

    @abc.abstractmethod
    async def register_save(self, entries: Sequence[RegisterEntry]) -> list[RegisterEntry]:
        """Update the entries with an id and add those without, in one
        transaction (all or nothing)."""

    @abc.abstractmethod
    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine]) -> bool:
        """Rate a tournament once: record it, append ``lines`` (numbered per
        player) and set each player's rating and experience to their last
        line's, in one transaction.  False (nothing done) if it was rated."""

    @abc.abstractmethod
    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        """When the tournament was rated and how many matches; None if not."""

    @abc.abstractmethod
    async def register_history(self, entry_id: int) -> list[RegisterLine]:
        """An entry's rated matches, in order."""


def _finals(lines: Sequence[RegisterLine]) -> dict[int, RegisterLine]:
    last: dict[int, RegisterLine] = {}
    for line in lines:
        last[line.player_id] = line
    return last


class SqliteRegister:
    """``RegisterStore`` over ``SqliteStore``'s one connection."""

    if TYPE_CHECKING:
        async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

        async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

    async def register_add(self, entry: RegisterEntry) -> RegisterEntry:
        def add(db: sqlite3.Connection) -> RegisterEntry:
            cur = db.execute(
                "INSERT INTO register_players (name, name_key, federation_id, club, rating, "
                "experience, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (entry.name, entry.name_key, entry.federation_id, entry.club, entry.rating,
                 entry.experience, entry.created_ms, entry.updated_ms))
            assert cur.lastrowid is not None
            return replace(entry, id=cur.lastrowid)

        return await self._run(add)

    async def register_update(self, entry: RegisterEntry) -> RegisterEntry:
        def update(db: sqlite3.Connection) -> RegisterEntry:
            row = db.execute(
                "UPDATE register_players SET name = ?, name_key = ?, federation_id = ?, "
                "club = ?, rating = ?, experience = ?, updated_ms = ? WHERE id = ? "
                f"RETURNING {_ENTRY_COLS}",
                (entry.name, entry.name_key, entry.federation_id, entry.club, entry.rating,
                 entry.experience, entry.updated_ms, entry.id)).fetchone()
            if row is None:
                raise NotFound(f"no register entry {entry.id}")
            return _entry(row)

        return await self._run(update)

    async def register_entry(self, entry_id: int) -> RegisterEntry:
        row = await self._run(lambda db: db.execute(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE id = ?", (entry_id,)).fetchone())
        if row is None:
            raise NotFound(f"no register entry {entry_id}")
        return _entry(row)

    async def register_find(self, *, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        if federation_id is not None:
            where, arg = "federation_id = ?", federation_id
        elif name_key is not None:
            where, arg = "name_key = ?", name_key
        else:
            return []
        return await self._run(lambda db: [_entry(r) for r in db.execute(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} ORDER BY id", (arg,))])

    async def register_search(self, text: str, *, limit: int, offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        where = "name_key LIKE ? ESCAPE '\\' OR lower(federation_id) = ?"
        args = (_like(text), text.lower())

        def get(db: sqlite3.Connection) -> tuple[list[RegisterEntry], int]:
            total = db.execute(f"SELECT COUNT(*) FROM register_players WHERE {where}",
                               args).fetchone()[0]
            rows = db.execute(f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} "
                              f"ORDER BY {_ORDER[order]} LIMIT ? OFFSET ?",
                              (*args, limit, offset))
            return [_entry(r) for r in rows], int(total)

        return await self._read(get)

    async def register_list(self, order: str = "name") -> list[RegisterEntry]:
        sort = _ORDER[order]  # a KeyError for an order there is not

        def get(db: sqlite3.Connection) -> list[RegisterEntry]:
            # one row, one step: fetching 10,000 rows one by one hands the GIL
            # to and fro 10,000 times with a busy event loop
            text = db.execute(f"SELECT json_group_array(json_array({_ENTRY_COLS})) "
                              f"FROM (SELECT {_ENTRY_COLS} FROM register_players "
                              f"ORDER BY {sort})").fetchone()[0]
            return _entries_of(text, order)

        return await self._read(get)

    async def register_stamp(self) -> tuple[int, ...]:
        row = await self._read(lambda db: db.execute(_STAMP_SQL).fetchone())
        return tuple(int(x) for x in row)

    async def register_save(self,
                            entries: Sequence[RegisterEntry]) -> list[RegisterEntry]:
        def save(db: sqlite3.Connection) -> list[RegisterEntry]:
            db.execute("BEGIN IMMEDIATE")
            out = []
            for e in entries:
                if e.id:
                    row = db.execute(
                        "UPDATE register_players SET name = ?, name_key = ?, federation_id = ?, "
                        "club = ?, rating = ?, experience = ?, updated_ms = ? WHERE id = ? "
                        f"RETURNING {_ENTRY_COLS}",
                        (e.name, e.name_key, e.federation_id, e.club, e.rating, e.experience,
                         e.updated_ms, e.id)).fetchone()
                    if row is None:
                        raise NotFound(f"no register entry {e.id}")
                    out.append(_entry(row))
                else:
                    row = db.execute(
                        "INSERT INTO register_players (name, name_key, federation_id, club, "
                        "rating, experience, created_ms, updated_ms) VALUES "
                        f"(?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_ENTRY_COLS}",
                        (e.name, e.name_key, e.federation_id, e.club, e.rating, e.experience,
                         e.created_ms, e.updated_ms)).fetchone()
                    out.append(_entry(row))
            db.execute("COMMIT")
            return out

        return await self._run(save)

    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine]) -> bool:
        def rate(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            done = db.execute("SELECT 1 FROM register_rated WHERE tournament_id = ?",
                              (tournament_id,)).fetchone()
            if done is not None:
                db.execute("ROLLBACK")
                return False
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
                           "updated_ms = ? WHERE id = ?",
                           (last.rating_after, last.experience_after, rated_ms, pid))
            db.execute("COMMIT")
            return True

        return await self._run(rate)

    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self._run(lambda db: db.execute(
            "SELECT rated_ms, matches FROM register_rated WHERE tournament_id = ?",
            (tournament_id,)).fetchone())
        return None if row is None else (int(row[0]), int(row[1]))

    async def register_history(self, entry_id: int) -> list[RegisterLine]:
        return await self._run(lambda db: [_line(r) for r in db.execute(
            f"SELECT {_LINE_COLS} FROM register_history WHERE player_id = ? ORDER BY n",
            (entry_id,))])


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

    async def register_add(self, entry: RegisterEntry) -> RegisterEntry:
        try:
            rid = await self._write(lambda c: c.fetchval(
                "INSERT INTO register_players (name, name_key, federation_id, club, rating, "
                "experience, created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                "RETURNING id", entry.name, entry.name_key, entry.federation_id, entry.club,
                entry.rating, entry.experience, entry.created_ms, entry.updated_ms))
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc
        return replace(entry, id=int(rid))

    async def register_update(self, entry: RegisterEntry) -> RegisterEntry:
        try:
            row = await self._write(lambda c: c.fetchrow(
                "UPDATE register_players SET name = $1, name_key = $2, federation_id = $3, "
                "club = $4, rating = $5, experience = $6, updated_ms = $7 WHERE id = $8 "
                f"RETURNING {_ENTRY_COLS}", entry.name, entry.name_key, entry.federation_id,
                entry.club, entry.rating, entry.experience, entry.updated_ms, entry.id))
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc
        if row is None:
            raise NotFound(f"no register entry {entry.id}")
        return _entry(row)

    async def register_entry(self, entry_id: int) -> RegisterEntry:
        row = await self._read(lambda c: c.fetchrow(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE id = $1", entry_id))
        if row is None:
            raise NotFound(f"no register entry {entry_id}")
        return _entry(row)

    async def register_find(self, *, federation_id: str | None = None,
                            name_key: str | None = None) -> list[RegisterEntry]:
        if federation_id is not None:
            where, arg = "federation_id = $1", federation_id
        elif name_key is not None:
            where, arg = "name_key = $1", name_key
        else:
            return []
        rows = await self._read(lambda c: c.fetch(
            f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} ORDER BY id", arg))
        return [_entry(r) for r in rows]

    async def register_search(self, text: str, *, limit: int, offset: int = 0,
                              order: str = "name") -> tuple[list[RegisterEntry], int]:
        where = "name_key LIKE $1 ESCAPE '\\' OR lower(federation_id) = $2"
        args = (_like(text), text.lower())

        async def search(c: Any) -> tuple[Any, Any]:
            total = await c.fetchval(
                f"SELECT COUNT(*) FROM register_players WHERE {where}", *args)
            rows = await c.fetch(
                f"SELECT {_ENTRY_COLS} FROM register_players WHERE {where} "
                f"ORDER BY {_ORDER[order]} LIMIT $3 OFFSET $4", *args, limit, offset)
            return total, rows

        total, rows = await self._read(search)
        return [_entry(r) for r in rows], int(total)

    async def register_list(self, order: str = "name") -> list[RegisterEntry]:
        _ORDER[order]  # noqa: B018 - a KeyError for an order there is not
        cols = ", ".join(c.strip() for c in _ENTRY_COLS.split(","))
        text = await self._read(lambda c: c.fetchval(
            f"SELECT COALESCE(json_agg(json_build_array({cols})), '[]')::text "
            "FROM register_players"))
        return await asyncio.to_thread(_entries_of, text, order)

    async def register_stamp(self) -> tuple[int, ...]:
        row = await self._read(lambda c: c.fetchrow(_STAMP_SQL))
        return tuple(int(x) for x in row)

    async def register_save(self,
                            entries: Sequence[RegisterEntry]) -> list[RegisterEntry]:
        async def save(c: Any) -> list[RegisterEntry]:
            out = []
            async with c.transaction():
                for e in entries:
                    if e.id:
                        row = await c.fetchrow(
                            "UPDATE register_players SET name = $1, name_key = $2, "
                            "federation_id = $3, club = $4, rating = $5, experience = $6, "
                            f"updated_ms = $7 WHERE id = $8 RETURNING {_ENTRY_COLS}",
                            e.name, e.name_key, e.federation_id, e.club, e.rating,
                            e.experience, e.updated_ms, e.id)
                        if row is None:
                            raise NotFound(f"no register entry {e.id}")
                    else:
                        row = await c.fetchrow(
                            "INSERT INTO register_players (name, name_key, federation_id, club, "
                            "rating, experience, created_ms, updated_ms) VALUES "
                            f"($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {_ENTRY_COLS}",
                            e.name, e.name_key, e.federation_id, e.club, e.rating,
                            e.experience, e.created_ms, e.updated_ms)
                    out.append(_entry(row))
            return out

        try:
            return await self._write(save)
        except _pg_errors() as exc:
            raise StoreError(str(exc)) from exc

    async def register_rate(self, tournament_id: int, rated_ms: int,
                            lines: Sequence[RegisterLine]) -> bool:
        async def rate(c: Any) -> bool:
            async with c.transaction():
                done = await c.fetchval(
                    "INSERT INTO register_rated (tournament_id, rated_ms, matches) "
                    "VALUES ($1, $2, $3) ON CONFLICT (tournament_id) DO NOTHING RETURNING 1",
                    tournament_id, rated_ms, len(lines) // 2)
                if done is None:
                    return False
                marks = ", ".join(f"${k}" for k in range(1, 17))
                for line in lines:
                    n = await c.fetchval("SELECT COALESCE(MAX(n), 0) + 1 FROM register_history "
                                         "WHERE player_id = $1", line.player_id)
                    await c.execute(f"INSERT INTO register_history ({_LINE_COLS}) VALUES ({marks})",
                                    line.player_id, n, *_line_values(line))
                for pid, last in _finals(lines).items():
                    await c.execute("UPDATE register_players SET rating = $1, experience = $2, "
                                    "updated_ms = $3 WHERE id = $4",
                                    last.rating_after, last.experience_after, rated_ms, pid)
            return True

        return await self._write(rate)

    async def register_rated(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT rated_ms, matches FROM register_rated WHERE tournament_id = $1",
            tournament_id))
        return None if row is None else (int(row[0]), int(row[1]))

    async def register_history(self, entry_id: int) -> list[RegisterLine]:
        rows = await self._read(lambda c: c.fetch(
            f"SELECT {_LINE_COLS} FROM register_history WHERE player_id = $1 ORDER BY n",
            entry_id))
        return [_line(r) for r in rows]


def _pg_errors() -> type[Exception]:
    import asyncpg  # type: ignore[import-untyped]

    return asyncpg.IntegrityConstraintViolationError  # type: ignore[no-any-return]
