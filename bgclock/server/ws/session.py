"""The WebSocket: one ``Connection`` per device or dashboard, its hello,
then its messages dispatched to the hub (``routes``: ``/ws``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bgclock.server.context import Server, server_of
from bgclock.server.edge.auth import RateLimiter, origin_allowed
from bgclock.server.edge.clubs import fresh_club_keys
from bgclock.server.edge.principal import key_director
from bgclock.server.live.commands import (
    VERSION,
    Command,
    Handle,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepMessage,
    KeepRequest,
    Summon,
)
from bgclock.server.live.refusal import Refused
from bgclock.server.ws.connection import ClubFeed, Connection
from bgclock.server.ws.protocol import Hello, Ping, ProtocolError, Sync, decode
from bgclock.server.ws.silence import SILENT_LINK_S, SilenceWatch
from bgclock.store import StoreError

log = logging.getLogger("bgclock.server")

async def websocket(ws: WebSocket) -> None:
    server = server_of(ws)
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
        server.ownership.director_gone(conn)
        if conn.table_id is not None and conn.table_id in server.hub.tables:
            table = server.hub.tables[conn.table_id]
            if conn in table.watchers:
                table.watchers.discard(conn)
                table.device_gone(conn.device)
        await conn.stop()


async def _refuse(conn: Connection, code: str, message: str) -> None:
    conn.send_json(ProtocolError(code, message).to_message())
    await conn.close(1008)


async def _director_club(server: Server, ws: WebSocket, hello: Hello,
                         by_session: bool) -> tuple[bool, str | None]:
    """Whether the hello is a director's, and which club's (None: the
    server's own director)."""
    if by_session:
        return True, server.principal(ws).club
    await fresh_club_keys(server, hello.key)
    return key_director(hello.key, server.director, server.clubs)


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
    # the director: the key in the hello, or (a hello with neither key nor
    # token) the session cookie the dashboard's handshake carried
    # (``edge.principal``: only from this server's own pages)
    by_session = hello.key is None and hello.token is None and server.is_director(ws)
    if hello.key is not None or by_session:
        director, club = await _director_club(server, ws, hello, by_session)
        if not director:
            await _refuse(conn, "unauthorized", "wrong director's key")
            return
        if club is not None:
            server.note_owners(await server.store.tournaments())  # the feed decides at once
            conn.club = ClubFeed(club, server.hub.tables, server.owners, server.owner)
        conn.role = "director"
        conn.shed.limiter = RateLimiter(*server.director_rate)
        if hello.batch:
            conn.batch = hub.writer.frames
        tables = sorted(t.id for t in hub.tables.values() if not t.closed)
        await server.ownership.director_hello(conn, dict(hello.since))
        tables = sorted(t.id for t in hub.tables.values() if not t.closed)  # others' too
        if conn.club is not None:
            tables = [t for t in tables if conn.club.sees_table(t)]
        conn.send_json({"type": "welcome", "v": VERSION, "role": "director", "tables": tables,
                        "server_ms": server.clock.now_ms()})
        for watched in tables:
            if not server.ownership.owns(watched):
                continue  # its owner sends the catch-up (``director_hello``)
            if not hub.tables[watched].folded:  # its card now, its state once folded
                conn.send(hub.tables[watched].table_message())
                continue
            hub.tables[watched].catch_up(conn, hello.since.get(watched))
            hub.tables[watched].send_summons(conn, hello.since.get(watched))
            hub.tables[watched].send_handled(conn)
        hub.directors.add(conn)
    else:
        opened = server.tokens.table_of(hello.token)
        if opened is not None:
            # served here if this process owns the table (or can take it),
            # else by its owner until the device goes
            if not await server.ownership.known(opened):
                opened = None
            elif await server.ownership.device_hello(conn, hello, opened):
                return
        if opened is None or opened not in hub.tables:
            await _refuse(conn, "unauthorized", "this link's token is not valid")
            return
        try:
            await hub.ready(opened)  # a table a first start left unfolded: folded now
        except StoreError as exc:
            await _refuse(conn, "storage", f"the table could not be loaded: {exc}")
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
    # A client that pings (the pages: every second) and falls silent has
    # lost its link (Wi-Fi gone, nothing closed): the table is offline now,
    # not when TCP gives up.  One watch per connection, not a timeout per
    # message: a message only notes its instant.
    watch = SilenceWatch(SILENT_LINK_S)
    try:
        while not conn.dead:
            try:
                message = await ws.receive()
            except asyncio.CancelledError:
                if not watch.silenced():
                    raise
                await conn.close(1001)
                return
            watch.heard()
            if message["type"] == "websocket.disconnect":
                return
            waits = _handle(server, conn, message, watch)
            if waits is REFUSED:
                if conn.shed.flooding:
                    watch.stop()
                    await conn.close(1008)
                    return
            elif waits is not None:  # its table is being folded: then it is dispatched
                await _dispatch_folded(server, conn, waits)
    finally:
        watch.stop()
    await conn.close(1011)


#: ``_handle``: the message was shed (``ws.shed``).
REFUSED: Any = object()


def _handle(server: Server, conn: Connection, message: Any, watch: SilenceWatch) -> Any:
    """One message of an open session: None when it was dispatched (or
    answered with an error), ``REFUSED`` when it was shed (``ws.shed``: a
    ping never is), else the decoded message, whose table must be folded
    before it is dispatched."""
    decoded: Any = None
    error: ProtocolError | None = None
    try:
        decoded = decode(message.get("text"))
    except ProtocolError as exc:
        error = exc
    if isinstance(decoded, Ping):
        watch.start()
        if conn.shed.ping():
            dispatch(server, conn, decoded)
        return None
    if not conn.shed.admit(decoded):
        conn.send_json(conn.shed.refusal(decoded, conn.table_id).to_message())
        return REFUSED
    try:
        if error is not None:
            raise error
        if conn.club is not None and (table_id := _table_of(conn, decoded)) is not None \
                and not conn.club.sees_table(table_id):
            raise ProtocolError("not_found", f"no table {table_id}",
                                msg_id=getattr(decoded, "id", None), table=table_id)
        if server.ownership.forwards(conn, decoded, str(message.get("text"))):
            return None  # a director's message for a table another process owns
        if _unfolded(server, conn, decoded):
            return decoded
        dispatch(server, conn, decoded)
    except ProtocolError as exc:
        if exc.code == "rate_limited" and isinstance(decoded, Command):
            conn.shed.wait_for(decoded.id)  # the table's own rate: in order too
            exc.retry_ms = conn.shed.refusal(decoded, None).retry_ms
        conn.send_json(exc.to_message())
    return None


def _table_of(conn: Connection, message: Any) -> int | None:
    """The table a message concerns (None: no table's)."""
    if not isinstance(message, Command | Summon | Handle | Sync | KeepMessage):
        return None
    return conn.table_id if conn.role == "table" else message.table


def _unfolded(server: Server, conn: Connection, message: Any) -> bool:
    """The message concerns a table a first start left unfolded."""
    table_id = _table_of(conn, message)
    table = server.hub.tables.get(table_id) if table_id is not None else None
    return table is not None and not table.folded


async def _dispatch_folded(server: Server, conn: Connection, message: Any) -> None:
    """Fold the message's table, then dispatch it (the connection's next
    message waits, so its messages keep their order)."""
    try:
        await _folded(server, conn, message)
        dispatch(server, conn, message)
    except ProtocolError as exc:
        conn.send_json(exc.to_message())


async def _folded(server: Server, conn: Connection, message: Any) -> None:
    """The table a message concerns is folded before it is dispatched (a
    table a first start left unfolded: ``Hub.ready``)."""
    table_id = _table_of(conn, message)
    if table_id is None:
        return
    try:
        await server.hub.ready(table_id)
    except StoreError as exc:
        raise ProtocolError("storage", f"table {table_id} could not be loaded: {exc}",
                            msg_id=getattr(message, "id", None), table=table_id) from None


def dispatch(server: Server, conn: Connection, message: Any) -> None:
    """One decoded message, to its table or answered here; a table's
    refusal (live's ``Refused``) is raised as the protocol's error."""
    try:
        _dispatch(server, conn, message)
    except Refused as exc:
        raise ProtocolError.of(exc) from None


def _dispatch(server: Server, conn: Connection, message: Any) -> None:
    hub = server.hub
    if isinstance(message, Ping):
        # msgspec, not orjson: ``t`` is whatever the client sent, integers past
        # 64 bits included, and comes back as it came.
        conn.send(msgspec.json.encode({"type": "pong", "t": message.t,
                                       "server_ms": server.clock.now_ms()}).decode())
    elif isinstance(message, Command | Summon | Handle | KeepMessage):
        what = ("cmd" if isinstance(message, Command)
                else "summon" if isinstance(message, Summon)
                else "handle" if isinstance(message, Handle)
                else str(type(message).__struct_config__.tag))
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
                table.receive(conn, conn.role, message)  # in order, once (``live.idempotency``)
            elif isinstance(message, Handle):
                table.handle(conn, conn.role, message)
            elif isinstance(message, KeepRequest | Keep):
                table.keep_request(conn, conn.role, message)
            elif isinstance(message, KeepAnswer):
                table.keep_answer(conn, conn.role, message)
            elif isinstance(message, KeepGive):
                table.keep_give(conn, conn.role, message)
            else:
                table.summon(conn, conn.role, message)
        except Refused as exc:
            raise exc.about(message.id, table_id) from None
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
                if not table.closed and table.folded:  # the others' once folded
                    conn.send(table.snapshot_message())
    elif isinstance(message, Hello):
        raise ProtocolError("bad_message", "hello was already said")


routes = [WebSocketRoute("/ws", websocket)]
