"""The round's forecast for the director (issue 32 §8): when each running
match and the round are expected to end, and which match holds it up
(``tournaments.forecast``; the room display reads it in ``room.json``)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.tournaments.service import forecast_body


async def get_forecast(request: Request) -> Response:
    """``{"end_ms", "holding", "matches", "unclocked", "server_ms"}``: each
    running match at a clock table (with its ``table_id``) and its forecast
    end, the round's (the latest) and the match holding it up."""
    server = server_of(request)
    return JSONResponse(await forecast_body(server, request.path_params["tournament_id"]))


def openapi_paths(ok: Any, errors: Any, op: Any, ref: Any) -> dict[str, Any]:
    """``/forecast`` in ``/openapi.json`` (``render.openapi``'s helpers)."""
    return {"/api/tournaments/{tournament_id}/forecast": {"get": op(
        "when each running match at a clock table and the round are expected to end "
        "(server instants, ms), and the match holding the round up",
        {"200": ok({"type": "object"}), **errors(404)}, params=["tournament_id"])}}


#: Under ``/api/tournaments/{tournament_id:id}`` (the director's).
routes = [Route("/forecast", get_forecast, methods=["GET"])]

__all__ = ["openapi_paths", "routes"]
