"""The HTTP API as OpenAPI 3.1 (served at ``/openapi.json``).

The request bodies and the WebSocket messages are not written here: their
schemas are made from their declarations (``edge.bodies``, ``ws.protocol``) by
``msgspec.json.schema_components``, so what the server decodes and what the
document says are one text.  The answers' shapes (written by the server,
not read by it) are described here by hand.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from bgclock.server.edge.bodies import Adjudicate, Board, NewTournament, TablePatch, TableSpecBody
from bgclock.server.edge.limits import MAX_ID
from bgclock.server.edge.schema import components
from bgclock.server.edge.tourney_bodies import TOURNEY_REQUESTS
from bgclock.server.live.commands import (
    AnyCommand,
    Handle,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepRequest,
    Summon,
)
from bgclock.server.routes.flights import openapi_paths as flight_paths
from bgclock.server.routes.forecast import openapi_paths as forecast_paths
from bgclock.server.routes.money import openapi_paths as money_paths
from bgclock.server.routes.register import REGISTER_REQUESTS, register_paths
from bgclock.server.routes.standings import openapi_paths as standings_paths
from bgclock.server.ws.protocol import Hello, Ping, Sync

#: Every input declared in msgspec, by the component it is published as.
REQUESTS: Final = (NewTournament, TableSpecBody, TablePatch, Adjudicate, Board,
                   *TOURNEY_REQUESTS, *REGISTER_REQUESTS)
MESSAGES: Final = (Hello, AnyCommand, Summon, Handle, Ping, Sync, Keep, KeepRequest, KeepAnswer,
                   KeepGive)

_ERROR = {"$ref": "#/components/schemas/Error"}


def _ok(schema: dict[str, Any], description: str = "OK",
        media: str = "application/json") -> dict[str, Any]:
    return {"description": description, "content": {media: {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {400: "bad request", 401: "the director's key is missing or wrong",
             404: "no such tournament or table", 409: "not allowed now",
             413: "the body is over 64 KiB (refused before it is read)",
             422: "invalid: the field named first in the message, and why"}
    return {str(c): _ok(_ERROR, words[c]) for c in codes}


#: A director's request the database could not serve (``app.store_failing``).
_STORE_FAILING: dict[str, Any] = {
    **_ok(_ERROR, "storage: the database did not answer within its deadline (--db-timeout), "
          "or refused: send it again after Retry-After seconds (sent again, it is done "
          "once)"),
    "headers": {"Retry-After": {"schema": {"type": "integer", "minimum": 1},
                                "description": "seconds"}},
}


def _op(summary: str, responses: dict[str, Any], *, body: dict[str, Any] | None = None,
        director: bool = True, params: list[str] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if director:
        op["security"] = [{"director": []}, {"directorKey": []}]
        op["responses"].update(_errors(401))
        op["responses"]["503"] = _STORE_FAILING
    if body is not None:
        op["responses"].update(_errors(400, 413))
    if body is not None:
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": body}}}
    if params:
        op["parameters"] = [{"name": p, "in": "path", "required": True,
                             "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
                             "description": "past 63 bits: 404"} for p in params]
    return op


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


@cache
def declared() -> tuple[dict[str, Any], dict[str, Any]]:
    """The declared inputs' components, and the schema of a client message
    (any of them, by ``type``; a command by ``do``)."""
    refs, defs = components([*REQUESTS, *MESSAGES])
    message = {"description": "a WebSocket client message (docs/protocol.md)",
               "anyOf": refs[len(REQUESTS):]}
    return defs, message


def openapi() -> dict[str, Any]:
    defs, message = declared()
    table = _ref("Table")
    tournament = _ref("Tournament")
    tid, tab = ["tournament_id"], ["table_id"]
    spec_properties = defs["TableSpecBody"]["properties"]
    return {
        "openapi": "3.1.0",
        "info": {"title": "bgclock tournament server", "version": "1",
                 "description": "The director's HTTP API. The live protocol (WebSocket /ws) "
                                "is in docs/protocol.md and /protocol/schemas.json; its "
                                "client messages are the components ClientMessage (by "
                                "type) and the *Cmd commands (by do). Request bodies and "
                                "messages are made from the server's own declarations."},
        "paths": {
            "/healthz": {"get": _op("liveness", {"200": _ok({"type": "object"})},
                                    director=False)},
            "/protocol/schemas.json": {"get": _op(
                "JSON schemas of the WebSocket messages", {"200": _ok({"type": "object"})},
                director=False)},
            "/api/tournaments": {
                "post": _op("create a tournament", {"201": _ok(tournament), **_errors(422)},
                            body=_ref("NewTournament")),
                "get": _op("list the tournaments", {"200": _ok({
                    "type": "object", "properties": {"tournaments": {
                        "type": "array", "items": tournament}}})}),
            },
            "/api/tournaments/{tournament_id}": {"get": _op(
                "a tournament and its tables", {"200": _ok(tournament), **_errors(404)},
                params=tid), "patch": _op(
                "the public page up (public true: the state names public_url) or down at "
                "once (false); docs/hosting.md", {"200": _ok({"type": "object"}),
                                                  **_errors(404, 422)},
                body=_ref("PublicBody"), params=tid)},
            **_public_paths(),
            **_publish_paths(),
            "/api/tournaments/{tournament_id}/close": {"post": _op(
                "close a tournament and its tables", {"200": _ok(tournament), **_errors(404)},
                params=tid)},
            "/api/tournaments/{tournament_id}/tables": {"post": _op(
                "create a table", {"201": _ok(table), **_errors(404, 409, 422)},
                body=_ref("TableSpecBody"),
                params=tid)},
            "/api/tables/{table_id}": {
                "get": _op("a table, with its state now", {"200": _ok(table), **_errors(404)},
                           params=tab),
                "patch": _op("edit a table before play starts",
                             {"200": _ok(table), **_errors(404, 409, 422)},
                             body=_ref("TablePatch"), params=tab),
            },
            "/api/tables/{table_id}/close": {"post": _op(
                "close a table", {"200": _ok(table), **_errors(404)}, params=tab)},
            "/api/tables/{table_id}/qr.svg": {"get": _op(
                "the table link's QR code", {"200": _ok({"type": "string"}, media="image/svg+xml"),
                                             **_errors(404)}, params=tab)},
            "/api/tables/{table_id}/log.json": {"get": _op(
                "the event log with the state after each event",
                {"200": _ok({"type": "object"}), **_errors(404)}, params=tab)},
            "/api/tables/{table_id}/events": {"get": {
                **_op("the table's committed events after `after`, for its own device "
                      "(table token; paged, 1,000 at most; 403 for another table's token, "
                      "429 past 10 at once then 2 a second per table)",
                      {"200": _ok({"type": "object", "required": ["table", "seq", "spec",
                                                                  "events", "more"]}),
                       **_errors(404, 422)}, director=False, params=tab),
                "parameters": [
                    {"name": "table_id", "in": "path", "required": True,
                     "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}},
                    {"name": "token", "in": "query", "required": True,
                     "schema": {"type": "string"}},
                    {"name": "after", "in": "query", "required": False,
                     "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}]}},
            "/api/tables/{table_id}/log.csv": {"get": _op(
                "the event log as CSV, both reserves after each event",
                {"200": _ok({"type": "string"}, media="text/csv"), **_errors(404)}, params=tab)},
            "/api/tables/{table_id}/report": {"get": _op(
                "the match's report", {"200": _ok({"type": "object"}), **_errors(404)},
                params=tab)},
            "/api/tables/{table_id}/report.html": {"get": _op(
                "the match's score sheet (games, breaks, both reserves) and each player's time "
                "per move, as a page printable on A4",
                {"200": _ok({"type": "string"}, media="text/html"), **_errors(404)},
                params=tab)},
            "/api/tables/{table_id}/adjudicate": {"post": _op(
                "suggest the ruling on a dispute from the position on the board (applies "
                "nothing: the director sends the ruling command to confirm it)",
                {"200": _ok({"$ref": "#/components/schemas/Suggestion"}),
                 **_errors(404, 409, 422)},
                body=_ref("Adjudicate"), params=tab)},
            **_tournament_paths(),
            **_desk_paths(),
            **standings_paths(_ok, _errors, _op, _ref),
            **money_paths(_ok, _errors, _op, _ref),
            **flight_paths(_ok, _errors, _op, _ref),
            **forecast_paths(_ok, _errors, _op, _ref),
            **_contest_paths(),
            **register_paths(_ok, _errors, _op, _ref),
            "/api/tables/{table_id}/next-match": {"post": _op(
                "the table's next match: the finished match's log is archived and a fresh "
                "match starts on the same table (same link and token)",
                {"200": _ok(table), **_errors(404, 409, 422)}, body=_ref("TableSpecBody"),
                params=tab)},
            "/api/tables/{table_id}/archive.json": {"get": _op(
                "the matches the table played before its current one, with their logs",
                {"200": _ok({"type": "object"}), **_errors(404)}, params=tab)},
            "/api/position": {
                "get": _op("decode a Position ID, ID:MATCHID or XGID into the board (points, "
                           "bar and borne-off counts of both sides, the dice)",
                           {"200": _ok({"type": "object"}), **_errors(401, 422)}),
                "post": _op("encode a board (as GET returns it) into a Position ID and an XGID",
                            {"200": _ok({"type": "object"}), **_errors(401, 422)},
                            body=_ref("Board"))},
        },
        "components": {
            "securitySchemes": {
                "director": {"type": "http", "scheme": "bearer",
                             "description": "the director's secret"},
                "directorKey": {"type": "apiKey", "in": "query", "name": "key"},
            },
            "schemas": {
                **defs,
                "ClientMessage": message,
                "Error": {"type": "object", "required": ["error", "message"],
                          "properties": {"error": {"type": "string"},
                                         "message": {"type": "string"}}},
                "Tournament": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "name": {"type": "string"},
                    "created_ms": {"type": "integer"}, "closed_ms": {"type": ["integer", "null"]},
                    "status": {"enum": ["open", "closed"]},
                    "tables": {"type": "array", "items": table}}},
                "Suggestion": _SUGGESTION,
                "Table": {"type": "object", "properties": {
                    **spec_properties,
                    "id": {"type": "integer"}, "tournament_id": {"type": "integer"},
                    "status": {"enum": ["open", "closed"]},
                    "attention": {"enum": [None, "restart"]},
                    "seq": {"type": "integer"}, "created_ms": {"type": "integer"},
                    "url": {"type": "string", "description": "the table's link (its token)"},
                    "token": {"type": "string"},
                    "link": {"type": "object", "description": "the table's devices and its "
                             "timekeeper (docs/protocol.md, Device time)", "properties": {
                                 "state": {"enum": ["online", "offline", "none"]},
                                 "keeper_device": {"type": ["string", "null"]},
                                 "keeper_name": {"type": ["string", "null"]},
                                 "asks": {"type": "array", "description": "requests for the "
                                          "time waiting for the keeper's answer", "items": {
                                              "type": "object", "properties": {
                                                  "device": {"type": "string"},
                                                  "name": {"type": "string"},
                                                  "at_ms": {"type": "integer"}}}},
                                 "silent_bound_ms": {"type": "integer"}}},
                    "provisional": {"type": ["object", "null"], "description":
                                    "a flag worked out while the timekeeper is away "
                                    "(docs/protocol.md, Provisional flags)"},
                    "conflict": {"type": ["object", "null"], "description":
                                 "the result told to the tournament and the table's final "
                                 "log disagree: {told, final}"},
                    "loading": {"type": "boolean", "description":
                                "present (true) while a first start without snapshots has "
                                "not folded the table yet: its row only, no state "
                                "(docs/architecture.md)"},
                    "state": {"type": "object", "description": "the clock state now"}}},
            },
        },
    }


_SUGGESTION: dict[str, Any] = {
    "type": "object",
    "required": ["decision", "result", "ruling", "reason", "clause", "command"],
    "properties": {
        "decision": {"enum": ["accept", "invalid", "gin", "lost", None],
                     "description": "the ruling command's decision; null: the search could "
                                    "not decide, the director rules by eye"},
        "result": {"enum": ["single", "gammon", "backgammon", None]},
        "ruling": {"enum": ["gin", "lost", "must_accept", "valid", "invalid", "unknown"],
                   "description": "the board engine's ruling (docs/adjudication.md)"},
        "headline": {"type": "string",
                     "description": "the ruling in one sentence naming the player"},
        "reason": {"type": "string"},
        "clause": {"type": "string"},
        "on_roll": {"enum": ["A", "B"], "description": "the side on roll in the position"},
        "seq": {"type": "integer", "description": "the table's seq the ruling was made at"},
        "command": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["do", "decision"],
            "properties": {"do": {"const": "ruling"}, "decision": {"type": "string"},
                           "result": {"type": "string"}}}]},
    },
}


def _tournament_paths() -> dict[str, Any]:
    """The tournament's players, draw, rounds and results (docs/tournament.md)."""
    tid = ["tournament_id"]
    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"}}}
    ok = {"200": _ok(state), **_errors(404, 409, 422)}
    created = {"201": _ok(state), **_errors(404, 409, 422)}
    base = "/api/tournaments/{tournament_id}"
    return {
        f"{base}/state": {"get": _op("the tournament's players, draw, tables and results",
                                     {"200": _ok({"type": "object"}), **_errors(404)},
                                     params=tid)},
        f"{base}/field": {"get": _op(
            "a weekly format's field (records, who is out, who can still win), its "
            "standings and (?round=N) that round's pairing explained",
            {"200": _ok({"type": "object"}), **_errors(404, 409, 422)}, params=tid)},
        f"{base}/actions": {"get": _op("the tournament's log of director actions",
                                       {"200": _ok({"type": "object"}), **_errors(404)},
                                       params=tid)},
        f"{base}/settings": {"post": _op(
            "the Main's settings (before the draw)", ok, params=tid, body=_ref("SettingsBody"))},
        f"{base}/seeding": {"post": _op(
            "seeds by rating and groups by club from the players' register, stored as the "
            "settings they give (before the draw)", ok, params=tid, body=_ref("SeedingBody"))},
        f"{base}/players": {"post": _op("register a player", created, params=tid,
                                        body=_ref("EntryBody"))},
        f"{base}/players.csv": {"post": {**_op(
            "register players from CSV (name[,federation_id]; at most 256 KiB, 2048 rows; "
            "all or none; each row linked to the register entry of its federation id, else "
            "of its name; a person entered in another event of the room: 409 "
            "already_entered unless ?confirm=true)", created, params=tid)}},
        f"{base}/players/check-in": {"post": _op(
            "check several players in at once (all or none)", ok, params=tid,
            body=_ref("CheckInAllBody"))},
        f"{base}/players/{{player_id}}/check-in": {"post": _op(
            "check a player in (or out: checked_in false)", ok,
            params=["tournament_id", "player_id"],
            body=_ref("CheckInBody"))},
        f"{base}/players/{{player_id}}/withdraw": {"post": _op(
            "withdraw a player (after the draw: loses the matches they face)", ok,
            params=["tournament_id", "player_id"])},
        f"{base}/players/{{player_id}}": {"delete": _op(
            "delete an entry made by mistake (before the draw; 409 already_drawn_delete "
            "after it: withdraw instead)", ok, params=["tournament_id", "player_id"])},
        f"{base}/players/{{player_id}}/reinstate": {"post": _op(
            "undo a withdrawal: the matches it decided are undecided again", ok,
            params=["tournament_id", "player_id"])},
        f"{base}/players/{{player_id}}/reenter": {"post": _op(
            "a player knocked out enters again: the Main's next open late slot (a More "
            "Swiss: its next round at 0-0) and one more entry fee, until "
            "settings.reentry_until_ms", ok, params=["tournament_id", "player_id"])},
        f"{base}/draw": {"post": _op(
            "make the draw of the Main (no seed typed: the server draws one; it is "
            "returned and logged)", ok,
                                     params=tid, body=_ref("DrawBody"))},
        f"{base}/late/arrive": {"post": _op("a late arrival takes the next late slot", ok,
                                            params=tid,
                                            body=_ref("ArriveBody"))},
        f"{base}/late/close": {"post": _op("close late arrivals: the slots left are byes", ok,
                                           params=tid)},
        f"{base}/rounds": {"post": _op(
            "start a round: its ready matches get table numbers and clock tables (an event "
            "in a room: the room's free numbers in precedence order, the rest wait)", ok,
            params=tid, body=_ref("RoundBody"))},
        f"{base}/results": {"post": _op("a result entered by hand", ok, params=tid,
                                        body=_ref("ResultBody"))},
        f"{base}/corrections": {"post": _op("correct a result (logged)", ok, params=tid,
                                            body=_ref("CorrectionBody"))},
        f"{base}/results/revert": {"post": _op(
            "undo a match's last correction, else its result by hand (refused with "
            "next_match_started or consolation_drawn once something depends on it)", ok,
            params=tid, body=_ref("RevertBody"))},
        f"{base}/clashes/{{clash}}/dismiss": {"post": _op(
            "the director has seen a table's result that clashed with the one held", ok,
            params=["tournament_id", "clash"], body=_ref("DismissBody"))},
        f"{base}/room.json": {"get": _op(
            "the room display's data: draw sheet and tables live (room token or director)",
            {"200": _ok({"type": "object"}), "403": _ok(_ERROR, "wrong room token")},
            director=False, params=tid)},
        f"{base}/room.stream": {"get": _op(
            "room.json pushed: server-sent events `room`, each the whole room.json, "
            "at once and after every change (room token or director)",
            {"200": _ok({"type": "string"}, "an event stream", "text/event-stream"),
             "403": _ok(_ERROR, "wrong room token"),
             "503": _ok(_ERROR, "too many room displays open")},
            director=False, params=tid)},
    }


