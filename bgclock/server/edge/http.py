"""uvicorn's HTTP protocol with two guards it lacks: a deadline for a
request's headers, and a cap on the connections one client address holds.

uvicorn's ``timeout_keep_alive`` starts only after a response: a client that
opens a socket and sends half a request line holds a descriptor for ever, so
a thousand such sockets starve the server. Here the headers must be complete
within ``header_timeout_s`` of the connection (or of the previous response),
and an address already holding ``per_client`` open sockets (HTTP or
upgraded WebSocket alike) has its next one closed at once.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a client has to send a request's headers.
HEADER_TIMEOUT_S = 10.0
#: Open sockets one client address may hold (a club's NAT can hide many tables).
PER_CLIENT = 256


class GuardedHttp(HttpToolsProtocol):
    header_timeout_s: ClassVar[float] = HEADER_TIMEOUT_S
    per_client: ClassVar[int] = PER_CLIENT
    #: The sockets each address holds (closed ones are pruned when counted).
    open_by_peer: ClassVar[dict[str, set[asyncio.BaseTransport]]]

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else ""
        held = {t for t in self.open_by_peer.get(peer, ()) if not t.is_closing()}
        if len(held) >= self.per_client:
            self.logger.warning("closing a connection from %s: it holds %d already",
                                peer, len(held))
            transport.close()
            return
        held.add(transport)
        self.open_by_peer[peer] = held
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def guarded_http(header_timeout_s: float = HEADER_TIMEOUT_S,
                 per_client: int = PER_CLIENT) -> type[GuardedHttp]:
    """A protocol class for ``uvicorn.Config(http=...)`` with these limits
    (each server gets its own count of sockets per address)."""
    attrs: dict[str, Any] = {"header_timeout_s": header_timeout_s, "per_client": per_client,
                             "open_by_peer": {}}
    return type("GuardedHttp", (GuardedHttp,), attrs)
