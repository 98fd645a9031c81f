"""Who sent a request: its principal, worked out once, where it arrives,
from its own credentials.

A request's credentials are the director's key (``Authorization: Bearer
KEY``, or ``?key=KEY`` on a page the director opened) and a token
(``?token=``: a table's, opening that table, or a room display's, opening
that tournament's room).  A publishing venue's key (``Authorization: Bearer
NAME.SECRET``, ``edge.publishers``) makes the request the ``publisher``
NAME: it publishes that club's tournaments, nothing else.  They are read
here and nowhere else; the answer
is kept in the request's scope, so every route and guard of this process
asks the same question once.

A request that another process of a cluster forwards here (``cluster.forward``)
carries the same credentials, not a verdict: this process works its
principal out again from them, the same way.  Nothing about how a request
reached this process (forwarded, a proxy, a loopback address) ever makes it
the director's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from starlette.requests import HTTPConnection

#: The scope key the principal is kept under once worked out.
PRINCIPAL: Final = "bgclock.principal"


class KeyCheck(Protocol):
    """What checks the director's key (``edge.auth.DirectorAuth``)."""

    def check(self, candidate: str | None) -> bool: ...


class PublisherCheck(Protocol):
    """What checks a publishing key (``edge.publishers.PublishKeys``): the
    club's name it publishes as, or None."""

    def check(self, candidate: str | None) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Principal:
    """A request's principal: the director, or whoever holds ``token`` (a
    table's or a room display's token, which the route that knows the table
    or the tournament checks), or a venue publishing as the club
    ``publisher``, or nobody."""

    director: bool
    token: str | None
    publisher: str | None = None

    @property
    def kind(self) -> str:
        """``director``, ``publisher``, ``token`` or ``nobody`` (for logs and tests)."""
        return ("director" if self.director else "publisher" if self.publisher
                else "token" if self.token else "nobody")


def bearer(conn: HTTPConnection) -> str | None:
    """The key an ``Authorization: Bearer`` header carries, or None."""
    header = conn.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return None


def principal_of(conn: HTTPConnection, director: KeyCheck,
                 publishers: PublisherCheck | None = None) -> Principal:
    """The principal of ``conn``, worked out on its first ask and kept (a
    publishing key counts only in the ``Authorization`` header)."""
    found = conn.scope.get(PRINCIPAL)
    if isinstance(found, Principal):
        return found
    key = bearer(conn)
    publisher = publishers.check(key) if publishers is not None and key is not None else None
    if key is None:
        key = conn.query_params.get("key")
    principal = Principal(director=director.check(key), token=conn.query_params.get("token"),
                          publisher=publisher)
    conn.scope[PRINCIPAL] = principal
    return principal
