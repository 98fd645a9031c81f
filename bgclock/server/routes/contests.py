"""Swing and couples (issue 13): the director's routes under
``/api/tournaments/{tournament_id}`` (the clock results: ``tournaments.contests``)."""

from __future__ import annotations

import random
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bgclock.core import PRESETS
from bgclock.server.context import Server, server_of
from bgclock.server.edge.tourney_bodies import (
    CouplesBody,
    CouplesCorrectionBody,
    CouplesPhaseBody,
    CouplesResultBody,
    SwingBody,
    SwingCorrectionBody,
    SwingResultBody,
    SwingRoundBody,
)
from bgclock.server.errors import ApiError
from bgclock.server.routes.common import (
    check_names,
    decoded,
    one_action,
    run_actions,
    tournament_hub,
)
from bgclock.server.tournaments.contests import check_spec, couples_spec, set_up, swing_spec
from bgclock.server.tournaments.host import LiveTournament
from bgclock.store import TableSpec


def _links(server: Server, request: Request, hub: LiveTournament,
           numbers: list[int], clock: bool) -> list[dict[str, Any]]:
    out = []
    for n in numbers:
        tid = hub.state.table_ids.get(n) if clock else None
        table = server.hub.tables.get(tid) if tid is not None else None
        out.append({"table": n, "table_id": tid,
                    "url": server.table_link(request, table.id) if table is not None else None})
    return out


async def _complete(server: Server, request: Request) -> None:
    """Before a Swing round or a couples phase: seat what a cut-short one left."""
    hub = await tournament_hub(server, request)
    if (await server.store.tournament(hub.id)).closed_ms is None:
        async with hub.lock:
            await server.tourneys.complete(hub)


async def post_swing(request: Request) -> Response:
    """Create the Swing: players (ids; default every registered player not
    withdrawn), start_vp, cpp, rules, clock (required/none), clock_override."""
    server = server_of(request)
    data = await decoded(request, SwingBody)

    rules = data.get("rules", "it-tournament")
    if not isinstance(rules, str) or rules not in PRESETS:
        raise ApiError(422, "invalid", f"body.rules: unknown rule book "
                      f"(one of {', '.join(PRESETS)})")
    override = data.get("clock_override", {})
    if isinstance(override, dict) and override:
        check_spec(TableSpec(players=("A", "B"), rules=rules, length=1,
                              clock=dict(override)))
    return await run_actions(server, request, [{"do": "swing_create", **data}], status=201)


async def post_swing_round(request: Request) -> Response:
    """Pair the next Swing round (``seed``: the director's, else drawn and
    logged) and put its games at tables."""
    server = server_of(request)
    data = await decoded(request, SwingRoundBody)
    if "seed" not in data:
        data["seed"] = random.SystemRandom().randrange(2**53)

    def check(hub: LiveTournament, done: list[dict[str, Any]]) -> None:
        ev = hub.state.events.swing
        if ev is not None and ev.clock != "none":
            for a in done[0]["assigned"]:
                server.tourneys.check_reusable(hub, a["table"])

    async def after(hub: LiveTournament, done: list[dict[str, Any]]) -> dict[str, Any]:
        ev = hub.state.events.swing
        assert ev is not None
        specs = [(g.table, spec) for i, g in enumerate(ev.games)
                 if (spec := swing_spec(hub.state, i)) is not None]
        failed = await set_up(server, hub, specs)
        tables = _links(server, request, hub, [g.table for g in ev.games], ev.clock != "none")
        return {"tables": [{**t, "game": i, "a": g.a, "b": g.b}
                           for i, (t, g) in enumerate(zip(tables, ev.games, strict=True))],
                "not_ready": failed}

    await _complete(server, request)
    return await run_actions(server, request, [{"do": "swing_round", **data}], check=check,
                      after=after)


post_swing_result = one_action(SwingResultBody, "swing_result", source="hand")


async def post_swing_correction(request: Request) -> Response:
    """Another result for a game of the round under way, or of the last round
    played while the next is not paired (the round is played again)."""
    server = server_of(request)
    data = await decoded(request, SwingCorrectionBody)
    return await run_actions(server, request, [{"do": "swing_correct", **data}])


async def post_couples(request: Request) -> Response:
    """Create the couples event: couples [{name, players: [id1, id2]}],
    format (knockout/round_robin), length, rules, clock (required/none)."""
    server = server_of(request)
    data = await decoded(request, CouplesBody)

    rules = data.get("rules", "it-tournament")
    if not isinstance(rules, str) or rules not in PRESETS:
        raise ApiError(422, "invalid", f"body.rules: unknown rule book "
                      f"(one of {', '.join(PRESETS)})")
    names = [(f"body.couples[{k}].name", c["name"]) for k, c in enumerate(data["couples"])]
    await check_names(server, request, names, lambda _state: (), what="couple")
    return await run_actions(server, request, [{"do": "couples_create", **data}], status=201)


async def post_couples_phase(request: Request) -> Response:
    """Start the next phase of an encounter at tables (``more``: after it is decided)."""
    server = server_of(request)
    data = await decoded(request, CouplesPhaseBody)

    def check(hub: LiveTournament, done: list[dict[str, Any]]) -> None:
        ev = hub.state.events.couples
        if ev is not None and ev.clock != "none":
            for a in done[0]["assigned"]:
                server.tourneys.check_reusable(hub, a["table"])

    async def after(hub: LiveTournament, done: list[dict[str, Any]]) -> dict[str, Any]:
        assigned = done[0]["assigned"]
        specs = [(a["table"], spec) for a in assigned
                 if (spec := couples_spec(hub.state, a["encounter"], a["phase"] - 1,
                                          a["match"])) is not None]
        failed = await set_up(server, hub, specs)
        ev = hub.state.events.couples
        assert ev is not None
        tables = _links(server, request, hub, [a["table"] for a in assigned],
                        ev.clock != "none")
        return {"tables": [{**a, **t} for a, t in zip(assigned, tables, strict=True)],
                "not_ready": failed}

    await _complete(server, request)
    return await run_actions(server, request, [{"do": "couples_phase", **data}], check=check,
                      after=after)


post_couples_result = one_action(CouplesResultBody, "couples_result", source="hand")


post_couples_correction = one_action(CouplesCorrectionBody, "couples_correct")


#: The director's routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/swing", post_swing, methods=["POST"]),
    Route("/swing/rounds", post_swing_round, methods=["POST"]),
    Route("/swing/results", post_swing_result, methods=["POST"]),
    Route("/swing/corrections", post_swing_correction, methods=["POST"]),
    Route("/couples", post_couples, methods=["POST"]),
    Route("/couples/phases", post_couples_phase, methods=["POST"]),
    Route("/couples/results", post_couples_result, methods=["POST"]),
    Route("/couples/corrections", post_couples_correction, methods=["POST"]),
]
