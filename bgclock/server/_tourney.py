"""The tournament on the server: players, the draw, rounds at tables, results.

Theory of operation
-------------------
Each tournament has an append-only log of director actions (the store's
``tournament_actions``); its state is their fold by the pure
``bgclock.tournament.Tournament``.  The server folds a tournament's log the
first time it is asked for it (so a restart brings the state back from the
log) and keeps the folded state in memory.

An action is decided on a copy (``Tournament.after``): a refused one is
answered 422 (``InvalidContest``, the field named) or 409 (``IllegalContest``)
and nothing is stored or changed; an accepted one is stored, then swapped in.
One lock per tournament keeps its actions in order.

Rounds at tables: a match's table *number* maps to one clock table for the
whole day (its link and token never change): the first time a number is used
its table is created (``bind_table`` records it in the log); later rounds
re-spec it, by an edit when it has not started, else by the table's *next
match* (``TableHub.renew``: the finished match's log is archived and a fresh
match starts on the same id).  Clock policy ``none`` sets up no clock table.

Results: when a table's match is over on the clock (``match_over`` with a
winner, by a command or by a flag at its expiry), ``on_table_over`` enters the
result for the match that table holds (source ``clock``); the director may
enter one by hand or correct one.
"""

from __future__ import annotations

import asyncio
import csv
import hmac
import io
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.core import PRESETS, MatchState
from bgclock.store import NotFound, StoredAction, TableSpec
from bgclock.tournament import ContestError, InvalidContest, Tournament
from bgclock.tournament._running import MAX_FEDERATION_ID, MAX_PLAYER_NAME

from ._desk import ROUTES as DESK_ROUTES
from ._desk import LateDesk, late_view
from ._limits import BodyTooLarge, LimitError, check_id, check_name, read_bounded
from ._protocol import ProtocolError
from ._schema import BodyError, decode_body
from ._tourney_bodies import (
    ArriveBody,
    CheckInBody,
    CorrectionBody,
    DrawBody,
    PlayerBody,
    ResultBody,
    RoundBody,
    SettingsBody,
    choices_of,
    fields_of,
)

if TYPE_CHECKING:
    from ._hub import TableHub
    from .app import Server

log = logging.getLogger("bgclock.server")
T = TypeVar("T", bound=msgspec.Struct)

#: A CSV of players: at most this many bytes and rows.
MAX_CSV_BYTES = 256 * 1024
MAX_CSV_ROWS = 2048


class Refused(Exception):
    """A request answered with ``status`` and nothing changed."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        return JSONResponse({"error": self.code, "message": self.message},
                            status_code=self.status)


def _refusal(exc: ContestError) -> Refused:
    if isinstance(exc, InvalidContest):
        return Refused(422, "invalid", f"body.{exc}")
    return Refused(409, "illegal", str(exc))


class TournamentHub:
    """One tournament's folded state and its lock."""

    def __init__(self, tournament_id: int, state: Tournament) -> None:
        self.id = tournament_id
        self.state = state
        self.lock = asyncio.Lock()


