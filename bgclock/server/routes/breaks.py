"""Breaks at a match played without a clock, and the presumption of a
missing score sheet: the director's routes under
``/api/tournaments/{tournament_id}`` (issue 38 §3 and §4).

A break's start, end and penalty are tournament actions (``_breaks``,
``Tournament._break_start`` ...) stamped here with the server's instant; a
match whose table clock is in use keeps its breaks on the clock, so a break
there is refused (``clock_in_use``).  ``GET /breaks`` gives every match
being played with its breaks timed now: what is left of the 10 minutes, how
far over, the penalty offered."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.errors import ApiError, refusal
from bgclock.server.routes.common import (
    decoded,
    json_response,
    one_action,
    run_actions,
    tournament_hub,
)
from bgclock.server.tournaments.host import LiveTournament
from bgclock.tournament import ContestError
from bgclock.tournament.actions import BreakBody, BreakPenaltyBody, MatchBody, PresumeBody


def _views(server: Server, hub: LiveTournament) -> list[dict[str, Any]]:
    """Every match being played, its breaks timed now, and whether its
    table's clock keeps them instead (``clock``)."""
    desk = server.tourneys.desk
    out = []
    for view in hub.state.break_views(server.clock.now_ms()):
        key = (view["event"], view["round"], view["match"])
        out.append({**view, "clock": desk.clock_in_use(hub, key)})
    return out


async def get_breaks(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return json_response({"server_ms": server.clock.now_ms(), "breaks": _views(server, hub)})


def _break_route(body: type[Any], do: str, *, status: int = 200) -> Any:
    """A break action's route: the body, the server's instant, and refused
    (409 ``clock_in_use``) where the match's table clock keeps the time."""

    async def handler(request: Request) -> Response:
        server = server_of(request)
        data = await decoded(request, body)
        hub = await tournament_hub(server, request)
        try:
            key, _ = hub.state.match(data)
        except ContestError as exc:
            raise refusal(exc) from None
        if server.tourneys.desk.clock_in_use(hub, key):
            raise ApiError(409, "clock_in_use", "this match is played on a clock: its "
                           "breaks are the clock's", {"table": hub.state.tables.get(key, 0)})

        async def breaks(hub: LiveTournament, done: list[dict[str, Any]]) -> dict[str, Any]:
            return {"breaks": _views(server, hub)}

        return await run_actions(server, request, [
            {"do": do, **data, "at_ms": server.clock.now_ms()}], status=status, after=breaks)

    handler.__name__ = f"post_{do}"
    return handler


post_break = _break_route(BreakBody, "break_start", status=201)
post_break_end = _break_route(MatchBody, "break_end")
post_break_penalty = _break_route(BreakPenaltyBody, "break_penalty")
#: One player's sheet is in, the other's missing: the director keeps it.
post_presume = one_action(PresumeBody, "presume")

#: More director routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/breaks", get_breaks, methods=["GET"]),
    Route("/breaks", post_break, methods=["POST"]),
    Route("/breaks/end", post_break_end, methods=["POST"]),
    Route("/breaks/penalty", post_break_penalty, methods=["POST"]),
    Route("/sheets/presume", post_presume, methods=["POST"]),
]
