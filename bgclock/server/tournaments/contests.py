"""Swing and couples on the server (issue 13): routes beside the tournament's
(``_tourney``), the same action log and lock, the same tables by number.

A Swing game is a 1-point match at its table (the Swing's rule book and clock
override); a couples match is a match of the event's length and rule book,
phase 2 a consultation (``teams: true``: the preset's team figures).  When a
table's match is over on the clock, ``clock_result`` enters it: for a Swing
game the points the winner scored (``score``, from 0-0) give the result and
the cube (the final ``game_over``/accept/pass made them), for a couples
match the winner and the score.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.core import MatchState
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
from bgclock.server.errors import Refused
from bgclock.server.render.room import events_view
from bgclock.server.tournaments.service import (
    TournamentHub,
    _decoded,
    _hub,
    _run,
    check_names,
    one_action,
)
from bgclock.store import NotFound, TableSpec
from bgclock.tournament import Tournament, swing_game_result

if TYPE_CHECKING:
    from bgclock.server.app import Server
    from bgclock.server.live.hub import TableHub

log = logging.getLogger("bgclock.server")


# ------------------------------------------------------------------ specs

def swing_spec(state: Tournament, game: int) -> TableSpec | None:
    ev = state.events.swing
    assert ev is not None
    if ev.clock == "none":
        return None
    g = ev.games[game]
    return TableSpec(name=f"Table {g.table} · Swing R{ev.swing.round_no}", players=(g.a, g.b),
                     rules=ev.rules, length=1, clock=dict(ev.clock_override))


def couples_spec(state: Tournament, encounter: int, phase: int, match: int) -> TableSpec | None:
    ev = state.events.couples
    assert ev is not None
    if ev.clock == "none":
        return None
    enc = ev.encounters[encounter]
    x, y = enc.encounter().phases[phase][match]
    number = enc.tables[(phase, match)]
    return TableSpec(name=f"Table {number} · {enc.a.name}–{enc.b.name} phase {phase + 1}",
                     players=(x, y), rules=ev.rules, length=ev.length, teams=phase == 1)


def game_result(state: MatchState, winner: int) -> tuple[str, int]:
    """(single/gammon/backgammon, cube) of a 1-point match's only game: the
    points its winner scored are the result's times the cube's; a game lost on
    time is a single at the cube's value (``swing_game_result``)."""
    return swing_game_result(state.score[winner], state.cube_value,
                             lost_on_time=state.stopped_reason == "time_expired")


def _check_spec(spec: TableSpec) -> None:
    """The engine takes the spec's clock (the override's figures)."""
    from bgclock.core import ClockError
    from bgclock.server.live.hub import new_match

    try:
        new_match(spec)
    except (ClockError, TypeError, ValueError) as exc:
        raise Refused(422, "invalid", f"body.clock_override: {exc}") from None


async def set_up(server: Server, hub: TournamentHub,
                 specs: list[tuple[int, TableSpec]]) -> list[dict[str, Any]]:
    """Each spec at its table number: create, re-spec or renew the table
    (as the Main's rounds do); the tables that could not take it now."""
    failed: list[dict[str, Any]] = []
    for number, spec in specs:
        refused = await server.tourneys.seat(hub, number, spec)
        if refused is not None:
            failed.append(refused)
    return failed


def _links(server: Server, request: Request, hub: TournamentHub,
           numbers: list[int], clock: bool) -> list[dict[str, Any]]:
    out = []
    for n in numbers:
        tid = hub.state.table_ids.get(n) if clock else None
        table = server.hub.tables.get(tid) if tid is not None else None
        out.append({"table": n, "table_id": tid,
                    "url": server.table_link(request, table.id) if table is not None else None})
    return out


# ------------------------------------------------------------------ clock results

async def clock_result(server: Server, hub: TournamentHub, number: int, table: TableHub,
                       state: MatchState) -> bool:
    """Enter a Swing game's or a couples match's result from its table's
    clock (the caller holds ``hub.lock``); False when the table holds neither."""
    if state.winner not in ("A", "B"):
        return False
    side = 0 if state.winner == "A" else 1
    action: dict[str, Any] | None = None
    swing = hub.state.events.swing
    couples = hub.state.events.couples
    if swing is not None and number in swing.live_tables():
        i = swing.live_tables()[number]
        g = swing.games[i]
        if (g.a, g.b) == table.row.spec.players:
            result, cube = game_result(state, side)
            action = {"do": "swing_result", "game": i, "winner": (g.a, g.b)[side],
                      "result": result, "cube": cube, "source": "clock"}
    elif couples is not None and number in couples.live_tables():
        e, phase, m = couples.live_tables()[number]
        pair = couples.encounters[e].encounter().phases[phase][m]
        if pair == table.row.spec.players:
            action = {"do": "couples_result", "encounter": e, "phase": phase + 1, "match": m,
                      "winner": pair[side], "source": "clock", "score": list(state.score)}
    if action is None:
        return False
    try:
        await server.tourneys.act(hub, [action], source="server")
    except Refused as exc:
        log.warning("table %d's result was not entered: %s", table.id, exc.message)
    return True


