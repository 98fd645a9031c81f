"""What venues published to this (hosted) server, in both stores (issue 37 §3).

A venue's bgclock publishes its public tournaments here (``bgclock serve
--publish-to URL``): each tournament's actions, numbered ``n`` as the venue
stored them, and the live tables' public fields of the moment.  They are
kept by (publishing key's name, the venue's tournament id): two venues' ids
never meet.  The hosted server folds the same actions
(``bgclock.tournament.Tournament``) and serves the public page from them
(``server.tournaments.published``).

``PublishedStore`` is the part of the ``Store`` interface they use;
``SqlitePublished`` and ``PostgresPublished`` implement it over the tables
of migration 9 (``_schema.py``).
"""

from __future__ import annotations

import abc
import json
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ._errors import StoreError

T = TypeVar("T")


class OutOfOrder(StoreError):
    """A publication's first action is not the next one kept (``n`` says
    the last action kept): nothing was written."""

    def __init__(self, message: str, n: int) -> None:
        super().__init__(message)
        self.n = n


@dataclass(frozen=True, slots=True, kw_only=True)
class Publication:
    """One published tournament: whose (``club``: the key's name), its id
    at the venue, its name, whether it is closed, how many of its actions
    are kept (``n``), and the live tables' public fields last sent."""

    id: int
    club: str
    tournament_id: int
    name: str
    closed: bool
    n: int
    live: Mapping[str, Any]
    updated_ms: int


_COLS = "id, club, tournament_id, name, closed, n, live, updated_ms"


def _publication(r: Any) -> Publication:
    return Publication(id=int(r[0]), club=str(r[1]), tournament_id=int(r[2]), name=str(r[3]),
                       closed=bool(r[4]), n=int(r[5]), live=json.loads(r[6]),
                       updated_ms=int(r[7]))


