"""A director's request run by the process that owns what it acts on: the
middleware of the tournament's routes (its Mount), of a table's writes
(edit, next match, close), and of a table's score sheet (an action on the
table's tournament: run by the tournament's owner).

Applied where the route's path has been decoded (the tournament's or the
table's id is a path parameter) and the director's guard has run, so what
runs elsewhere is an authenticated, decoded route call.  Where it runs is
the ownership's to say (``ownership.Ownership.run_at_owner``): one process
runs everything here.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from bgclock.server.context import server_of


class ToOwner:
    """ASGI middleware: run the request at the owner of the ``kind``
    (``tournament`` or ``table``) whose id is the path parameter ``param``.
    ``of_table``: the parameter is a table's id, and what owns the request
    is that table's tournament's owner."""

    def __init__(self, app: Any, *, kind: str, param: str, of_table: bool = False) -> None:
        self.app = app
        self.kind = kind
        self.param = param
        self.of_table = of_table

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        ident = scope.get("path_params", {}).get(self.param)
        if scope["type"] != "http" or not isinstance(ident, int):
            await self.app(scope, receive, send)
            return
        await server_of(Request(scope, receive)).ownership.run_at_owner(
            self.kind, ident, self.app, scope, receive, send, of_table=self.of_table)
