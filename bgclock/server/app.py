"""The ASGI application: HTTP API, pages and the WebSocket, on one ``Hub``.

A thin layer: receive -> decode (``_protocol``) -> decide (``_hub`` with
``bgclock.core``) -> persist (the hub's writer) -> broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import math
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec
import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bgclock import web
from bgclock.core import ClockError
from bgclock.store import NotFound, Store, StoreError, StoreUnavailable, TableSpec
from bgclock.tournament import InvalidContest
from bgclock.tournament._names import check_new_names

from . import (
    _adjudicate,
    _contests,
    _desk,
    _export,
    _pages,
    _position_api,
    _register,
    _sheet,
    _tourney,
)
from ._auth import DirectorAuth, RateLimiter, TableTokens, director_key, origin_allowed
from ._bodies import NewTournament, TablePatch, TableSpecBody, spec_fields
from ._guard import HANDSHAKES, EdgeGuard, install_redaction, served_hosts
from ._heap import HeapKeeper
from ._hub import FrameBatch, Hub, TableHub, new_match
from ._lag import DEFAULT_PARAMS, LagParams
from ._limits import (
    MAX_DEPTH,
    BodyTooLarge,
    LimitError,
    check_depth,
    check_id,
    read_bounded,
)
from ._openapi import openapi
from ._protocol import (
    SCHEMAS,
    VERSION,
    Command,
    Handle,
    Hello,
    Keep,
    Ping,
    ProtocolError,
    Summon,
    Sync,
    decode,
    dumps,
)
from ._roomfeed import RoomFeed
from ._schema import BodyError, decode_body, explain, field_name
from ._static import static_routes
from ._time import ServerClock, WallClock
from .cluster import Cluster, ClusterConfig

log = logging.getLogger("bgclock.server")

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
#: HTTP answers at least this long are gzipped for a client that accepts it.
GZIP_MIN_BYTES = 1024
#: A connection whose outbox grows past this is too slow to keep.
MAX_OUTBOX = 10_000
MAX_BODY = 64 * 1024
#: Consecutive rate-limited messages after which the connection is closed.
FLOOD_CLOSE = 200


class Connection:
    """One WebSocket: an outbox drained by a sender task, so ``send`` never blocks.

    The sender task exists only while there is something to send: an idle
    connection keeps no task and no pending wait of its own (the garbage
    collector walks fewer objects, the loop wakes fewer tasks)."""

    #: A device of another process (``cluster.RemoteDevice``) is; this is not.
    relayed = False

    def __init__(self, ws: WebSocket, limiter: RateLimiter) -> None:
        self.ws = ws
        self.limiter = limiter
        self.role = ""
        self.table_id: int | None = None
        #: A table device's own id (hello ``device``) and short name.
        self.device: str | None = None
        self.name: str | None = None
        self._outbox: deque[str] = deque()
        self._drained = asyncio.Event()
        self._drained.set()
        self.dead = False
        self._task: asyncio.Task[None] | None = None
        #: The writer's frame batch, for a client that reads ``batch`` frames.
        self.batch: FrameBatch | None = None
        #: A cluster's id of this connection (its answers from other processes).
        self.cluster_id: str | None = None

    def send(self, text: str) -> None:
        if self.dead:
            return
        batch = self.batch
        if batch is not None and batch.active:
            batch.hold(self, text)
            return
        if len(self._outbox) >= MAX_OUTBOX:
            log.warning("dropping a connection that does not read its messages")
            self.dead = True
            return
        self._outbox.append(text)
        if self._task is None:
            self._drained.clear()
            self._task = asyncio.get_running_loop().create_task(self._pump())

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    async def _pump(self) -> None:
        try:
            while self._outbox:
                await self.ws.send_text(self._outbox.popleft())
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.dead = True
        finally:
            # No await between the last check of the outbox and here: a
            # ``send`` after this starts a new task, in order.
            self._task = None
            self._drained.set()

    async def close(self, code: int) -> None:
        """Send what is queued, then close."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained.wait(), 2)
        await self.stop()
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            await self.ws.close(code)

    async def stop(self) -> None:
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _spec_from(raw: bytes, base: TableSpec | None = None) -> TableSpec:
    """A TableSpec from a JSON body (whole, or a patch over ``base``), held to
    its declaration (``_bodies.TableSpecBody``); ValueError (``BodyError``
    naming the field, or the engine's words) if bad."""
    if base is None:
        body = decode_body(raw, TableSpecBody)
    else:
        patch = decode_body(raw, TablePatch)
        try:
            body = msgspec.convert({**base.to_dict(), **spec_fields(patch)}, TableSpecBody)
        except msgspec.ValidationError as exc:
            path, words = explain(exc)
            raise BodyError(field_name("body", path), words) from None
    if len(set(body.warn_s)) != len(body.warn_s):
        raise BodyError("body.warn_s", "the same warning twice")
    try:  # the two players' names: no invisible characters, not look-alikes
        check_new_names([("body.players[0]", body.players[0]),
                         ("body.players[1]", body.players[1])])
    except InvalidContest as exc:
        field, _, words = str(exc).partition(": ")
        raise BodyError(field, words) from None
    spec = TableSpec(name=body.name, players=body.players, rules=body.rules,
                     length=body.length, score=body.score, teams=body.teams,
                     crawford=body.crawford, clock=spec_fields(body.clock),
                     warn_s=tuple(sorted(body.warn_s, reverse=True)))
    try:
        new_match(spec)
    except (ClockError, TypeError) as exc:
        raise ValueError(str(exc)) from None
    return spec