def _body(action: Mapping[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


class PublishedStore(abc.ABC):
    """The publications' part of the store interface (every method a coroutine)."""

    @abc.abstractmethod
    async def publications(self, club: str | None = None) -> list[Publication]:
        """Every publication (of ``club``), by club and venue id."""

    @abc.abstractmethod
    async def publication(self, club: str, tournament_id: int) -> Publication | None:
        """One publication, or None."""

    @abc.abstractmethod
    async def published_actions(self, publication_id: int) -> list[dict[str, Any]]:
        """A publication's actions, in order (the first is ``n`` 1)."""

    @abc.abstractmethod
    async def publish(self, *, club: str, tournament_id: int, name: str, closed: bool,
                      first: int, actions: Sequence[Mapping[str, Any]],
                      live: Mapping[str, Any], now_ms: int) -> Publication:
        """In one transaction: the publication made if new, ``actions``
        (numbered ``first``, ``first + 1``, ...) appended, its name, closed
        and live replaced.  ``OutOfOrder`` unless ``first`` is one past the
        last action kept."""


class SqlitePublished:
    """``PublishedStore`` over ``SqliteStore``'s one connection."""

    if TYPE_CHECKING:
        async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

    async def publications(self, club: str | None = None) -> list[Publication]:
        where, args = ("WHERE club = ?", (club,)) if club is not None else ("", ())
        return await self._run(lambda db: [_publication(r) for r in db.execute(
            f"SELECT {_COLS} FROM published {where} ORDER BY club, tournament_id", args)])

    async def publication(self, club: str, tournament_id: int) -> Publication | None:
        row = await self._run(lambda db: db.execute(
            f"SELECT {_COLS} FROM published WHERE club = ? AND tournament_id = ?",
            (club, tournament_id)).fetchone())
        return None if row is None else _publication(row)

    async def published_actions(self, publication_id: int) -> list[dict[str, Any]]:
        return await self._run(lambda db: [json.loads(r[0]) for r in db.execute(
            "SELECT body FROM published_actions WHERE publication_id = ? ORDER BY n",
            (publication_id,))])

    async def publish(self, *, club: str, tournament_id: int, name: str, closed: bool,
                      first: int, actions: Sequence[Mapping[str, Any]],
                      live: Mapping[str, Any], now_ms: int) -> Publication:
        bodies = [_body(a) for a in actions]
        live_body = json.dumps(live, separators=(",", ":"))

        def publish(db: sqlite3.Connection) -> Publication:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO published (club, tournament_id, name, closed, n, live, "
                       "updated_ms) VALUES (?, ?, ?, 0, 0, '{}', ?) "
                       "ON CONFLICT (club, tournament_id) DO NOTHING",
                       (club, tournament_id, name, now_ms))
            pid, n = db.execute("SELECT id, n FROM published WHERE club = ? AND "
                                "tournament_id = ?", (club, tournament_id)).fetchone()
            if bodies and first != n + 1:
                db.execute("ROLLBACK")
                raise OutOfOrder(f"actions from {first}: {n} are kept", n)
            db.executemany("INSERT INTO published_actions (publication_id, n, body) "
                           "VALUES (?, ?, ?)",
                           [(pid, first + k, b) for k, b in enumerate(bodies)])
            row = db.execute(
                f"UPDATE published SET name = ?, closed = ?, n = ?, live = ?, updated_ms = ? "
                f"WHERE id = ? RETURNING {_COLS}",
                (name, int(closed), n + len(bodies), live_body, now_ms, pid)).fetchone()
            db.execute("COMMIT")
            return _publication(row)

        return await self._run(publish)


class PostgresPublished:
    """``PublishedStore`` over ``PostgresStore``'s pool."""

    if TYPE_CHECKING:
        async def _read(self, fn: Callable[[Any], Awaitable[T]]) -> T: ...

        async def _write(self, fn: Callable[[Any], Awaitable[T]]) -> T: ...

    async def publications(self, club: str | None = None) -> list[Publication]:
        if club is None:
            rows = await self._read(lambda c: c.fetch(
                f"SELECT {_COLS} FROM published ORDER BY club, tournament_id"))
        else:
            rows = await self._read(lambda c: c.fetch(
                f"SELECT {_COLS} FROM published WHERE club = $1 ORDER BY tournament_id", club))
        return [_publication(r) for r in rows]

    async def publication(self, club: str, tournament_id: int) -> Publication | None:
        row = await self._read(lambda c: c.fetchrow(
            f"SELECT {_COLS} FROM published WHERE club = $1 AND tournament_id = $2",
            club, tournament_id))
        return None if row is None else _publication(row)

    async def published_actions(self, publication_id: int) -> list[dict[str, Any]]:
        rows = await self._read(lambda c: c.fetch(
            "SELECT body FROM published_actions WHERE publication_id = $1 ORDER BY n",
            publication_id))
        return [json.loads(r[0]) for r in rows]

    async def publish(self, *, club: str, tournament_id: int, name: str, closed: bool,
                      first: int, actions: Sequence[Mapping[str, Any]],
                      live: Mapping[str, Any], now_ms: int) -> Publication:
        bodies = [_body(a) for a in actions]
        live_body = json.dumps(live, separators=(",", ":"))

        async def publish(c: Any) -> Publication:
            async with c.transaction():
                await c.execute(
                    "INSERT INTO published (club, tournament_id, name, closed, n, live, "
                    "updated_ms) VALUES ($1, $2, $3, 0, 0, '{}', $4) "
                    "ON CONFLICT (club, tournament_id) DO NOTHING",
                    club, tournament_id, name, now_ms)
                pid, n = await c.fetchrow(
                    "SELECT id, n FROM published WHERE club = $1 AND tournament_id = $2 "
                    "FOR UPDATE", club, tournament_id)
                if bodies and first != n + 1:
                    raise OutOfOrder(f"actions from {first}: {n} are kept", int(n))
                await c.executemany(
                    "INSERT INTO published_actions (publication_id, n, body) VALUES ($1, $2, $3)",
                    [(pid, first + k, b) for k, b in enumerate(bodies)])
                row = await c.fetchrow(
                    "UPDATE published SET name = $1, closed = $2, n = $3, live = $4, "
                    f"updated_ms = $5 WHERE id = $6 RETURNING {_COLS}",
                    name, int(closed), n + len(bodies), live_body, now_ms, pid)
            return _publication(row)

        return await self._write(publish)
