"""The clock tables: the director's (spec, logs, reports, QR, archive,
adjudication) and what a table's own link reads and sends (events, sheet)."""

from __future__ import annotations

import hmac
import io
import logging
from typing import Any

import msgspec
import segno
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from bgclock.core import ClockError
from bgclock.server.context import Server, server_of
from bgclock.server.edge.bodies import TablePatch, TableSpecBody, spec_fields
from bgclock.server.edge.limits import LimitError, check_id
from bgclock.server.edge.owner import ToOwner
from bgclock.server.edge.schema import BodyError, decode_body, explain, field_name
from bgclock.server.edge.tourney_bodies import TableSheetBody
from bgclock.server.errors import ApiError, body_refused
from bgclock.server.live.fold import new_match
from bgclock.server.live.hub import TableRunner
from bgclock.server.live.refusal import Refused
from bgclock.server.render import export as _export
from bgclock.server.render import sheet as _sheet
from bgclock.server.routes.adjudicate import adjudicate
from bgclock.server.routes.common import decoded, raw_body
from bgclock.store import NotFound, TableSpec
from bgclock.tournament import InvalidContest
from bgclock.tournament._names import check_new_names

log = logging.getLogger("bgclock.server")


def spec_from(raw: bytes, base: TableSpec | None = None) -> TableSpec:
    """A TableSpec from a JSON body (whole, or a patch over ``base``), held to
    its declaration (``edge.bodies.TableSpecBody``); ValueError (``BodyError``
    naming the field, or the engine's words) if bad."""
    if base is None:
        body = decode_body(raw, TableSpecBody)
    else:
        patch = decode_body(raw, TablePatch)
        try:
            body = msgspec.convert({**base.to_dict(), **spec_fields(patch)}, TableSpecBody)
        except msgspec.ValidationError as exc:
            path, words = explain(exc)
            raise BodyError(field_name("body", path), words) from None
    if len(set(body.warn_s)) != len(body.warn_s):
        raise BodyError("body.warn_s", "the same warning twice")
    try:  # the two players' names: no invisible characters, not look-alikes
        check_new_names([("body.players[0]", body.players[0]),
                         ("body.players[1]", body.players[1])])
    except InvalidContest as exc:
        field, _, words = str(exc).partition(": ")
        raise BodyError(field, words) from None
    spec = TableSpec(name=body.name, players=body.players, rules=body.rules,
                     length=body.length, score=body.score, teams=body.teams,
                     crawford=body.crawford, clock=spec_fields(body.clock),
                     warn_s=tuple(sorted(body.warn_s, reverse=True)))
    try:
        new_match(spec)
    except (ClockError, TypeError) as exc:
        raise ValueError(str(exc)) from None
    return spec


async def get_table(request: Request) -> Response:
    server = server_of(request)
    table = await server.live_table(request)
    return JSONResponse({**server.table_info(request, table),
                         "state": table.state_now().to_dict()})


async def edit_table(request: Request) -> Response:
    server = server_of(request)
    table = await server.table_or_404(request)
    try:
        table.check_editable()
        spec = spec_from(await raw_body(request), table.row.spec)
        await table.edit(spec)  # one path with the commands: never both
    except Refused as exc:
        raise ApiError(409, exc.code, exc.message) from None
    except ValueError as exc:
        raise body_refused(exc, 422) from None
    table.broadcast(table.table_message())
    table.broadcast(table.snapshot_message())
    return JSONResponse(server.table_info(request, table))


async def next_match(request: Request) -> Response:
    """A fresh match on the same table (same id, link and token): the body is
    a whole spec; the finished match's log is archived (``archive.json``)."""
    server = server_of(request)
    table = await server.table_or_404(request)
    try:
        spec = spec_from(await raw_body(request))
        await table.renew(spec)
    except Refused as exc:
        raise ApiError(409, exc.code, exc.message) from None
    except ValueError as exc:
        raise body_refused(exc, 422) from None
    return JSONResponse(server.table_info(request, table))


async def table_archive(request: Request) -> Response:
    """The matches the table played before its current one, with their logs."""
    server = server_of(request)
    table = await server.table_or_404(request)
    archived = await server.store.archive(table.id)
    return JSONResponse({"table": table.id, "matches": [
        {"n": a.n, "spec": a.spec.to_dict(), "created_ms": a.created_ms,
         "archived_ms": a.archived_ms, "events": _export.log_entries(a.spec, a.events),
         "notes": _export.note_entries(a.notes)} for a in archived]})


