"""The room display's page and data: the room token or the director's key."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.errors import ApiError
from bgclock.server.live.roomfeed import EventStream
from bgclock.server.render import pages as rendered
from bgclock.server.render.room import events_view
from bgclock.server.tournaments.service import room_body


async def room_id(server: Server, request: Request) -> int:
    """The path's tournament id if the request may read its room (the room
    token or the director's key), else ``ApiError`` 403."""
    tid: int = request.path_params["tournament_id"]
    if not await server.tourneys.room_allowed(request, tid):
        raise ApiError(403, "forbidden", "this link does not open this room")
    return tid


async def live_tables(server: Server, tid: int) -> None:
    """The tournament's tables other processes own are readable here, live
    (``Ownership.readable_room``), so the view shows them too."""
    await server.ownership.readable_room(tid)


async def room_json(request: Request) -> Response:
    """The draw sheet and every table's match live, for the room display
    (the room token or the director's key)."""
    server = server_of(request)
    tid = await room_id(server, request)
    await live_tables(server, tid)
    return JSONResponse(await room_body(server, tid))


async def room_stream(request: Request) -> Response:
    """``room.json`` pushed (``live.roomfeed``): a server-sent event with the
    room's view now, then one after every change (the room token or the
    director's key; 503 past the streams' bound)."""
    server = server_of(request)
    tid = await room_id(server, request)
    full = server.room_feed.room_full(tid)
    if full is not None:
        raise ApiError(503, "busy", full)
    await live_tables(server, tid)
    first = await server.room_feed.frame(tid)
    if first is None:  # a room always has a view: never, but typed so
        raise ApiError(404, "not_found", "no such room")
    return EventStream(server.room_feed.stream(tid, first))


async def room_page(request: Request) -> Response:
    server = server_of(request)
    await room_id(server, request)
    return HTMLResponse(rendered.room_page())


async def events_json(request: Request) -> Response:
    """The Swing and couples events for the room display (room token or the
    director's key)."""
    server = server_of(request)
    tid = await room_id(server, request)
    hub = await server.tourneys.get(tid)  # NotFound: 404
    return JSONResponse(events_view(hub.state.events.to_dict(), server_ms=server.clock.now_ms()))


#: Read with the room token or the director's key (``room_id``): listed before
#: the director's mounts.
routes = [
    Route("/room/{tournament_id:id}", room_page),
    Route("/api/tournaments/{tournament_id:id}/room.json", room_json),
    Route("/api/tournaments/{tournament_id:id}/room.stream", room_stream),
    Route("/api/tournaments/{tournament_id:id}/events.json", events_json),
]
