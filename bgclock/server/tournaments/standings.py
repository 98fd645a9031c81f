"""The tournament's end and the wall (issue 19 §4): standings, the prize list,
every player's results, and a round's pairings printable for the wall.

Theory of operation
-------------------
Everything here reads the folded state (``bgclock.tournament``): the pure
``final_standings`` places the players, ``player_results`` lists their
matches; this module turns them into exports (CSV, JSON) and two printable
A4 pages in the director's language (``?lang=it|en``): the standings with the
prize list, and a round's pairings in large type, by table and by name (a
player finds their table).  The prize list is the one thing written: the
``prizes`` action, folded like any other (``Tournament._prizes``).
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from bgclock.server.edge.tourney_bodies import PrizesBody, SidePoolBody
from bgclock.server.render.drawsheet import _cell
from bgclock.tournament import Tournament, final_standings, player_results, seats

if TYPE_CHECKING:
    from bgclock.server.app import Server

LANGS: Final = ("en", "it")

#: The printed pages' words (the dashboard's are in tourney-standings.js).
WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "standings": "Standings", "pairings": "Pairings", "place": "Place", "player": "Player",
        "prize": "Prize", "in_play": "in play", "champion": "Champion",
        "main": "Main", "consolation": "Progressive Consolation", "last_chance": "Last Chance",
        "swing": "Swing", "couples": "Couples", "round": "Round {n}", "table": "Table",
        "by_table": "By table", "by_name": "By name", "opponent": "Opponent",
        "none": "No round is at its tables yet.", "not_yet": "No event has started yet.",
        "event": "Event", "side_pools": "Side pools", "entry": "entry", "pot": "pot",
        "paid": "Payout",
    },
    "it": {
        "standings": "Classifica", "pairings": "Abbinamenti", "place": "Posizione",
        "player": "Giocatore", "prize": "Premio", "in_play": "in gioco",
        "champion": "Campione", "main": "Main", "consolation": "Consolazione progressiva",
        "last_chance": "Last Chance", "swing": "Swing", "couples": "Coppie",
        "round": "Turno {n}", "table": "Tavolo", "by_table": "Per tavolo",
        "by_name": "Per nome", "opponent": "Avversario",
        "none": "Nessun turno è ancora ai tavoli.", "not_yet": "Nessun evento è ancora iniziato.",
        "event": "Evento", "side_pools": "Jackpot e side pool", "entry": "quota",
        "pot": "montepremi", "paid": "Vincita",
    },
}

STANDINGS_COLUMNS: Final = ("event", "place", "name", "prizes")
RESULT_COLUMNS: Final = ("player", "event", "round", "match", "table", "opponent", "result",
                         "score", "source")


def _lang(request: Request) -> str | None:
    lang = request.query_params.get("lang", "en")
    return lang if lang in LANGS else None


def _bad_lang() -> Response:
    return JSONResponse({"error": "invalid", "message": "query.lang: must be en or it"},
                        status_code=422)


def standings_rows(state: Tournament) -> list[dict[str, Any]]:
    """One row per placed player (or couple) and per player in play."""
    s = final_standings(state)
    rows: list[dict[str, Any]] = []
    for e in s.events:
        for p in e.placings:
            for name in p.names:
                rows.append({"event": e.event, "place": p.label, "name": name,
                             "prizes": " + ".join(s.prizes_for(e.event, p))})
        for name in e.in_play:
            rows.append({"event": e.event, "place": "in play", "name": name, "prizes": ""})
    return rows


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])
    return buf.getvalue()


PRINT_CSS = """
@page { size: A4; margin: 12mm; }
body { font: 11pt/1.35 system-ui, sans-serif; color: #000; background: #fff; margin: 0; }
h1 { font-size: 18pt; margin: 0 0 3mm; }
h2 { font-size: 14pt; margin: 5mm 0 2mm; break-after: avoid; }
table { border-collapse: collapse; width: 100%; break-inside: auto; table-layout: fixed; }
th.prize { width: 45mm; }
th, td { border-bottom: 0.3mm solid #999; padding: 1mm 2mm; text-align: left;
  vertical-align: top; }
th { border-bottom: 0.5mm solid #000; }
tr { break-inside: avoid; }
td.place, th.place, td.table, th.table { width: 18mm; font-variant-numeric: tabular-nums; }
.champion { font-weight: 700; }
.in-play { color: #333; font-style: italic; }
.wall { font-size: 18pt; }
.wall th, .wall td { padding: 2mm 3mm; }
.wall td.table { font-size: 24pt; font-weight: 700; text-align: center; width: 28mm; }
.wall h1 { font-size: 26pt; }
.wall h2 { font-size: 20pt; break-before: page; }
.wall h2:first-of-type { break-before: auto; }
@media screen { body { margin: 8mm; max-width: 210mm; } }
"""


def _page(lang: str, title: str, body: str, cls: str = "") -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{PRINT_CSS}</style></head>"
            f'<body class="{cls}"><main>{body}</main></body></html>')


def standings_html(name: str, state: Tournament, lang: str) -> str:
    """The printable standings with the prize list, in ``lang``."""
    w = WORDS[lang]
    s = final_standings(state)
    parts = [f"<h1>{escape(name)} · {w['standings']}</h1>"]
    if not s.events:
        parts.append(f"<p>{w['not_yet']}</p>")
    for e in s.events:
        parts.append(f'<section aria-labelledby="st-{e.event}">'
                     f'<h2 id="st-{e.event}">{escape(w[e.event])}</h2>')
        rows = []
        for p in e.placings:
            prizes = escape(" + ".join(s.prizes_for(e.event, p)))
            cls = ' class="champion"' if p.first == 1 and p.last == 1 else ""
            rows.append(f'<tr{cls}><td class="place">{escape(p.label)}</td>'
                        f"<td>{escape(', '.join(p.names))}</td><td>{prizes}</td></tr>")
        for n in e.in_play:
            rows.append(f'<tr class="in-play"><td class="place">–</td><td>{escape(n)}</td>'
                        f"<td>{w['in_play']}</td></tr>")
        parts.append(f'<table><thead><tr><th class="place" scope="col">{w["place"]}</th>'
                     f'<th scope="col">{w["player"]}</th>'
                     f'<th class="prize" scope="col">{w["prize"]}</th>'
                     f'</tr></thead><tbody>{"".join(rows)}</tbody></table></section>')
    parts += _pools_html(s.side_pools, lang)
    return _page(lang, f"{name} · {w['standings']}", "".join(parts))


def money(cents: int, lang: str) -> str:
    """Cents as the director writes an amount: 12.50 (en), 12,50 (it)."""
    return f"{cents // 100}{',' if lang == 'it' else '.'}{cents % 100:02d}"


def _pools_html(pools: list[dict[str, Any]], lang: str) -> list[str]:
    """The side pools under the standings: each with its entry, pot and the
    members' pool places and payouts so far."""
    w = WORDS[lang]
    if not pools:
        return []
    parts = [f'<h2 id="st-side-pools">{w["side_pools"]}</h2>']
    for k, pool in enumerate(pools):
        rows = []
        for place in pool["places"]:
            for n, cents in zip(place["names"], place["cents"], strict=True):
                rows.append(f'<tr><td class="place">{escape(place["label"])}</td>'
                            f"<td>{escape(n)}</td><td>{money(cents, lang)}</td></tr>")
        for n in pool["in_play"]:
            rows.append(f'<tr class="in-play"><td class="place">–</td><td>{escape(n)}</td>'
                        f"<td>{w['in_play']}</td></tr>")
        title = (f"{escape(pool['pool'])} · {escape(w[pool['event']])} · {w['entry']} "
                 f"{money(pool['entry'], lang)} · {w['pot']} {money(pool['pot'], lang)}")
        parts.append(f'<section aria-labelledby="pool-{k}"><h3 id="pool-{k}">{title}</h3>'
                     f'<table><thead><tr><th class="place" scope="col">{w["place"]}</th>'
                     f'<th scope="col">{w["player"]}</th>'
                     f'<th class="prize" scope="col">{w["paid"]}</th></tr></thead>'
                     f'<tbody>{"".join(rows)}</tbody></table></section>')
    return parts


def latest_round(state: Tournament) -> tuple[str, int] | None:
    """The (event, round) of the round most recently put at its tables."""
    if not state.tables:
        return None
    event, r, _ = list(state.tables)[-1]
    return event, r


def pairings(state: Tournament, event: str, r: int) -> list[dict[str, Any]]:
    """A round's matches with both players known: table (None before the
    round starts), players, winner, sorted by table number."""
    bracket = state.bracket(event)
    out = []
    for i, m in enumerate(bracket.rounds[r] if r < len(bracket.rounds) else []):
        if m.a is None or m.b is None:
            continue
        out.append({"event": event, "round": r, "match": i,
                    "table": state.tables.get((event, r, i)), "a": m.a, "b": m.b,
                    "winner": m.winner})
    big = 10**9
    out.sort(key=lambda x: (x["table"] if x["table"] is not None else big, x["match"]))
    return out


def pairings_html(name: str, state: Tournament, event: str, r: int, lang: str) -> str:
    """A round's pairings on A4 for the wall: by table, then by name."""
    w = WORDS[lang]
    title = f"{w[event]} · {w['round'].format(n=r + 1)}"
    rows = pairings(state, event, r)
    by_table = "".join(
        f'<tr><td class="table">{x["table"] if x["table"] is not None else "–"}</td>'
        f'<td>{escape(x["a"])}</td><td>{escape(x["b"])}</td></tr>' for x in rows)
    names = sorted(((x["a"], x["b"], x["table"]) for x in rows),
                   key=lambda y: y[0].casefold())
    names += sorted(((x["b"], x["a"], x["table"]) for x in rows),
                    key=lambda y: y[0].casefold())
    names.sort(key=lambda y: y[0].casefold())
    by_name = "".join(
        f'<tr><td>{escape(me)}</td><td class="table">{n if n is not None else "–"}</td>'
        f"<td>{escape(other)}</td></tr>" for me, other, n in names)
    body = (f"<h1>{escape(name)} · {escape(title)}</h1>"
            f'<h2 id="by-table">{w["by_table"]}</h2>'
            f'<table aria-labelledby="by-table"><thead><tr><th class="table" scope="col">'
            f'{w["table"]}</th><th scope="col">{w["player"]}</th><th scope="col">'
            f'{w["opponent"]}</th></tr></thead><tbody>{by_table}</tbody></table>'
            f'<h2 id="by-name">{w["by_name"]}</h2>'
            f'<table aria-labelledby="by-name"><thead><tr><th scope="col">{w["player"]}</th>'
            f'<th class="table" scope="col">{w["table"]}</th><th scope="col">'
            f'{w["opponent"]}</th></tr></thead><tbody>{by_name}</tbody></table>')
    if not rows:
        body = f"<h1>{escape(name)} · {escape(title)}</h1><p>{w['none']}</p>"
    return _page(lang, f"{name} · {title}", body, "wall")


def room_standings(state: Tournament) -> dict[str, Any]:
    """What the room display adds for the tournament's end and its start:
    each event's champion once decided, the standings, the registered
    players (the welcome view before round 1) and the order the results came
    in (the newest first), and every match at a table now ("where do I
    play?", every event)."""
    s = final_standings(state)
    return {"champions": {e.event: e.champion for e in s.events},
            "standings": [e.to_dict() for e in s.events],
            "registered": sorted((p.name for p in state.players if not p.withdrawn),
                                 key=str.casefold),
            "result_order": [list(k) for k in state.results],
            "seats": seats(state)}


# ------------------------------------------------------------------ HTTP

async def post_prizes(server: Server, request: Request) -> Response:
    """The director's prize list of one event (replaces that event's)."""
    from bgclock.server.tournaments.service import one_action

    return await one_action(PrizesBody, "prizes")(server, request)


async def post_side_pool(server: Server, request: Request) -> Response:
    """A side pool (jackpot) of one event, or its removal (``_side``)."""
    from bgclock.server.tournaments.service import one_action

    return await one_action(SidePoolBody, "side_pool")(server, request)


async def get_standings_json(server: Server, request: Request) -> Response:
    from bgclock.server.tournaments.service import _hub

    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    return JSONResponse({"tournament": row.name, **final_standings(hub.state).to_dict()})


async def get_standings_csv(server: Server, request: Request) -> Response:
    from bgclock.server.tournaments.service import _hub

    hub = await _hub(server, request)
    return Response(_csv(STANDINGS_COLUMNS, standings_rows(hub.state)),
                    media_type="text/csv; charset=utf-8", headers={
                        "Content-Disposition":
                        f'attachment; filename="standings-{hub.id}.csv"'})


async def get_standings_html(server: Server, request: Request) -> Response:
    from bgclock.server.tournaments.service import _hub

    lang = _lang(request)
    if lang is None:
        return _bad_lang()
    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    return HTMLResponse(standings_html(row.name, hub.state, lang))


async def get_results_json(server: Server, request: Request) -> Response:
    from bgclock.server.tournaments.service import _hub

    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    return JSONResponse({"tournament": row.name, "results": player_results(hub.state)})


async def get_results_csv(server: Server, request: Request) -> Response:
    from bgclock.server.tournaments.service import _hub

    hub = await _hub(server, request)
    return Response(_csv(RESULT_COLUMNS, player_results(hub.state)),
                    media_type="text/csv; charset=utf-8", headers={
                        "Content-Disposition": f'attachment; filename="results-{hub.id}.csv"'})


async def get_pairings_html(server: Server, request: Request) -> Response:
    """``?event=main|consolation&round=N`` (1-based; default: the round last
    put at its tables) ``&lang=``."""
    from bgclock.server.errors import Refused
    from bgclock.server.tournaments.service import _hub

    lang = _lang(request)
    if lang is None:
        return _bad_lang()
    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    q = request.query_params
    latest = latest_round(hub.state)
    event = q.get("event", latest[0] if latest else "main")
    if event not in ("main", "consolation", "last_chance"):
        return Refused(422, "invalid",
                       "query.event: must be main, consolation or last_chance").response()
    drawn = {"main": hub.state.main, "consolation": hub.state.consolation,
             "last_chance": hub.state.last_chance}[event]
    if drawn is None:
        return Refused(409, "illegal", f"query.event: the {event} is not drawn yet").response()
    rounds = max(len(drawn.bracket.rounds), 1)
    raw = q.get("round")
    if raw is None:
        r = latest[1] if latest and latest[0] == event else 0
    elif raw.isdigit() and 1 <= int(raw) <= rounds:
        r = int(raw) - 1
    else:
        return Refused(422, "invalid",
                       f"query.round: must be a whole number from 1 to {rounds}").response()
    return HTMLResponse(pairings_html(row.name, hub.state, event, r, lang))


#: Director routes under ``/api/tournaments/{tournament_id}``.
ROUTES: list[tuple[str, str, Any]] = [
    ("/prizes", "POST", post_prizes),
    ("/side-pools", "POST", post_side_pool),
    ("/standings.json", "GET", get_standings_json),
    ("/standings.csv", "GET", get_standings_csv),
    ("/standings.html", "GET", get_standings_html),
    ("/results.json", "GET", get_results_json),
    ("/results.csv", "GET", get_results_csv),
    ("/pairings.html", "GET", get_pairings_html),
]


def openapi_paths(ok: Any, errors: Any, op: Any, ref: Any) -> dict[str, Any]:
    """These routes in ``/openapi.json`` (``_openapi``'s helpers passed in)."""
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
