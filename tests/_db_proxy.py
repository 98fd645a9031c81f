"""A TCP relay to a database that the test can make go silent.

``hold``: every byte either way is swallowed and no socket is closed, and new
connections are accepted and never answered, as when a cable is pulled or a
firewall drops the packets (a TCP blackhole): only a deadline can notice.
``release``: the held connections are dropped (as the network would, in the
end) and new ones pass again.  The real database is never stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit


class BlackholeProxy:
    """An asyncio relay from a free local port to ``host:port``."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.target = host, port
        self.holding = False
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._upstream: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0
        #: Connections accepted so far (a reconnection shows here).
        self.accepted = 0

    async def start(self) -> BlackholeProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    def dsn(self, dsn: str) -> str:
        """``dsn`` with its host and port replaced by the relay's."""
        parts = urlsplit(dsn)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{self.port}" if auth else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def hold(self) -> None:
        self.holding = True

    def cut_upstream(self) -> None:
        """Close the database's side of every connection (the database sees
        its clients go, and ends their sessions) while the clients' side stays
        silent: a client cut off on its side of the network."""
        for writer in list(self._upstream):
            writer.transport.abort()
        self._upstream.clear()

    def release(self) -> None:
        """Drop every connection (held or not), then pass new ones."""
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        self._upstream.clear()
        self.holding = False

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        self._writers.add(writer)
        if self.holding:  # accepted, never answered
            await self._swallow(reader)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.add(up_writer)
        self._upstream.add(up_writer)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pipe(src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _swallow(self, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError):
            while await reader.read(65536):
                pass

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                if not self.holding:
                    dst.write(data)
                    await dst.drain()
        except OSError:
            pass
        finally:
            if not self.holding:
                dst.transport.abort()

    async def close(self) -> None:
        self.release()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.asynccontextmanager
async def blackhole_proxy(dsn: str) -> AsyncIterator[BlackholeProxy]:
    """A relay to the database of ``dsn``, closed afterwards."""
    parts = urlsplit(dsn)
    proxy = await BlackholeProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
    try:
        yield proxy
    finally:
        await proxy.close()
