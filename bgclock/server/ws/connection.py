"""One WebSocket's sending end (``Connection``: a send never blocks) and
what a club's director may be sent (``ClubFeed``).  Apart from the session
(``ws.session``), so that what holds connections (the tables' hub, the
ownership of tables) names them without importing the session."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from functools import partial
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from bgclock.server.edge.auth import RateLimiter
from bgclock.server.live.hub import TableRunner
from bgclock.server.live.messages import dumps
from bgclock.server.live.refusal import Refused
from bgclock.server.live.writer import FrameBatch
from bgclock.server.ws.protocol import ProtocolError
from bgclock.server.ws.shed import Shed
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

    #: A device connected to another process and relayed here is; this is not.
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
        #: This connection's id when another process relays to it (its answers).
        self.relay_id: str | None = None
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

    def refuse(self, refused: Refused) -> None:
        """A table's refusal, as the protocol's ``error``."""
        self.send_json(ProtocolError.of(refused).to_message())

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


class ClubFeed:
    """What a club's director's connection is sent: the messages of the
    club's own tables and tournaments, and its own answers.  Decided here,
    where every message to the connection passes (the tables, the
    tournaments, the mirrors of other processes' tables all send through
    ``Connection.send``), so no sender has to know of clubs.  A tournament
    whose owner this process has not read yet (made on another process just
    now) is read in the background and its message dropped meanwhile: the
    next one shows it."""

    def __init__(self, club: str, tables: Mapping[int, TableRunner],
                 owners: Mapping[int, str | None],
                 learn: Callable[[int], Awaitable[object]]) -> None:
        self.club = club
        #: The tables this process knows (``Hub.tables``), the owners of the
        #: tournaments read so far (``Server.owners``), and how to read one.
        self.tables = tables
        self.owners = owners
        self.learn = learn

    def sees_table(self, table_id: Any) -> bool:
        table = self.tables.get(table_id) if isinstance(table_id, int) else None
        return table is not None and self.sees_tournament(table.row.tournament_id)

    def sees_tournament(self, tournament_id: Any) -> bool:
        if not isinstance(tournament_id, int):
            return False
        if tournament_id not in self.owners:
            task = asyncio.get_running_loop().create_task(self._learn(tournament_id))
            _LEARNING.add(task)
            task.add_done_callback(_LEARNING.discard)
            return False
        return self.owners[tournament_id] == self.club

    async def _learn(self, tournament_id: int) -> None:
        with contextlib.suppress(NotFound, StoreError):
            await self.learn(tournament_id)

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
