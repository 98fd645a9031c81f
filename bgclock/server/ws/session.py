"""The WebSocket: one ``Connection`` per device or dashboard, its hello,
then its messages dispatched to the hub (``routes``: ``/ws``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine
from functools import partial
from typing import Any

import msgspec
import orjson
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bgclock.server.context import Server, server_of
from bgclock.server.edge.auth import RateLimiter, origin_allowed
from bgclock.server.edge.clubs import fresh_club_keys
from bgclock.server.edge.principal import key_director
from bgclock.server.errors import ProtocolError
from bgclock.server.live.writer import FrameBatch
from bgclock.server.ws.protocol import (
    VERSION,
    Command,
    Handle,
    Hello,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepMessage,
    KeepRequest,
    Ping,
    Summon,
    Sync,
    decode,
    dumps,
)
from bgclock.server.ws.shed import Shed
from bgclock.server.ws.silence import SILENT_LINK_S, SilenceWatch
from bgclock.store import NotFound, StoreError

log = logging.getLogger("bgclock.server")

#: A connection whose outbox grows past this is too slow to keep.
MAX_OUTBOX = 10_000


def _wake(woken: asyncio.Future[None], _: object) -> None:
    if not woken.done():
        woken.set_result(None)


async def _finish_send(sending: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Finish a send stepped outside a task that suspended on ``waiting``
    (the future it yielded): woken when that future is done, it reads the
    future's outcome itself when stepped again."""
    try:
        while True:
            if isinstance(waiting, asyncio.Future):
                woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                waiting.add_done_callback(partial(_wake, woken))
                await woken
            else:
                await asyncio.sleep(0)
            waiting = sending.send(None)
    except StopIteration:
        pass
    finally:
        sending.close()


class Connection:
    """One WebSocket, whose ``send`` never blocks: a frame goes to the socket
    at once (the ASGI send stepped in place), or, while the socket's buffer is
    full, to an outbox drained by a sender task.

    The sender task exists only while there is something to send: an idle
    connection keeps no task and no pending wait of its own (the garbage
    collector walks fewer objects, the loop wakes fewer tasks)."""

    #: A device of another process (``cluster.RemoteDevice``) is; this is not.
    relayed = False

    def __init__(self, ws: WebSocket, limiter: RateLimiter) -> None:
        self.ws = ws
        #: Its rate: what it may send, and what was shed (``ws.shed``).
        self.shed = Shed(limiter)
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
        #: A club's director (issue 37 §4): what of the feed it may see
        #: (``ClubFeed``); None: everything (the server's director, a device).
        self.club: ClubFeed | None = None

    @property
    def limiter(self) -> RateLimiter:
        """Its messages' bucket (``shed.limiter``)."""
        return self.shed.limiter

    @limiter.setter
    def limiter(self, limiter: RateLimiter) -> None:
        self.shed.limiter = limiter

    def send(self, text: str) -> None:
        if self.dead or (self.club is not None and not self.club.sees_text(text)):
            return
        batch = self.batch
        if batch is not None and batch.active:
            batch.hold(self, text)
            return
        if len(self._outbox) >= MAX_OUTBOX:
            log.warning("dropping a connection that does not read its messages")
            self.dead = True
            return
        if self._task is None and not self._outbox:
            # The usual case: the socket takes the frame now.  The ASGI send
            # is stepped here, without a task: uvicorn's send suspends only
            # while the transport's buffer is full, and then a task finishes
            # it (``_finish_send``) and sends what queued meanwhile, in order.
            sending = self.ws.send_text(text)
            try:
                waiting = sending.send(None)
            except StopIteration:
                return
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.dead = True
                return
            self._drained.clear()
            self._task = asyncio.get_running_loop().create_task(self._pump(sending, waiting))
            return
        self._outbox.append(text)
        if self._task is None:
            self._drained.clear()
            self._task = asyncio.get_running_loop().create_task(self._pump())

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    async def _pump(self, sending: Coroutine[Any, Any, None] | None = None,
                    waiting: Any = None) -> None:
        """Send the outbox, after finishing ``sending`` (a send that suspended
        in ``send``: it yielded ``waiting``)."""
        try:
            if sending is not None:
                await _finish_send(sending, waiting)
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