def _public_paths() -> dict[str, Any]:
    """A public tournament's page, its data and its push, and a player's page:
    anyone's, no credential (docs/hosting.md); 404 while not public."""
    tid, both = ["tournament_id"], ["tournament_id", "player_id"]
    gone = _ok(_ERROR, "no such tournament, or not public")
    html = {"200": _ok({"type": "string"}, "the page", "text/html"), "404": gone}
    data = {"200": _ok({"type": "object"}), "404": gone}
    return {
        "/p/{tournament_id}": {"get": _op("a public tournament's page", html,
                                          director=False, params=tid)},
        "/p/{tournament_id}.json": {"get": _op(
            "its data: draw, pairings, results, standings with prizes, tables live",
            data, director=False, params=tid)},
        "/p/{tournament_id}.stream": {"get": _op(
            "its data pushed: server-sent events `public`, at once and after every change; "
            "the stream ends when the page is taken down",
            {"200": _ok({"type": "string"}, "an event stream", "text/event-stream"),
             "404": gone, "503": _ok(_ERROR, "too many streams open")},
            director=False, params=tid)},
        "/p/{tournament_id}/player/{player_id}": {"get": _op(
            "a player's own page", html, director=False, params=both)},
        "/p/{tournament_id}/player/{player_id}.json": {"get": _op(
            "a player's next table and opponent, results, late points, prizes", data,
            director=False, params=both)},
    }