class Server:
    """The application's state: store, hub, secrets and settings."""

    def __init__(self, store: Store, *, director_secret: str, clock: ServerClock,
                 lag_params: LagParams, public_url: str | None, allow_origins: Iterable[str],
                 hello_timeout_s: float, checkpoint_interval_ms: int,
                 table_rate: tuple[float, float], director_rate: tuple[float, float]) -> None:
        self.store = store
        self.director = DirectorAuth(director_secret)
        self.clock = clock
        #: When this server process started (server ms): a table page that
        #: sees it change in ``welcome`` says the server restarted.
        self.started_ms = clock.now_ms()
        self.hub = Hub(store, clock, lag_params=lag_params,
                       checkpoint_interval_ms=checkpoint_interval_ms)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.allow_origins = frozenset(allow_origins)
        self.hello_timeout_s = hello_timeout_s
        self.table_rate = table_rate
        self.director_rate = director_rate
        self.tokens: TableTokens | None = None
        self.recovered: list[int] = []
        self.tourneys = _tourney.Tourneys(self)
        self.hub.on_over = self.tourneys.on_table_over
        #: The room displays' streams (``_roomfeed``), woken by any change.
        self.room_feed = RoomFeed(lambda tid: _tourney.room_body(self, tid))
        self.hub.on_change = self.room_feed.changed
        #: This process's part in a cluster (``bgclock serve --cluster``), or None.
        self.cluster: Cluster | None = None

    # ----------------------------------------------------------------- HTTP

    def base_url(self, request: Request) -> str:
        return self.public_url or str(request.base_url).rstrip("/")

    def table_link(self, request: Request, table_id: int) -> str:
        assert self.tokens is not None
        return f"{self.base_url(request)}/t/{table_id}?token={self.tokens.token(table_id)}"

    def is_director(self, request: Request) -> bool:
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return self.director.check(header[7:].strip())
        return self.director.check(request.query_params.get("key"))

    def table_info(self, request: Request, table: TableHub) -> dict[str, Any]:
        return {**table.info(), "url": self.table_link(request, table.id),
                "token": self.tokens.token(table.id) if self.tokens else None}

    def table_or_404(self, request: Request) -> TableHub:
        try:
            table_id = check_id("table_id", request.path_params["table_id"])
        except LimitError:
            raise NotFound("no such table") from None
        table = self.hub.tables.get(table_id)
        if table is None:
            raise NotFound(f"no table {table_id}")
        return table