class ClubFeed:
    """What a club's director's connection is sent: the messages of the
    club's own tables and tournaments, and its own answers.  Decided here,
    where every message to the connection passes (the tables, the
    tournaments, a cluster's mirrors all send through ``Connection.send``),
    so no sender has to know of clubs.  A tournament whose owner this
    process has not read yet (made on another process of a cluster just
    now) is read in the background and its message dropped meanwhile: the
    next one shows it."""

    def __init__(self, server: Server, club: str) -> None:
        self.server = server
        self.club = club

    def sees_table(self, table_id: Any) -> bool:
        table = self.server.hub.tables.get(table_id) if isinstance(table_id, int) else None
        return table is not None and self.sees_tournament(table.row.tournament_id)

    def sees_tournament(self, tournament_id: Any) -> bool:
        if not isinstance(tournament_id, int):
            return False
        if tournament_id not in self.server.owners:
            task = asyncio.get_running_loop().create_task(self._learn(tournament_id))
            _LEARNING.add(task)
            task.add_done_callback(_LEARNING.discard)
            return False
        return self.server.owners[tournament_id] == self.club

    async def _learn(self, tournament_id: int) -> None:
        with contextlib.suppress(NotFound, StoreError):
            await self.server.owner(tournament_id)

    def sees_text(self, text: str) -> bool:
        """Whether the message ``text`` (JSON) may go to this club's director."""
        try:
            return self.sees(orjson.loads(text))
        except orjson.JSONDecodeError:
            return False

    def sees(self, message: Any) -> bool:
        """Whether the decoded ``message`` may go to this club's director."""
        if not isinstance(message, dict):
            return False
        if message.get("type") in ("error", "welcome", "pong"):
            return True  # its own answers (a refusal names the table it asked for)
        if message.get("type") == "batch":
            return all(self.sees(m) for m in message.get("messages", []))
        if "table" in message:
            return self.sees_table(message["table"])
        if "tournament" in message:
            return self.sees_tournament(message["tournament"])
        return False


#: The owners being read for club feeds (kept until done).
_LEARNING: set[asyncio.Task[None]] = set()


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
            conn.club = ClubFeed(server, club)
        conn.role = "director"
        conn.shed.limiter = RateLimiter(*server.director_rate)
        if hello.batch:
            conn.batch = hub.writer.frames
        tables = sorted(t.id for t in hub.tables.values() if not t.closed)
        if server.cluster is not None:  # the tables other processes keep too
            await server.cluster.director_hello(conn, dict(hello.since))
            tables = sorted(t.id for t in hub.tables.values() if not t.closed)
        if conn.club is not None:
            tables = [t for t in tables if conn.club.sees_table(t)]
        conn.send_json({"type": "welcome", "v": VERSION, "role": "director", "tables": tables,
                        "server_ms": server.clock.now_ms()})
        for watched in tables:
            if server.cluster is not None and not server.cluster.owns(watched):
                continue  # its keeper sends the catch-up (``director_hello``)
            if not hub.tables[watched].folded:  # its card now, its state once folded
                conn.send(hub.tables[watched].table_message())
                continue
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
        if server.cluster is not None and server.cluster.forwards(
                conn, decoded, str(message.get("text"))):
            return None  # a director's message for a table another process keeps
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
                if not table.closed and table.folded:  # the others' once folded
                    conn.send(table.snapshot_message())
    elif isinstance(message, Hello):
        raise ProtocolError("bad_message", "hello was already said")


routes = [WebSocketRoute("/ws", websocket)]
