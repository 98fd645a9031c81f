"""The PostgreSQL store (asyncpg): the same interface, one transaction per commit.

``schema`` names the PostgreSQL schema the tables live in (created if absent);
the tests use a fresh one per run and drop it afterwards.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from . import (
    ArchivedMatch,
    NotFound,
    Store,
    StoredAction,
    StoredEvent,
    StoredNote,
    StoreError,
    TableRow,
    TableSpec,
    TournamentRow,
    _row_spec,
    archive_body,
    archived_match,
)
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
_BULK_CHECKPOINTS = (
    "UPDATE clock_tables AS t SET checkpoint_ms = c.ms "
    "FROM unnest($1::bigint[], $2::bigint[]) AS c(id, ms) "
    "WHERE t.id = c.id AND (t.checkpoint_ms IS NULL OR t.checkpoint_ms < c.ms)"
)


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as ``width`` column lists (the arrays ``unnest`` takes)."""
    return [list(col) for col in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]


#: A lock number for migrations, so two servers starting at once do not race.
_MIGRATION_LOCK = 0x6267636C


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


class PostgresStore(Store):
    """A PostgreSQL database given by its URL."""

    def __init__(self, dsn: str, *, schema: str = "public") -> None:
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ValueError(f"not a plain schema name: {schema!r}")
        self.dsn = dsn
        self.schema = schema
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is closed")
        return self._pool

    async def open(self) -> None:
        if self._pool is not None:
            return
        conn = await asyncpg.connect(self.dsn)
        try:
            await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
        finally:
            await conn.close()
        self._pool = await asyncpg.create_pool(
            self.dsn, min_size=1, max_size=4,
            server_settings={"search_path": self.schema, "synchronous_commit": "on"},
        )
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await c.execute(VERSION_TABLE)
            current = await c.fetchval("SELECT MAX(version) FROM schema_version") or 0
            for version in range(current + 1, LATEST + 1):
                for stmt in statements("postgres", version):
                    await c.execute(stmt)
                await c.execute("INSERT INTO schema_version (version) VALUES ($1)", version)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT MAX(version) FROM schema_version"))

    async def get_meta(self, key: str) -> str | None:
        value = await self.pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        await self.pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
            key, value)
        return str(await self.pool.fetchval("SELECT value FROM meta WHERE key = $1", key))

    async def set_meta(self, key: str, value: str) -> None:
        await self.pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", key, value)

    async def create_tournament(self, name: str, created_ms: int) -> TournamentRow:
        tid = await self.pool.fetchval(
            "INSERT INTO tournaments (name, created_ms) VALUES ($1, $2) RETURNING id",
            name, created_ms)
        return TournamentRow(id=tid, name=name, created_ms=created_ms)

    async def tournaments(self) -> list[TournamentRow]:
        rows = await self.pool.fetch(
            "SELECT id, name, created_ms, closed_ms FROM tournaments ORDER BY id")
        return [TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3]) for r in rows]

    async def tournament(self, tournament_id: int) -> TournamentRow:
        r = await self.pool.fetchrow(
            "SELECT id, name, created_ms, closed_ms FROM tournaments WHERE id = $1", tournament_id)
        if r is None:
            raise NotFound(f"no tournament {tournament_id}")
        return TournamentRow(id=r[0], name=r[1], created_ms=r[2], closed_ms=r[3])

    async def close_tournament(self, tournament_id: int, closed_ms: int) -> list[int]:
        async with self.pool.acquire() as c, c.transaction():
            exists = await c.fetchval("SELECT 1 FROM tournaments WHERE id = $1", tournament_id)
            if exists is None:
                raise NotFound(f"no tournament {tournament_id}")
            await c.execute("UPDATE tournaments SET closed_ms = $1 "
                            "WHERE id = $2 AND closed_ms IS NULL", closed_ms, tournament_id)
            rows = await c.fetch("UPDATE clock_tables SET closed_ms = $1 WHERE tournament_id = $2 "
                                 "AND closed_ms IS NULL RETURNING id", closed_ms, tournament_id)
            return sorted(r[0] for r in rows)

    async def create_table(self, tournament_id: int, spec: TableSpec,
                           created_ms: int) -> TableRow:
        try:
            tid = await self.pool.fetchval(
                "INSERT INTO clock_tables (tournament_id, name, player_a, player_b, rules, "
                "length, score_a, score_b, teams, crawford, clock, created_ms, warn_s) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
                tournament_id, spec.name, spec.players[0], spec.players[1], spec.rules,
                spec.length, spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                json.dumps(spec.clock), created_ms, json.dumps(list(spec.warn_s)))
        except asyncpg.ForeignKeyViolationError as exc:
            raise NotFound(f"no tournament {tournament_id}") from exc
        return TableRow(id=tid, tournament_id=tournament_id, spec=spec, created_ms=created_ms)

    async def update_table(self, table_id: int, spec: TableSpec) -> TableRow:
        r = await self.pool.fetchrow(
            "UPDATE clock_tables SET name = $1, player_a = $2, player_b = $3, rules = $4, "
            "length = $5, score_a = $6, score_b = $7, teams = $8, crawford = $9, clock = $10, "
            f"warn_s = $12 WHERE id = $11 RETURNING {_TABLE_COLS}",
            spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
            spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
            json.dumps(spec.clock), table_id, json.dumps(list(spec.warn_s)))
        if r is None:
            raise NotFound(f"no table {table_id}")
        return _table(r)

    async def close_table(self, table_id: int, closed_ms: int) -> None:
        await self.pool.execute(
            "UPDATE clock_tables SET closed_ms = $1 WHERE id = $2 AND closed_ms IS NULL",
            closed_ms, table_id)

    async def tables(self, tournament_id: int | None = None) -> list[TableRow]:
        if tournament_id is None:
            rows = await self.pool.fetch(f"SELECT {_TABLE_COLS} FROM clock_tables ORDER BY id")
        else:
            rows = await self.pool.fetch(
                f"SELECT {_TABLE_COLS} FROM clock_tables WHERE tournament_id = $1 ORDER BY id",
                tournament_id)
        return [_table(r) for r in rows]

    async def events(self, table_id: int, after_seq: int = 0) -> list[StoredEvent]:
        rows = await self.pool.fetch(
            f"SELECT {_EVENT_COLS} FROM clock_events WHERE table_id = $1 AND seq > $2 "
            "ORDER BY seq", table_id, after_seq)
        return [_event(r) for r in rows]

    async def all_events(self) -> dict[int, list[StoredEvent]]:
        cols = ", ".join("e." + c.strip() for c in _EVENT_COLS.split(","))
        rows = await self.pool.fetch(
            f"SELECT {cols} FROM clock_events e JOIN clock_tables t ON t.id = e.table_id "
            "WHERE t.closed_ms IS NULL ORDER BY e.table_id, e.seq")
        out: dict[int, list[StoredEvent]] = {}
        for r in rows:
            out.setdefault(r[0], []).append(_event(r))
        return out

    async def notes(self, table_id: int) -> list[StoredNote]:
        rows = await self.pool.fetch(
            f"SELECT {_NOTE_COLS} FROM clock_notes WHERE table_id = $1 ORDER BY n", table_id)
        return [_note(r) for r in rows]

    async def all_notes(self) -> dict[int, list[StoredNote]]:
        cols = ", ".join("x." + c.strip() for c in _NOTE_COLS.split(","))
        rows = await self.pool.fetch(
            f"SELECT {cols} FROM clock_notes x JOIN clock_tables t ON t.id = x.table_id "
            "WHERE t.closed_ms IS NULL ORDER BY x.table_id, x.n")
        out: dict[int, list[StoredNote]] = {}
        for r in rows:
            out.setdefault(r[0], []).append(_note(r))
        return out

    async def actions(self, tournament_id: int) -> list[StoredAction]:
        rows = await self.pool.fetch(
            "SELECT n, at_ms, body, source FROM tournament_actions WHERE tournament_id = $1 "
            "ORDER BY n", tournament_id)
        return [StoredAction(tournament_id=tournament_id, n=r[0], at_ms=r[1],
                             action=json.loads(r[2]), source=r[3]) for r in rows]

    async def append_actions(self, actions: Sequence[StoredAction]) -> None:
        try:
            async with self.pool.acquire() as c, c.transaction():
                await c.executemany(
                    "INSERT INTO tournament_actions (tournament_id, n, at_ms, body, source) "
                    "VALUES ($1, $2, $3, $4, $5)",
                    [(a.tournament_id, a.n, a.at_ms, a.body(), a.source) for a in actions])
        except (asyncpg.PostgresError, OSError) as exc:
            raise StoreError(str(exc)) from exc

    async def next_match(self, table_id: int, spec: TableSpec, created_ms: int) -> TableRow:
        try:
            async with self.pool.acquire() as c, c.transaction():
                row = await c.fetchrow(
                    f"SELECT {_TABLE_COLS} FROM clock_tables WHERE id = $1 FOR UPDATE", table_id)
                if row is None:
                    raise NotFound(f"no table {table_id}")
                old = _table(row)
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
                await c.execute(
                    "UPDATE clock_tables SET name = $1, player_a = $2, player_b = $3, "
                    "rules = $4, length = $5, score_a = $6, score_b = $7, teams = $8, "
                    "crawford = $9, clock = $10, warn_s = $11, created_ms = $12, "
                    "checkpoint_ms = NULL WHERE id = $13",
                    spec.name, spec.players[0], spec.players[1], spec.rules, spec.length,
                    spec.score[0], spec.score[1], int(spec.teams), int(spec.crawford),
                    json.dumps(spec.clock), json.dumps(list(spec.warn_s)), created_ms, table_id)
        except (asyncpg.PostgresError, OSError) as exc:
            raise StoreError(str(exc)) from exc
        return TableRow(id=table_id, tournament_id=old.tournament_id, spec=spec,
                        created_ms=created_ms, closed_ms=old.closed_ms)

    async def archive(self, table_id: int) -> list[ArchivedMatch]:
        rows = await self.pool.fetch(
            "SELECT table_id, n, spec, created_ms, archived_ms, events, notes "
            "FROM clock_archive WHERE table_id = $1 ORDER BY n", table_id)
        return [archived_match(*tuple(r)) for r in rows]

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        try:
            async with self.pool.acquire() as c, c.transaction():
                # One statement per kind of row, whatever the batch's size
                # (columns as arrays through unnest), not a round of
                # statements per row.
                if events:
                    await c.execute(_BULK_EVENTS, *_columns(
                        [(e.table_id, e.seq, e.idem_key, e.at_ms, e.body(), e.source,
                          e.lag_credit_ms, e.received_ms) for e in events], 8))
                if notes:
                    await c.execute(_BULK_NOTES, *_columns(
                        [(x.table_id, x.n, x.seq, x.idem_key, x.at_ms, x.body(), x.source,
                          x.received_ms) for x in notes], 8))
                if checkpoints:
                    await c.execute(_BULK_CHECKPOINTS, list(checkpoints),
                                    list(checkpoints.values()))
        except (asyncpg.PostgresError, OSError) as exc:
            raise StoreError(str(exc)) from exc
