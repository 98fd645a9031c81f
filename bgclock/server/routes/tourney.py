"""A tournament's state, players, draw, rounds, results and clashes: the
director's routes under ``/api/tournaments/{tournament_id}``."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import secrets
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bgclock.core import PRESETS
from bgclock.server.context import Server, server_of
from bgclock.server.edge.tourney_bodies import (
    ArriveBody,
    CheckInAllBody,
    CheckInBody,
    CorrectionBody,
    DismissBody,
    DrawBody,
    EntryBody,
    FlightBody,
    ResultBody,
    RevertBody,
    RoundBody,
    SeedingBody,
    SettingsBody,
)
from bgclock.server.errors import ApiError
from bgclock.server.live.refusal import Refused
from bgclock.server.routes.breaks import routes as break_routes
from bgclock.server.routes.common import (
    check_names,
    checked_name,
    decoded,
    json_response,
    one_action,
    players_taken,
    read_csv_text,
    run_actions,
    state_view,
    tournament_hub,
)
from bgclock.server.routes.register import check_link
from bgclock.server.tournaments.flights import room_flights, room_members, room_of
from bgclock.server.tournaments.host import LiveTournament
from bgclock.server.tournaments.service import SLICE
from bgclock.store import NotFound
from bgclock.tournament import ContestError, register_key
from bgclock.tournament._running import MAX_FEDERATION_ID, MAX_PLAYER_NAME, MAX_SEED

#: A CSV of players: at most this many bytes and rows.
MAX_CSV_BYTES = 256 * 1024


MAX_CSV_ROWS = 2048


async def get_state(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return json_response(state_view(server, request, hub))


async def get_actions(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    stored = await server.store.actions(hub.id)
    return json_response({"actions": [s.to_dict() for s in stored]})


def _check_rules(data: Mapping[str, Any]) -> None:
    rounds = data.get("rounds")
    if isinstance(rounds, list):
        for k, r in enumerate(rounds):
            rules = r.get("rules") if isinstance(r, dict) else None
            if rules is not None and (not isinstance(rules, str) or rules not in PRESETS):
                raise ApiError(422, "invalid", f"body.rounds[{k}].rules: unknown rule book "
                              f"(one of {', '.join(PRESETS)})")


async def post_settings(request: Request) -> Response:
    server = server_of(request)
    data = await decoded(request, SettingsBody)
    _check_rules(data)
    return await run_actions(server, request, [{"do": "settings", **data}])


async def post_seeding(request: Request) -> Response:
    """Seeds by rating and groups by club from the players' register (the
    tournament's club's), folded as the ``settings`` they give (explicit ids:
    the log stays the record)."""
    server = server_of(request)
    data = await decoded(request, SeedingBody)
    hub = await tournament_hub(server, request)
    owner = await server.owner(hub.id)
    entries: dict[int, Any] = {}
    for p in hub.state.players:
        if p.register_id is not None and not p.withdrawn:
            with contextlib.suppress(NotFound):
                entries[p.id] = await server.store.register_entry(p.register_id, owner=owner)
    action: dict[str, Any] = {"do": "settings"}
    if "seeds" in data:
        action["seeds"] = hub.state.rating_seeds(
            {pid: e.rating for pid, e in entries.items()}, data["seeds"])
    if data.get("clubs"):
        action["groups"] = hub.state.club_groups(
            {pid: e.club for pid, e in entries.items() if e.club})
    return await run_actions(server, request, [action])


def _register(data: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    """A CSV row's player (CSV is not JSON: its fields are checked here)."""
    checked_name(f"{where}name", data.get("name"), MAX_PLAYER_NAME)
    if data.get("federation_id") is not None:
        checked_name(f"{where}federation_id", data["federation_id"], MAX_FEDERATION_ID)
    return {"do": "register", **data}


async def _entered_elsewhere(server: Server, hub: LiveTournament,
                             rows: list[tuple[str, dict[str, Any]]]) -> None:
    """A person is one entry among a room's events (docs/tournament.md, "A
    person is one entry"): refuse (409 ``already_entered``, naming the row,
    the person and the other event) an entry whose register entry, or
    federation id, is entered in another open event of the same room."""
    flight = hub.state.flight
    if flight is None:
        return
    room = room_of(hub)
    assert room is not None
    for other, name in await room_members(server.tourneys, room):
        if other.id == hub.id:
            continue
        for p in other.state.players:
            if p.deleted or p.withdrawn:
                continue
            for where, row in rows:
                same = ((row.get("register_id") is not None
                         and row.get("register_id") == p.register_id)
                        or (row.get("federation_id") is not None
                            and row.get("federation_id") == p.federation_id))
                if same:
                    raise ApiError(409, "already_entered", f"{where}{row['name']} is already "
                                   f"entered in {name} (same room): confirm to enter them "
                                   "in both", {"name": row["name"], "event": name,
                                               "tournament": other.id, "player": p.id})


