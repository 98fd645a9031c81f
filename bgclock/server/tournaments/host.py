"""What the tournament service runs on, without importing the server's
context: ``TournamentHub`` (one tournament's folded state and its lock) and
the two protocols the service, the late desk and the clock results are
written against (``Host``: what they read of ``context.Server``;
``Tournaments``: of ``service.Tourneys``).  ``context`` imports the service;
the service never imports ``context`` (``tests/test_imports.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from starlette.requests import Request

from bgclock.server.edge.auth import TableTokens
from bgclock.server.live.hub import Hub
from bgclock.server.live.roomfeed import RoomFeed
from bgclock.server.live.time import ServerClock
from bgclock.store import Store, TableSpec
from bgclock.tournament import Tournament


class TournamentHub:
    """One tournament's folded state, the log it was folded from, and its lock."""

    def __init__(self, tournament_id: int, log: list[dict[str, Any]]) -> None:
        self.id = tournament_id
        #: The stored actions, in order (kept to rebuild the state after a
        #: refused batch or a failed write, never on the way of an action).
        self.log = log
        self.state = Tournament.fold(log)
        self.lock = asyncio.Lock()
        #: Bumped by each rebuild: a view is of one state's one count.
        self.generation = 0
        self._view: tuple[int, int, dict[str, Any]] | None = None

    def rebuild(self) -> None:
        """The state folded again from the stored log: after a batch refused
        midway or a write that failed, the actions decided in place go."""
        self.state = Tournament.fold(self.log)
        self.generation += 1

    def view(self) -> dict[str, Any]:
        """``state.to_dict()``, made once per accepted action (the state
        changes only by an accepted action, which counts, or by a rebuild,
        which is a new state): the dashboards' refreshes and the room's
        reads do not each walk the whole tournament.  Read-only."""
        key = (self.generation, self.state.count)
        if self._view is None or self._view[:2] != key:
            self._view = (*key, self.state.to_dict())
        return self._view[2]


class Tournaments(Protocol):
    """What the late desk, the clock results and the flights' seating use of
    ``service.Tourneys``."""

    hubs: dict[int, TournamentHub]

    @property
    def server(self) -> Host: ...

    async def get(self, tournament_id: int) -> TournamentHub: ...

    async def act(self, hub: TournamentHub, actions: list[dict[str, Any]], *,
                  source: str = "director",
                  check: Callable[[list[dict[str, Any]]], None] | None = None,
                  ) -> list[dict[str, Any]]: ...

    def announce(self, hub: TournamentHub) -> None: ...

    async def seat(self, hub: TournamentHub, number: int,
                   spec: TableSpec) -> dict[str, Any] | None: ...

    def table_spec(self, state: Tournament, event: str, r: int, i: int,
                   number: int) -> TableSpec | None: ...

    def check_reusable(self, hub: TournamentHub, number: int) -> None: ...

    async def tables_folded(self, hub: TournamentHub) -> None: ...

    async def set_up(self, hub: TournamentHub,
                     assigned: list[dict[str, Any]]) -> list[dict[str, Any]]: ...


class TournamentOwner(Protocol):
    """What the tournament service uses of this process's part in a cluster
    (``cluster.Cluster``): the tournament's lease before an action, and its
    loss when a write was fenced."""

    async def own_tournament(self, hub: TournamentHub) -> None: ...

    def tournament_fenced(self, tournament_id: int) -> None: ...


class Host(Protocol):
    """What the tournament service reads of the server (``context.Server``)."""

    @property
    def store(self) -> Store: ...

    @property
    def clock(self) -> ServerClock: ...

    @property
    def hub(self) -> Hub: ...

    @property
    def room_feed(self) -> RoomFeed: ...

    @property
    def tokens(self) -> TableTokens | None: ...

    @property
    def tourneys(self) -> Tournaments: ...

    @property
    def cluster(self) -> TournamentOwner | None: ...

    def is_director(self, request: Request) -> bool: ...