async def close_table(request: Request) -> Response:
    server = server_of(request)
    table = await server.table_or_404(request)
    try:
        await table.owned()  # its owner closes it
    except Refused as exc:
        raise ApiError(409, exc.code, exc.message) from None
    await server.store.close_table(table.id, server.clock.now_ms())
    table.close()
    table.broadcast(table.table_message())
    return JSONResponse(server.table_info(request, table))


async def table_qr(request: Request) -> Response:
    server = server_of(request)
    table = await server.table_or_404(request)
    buf = io.BytesIO()
    segno.make(server.table_link(request, table.id), error="m").save(
        buf, kind="svg", scale=6, border=2, title=f"Table {table.row.spec.name or table.id}")
    return Response(buf.getvalue(), media_type="image/svg+xml")


async def _committed_log(server: Server, table: TableRunner) -> list[Any]:
    return await server.store.events(table.id)


async def table_log_json(request: Request) -> Response:
    server = server_of(request)
    table = await server.live_table(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return JSONResponse({"table": table.info(),
                         "events": _export.log_entries(table.row.spec, events),
                         "notes": _export.note_entries(notes)})


#: The most events one ``events`` page carries (a device far behind asks again).
EVENTS_PAGE = 1000


async def table_events(request: Request) -> Response:
    """The table's committed events after ``after``, for its own device to
    fold with the browser engine (a table token opens only its table's).

    Paged (``EVENTS_PAGE``) and rate-limited per table, so what one token can
    make the server do is bounded; served from the table's window in memory
    or, further back, from the store; never re-folded."""
    server = server_of(request)
    table = await live_by_token(server, request)
    table_id = table.id
    try:
        after = check_id("after", request.query_params.get("after", "0"))
    except LimitError as exc:
        raise ApiError(422, "invalid", str(exc)) from None
    if not table.log_limiter.allow():
        raise ApiError(429, "rate_limited", "too many log requests for this table: slow down")
    events, more = await table.events_after(after, EVENTS_PAGE)
    return JSONResponse({"table": table_id, "seq": table.committed_seq,
                         "spec": table.row.spec.to_dict(), "created_ms": table.row.created_ms,
                         "events": [{"seq": e.seq, "event": e.event} for e in events],
                         "more": more},
                        headers={"cache-control": "no-store"})


async def table_log_csv(request: Request) -> Response:
    server = server_of(request)
    table = await server.live_table(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return PlainTextResponse(
        _export.log_csv(table.row.spec, events, notes), media_type="text/csv",
        headers={"content-disposition": f'attachment; filename="table-{table.id}.csv"'})


async def table_report(request: Request) -> Response:
    server = server_of(request)
    table = await server.live_table(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    return JSONResponse(_export.report(table.info(), table.row.spec, events, table.match_now(),
                                       notes))


async def table_report_html(request: Request) -> Response:
    """The report's score sheet and time-per-move charts, printable on A4."""
    server = server_of(request)
    table = await server.live_table(request)
    events = await _committed_log(server, table)
    notes = await server.store.notes(table.id)
    report = _export.report(table.info(), table.row.spec, events, table.match_now(), notes)
    return HTMLResponse(_sheet.sheet_html(report, request.query_params.get("lang", "en")))


async def table_by_token(server: Server, request: Request) -> TableRunner:
    """The table of the path if the query's ``token`` opens it, folded
    (``Hub.ready``), else ``ApiError`` (404 no such table, 403 another
    table's token)."""
    assert server.tokens is not None
    table_id: int = request.path_params["table_id"]
    if server.tokens.table_of(server.principal(request).token) != table_id:
        raise ApiError(403, "forbidden", "this link does not open this table")
    table = await server.hub.ready(table_id)
    if table is None:
        raise ApiError(404, "not_found", f"no table {table_id}")
    return table


async def live_by_token(server: Server, request: Request) -> TableRunner:
    """``table_by_token``'s table as its owner holds it now (this process's
    own, or its mirror of another process's: ``Ownership.readable``)."""
    return await server.ownership.readable(await table_by_token(server, request))


async def table_sheet(request: Request) -> Response:
    """A player's score sheet from the table page (the table's token):
    ``POST /api/tables/{id}/sheet?token=`` with ``by`` A or B.

    With ``pin``, the sheet PIN of the player on side ``by``, it is that
    player's own (``via`` player); a wrong PIN is refused (403 ``pin``; after
    ``PIN_TRIES`` wrong ones the table waits a minute per try).  Without a PIN
    it is kept as the table's (``via`` table) and waits for the director: one
    table token cannot make a result "agreed" on its own (issue 18 section 3)."""

    server = server_of(request)
    try:
        table = await server.table_or_404(request)
    except NotFound as exc:
        raise ApiError(404, "not_found", str(exc)) from None
    token = server.principal(request).token
    assert server.tokens is not None
    director = await server.directs(request, table.row.tournament_id)
    if server.tokens.table_of(token) != table.id and not director:
        raise ApiError(403, "forbidden", "this link does not open this table")
    data = await decoded(request, TableSheetBody)
    try:
        hub = await server.tourneys.get(table.row.tournament_id)
    except NotFound as exc:
        raise ApiError(404, "not_found", str(exc)) from None
    async with hub.lock:
        number = next((n for n, t in hub.state.table_ids.items() if t == table.id), None)
        found = hub.state.at_table(number) if number is not None else None
        if found is None or (found[1].a, found[1].b) != table.row.spec.players:
            raise ApiError(409, "no_match", "this table holds no match of the draw now")
        (event, r, i), match = found
        # the table's token alone: the table's sheet; the director's key: theirs
        via = "director" if director else "table"
        pin = data.pop("pin", None)
        if pin is not None:
            tries, now = server.tourneys.desk.pin_tries, server.clock.now_ms()
            if not tries.may_try(table.id, now):
                raise ApiError(429, "too_many", "pin: too many wrong PINs at this table: "
                                               "wait a minute or ask the director")
            player = hub.state.by_name((match.a, match.b)[0 if data["by"] == "A" else 1]
                                       or "")
            if player is None or not hmac.compare_digest(
                    pin, server.tokens.sheet_pin(hub.id, player.id)):
                tries.failed(table.id, now)
                log.warning("table %d: a wrong sheet PIN for side %s", table.id,
                            data["by"])
                raise ApiError(403, "forbidden", f"pin: not the sheet PIN of side "
                                                f"{data['by']}'s player")
            via = "player"
        done = await server.tourneys.act(hub, [{"do": "sheet", "event": event, "round": r,
                                               "match": i, **data, "via": via}],
                                         source="table")
    return JSONResponse({"done": done})


#: What a table's own link opens (its token; the sheet: the token or the
#: director's key): listed before the director's mount.  The sheet is an
#: action on the table's tournament: run by the tournament's owner (the
#: token, the PIN and the wrong PINs' count are checked there).
public = [
    Route("/api/tables/{table_id:id}/events", table_events),
    Route("/api/tables/{table_id:id}/sheet", table_sheet, methods=["POST"],
          middleware=[Middleware(ToOwner, kind="tournament", param="table_id",
                                 of_table=True)]),
]

#: A table's writes: run by the process that owns the table.
_OWNER = [Middleware(ToOwner, kind="table", param="table_id")]

#: The director's (the guard is on the Mount).
routes = [
    Route("/api/tables/{table_id:id}", get_table, methods=["GET"]),
    Route("/api/tables/{table_id:id}", edit_table, methods=["PATCH"], middleware=_OWNER),
    Route("/api/tables/{table_id:id}/next-match", next_match, methods=["POST"],
          middleware=_OWNER),
    Route("/api/tables/{table_id:id}/archive.json", table_archive),
    Route("/api/tables/{table_id:id}/close", close_table, methods=["POST"], middleware=_OWNER),
    Route("/api/tables/{table_id:id}/qr.svg", table_qr),
    Route("/api/tables/{table_id:id}/log.json", table_log_json),
    Route("/api/tables/{table_id:id}/log.csv", table_log_csv),
    Route("/api/tables/{table_id:id}/report", table_report),
    Route("/api/tables/{table_id:id}/report.html", table_report_html),
    Route("/api/tables/{table_id:id}/adjudicate", adjudicate, methods=["POST"]),
]