async def post_player(request: Request) -> Response:
    """An entry; a person already entered in another event of the room is
    refused (``already_entered``) unless the body says ``confirm``."""
    server = server_of(request)
    data = await decoded(request, EntryBody)
    confirm = bool(data.pop("confirm", False))
    action = {"do": "register", **data}
    # an entry of the tournament's club's register (another's: as a missing one)
    await check_link(server, await server.owner(request.path_params["tournament_id"]), action)
    await check_names(server, request, [("body.name", action["name"])], players_taken)
    hub = await tournament_hub(server, request)
    if not confirm:
        await _entered_elsewhere(server, hub, [("", action)])
    response = await run_actions(server, request, [action], status=201)
    started = await server.tourneys.start_jackpot(hub)  # its last place: it starts
    if started is None:
        return response
    body = json.loads(bytes(response.body))
    return json_response({**body, "jackpot": {"started": True,
                                              "tables": _tables_of(server, request, hub, started)},
                          "state": state_view(server, request, hub)}, status_code=201)


async def delete_player(request: Request) -> Response:
    """An entry made by mistake, deleted while the event is not drawn."""
    server = server_of(request)
    pid = request.path_params["player_id"]
    return await run_actions(server, request, [{"do": "delete_entry", "player": pid}])


async def _link_rows(server: Server, owner: str | None,
                     actions: list[dict[str, Any]]) -> list[str]:
    """Each CSV row linked to its entry in the register of ``owner`` (the
    tournament's club's): the one of its federation id, else the one entry
    of its name's key; the names found in neither."""
    unlinked = []
    for k, a in enumerate(actions):
        if k and k % SLICE == 0:
            await asyncio.sleep(0)
        fed = a.get("federation_id")
        found = (await server.store.register_find(owner=owner, federation_id=fed)
                 if fed is not None else
                 await server.store.register_find(owner=owner, name_key=register_key(a["name"])))
        if len(found) == 1:
            a["register_id"] = found[0].id
        else:
            unlinked.append(a["name"])
    return unlinked


async def post_players_csv(request: Request) -> Response:
    """``name[,federation_id]`` per line; a first line ``name,...`` is a header.
    All rows or none."""
    server = server_of(request)
    text = await read_csv_text(request, MAX_CSV_BYTES)
    reader = csv.reader(io.StringIO(text))
    try:
        rows = [r for r in reader if any(c.strip() for c in r)]
    except csv.Error as exc:  # a field over csv's limit (131,072 characters), a NUL
        words = (f"a field is longer than {csv.field_size_limit()} characters (a name has "
                 f"at most {MAX_PLAYER_NAME})" if "field limit" in str(exc)
                 else f"not a CSV row name[,federation_id] ({exc})")
        raise ApiError(422, "invalid", f"line {reader.line_num}: body: {words}") from None
    if rows and rows[0] and rows[0][0].strip().lower() in ("name", "nome"):
        rows, offset = rows[1:], 2
    else:
        offset = 1
    if not rows:
        raise ApiError(422, "invalid", "body: no players in the CSV")
    if len(rows) > MAX_CSV_ROWS:
        raise ApiError(422, "invalid", f"body: at most {MAX_CSV_ROWS} rows")
    actions = []
    for k, row in enumerate(rows):
        if k and k % SLICE == 0:
            await asyncio.sleep(0)  # the clocks' presses go first
        where = f"line {k + offset}: "
        if len(row) > 2:
            raise ApiError(422, "invalid", f"{where}columns are name[,federation_id]")
        fed = row[1].strip() if len(row) > 1 and row[1].strip() else None
        data: dict[str, Any] = {"name": row[0].strip()}
        if fed is not None:
            data["federation_id"] = fed
        try:
            action = _register(data)
        except ApiError as exc:
            exc.message = where + exc.message
            raise
        actions.append({**action, "line": k + offset})
    names = [(f"line {a['line']}: body.name", a["name"]) for a in actions]
    await check_names(server, request, names, players_taken)
    hub = await tournament_hub(server, request)
    unlinked = await _link_rows(server, await server.owner(hub.id), actions)
    linked = [a["register_id"] for a in actions if "register_id" in a]
    if len(set(linked)) != len(linked):
        raise ApiError(422, "invalid", "body: two rows are the same register entry")
    if request.query_params.get("confirm") not in ("true", "1"):
        await _entered_elsewhere(server, hub, [(f"line {a['line']}: ", a) for a in actions])

    async def said(_hub: LiveTournament, _done: list[dict[str, Any]]) -> dict[str, Any]:
        # said, so the director adds them to the register to rate them
        return {"unlinked": unlinked}

    return await run_actions(server, request, actions, status=201, after=said)


