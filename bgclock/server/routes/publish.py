"""Publishing: a venue's tournaments taken by a hosted bgclock, and their
pages at ``/p/{club}/{id}`` (issue 37 §3, docs/hosting.md).

``GET /api/publish`` and ``POST /api/publish`` are a publishing venue's
(``Authorization: Bearer NAME.SECRET``: the ``publisher`` NAME,
``edge.principal``); anything else is refused 401 and logged (never the key).
The GET says what NAME has published here (each tournament's last ``n``); the
POST takes a batch (``PublishBody``, ``tournaments.published``): 200 with
the last ``n`` kept, 409 ``out_of_order`` with it (``params.n``) when the
batch starts past it, 422 naming the field or the action the fold refused.

``/p/{club}/{id}`` (and ``.json``, ``.stream``, ``/player/{player_id}``) is
the same page as ``/p/{id}``: on the venue that publishes as ``club`` its
own tournament ``id`` (the path its ``public_url`` names), on the hosted
server the publication (``club``, ``id``).  A publication that does not
exist, or whose tournament is not public, answers the same 404.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.edge.limits import MAX_DEPTH, MAX_ID, MAX_NAME, check_depth, read_bounded
from bgclock.server.errors import ApiError, body_refused, refusal
from bgclock.server.live.roomfeed import EventStream
from bgclock.server.render import pages as rendered
from bgclock.server.render.public import player_view
from bgclock.server.routes.common import json_response
from bgclock.server.routes.public import NO_STORE, gone, public_view
from bgclock.server.tournaments.published import ActionRefused
from bgclock.store import OutOfOrder

log = logging.getLogger("bgclock.server.publish")

#: Actions in one publication at most (the venue sends ``publisher.BATCH``).
MAX_BATCH = 1000
#: A publication's body, at most (a thousand actions and a room's live tables).
MAX_PUBLISH_BODY = 4 * 1024 * 1024
#: Live clocks or late arrivals in one publication, at most.
MAX_LIVE = 4096


class LiveBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The live tables' public fields (``render.public.live_view``); empty
    for a tournament taken down."""

    clocks: Annotated[list[dict[str, Any]], Meta(max_length=MAX_LIVE)] = []
    late: Annotated[list[dict[str, Any]], Meta(max_length=MAX_LIVE)] = []
    server_ms: Annotated[int, Meta(ge=0, le=MAX_ID)] | None = None


class PublishBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/publish``: one tournament's actions from ``first`` on
    (numbered as the venue stores them), its name, closed, and live part."""

    tournament: Annotated[int, Meta(ge=1, le=MAX_ID)]
    name: Annotated[str, Meta(min_length=1, max_length=MAX_NAME)]
    closed: bool
    first: Annotated[int, Meta(ge=1, le=MAX_ID)]
    actions: Annotated[list[dict[str, Any]], Meta(max_length=MAX_BATCH)]
    live: LiveBody


async def _publisher(server: Server, request: Request) -> str:
    """The club's name the request publishes as, or 401 (logged)."""
    keys = server.publish_keys
    candidate = request.headers.get("authorization", "")[7:].strip() or None
    if keys.stale(candidate):  # a key added while this server runs
        await keys.load(server.store)
    principal = server.principal(request)
    if principal.publisher is None:
        where = request.client.host if request.client else "?"
        log.warning("publishing refused from %s: %s", where,
                    "a wrong publishing key" if candidate else "no publishing key")
        raise ApiError(401, "unauthorized", "a publishing key this server was given is needed "
                       "(Authorization: Bearer NAME.SECRET)")
    return principal.publisher


async def publish_status(request: Request) -> Response:
    server = server_of(request)
    club = await _publisher(server, request)
    return json_response({"club": club, "tournaments": await server.published.status(club)})


async def publish(request: Request) -> Response:
    server = server_of(request)
    club = await _publisher(server, request)
    try:
        raw = await read_bounded(request, MAX_PUBLISH_BODY)
        check_depth(raw, MAX_DEPTH + 4)
    except ValueError as exc:  # too large (413), nested too deep (400)
        raise body_refused(exc) from None
    try:
        body = msgspec.json.decode(raw, type=PublishBody)
    except msgspec.ValidationError as exc:
        raise ApiError(422, "invalid", f"body: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ApiError(400, "bad_request", f"body: {exc}") from None
    try:
        n = await server.published.take(club, msgspec.structs.asdict(body) | {
            "live": msgspec.structs.asdict(body.live)})
    except OutOfOrder as exc:
        raise ApiError(409, "out_of_order", f"actions from {body.first}: this server "
                       f"holds {exc.n} of tournament {body.tournament}", {"n": exc.n}) from None
    except ActionRefused as exc:
        refused = refusal(exc.error)
        refused.message = f"actions: action {exc.n}: {refused.message}"
        raise refused from None
    return json_response({"n": n})


# ------------------------------------------------------------------ the pages

async def _view(server: Server, club: str, tid: int) -> tuple[dict[str, Any], int | None]:
    """The page's view, and the publication's id (None: this venue's own)."""
    publisher = server.publisher
    if publisher is not None and publisher.club == club:
        return await public_view(server, tid), None
    hub = await server.published.get(club, tid)
    view = None if hub is None else server.published.view(hub)
    if view is None or hub is None or hub.row is None:
        raise gone()
    return view, hub.row.id


async def _player(request: Request) -> dict[str, Any]:
    p = request.path_params
    view, _ = await _view(server_of(request), p["club"], p["tournament_id"])
    mine = player_view(view, p["player_id"])
    if mine is None:
        raise ApiError(404, "not_found", "no such player in this tournament")
    return mine


async def page(request: Request) -> Response:
    p = request.path_params
    await _view(server_of(request), p["club"], p["tournament_id"])
    return HTMLResponse(rendered.public_page(), headers=NO_STORE)


async def page_json(request: Request) -> Response:
    p = request.path_params
    view, _ = await _view(server_of(request), p["club"], p["tournament_id"])
    answer = json_response(view)
    answer.headers.update(NO_STORE)
    return answer


async def page_stream(request: Request) -> Response:
    """The page's view pushed (``routes.public.public_stream``'s events)."""
    server = server_of(request)
    p = request.path_params
    tid: int = p["tournament_id"]
    _, publication = await _view(server, p["club"], tid)
    feed, key = ((server.public_feed, tid) if publication is None
                 else (server.published.feed, publication))
    full = feed.room_full(key)
    if full is not None:
        raise ApiError(503, "busy", full)
    first = await feed.frame(key)
    if first is None:
        raise gone()
    return EventStream(feed.stream(key, first))


async def player_page(request: Request) -> Response:
    await _player(request)
    return HTMLResponse(rendered.public_page(), headers=NO_STORE)


async def player_json(request: Request) -> Response:
    answer = json_response(await _player(request))
    answer.headers.update(NO_STORE)
    return answer


_PAGE = "/p/{club:club}/{tournament_id:id}"

#: Anyone's pages, and the publishing venues' (their key, checked here).
routes = [
    Route("/api/publish", publish_status, methods=["GET"]),
    Route("/api/publish", publish, methods=["POST"]),
    Route(_PAGE, page, methods=["GET"]),
    Route(_PAGE + ".json", page_json, methods=["GET"]),
    Route(_PAGE + ".stream", page_stream, methods=["GET"]),
    Route(_PAGE + "/player/{player_id:id}", player_page, methods=["GET"]),
    Route(_PAGE + "/player/{player_id:id}.json", player_json, methods=["GET"]),
]