class Tourneys:
    """Every tournament the server has folded so far."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.hubs: dict[int, TournamentHub] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        #: Results from the clocks being entered (kept so none is collected midway).
        self._pending: set[asyncio.Task[None]] = set()
        #: Late counts kept by the server, late starts sent to the clocks.
        self.desk = LateDesk(self)

    async def get(self, tournament_id: int) -> TournamentHub:
        """The tournament's state (folded from its log the first time); ``NotFound``."""
        hub = self.hubs.get(tournament_id)
        if hub is not None:
            return hub
        lock = self._loading.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            hub = self.hubs.get(tournament_id)
            if hub is None:
                await self.server.store.tournament(tournament_id)  # NotFound
                stored = await self.server.store.actions(tournament_id)
                hub = TournamentHub(tournament_id,
                                    Tournament.fold([s.action for s in stored]))
                self.hubs[tournament_id] = hub
                self.desk.arm(hub)
        return hub

    async def resume(self) -> None:
        """At start: fold the open tournaments that have late arrivals at a
        match, so their counts and late starts go on without a reader."""
        for row in await self.server.store.tournaments():
            if row.closed_ms is not None:
                continue
            stored = await self.server.store.actions(row.id)
            if any(s.action.get("do") == "absent" for s in stored):
                await self.get(row.id)

    async def act(self, hub: TournamentHub, actions: list[dict[str, Any]], *,
                  source: str = "director") -> list[dict[str, Any]]:
        """Decide ``actions`` in order, all or none; store them; swap the
        state in.  The caller holds ``hub.lock``."""
        state = hub.state
        done = []
        clean = [{x: y for x, y in a.items() if x != "line"} for a in actions]
        for action, decided in zip(actions, clean, strict=True):
            try:
                state, did = state.after(decided)
            except ContestError as exc:
                refused = _refusal(exc)
                if len(actions) > 1 and "line" in action:
                    refused.message = f"line {action['line']}: {refused.message}"
                raise refused from None
            done.append(did)
        now = self.server.clock.now_ms()
        first = hub.state.count + 1
        await self.server.store.append_actions([
            StoredAction(tournament_id=hub.id, n=first + k, at_ms=now,
                         action=a, source=source)
            for k, a in enumerate(clean)])
        hub.state = state
        for action, did in zip(clean, done, strict=True):
            if action["do"] == "draw":
                log.info("tournament %d: the draw is made with seed %d", hub.id, did["seed"])
        self.announce(hub)
        self.desk.after(hub, clean)
        return done

    def announce(self, hub: TournamentHub) -> None:
        """Tell the directors' dashboards the tournament changed."""
        from ._protocol import dumps

        text = dumps({"type": "tournament", "tournament": hub.id,
                      "actions": hub.state.count})
        for director in list(self.server.hub.directors):
            director.send(text)

    # ------------------------------------------------------------ tables

    @staticmethod
    def table_spec(state: Tournament, event: str, r: int, i: int,
                   number: int) -> TableSpec | None:
        """The clock table's spec for a match (None: its round keeps no clock)."""
        m = state.bracket(event).rounds[r][i]
        settings = state.settings_for(r)
        if settings.clock == "none" or m.a is None or m.b is None:
            return None
        label = "Main" if event == "main" else "Consolation"
        return TableSpec(name=f"Table {number} · {label} R{r + 1}", players=(m.a, m.b),
                         rules=settings.rules, length=settings.length)

    def check_reusable(self, hub: TournamentHub, number: int) -> None:
        """Refuse (409) when table ``number``'s clock table cannot take a new match."""
        tid = hub.state.table_ids.get(number)
        table = self.server.hub.tables.get(tid) if tid is not None else None
        if table is None or table.closed:
            return  # a new table will be made
        if table.quarantined is not None:
            raise Refused(409, "quarantined", f"table {number}'s log cannot be replayed")
        if table.match.expires_at() is not None:
            raise Refused(409, "running", f"table {number}'s clock is still running: "
                          "stop it or finish its match first")

    async def seat(self, hub: TournamentHub, number: int,
                   spec: TableSpec) -> dict[str, Any] | None:
        """A match at table ``number``: its clock table is made the first time
        (and bound to the number), re-specced before play, or given its next
        match.  None, or why it could not take the match now."""
        server = self.server
        tid = hub.state.table_ids.get(number)
        table = server.hub.tables.get(tid) if tid is not None else None
        if table is None or table.closed:
            row = await server.store.create_table(hub.id, spec, server.clock.now_ms())
            server.hub.add(row)
            await self.act(hub, [{"do": "bind_table", "table": number, "table_id": row.id}],
                           source="server")
            return None
        try:
            if table.seq == 0:
                await table.edit(spec)
                table.broadcast(table.table_message())
                table.broadcast(table.snapshot_message())
            else:
                await table.renew(spec)
        except ProtocolError as exc:
            log.warning("table %d is not ready for its match: %s", table.id, exc.message)
            return {"table": number, "table_id": table.id, "error": exc.code,
                    "message": exc.message, "spec": spec.to_dict()}
        return None

    async def set_up(self, hub: TournamentHub,
                     assigned: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each assigned match at its table: create, re-spec or renew the table.
        The tables that could not take their match now (a command came in
        meanwhile), with why: the director renews them (``next-match``)."""
        failed: list[dict[str, Any]] = []
        for a in assigned:
            number = a["table"]
            spec = self.table_spec(hub.state, a["event"], a["round"], a["match"], number)
            if spec is None:
                continue
            refused = await self.seat(hub, number, spec)
            if refused is not None:
                failed.append(refused)
        return failed

    # ------------------------------------------------------------ results

    def on_table_over(self, table: TableHub, state: MatchState) -> None:
        """A table's match ended on the clock: its result goes into the draw."""
        task = asyncio.get_running_loop().create_task(self._clock_result(table, state))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _clock_result(self, table: TableHub, state: MatchState) -> None:
        try:
            hub = await self.get(table.row.tournament_id)
        except NotFound:
            return
        async with hub.lock:
            number = next((n for n, t in hub.state.table_ids.items() if t == table.id), None)
            found = hub.state.at_table(number) if number is not None else None
            if found is None and number is not None:  # a Swing or couples table (issue 13)
                from ._contests import clock_result

                await clock_result(self.server, hub, number, table, state)
                return
            if found is None or state.winner not in ("A", "B"):
                return
            (event, r, i), m = found
            if (m.a, m.b) != table.row.spec.players:
                return  # the table holds another match than the draw's
            winner = m.a if state.winner == "A" else m.b
            try:
                await self.act(hub, [{"do": "result", "event": event, "round": r, "match": i,
                                      "winner": winner, "source": "clock",
                                      "score": list(state.score)}], source="server")
            except Refused as exc:
                log.warning("table %d's result was not entered: %s", table.id, exc.message)

    def room_token(self, tournament_id: int) -> str:
        """The read-only token of a tournament's room display."""
        assert self.server.tokens is not None
        return self.server.tokens.room_token(tournament_id)

    def room_allowed(self, request: Request, tournament_id: int) -> bool:
        token = request.query_params.get("token")
        return (token is not None and hmac.compare_digest(token, self.room_token(tournament_id))
                ) or self.server.is_director(request)


# -------------------------------------------------------------------- HTTP

async def _decoded(request: Request, into: type[T]) -> dict[str, Any]:
    """A body read bounded, depth-checked, decoded into its declaration
    (``_tourney_bodies``) and given as the dict the fold reads."""
    from .app import _raw_body

    try:
        raw = await _raw_body(request)
    except BodyTooLarge as exc:
        raise Refused(413, "too_large", str(exc)) from None
    except ValueError as exc:
        raise Refused(400, "bad_request", str(exc)) from None
    try:
        body = decode_body(raw, into, choices=choices_of(into))
    except BodyError as exc:
        raise Refused(exc.status, "invalid" if exc.status == 422 else "bad_request",
                      str(exc)) from None
    return fields_of(body)


def _checked_name(field: str, value: Any, limit: int) -> None:
    try:
        check_name(f"body.{field}", value, limit=limit, empty=False)
    except LimitError as exc:
        raise Refused(422, "invalid", str(exc)) from None


def _path_id(request: Request, name: str) -> int:
    try:
        return check_id(name, str(request.path_params[name]))
    except LimitError:
        raise NotFound(f"no such {name.removesuffix('_id')}") from None


async def _hub(server: Server, request: Request) -> TournamentHub:
    return await server.tourneys.get(_path_id(request, "tournament_id"))


def _state(server: Server, request: Request, hub: TournamentHub) -> dict[str, Any]:
    room = server.tourneys.room_token(hub.id)
    return {**hub.state.to_dict(), "late": late_view(server, hub), "tournament_id": hub.id,
            "room_url": f"{server.base_url(request)}/room/{hub.id}?token={room}"}


def one_action(body: type[Any], do: str, **extra: Any) -> Callable[
        [Server, Request], Awaitable[Response]]:
    """The route of one action: its body decoded as ``body`` (its
    declaration), then folded as ``do`` with ``extra`` fields."""

    async def handler(server: Server, request: Request) -> Response:
        try:
            data = await _decoded(request, body)
        except Refused as exc:
            return exc.response()
        return await _run(server, request, [{"do": do, **data, **extra}])

    handler.__name__ = f"post_{do}"
    return handler


async def _run(server: Server, request: Request, actions: list[dict[str, Any]], *,
               status: int = 200, after: Any = None) -> Response:
    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    if row.closed_ms is not None:
        return Refused(409, "closed", "this tournament is closed").response()
    try:
        async with hub.lock:
            if after is not None:
                await after(hub, None)
            done = await server.tourneys.act(hub, actions)
            extra: dict[str, Any] = {}
            if after is not None:
                extra = await after(hub, done) or {}
    except Refused as exc:
        return exc.response()
    return JSONResponse({"done": done, **extra, "state": _state(server, request, hub)},
                        status_code=status)


async def get_state(server: Server, request: Request) -> Response:
    hub = await _hub(server, request)
    return JSONResponse(_state(server, request, hub))


async def get_actions(server: Server, request: Request) -> Response:
    hub = await _hub(server, request)
    stored = await server.store.actions(hub.id)
    return JSONResponse({"actions": [s.to_dict() for s in stored]})


def _check_rules(data: Mapping[str, Any]) -> None:
    rounds = data.get("rounds")
    if isinstance(rounds, list):
        for k, r in enumerate(rounds):
            rules = r.get("rules") if isinstance(r, dict) else None
            if rules is not None and (not isinstance(rules, str) or rules not in PRESETS):
                raise Refused(422, "invalid", f"body.rounds[{k}].rules: unknown rule book "
                              f"(one of {', '.join(PRESETS)})")


async def post_settings(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, SettingsBody)
        _check_rules(data)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "settings", **data}])