def _publish_paths() -> dict[str, Any]:
    """A venue publishing to this (hosted) server with its publishing key
    (``Authorization: Bearer NAME.SECRET``), and the pages at ``/p/{club}/{id}``
    (docs/hosting.md)."""
    refused = {"401": _ok(_ERROR, "no publishing key this server was given (logged)")}
    held = {"type": "object", "properties": {"n": {"type": "integer"}}}
    club = {"name": "club", "in": "path", "required": True,
            "schema": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,31}$"}}
    gone = _ok(_ERROR, "no such publication, or not public")

    def page(summary: str, media: str) -> dict[str, Any]:
        op = _op(summary, {"200": _ok({"type": "string" if media != "application/json"
                                       else "object"}, media=media), "404": gone},
                 director=False, params=["tournament_id"])
        op["parameters"].insert(0, club)
        return op

    return {
        "/api/publish": {
            "get": _op("what this publishing key's club has published here: each "
                       "tournament's last action n", {"200": _ok({"type": "object"}),
                                                     **refused}, director=False),
            "post": _op("a batch of one tournament's actions (from `first`, numbered as "
                        "the venue stores them; those held already are skipped) and its "
                        "live tables' public fields", {
                            "200": _ok(held, "the last n held"), **refused,
                            "409": _ok(_ERROR, "a gap: params.n is the last n held"),
                            **_errors(422)},
                        body={"type": "object"}, director=False)},
        "/p/{club}/{tournament_id}": {"get": page(
            "a published tournament's page (on the venue: its own tournament)", "text/html")},
        "/p/{club}/{tournament_id}.json": {"get": page("its data", "application/json")},
        "/p/{club}/{tournament_id}.stream": {"get": page(
            "its data pushed (server-sent events `public`)", "text/event-stream")},
    }


