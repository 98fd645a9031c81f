"""A club's public events: ``/p/{club}`` (a page) and ``/p/{club}.json``
(its data), anyone's, without a key (issue 37 §4, docs/hosting.md).

On a hosted server of many clubs, the list of what ``club`` shows the
public now: the tournaments of this server the club owns (``bgclock clubs
add``: ``TournamentRow.club``) whose state is public, each at its
``public_url`` (``routes.common``), and the tournaments a venue published
here under the club's name whose page is up (``tournaments.published``),
each at ``/p/{club}/{id}``.  An event is listed exactly when its own page
answers: a private tournament, another club's, the server director's own
and a publication taken down are never named.

``{"club": NAME, "events": [{"name", "url", "closed", "from"}]}``: open
events first, then by name; ``from`` is ``hosted`` (this server's) or
``venue`` (published).  Nothing else of an event is told (no ids of
players, no keys, no tokens).  A club with nothing public, and a name no
club has, answer the same 200 with no events.  The work is bounded: the
newest ``MAX_SCANNED`` of each kind are looked at, ``MAX_EVENTS`` listed.

The page is the same list rendered here, without JavaScript, in English or
Italian (``edge.session.page_language``).
"""

from __future__ import annotations

from html import escape
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.edge.session import page_language
from bgclock.server.render.public import public_path
from bgclock.server.routes.common import json_response, public_url
from bgclock.server.routes.public import NO_STORE
from bgclock.store import NotFound

#: Events listed at most (open ones first, then by name).
MAX_EVENTS: Final = 500
#: Of each kind (this server's tournaments, the venues' publications), the
#: newest looked at, at most: each is folded to learn whether it is public.
MAX_SCANNED: Final = 4 * MAX_EVENTS

#: The page's words.
WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {"title": "public events", "heading": "Public events",
           "none": "No public events yet.", "closed": "(closed)"},
    "it": {"title": "eventi pubblici", "heading": "Eventi pubblici",
           "none": "Nessun evento pubblico per ora.", "closed": "(concluso)"},
}

_STYLE = ("body{font:1.05rem/1.5 system-ui,sans-serif;margin:0;padding:1rem;"
          "color:#1b1b1b;background:#fafafa}main{max-width:40rem;margin:auto}"
          "h1{font-size:1.5rem;margin:.2rem 0;overflow-wrap:anywhere}"
          "h2{font-size:1.1rem;font-weight:normal;color:#555;margin:0 0 1rem}"
          "ul{list-style:none;margin:0;padding:0}"
          "li{padding:.6rem 0;border-bottom:1px solid #ddd;overflow-wrap:anywhere}"
          "a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}"
          ".closed{color:#666}")


async def _hosted(server: Server, request: Request, club: str) -> list[dict[str, Any]]:
    """This server's tournaments of ``club`` whose state is public."""
    rows = sorted((r for r in await server.store.tournaments() if r.club == club),
                  key=lambda r: r.id, reverse=True)[:MAX_SCANNED]
    events: list[dict[str, Any]] = []
    for row in rows:
        try:
            hub = await server.tourneys.get(row.id)
        except NotFound:  # gone since the list was read
            continue
        url = public_url(server, request, hub)
        if url is None:  # not public
            continue
        events.append({"name": row.name, "url": url, "closed": row.closed_ms is not None,
                       "from": "hosted"})
        if len(events) >= MAX_EVENTS:
            break
    return events


async def _venues(server: Server, request: Request, club: str) -> list[dict[str, Any]]:
    """The tournaments venues published here as ``club`` whose page is up
    (``Published.view``'s condition: a publication with a public fold)."""
    publisher = server.publisher
    if publisher is not None and publisher.club == club:
        return []  # /p/{club}/{id} here is this venue's own tournament, not a publication
    rows = sorted(await server.store.publications(club),
                  key=lambda p: (p.updated_ms, p.id), reverse=True)[:MAX_SCANNED]
    base = server.base_url(request)
    events: list[dict[str, Any]] = []
    for row in rows:
        hub = await server.published.get(club, row.tournament_id)
        if hub is None or hub.row is None or not hub.state.public:
            continue
        events.append({"name": hub.row.name,
                       "url": f"{base}{public_path(hub.tournament_id, club)}",
                       "closed": hub.row.closed, "from": "venue"})
        if len(events) >= MAX_EVENTS:
            break
    return events


async def club_events(server: Server, request: Request, club: str) -> dict[str, Any]:
    """``/p/{club}.json``'s body: the club's public events now."""
    events = [*await _hosted(server, request, club), *await _venues(server, request, club)]
    events.sort(key=lambda e: (e["closed"], e["name"].casefold(), e["name"], e["url"]))
    return {"club": club, "events": events[:MAX_EVENTS]}


def club_page(body: dict[str, Any], lang: str) -> str:
    """The list as a page in ``lang`` (every name escaped)."""
    words = WORDS[lang]
    club = escape(body["club"])
    items = []
    for event in body["events"]:
        closed = (f' <span class="closed">{escape(words["closed"])}</span>'
                  if event["closed"] else "")
        items.append(f'<li><a href="{escape(event["url"])}">{escape(event["name"])}</a>'
                     f"{closed}</li>")
    listed = (f'<ul id="events">{"".join(items)}</ul>' if items
              else f'<p id="none">{escape(words["none"])}</p>')
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{club} \u2014 {escape(words['title'])}</title>"
            f"<style>{_STYLE}</style></head><body><main>"
            f"<h1>{club}</h1><h2>{escape(words['heading'])}</h2>{listed}"
            "</main></body></html>")


async def events_json(request: Request) -> Response:
    server = server_of(request)
    answer = json_response(await club_events(server, request, request.path_params["club"]))
    answer.headers.update(NO_STORE)
    return answer


async def events_page(request: Request) -> Response:
    server = server_of(request)
    body = await club_events(server, request, request.path_params["club"])
    return HTMLResponse(club_page(body, page_language(request)),
                        headers={**NO_STORE, "Vary": "Accept-Language"})


#: Anyone's (no credential): a club's name starts with a letter, so these
#: never meet ``/p/{tournament_id}`` (digits only).
routes = [
    Route("/p/{club:club}", events_page, methods=["GET"]),
    Route("/p/{club:club}.json", events_json, methods=["GET"]),
]
