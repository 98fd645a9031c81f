"""A TCP relay to a database that the test can make go silent.

``hold``: every byte either way is swallowed and no socket is closed, and new
connections are accepted and never answered, as when a cable is pulled or a
firewall drops the packets (a TCP blackhole): only a deadline can notice.
``release``: the held connections are dropped (as the network would, in the
end) and new ones pass again.  ``hold_after_commit(marker)`` passes
everything until the transaction that sends ``marker`` commits, then holds
the database's answers only (what clients send still arrives): that COMMIT
is committed and its answer lost, the case a client cannot tell from a
COMMIT that never arrived.  The real database is never stopped.
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
        #: While held, what clients send still reaches the database.
        self.answers_only = False
        #: ``hold_after_commit``: the marker, and whether it was sent.
        self._marker: bytes | None = None
        self._armed = False
        self._alone = False
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

    def hold(self, *, answers_only: bool = False) -> None:
        self.holding, self.answers_only = True, answers_only

    def hold_after_commit(self, marker: bytes, *, alone: bool = False) -> None:
        """Hold the answers from the commit of ``marker``'s write (it reaches
        the database, its answer does not): the first COMMIT sent after
        ``marker`` or, ``alone``, the message carrying ``marker`` itself (a
        statement outside a transaction block commits as it runs: one
        process's store commits so)."""
        self._marker, self._armed, self._alone = marker, False, alone

    def _watch(self, data: bytes) -> None:
        if self._marker is None:
            return
        self._armed = self._armed or self._marker in data
        if self._armed and (self._alone or b"COMMIT" in data):
            self._marker = None
            self.hold(answers_only=True)  # before any answer can be read

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
        self.holding = self.answers_only = False
        self._marker = None

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
        for src, dst, to_db in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.get_running_loop().create_task(self._pipe(src, dst, to_db))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _swallow(self, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError):
            while await reader.read(65536):
                pass

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                    to_db: bool) -> None:
        try:
            while data := await src.read(65536):
                if not self.holding or (to_db and self.answers_only):
                    dst.write(data)
                    if to_db:
                        self._watch(data)
                    await dst.drain()
        except OSError:
            pass
        finally:
            if not self.holding:
                dst.transport.abort()
            elif to_db and self.answers_only:
                dst.close()  # the client's goodbye reaches the database

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
