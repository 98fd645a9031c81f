"""What the routes share: the bounded body, the tournament of the path and
its answer, and the run of a tournament's actions under its lock.

Imports the context and the tournament service, never a route module.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from bgclock.server.context import Server, server_of
from bgclock.server.edge.limits import MAX_DEPTH, LimitError, check_depth, check_name, read_bounded
from bgclock.server.edge.schema import BodyError, decode_body
from bgclock.server.edge.tourney_bodies import choices_of, fields_of
from bgclock.server.errors import ApiError, BodyTooLarge, body_refused
from bgclock.server.render.public import public_path
from bgclock.server.tournaments.desk import late_view
from bgclock.server.tournaments.host import LiveTournament
from bgclock.tournament import InvalidContest, Tournament, seats
from bgclock.tournament._names import check_new_names

T = TypeVar("T", bound=msgspec.Struct)

MAX_BODY = 64 * 1024


async def raw_body(request: Request) -> bytes:
    """The body, read only up to ``MAX_BODY`` bytes (by its Content-Length,
    and while it streams in) and checked for depth before anything parses it."""
    body = await read_bounded(request, MAX_BODY)
    try:
        check_depth(body)
    except LimitError:
        raise ValueError(f"body: nested more than {MAX_DEPTH} levels deep") from None
    return body


def json_response(data: Any, status_code: int = 200) -> Response:
    """JSON encoded by msgspec: the bytes ``JSONResponse`` gives, in a tenth
    of its time (a 2,048-player state is 0.5 ms, not 7, on the event loop)."""
    return Response(msgspec.json.encode(data), status_code=status_code,
                    media_type="application/json")


async def decoded(request: Request, into: type[T]) -> dict[str, Any]:
    """A body read bounded, depth-checked, decoded into its declaration
    (``edge.tourney_bodies``) and given as the dict the fold reads."""
    try:
        raw = await raw_body(request)
    except ValueError as exc:
        raise body_refused(exc) from None
    try:
        body = decode_body(raw, into, choices=choices_of(into))
    except BodyError as exc:
        raise body_refused(exc, exc.status) from None
    return fields_of(body)


async def read_csv_text(request: Request, limit: int) -> str:
    """A CSV upload's text: at most ``limit`` bytes (413), UTF-8 with or
    without a byte-order mark (422)."""
    try:
        raw = await read_bounded(request, limit)
    except BodyTooLarge as exc:
        raise ApiError(413, "too_large", str(exc)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(422, "invalid", "body: must be UTF-8 text") from None


def checked_name(field: str, value: Any, limit: int) -> None:
    try:
        check_name(f"body.{field}", value, limit=limit, empty=False)
    except LimitError as exc:
        raise ApiError(422, "invalid", str(exc)) from None


async def check_names(server: Server, request: Request, names: list[tuple[str, str]],
                      taken: Callable[[Tournament], Iterable[str]],
                      what: str = "player") -> None:
    """Refuse a new name that is, or looks like, one taken, or holds invisible
    characters (``tournament/_names.py``): ``ApiError`` 422 naming the field
    and the name it resembles, before the action is decided or stored.  (Two
    look-alikes sent at the same instant could both pass; the same name twice
    is still refused by the fold, under the lock.)"""
    hub = await tournament_hub(server, request)
    try:
        check_new_names(names, taken(hub.state), what=what)
    except InvalidContest as exc:
        raise ApiError(422, "invalid", str(exc)) from None


def players_taken(state: Tournament) -> Iterable[str]:
    return (p.name for p in state.players)


async def tournament_hub(server: Server, request: Request) -> LiveTournament:
    return await server.tourneys.get(request.path_params["tournament_id"])


def state_view(server: Server, request: Request, hub: LiveTournament) -> dict[str, Any]:
    room = server.tourneys.room_token(hub.id)
    return {**hub.view(), "late": late_view(server, hub), "tournament_id": hub.id,
            "seats": seats(hub.state),
            "room_url": f"{server.base_url(request)}/room/{hub.id}?token={room}",
            "public_url": public_url(server, request, hub)}


def public_url(server: Server, request: Request, hub: LiveTournament) -> str | None:
    """The public page's address while it is up (``routes.public``), else None."""
    if not hub.state.public:
        return None
    if server.publisher is not None:  # the hosted server's page (the venue serves the same path)
        return f"{server.publisher.url}{public_path(hub.id, server.publisher.club)}"
    return f"{server.base_url(request)}{public_path(hub.id)}"


def one_action(body: type[Any], do: str, *, path: Mapping[str, str] | None = None,
               **extra: Any) -> Callable[[Request], Awaitable[Response]]:
    """The route of one action: its body decoded as ``body`` (its
    declaration), then folded as ``do`` with ``extra`` fields and, for each
    ``field: name`` of ``path``, the path's ``name`` parameter as ``field``."""
    from_path = dict(path or {})

    async def handler(request: Request) -> Response:
        server = server_of(request)
        data = await decoded(request, body)
        given = {f: request.path_params[name] for f, name in from_path.items()}
        return await run_actions(server, request, [{"do": do, **given, **data, **extra}])

    handler.__name__ = f"post_{do}"
    return handler


Check = Callable[["LiveTournament", list[dict[str, Any]]], None]
After = Callable[["LiveTournament", list[dict[str, Any]]], Awaitable[dict[str, Any]]]


async def run_actions(server: Server, request: Request, actions: list[dict[str, Any]], *,
               status: int = 200, check: Check | None = None,
               after: After | None = None) -> Response:
    """Decide and store ``actions`` under the tournament's lock: ``check``
    (hub, done) may refuse them before they are stored; ``after`` (hub, done)
    does the rest (the tables) and adds to the answer."""
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    if row.closed_ms is not None:
        raise ApiError(409, "closed", "this tournament is closed")
    if check is not None:  # it reads the tables' clocks (``check_reusable``)
        await server.tourneys.tables_folded(hub)
    async with hub.lock:
        done = await server.tourneys.act(
            hub, actions, check=None if check is None else lambda d: check(hub, d))
        extra: dict[str, Any] = {}
        if after is not None:
            extra = await after(hub, done) or {}
    return json_response({"done": done, **extra, "state": state_view(server, request, hub)},
                         status_code=status)
