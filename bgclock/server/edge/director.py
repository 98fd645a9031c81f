"""The director's guard, the middleware of the director's Mount: a request
to any of its routes needs the director's key (``Authorization: Bearer KEY``
or ``?key=KEY``) or session (``edge.session``), else 401 before the route
runs: ``unauthorized`` in JSON for the API, the refusal page in the
browser's language for a browser opening a page (``edge.session.refusal``).  A path
none of its routes matches goes on untouched (404, as for anyone).  A
request forwarded by another process of a cluster (``cluster.forward``) is
checked here again from the credentials it carries (``edge.principal``).
A club's director (``Principal.club``) is kept to the club's own here too
(``edge.clubs``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Match, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from bgclock.server.context import server_of
from bgclock.server.edge.clubs import keep_to_club
from bgclock.server.edge.session import page_request, refusal, refusal_reason
from bgclock.server.errors import ApiError


class DirectorOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def _guarded(self, scope: Scope) -> bool:
        router = self.app
        if not isinstance(router, Router):
            return True
        return any(route.matches(scope)[0] is not Match.NONE for route in router.routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._guarded(scope):
            request = Request(scope, receive)
            principal = server_of(request).principal(request)
            if not principal.director:
                if page_request(request):
                    page = refusal(request, refusal_reason(principal.offered))
                    await page(scope, receive, send)
                    return
                raise ApiError(401, "unauthorized", "the director's key is needed")
            if principal.club is not None and isinstance(self.app, Router):
                await keep_to_club(server_of(request), self.app, scope, principal.club)
        await self.app(scope, receive, send)
