"""The ASGI application: ``create_app`` only (the lifespan, the Mount tree,
the exception handlers).

A thin layer: receive -> decode (``ws.protocol``) -> decide (``live.hub``
with ``bgclock.core``) -> persist (the hub's writer) -> broadcast.  The
routes are in ``routes/`` (one module per resource, each exporting
``routes``), the state they share in ``context.Server``, the refusals in
``errors``.  The director's routes sit under one Mount whose middleware is
the director's guard (``edge.director``); what the room token or a table's
token opens is listed before it.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute, Mount

import bgclock.server.edge.paths  # noqa: F401  (registers the ``id`` path convertor)
from bgclock.server.context import Server
from bgclock.server.edge.auth import DirectorAuth, TableTokens, director_key
from bgclock.server.edge.clubs import FreshKeys
from bgclock.server.edge.director import DirectorOnly
from bgclock.server.edge.guard import HANDSHAKES, EdgeGuard, install_redaction, served_hosts
from bgclock.server.edge.owner import ToOwner
from bgclock.server.edge.session import KeyExchange
from bgclock.server.errors import HANDLERS
from bgclock.server.live.heap import HeapKeeper
from bgclock.server.live.lag import DEFAULT_PARAMS, LagParams
from bgclock.server.live.time import ServerClock, WallClock
from bgclock.server.routes import (
    clubs,
    contests,
    desk,
    flights,
    forecast,
    money,
    pages,
    position,
    public,
    publish,
    register,
    room,
    standings,
    tables,
    tournaments,
    tourney,
)
from bgclock.server.routes.static import static_routes
from bgclock.server.tournaments.publisher import Publisher
from bgclock.server.ws import session as ws
from bgclock.store import Store
from bgclock.store._postgres import PostgresStore

if TYPE_CHECKING:
    from bgclock.server.cluster.config import ClusterConfig

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
#: HTTP answers at least this long are gzipped for a client that accepts it.
GZIP_MIN_BYTES = 1024


def create_app(
    store: Store,
    *,
    director_secret: str | None = None,
    clock: ServerClock | None = None,
    lag_params: LagParams = DEFAULT_PARAMS,
    public_url: str | None = None,
    allow_origins: Iterable[str] = (),
    hello_timeout_s: float = 10.0,
    checkpoint_interval_ms: int = 1000,
    table_rate: tuple[float, float] = (30, 10),
    director_rate: tuple[float, float] = (600, 300),
    static_dir: Path | None = WEB_STATIC,
    heap_settle_s: float | None = 0.1,
    bind_host: str | None = None,
    allow_hosts: Iterable[str] = (),
    handshake_rate: tuple[float, float] | None = HANDSHAKES,
    cluster: ClusterConfig | None = None,
    publish_to: str | None = None,
    publish_key: str | None = None,
) -> Starlette:
    """The server's ASGI application over ``store`` (opened, unless it already
    is, and closed by its lifespan).  ``director_secret``: None takes the
    director's key kept in the store (made the first time).

    ``heap_settle_s``: how often the long-lived heap is frozen out of the
    garbage collector's walks (``live.heap``); None leaves the collector alone.
    ``bind_host``, ``public_url`` and ``allow_hosts`` name the hosts a
    WebSocket may be opened at (``edge.guard.served_hosts``).  ``cluster``: this
    process is one of several on one PostgreSQL database (``cluster``).
    ``publish_to``: a hosted bgclock this venue publishes its public
    tournaments to, with ``publish_key`` (``tournaments.publisher``)."""
    # Without a secret, the lifespan takes the director's key kept in the store.
    server = Server(store, director_secret=director_secret or secrets.token_urlsafe(16),
                    clock=clock or WallClock(), lag_params=lag_params, public_url=public_url,
                    allow_origins=allow_origins, hello_timeout_s=hello_timeout_s,
                    checkpoint_interval_ms=checkpoint_interval_ms, table_rate=table_rate,
                    director_rate=director_rate)
    if cluster is not None:
        if not isinstance(store, PostgresStore):
            raise ValueError("a cluster needs PostgreSQL (--db postgresql://...)")
        # only here: the cluster's code and redis load for ``--cluster`` alone
        from bgclock.server.cluster.node import Cluster

        node = Cluster(server, store, cluster, ws.dispatch)
        server.ownership = node
    if publish_to is not None:
        if not publish_key:
            raise ValueError("publishing needs a publishing key (BGCLOCK_PUBLISH_KEY)")
        server.publisher = Publisher(server, publish_to, publish_key)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        await store.claim()  # one server per store (``bgclock serve`` claimed it already)
        await server.ownership.start()
        if director_secret is None:
            server.director = DirectorAuth(await director_key(store))
        key = await store.set_meta_if_absent("table_token_key", secrets.token_hex(32))
        server.tokens = TableTokens(bytes.fromhex(key))
        server.recovered = await server.hub.start()
        for table in server.hub.tables.values():  # a match that ended while the server was down
            # (a table the start left unfolded is told when it is folded: ``Hub.ready``)
            if table.folded and not table.closed and table.quarantined is None:
                table.report_over(table.match.state())
        await server.tourneys.resume()  # late counts and late starts due go on
        await server.publish_keys.load(store)  # the venues that may publish here
        await server.clubs.load(store)  # the clubs served here (bgclock clubs add)
        if server.publisher is not None:
            server.publisher.start()
        heap = HeapKeeper(heap_settle_s) if heap_settle_s else None
        if heap is not None:
            heap.start()
        try:
            yield
        finally:
            if heap is not None:
                await heap.stop()
            if server.publisher is not None:
                await server.publisher.stop()
            await server.hub.stop()
            await server.ownership.stop()
            server.tourneys.desk.close()
            await store.close()

    routes: list[BaseRoute] = [
        *pages.routes,
        *room.routes,                   # the room token or the director's key
        *public.routes,                 # anyone's, while the tournament is public
        *publish.routes,                # the same at /p/{club}/{id}; a publishing venue's key
        *clubs.routes,                  # anyone's: a club's public events at /p/{club}
        *tables.public,                 # a table's own token
        *ws.routes,
        *(static_routes(static_dir) if static_dir is not None and static_dir.is_dir() else []),
        Mount("", middleware=[Middleware(DirectorOnly)], routes=[
            *pages.director,
            *tournaments.routes,
            *public.director,
            # run by the process that owns the tournament
            Mount("/api/tournaments/{tournament_id:id}", routes=[
                *tourney.routes, *desk.routes, *standings.routes, *contests.routes,
                *flights.routes, *register.tournament_routes, *money.routes,
                *forecast.routes],
                middleware=[Middleware(ToOwner, kind="tournament", param="tournament_id")]),
            *tables.routes,
            *register.routes,
            *position.routes,
        ]),
    ]
    install_redaction()
    hosts = served_hosts(bind_host, public_url, allow_hosts)
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers=dict(HANDLERS),
                    middleware=[Middleware(EdgeGuard, hosts=hosts, handshakes=handshake_rate),
                                # a club's key added while this process runs
                                Middleware(FreshKeys),
                                # a browser opening an address with the
                                # director's key: the session cookie, and
                                # the address again without the key
                                Middleware(KeyExchange),
                                # pages, scripts and JSON (room.json: 44 KiB,
                                # 3 KiB gzipped) to clients that accept gzip
                                Middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)])
    app.state.server = server
    server.ws_hosts = hosts
    if cluster is not None:  # a director's request forwarded here runs through it
        node.app = app
    return app