def director_only(
    handler: Callable[[Server, Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        server: Server = request.app.state.server
        if not server.is_director(request):
            return _error(401, "unauthorized", "the director's key is needed")
        try:
            return await handler(server, request)
        except NotFound as exc:
            return _error(404, "not_found", str(exc))

    endpoint.__name__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


async def _raw_body(request: Request) -> bytes:
    """The body, read only up to ``MAX_BODY`` bytes (by its Content-Length,
    and while it streams in) and checked for depth before anything parses it."""
    body = await read_bounded(request, MAX_BODY)
    try:
        check_depth(body)
    except LimitError:
        raise ValueError(f"body: nested more than {MAX_DEPTH} levels deep") from None
    return body


def _body_error(exc: ValueError, status: int = 400) -> JSONResponse:
    if isinstance(exc, BodyTooLarge):
        return _error(413, "too_large", str(exc))
    return _error(status, "bad_request" if status == 400 else "invalid", str(exc))


def _tournament_id(request: Request) -> int:
    """The tournament id of the path, checked to fit the store (else 404)."""
    try:
        return check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        raise NotFound("no such tournament") from None


@director_only
async def create_tournament(server: Server, request: Request) -> Response:
    try:
        body = decode_body(await _raw_body(request), NewTournament)
    except ValueError as exc:
        return _body_error(exc, exc.status if isinstance(exc, BodyError) else 400)
    row = await server.store.create_tournament(body.name, server.clock.now_ms())
    return JSONResponse(row.to_dict(), status_code=201)


@director_only
async def list_tournaments(server: Server, request: Request) -> Response:
    rows = await server.store.tournaments()
    return JSONResponse({"tournaments": [r.to_dict() for r in rows]})


@director_only
async def get_tournament(server: Server, request: Request) -> Response:
    tid = _tournament_id(request)
    row = await server.store.tournament(tid)
    tables = [server.table_info(request, t) for t in server.hub.tables.values()
              if t.row.tournament_id == tid]
    return JSONResponse({**row.to_dict(), "tables": tables})


@director_only
async def close_tournament(server: Server, request: Request) -> Response:
    tid = _tournament_id(request)
    closed = await server.store.close_tournament(tid, server.clock.now_ms())
    for table_id in closed:
        table = server.hub.tables.get(table_id)
        if table is not None:
            table.close()
            table.broadcast(table.table_message())
    row = await server.store.tournament(tid)
    rated = await _register.rate_tournament(server, tid)  # once, however often it is closed
    return JSONResponse({**row.to_dict(), "closed_tables": closed, "rated": rated})


@director_only
async def create_table(server: Server, request: Request) -> Response:
    tid = _tournament_id(request)
    tournament = await server.store.tournament(tid)
    if tournament.closed_ms is not None:
        return _error(409, "closed", "this tournament is closed")
    try:
        spec = _spec_from(await _raw_body(request))
    except ValueError as exc:
        return _body_error(exc, 422)
    row = await server.store.create_table(tid, spec, server.clock.now_ms())
    table = server.hub.add(row)
    return JSONResponse(server.table_info(request, table), status_code=201)


@director_only
async def get_table(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    return JSONResponse({**server.table_info(request, table),
                         "state": table.state_now().to_dict()})


@director_only
async def edit_table(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    try:
        table.check_editable()
        spec = _spec_from(await _raw_body(request), table.row.spec)
        await table.edit(spec)  # one path with the commands: never both
    except ProtocolError as exc:
        return _error(409, exc.code, exc.message)
    except ValueError as exc:
        return _body_error(exc, 422)
    table.broadcast(table.table_message())
    table.broadcast(table.snapshot_message())
    return JSONResponse(server.table_info(request, table))


@director_only
async def next_match(server: Server, request: Request) -> Response:
    """A fresh match on the same table (same id, link and token): the body is
    a whole spec; the finished match's log is archived (``archive.json``)."""
    table = server.table_or_404(request)
    try:
        spec = _spec_from(await _raw_body(request))
        await table.renew(spec)
    except ProtocolError as exc:
        return _error(409, exc.code, exc.message)
    except ValueError as exc:
        return _body_error(exc, 422)
    return JSONResponse(server.table_info(request, table))


@director_only
async def table_archive(server: Server, request: Request) -> Response:
    """The matches the table played before its current one, with their logs."""
    table = server.table_or_404(request)
    archived = await server.store.archive(table.id)
    return JSONResponse({"table": table.id, "matches": [
        {"n": a.n, "spec": a.spec.to_dict(), "created_ms": a.created_ms,
         "archived_ms": a.archived_ms, "events": _export.log_entries(a.spec, a.events),
         "notes": _export.note_entries(a.notes)} for a in archived]})


@director_only
async def close_table(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    try:
        await table.owned()  # a cluster: its keeper closes it
    except ProtocolError as exc:
        return _error(409, exc.code, exc.message)
    await server.store.close_table(table.id, server.clock.now_ms())
    table.close()
    table.broadcast(table.table_message())
    return JSONResponse(server.table_info(request, table))


@director_only
async def table_qr(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    buf = io.BytesIO()
    segno.make(server.table_link(request, table.id), error="m").save(
        buf, kind="svg", scale=6, border=2, title=f"Table {table.row.spec.name or table.id}")
    return Response(buf.getvalue(), media_type="image/svg+xml")


async def _committed_log(server: Server, table: TableHub) -> list[Any]:
    return await server.store.events(table.id)


@director_only
async def table_log_json(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return JSONResponse({"table": table.info(),
                         "events": _export.log_entries(table.row.spec, events),
                         "notes": _export.note_entries(notes)})


#: A client that has pinged and then says nothing for this long is gone
#: (the pages ping every second and give up after 2.5 s themselves).
SILENT_LINK_S = 5.0

#: The most events one ``events`` page carries (a device far behind asks again).
EVENTS_PAGE = 1000


async def table_events(request: Request) -> Response:
    """The table's committed events after ``after``, for its own device to
    fold with the browser engine (a table token opens only its table's).

    Paged (``EVENTS_PAGE``) and rate-limited per table, so what one token can
    make the server do is bounded; served from memory, never re-folded."""
    server: Server = request.app.state.server
    table = _table_by_token(server, request)
    if isinstance(table, Response):
        return table
    table_id = table.id
    try:
        after = check_id("after", request.query_params.get("after", "0"))
    except LimitError as exc:
        return _error(422, "invalid", str(exc))
    if not table.log_limiter.allow():
        return _error(429, "rate_limited", "too many log requests for this table: slow down")
    events, more = table.events_after(after, EVENTS_PAGE)
    return JSONResponse({"table": table_id, "seq": table.committed_seq,
                         "spec": table.row.spec.to_dict(), "created_ms": table.row.created_ms,
                         "events": [{"seq": e.seq, "event": e.event} for e in events],
                         "more": more},
                        headers={"cache-control": "no-store"})


@director_only
async def table_log_csv(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return PlainTextResponse(
        _export.log_csv(table.row.spec, events, notes), media_type="text/csv",
        headers={"content-disposition": f'attachment; filename="table-{table.id}.csv"'})


@director_only
async def table_report(server: Server, request: Request) -> Response:
    table = server.table_or_404(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return JSONResponse(_export.report(table.info(), table.row.spec, events, table.match_now(),
                                       notes))


@director_only
async def table_report_html(server: Server, request: Request) -> Response:
    """The report's score sheet and time-per-move charts, printable on A4."""
    table = server.table_or_404(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    report = _export.report(table.info(), table.row.spec, events, table.match_now(), notes)
    return HTMLResponse(_sheet.sheet_html(report, request.query_params.get("lang", "en")))


@director_only
async def director_page(server: Server, request: Request) -> Response:
    return HTMLResponse(web.director_page())


def _table_by_token(server: Server, request: Request) -> TableHub | Response:
    """The table of the path if the query's ``token`` opens it, else the
    answer saying why (404 no such table, 403 another table's token)."""
    assert server.tokens is not None
    try:
        table_id = check_id("table_id", request.path_params["table_id"])
    except LimitError:
        return _error(404, "not_found", "no such table")
    if server.tokens.table_of(request.query_params.get("token")) != table_id:
        return _error(403, "forbidden", "this link does not open this table")
    table = server.hub.tables.get(table_id)
    if table is None:
        return _error(404, "not_found", f"no table {table_id}")
    return table


async def table_page(request: Request) -> Response:
    table = _table_by_token(request.app.state.server, request)
    if isinstance(table, Response):
        return table
    return HTMLResponse(web.table_page(table.id))


async def table_worker(request: Request) -> Response:
    """The table page's service worker, at the root so that it may serve
    ``/t/`` (the page registers it only over TLS; docs/pages.md)."""
    return Response(web.table_worker(), media_type="text/javascript")


async def index(request: Request) -> Response:
    return HTMLResponse(_pages.index_page())


async def healthz(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def store_failing(request: Request, exc: Exception) -> Response:
    """A director's request the store could not serve (the database is away,
    stalled past its deadline, or refused): 503 and when to try again,
    never a 500.  Sent again, it is done once (what a deadline cut off and
    landed unseen is removed, or done again to the same effect)."""
    if isinstance(exc, NotFound):
        return _error(404, "not_found", str(exc))
    store: Store = request.app.state.server.store
    retry = max(1, math.ceil(store.deadline_s))
    log.warning("%s %s: the store failed: %s", request.method, request.url.path, exc)
    said = str(exc) if isinstance(exc, StoreUnavailable) else f"the database refused: {exc}"
    response = _error(503, "storage", f"{said}: try again in {retry} s")
    response.headers["Retry-After"] = str(retry)
    return response


async def schemas(request: Request) -> Response:
    return JSONResponse({"version": VERSION, "messages": SCHEMAS})


async def openapi_json(request: Request) -> Response:
    return JSONResponse(openapi())


# ------------------------------------------------------------------- WebSocket

async def websocket(ws: WebSocket) -> None:
    server: Server = ws.app.state.server
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                          ws.url.scheme, server.allow_origins):
        await ws.close(1008)  # before accept: the handshake is refused (403)
        return
    await ws.accept()
    conn = Connection(ws, RateLimiter(*server.table_rate))
    try:
        await _session(server, conn)
    except WebSocketDisconnect:
        pass
    finally:
        server.hub.directors.discard(conn)
        if server.cluster is not None:
            server.cluster.director_gone(conn)
        if conn.table_id is not None and conn.table_id in server.hub.tables:
            table = server.hub.tables[conn.table_id]
            if conn in table.watchers:
                table.watchers.discard(conn)
                table.device_gone(conn.device)
        await conn.stop()


async def _refuse(conn: Connection, code: str, message: str) -> None:
    conn.send_json(ProtocolError(code, message).to_message())
    await conn.close(1008)


async def _session(server: Server, conn: Connection) -> None:
    ws = conn.ws
    try:
        first = await asyncio.wait_for(ws.receive(), server.hello_timeout_s)
    except TimeoutError:
        await _refuse(conn, "timeout", "say hello first (no hello in time)")
        return
    if first["type"] == "websocket.disconnect":
        return
    try:
        hello = decode(first.get("text"))
    except ProtocolError as exc:
        await _refuse(conn, exc.code, exc.message)
        return
    if not isinstance(hello, Hello):
        await _refuse(conn, "hello_first", "the first message must be hello")
        return
    hub = server.hub
    assert server.tokens is not None
    if hello.key is not None:
        if not server.director.check(hello.key):
            await _refuse(conn, "unauthorized", "wrong director's key")
            return
        conn.role = "director"
        conn.limiter = RateLimiter(*server.director_rate)
        if hello.batch:
            conn.batch = hub.writer.frames
        tables = sorted(t.id for t in hub.tables.values() if not t.closed)
        if server.cluster is not None:  # the tables other processes keep too
            await server.cluster.director_hello(conn, dict(hello.since))
            tables = sorted(t.id for t in hub.tables.values() if not t.closed)
        conn.send_json({"type": "welcome", "v": VERSION, "role": "director", "tables": tables,
                        "server_ms": server.clock.now_ms()})
        for watched in tables:
            if server.cluster is not None and not server.cluster.owns(watched):
                continue  # its keeper sends the catch-up (``director_hello``)
            hub.tables[watched].catch_up(conn, hello.since.get(watched))
            hub.tables[watched].send_summons(conn, hello.since.get(watched))
            hub.tables[watched].send_handled(conn)
        hub.directors.add(conn)
    else:
        opened = server.tokens.table_of(hello.token)
        if opened is not None and server.cluster is not None:
            # a cluster: served here if this process owns the table (or can
            # take it), else relayed to its owner until the device goes
            if not await server.cluster.known(opened):
                opened = None
            elif await server.cluster.hello(conn, hello, opened):
                return
        if opened is None or opened not in hub.tables:
            await _refuse(conn, "unauthorized", "this link's token is not valid")
            return
        conn.role = "table"
        conn.table_id = table_id = opened
        if hello.batch:
            conn.batch = hub.writer.frames
        table = hub.tables[table_id]
        conn.send_json({"type": "welcome", "v": VERSION, "role": "table", "tables": [table_id],
                        "server_ms": server.clock.now_ms(), "started_ms": server.started_ms})
        table.catch_up(conn, hello.last_seq)
        conn.device, conn.name = hello.device, hello.name
        table.watchers.add(conn)
        table.device_hello(hello.device, hello.queued, hello.name)
    pinging = False
    while not conn.dead:
        if pinging:
            # A client that pings (the pages: every second) and falls silent
            # has lost its link (Wi-Fi gone, nothing closed): the table is
            # offline now, not when TCP gives up.
            try:
                message = await asyncio.wait_for(ws.receive(), SILENT_LINK_S)
            except TimeoutError:
                await conn.close(1001)
                return
        else:
            message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not conn.limiter.allow():
            conn.send_json(ProtocolError("rate_limited", "too many messages: slow down")
                           .to_message())
            if conn.limiter.refused_in_a_row >= FLOOD_CLOSE:
                await conn.close(1008)
                return
            continue
        try:
            decoded = decode(message.get("text"))
            pinging = pinging or isinstance(decoded, Ping)
            if server.cluster is not None and server.cluster.forwards(
                    conn, decoded, str(message.get("text"))):
                continue  # a director's message for a table another process keeps
            _dispatch(server, conn, decoded)
        except ProtocolError as exc:
            conn.send_json(exc.to_message())
    await conn.close(1011)


def _dispatch(server: Server, conn: Connection, message: Any) -> None:
    hub = server.hub
    if isinstance(message, Ping):
        # msgspec, not orjson: ``t`` is whatever the client sent, integers past
        # 64 bits included, and comes back as it came.
        conn.send(msgspec.json.encode({"type": "pong", "t": message.t,
                                       "server_ms": server.clock.now_ms()}).decode())
    elif isinstance(message, Command | Summon | Handle | Keep):
        what = ("cmd" if isinstance(message, Command)
                else "summon" if isinstance(message, Summon)
                else "keep" if isinstance(message, Keep) else "handle")
        table_id = message.table
        if conn.role == "table":
            if table_id is not None and table_id != conn.table_id:
                raise ProtocolError("forbidden", "this device opens only its own table",
                                    msg_id=message.id, table=table_id)
            table_id = conn.table_id
        elif table_id is None:
            raise ProtocolError("bad_message", f"{what}: the director must name the table",
                                msg_id=message.id)
        try:
            table = hub.table(table_id)
            if isinstance(message, Command):
                try:
                    table.command(conn, conn.role, message)
                except ProtocolError:
                    table.counted(conn.device, accepted=False)
                    raise
                table.counted(conn.device, accepted=True)
            elif isinstance(message, Handle):
                table.handle(conn, conn.role, message)
            elif isinstance(message, Keep):
                table.keep(conn, conn.role, message)
            else:
                table.summon(conn, conn.role, message)
        except ProtocolError as exc:
            exc.msg_id, exc.table = message.id, table_id
            raise
    elif isinstance(message, Sync):
        if conn.role == "table":
            if message.table not in (None, conn.table_id):
                raise ProtocolError("forbidden", "this device opens only its own table",
                                    table=message.table)
            conn.send(hub.table(conn.table_id).snapshot_message())
        elif message.table is not None:
            conn.send(hub.table(message.table).snapshot_message())
        else:
            for table in hub.tables.values():
                if not table.closed:
                    conn.send(table.snapshot_message())
    elif isinstance(message, Hello):
        raise ProtocolError("bad_message", "hello was already said")


# ------------------------------------------------------------------- the app

def create_app(
    store: Store,
    *,
    director_secret: str | None = None,
    clock: ServerClock | None = None,
    lag_params: LagParams = DEFAULT_PARAMS,
    public_url: str | None = None,
    allow_origins: Iterable[str] = (),
    hello_timeout_s: float = 10.0,
    checkpoint_interval_ms: int = 1000,
    table_rate: tuple[float, float] = (30, 10),
    director_rate: tuple[float, float] = (600, 300),
    static_dir: Path | None = WEB_STATIC,
    heap_settle_s: float | None = 0.5,
    bind_host: str | None = None,
    allow_hosts: Iterable[str] = (),
    handshake_rate: tuple[float, float] | None = HANDSHAKES,
    cluster: ClusterConfig | None = None,
) -> Starlette:
    """The server's ASGI application over ``store`` (opened, unless it already
    is, and closed by its lifespan).  ``director_secret``: None takes the
    director's key kept in the store (made the first time).

    ``heap_settle_s``: how often the long-lived heap is frozen out of the
    garbage collector's walks (``_heap``); None leaves the collector alone.
    ``bind_host``, ``public_url`` and ``allow_hosts`` name the hosts a
    WebSocket may be opened at (``_guard.served_hosts``).  ``cluster``: this
    process is one of several on one PostgreSQL database (``cluster``)."""
    # Without a secret, the lifespan takes the director's key kept in the store.
    server = Server(store, director_secret=director_secret or secrets.token_urlsafe(16),
                    clock=clock or WallClock(), lag_params=lag_params, public_url=public_url,
                    allow_origins=allow_origins, hello_timeout_s=hello_timeout_s,
                    checkpoint_interval_ms=checkpoint_interval_ms, table_rate=table_rate,
                    director_rate=director_rate)
    if cluster is not None:
        from bgclock.store._postgres import PostgresStore

        if not isinstance(store, PostgresStore):
            raise ValueError("a cluster needs PostgreSQL (--db postgresql://...)")
        server.cluster = Cluster(server, store, cluster, _dispatch)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        await store.claim()  # one server per store (``bgclock serve`` claimed it already)
        if server.cluster is not None:
            await server.cluster.start()
        if director_secret is None:
            server.director = DirectorAuth(await director_key(store))
        key = await store.set_meta_if_absent("table_token_key", secrets.token_hex(32))
        server.tokens = TableTokens(bytes.fromhex(key))
        server.recovered = await server.hub.start()
        for table in server.hub.tables.values():  # a match that ended while the server was down
            if not table.closed and table.quarantined is None:
                table.report_over(table.match.state())
        await server.tourneys.resume()  # late counts and late starts due go on
        heap = HeapKeeper(heap_settle_s) if heap_settle_s else None
        if heap is not None:
            heap.start()
        try:
            yield
        finally:
            if heap is not None:
                await heap.stop()
            await server.hub.stop()
            if server.cluster is not None:
                await server.cluster.stop()
            server.tourneys.desk.close()
            await store.close()

    routes: list[Any] = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/openapi.json", openapi_json),
        Route("/protocol/schemas.json", schemas),
        Route("/director", director_page),
        Route("/t/{table_id}", table_page),
        Route("/table-sw.js", table_worker),
        Route("/api/tournaments", create_tournament, methods=["POST"]),
        Route("/api/tournaments", list_tournaments, methods=["GET"]),
        Route("/api/tournaments/{tournament_id}", get_tournament, methods=["GET"]),
        Route("/api/tournaments/{tournament_id}/close", close_tournament, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/tables", create_table, methods=["POST"]),
        Route("/room/{tournament_id}", _tourney.room_page),
        Route("/api/tournaments/{tournament_id}/room.json", _tourney.room_json),
        Route("/api/tournaments/{tournament_id}/room.stream", _tourney.room_stream),
        *[Route(f"/api/tournaments/{{tournament_id}}{path}", director_only(handler),
                methods=[method])
          for path, method, handler in _tourney.ROUTES],
        Route("/api/tournaments/{tournament_id}/events.json", _contests.events_json),
        *[Route(f"/api/tournaments/{{tournament_id}}{path}", director_only(handler),
                methods=[method])
          for path, method, handler in _contests.ROUTES],
        *[Route(f"/api{path}", director_only(handler), methods=[method])
          for path, method, handler in _register.ROUTES],
        Route("/api/tables/{table_id}/next-match", next_match, methods=["POST"]),
        Route("/api/tables/{table_id}/sheet", _desk.table_sheet, methods=["POST"]),
        Route("/api/tables/{table_id}/archive.json", table_archive),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}", edit_table, methods=["PATCH"]),
        Route("/api/tables/{table_id}/close", close_table, methods=["POST"]),
        Route("/api/tables/{table_id}/qr.svg", table_qr),
        Route("/api/tables/{table_id}/log.json", table_log_json),
        Route("/api/tables/{table_id}/events", table_events),
        Route("/api/tables/{table_id}/log.csv", table_log_csv),
        Route("/api/tables/{table_id}/report", table_report),
        Route("/api/tables/{table_id}/report.html", table_report_html),
        Route("/api/tables/{table_id}/adjudicate", director_only(_adjudicate.adjudicate),
              methods=["POST"]),
        Route("/api/position", director_only(_position_api.get_position), methods=["GET"]),
        Route("/api/position", director_only(_position_api.post_position), methods=["POST"]),
        WebSocketRoute("/ws", websocket),
    ]
    if static_dir is not None and static_dir.is_dir():
        routes.extend(static_routes(static_dir))
    install_redaction()
    hosts = served_hosts(bind_host, public_url, allow_hosts)
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={StoreError: store_failing},
                    middleware=[Middleware(EdgeGuard, hosts=hosts, handshakes=handshake_rate),
                                # pages, scripts and JSON (room.json: 44 KiB,
                                # 3 KiB gzipped) to clients that accept gzip
                                Middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)])
    app.state.server = server
    return app
