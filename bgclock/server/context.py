"""The server's one context object: ``Server`` (store, hub, tournaments,
clock, secrets, limits and settings), what every route reads.

Every route module imports this one; this one imports no route module
(``docs/architecture.md``: context imports none, routes import context, no
module imports one that imports it back; ``tests/test_imports.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import HTTPConnection, Request

from bgclock.server.edge.auth import DirectorAuth, TableTokens
from bgclock.server.edge.named_keys import CLUB_DIRECTOR, PUBLISHING, NamedKeys
from bgclock.server.edge.principal import Principal, principal_of
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.lag import LagParams
from bgclock.server.live.roomfeed import RoomFeed
from bgclock.server.live.time import ServerClock
from bgclock.server.ownership.interface import Ownership
from bgclock.server.ownership.local import LocalOwnership
from bgclock.server.tournaments.published import Published
from bgclock.server.tournaments.publisher import Publisher
from bgclock.server.tournaments.service import Tourneys, public_body, room_body
from bgclock.store import NotFound, Store, TournamentRow


class Server:
    """The application's state: the store, the live hub, the tournaments, the
    room feed, the clock, the secrets, the rates and the settings."""

    def __init__(self, store: Store, *, director_secret: str, clock: ServerClock,
                 lag_params: LagParams, public_url: str | None, allow_origins: Iterable[str],
                 hello_timeout_s: float, checkpoint_interval_ms: int,
                 table_rate: tuple[float, float], director_rate: tuple[float, float]) -> None:
        self.store = store
        self.director = DirectorAuth(director_secret)
        self.clock = clock
        #: When this server process started (server ms): a table page that
        #: sees it change in ``welcome`` says the server restarted.
        self.started_ms = clock.now_ms()
        self.hub = Hub(store, clock, lag_params=lag_params,
                       checkpoint_interval_ms=checkpoint_interval_ms)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.allow_origins = frozenset(allow_origins)
        self.hello_timeout_s = hello_timeout_s
        self.table_rate = table_rate
        self.director_rate = director_rate
        self.tokens: TableTokens | None = None
        self.recovered: list[int] = []
        self.tourneys = Tourneys(self)
        self.hub.on_over = self.tourneys.on_table_over
        self.hub.on_folded = self.tourneys.table_folded
        #: The room displays' streams (``live.roomfeed``), woken by any change.
        self.room_feed = RoomFeed(lambda tid: room_body(self, tid))
        self.hub.on_change = self.room_feed.changed
        #: The public pages' streams (``/p/{id}.stream``): every change mark
        #: of the room's feed reaches them; none while the page is down.
        self.public_feed = RoomFeed(lambda tid: public_body(self, tid, self.publish_club),
                                    event="public")
        self.room_feed.followers.append(self.public_feed)
        #: This venue's publishing to a hosted server (``--publish-to``), or None.
        self.publisher: Publisher | None = None
        #: The publishing keys this (hosted) server accepts, and what was published.
        self.publish_keys = NamedKeys(PUBLISHING)
        #: The clubs this (hosted) server serves, by their directors' keys
        #: (``bgclock clubs add``), and which club owns each tournament (None:
        #: the server's own director's), read once each: an owner never changes.
        self.clubs = NamedKeys(CLUB_DIRECTOR)
        self.owners: dict[int, str | None] = {}
        self.published = Published(store, clock)
        #: Who owns each table and tournament (``ownership``): this process
        #: alone, unless ``create_app`` chose otherwise.
        self._ownership: Ownership = LocalOwnership(self.hub, self.tourneys)
        self.hub.owner = self._ownership
        #: The names a WebSocket may be opened at (``edge.guard.served_hosts``;
        #: None: any), so that a page opened at another says why it cannot connect.
        self.ws_hosts: frozenset[str] | None = None

    @property
    def ownership(self) -> Ownership:
        """Who owns each table and tournament."""
        return self._ownership

    @ownership.setter
    def ownership(self, ownership: Ownership) -> None:
        """``create_app``'s choice, made once before the server starts: the
        hub asks it which tables are this process's (``live.owner``)."""
        self._ownership = self.hub.owner = ownership

    # ----------------------------------------------------------------- HTTP

    def base_url(self, request: Request) -> str:
        return self.public_url or str(request.base_url).rstrip("/")

    def table_link(self, request: Request, table_id: int) -> str:
        assert self.tokens is not None
        return f"{self.base_url(request)}/t/{table_id}?token={self.tokens.token(table_id)}"

    def principal(self, request: HTTPConnection) -> Principal:
        """Who sent ``request`` (``edge.principal``: worked out once, from its
        own credentials, wherever it arrived)."""
        return principal_of(request, self.director, self.publish_keys, self.clubs)

    def is_director(self, request: HTTPConnection) -> bool:
        """The request's principal (``edge.principal``, worked out once from
        its own credentials, wherever it arrived) is the director."""
        return self.principal(request).director

    async def directs(self, request: HTTPConnection, tournament_id: int) -> bool:
        """The request's principal directs the tournament: the server's
        director, or its club's (``Principal.directs``)."""
        principal = self.principal(request)
        if not principal.director:
            return False
        try:
            return principal.directs(await self.owner(tournament_id))
        except NotFound:
            return principal.club is None

    async def owner(self, tournament_id: int) -> str | None:
        """The club that owns the tournament (None: the server's director's);
        ``NotFound``."""
        if tournament_id not in self.owners:
            self.owners[tournament_id] = (await self.store.tournament(tournament_id)).club
        return self.owners[tournament_id]

    async def table_owner(self, table_id: int) -> str | None:
        """The club that owns the table's tournament; ``NotFound``."""
        table = self.hub.tables.get(table_id)
        tid = table.row.tournament_id if table is not None else (
            await self.store.table(table_id)).tournament_id
        return await self.owner(tid)

    def note_owners(self, rows: Iterable[TournamentRow]) -> None:
        """The owners of tournaments read anyway (a list), kept for the
        dashboards' feed, which decides at once (``ws.connection.ClubFeed``)."""
        for row in rows:
            self.owners[row.id] = row.club

    @property
    def publish_club(self) -> str | None:
        """The club's name this venue publishes under (its public pages'
        paths are ``/p/{club}/{id}``), or None."""
        return self.publisher.club if self.publisher is not None else None

    def table_info(self, request: Request, table: TableRunner) -> dict[str, Any]:
        return {**table.info(), "url": self.table_link(request, table.id),
                "token": self.tokens.token(table.id) if self.tokens else None}

    async def table_or_404(self, request: Request) -> TableRunner:
        """The path's table (its id bounded by the ``id`` convertor), folded
        (``Hub.ready``); ``NotFound``."""
        table_id: int = request.path_params["table_id"]
        table = await self.hub.ready(table_id)
        if table is None:
            raise NotFound(f"no table {table_id}")
        return table

    async def live_table(self, request: Request) -> TableRunner:
        """The path's table as its owner holds it now, for reading: this
        process's own, or a mirror of another process's
        (``Ownership.readable``); ``NotFound``."""
        table_id: int = request.path_params["table_id"]
        if table_id not in self.hub.tables:
            await self.ownership.known(table_id)  # made by another process just now?
        return await self.ownership.readable(await self.table_or_404(request))


def server_of(conn: HTTPConnection) -> Server:
    """The application's ``Server`` (set by ``create_app``), for a request
    or a WebSocket."""
    server: Server = conn.app.state.server
    return server
