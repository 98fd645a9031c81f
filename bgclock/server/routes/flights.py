"""The room's wall and exports over every event of a flight (issue 23 §1).

Each event keeps its own pages (``routes.standings``: its pairings, standings and
results under its own name); a room with several events also needs one
sheet for the whole room: which event plays at which table, and who waits.
These read ``tournaments.flights.room_flights`` (the room's events by name, folded
states only) and the pure standings of each event.

- ``GET /api/tournaments/{id}/flight/pairings.html?lang=it|en``: every table
  of the room in large type, with its event's name, then by name (a player
  finds their table), then the matches waiting for a table, per event;
- ``GET /api/tournaments/{id}/flight.csv``: the same rows as CSV (``status``
  ``table`` or ``waiting``);
- ``GET /api/tournaments/{id}/flight/standings.csv``: every event's standings,
  each row naming its event.
"""

from __future__ import annotations

from html import escape
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.errors import ApiError
from bgclock.server.routes.common import tournament_hub
from bgclock.server.routes.standings import _lang
from bgclock.server.tournaments.flights import room_flights
from bgclock.server.tournaments.standings import WORDS, _csv, _page, standings_rows
from bgclock.tournament import surname_key

#: The room sheet's own words (the rest are ``_standings.WORDS``).
ROOM_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {"waiting": "Waiting for a table", "no_room":
           "This event shares no room with other events.", "free": "No match at a table."},
    "it": {"waiting": "In attesa di un tavolo", "no_room":
           "Questo evento non condivide la sala con altri eventi.",
           "free": "Nessun incontro ai tavoli."},
}
ROOM_COLUMNS: Final = ("room", "event_name", "precedence", "status", "table", "event",
                       "round", "match", "a", "b")
ROOM_STANDINGS_COLUMNS: Final = ("event_name", "event", "place", "name", "prizes")


