"""What the tournament service runs on, without importing the server's
context: ``LiveTournament`` (one tournament's folded state and its lock) and
the two protocols the service, the late desk and the clock results are
written against (``Host``: what they read of ``context.Server``;
``Tournaments``: of ``service.Tourneys``).  ``context`` imports the service;
the service never imports ``context`` (``tests/test_imports.py``).
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import Request

from bgclock.server.edge.auth import TableTokens
from bgclock.server.edge.principal import Principal
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.owner import TableOwner
from bgclock.server.live.roomfeed import RoomFeed
from bgclock.server.live.time import ServerClock
from bgclock.store import Store, TableSpec
from bgclock.tournament import Tournament

if TYPE_CHECKING:
    from bgclock.core import MatchState


class LiveTournament:
    """One tournament's folded state, the log it was folded from, and its lock."""

    def __init__(self, tournament_id: int, log: list[dict[str, Any]],
                 club: str | None = None) -> None:
        self.id = tournament_id
        #: The club that owns it on a server of many clubs (None: the
        #: server director's): its rooms are the club's own.
        self.club = club
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


@dataclass(frozen=True, slots=True, kw_only=True)
class TableResult:
    """A table's match over on the clock, as its tournament takes it: what
    the result needs of the table and of its final state.  It may be sent
    whole to another process that owns the tournament (``to_dict``).
    ``key`` names the table's match (its id and its time line's start), so
    a retry or a takeover is known for what it is."""

    table_id: int
    tournament_id: int
    players: tuple[str, str]
    #: "A" or "B".
    winner: str
    score: tuple[int, int]
    cube_value: int
    stopped_reason: str | None
    #: When the table's match began (its row's ``created_ms``).
    match_started_ms: int = 0

    @property
    def key(self) -> str:
        return f"{self.table_id}/{self.match_started_ms}"

    @classmethod
    def of(cls, table: TableRunner, state: MatchState) -> TableResult:
        return cls(table_id=table.id, tournament_id=table.row.tournament_id,
                   players=table.row.spec.players, winner=str(state.winner),
                   score=state.score, cube_value=state.cube_value,
                   stopped_reason=state.stopped_reason, match_started_ms=table.row.created_ms)

    def to_dict(self) -> dict[str, Any]:
        return {"v": 1, "table_id": self.table_id, "tournament_id": self.tournament_id,
                "players": list(self.players), "winner": self.winner,
                "score": list(self.score), "cube_value": self.cube_value,
                "stopped_reason": self.stopped_reason,
                "match_started_ms": self.match_started_ms}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableResult:
        a, b = d["players"]
        x, y = d["score"]
        return cls(table_id=int(d["table_id"]), tournament_id=int(d["tournament_id"]),
                   players=(str(a), str(b)), winner=str(d["winner"]), score=(int(x), int(y)),
                   cube_value=int(d["cube_value"]),
                   stopped_reason=None if d.get("stopped_reason") is None
                   else str(d["stopped_reason"]),
                   match_started_ms=int(d.get("match_started_ms") or 0))


class Tournaments(Protocol):
    """What the late desk, the clock results and the flights' seating use of
    ``service.Tourneys``."""

    hubs: dict[int, LiveTournament]

    @property
    def server(self) -> Host: ...

    async def get(self, tournament_id: int) -> LiveTournament: ...

    async def act(self, hub: LiveTournament, actions: list[dict[str, Any]], *,
                  source: str = "director",
                  check: Callable[[list[dict[str, Any]]], None] | None = None,
                  ) -> list[dict[str, Any]]: ...

    def announce(self, hub: LiveTournament) -> None: ...

    async def seat(self, hub: LiveTournament, number: int,
                   spec: TableSpec) -> dict[str, Any] | None: ...

    def table_spec(self, state: Tournament, event: str, r: int, i: int,
                   number: int) -> TableSpec | None: ...

    def check_reusable(self, hub: LiveTournament, number: int) -> None: ...

    async def tables_folded(self, hub: LiveTournament) -> None: ...

    async def set_up(self, hub: LiveTournament,
                     assigned: list[dict[str, Any]]) -> list[dict[str, Any]]: ...

    async def enter_result(self, result: TableResult) -> None: ...


class TournamentOwner(TableOwner):
    """Who owns the tournaments and the tables they seat, as the tournament
    service asks it (the tournaments' part of ``ownership.Ownership``; the
    tables' part, ``TableOwner``, is the hub's): the tournament taken before
    an action, its loss when a write was fenced, a change told to every
    process, a round's match seated at the table's owner, and a table's
    result delivered to the tournament's owner."""

    @abstractmethod
    async def own_tournament(self, hub: LiveTournament) -> None:
        """Before an action: this process owns the tournament (taken now:
        ``hub`` folded afresh from the store), else ``ApiError`` 503
        ``not_owner``."""

    @abstractmethod
    def tournament_fenced(self, tournament_id: int) -> None:
        """A write of the tournament was fenced: another process owns it now."""

    @abstractmethod
    def tournament_changed(self, tournament_id: int, text: str) -> None:
        """The tournament changed (``text``: the dashboards' message): every
        other process's dashboards and rooms are to hear it."""

    @abstractmethod
    async def seat_at_owner(self, table_id: int,
                            spec: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """A round's match for a table another process may own: None when it
        is to be seated here (owned here, or taken now); else the owner's
        status and JSON answer."""

    @abstractmethod
    async def deliver_result(self, result: TableResult) -> None:
        """A table's result, entered by the tournament's owner (here, or
        carried there until it is)."""


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
    def ownership(self) -> TournamentOwner: ...

    def principal(self, request: Request) -> Principal: ...

    def is_director(self, request: Request) -> bool: ...

    async def directs(self, request: Request, tournament_id: int) -> bool: ...

    async def owner(self, tournament_id: int) -> str | None: ...
