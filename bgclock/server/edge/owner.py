"""A director's request sent to the process of a cluster that keeps what it
acts on: the middleware of the tournament's routes (its Mount), of a
table's writes (edit, next match, close), and of a table's score sheet (an
action on the table's tournament: sent to the tournament's keeper).

Applied where the route's path has been decoded (the tournament's or the
table's id is a path parameter) and the director's guard has run, so what
is forwarded is an authenticated, decoded route call.  Without a cluster,
or for a request forwarded here already, it does nothing.  The rest is
``cluster.node.Cluster.keeper`` (who keeps it: this process when it holds
the lease or takes it now) and ``forward_http`` (the round trip over the
bus, bounded in time); ``cluster.forward`` has the two ends' pieces.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from bgclock.server.cluster.forward import FORWARDED, MAX_FORWARDED_BODY, replay
from bgclock.server.context import server_of
from bgclock.server.edge.limits import read_bounded
from bgclock.server.errors import ApiError, BodyTooLarge


class ToKeeper:
    """ASGI middleware: run the request here when this process keeps the
    ``kind`` (``tournament`` or ``table``) whose id is the path parameter
    ``param``, else forward it to the process that does and answer with
    its answer.  ``of_table``: the parameter is a table's id, and what is
    kept is that table's tournament."""

    def __init__(self, app: Any, *, kind: str, param: str, of_table: bool = False) -> None:
        self.app = app
        self.kind = kind
        self.param = param
        self.of_table = of_table

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or FORWARDED in scope:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        cluster = server_of(request).cluster
        ident = scope.get("path_params", {}).get(self.param)
        if cluster is None or not isinstance(ident, int):
            await self.app(scope, receive, send)
            return
        if self.of_table:
            table = (server_of(request).hub.tables.get(ident)
                     if await cluster.known(ident) else None)
            if table is None:
                await self.app(scope, receive, send)  # the route answers it
                return
            ident = table.row.tournament_id
        owner = await cluster.keeper(self.kind, ident)
        if owner is None:
            await self.app(scope, receive, send)
            return
        try:
            body = await read_bounded(request, MAX_FORWARDED_BODY)
        except BodyTooLarge as exc:
            raise ApiError(413, "too_large", str(exc)) from None
        answer = await cluster.forward_http(self.kind, ident, owner, scope, body)
        if answer is None:  # the keeper went before anyone heard it: kept here now
            await self.app(scope, replay(body), send)
            return
        response = Response(answer.body, status_code=answer.status,
                            headers=dict(answer.headers))
        await response(scope, receive, send)