def room_rows(flight: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per match at a table (by table number), then per waiting
    match (in each event's order), each with its event's name."""
    at, waiting = [], []
    for e in flight["events"]:
        for m in e["matches"]:
            at.append({"room": flight["room"], "event_name": e["name"],
                       "precedence": e["precedence"], "status": "table", **m})
        for m in e["waiting"]:
            waiting.append({"room": flight["room"], "event_name": e["name"],
                            "precedence": e["precedence"], "status": "waiting",
                            "table": None, **m})
    at.sort(key=lambda x: x["table"])
    for x in at + waiting:
        x["round"] += 1  # printed 1-based, as on the dashboard
        x["match"] += 1
    return at + waiting


def room_pairings_html(flight: dict[str, Any], lang: str) -> str:
    """The room's wall on A4: by table with each event's name, by name,
    then the matches waiting for a table."""
    w, rw = WORDS[lang], ROOM_WORDS[lang]
    rows = room_rows(flight)
    at = [x for x in rows if x["status"] == "table"]
    waiting = [x for x in rows if x["status"] == "waiting"]
    title = f"{flight['room']} · {w['pairings']}"

    def what(x: dict[str, Any]) -> str:
        return f"{escape(x['event_name'])} · {escape(w[x['event']])} · " \
               f"{escape(w['round'].format(n=x['round']))}"

    head = (f'<thead><tr><th class="table" scope="col">{w["table"]}</th><th scope="col">'
            f'{w["event"]}</th><th scope="col">{w["player"]}</th><th scope="col">'
            f'{w["opponent"]}</th></tr></thead>')
    by_table = "".join(
        f'<tr><td class="table">{x["table"]}</td><td class="what">{what(x)}</td>'
        f'<td>{escape(x["a"])}</td><td>{escape(x["b"])}</td></tr>' for x in at)
    names = sorted([(x["a"], x["b"], x) for x in at] + [(x["b"], x["a"], x) for x in at],
                   key=lambda y: surname_key(y[0]))  # by surname (issue 32 §5)
    by_name = "".join(
        f'<tr><td>{escape(me)}</td><td class="table">{x["table"]}</td>'
        f'<td class="what">{what(x)}</td><td>{escape(other)}</td></tr>' for me, other, x in names)
    parts = [f"<h1>{escape(title)}</h1>"]
    if at:
        parts += [f'<h2 id="by-table">{w["by_table"]}</h2>',
                  f'<table aria-labelledby="by-table">{head}<tbody>{by_table}</tbody></table>',
                  f'<h2 id="by-name">{w["by_name"]}</h2>',
                  f'<table aria-labelledby="by-name"><thead><tr><th scope="col">'
                  f'{w["player"]}</th><th class="table" scope="col">{w["table"]}</th>'
                  f'<th scope="col">{w["event"]}</th><th scope="col">{w["opponent"]}</th>'
                  f"</tr></thead><tbody>{by_name}</tbody></table>"]
    else:
        parts.append(f"<p>{rw['free']}</p>")
    if waiting:
        items = "".join(f'<tr><td class="what">{what(x)}</td><td>{escape(x["a"])}</td>'
                        f'<td>{escape(x["b"])}</td></tr>' for x in waiting)
        parts += [f'<h2 id="waiting">{rw["waiting"]}</h2>',
                  f'<table aria-labelledby="waiting"><thead><tr><th scope="col">'
                  f'{w["event"]}</th><th scope="col">{w["player"]}</th><th scope="col">'
                  f'{w["opponent"]}</th></tr></thead><tbody>{items}</tbody></table>']
    return _page(lang, title, "".join(parts), "wall")


async def _flight(server: Server, request: Request) -> dict[str, Any]:
    hub = await tournament_hub(server, request)
    flight = await room_flights(server.tourneys, hub)
    if flight is None:
        raise ApiError(409, "no_room", "this event shares no room with other events "
                       "(POST .../flight first)")
    return flight


async def get_room_pairings_html(request: Request) -> Response:
    """The room's wall: every event's tables by number and by name (``?lang=``)."""
    server = server_of(request)
    lang = _lang(request)
    flight = await _flight(server, request)
    return HTMLResponse(room_pairings_html(flight, lang))


async def get_room_csv(request: Request) -> Response:
    """The room's tables and waiting matches, each row naming its event."""
    flight = await _flight(server_of(request), request)
    return Response(_csv(ROOM_COLUMNS, room_rows(flight)), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="room.csv"'})


async def get_room_standings_csv(request: Request) -> Response:
    """Every event's standings, each row naming its event."""
    server = server_of(request)
    flight = await _flight(server, request)
    rows = []
    for e in flight["events"]:
        hub = await server.tourneys.get(e["tournament"])
        rows += [{"event_name": e["name"], **r} for r in standings_rows(hub.state)]
    return Response(_csv(ROOM_STANDINGS_COLUMNS, rows), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition":
                             'attachment; filename="room-standings.csv"'})


#: Director routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/flight/pairings.html", get_room_pairings_html, methods=["GET"]),
    Route("/flight.csv", get_room_csv, methods=["GET"]),
    Route("/flight/standings.csv", get_room_standings_csv, methods=["GET"]),
]


def openapi_paths(ok: Any, errors: Any, op: Any, ref: Any) -> dict[str, Any]:
    """These routes and ``/flight`` in ``/openapi.json`` (``render.openapi``'s helpers)."""
    tid = ["tournament_id"]
    base = "/api/tournaments/{tournament_id}"
    csv = {"200": ok({"type": "string"}, media="text/csv"), **errors(404, 409)}
    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"}}}
    return {
        f"{base}/flight": {
            "post": op("the event's room (its table numbers shared with the room's other "
                       "events; room null: none), its precedence (1 first) and the room's "
                       "table count (0: no limit)", {"200": ok(state), **errors(404, 409, 422)},
                       params=tid, body=ref("FlightBody")),
            "get": op("the room's events by name: precedence, matches at tables, matches "
                      "waiting for a table (flight null: the event is in no room)",
                      {"200": ok({"type": "object"}), **errors(404)}, params=tid)},
        f"{base}/flight/pairings.html": {"get": op(
            "the room's wall: every event's tables by number and by name, and the matches "
            "waiting, printable on A4 (?lang=en|it)",
            {"200": ok({"type": "string"}, media="text/html"), **errors(404, 409, 422)},
            params=tid)},
        f"{base}/flight.csv": {"get": op(
            "the room's tables and waiting matches as CSV, each row naming its event", csv,
            params=tid)},
        f"{base}/flight/standings.csv": {"get": op(
            "every event of the room's standings as CSV, each row naming its event", csv,
            params=tid)},
    }