def _desk_paths() -> dict[str, Any]:
    """Late arrivals at a match, score sheets, the ruling committee, the
    exports (docs/tournament.md)."""
    tid = ["tournament_id"]
    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"}}}
    ok = {"200": _ok(state), **_errors(404, 409, 422)}
    base = "/api/tournaments/{tournament_id}"
    sheet = _op("a printable draw sheet of an event (main, consolation, last_chance)",
                {"200": _ok({"type": "string"}, media="text/html"), **_errors(404, 409)},
                params=["tournament_id", "event"])
    sheet["parameters"][1] = {"name": "event", "in": "path", "required": True,
                              "schema": {"enum": ["main", "consolation", "last_chance"]}}
    return {
        f"{base}/late/absent": {"post": _op(
            "a player is absent at a match's start: the server counts, or starts the "
            "absent player's clock", ok, params=tid, body=_ref("AbsentBody"))},
        f"{base}/sheets": {"post": _op(
            "a score sheet: the director's (final) or a player's", ok, params=tid,
            body=_ref("SheetBody"))},
        f"{base}/sheets/presume": {"post": _op(
            "one player's score sheet is in and the other's missing: the director "
            "confirms the kept sheet's result (the rule book's presumption)", ok,
            params=tid, body=_ref("PresumeBody"))},
        f"{base}/breaks": {
            "get": _op("the breaks of the matches played without a clock, with each "
                       "player's allowance", {"200": _ok({"type": "object"}), **_errors(404)},
                       params=tid),
            "post": _op("a break starts at a match without a clock (the rule book's "
                        "allowance by match length)",
                        {"201": _ok(state), **_errors(404, 409, 422)}, params=tid,
                        body=_ref("BreakBody"))},
        f"{base}/breaks/end": {"post": _op("the running break of a match ends", ok,
                                           params=tid, body=_ref("MatchBody"))},
        f"{base}/breaks/penalty": {"post": _op(
            "the director's penalty for a break over its 10 minutes (0 points: none)", ok,
            params=tid, body=_ref("BreakPenaltyBody"))},
        f"{base}/sheet-pins": {"get": _op(
            "every player's own sheet PIN, for the director to hand out",
            {"200": _ok({"type": "object"}), **_errors(404)}, params=tid)},
        "/api/tables/{table_id}/sheet": {"post": _op(
            "a player's score sheet from the table page (the table's token; with the "
            "player's sheet PIN it is the player's own)",
            {"200": _ok(state), "403": _ok(_ERROR, "wrong table token or PIN"),
             "429": _ok(_ERROR, "too many wrong PINs at this table"),
             **_errors(404, 409, 422)}, director=False,
            params=["table_id"], body=_ref("TableSheetBody"))},
        f"{base}/committee": {"post": _op(
            "the ruling committee: 3 to 5 players", ok, params=tid, body=_ref("CommitteeBody"))},
        f"{base}/appeals": {"post": _op(
            "an appeal of a ruling at a match", {"201": _ok(state), **_errors(404, 409, 422)},
            params=tid, body=_ref("AppealBody"))},
        f"{base}/appeals/{{appeal}}/decision": {"post": _op(
            "the votes of the panel and the director, and the hearing: the majority "
            "decides, a tie upholds", ok,
            params=["tournament_id", "appeal"], body=_ref("DecisionBody"))},
        f"{base}/draw.csv": {"get": _op(
            "the draw and results as CSV", {"200": _ok({"type": "string"}, media="text/csv"),
                                            **_errors(404)}, params=tid)},
        f"{base}/draw.json": {"get": _op(
            "the draw and results as JSON", {"200": _ok({"type": "object"}), **_errors(404)},
            params=tid)},
        f"{base}/draw/{{event}}.html": {"get": sheet},
    }


