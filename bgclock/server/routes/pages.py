"""The pages and the server's descriptions (health, OpenAPI, protocol schemas)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.edge.guard import refused_host
from bgclock.server.live.commands import VERSION
from bgclock.server.render import pages as _pages
from bgclock.server.render.openapi import openapi
from bgclock.server.routes.tables import table_by_token
from bgclock.server.ws.protocol import SCHEMAS


async def director_page(request: Request) -> Response:
    """The director's page (its Route carries the director's guard)."""
    return HTMLResponse(_pages.director_page(server_of(request).principal(request).club))


async def table_page(request: Request) -> Response:
    """The table's page for a request that carries the table's token, with
    the table's snapshot in it (the WebSocket's first message, drawn before
    the socket answers).  A table another process owns has none: its
    mirror here may lag, and the page waits for the socket."""
    server = server_of(request)
    table = await table_by_token(server, request)
    own = server.ownership.owns(table.id)
    return HTMLResponse(_pages.table_page(
        table.id, refused_host=refused_host(server.ws_hosts, request.headers.get("host")),
        snapshot=table.snapshot_message() if own and table.folded else None))


async def table_worker(request: Request) -> Response:
    """The table page's service worker, at the root so that it may serve
    ``/t/`` (the page registers it only over TLS; docs/pages.md)."""
    return Response(_pages.table_worker(), media_type="text/javascript")


async def index(request: Request) -> Response:
    return HTMLResponse(_pages.index_page())


async def healthz(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def schemas(request: Request) -> Response:
    return JSONResponse({"version": VERSION, "messages": SCHEMAS})


async def openapi_json(request: Request) -> Response:
    return JSONResponse(openapi())


#: Open to all (the table page: its token).
routes = [
    Route("/", index),
    Route("/healthz", healthz),
    Route("/openapi.json", openapi_json),
    Route("/protocol/schemas.json", schemas),
    Route("/t/{table_id:id}", table_page),
    Route("/table-sw.js", table_worker),
]

#: The director's (under the guard).
director = [
    Route("/director", director_page),
]
