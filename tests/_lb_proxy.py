"""A tiny TCP load balancer for the cluster tests: each new connection goes
to the next upstream in turn that accepts it (round robin, skipping the
dead ones), as nginx's ``upstream`` with ``proxy_next_upstream error`` does
for the set-up of docs/cluster.md."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Sequence


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


@contextlib.asynccontextmanager
async def balancer(upstreams: Sequence[int]) -> AsyncIterator[int]:
    """Listen on a free port of 127.0.0.1 and yield it; round robin over the
    ``upstreams`` ports."""
    turn = itertools.cycle(range(len(upstreams)))

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # upstream from the client's own loopback address: the server sees
        # each client's address, as behind a proxy that passes it on
        peer = writer.get_extra_info("peername")
        local = (peer[0], 0) if peer and str(peer[0]).startswith("127.") else None
        for _ in range(len(upstreams)):
            port = upstreams[next(turn)]
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port,
                                                                     local_addr=local)
            except OSError:
                continue  # a dead upstream: the next one
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
            return
        writer.close()

    # nginx's listen backlog (511 on Linux), not asyncio's 100: the devices of
    # a process that leaves reconnect all at once, and an overflowing accept
    # queue drops their handshakes for the kernel's 1 s retransmission
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=511)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