post_check_in = one_action(CheckInBody, "check_in", path={"player": "player_id"})


async def post_check_in_all(request: Request) -> Response:
    """Several players present at once (the desk's "all present"): one
    composite action, all or none (a player who does not exist, or has
    withdrawn, refuses the whole)."""
    server = server_of(request)
    data = await decoded(request, CheckInAllBody)
    players = list(data["players"])
    if len(set(players)) != len(players):
        raise ApiError(422, "invalid", "body.players: the same player twice")
    return await run_actions(server, request, [{"do": "check_in", "player": p, "checked_in": True}
                                               for p in players])


async def post_withdraw(request: Request) -> Response:
    server = server_of(request)
    pid = request.path_params["player_id"]
    return await run_actions(server, request, [{"do": "withdraw", "player": pid}])


async def post_reinstate(request: Request) -> Response:
    """Undo a withdrawal: the matches it decided are undecided again (refused
    once the winner's next match has started or the consolation is drawn)."""
    server = server_of(request)
    pid = request.path_params["player_id"]
    return await run_actions(server, request, [{"do": "reinstate", "player": pid}])


async def post_reenter(request: Request) -> Response:
    """A player knocked out enters again (``_jackpot``): the Main's next open
    late slot (a More Swiss: its next round at 0-0) and one more entry fee,
    in one action, until the director's deadline (the server's time)."""
    server = server_of(request)
    pid = request.path_params["player_id"]
    return await run_actions(server, request, [{"do": "reenter", "player": pid,
                                                "at_ms": server.clock.now_ms()}])


async def post_draw(request: Request) -> Response:
    """Make the draw with the director's ``seed`` (the body's, else one a
    ``settings`` action gave), else one drawn here from a cryptographic
    source: the draw action carries it, so the log tells how it was drawn."""
    server = server_of(request)
    data = await decoded(request, DrawBody)
    hub = await tournament_hub(server, request)
    if "seed" in data:
        seed = data["seed"]
    elif hub.state.seed_given:
        seed = hub.state.seed
    else:
        seed = secrets.randbelow(MAX_SEED + 1)
    return await run_actions(server, request, [{"do": "draw", "seed": seed}])


async def post_close_late(request: Request) -> Response:
    server = server_of(request)
    return await run_actions(server, request, [{"do": "close_late"}])


async def post_arrive(request: Request) -> Response:
    """A late arrival: the player takes the next late slot (or stops the
    count at a match).  Once the first round has started, the match the
    arrival completes is seated at once, or queued for the room's next free
    table when the room is full: the answer's ``arrival`` says which
    (issue 32 §5); the arrival stands even when the seating is refused,
    which the answer names (``not_seated``)."""
    server = server_of(request)
    data = await decoded(request, ArriveBody)
    arrived = await run_actions(server, request, [{"do": "arrive", **data,
                                                   "at_ms": server.clock.now_ms()}])
    hub = await tournament_hub(server, request)
    key = _arrival_match(hub.state, int(data["player"]))
    if key is None:
        return arrived
    try:
        started = await _start_round(server, request, {"event": "main", "round": 0})
    except ApiError as exc:
        out = json.loads(bytes(arrived.body))
        out["not_seated"] = {"error": exc.code, "message": exc.message}
        return json_response(out)
    out = json.loads(bytes(started.body))
    waits = key in hub.state.waiting_matches()
    out["arrival"] = {"event": key[0], "round": key[1], "match": key[2],
                      "table": hub.state.tables.get(key), "waiting": waits}
    return json_response(out)


