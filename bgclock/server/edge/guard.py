"""The HTTP edge: security headers, the Host a WebSocket may be opened at,
secrets kept out of logs, and the process's file-descriptor limit.

Pure ASGI and logging pieces, so they wrap the Starlette app without
touching its routes.
"""

from __future__ import annotations

import logging
import re
import socket
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlsplit

from bgclock.server.edge.auth import RateLimiter

#: Sent with every page and API answer. The pages load their scripts as
#: files from /static (no inline script runs); the director's form uses a few
#: inline style attributes, hence ``'unsafe-inline'`` for styles only.
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
              "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
              "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
)
#: Answers that carry a secret (a table link with its token, the director's
#: pages and API) or a live state are never kept by a cache; static files are.
NO_STORE: Final = (b"cache-control", b"no-store")

LOCAL_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})


def host_name(host: str | None) -> str | None:
    """The name of a ``Host`` header without its port (``[::1]:8000`` -> ``::1``)."""
    if not host:
        return None
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 0 else None
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host.rstrip(".") or None


def refused_host(hosts: frozenset[str] | None, header: str | None) -> str | None:
    """The name in a ``Host`` header when a WebSocket opened there is refused
    (``hosts``: the names served, None: any); None when it is served."""
    if hosts is None:
        return None
    host = host_name(header)
    return None if host in hosts else (host or "?")


def served_hosts(bind: str | None, public_url: str | None,
                 extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this server answers to: localhost, the bind address, the
    public URL's host, and (when bound to every interface) the machine's own
    name and addresses. A WebSocket whose ``Host`` is none of these is a
    DNS-rebinding attempt (a foreign name resolving to this machine)."""
    names = set(LOCAL_NAMES)
    names.update(h.lower() for h in extra)
    if public_url:
        found = urlsplit(public_url).hostname
        if found:
            names.add(found.lower())
    if bind and bind not in ("0.0.0.0", "::", ""):
        names.add(bind.lower())
    else:
        hostname = socket.gethostname()
        names.update({hostname.lower(), socket.getfqdn().lower()})
        try:
            for info in socket.getaddrinfo(hostname, None):
                names.add(str(info[4][0]).lower())
        except OSError:
            pass
    return frozenset(names)


#: New WebSocket connections one client address may open: this many at once,
#: then this many a second (a room's phones each have their own address; a
#: page reconnects at most every few seconds).
HANDSHAKES: Final = (40.0, 10.0)
#: Addresses remembered for that count (the oldest are forgotten first).
HANDSHAKE_ADDRESSES: Final = 4096


class EdgeGuard:
    """ASGI middleware: adds the security headers to every HTTP answer
    (``no-store`` too, except on static files), refuses a WebSocket
    handshake whose ``Host`` is not one the server serves (403), and one
    from an address that opens new connections faster than ``handshakes``
    (403 before anything is read: a reconnect loop costs the server a
    refusal, not a hello and a snapshot)."""

    def __init__(self, app: Any, *, hosts: frozenset[str] | None,
                 handshakes: tuple[float, float] | None = HANDSHAKES) -> None:
        self.app = app
        self.hosts = hosts
        self.handshakes = handshakes
        self.by_address: OrderedDict[str, RateLimiter] = OrderedDict()
        #: handshakes refused for their rate (tests and the attack bench read it)
        self.refused = 0

    def _allow(self, scope: Any) -> bool:
        if self.handshakes is None:
            return True
        client = scope.get("client")
        address = str(client[0]) if client else "-"
        limiter = self.by_address.get(address)
        if limiter is None:
            limiter = self.by_address[address] = RateLimiter(*self.handshakes)
            while len(self.by_address) > HANDSHAKE_ADDRESSES:
                self.by_address.popitem(last=False)
        else:
            self.by_address.move_to_end(address)
        return limiter.allow()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket" and refused_host(self.hosts, _header(scope, b"host")):
            await send({"type": "websocket.close", "code": 1008, "reason": "unknown host"})
            return
        if kind == "websocket" and not self._allow(scope):
            self.refused += 1
            await send({"type": "websocket.close", "code": 1013,
                        "reason": "too many new connections from this address"})
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                extra = [h for h in SECURITY_HEADERS if h[0] not in present]
                if not static and b"cache-control" not in present:
                    extra.append(NO_STORE)
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


_SECRET_PARAM: Final = re.compile(r"(?i)\b(key|token)=([^&\s\"']+)")


def redact(text: str) -> str:
    """``...?key=abc&token=x`` -> ``...?key=***&token=***``."""
    return _SECRET_PARAM.sub(r"\1=***", text)


class RedactSecrets(logging.Filter):
    """Replaces director keys and table tokens in a log record with ``***``
    (uvicorn's access log prints every request's query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_redaction(names: Iterable[str] = ("uvicorn.access", "uvicorn.error", "uvicorn",
                                               "bgclock.server")) -> RedactSecrets:
    """Put the redaction filter on the server's loggers (idempotent) and on
    every handler already attached to them."""
    flt = RedactSecrets()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(flt)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(flt)
    return flt


def raise_nofile_limit() -> tuple[int, int] | None:
    """Raise the soft RLIMIT_NOFILE to the hard limit (each connection holds
    a descriptor); the (soft, hard) now in force, or None where unsupported."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft, hard