def _register(data: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    """A CSV row's player (CSV is not JSON: its fields are checked here)."""
    _checked_name(f"{where}name", data.get("name"), MAX_PLAYER_NAME)
    if data.get("federation_id") is not None:
        _checked_name(f"{where}federation_id", data["federation_id"], MAX_FEDERATION_ID)
    return {"do": "register", **data}


async def post_player(server: Server, request: Request) -> Response:
    try:
        action = {"do": "register", **await _decoded(request, PlayerBody)}
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [action], status=201)


async def post_players_csv(server: Server, request: Request) -> Response:
    """``name[,federation_id]`` per line; a first line ``name,...`` is a header.
    All rows or none."""
    try:
        raw = await read_bounded(request, MAX_CSV_BYTES)
    except BodyTooLarge as exc:
        return Refused(413, "too_large", str(exc)).response()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Refused(422, "invalid", "body: must be UTF-8 text").response()
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if rows and rows[0] and rows[0][0].strip().lower() in ("name", "nome"):
        rows, offset = rows[1:], 2
    else:
        offset = 1
    if not rows:
        return Refused(422, "invalid", "body: no players in the CSV").response()
    if len(rows) > MAX_CSV_ROWS:
        return Refused(422, "invalid", f"body: at most {MAX_CSV_ROWS} rows").response()
    actions = []
    try:
        for k, row in enumerate(rows):
            where = f"line {k + offset}: "
            if len(row) > 2:
                raise Refused(422, "invalid", f"{where}columns are name[,federation_id]")
            fed = row[1].strip() if len(row) > 1 and row[1].strip() else None
            data: dict[str, Any] = {"name": row[0].strip()}
            if fed is not None:
                data["federation_id"] = fed
            try:
                action = _register(data)
            except Refused as exc:
                exc.message = where + exc.message
                raise
            actions.append({**action, "line": k + offset})
    except Refused as exc:
        return exc.response()
    return await _run(server, request, actions, status=201)