def _arrival_match(state: Any, player: int) -> tuple[str, int, int] | None:
    """The Main's first-round match a late arrival just completed, when
    that round has started at tables (else the director starts it);
    None: nothing to seat."""
    main = state.main
    if main is None or state.weekly is not None:
        return None
    if not any(k[0] == "main" and k[1] == 0 for k in state.tables):
        return None
    name = state.player(player).name
    for i in state.ready("main", 0):
        m = main.bracket.rounds[0][i]
        if name in (m.a, m.b):
            return ("main", 0, i)
    return None


async def post_round(request: Request) -> Response:
    """Start a round: its ready matches get table numbers and clock tables.
    A round start cut short (the server stopped between its writes) is
    completed first; a repeated round start with nothing left to assign
    answers what it completed."""
    server = server_of(request)
    data = await decoded(request, RoundBody)
    return await _start_round(server, request, data)


async def _start_round(server: Server, request: Request, data: dict[str, Any]) -> Response:
    """``post_round``'s work, also a late arrival's seating (``post_arrive``)."""
    tourneys = server.tourneys

    def check(hub: LiveTournament, done: list[dict[str, Any]]) -> None:
        # every table the round needs must take a new match
        for a in done[0]["assigned"]:
            if tourneys.table_spec(hub.state, a["event"], a["round"], a["match"],
                                   a["table"]) is not None:
                tourneys.check_reusable(hub, a["table"])

    async def after(hub: LiveTournament, done: list[dict[str, Any]]) -> dict[str, Any]:
        failed = await tourneys.set_up(hub, done[0]["assigned"])
        return {"tables": _tables_of(server, request, hub, done[0]["assigned"]),
                "not_ready": failed}

    hub = await tournament_hub(server, request)
    if (await server.store.tournament(hub.id)).closed_ms is not None:
        raise ApiError(409, "closed", "this tournament is closed")
    await tourneys.pair_next(hub, data)  # a weekly format's round: paired as it starts
    async with hub.lock:
        numbers, failed = await tourneys.complete(hub)
    if hub.state.flight is not None:  # the room's numbers are shared (``tournaments.flights``)
        out = await tourneys.flights.round_start(hub, data)
        return json_response({
            "done": out["done"], "tables": _tables_of(server, request, hub, out["assigned"]),
            "not_ready": out["not_ready"], "waiting": out["waiting"],
            "seated_elsewhere": out["seated_elsewhere"],
            "state": state_view(server, request, hub)})
    if numbers or failed:
        event, r = data.get("event", "main"), data.get("round")
        try:
            nothing_new = isinstance(r, int) and not hub.state.ready(event, r)
        except ContestError:
            nothing_new = False  # the action itself names what is wrong
        if nothing_new:
            completed = [{"event": k[0], "round": k[1], "match": k[2], "table": n}
                         for n, k in sorted(hub.state.live_tables().items())
                         if k[0] == event and k[1] == r]
            return json_response({"done": [], "completed": numbers,
                                 "tables": _tables_of(server, request, hub, completed),
                                 "not_ready": failed,
                                 "state": state_view(server, request, hub)})
    return await run_actions(server, request, [{"do": "start_round", **data}], check=check,
                      after=after)


