"""One process owns every table and tournament: the interface's trivial
implementation (``interface.Ownership``), what ``bgclock serve`` runs
without ``--cluster``."""

from __future__ import annotations

from typing import Any

from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.owner import Alone
from bgclock.server.ownership.interface import Ownership
from bgclock.server.tournaments.host import LiveTournament, TableResult, Tournaments
from bgclock.server.ws.connection import Connection
from bgclock.server.ws.protocol import Hello


class LocalOwnership(Alone, Ownership):
    """Everything is this process's: nothing is forwarded, mirrored or
    relayed (``Alone``: the hub's part); a table's result is entered here."""

    def __init__(self, hub: Hub, tourneys: Tournaments) -> None:
        self.hub = hub
        self.tourneys = tourneys

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def leave(self) -> None:
        return None  # nobody to hand anything to

    async def known(self, table_id: int) -> bool:
        return table_id in self.hub.tables

    async def readable(self, table: TableRunner) -> TableRunner:
        return table

    async def readable_room(self, tournament_id: int) -> None:
        return None

    async def device_hello(self, conn: Connection, hello: Hello, table_id: int) -> bool:
        return False

    async def director_hello(self, conn: Connection, since: dict[int, int]) -> None:
        return None

    def director_gone(self, conn: Connection) -> None:
        return None

    def forwards(self, conn: Connection, message: Any, text: str) -> bool:
        return False

    async def run_at_owner(self, kind: str, ident: int, app: Any, scope: Any, receive: Any,
                           send: Any, *, of_table: bool = False) -> None:
        await app(scope, receive, send)

    async def own_tournament(self, hub: LiveTournament) -> None:
        return None

    def tournament_fenced(self, tournament_id: int) -> None:
        return None  # one process: nobody else writes it

    def tournament_changed(self, tournament_id: int, text: str) -> None:
        return None  # this process's dashboards were told (``Tourneys.announce``)

    async def seat_at_owner(self, table_id: int,
                            spec: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        return None

    async def deliver_result(self, result: TableResult) -> None:
        await self.tourneys.enter_result(result)
