"""Prizes, side pools, standings, results and pairings: the director's
routes under ``/api/tournaments/{tournament_id}`` (and their OpenAPI paths)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.edge.tourney_bodies import PrizesBody, SidePoolBody
from bgclock.server.errors import ApiError
from bgclock.server.routes.common import one_action, public_url, tournament_hub
from bgclock.server.tournaments.standings import (
    LANGS,
    RESULT_COLUMNS,
    STANDINGS_COLUMNS,
    _csv,
    latest_round,
    pairings_html,
    standings_html,
    standings_rows,
)
from bgclock.tournament import EVENTS, ContestError, final_standings, player_results

if TYPE_CHECKING:
    pass


def _lang(request: Request) -> str:
    """The ``lang`` of the query (``en`` by default); ``ApiError`` 422 else."""
    lang = request.query_params.get("lang", "en")
    if lang not in LANGS:
        raise ApiError(422, "invalid", "query.lang: must be en or it")
    return lang


#: The director's prize list of one event (replaces that event's).
post_prizes = one_action(PrizesBody, "prizes")

#: A side pool (jackpot) of one event, or its removal (``_side``).
post_side_pool = one_action(SidePoolBody, "side_pool")


async def get_standings_json(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return JSONResponse({"tournament": row.name, **final_standings(hub.state).to_dict()})


async def get_standings_csv(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return Response(_csv(STANDINGS_COLUMNS, standings_rows(hub.state)),
                    media_type="text/csv; charset=utf-8", headers={
                        "Content-Disposition":
                        f'attachment; filename="standings-{hub.id}.csv"'})


async def get_standings_html(request: Request) -> Response:
    server = server_of(request)
    lang = _lang(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return HTMLResponse(standings_html(row.name, hub.state, lang))


async def get_results_json(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return JSONResponse({"tournament": row.name, "results": player_results(hub.state)})


async def get_results_csv(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return Response(_csv(RESULT_COLUMNS, player_results(hub.state)),
                    media_type="text/csv; charset=utf-8", headers={
                        "Content-Disposition": f'attachment; filename="results-{hub.id}.csv"'})


async def get_pairings_html(request: Request) -> Response:
    """``?event=main|consolation&round=N`` (1-based; default: the round last
    put at its tables) ``&lang=``."""
    server = server_of(request)
    lang = _lang(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    q = request.query_params
    latest = latest_round(hub.state)
    event = q.get("event", latest[0] if latest else "main")
    if event not in EVENTS:
        raise ApiError(422, "invalid", f"query.event: must be {', '.join(EVENTS)}")
    try:  # a double elimination's losers' bracket and final too
        bracket = hub.state.bracket(event)
    except ContestError:
        raise ApiError(409, "illegal", f"query.event: the {event} is not drawn yet") from None
    rounds = max(len(bracket.rounds), 1)
    raw = q.get("round")
    if raw is None:
        r = latest[1] if latest and latest[0] == event else 0
    elif raw.isdigit() and 1 <= int(raw) <= rounds:
        r = int(raw) - 1
    else:
        raise ApiError(422, "invalid",
                       f"query.round: must be a whole number from 1 to {rounds}")
    return HTMLResponse(pairings_html(row.name, hub.state, event, r, lang,
                                      public_url(server, request, hub)))


#: Director routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/prizes", post_prizes, methods=["POST"]),
    Route("/side-pools", post_side_pool, methods=["POST"]),
    Route("/standings.json", get_standings_json, methods=["GET"]),
    Route("/standings.csv", get_standings_csv, methods=["GET"]),
    Route("/standings.html", get_standings_html, methods=["GET"]),
    Route("/results.json", get_results_json, methods=["GET"]),
    Route("/results.csv", get_results_csv, methods=["GET"]),
    Route("/pairings.html", get_pairings_html, methods=["GET"]),
]


def openapi_paths(ok: Any, errors: Any, op: Any, ref: Any) -> dict[str, Any]:
    """These routes in ``/openapi.json`` (``render.openapi``'s helpers passed in)."""
    tid = ["tournament_id"]
    base = "/api/tournaments/{tournament_id}"
    def html() -> dict[str, Any]:
        return {"200": ok({"type": "string"}, media="text/html"), **errors(404, 422)}

    def text() -> dict[str, Any]:
        return {"200": ok({"type": "string"}, media="text/csv"), **errors(404)}

    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"}}}
    return {
        f"{base}/prizes": {"post": op(
            "the prize list of one event: a prize per place, 1st first", {
                "200": ok(state), **errors(404, 409, 422)}, params=tid, body=ref("PrizesBody"))},
        f"{base}/side-pools": {"post": op(
            "a side pool (jackpot) of one event: entry in cents, members, split per place "
            "(empty players: remove it)", {"200": ok(state), **errors(404, 409, 422)},
            params=tid, body=ref("SidePoolBody"))},
        f"{base}/standings.json": {"get": op(
            "the standings: each event's placings (shared places as ranges), who is in play, "
            "the prizes", {"200": ok({"type": "object"}), **errors(404)}, params=tid)},
        f"{base}/standings.csv": {"get": op("the standings as CSV", text(), params=tid)},
        f"{base}/standings.html": {"get": op(
            "the standings with the prize list, printable on A4 (?lang=en|it)", html(),
            params=tid)},
        f"{base}/results.json": {"get": op(
            "every player's results: each match's round, opponent, result and source",
            {"200": ok({"type": "object"}), **errors(404)}, params=tid)},
        f"{base}/results.csv": {"get": op("every player's results as CSV", text(), params=tid)},
        f"{base}/pairings.html": {"get": op(
            "a round's pairings by table and by name, printable on A4 for the wall "
            "(?event=&round=&lang=)", {**html(), **errors(409)}, params=tid)},
    }