def _tables_of(server: Server, request: Request, hub: LiveTournament,
               assigned: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for a in assigned:
        tid = hub.state.table_ids.get(a["table"])
        table = server.hub.tables.get(tid) if tid is not None else None
        settings = hub.state.settings_for(a["round"])
        out.append({**a, "clock": settings.clock, "table_id": tid if settings.clock != "none"
                    else None,
                    "url": server.table_link(request, table.id) if table is not None
                    and settings.clock != "none" else None})
    return out


async def post_result(request: Request) -> Response:
    """A result by hand: the match has one result, so the table holding it
    is closed (``TableRunner.close_match``: its clock stopped, its pages told
    who won, no more presses).  While that clock runs, the result is refused
    with ``clock_running`` unless the body says ``stop_clock`` (the director
    confirmed).  A table that cannot be closed now is named in the answer
    (``not_closed``); the result stands, and a clock result that arrives
    after it and disagrees is a clash for the director."""
    server = server_of(request)
    data = await decoded(request, ResultBody)
    stop = bool(data.pop("stop_clock", False))
    hub = await tournament_hub(server, request)
    key = (str(data.get("event", "main")), int(data["round"]), int(data["match"]))
    table = server.tourneys.desk.table_of(hub, key)
    if table is not None:
        await server.hub.ready(table.id)  # its clock is read: folded first
    if table is not None and table.match.expires_at() is not None and not stop:
        number = hub.state.tables[key]
        raise ApiError(409, "clock_running", f"table {number}'s clock is running: "
                       "confirm to stop it and enter the result", {"table": number})

    async def close(_hub: LiveTournament, _done: list[dict[str, Any]]) -> dict[str, Any]:
        if table is None:
            return {}
        players = table.row.spec.players
        side = "A" if data["winner"] == players[0] else "B"
        score = data.get("score")
        try:
            await table.close_match(side, str(data["winner"]),
                                    None if score is None else list(score))
        except Refused as exc:
            return {"not_closed": {"table_id": table.id, "error": exc.code,
                                   "message": exc.message}}
        return {"closed": table.id}

    return await run_actions(server, request, [{"do": "result", **data, "source": "hand"}],
                             after=close)


post_correction = one_action(CorrectionBody, "correct")


post_revert = one_action(RevertBody, "revert")


#: The director has seen a clash between a table's result and the one held
#: (corrected the match, or kept it): it leaves the alerts.
post_dismiss_clash = one_action(DismissBody, "dismiss_clash", path={"clash": "clash"})


async def get_field(request: Request) -> Response:
    """A Swiss's or More Swiss's field (records, who is out, who can still
    win), its standings and, with ``?round=N`` (1-based), that round's
    pairing explained."""
    server = server_of(request)
    hub = await tournament_hub(server, request)
    weekly = hub.state.weekly
    if weekly is None:
        raise ApiError(409, "not_weekly", "this event is not a weekly format, or not drawn")
    out = weekly.to_dict(hub.state.withdrawn)
    given = request.query_params.get("round")
    if given is not None:
        if not given.isdigit() or not 1 <= int(given) <= len(weekly.bracket.rounds):
            raise ApiError(422, "invalid", f"round: must be a paired round, 1 to "
                           f"{len(weekly.bracket.rounds)}")
        out["reasons"] = weekly.reasons(int(given) - 1)
    return json_response(out)


async def post_flight(request: Request) -> Response:
    """The event's room (shared table numbers), precedence and the room's
    table count; ``room``: null takes the event out of its room."""
    server = server_of(request)
    data = await decoded(request, FlightBody)
    data.setdefault("room", None)
    return await run_actions(server, request, [{"do": "flight", **data}])


async def get_flight(request: Request) -> Response:
    """Every event of this event's room by name: its matches at tables and
    its waiting matches (``flight``: null outside a room)."""
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return json_response({"flight": await room_flights(server.tourneys, hub)})


#: The director's routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/state", get_state, methods=["GET"]),
    Route("/actions", get_actions, methods=["GET"]),
    Route("/settings", post_settings, methods=["POST"]),
    Route("/seeding", post_seeding, methods=["POST"]),
    Route("/players", post_player, methods=["POST"]),
    Route("/players.csv", post_players_csv, methods=["POST"]),
    Route("/players/check-in", post_check_in_all, methods=["POST"]),
    Route("/players/{player_id:id}", delete_player, methods=["DELETE"]),
    Route("/players/{player_id:id}/check-in", post_check_in, methods=["POST"]),
    Route("/players/{player_id:id}/withdraw", post_withdraw, methods=["POST"]),
    Route("/players/{player_id:id}/reinstate", post_reinstate, methods=["POST"]),
    Route("/players/{player_id:id}/reenter", post_reenter, methods=["POST"]),
    Route("/draw", post_draw, methods=["POST"]),
    Route("/late/arrive", post_arrive, methods=["POST"]),
    Route("/late/close", post_close_late, methods=["POST"]),
    Route("/rounds", post_round, methods=["POST"]),
    Route("/field", get_field, methods=["GET"]),
    Route("/flight", post_flight, methods=["POST"]),
    Route("/flight", get_flight, methods=["GET"]),
    Route("/results", post_result, methods=["POST"]),
    Route("/corrections", post_correction, methods=["POST"]),
    Route("/results/revert", post_revert, methods=["POST"]),
    Route("/clashes/{clash:id}/dismiss", post_dismiss_clash, methods=["POST"]),
    # breaks at a match without a clock, a missing score sheet (issue 38)
    *break_routes,
]
