"""Flights on the server: the events of one room share its table numbers.

An event is a tournament (its own log, players, settings); its ``flight``
action names its room, its precedence and the room's table count
(``bgclock.tournament._flights``).  This module holds what needs more than
one event's state:

- ``RoomSeating.round_start``: a round start of a flight.  Under the room's
  lock it gathers every event of the room (the table numbers they hold, the
  matches left waiting), asks the pure ``allocate`` who gets the free
  numbers in precedence order, and stores each event's share as that
  event's own ``start_round`` (with ``matches`` and ``tables``); matches
  that get no table wait.
- ``RoomSeating.poke``: after any accepted action of a flight (a result, a
  correction, a withdrawal may free a table), a task seats the room's
  waiting matches at the numbers now free, the same way.
- ``room_flights``: every event of the room by name, with its matches at
  tables and its waiting matches, for the room display and the dashboard.
- ``RoomSeating.room_table``: the room's table N, one clock table (one link,
  one QR code, one timekeeper) for every event of the room.  The mapping
  (room, N) -> clock table is the events' own ``bind_table`` actions read
  together: the first event to seat a match at N makes the clock table and
  binds it; any other event seating at N binds that same table in its own
  log and gives it its match as the table's next match
  (``Tourneys.seat``), so no event ever makes a second clock for N.

Lock order: the room's lock, then one event's lock at a time (never two);
the after-action task runs outside the lock of the action that woke it.
The room's lock is this process's: several processes on one database
would need it in the database (not done here).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bgclock.server.errors import ApiError, refusal
from bgclock.server.live.hub import TableRunner
from bgclock.server.tournaments.host import LiveTournament, Tournaments
from bgclock.store import StoreError
from bgclock.tournament import ContestError
from bgclock.tournament._flights import Claim, allocate, room_key, room_tables

#: A room: its club (None: the server director's) and its name's key.
RoomId = tuple[str | None, str]

log = logging.getLogger("bgclock.server")


class RoomSeating:
    """The rooms' locks and their waiting matches' seating."""

    def __init__(self, tourneys: Tournaments) -> None:
        self.tourneys = tourneys
        self._locks: dict[RoomId, asyncio.Lock] = {}
        #: Rooms whose seating task is scheduled (one at a time per room).
        self._scheduled: set[RoomId] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def lock(self, room: RoomId) -> asyncio.Lock:
        return self._locks.setdefault(room, asyncio.Lock())

    async def members(self, room: RoomId) -> list[tuple[LiveTournament, str]]:
        """The open events of ``room`` with their names, by id."""
        return await room_members(self.tourneys, room)

    @staticmethod
    def claims(hub: LiveTournament, name: str, keys: list[tuple[str, int, int]]) -> list[Claim]:
        flight = hub.state.flight
        assert flight is not None
        return [Claim(tournament=hub.id, event=name, precedence=flight.precedence,
                      bracket=e, round=r, match=i) for e, r, i in keys]

    @staticmethod
    def busy(members: list[tuple[LiveTournament, str]],
             but: int | None = None) -> dict[int, str]:
        """Each table number an event of the room holds, with that event's name."""
        out: dict[int, str] = {}
        for hub, name in members:
            if hub.id != but:
                for n in hub.state.events.busy_tables(hub.state):
                    out.setdefault(n, name)
        return out

    # ------------------------------------------------------------ the room's tables

    def room_table(self, hub: LiveTournament, number: int) -> TableRunner | None:
        """The room's open clock table ``number``, bound by any event of
        ``hub``'s room the server holds (the events of the room are folded
        by any seating: ``members``); None outside a room or before any
        event of the room seated a match at ``number``.  Two open tables
        bound to one number (made before rooms owned their tables) give
        the one that took its match last."""
        key = room_of(hub)
        if key is None:
            return None
        tables = self.tourneys.server.hub.tables
        found: TableRunner | None = None
        for h in list(self.tourneys.hubs.values()):
            tid = h.state.table_ids.get(number)
            if tid is None or room_of(h) != key:
                continue
            table = tables.get(tid)
            if table is not None and not table.closed and (
                    found is None or table.row.created_ms > found.row.created_ms):
                found = table
        return found

    def room_table_ids(self, hub: LiveTournament) -> list[int]:
        """Every clock table an event of ``hub``'s room bound (none outside a room)."""
        key = room_of(hub)
        if key is None:
            return []
        return sorted({tid for h in list(self.tourneys.hubs.values()) if room_of(h) == key
                       for tid in h.state.table_ids.values()})

    async def closing(self, hub: LiveTournament) -> tuple[set[int], list[int]]:
        """Before ``hub``'s event closes: the room's tables it holds stay
        open while another event of the room is open (``keep``; a number no
        open event has bound yet is bound by the first of them by
        precedence, so the room keeps its table N); the last event of the
        room to close closes every room table, those whose last match was
        an event closed before too (``also``)."""
        flight, room = hub.state.flight, room_of(hub)
        if flight is None or room is None:
            return set(), []
        async with self.lock(room):
            members = [(h, name) for h, name in await self.members(room)
                       if h is not hub]
            tables = self.tourneys.server.hub.tables
            mine = {n: tid for n, tid in hub.state.table_ids.items()
                    if (t := tables.get(tid)) is not None and not t.closed}
            if not members:
                return set(), [tid for tid in self.room_table_ids(hub)
                               if (t := tables.get(tid)) is not None and not t.closed
                               and t.row.tournament_id != hub.id]
            heir = min(members, key=lambda x: (x[0].state.flight.precedence  # type: ignore[union-attr]
                                               , x[0].id))[0]
            keep: set[int] = set()
            for n, tid in sorted(mine.items()):
                bound = [h.state.table_ids.get(n) for h, _ in members]
                if tid in bound:
                    keep.add(tid)
                elif n not in heir.state.table_ids:
                    async with heir.lock:
                        await self.tourneys.act(heir, [{"do": "bind_table", "table": n,
                                                        "table_id": tid}], source="server")
                    keep.add(tid)
            return keep, []

    # ------------------------------------------------------------ seating

    async def _seat(self, hub: LiveTournament, seated: list[tuple[Claim, int]],
                    first: dict[str, Any] | None) -> tuple[list[dict[str, Any]],
                                                           list[dict[str, Any]],
                                                           list[dict[str, Any]]]:
        """Store ``hub``'s share: ``first`` (the round asked for, with the
        matches it seats) and one ``start_round`` per other round holding
        seated waiting matches; then set up their clock tables.  Returns the
        actions' results, the assigned matches and the tables not ready."""
        by_round: dict[tuple[str, int], list[tuple[int, int]]] = {}
        for c, n in seated:
            by_round.setdefault((c.bracket, c.round), []).append((c.match, n))
        actions = []
        if first is not None:
            mine = sorted(by_round.pop((first["event"], first["round"]), []))
            actions.append({**first, "matches": [i for i, _ in mine],
                            "tables": [n for _, n in mine]})
        for (e, r), pairs in sorted(by_round.items()):
            pairs.sort()
            actions.append({"do": "start_round", "event": e, "round": r,
                            "matches": [i for i, _ in pairs], "tables": [n for _, n in pairs]})
        if not actions:
            return [], [], []
        tourneys = self.tourneys

        def check(done: list[dict[str, Any]]) -> None:
            for d in done:
                for a in d["assigned"]:
                    if tourneys.table_spec(hub.state, a["event"], a["round"], a["match"],
                                           a["table"]) is not None:
                        tourneys.check_reusable(hub, a["table"])

        await tourneys.tables_folded(hub)  # ``check`` reads their clocks
        async with hub.lock:
            done = await tourneys.act(hub, actions, source="director" if first else "server",
                                      check=check)
            assigned = [a for d in done for a in d["assigned"]]
            failed = await tourneys.set_up(hub, assigned)
        return done, assigned, failed

    async def round_start(self, hub: LiveTournament, data: dict[str, Any]) -> dict[str, Any]:
        """A flight's round start (``POST .../rounds``): this event's ready
        matches and every waiting match of the room share the room's free
        numbers in precedence order; what gets none waits.  The actions'
        results, the matches ``assigned``, the tables ``not_ready``, the
        matches ``waiting`` and those ``seated_elsewhere``; ``ApiError``."""
        flight, room = hub.state.flight, room_of(hub)
        assert flight is not None and room is not None
        event, r = data.get("event", "main"), data["round"]
        async with self.lock(room):
            members = await self.members(room)
            names = {h.id: name for h, name in members}
            tables = room_tables(h.state.flight for h, _ in members
                                 if h.state.flight is not None)
            given = data.get("tables")
            try:
                ready = hub.state.ready(event, r)
            except ContestError as exc:
                raise refusal(exc) from None
            if given is not None:  # the director's numbers: none another event holds
                busy = self.busy(members, but=hub.id)
                if ready and len(given) != len(ready):
                    raise ApiError(422, "invalid", f"tables: must list {len(ready)} table "
                                   "numbers, one per match ready to start")
                for k, n in enumerate(given):
                    if tables and n > tables:
                        raise ApiError(422, "invalid", f"tables[{k}]: the room {flight.room!r} "
                                       f"has tables 1 to {tables}")
                    if n in busy:
                        raise ApiError(409, "table_taken", f"tables[{k}]: table {n} is "
                                       f"taken by {busy[n]}", {"table": n, "event": busy[n]})
                plan_self = [(Claim(tournament=hub.id, event=names[hub.id],
                                    precedence=flight.precedence, bracket=event, round=r,
                                    match=i), n) for i, n in zip(ready, given, strict=False)]
                others: dict[int, list[tuple[Claim, int]]] = {}
                waiting: list[Claim] = []
            else:
                claims = self.claims(hub, names[hub.id], [(event, r, i) for i in ready])
                for h, name in members:
                    claims += self.claims(h, name, h.state.waiting_matches())
                plan = allocate(claims, self.busy(members), tables)
                plan_self = [(c, n) for c, n in plan.seated if c.tournament == hub.id]
                others = {}
                for c, n in plan.seated:
                    if c.tournament != hub.id:
                        others.setdefault(c.tournament, []).append((c, n))
                waiting = list(plan.waiting)
            first: dict[str, Any] = {"do": "start_round", "event": event, "round": r}
            done, assigned, failed = await self._seat(hub, plan_self, first)
            seated_elsewhere = await self._seat_others(members, others)
        return {"done": done, "assigned": assigned, "not_ready": failed,
                "waiting": [_claim_dict(c) for c in waiting],
                "seated_elsewhere": seated_elsewhere}

    async def _seat_others(self, members: list[tuple[LiveTournament, str]],
                           others: dict[int, list[tuple[Claim, int]]]) -> list[dict[str, Any]]:
        out = []
        for h, name in members:
            share = others.get(h.id)
            if not share:
                continue
            try:
                _, assigned, _ = await self._seat(h, share, None)
            except (ApiError, StoreError) as exc:
                log.warning("tournament %d: its waiting matches could not be seated: %s",
                            h.id, exc)
                continue
            out += [{**a, "event_name": name} for a in assigned]
        return out

    async def seat_waiting(self, room: RoomId) -> list[dict[str, Any]]:
        """Seat the room's waiting matches at the numbers free now, in
        precedence order; the matches seated (with their event's name)."""
        async with self.lock(room):
            members = await self.members(room)
            claims: list[Claim] = []
            for h, name in members:
                claims += self.claims(h, name, h.state.waiting_matches())
            if not claims:
                return []
            tables = room_tables(h.state.flight for h, _ in members
                                 if h.state.flight is not None)
            plan = allocate(claims, self.busy(members), tables)
            others: dict[int, list[tuple[Claim, int]]] = {}
            for c, n in plan.seated:
                others.setdefault(c.tournament, []).append((c, n))
            return await self._seat_others(members, others)

    def poke(self, hub: LiveTournament) -> None:
        """After an accepted action of a flight: seat the room's waiting
        matches (a table may have freed), in a task of its own."""
        flight = hub.state.flight
        key = room_of(hub)
        if flight is None or key is None:
            return
        waiting = False
        # an event with waiting matches is folded already (its round start, or ``resume``)
        for h in list(self.tourneys.hubs.values()):
            if room_of(h) == key:
                if h is not hub:  # the other events' room displays show this one too
                    self.tourneys.server.room_feed.changed(h.id)
                waiting = waiting or bool(h.state.waiting)
        if not waiting or key in self._scheduled:
            return
        self._scheduled.add(key)
        task = asyncio.get_running_loop().create_task(self._run(key, flight.room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: RoomId, room: str) -> None:
        await asyncio.sleep(0)  # after the action's answer
        self._scheduled.discard(key)
        try:
            seated = await self.seat_waiting(key)
        except Exception:  # noqa: BLE001 — a task: log, never lose the loop
            log.exception("room %r: its waiting matches could not be seated", room)
            return
        if seated:
            log.info("room %r: waiting matches seated at tables %s", room,
                     ", ".join(str(a["table"]) for a in seated))

    async def idle(self) -> None:
        """Wait for the seating tasks under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _claim_dict(c: Claim) -> dict[str, Any]:
    return {"tournament": c.tournament, "event_name": c.event, "event": c.bracket,
            "round": c.round, "match": c.match}


def room_of(hub: LiveTournament) -> RoomId | None:
    """The room ``hub``'s event plays in: its club's room of that name
    (``room_key``), or None outside a room.  Two clubs' rooms of one name on
    a hosted server are two rooms (issue 37 §4)."""
    flight = hub.state.flight
    return None if flight is None else (hub.club, room_key(flight.room))


async def room_members(tourneys: Tournaments, room: RoomId) -> list[tuple[LiveTournament, str]]:
    """The open events of ``room`` with their names, by id."""
    club, _ = room
    out = []
    for row in await tourneys.server.store.tournaments():
        if row.closed_ms is not None or row.club != club:
            continue
        hub = await tourneys.get(row.id)
        if room_of(hub) == room:
            out.append((hub, row.name))
    return out


async def room_flights(tourneys: Tournaments, hub: LiveTournament) -> dict[str, Any] | None:
    """The room's events by name for the room display and the dashboard:
    each event's precedence, its matches at tables (undecided) and its
    waiting matches; None outside a room."""
    flight, room = hub.state.flight, room_of(hub)
    if flight is None or room is None:
        return None
    events = []
    members = await room_members(tourneys, room)
    for h, name in sorted(members, key=lambda x: (x[0].state.flight.precedence  # type: ignore[union-attr]
                                                  , x[1], x[0].id)):
        state = h.state
        at_tables = []
        for number, (e, r, i) in sorted(state.live_tables().items()):
            m = state.bracket(e).rounds[r][i]
            at_tables.append({"table": number, "event": e, "round": r, "match": i,
                              "a": m.a, "b": m.b})
        waiting = []
        for e, r, i in state.waiting_matches():
            m = state.bracket(e).rounds[r][i]
            waiting.append({"event": e, "round": r, "match": i, "a": m.a, "b": m.b})
        f = state.flight
        assert f is not None
        events.append({"tournament": h.id, "name": name, "precedence": f.precedence,
                       "this": h.id == hub.id, "matches": at_tables, "waiting": waiting})
    tables = room_tables(h.state.flight for h, _ in members if h.state.flight is not None)
    return {"room": flight.room, "tables": tables, "events": events}
