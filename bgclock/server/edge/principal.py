"""Who sent a request: its principal, worked out once, where it arrives,
from its own credentials.

A request's credentials are the director's key (``Authorization: Bearer
KEY``, or ``?key=KEY``), the director's session (the ``bgclock_director``
cookie the key is exchanged for when a browser opens an address with it:
``edge.session``) and a token (``?token=``: a table's, opening that table,
or a room display's, opening that tournament's room).  They are read here
and nowhere else; the answer is kept in the request's scope, so every route
and guard of this process asks the same question once.

The session cookie is a browser's credential, sent by the browser whoever
asked for the request, so it counts for a request that changes something
(any method but GET and HEAD) or opens a WebSocket only when the request
shows it came from this server's own pages: no ``Sec-Fetch-Site`` other
than ``same-origin``, no ``Origin`` naming another host (docs/architecture.md,
"The director's session").  A key given explicitly (bearer or query) is the
request's credential even beside a cookie: a wrong key is never rescued by one.

A publishing venue's key (``Authorization: Bearer NAME.SECRET``,
``edge.named_keys``) makes the request the ``publisher`` NAME: it publishes
that club's tournaments, nothing else; it counts only in the header.

A club's director key (``NAME.SECRET``, bearer or ``?key=``) or its session
cookie makes the request the director of the club NAME (``director`` with
``club``): the director's routes let it through, and ``edge.clubs`` keeps
it to NAME's own tournaments and tables (``Principal.directs``).

A request that another process sends here to run (this one owns what it
acts on) carries the same credentials, not a verdict: this process works its
principal out again from them, the same way.  Nothing about how a request
reached this process (forwarded, a proxy, a loopback address) ever makes it
the director's.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Protocol
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

#: The scope key the principal is kept under once worked out.
PRINCIPAL: Final = "bgclock.principal"
#: The cookie that holds the director's session (``edge.session`` sets it).
SESSION_COOKIE: Final = "bgclock_director"
#: Methods that change nothing: a session cookie counts for them from anywhere.
SAFE_METHODS: Final = frozenset({"GET", "HEAD"})
#: The id of a request another process sent here to run (its owner runs it),
#: or None: the tournament's actions it stores carry it
#: (``StoredAction.request_id``), so the sender can tell whether it was done.
REQUEST_ID: ContextVar[str | None] = ContextVar("bgclock_forwarded_request", default=None)
#: The director's credentials of the request this task is handling, once
#: its principal was worked out as the director's, as request headers: a
#: call this process makes to another on that request's behalf (a round
#: start seating a match at a table another process owns) carries them, and
#: the other process works the same principal out from them.
_ON_BEHALF: ContextVar[tuple[tuple[bytes, bytes], ...]] = ContextVar(
    "bgclock_on_behalf", default=())


class KeyCheck(Protocol):
    """What checks the director's key (``edge.auth.DirectorAuth``)."""

    def check(self, candidate: str | None) -> bool: ...

    def check_session(self, candidate: str | None) -> bool: ...


class NamedCheck(Protocol):
    """What checks a named key (``edge.named_keys.NamedKeys``): the club's
    name it is the key of, or None; and a club's session."""

    def check(self, candidate: str | None) -> str | None: ...

    def check_session(self, candidate: str | None) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Principal:
    """A request's principal: the director (the server's, or a club's:
    ``club``), or whoever holds ``token`` (a table's or a room display's
    token, which the route that knows the table or the tournament checks),
    or a venue publishing as the club ``publisher``, or nobody."""

    director: bool
    token: str | None
    #: The director's credential the request offered, checked or not:
    #: ``bearer``, ``key`` (the query), ``session`` (the cookie) or None.
    offered: str | None = None
    publisher: str | None = None
    #: The club whose director this is (a club's key or session); None: the
    #: server's own director (every club's tournaments), or no director.
    club: str | None = None

    @property
    def kind(self) -> str:
        """``director``, ``club``, ``publisher``, ``token`` or ``nobody``
        (for logs and tests)."""
        return ("club" if self.director and self.club else "director" if self.director
                else "publisher" if self.publisher else "token" if self.token else "nobody")

    def directs(self, club: str | None) -> bool:
        """This principal directs what the club ``club`` owns (None: the
        server's own director's): the server's director directs everything,
        a club's director only the club's own."""
        return self.director and (self.club is None or self.club == club)


def bearer(conn: HTTPConnection) -> str | None:
    """The key an ``Authorization: Bearer`` header carries, or None."""
    header = conn.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return None


def from_own_pages(conn: HTTPConnection) -> bool:
    """``conn`` did not come from another site's page: a browser says where a
    request came from (``Sec-Fetch-Site``, ``Origin``); a client that is not
    a browser says nothing, and holds the cookie only if it was given it."""
    site = conn.headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        return False
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    # the host alone: behind a TLS proxy the page is https and this hop http
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


def session_counts(conn: HTTPConnection) -> bool:
    """The session cookie may stand for the director on ``conn``: a read, or
    a change (or a WebSocket) sent from this server's own pages."""
    if conn.scope["type"] == "http" and conn.scope.get("method", "GET") in SAFE_METHODS:
        return True
    return from_own_pages(conn)


def key_director(key: str | None, director: KeyCheck,
                 clubs: NamedCheck | None) -> tuple[bool, str | None]:
    """Whether ``key`` is a director's, and which club's (None: the server's
    own director, or no director): the one check of a key, for a request's
    principal and for a WebSocket's hello."""
    if director.check(key):
        return True, None
    club = clubs.check(key) if clubs is not None else None
    return club is not None, club


def principal_of(conn: HTTPConnection, director: KeyCheck,
                 publishers: NamedCheck | None = None,
                 clubs: NamedCheck | None = None) -> Principal:
    """The principal of ``conn``, worked out on its first ask and kept (a
    publishing key counts only in the ``Authorization`` header)."""
    found = conn.scope.get(PRINCIPAL)
    if isinstance(found, Principal):
        return found
    token = conn.query_params.get("token")
    key, offered = bearer(conn), "bearer"
    publisher = publishers.check(key) if publishers is not None and key is not None else None
    if key is None:
        key, offered = conn.query_params.get("key"), "key"
    if key is not None:
        is_director, club = key_director(key, director, clubs)
        principal = Principal(director=is_director, token=token, offered=offered,
                              publisher=publisher, club=club)
    elif (session := conn.cookies.get(SESSION_COOKIE)) is not None:
        server_session = director.check_session(session)
        club = None if server_session or clubs is None else clubs.check_session(session)
        principal = Principal(director=session_counts(conn) and (server_session
                                                                 or club is not None),
                              token=token, offered="session", club=club)
    else:
        principal = Principal(director=False, token=token)
    conn.scope[PRINCIPAL] = principal
    if principal.director:
        _ON_BEHALF.set(((b"authorization", f"Bearer {key}".encode()),) if key is not None
                       else ((b"cookie", f"{SESSION_COOKIE}={session}".encode()),))
    return principal


def on_behalf() -> tuple[tuple[bytes, bytes], ...]:
    """The director's credentials (request headers) of the request this task
    handles, for a call made on its behalf to another process; () when the
    request is not the director's."""
    return _ON_BEHALF.get()