async def post_check_in(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, CheckInBody)
    except Refused as exc:
        return exc.response()
    pid = _path_id(request, "player_id")
    return await _run(server, request, [{"do": "check_in", "player": pid, **data}])


async def post_withdraw(server: Server, request: Request) -> Response:
    pid = _path_id(request, "player_id")
    return await _run(server, request, [{"do": "withdraw", "player": pid}])


async def post_draw(server: Server, request: Request) -> Response:
    """Make the draw; ``seed`` (optional) is the director's, else the settings'."""
    try:
        data = await _decoded(request, DrawBody)
    except Refused as exc:
        return exc.response()
    actions: list[dict[str, Any]] = []
    if "seed" in data:
        actions.append({"do": "settings", "seed": data["seed"]})
    return await _run(server, request, [*actions, {"do": "draw"}])


async def post_close_late(server: Server, request: Request) -> Response:
    return await _run(server, request, [{"do": "close_late"}])


async def post_arrive(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, ArriveBody)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "arrive", **data,
                                         "at_ms": server.clock.now_ms()}])


async def post_round(server: Server, request: Request) -> Response:
    """Start a round: its ready matches get table numbers and clock tables."""
    try:
        data = await _decoded(request, RoundBody)
    except Refused as exc:
        return exc.response()
    tourneys = server.tourneys

    async def after(hub: TournamentHub, done: list[dict[str, Any]] | None) -> dict[str, Any]:
        if done is None:  # before: every table it needs must take a new match
            try:
                trial, did = hub.state.after({"do": "start_round", **data})
            except ContestError as exc:
                raise _refusal(exc) from None
            for a in did["assigned"]:
                if tourneys.table_spec(trial, a["event"], a["round"], a["match"],
                                       a["table"]) is not None:
                    tourneys.check_reusable(hub, a["table"])
            return {}
        failed = await tourneys.set_up(hub, done[0]["assigned"])
        return {"tables": _tables_of(server, request, hub, done[0]["assigned"]),
                "not_ready": failed}

    return await _run(server, request, [{"do": "start_round", **data}], after=after)


