"""A director's HTTP request carried to the process that owns its tournament
(or its table), and the answer carried back: the two ends' pure pieces.

Theory of operation
-------------------
The forwarding process has decoded the request's route (the tournament or
table id of the path) and, for a director's route, its guard has run.  It reads the body, bounded by
``MAX_FORWARDED_BODY`` (the largest body any of these routes takes: a CSV
of players), and sends ``request_message``: the method, the path, the query,
the headers the route may read, the body, and a request id.  The owner
rebuilds an ASGI scope from it (``forwarded_scope``), marked ``FORWARDED``
(so that it is not forwarded again), and runs it through its own whole
application (``run``): the same guard, the same route, the same validation,
the same error handlers.  The request's credentials (its ``Authorization``
header and its query's key or token) travel with it, and the owner works
its principal out from them again (``edge.principal``): being forwarded
makes nobody the director.  The answer (status, the
headers that matter, the body) goes back with the request id
(``answer_message``) and the forwarding process answers its client with it.

A forwarded request is never forwarded again: at the owner it runs there,
and a owner that lost the lease meanwhile answers ``not_owner`` itself.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bgclock.server.edge.principal import REQUEST_ID

#: The scope key a forwarded request carries (the forwarding process's name).
FORWARDED: Final = "bgclock.forwarded_from"
#: How long a forwarding process waits for the owner's answer (s).
FORWARD_S: Final = 5.0
#: The largest body forwarded: the largest any forwarded route reads
#: (``routes.tourney.MAX_CSV_BYTES``, a CSV of players); the route itself
#: holds it to its own limit at the owner.
MAX_FORWARDED_BODY: Final = 256 * 1024
#: Request headers not carried: the hop's own.  The credentials are carried
#: (``Authorization``, ``Cookie``, the query): the owner checks them itself.
DROPPED_REQUEST: Final = frozenset({
    "accept-encoding", "connection", "content-length", "upgrade",
    "transfer-encoding", "keep-alive", "te"})
#: Answer headers carried back (the rest is the forwarding process's own edge).
KEPT_ANSWER: Final = frozenset({"content-type", "content-disposition", "retry-after"})


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP answer as the owner gave it."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


def _pack(body: bytes) -> dict[str, str]:
    try:
        return {"text": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"b64": base64.b64encode(body).decode("ascii")}


def _unpack(msg: Mapping[str, Any]) -> bytes:
    if "b64" in msg:
        return base64.b64decode(msg["b64"])
    return str(msg.get("text", "")).encode("utf-8")


def request_message(node: str, rid: str, scope: Mapping[str, Any], body: bytes) -> dict[str, Any]:
    """What the owner needs of a request to run it again (bus message ``http``)."""
    headers = [[bytes(k).decode("latin-1"), bytes(v).decode("latin-1")]
               for k, v in scope.get("headers", ())
               if bytes(k).decode("latin-1").lower() not in DROPPED_REQUEST]
    server = scope.get("server")
    return {"k": "http", "from": node, "r": rid, "method": scope["method"],
            "scheme": scope.get("scheme", "http"), "path": scope["path"],
            "root_path": scope.get("app_root_path", ""),
            "query": bytes(scope.get("query_string", b"")).decode("latin-1"),
            "headers": headers, "server": list(server) if server else None, **_pack(body)}


def forwarded_scope(msg: Mapping[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The ASGI scope and body a forwarded request runs with at the owner."""
    server = msg.get("server")
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1", "method": str(msg["method"]), "scheme": str(msg["scheme"]),
        "path": str(msg["path"]), "raw_path": str(msg["path"]).encode("utf-8"),
        "root_path": str(msg.get("root_path") or ""),
        "query_string": str(msg["query"]).encode("latin-1"),
        "headers": [(str(k).encode("latin-1"), str(v).encode("latin-1"))
                    for k, v in msg["headers"]],
        "server": (str(server[0]), int(server[1])) if server else None,
        "state": {}, FORWARDED: str(msg["from"])}
    return scope, _unpack(msg)


def replay(body: bytes) -> Any:
    """The ASGI ``receive`` of a request whose body was read already."""
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


async def run(app: Any, scope: dict[str, Any], body: bytes,
              request_id: str | None = None) -> Answer:
    """Run a request through ``app`` (the whole application: its guard, its
    routes, its error handlers) and keep its answer; the actions it stores
    carry ``request_id`` (``REQUEST_ID``)."""
    REQUEST_ID.set(request_id)  # this task's context: the request's own
    status = 500
    headers: list[tuple[str, str]] = []
    chunks: list[bytes] = []
    receive = replay(body)

    async def send(message: Mapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
            for k, v in message.get("headers", ()):
                name = bytes(k).decode("latin-1").lower()
                if name in KEPT_ANSWER:
                    headers.append((name, bytes(v).decode("latin-1")))
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    try:
        await app(scope, receive, send)
    except Exception:  # noqa: BLE001 - answered 500 already by the app's error middleware
        if not chunks:
            status, headers = 500, [("content-type", "application/json")]
            chunks = [b'{"error":"internal","message":"the keeping process failed on this"}']
    return Answer(status, tuple(headers), b"".join(chunks))


def answer_message(rid: str, answer: Answer) -> dict[str, Any]:
    """The owner's answer to a forwarded request (bus message ``http_answer``)."""
    return {"k": "http_answer", "r": rid, "status": answer.status,
            "headers": [list(h) for h in answer.headers], **_pack(answer.body)}


def answer_of(msg: Mapping[str, Any]) -> Answer:
    return Answer(int(msg["status"]), tuple((str(k), str(v)) for k, v in msg["headers"]),
                  _unpack(msg))