# ------------------------------------------------------------------ HTTP

async def _complete(server: Server, request: Request) -> None:
    """Before a Swing round or a couples phase: seat what a cut-short one left."""
    hub = await _hub(server, request)
    if (await server.store.tournament(hub.id)).closed_ms is None:
        async with hub.lock:
            await server.tourneys.complete(hub)


async def post_swing(server: Server, request: Request) -> Response:
    """Create the Swing: players (ids; default every registered player not
    withdrawn), start_vp, cpp, rules, clock (required/none), clock_override."""
    try:
        data = await _decoded(request, SwingBody)
        from bgclock.core import PRESETS

        rules = data.get("rules", "it-tournament")
        if not isinstance(rules, str) or rules not in PRESETS:
            raise Refused(422, "invalid", f"body.rules: unknown rule book "
                          f"(one of {', '.join(PRESETS)})")
        override = data.get("clock_override", {})
        if isinstance(override, dict) and override:
            _check_spec(TableSpec(players=("A", "B"), rules=rules, length=1,
                                  clock=dict(override)))
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "swing_create", **data}], status=201)


async def post_swing_round(server: Server, request: Request) -> Response:
    """Pair the next Swing round (``seed``: the director's, else drawn and
    logged) and put its games at tables."""
    try:
        data = await _decoded(request, SwingRoundBody)
    except Refused as exc:
        return exc.response()
    if "seed" not in data:
        data["seed"] = random.SystemRandom().randrange(2**53)

    def check(hub: TournamentHub, done: list[dict[str, Any]]) -> None:
        ev = hub.state.events.swing
        if ev is not None and ev.clock != "none":
            for a in done[0]["assigned"]:
                server.tourneys.check_reusable(hub, a["table"])

    async def after(hub: TournamentHub, done: list[dict[str, Any]]) -> dict[str, Any]:
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
    return await _run(server, request, [{"do": "swing_round", **data}], check=check,
                      after=after)


post_swing_result = one_action(SwingResultBody, "swing_result", source="hand")


async def post_swing_correction(server: Server, request: Request) -> Response:
    """Another result for a game of the round under way, or of the last round
    played while the next is not paired (the round is played again)."""
    try:
        data = await _decoded(request, SwingCorrectionBody)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "swing_correct", **data}])


async def post_couples(server: Server, request: Request) -> Response:
    """Create the couples event: couples [{name, players: [id1, id2]}],
    format (knockout/round_robin), length, rules, clock (required/none)."""
    try:
        data = await _decoded(request, CouplesBody)
        from bgclock.core import PRESETS

        rules = data.get("rules", "it-tournament")
        if not isinstance(rules, str) or rules not in PRESETS:
            raise Refused(422, "invalid", f"body.rules: unknown rule book "
                          f"(one of {', '.join(PRESETS)})")
        names = [(f"body.couples[{k}].name", c["name"]) for k, c in enumerate(data["couples"])]
        await check_names(server, request, names, lambda _state: (), what="couple")
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "couples_create", **data}], status=201)


async def post_couples_phase(server: Server, request: Request) -> Response:
    """Start the next phase of an encounter at tables (``more``: after it is decided)."""
    try:
        data = await _decoded(request, CouplesPhaseBody)
    except Refused as exc:
        return exc.response()

    def check(hub: TournamentHub, done: list[dict[str, Any]]) -> None:
        ev = hub.state.events.couples
        if ev is not None and ev.clock != "none":
            for a in done[0]["assigned"]:
                server.tourneys.check_reusable(hub, a["table"])

    async def after(hub: TournamentHub, done: list[dict[str, Any]]) -> dict[str, Any]:
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
    return await _run(server, request, [{"do": "couples_phase", **data}], check=check,
                      after=after)


post_couples_result = one_action(CouplesResultBody, "couples_result", source="hand")


post_couples_correction = one_action(CouplesCorrectionBody, "couples_correct")


async def events_json(request: Request) -> Response:
    """The Swing and couples events for the room display (room token or the
    director's key)."""
    from bgclock.server.edge.limits import LimitError, check_id

    server: Server = request.app.state.server
    try:
        tid = check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        return Refused(404, "not_found", "no such tournament").response()
    if not server.tourneys.room_allowed(request, tid):
        return Refused(403, "forbidden", "this link does not open this room").response()
    try:
        hub = await server.tourneys.get(tid)
    except NotFound as exc:
        return Refused(404, "not_found", str(exc)).response()
    return JSONResponse(events_view(hub.state.events.to_dict(), server_ms=server.clock.now_ms()))


#: The director's routes under ``/api/tournaments/{tournament_id}``.
ROUTES: list[tuple[str, str, Any]] = [
    ("/swing", "POST", post_swing),
    ("/swing/rounds", "POST", post_swing_round),
    ("/swing/results", "POST", post_swing_result),
    ("/swing/corrections", "POST", post_swing_correction),
    ("/couples", "POST", post_couples),
    ("/couples/phases", "POST", post_couples_phase),
    ("/couples/results", "POST", post_couples_result),
    ("/couples/corrections", "POST", post_couples_correction),
]