def _tables_of(server: Server, request: Request, hub: TournamentHub,
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


post_result = one_action(ResultBody, "result", source="hand")


post_correction = one_action(CorrectionBody, "correct")


# ------------------------------------------------------------ the room display

async def room_json(request: Request) -> Response:
    """The draw sheet and every table's match live, for the room display
    (the room token or the director's key)."""
    server: Server = request.app.state.server
    try:
        tid = check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        return Refused(404, "not_found", "no such tournament").response()
    if not server.tourneys.room_allowed(request, tid):
        return Refused(403, "forbidden", "this link does not open this room").response()
    try:
        hub = await server.tourneys.get(tid)
        row = await server.store.tournament(tid)
    except NotFound as exc:
        return Refused(404, "not_found", str(exc)).response()
    state = hub.state.to_dict()
    live = []
    for m in state["matches"]:
        table = server.hub.tables.get(m["table_id"]) if m["table_id"] is not None else None
        clock = None
        if table is not None and m["winner"] is None and table.row.spec.players == (m["a"],
                                                                                     m["b"]):
            s = table.state_now()
            clock = {"phase": s.phase, "score": list(s.score), "on_turn": s.on_turn,
                     "reserve_ms": [s.A.reserve_ms, s.B.reserve_ms],
                     "length": s.length, "at_ms": s.at_ms,
                     # a flag worked out while the timekeeper is away: no result yet
                     "provisional": table.provisional is not None}
        live.append({**m, "clock": clock})
    return JSONResponse({"tournament": {"id": tid, "name": row.name},
                         "main": state["main"], "consolation": state["consolation"],
                         "matches": live, "server_ms": server.clock.now_ms(),
                         "late": late_view(server, hub), "committee": state["committee"],
                         "appeals": state["appeals"]})


async def room_page(request: Request) -> Response:
    from starlette.responses import HTMLResponse

    from bgclock import web

    server: Server = request.app.state.server
    try:
        tid = check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        return Refused(404, "not_found", "no such tournament").response()
    if not server.tourneys.room_allowed(request, tid):
        return Refused(403, "forbidden", "this link does not open this room").response()
    return HTMLResponse(web.room_page())


#: The director's routes under ``/api/tournaments/{tournament_id}``.
ROUTES: list[tuple[str, str, Any]] = [
    ("/state", "GET", get_state),
    ("/actions", "GET", get_actions),
    ("/settings", "POST", post_settings),
    ("/players", "POST", post_player),
    ("/players.csv", "POST", post_players_csv),
    ("/players/{player_id}/check-in", "POST", post_check_in),
    ("/players/{player_id}/withdraw", "POST", post_withdraw),
    ("/draw", "POST", post_draw),
    ("/late/arrive", "POST", post_arrive),
    ("/late/close", "POST", post_close_late),
    ("/rounds", "POST", post_round),
    ("/results", "POST", post_result),
    ("/corrections", "POST", post_correction),
    *DESK_ROUTES,
]
