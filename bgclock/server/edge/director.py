"""The director's guard, the middleware of the director's Mount: a request
to any of its routes needs the director's key (``Authorization: Bearer KEY``
or ``?key=KEY``) or session (``edge.session``), else 401 before the route
runs: ``unauthorized`` in JSON for the API, the refusal page in the
browser's language for a browser opening a page (``edge.session.refusal``).  A path
none of its routes matches goes on untouched (404, as for anyone).  A
request another process sent here to run (its owner runs it) is
checked here again from the credentials it carries (``edge.principal``).
A club's director (``Principal.club``) is kept to the club's own here too
(``edge.clubs``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Router
from starlette.types import ASGIApp, Receive, Scope, Send

from bgclock.server.context import server_of
from bgclock.server.edge.clubs import Matched, keep_to_club, matched_route
from bgclock.server.edge.session import page_request, refusal, refusal_reason
from bgclock.server.errors import ApiError


class DirectorOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def _matched(self, scope: Scope) -> Matched | None:
        """The route of the guarded app the request matched (None: no route
        does, and the request goes on untouched)."""
        if not isinstance(self.app, Router):
            return None, {}
        return matched_route(self.app, scope)

    def _guarded(self, scope: Scope) -> bool:
        """The request is one of the guarded routes'."""
        return self._matched(scope) is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        matched = self._matched(scope) if scope["type"] == "http" else None
        if matched is not None:
            request = Request(scope, receive)
            principal = server_of(request).principal(request)
            if not principal.director:
                if page_request(request):
                    page = refusal(request, refusal_reason(principal.offered))
                    await page(scope, receive, send)
                    return
                raise ApiError(401, "unauthorized", "the director's key is needed")
            if principal.club is not None:
                await keep_to_club(server_of(request), principal.club, matched)
        await self.app(scope, receive, send)
