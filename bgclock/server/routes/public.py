"""A tournament's public page, and each player's own page: anyone may read
them, without a key, while the director keeps the tournament public.

``PATCH /api/tournaments/{id}`` with ``{"public": true}`` (the director's)
puts the page up: the tournament's state then names ``public_url``; with
``false`` it is taken down at once (its pages and JSON answer 404 and its
open streams end).  The pages (``/p/{id}``, ``/p/{id}/player/{player_id}``)
read their data at the same address ending in ``.json`` and listen to
``/p/{id}.stream`` (the room's push, ``live.roomfeed``).  Everything they
carry is projected in ``render.public``; a private tournament and a missing
one answer the same 404.  docs/hosting.md.
"""

from __future__ import annotations

from typing import Any

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.edge.owner import ToOwner
from bgclock.server.errors import ApiError
from bgclock.server.live.roomfeed import EventStream
from bgclock.server.render import pages as rendered
from bgclock.server.render.public import player_view
from bgclock.server.routes.common import decoded, json_response, state_view
from bgclock.server.routes.room import live_tables
from bgclock.server.tournaments.service import public_body
from bgclock.store import NotFound
from bgclock.tournament.actions import PublicBody

#: Public answers are the state of the moment: never kept by a cache.
NO_STORE = {"Cache-Control": "no-store"}


def gone() -> ApiError:
    """The 404 of a tournament that is missing or not public (the same answer
    for both, so the page says nothing of a private one); the published
    pages (``routes.publish``) answer it too."""
    return ApiError(404, "not_found", "this tournament has no public page")


async def public_view(server: Server, tid: int) -> dict[str, Any]:
    """The public view of ``tid`` now, or 404 (missing or not public)."""
    try:
        await live_tables(server, tid)
        view = await public_body(server, tid, server.publish_club)
    except NotFound:
        raise gone() from None
    if view is None:
        raise gone()
    return view


async def _player(server: Server, request: Request) -> dict[str, Any]:
    view = player_view(await public_view(server, request.path_params["tournament_id"]),
                       request.path_params["player_id"])
    if view is None:
        raise ApiError(404, "not_found", "no such player in this tournament")
    return view


def _fresh(response: Response) -> Response:
    response.headers.update(NO_STORE)
    return response


async def public_json(request: Request) -> Response:
    server = server_of(request)
    view = await public_view(server, request.path_params["tournament_id"])
    return _fresh(json_response(view))


async def public_page(request: Request) -> Response:
    server = server_of(request)
    await public_view(server, request.path_params["tournament_id"])
    return HTMLResponse(rendered.public_page(), headers=NO_STORE)


async def public_stream(request: Request) -> Response:
    """The public view pushed: a server-sent event ``public`` with the view
    now, then one after every change; it ends when the page is taken down."""
    server = server_of(request)
    tid: int = request.path_params["tournament_id"]
    await public_view(server, tid)
    full = server.public_feed.room_full(tid)
    if full is not None:
        raise ApiError(503, "busy", full)
    first = await server.public_feed.frame(tid)
    if first is None:
        raise gone()
    return EventStream(server.public_feed.stream(tid, first))


async def player_json(request: Request) -> Response:
    view = await _player(server_of(request), request)
    return _fresh(json_response(view))


async def player_page(request: Request) -> Response:
    await _player(server_of(request), request)
    return HTMLResponse(rendered.public_page(), headers=NO_STORE)


async def patch_tournament(request: Request) -> Response:
    """``{"public": true|false}``: the public page up or down (the
    director's; taken at any time, a closed tournament's too: it changes
    nothing of play)."""
    server = server_of(request)
    data = await decoded(request, PublicBody)
    hub = await server.tourneys.get(request.path_params["tournament_id"])  # NotFound: 404
    async with hub.lock:
        done = await server.tourneys.act(hub, [{"do": "set_public", **data}])
    if not hub.state.public:
        server.public_feed.end(hub.id)  # its open streams end now
    state = state_view(server, request, hub)
    return json_response({"done": done, "public": state["public"],
                          "public_url": state["public_url"], "state": state})


#: Anyone's (no credential): listed before the director's mounts.
routes = [
    Route("/p/{tournament_id:id}", public_page, methods=["GET"]),
    Route("/p/{tournament_id:id}.json", public_json, methods=["GET"]),
    Route("/p/{tournament_id:id}.stream", public_stream, methods=["GET"]),
    Route("/p/{tournament_id:id}/player/{player_id:id}", player_page, methods=["GET"]),
    Route("/p/{tournament_id:id}/player/{player_id:id}.json", player_json, methods=["GET"]),
]

#: The director's (inside the guarded Mount); run by the process that owns
#: the tournament.
director = [
    Route("/api/tournaments/{tournament_id:id}", patch_tournament, methods=["PATCH"],
          middleware=[Middleware(ToOwner, kind="tournament", param="tournament_id")]),
]
