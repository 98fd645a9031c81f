"""A table without a server: a ``TableRunner`` on an unopened store and a manual
clock, whose writer only keeps what it is handed (a test commits it, or
fails it, by hand: ``AtTable.commit``), and connections that keep what
they are sent (``Sink``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bgclock.core import MatchState
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.refusal import Refused
from bgclock.server.live.time import ManualClock
from bgclock.server.live.writer import Rows
from bgclock.store import TableRow, TableSpec
from bgclock.store.connect import open_store

SPEC = TableSpec(name="1", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=3)


@dataclass(eq=False)
class Sink:
    """A connection (a table device with ``device``, else a dashboard)."""

    device: str | None = None
    name: str | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)
    #: What the table refused of what it sent, told after a commit or a read.
    refused: list[Refused] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def refuse(self, refused: Refused) -> None:
        self.refused.append(refused)

    def kinds(self) -> list[str]:
        """The types of the messages sent so far, in order."""
        return [str(m["type"]) for m in self.sent]

    def last(self, kind: str) -> dict[str, Any]:
        """The last message of that type."""
        return [m for m in self.sent if m["type"] == kind][-1]


@dataclass
class AtTable:
    hub: Hub
    table: TableRunner
    clock: ManualClock
    #: What the table handed the writer, in order, with its callback.
    saved: list[tuple[Rows | None, Callable[[BaseException | None], None]]]
    #: The results told to the tournament (``hub.on_over``).
    told: list[MatchState]
    #: A dashboard.
    director: Sink

    def commit(self, error: BaseException | None = None) -> Rows | None:
        """The writer's first item is committed (or fails with ``error``)."""
        rows, done = self.saved.pop(0)
        done(error)
        return rows

    def device(self, device: str, name: str | None = None) -> Sink:
        """A table device connects and says hello."""
        sink = Sink(device, name)
        self.table.watchers.add(sink)
        self.table.device_hello(device, 0, name)
        return sink

    def leaves(self, sink: Sink) -> None:
        """A table device's connection closes."""
        self.table.watchers.discard(sink)
        self.table.device_gone(sink.device)


@pytest.fixture
def at_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AtTable:
    clock = ManualClock()
    hub = Hub(open_store(str(tmp_path / "unopened.db")), clock)
    saved: list[tuple[Rows | None, Callable[[BaseException | None], None]]] = []
    monkeypatch.setattr(hub.writer, "submit", lambda rows, done: saved.append((rows, done)))
    told: list[MatchState] = []
    hub.on_over = lambda table, state: told.append(state)
    director = Sink()
    hub.directors.add(director)
    table = TableRunner(hub, TableRow(id=1, tournament_id=1, spec=SPEC, created_ms=clock.now_ms()))
    hub.tables[table.id] = table
    return AtTable(hub, table, clock, saved, told, director)
