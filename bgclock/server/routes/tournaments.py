"""The tournaments themselves: made, listed, read, closed, and their tables made.

On a server of many clubs, a club's director makes the club's tournaments
and lists only those (the director's guard keeps it from the rest:
``edge.clubs``); the server's own director lists every club's."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.edge.bodies import NewTournament
from bgclock.server.edge.schema import BodyError, decode_body
from bgclock.server.errors import ApiError, body_refused
from bgclock.server.routes import register as _register
from bgclock.server.routes.common import raw_body
from bgclock.server.routes.money import points_at_close
from bgclock.server.routes.tables import spec_from
from bgclock.server.tournaments.service import open_clashes


async def create_tournament(request: Request) -> Response:
    server = server_of(request)
    try:
        body = decode_body(await raw_body(request), NewTournament)
    except ValueError as exc:
        raise body_refused(exc, exc.status if isinstance(exc, BodyError) else 400) from None
    club = server.principal(request).club
    row = await server.store.create_tournament(body.name, server.clock.now_ms(), club)
    server.note_owners([row])
    return JSONResponse(row.to_dict(), status_code=201)


async def list_tournaments(request: Request) -> Response:
    server = server_of(request)
    principal = server.principal(request)
    rows = [r for r in await server.store.tournaments() if principal.directs(r.club)]
    server.note_owners(rows)
    return JSONResponse({"tournaments": [r.to_dict() for r in rows]})


async def get_tournament(request: Request) -> Response:
    server = server_of(request)
    tid: int = request.path_params["tournament_id"]
    row = await server.store.tournament(tid)
    tables = [server.table_info(request, t) for t in server.hub.tables.values()
              if t.row.tournament_id == tid]
    # the clashes not dismissed: the dashboard's alerts (an open event's)
    clashes = ([] if row.closed_ms is not None
               else open_clashes((await server.tourneys.get(tid)).state))
    return JSONResponse({**row.to_dict(), "tables": tables, "clashes": clashes})


async def close_tournament(request: Request) -> Response:
    server = server_of(request)
    tid: int = request.path_params["tournament_id"]
    keep: set[int] = set()
    also: list[int] = []
    if (await server.store.tournament(tid)).closed_ms is None:
        # an event of a room: the room's tables stay while another of its events is open
        keep, also = await server.tourneys.flights.closing(await server.tourneys.get(tid))
    closed = await server.store.close_tournament(tid, server.clock.now_ms(), keep=keep)
    for table_id in also:
        await server.store.close_table(table_id, server.clock.now_ms())
    closed = sorted({*closed, *also})
    for table_id in closed:
        table = server.hub.tables.get(table_id)
        if table is not None:
            table.close()
            table.broadcast(table.table_message())
    row = await server.store.tournament(tid)
    # once, however often it is closed, in the tournament's club's register
    # (the server's own for the server director's event)
    rated = await _register.rate_tournament(server, tid)
    points = await points_at_close(server, tid)  # worked out from the state: GET .../points.csv
    return JSONResponse({**row.to_dict(), "closed_tables": closed, "rated": rated,
                         "points": points})


async def create_table(request: Request) -> Response:
    server = server_of(request)
    tid: int = request.path_params["tournament_id"]
    tournament = await server.store.tournament(tid)
    if tournament.closed_ms is not None:
        raise ApiError(409, "closed", "this tournament is closed")
    try:
        spec = spec_from(await raw_body(request))
    except ValueError as exc:
        raise body_refused(exc, 422) from None
    row = await server.store.create_table(tid, spec, server.clock.now_ms())
    table = server.hub.add(row)
    return JSONResponse(server.table_info(request, table), status_code=201)


#: The director's (the guard is on the Mount).
routes = [
    Route("/api/tournaments", create_tournament, methods=["POST"]),
    Route("/api/tournaments", list_tournaments, methods=["GET"]),
    Route("/api/tournaments/{tournament_id:id}", get_tournament, methods=["GET"]),
    Route("/api/tournaments/{tournament_id:id}/close", close_tournament, methods=["POST"]),
    Route("/api/tournaments/{tournament_id:id}/tables", create_table, methods=["POST"]),
]
