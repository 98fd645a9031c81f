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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("bgclock.cluster")


class Bus:
    """One process's link to Redis: a publisher and one subscription."""

    def __init__(self, url: str, prefix: str, node: str,
                 on_message: Callable[[str, bytes, bool], None]) -> None:
        self.url = url
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

    async def open(self) -> None:
        self._redis = aioredis.from_url(self.url, socket_connect_timeout=5)
        await self._redis.ping()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.node_channel(self.node), self.all_channel())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(), name="bgclock-bus-read"),
                       loop.create_task(self._drain(), name="bgclock-bus-publish")]

    async def close(self) -> None:
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
        self._outbox.append((channel, data))
        self._wake.set()

    async def receivers(self, channel: str, data: bytes) -> int:
        """Publish now; how many processes listened (0: nobody is there)."""
        return int(await self._redis.publish(channel, data))

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
                self.on_message(channel, message["data"], message["type"] == "pmessage")
            except Exception:
                log.exception("a cluster message could not be handled")