def _contest_paths() -> dict[str, Any]:
    """Swing and couples (issue 13; docs/tournament.md)."""
    tid = ["tournament_id"]
    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"},
                                              "tables": {"type": "array"}}}
    ok = {"200": _ok(state), **_errors(404, 409, 422)}
    created = {"201": _ok(state), **_errors(404, 409, 422)}
    base = "/api/tournaments/{tournament_id}"
    return {
        f"{base}/swing": {"post": _op(
            "create the Swing: players (ids), starting VP, CPP schedule, rule book, clock "
            "tables and a clock override for its single games", created, params=tid,
            body=_ref("SwingBody"))},
        f"{base}/swing/rounds": {"post": _op(
            "pair the next Swing round at random (the seed is logged) and put its games "
            "at tables", ok, params=tid,
            body=_ref("SwingRoundBody"))},
        f"{base}/swing/results": {"post": _op(
            "a Swing game's result entered by hand", ok, params=tid,
            body=_ref("SwingResultBody"))},
        f"{base}/swing/corrections": {"post": _op(
            "another result for a game of the round under way, or of the last round played "
            "before the next is paired (the round is played again)", ok, params=tid,
            body=_ref("SwingCorrectionBody"))},
        f"{base}/couples": {"post": _op(
            "create the couples event: couples (player 1 and player 2), format, match "
            "length, rule book, clock", created, params=tid,
            body=_ref("CouplesBody"))},
        f"{base}/couples/phases": {"post": _op(
            "start an encounter's next phase at tables (more: after it is decided)", ok,
            params=tid, body=_ref("CouplesPhaseBody"))},
        f"{base}/couples/results": {"post": _op(
            "a couples match's result entered by hand", ok, params=tid,
            body=_ref("CouplesResultBody"))},
        f"{base}/couples/corrections": {"post": _op(
            "another winner for a couples match (a knockout's later round, while untouched, "
            "is paired again)", ok, params=tid,
            body=_ref("CouplesCorrectionBody"))},
        f"{base}/events.json": {"get": _op(
            "the Swing and couples for the room display (room token or director)",
            {"200": _ok({"type": "object"}), "403": _ok(_ERROR, "wrong room token")},
            director=False, params=tid)},
    }
