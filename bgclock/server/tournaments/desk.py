"""The director's desk around the rounds: late arrivals at a match, score
sheets, the ruling committee and its appeals (issue 12).

Theory of operation
-------------------
Each is a tournament action (folded by ``bgclock.tournament.Tournament``);
this module adds the routes and the one thing the fold cannot do, *time*:

- A player marked ``absent`` at a match's start with no clock in use there
  (round policy ``on_request`` or ``none``, or no clock table bound): the
  server keeps the count.  ``LateDesk`` arms one timer per counted match at
  its next instant (the next penalty point, or the disqualification);
  when it fires the dashboards hear ``tournament`` and the table page (if the
  match has one) gets its ``table`` message with ``info.late``; at the
  threshold the server appends ``disqualify`` (reason ``late``), which moves
  the opponent on like any result.  ``arrive`` stops the count.
- With a clock in use at the match's table (policy ``required``, its table
  bound and holding this match), the server starts the absent player's clock
  instead: the engine's ``late_start`` command, sent as the director, at the
  chosen moment ``from_ms`` (now if it is past).

Timers are re-armed from the log when a tournament is folded (a restart), so
a count survives one: the points depend only on ``from_ms`` and the instant.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any

from bgclock.server.errors import ApiError
from bgclock.server.live.refusal import Refused
from bgclock.server.live.time import TimerHandle
from bgclock.server.tournaments.host import Host, LiveTournament, Tournaments
from bgclock.store import NotFound

if TYPE_CHECKING:
    from bgclock.server.live.hub import TableRunner

log = logging.getLogger("bgclock.server")

Key = tuple[str, int, int]


class Quiet:
    """The sender of the server's own commands: its acks are not read, a
    refusal after the commit (the database's) is logged."""

    def __init__(self, what: str) -> None:
        self.what = what

    def send(self, text: str) -> None:
        pass

    def refuse(self, refused: Refused) -> None:
        log.warning("%s: %s (%s)", self.what, refused.message, refused.code)


#: Wrong sheet PINs a table may send before it must wait a minute per try.
PIN_TRIES = 5
PIN_WAIT_MS = 60_000


class PinTries:
    """Wrong sheet PINs per table: after ``PIN_TRIES`` of them, one try a
    minute (10^8 PINs: guessing one would take centuries)."""

    def __init__(self) -> None:
        #: table id -> (wrong PINs, the server's ms of the last one)
        self.wrong: dict[int, tuple[int, int]] = {}

    def may_try(self, table_id: int, now_ms: int) -> bool:
        count, last = self.wrong.get(table_id, (0, 0))
        return count < PIN_TRIES or now_ms - last >= PIN_WAIT_MS

    def failed(self, table_id: int, now_ms: int) -> None:
        count, _ = self.wrong.get(table_id, (0, 0))
        self.wrong[table_id] = (count + 1, now_ms)


class LateDesk:
    """The late counts the server keeps and the late starts it sends."""

    def __init__(self, tourneys: Tournaments) -> None:
        self.tourneys = tourneys
        self.timers: dict[tuple[int, Key], TimerHandle] = {}
        self.starts: dict[tuple[int, Key, str], TimerHandle] = {}
        self._pending: set[asyncio.Task[None]] = set()
        self.closed = False
        #: Wrong sheet PINs per table (``table_sheet``).
        self.pin_tries = PinTries()

    def close(self) -> None:
        """The server stops: no timer fires after it."""
        self.closed = True
        for handle in [*self.timers.values(), *self.starts.values()]:
            handle.cancel()
        self.timers.clear()
        self.starts.clear()
        for task in self._pending:
            task.cancel()

    @property
    def server(self) -> Host:
        return self.tourneys.server

    # ------------------------------------------------------------ tables

    def table_of(self, hub: LiveTournament, key: Key) -> TableRunner | None:
        """The clock table holding this match (its players the draw's), if any."""
        state = hub.state
        number = state.tables.get(key)
        tid = state.table_ids.get(number) if number is not None else None
        table = self.server.hub.tables.get(tid) if tid is not None else None
        if table is None or table.closed:
            return None
        m = state.bracket(key[0]).rounds[key[1]][key[2]]
        if table.row.spec.players != (m.a, m.b):
            return None
        return table

    def clock_in_use(self, hub: LiveTournament, key: Key) -> bool:
        return (hub.state.settings_for(key[1]).clock == "required"
                and self.table_of(hub, key) is not None)

    def show_at_table(self, hub: LiveTournament, key: Key) -> None:
        """The table page's line: ``info.late`` in a ``table`` message."""
        table = self.table_of(hub, key)
        if table is None:
            return
        state = hub.state
        late = state.lates.get(key)
        note = None
        if late is not None and not late.clock:
            note = {**state.late_state(key, self.server.clock.now_ms()),
                    "absent": list(late.absent), "from_ms": late.from_ms}
        table.tournament_note = note
        table.broadcast(table.table_message())

    # ------------------------------------------------------------ timers

    def arm(self, hub: LiveTournament) -> None:
        """One timer per match whose count the server keeps, at its next instant."""
        running = set(hub.state.running_lates())
        for (tid, key), handle in list(self.timers.items()):
            if tid == hub.id and key not in running:
                handle.cancel()
                del self.timers[(tid, key)]
        now = self.server.clock.now_ms()
        self._arm_starts(hub)
        for key in running:
            if (hub.id, key) in self.timers:
                continue
            view = hub.state.late_state(key, now)
            if view["over"]:
                self._soon(hub.id, key)
                continue
            due = [t for t in (view["next_point_ms"], view["out_ms"]) if t is not None]
            if not due:
                continue  # both late: no points, the director decides
            self.timers[(hub.id, key)] = self.server.clock.call_at(
                min(due), functools.partial(self._fire, hub.id, key))

    def _arm_starts(self, hub: LiveTournament) -> None:
        """The late starts still due (after a restart too): an absent player's
        clock at a table whose match has not begun."""
        state = hub.state
        for key, late in state.lates.items():
            m = state.bracket(key[0]).rounds[key[1]][key[2]]
            if not late.clock or late.arrived_ms or m.winner is not None:
                continue
            side = "A" if late.absent[0] == m.a else "B"
            if (hub.id, key, side) in self.starts:
                continue
            table = self.table_of(hub, key)
            # a table not folded yet is armed when it is (``Tourneys.table_folded``)
            if table is None or not table.folded or table.state_now().phase != "setup":
                continue
            self.start_clock(hub, key, side, late.from_ms)

    def _fire(self, tournament_id: int, key: Key) -> None:
        self.timers.pop((tournament_id, key), None)
        self._soon(tournament_id, key)

    def _soon(self, tournament_id: int, key: Key) -> None:
        if self.closed:
            return
        task = asyncio.get_running_loop().create_task(self._tick(tournament_id, key))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _tick(self, tournament_id: int, key: Key) -> None:

        try:
            hub = await self.tourneys.get(tournament_id)
        except NotFound:
            return
        async with hub.lock:
            if key not in hub.state.running_lates():
                return
            view = hub.state.late_state(key, self.server.clock.now_ms())
            if view["over"]:
                m = hub.state.bracket(key[0]).rounds[key[1]][key[2]]
                name = m.a if view["disqualified"] == "A" else m.b
                player = hub.state.by_name(name or "")
                assert player is not None
                try:
                    await self.tourneys.act(hub, [{
                        "do": "disqualify", "event": key[0], "round": key[1],
                        "match": key[2], "player": player.id, "reason": "late",
                        "score": view["score"]}], source="server")
                except ApiError as exc:
                    log.warning("the late player was not disqualified: %s", exc.message)
            else:
                self.tourneys.announce(hub)
            self.show_at_table(hub, key)
            self.arm(hub)

    # ------------------------------------------------------------ late starts

    def start_clock(self, hub: LiveTournament, key: Key, side: str, from_ms: int) -> None:
        """Start the absent ``side``'s clock at ``from_ms`` (now if past)."""
        handle = self.starts.pop((hub.id, key, side), None)
        if handle is not None:
            handle.cancel()
        now = self.server.clock.now_ms()
        if from_ms <= now:
            self._late_start(hub.id, key, side)
            return
        self.starts[(hub.id, key, side)] = self.server.clock.call_at(
            from_ms, lambda: self._late_start(hub.id, key, side))

    def _late_start(self, tournament_id: int, key: Key, side: str) -> None:
        self.starts.pop((tournament_id, key, side), None)
        hub = self.tourneys.hubs.get(tournament_id)
        if hub is None:
            return
        late = hub.state.lates.get(key)
        m = hub.state.bracket(key[0]).rounds[key[1]][key[2]]
        if late is None or late.arrived_ms or m.winner is not None:
            return
        table = self.table_of(hub, key)
        if table is None:
            return
        if side not in ("A", "B"):
            return
        try:
            table.late_start(Quiet(f"table {table.id}: late start"),
                             f"late-{tournament_id}-{key[0]}-{key[1]}-{key[2]}-{side}", side)
        except Refused as exc:
            log.warning("table %d: the late player's clock was not started: %s",
                        table.id, exc.message)

    def after(self, hub: LiveTournament, actions: list[dict[str, Any]]) -> None:
        """After accepted actions: re-arm the counts, update the table pages."""
        touched: set[Key] = set()
        for a in actions:
            if a["do"] in ("absent", "arrive", "disqualify", "result", "sheet", "correct",
                           "withdraw"):
                touched |= set(hub.state.lates)
        if not touched:
            return
        self.arm(hub)
        for key in touched:
            late = hub.state.lates.get(key)
            if late is not None and not late.clock:
                self.show_at_table(hub, key)


# -------------------------------------------------------------------- HTTP


def late_view(server: Host, hub: LiveTournament) -> list[dict[str, Any]]:
    """Every late arrival with its count now (the dashboard and the room)."""
    now = server.clock.now_ms()
    return [hub.state._late_dict(k, now) for k in sorted(hub.state.lates)]


