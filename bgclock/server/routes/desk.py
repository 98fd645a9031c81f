"""The late desk, score sheets, committee and appeals, and the draw sheets:
the director's routes under ``/api/tournaments/{tournament_id}``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.edge.tourney_bodies import (
    AbsentBody,
    AppealBody,
    CommitteeBody,
    DecisionBody,
    SheetBody,
)
from bgclock.server.errors import ApiError, refusal
from bgclock.server.render.drawsheet import draw_csv, draw_html, draw_json
from bgclock.server.routes.common import (
    decoded,
    json_response,
    one_action,
    run_actions,
    state_view,
    tournament_hub,
)
from bgclock.tournament import DEFAULT_GRACE_MS, EVENTS, ContestError


async def post_absent(request: Request) -> Response:
    """A player is absent at a match's scheduled start: ``from_ms`` (or
    ``scheduled_ms`` + 20 min, or now + 20 min) starts the count."""
    server = server_of(request)
    data = await decoded(request, AbsentBody)
    hub = await tournament_hub(server, request)
    now = server.clock.now_ms()
    scheduled = data.pop("scheduled_ms", now)
    data.setdefault("from_ms", scheduled + DEFAULT_GRACE_MS)
    async with hub.lock:
        try:
            key, _ = hub.state.match(data)
        except ContestError as exc:
            raise refusal(exc) from None
        clock = server.tourneys.desk.clock_in_use(hub, key)
        # with a clock: LateDesk.arm (after the action) sends late_start
        done = await server.tourneys.act(hub, [{"do": "absent", **data, "at_ms": now,
                                               "clock": clock}])
    return json_response({"done": done, "state": state_view(server, request, hub)})


async def post_sheet(request: Request) -> Response:
    """The director's score sheet (``by`` director: final), or one entered on a
    player's behalf (``by`` A or B)."""
    server = server_of(request)
    data = await decoded(request, SheetBody)
    # the director entered it (a player's paper sheet, or their own): confirmed
    return await run_actions(server, request, [{"do": "sheet", **data, "via": "director"}])


async def post_committee(request: Request) -> Response:
    server = server_of(request)
    data = await decoded(request, CommitteeBody)
    return await run_actions(server, request, [{"do": "committee", **data}])


async def post_appeal(request: Request) -> Response:
    server = server_of(request)
    data = await decoded(request, AppealBody)
    return await run_actions(server, request, [{"do": "appeal", **data,
                                         "at_ms": server.clock.now_ms()}], status=201)


post_decision = one_action(DecisionBody, "decide", path={"appeal": "appeal"})


async def get_draw_csv(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return Response(draw_csv(hub.state), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="draw-{hub.id}.csv"'})


async def get_sheet_pins(request: Request) -> Response:
    """Every player's own sheet PIN, for the director to hand out (the desk
    shows them): typed at the table, it makes a score sheet the player's."""
    server = server_of(request)
    hub = await tournament_hub(server, request)
    assert server.tokens is not None
    return JSONResponse({"pins": [
        {"id": p.id, "name": p.name, "pin": server.tokens.sheet_pin(hub.id, p.id)}
        for p in hub.state.players]})


async def get_draw_json(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return JSONResponse(draw_json(row.name, hub.state))


async def get_draw_html(request: Request) -> Response:
    server = server_of(request)

    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    event = request.path_params["event"]
    if event not in EVENTS:
        raise ApiError(404, "not_found", f"no such event: {', '.join(EVENTS)}")
    try:
        lang = request.query_params.get("lang", "en")  # the director's language
        return HTMLResponse(draw_html(row.name, event, hub.state, lang))
    except ContestError as exc:
        raise refusal(exc) from None


#: More director routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/late/absent", post_absent, methods=["POST"]),
    Route("/sheets", post_sheet, methods=["POST"]),
    Route("/sheet-pins", get_sheet_pins, methods=["GET"]),
    Route("/committee", post_committee, methods=["POST"]),
    Route("/appeals", post_appeal, methods=["POST"]),
    Route("/appeals/{appeal:id}/decision", post_decision, methods=["POST"]),
    Route("/draw.csv", get_draw_csv, methods=["GET"]),
    Route("/draw.json", get_draw_json, methods=["GET"]),
    Route("/draw/{event}.html", get_draw_html, methods=["GET"]),
]
