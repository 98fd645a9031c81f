"""The traffic between a cluster's processes: Redis pub/sub (redis-py's asyncio client).

Channels (``prefix`` keeps clusters apart on one Redis):

- ``{prefix}:node:{name}``: what is sent to one process: a device's hello,
  messages and goodbye forwarded to the table's owner, and the owner's
  answers (acks, errors, catch-up) to the connection they are for;
- ``{prefix}:all``: what every process hears (a table made by one of them);
- ``{prefix}:table:{id}``: a table's updates, published once by its owner;
  a process subscribes while it has connections watching that table.

Publishing never blocks the caller: messages go to one queue, drained in
order by one task through a pipeline (so a commit's updates for many tables
cost one round trip), and Redis delivers one publisher's messages in the
order it sent them, on every channel one subscriber listens to.  Pub/sub is
at most once: a message published while a process is away is lost, which is
what the protocol already expects of a WebSocket (the device resends what
was not acknowledged; a snapshot catches up).

Every message is sealed with the cluster's secret as it is published and
opened as it is heard (``seal``): what does not verify, comes too late or
comes twice is dropped and logged, never handled.  ``check`` (before a
process serves) says in one line why Redis cannot be used: not there, a
wrong password, or another secret than the cluster's other processes'.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
import redis.exceptions as redis_errors

from bgclock.server.cluster.seal import Forged, Sealer

log = logging.getLogger("bgclock.cluster")

#: How long the cluster's secret check lives in Redis (s), renewed by every
#: process while it runs: a process started with another secret meanwhile
#: is refused at its start (``check``).
CHECK_TTL_S = 60
#: How often a forged message is logged at most (s); the others are counted.
FORGED_LOG_S = 1.0


class BusError(Exception):
    """Redis cannot carry this cluster's traffic (one line: why)."""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Bus:
    """One process's link to Redis: a publisher and one subscription."""

    def __init__(self, url: str, prefix: str, node: str,
                 on_message: Callable[[str, bytes, bool], None], *, secret: bytes) -> None:
        self.url = url
        self.sealer = Sealer(secret, node)
        #: Messages dropped because they did not prove they came from this cluster.
        self.forged = 0
        self._forged_logged: dict[str, float] = {}
        self.prefix = prefix
        self.node = node
        self.on_message = on_message
        self._redis: Any = None
        self._pubsub: Any = None
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.subscribed: set[str] = set()

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def all_channel(self) -> str:
        """What every process hears (a table made by one of them)."""
        return f"{self.prefix}:all"

    def table_channel(self, table_id: int) -> str:
        return f"{self.prefix}:table:{table_id}"

    async def check(self) -> None:
        """Redis answers, takes this process's credentials, and the cluster's
        other processes (if any) use the same secret; else ``BusError``."""
        client = aioredis.from_url(self.url, socket_connect_timeout=5, socket_timeout=5)
        try:
            await client.ping()
            key, mine = f"{self.prefix}:secret-check", self.sealer.proof()
            await client.set(key, mine, nx=True, ex=CHECK_TTL_S)
            theirs = await client.get(key)
            if isinstance(theirs, str):
                theirs = theirs.encode()
            if theirs is not None and not hmac.compare_digest(theirs, mine):
                raise BusError(f"--cluster: the other processes of cluster {self.prefix!r} "
                               f"use another BGCLOCK_CLUSTER_SECRET: give every process "
                               f"the same one")
        except (redis_errors.AuthenticationError,
                redis_errors.AuthenticationWrongNumberOfArgsError) as exc:
            raise BusError(f"--cluster: Redis refused this process's credentials: {exc} "
                           f"(the password goes in the URL: redis://:PASSWORD@HOST:PORT/0)"
                           ) from None
        except redis_errors.ResponseError as exc:
            raise BusError(f"--cluster: Redis refused this process: {exc}") from None
        except (redis_errors.ConnectionError, redis_errors.TimeoutError, OSError) as exc:
            raise BusError(f"--cluster: cannot reach Redis at {_where(self.url)}: "
                           f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                           ) from None
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _renew_check(self) -> None:
        while True:
            await asyncio.sleep(CHECK_TTL_S / 3)
            with contextlib.suppress(Exception):
                await self._redis.set(f"{self.prefix}:secret-check", self.sealer.proof(),
                                      ex=CHECK_TTL_S)

    def seal(self, channel: str, data: bytes) -> bytes:
        """``data`` sealed for ``channel`` (``seal``)."""
        return self.sealer.seal(channel, data, _now_ms(), secrets.token_hex(12))

    async def open(self) -> None:
        self._redis = aioredis.from_url(self.url, socket_connect_timeout=5)
        await self._redis.ping()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.node_channel(self.node), self.all_channel())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(), name="bgclock-bus-read"),
                       loop.create_task(self._drain(), name="bgclock-bus-publish"),
                       loop.create_task(self._renew_check(), name="bgclock-bus-check")]

    async def close(self) -> None:
        # the secret's check goes with the process (the others renew it)
        with contextlib.suppress(Exception):
            if self._redis is not None:
                await asyncio.wait_for(self._redis.delete(f"{self.prefix}:secret-check"), 2)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    def publish(self, channel: str, data: bytes) -> None:
        """Queue ``data`` for ``channel`` (sent in order, never blocks)."""
        self._outbox.append((channel, self.seal(channel, data)))
        self._wake.set()

    async def receivers(self, channel: str, data: bytes) -> int:
        """Publish now; how many processes listened (0: nobody is there)."""
        return int(await self._redis.publish(channel, self.seal(channel, data)))

    async def subscribe(self, channel: str) -> None:
        if channel not in self.subscribed:
            self.subscribed.add(channel)
            await self._pubsub.subscribe(channel)

    async def subscribe_tables(self) -> None:
        """Every table's channel (a pattern): this process has dashboards."""
        pattern = f"{self.prefix}:table:*"
        if pattern not in self.subscribed:
            self.subscribed.add(pattern)
            await self._pubsub.psubscribe(pattern)

    async def unsubscribe(self, channel: str) -> None:
        if channel in self.subscribed:
            self.subscribed.discard(channel)
            await self._pubsub.unsubscribe(channel)

    async def _drain(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch = [self._outbox.popleft() for _ in range(min(len(self._outbox), 256))]
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception as exc:  # noqa: BLE001 - Redis away: the messages are lost
                    log.warning("Redis refused %d messages: %s", len(batch), exc)
                    await asyncio.sleep(0.2)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the link broke: redis-py reconnects
                log.warning("Redis subscription: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") not in ("message", "pmessage"):
                continue
            channel = message["channel"]
            if isinstance(channel, bytes):
                channel = channel.decode()
            try:
                via = message.get("pattern") or b""
                _, payload = self.sealer.open(
                    channel, bytes(message["data"]), _now_ms(),
                    via.decode() if isinstance(via, bytes) else str(via))
            except Forged as exc:
                self._dropped(channel, str(exc))
                continue
            try:
                self.on_message(channel, payload, message["type"] == "pmessage")
            except Exception:
                log.exception("a cluster message could not be handled")

    def _dropped(self, channel: str, why: str) -> None:
        self.forged += 1
        now = time.monotonic()  # each reason at most once a second
        if now - self._forged_logged.get(why, -FORGED_LOG_S) >= FORGED_LOG_S:
            self._forged_logged[why] = now
            log.warning("a message on %s was dropped: %s (%d dropped so far)", channel, why,
                        self.forged)


def _where(url: str) -> str:
    """``url`` without its password, for a message."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    _, at, host = rest.rpartition("@")
    return f"{scheme}://{host}" if at else url
