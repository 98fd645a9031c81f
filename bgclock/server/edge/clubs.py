"""A club's director kept to the club's own: part of the director's guard
(``edge.director``), on every director's route.

On a hosted server of many clubs (issue 37 §4), a club's director key or
session (``edge.named_keys``) makes a request the director of that club
(``Principal.club``).  Every director's route it reaches is decided here,
once, from the route the path matched, before the route runs:

- a route of a tournament (its id in the path) or of a table (the table's
  tournament) runs when the club owns that tournament; another club's, or
  the server director's, is answered 404 ``not_found``, as a tournament
  that does not exist is (a club cannot tell another's ids from gaps);
- the list of tournaments and a new tournament, the dashboard and the
  position tools run (the list shows the club's own, a new tournament is
  the club's: ``routes.tournaments``);
- the players' register's routes run (``CLUB_REGISTER``): they read and
  change the club's own register only (``routes.register.owner_of``: the
  store's every register call names its owner), so an entry of another
  club's, or of the server's, answers 404 as an id never given; a
  tournament's register search is a route of the tournament (above) and
  searches the tournament's club's register;
- anything else is refused 403 ``club_forbidden``: the server's own settings.

Deny by default: a route added later is the server director's until it is
named here.  The server's own director (``club`` None) passes untouched.
The dashboards' live feed is kept to the club's own by the WebSocket session
(``ws.session``), and a room's events are the club's own (``tournaments.flights``).
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, Match, Mount, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from bgclock.server.context import Server, server_of
from bgclock.server.edge.principal import bearer
from bgclock.server.errors import ApiError
from bgclock.store import NotFound

#: The director's routes without a tournament's or a table's id a club's
#: director may use.
CLUB_OPEN: Final = frozenset({"/director", "/api/tournaments", "/api/position"})
#: The players' register's routes: a club's director reaches them, and
#: they keep to the club's own register (``routes.register``).
CLUB_REGISTER: Final = frozenset({
    "/api/register", "/api/register.csv", "/api/register/ratings.json",
    "/api/register/ratings.csv", "/api/register/ratings.html",
    "/api/register/{entry_id:id}"})


#: A route a request matched (None: the guard's app is no router, so it
#: guards everything) and the path's parameters.
Matched = tuple[BaseRoute | None, dict[str, Any]]


def matched_route(router: Router, scope: Scope) -> Matched | None:
    """The route ``scope`` matches among ``router``'s (a Mount's own
    sub-route too), and the path's parameters; None when none matches.
    The director's guard asks it once a request, for both of its checks."""
    for route in router.routes:
        match, child = route.matches(scope)
        if match is Match.NONE:
            continue
        params = dict(child.get("path_params", {}))
        if isinstance(route, Mount):
            inner = {**scope, **child}
            for sub in route.routes:
                m, c = sub.matches(inner)
                if m is not Match.NONE:
                    return sub, {**params, **c.get("path_params", {})}
            return route, params
        return route, params
    return None


async def keep_to_club(server: Server, club: str, matched: Matched) -> None:
    """Let the director of ``club`` through to the route it matched, or raise."""
    route, params = matched
    path = getattr(route, "path", None)
    if "tournament_id" in params:
        # NotFound (the handlers' 404) for another's as for none
        if await server.owner(params["tournament_id"]) != club:
            raise NotFound(f"no tournament {params['tournament_id']}")
    elif "table_id" in params:
        if await server.table_owner(params["table_id"]) != club:
            raise NotFound(f"no table {params['table_id']}")
    elif path in CLUB_REGISTER:
        pass  # the club's own register (routes.register.owner_of)
    elif path not in CLUB_OPEN:
        raise ApiError(403, "club_forbidden", "this is the server director's, not a "
                       "club's: the server's own settings")


async def fresh_club_keys(server: Server, candidate: str | None) -> None:
    """A club's key this process does not know yet (``bgclock clubs add``
    while it runs, or on another process on the same store): the clubs' keys are
    read again before it is checked (a key of the club form that is wrong
    costs that read: one small row, what any anonymous page costs)."""
    if server.clubs.stale(candidate) and not server.director.check(candidate):
        await server.clubs.load(server.store)


class FreshKeys:
    """ASGI middleware: the clubs' keys fresh (``fresh_club_keys``) before
    a request's principal is worked out from its key (the edge's rate bounds
    the reads a wrong key costs)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            conn = HTTPConnection(scope)
            await fresh_club_keys(server_of(conn), bearer(conn) or conn.query_params.get("key"))
        await self.app(scope, receive, send)
