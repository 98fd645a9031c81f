"""The tournament on the server: players, the draw, rounds at tables, results.

Theory of operation
-------------------
Each tournament has an append-only log of director actions (the store's
``tournament_actions``); its state is their fold by the pure
``bgclock.tournament.Tournament``.  The server folds a tournament's log the
first time it is asked for it (so a restart brings the state back from the
log) and keeps the folded state in memory.

An action is decided in place (``Tournament.apply``: it costs the action,
not the tournament; docs/architecture.md, "What bounds a tournament
action"): a refused one is answered 422 (``InvalidContest``, the field named)
or 409 (``IllegalContest``) and nothing is stored or changed; an accepted one
is stored in one transaction with the others of its request.  A batch refused
midway, or a write that fails, puts the state back by folding the stored log
again (kept in memory).  One lock per tournament keeps its actions in order;
a long batch (a CSV import) gives the event loop back every ``SLICE`` actions.

Composite actions are resumable: a round start (a Swing round, a couples
phase) stores its action, then seats each match at its table (create and
bind, re-spec, or next match), each one write.  ``Tourneys.complete`` seats
every live match whose table does not hold it: at start (``resume``) and
before a round start, so a round cut short by a crash is finished by the
restart or by the director starting it again.

Rounds at tables: a match's table *number* maps to one clock table for the
whole day (its link and token never change): the first time a number is used
its table is created (``bind_table`` records it in the log); later rounds
re-spec it, by an edit when it has not started, else by the table's *next
match* (``TableRunner.renew``: the finished match's log is archived and a fresh
match starts on the same id).  Clock policy ``none`` sets up no clock table.

Results: when a table's match is over on the clock (``match_over`` with a
winner, by a command or by a flag at its expiry), ``on_table_over`` enters the
result for the match that table holds (source ``clock``); the director may
enter one by hand or correct one.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request

from bgclock.core import MatchState
from bgclock.server.edge.principal import REQUEST_ID
from bgclock.server.errors import ApiError, refusal
from bgclock.server.live.refusal import Refused
from bgclock.server.render.public import live_view, public_view
from bgclock.server.render.room import room_view
from bgclock.server.tournaments.contests import clock_result, couples_spec, swing_spec
from bgclock.server.tournaments.desk import LateDesk, late_view
from bgclock.server.tournaments.flights import RoomSeating, room_flights
from bgclock.server.tournaments.forecast import clock_inputs, round_forecast
from bgclock.server.tournaments.host import Host, LiveTournament, TableResult
from bgclock.server.tournaments.standings import room_standings
from bgclock.store import Fenced, NotFound, StoredAction, StoreError, TableSpec
from bgclock.tournament import ContestError, Tournament, final_standings, player_results, seats
from bgclock.tournament._running import (
    MAX_SEED,
    RESULT_SOURCES,
    jackpot_due,
)

if TYPE_CHECKING:
    from bgclock.server.live.hub import TableRunner

log = logging.getLogger("bgclock.server")


#: A bracket's name on its clock tables' labels.
EVENT_LABELS: Final = {"main": "Main", "consolation": "Consolation", "last_chance": "Last Chance",
                       "losers": "Losers", "final": "Final"}


#: The actions that make a tournament worth folding at start (``resume``).
RESUMED = frozenset({"absent", "start_round", "swing_round", "couples_phase"})

#: A long batch of actions (a CSV import) gives the event loop back after
#: this many actions, so the clocks' presses never queue behind it.
SLICE = 128


def open_clashes(state: Tournament) -> list[dict[str, Any]]:
    """The clashes the director has not dismissed: the dashboard's alerts
    (a table's result that disagrees with the one held, both named)."""
    return [c.to_dict() for c in state.clashes if not c.dismissed]


class Tourneys:
    """Every tournament the server has folded so far."""

    def __init__(self, server: Host) -> None:
        self.server = server
        self.hubs: dict[int, LiveTournament] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        #: Results from the clocks being entered (kept so none is collected midway).
        self._pending: set[asyncio.Task[None]] = set()
        #: Late counts kept by the server, late starts sent to the clocks.
        self.desk = LateDesk(self)
        #: The rooms whose events share table numbers (``tournaments.flights``).
        self.flights = RoomSeating(self)

    async def get(self, tournament_id: int) -> LiveTournament:
        """The tournament's state (folded from its log the first time); ``NotFound``."""
        hub = self.hubs.get(tournament_id)
        if hub is not None:
            return hub
        lock = self._loading.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            hub = self.hubs.get(tournament_id)
            if hub is None:
                club = await self.server.owner(tournament_id)  # NotFound
                stored = await self.server.store.actions(tournament_id)
                hub = LiveTournament(tournament_id, [dict(s.action) for s in stored], club)
                self.hubs[tournament_id] = hub
                self.desk.arm(hub)
        return hub

    async def resume(self) -> None:
        """At start: fold the open tournaments that have late arrivals at a
        match, so their counts and late starts go on without a reader, and
        those that seated matches at tables, so a round start cut short (a
        crash between its writes) is completed: every live match at its
        table's clock."""
        for row in await self.server.store.tournaments():
            if row.closed_ms is not None:
                continue
            if not self.server.ownership.owns_everything:
                continue  # the process that takes the tournament completes it
            stored = await self.server.store.actions(row.id)
            if any(s.action.get("do") in RESUMED for s in stored):
                hub = await self.get(row.id)
                try:
                    async with hub.lock:
                        numbers, failed = await self.complete(hub)
                except (StoreError, Refused) as exc:  # the server starts all the same
                    log.warning("tournament %d: its tables could not be seated: %s",
                                hub.id, exc)
                    continue
                if numbers:
                    log.info("tournament %d: tables %s seated (a round start cut short)",
                             hub.id, ", ".join(map(str, numbers)))
                for f in failed:
                    log.warning("tournament %d: table %d cannot take its match: %s",
                                hub.id, f["table"], f["message"])
                # a table freed just before a stop: the room's waiting matches take it
                self.flights.poke(hub)

    async def act(self, hub: LiveTournament, actions: list[dict[str, Any]], *,
                  source: str = "director",
                  check: Callable[[list[dict[str, Any]]], None] | None = None,
                  ) -> list[dict[str, Any]]:
        """Decide ``actions`` in order, all or none, in place (each costs
        itself, not the tournament; a long batch gives the loop back every
        ``SLICE`` actions); ``check(done)`` may still refuse them; store
        them in one transaction.  A refusal after the first action, or a
        failed write, puts the state back by folding the stored log again.
        The caller holds ``hub.lock``.  This process owns the tournament
        first (``Ownership.own_tournament``: folded afresh from the store
        when taken now, 503 ``not_owner`` when another process owns it)."""
        await self.server.ownership.own_tournament(hub)
        state = hub.state
        first = state.count + 1
        done = []
        clean: list[dict[str, Any]] = []
        try:
            for k, action in enumerate(actions):
                if k and k % SLICE == 0:
                    await asyncio.sleep(0)
                decided = {x: y for x, y in action.items() if x != "line"}
                clean.append(decided)
                try:
                    done.append(state.apply(decided))
                except ContestError as exc:
                    refused = refusal(exc)
                    if len(actions) > 1 and "line" in action:
                        refused.message = f"line {action['line']}: {refused.message}"
                    raise refused from None
            if check is not None:
                check(done)
            now = self.server.clock.now_ms()
            await self.server.store.append_actions([
                StoredAction(tournament_id=hub.id, n=first + k, at_ms=now,
                             action=a, source=source, request_id=REQUEST_ID.get())
                for k, a in enumerate(clean)])
        except BaseException as exc:
            if state.count >= first:  # some were decided in place: they go
                hub.rebuild()
            if isinstance(exc, Fenced):
                self.server.ownership.tournament_fenced(hub.id)
            raise
        hub.log.extend(clean)
        for action, did in zip(clean, done, strict=True):
            if action["do"] == "draw":
                log.info("tournament %d: the draw is made with seed %d", hub.id, did["seed"])
        self.announce(hub)
        self.desk.after(hub, clean)
        self.flights.poke(hub)
        return done

    async def start_jackpot(self, hub: LiveTournament) -> list[dict[str, Any]] | None:
        """A jackpot whose last place was just taken (``_jackpot.jackpot_due``,
        the pure fold's word) draws and starts by itself: its room (when
        named and not set), the draw with a seed from a cryptographic source
        and round 1 at the room's tables, stored after the entry in the same
        request.  The matches seated (None: not due)."""
        state = hub.state
        if not jackpot_due(state) or state.jackpot is None:
            return None
        async with hub.lock:
            first: list[dict[str, Any]] = []
            if state.jackpot.room is not None and state.flight is None:
                first.append({"do": "flight", "room": state.jackpot.room})
            seed = state.seed if state.seed_given else secrets.randbelow(MAX_SEED + 1)
            await self.act(hub, [*first, {"do": "draw", "seed": seed}])
        data = {"event": "main", "round": 0}
        if hub.state.flight is not None:  # the room's numbers are shared
            out = await self.flights.round_start(hub, data)
            return list(out["assigned"])
        async with hub.lock:
            done = await self.act(hub, [{"do": "start_round", **data}])
            assigned: list[dict[str, Any]] = done[0]["assigned"]
            await self.set_up(hub, assigned)
        return assigned

    async def pair_next(self, hub: LiveTournament, data: dict[str, Any]) -> None:
        """A weekly format's round started that is not paired yet: paired now
        from the results known, with a seed drawn from a cryptographic
        source (the ``pair_round`` action stores the pairing and the seed)."""
        weekly = hub.state.weekly
        if weekly is None or data.get("event", "main") != "main" \
                or data.get("round") != len(weekly.bracket.rounds):
            return
        async with hub.lock:
            try:
                action = hub.state.next_pairing(secrets.randbelow(MAX_SEED + 1))
            except ContestError as exc:
                raise refusal(exc) from None
            await self.act(hub, [action])

    def announce(self, hub: LiveTournament) -> None:
        """Tell the directors' dashboards the tournament changed."""

        text = self.server.hub.to_directors({
            "type": "tournament", "tournament": hub.id, "actions": hub.state.count,
            "clashes": open_clashes(hub.state)})
        self.server.room_feed.changed(hub.id)
        self.server.ownership.tournament_changed(hub.id, text)  # the other processes' too

    # ------------------------------------------------------------ tables

    @staticmethod
    def table_spec(state: Tournament, event: str, r: int, i: int,
                   number: int) -> TableSpec | None:
        """The clock table's spec for a match (None: its round keeps no clock)."""
        m = state.bracket(event).rounds[r][i]
        settings = state.settings_for(r)
        if settings.clock == "none" or m.a is None or m.b is None:
            return None
        label = EVENT_LABELS[event]
        return TableSpec(name=f"Table {number} · {label} R{r + 1}", players=(m.a, m.b),
                         rules=settings.rules, length=settings.length)

    def check_reusable(self, hub: LiveTournament, number: int) -> None:
        """Refuse (409) when table ``number``'s clock table cannot take a new match."""
        tid = hub.state.table_ids.get(number)
        table = self.server.hub.tables.get(tid) if tid is not None else None
        if table is None:  # a room's table another event made: this event's seat there
            table = self.flights.room_table(hub, number)
        if table is None or table.closed:
            return  # a new table will be made
        if not table.folded:  # the caller did not await ``tables_folded``
            raise ApiError(503, "loading", f"table {number} is being loaded: send it again")
        if table.quarantined is not None:
            raise ApiError(409, "quarantined", f"table {number}'s log cannot be replayed")
        if table.match.expires_at() is not None:
            raise ApiError(409, "running", f"table {number}'s clock is still running: "
                          "stop it or finish its match first")

    async def tables_folded(self, hub: LiveTournament) -> None:
        """Every clock table bound to the tournament folded (``Hub.ready``):
        before a check that reads their clocks (``check_reusable``)."""
        for tid in {*hub.state.table_ids.values(), *self.flights.room_table_ids(hub)}:
            await self.server.hub.ready(tid)

    def table_folded(self, table: TableRunner) -> None:
        """A table a first start left unfolded is folded: the late starts
        due at it are armed now (``desk.arm`` skipped it)."""
        hub = self.hubs.get(table.row.tournament_id)
        if hub is not None:
            self.desk.arm(hub)

    async def seat(self, hub: LiveTournament, number: int,
                   spec: TableSpec) -> dict[str, Any] | None:
        """A match at table ``number``: its clock table is made the first time
        (and bound to the number), re-specced before play, or given its next
        match.  None, or why it could not take the match now.

        A table made for the number but not bound (a crash between the two
        writes) is found and bound, not made again.

        An event of a room seats at the room's table ``number`` (one clock
        table for every event of the room, ``RoomSeating.room_table``): the
        first time, it binds that table in its own log; the table then
        takes the match as its next match, and belongs to this event until
        another event's match sits there (``TableRunner.renew``), so the
        clock's result comes here.  The spec's name names the event."""
        server = self.server
        tid = hub.state.table_ids.get(number)
        if hub.state.flight is not None:
            spec = await self.room_spec(hub, number, spec)
            if tid is None:
                shared = self.flights.room_table(hub, number)
                if shared is not None:
                    await self.act(hub, [{"do": "bind_table", "table": number,
                                          "table_id": shared.id}], source="server")
                    tid = shared.id
        table = await server.hub.ready(tid)
        if tid is None:
            bound = set(hub.state.table_ids.values())
            orphan = next((t for t in server.hub.tables.values()
                           if t.row.tournament_id == hub.id and not t.closed
                           and t.id not in bound and t.row.spec.name == spec.name
                           and t.row.spec.players == spec.players), None)
            if orphan is not None:
                await self.act(hub, [{"do": "bind_table", "table": number,
                                      "table_id": orphan.id}], source="server")
                return None
        if table is None or table.closed:
            row = await server.store.create_table(hub.id, spec, server.clock.now_ms())
            server.hub.add(row)
            await self.act(hub, [{"do": "bind_table", "table": number, "table_id": row.id}],
                           source="server")
            return None
        if not server.ownership.owns(table.id):
            # a table another process owns: that process seats it
            forwarded = await server.ownership.seat_at_owner(table.id, spec.to_dict())
            if forwarded is not None:
                status, answer = forwarded
                if status < 300:
                    return None
                log.warning("table %d is not ready for its match: %s", table.id,
                            answer.get("message"))
                return {"table": number, "table_id": table.id,
                        "error": str(answer.get("error", "not_owner")),
                        "message": str(answer.get("message", "")), "spec": spec.to_dict()}
            # kept here now (taken just now: loaded afresh, a new object)
            table = await server.hub.ready(table.id)
            if table is None or table.closed:
                return {"table": number, "table_id": tid, "error": "closed",
                        "message": "this table is closed", "spec": spec.to_dict()}
        moved = table.row.tournament_id != hub.id  # a room's table: another event's match before
        try:
            if table.seq == 0 and table.hand_result is None and not moved:
                await table.edit(spec)
                table.broadcast(table.table_message())
                table.broadcast(table.snapshot_message())
            else:
                await table.renew(spec, tournament_id=hub.id if moved else None)
        except Refused as exc:
            log.warning("table %d is not ready for its match: %s", table.id, exc.message)
            return {"table": number, "table_id": table.id, "error": exc.code,
                    "message": exc.message, "spec": spec.to_dict()}
        return None

    async def room_spec(self, hub: LiveTournament, number: int, spec: TableSpec) -> TableSpec:
        """A room's table names the event seated there ("Table 1 ·
        Principianti · Main R1"): the dashboard's card, the QR sheet and the
        room say which event's match the physical table holds."""
        prefix = f"Table {number} · "
        if not spec.name.startswith(prefix):
            return spec
        event = (await self.server.store.tournament(hub.id)).name
        return replace(spec, name=f"{prefix}{event} · {spec.name[len(prefix):]}")

    def seating(self, state: Tournament) -> list[tuple[int, TableSpec]]:
        """Every live match that keeps a clock, with its table number and the
        spec its clock table must hold: the Main, the consolation, the Swing
        round under way and the couples matches at tables."""

        out: list[tuple[int, TableSpec]] = []
        for number, (event, r, i) in sorted(state.live_tables().items()):
            spec = self.table_spec(state, event, r, i, number)
            if spec is not None:
                out.append((number, spec))
        swing = state.events.swing
        if swing is not None:
            for number, g in sorted(swing.live_tables().items()):
                spec = swing_spec(state, g)
                if spec is not None:
                    out.append((number, spec))
        couples = state.events.couples
        if couples is not None:
            for number, (e, phase, m) in sorted(couples.live_tables().items()):
                spec = couples_spec(state, e, phase, m)
                if spec is not None:
                    out.append((number, spec))
        return out

    def seated(self, hub: LiveTournament, number: int, spec: TableSpec) -> bool:
        """Whether table ``number``'s clock table holds the match of ``spec``."""
        tid = hub.state.table_ids.get(number)
        table = self.server.hub.tables.get(tid) if tid is not None else None
        return table is not None and not table.closed and table.row.spec.players == spec.players

    async def complete(self, hub: LiveTournament) -> tuple[list[int], list[dict[str, Any]]]:
        """Seat every live match whose table does not hold it yet: what a
        round start (or a Swing round, a couples phase) stored before a crash
        is finished here (at start, and by a repeated round start).  The
        table numbers seated, and the tables that could not take their match
        now.  The caller holds ``hub.lock``."""
        done: list[int] = []
        failed: list[dict[str, Any]] = []
        for number, spec in self.seating(hub.state):
            if self.seated(hub, number, spec):
                continue
            tid = hub.state.table_ids.get(number)
            table = self.server.hub.tables.get(tid) if tid is not None else None
            if table is not None and table.closed:  # the director closed it: left so
                failed.append({"table": number, "table_id": tid, "error": "closed",
                               "message": f"table {number} is closed",
                               "spec": spec.to_dict()})
                continue
            try:
                refused = await self.seat(hub, number, spec)
            except ApiError as exc:
                refused = {"table": number, "table_id": tid, "error": exc.code,
                           "message": exc.message, "spec": spec.to_dict()}
            if refused is None:
                done.append(number)
            else:
                failed.append(refused)
        return done, failed

    async def set_up(self, hub: LiveTournament,
                     assigned: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each assigned match at its table: create, re-spec or renew the table.
        The tables that could not take their match now (a command came in
        meanwhile), with why: the director renews them (``next-match``)."""
        failed: list[dict[str, Any]] = []
        for a in assigned:
            number = a["table"]
            spec = self.table_spec(hub.state, a["event"], a["round"], a["match"], number)
            if spec is None or self.seated(hub, number, spec):
                continue
            refused = await self.seat(hub, number, spec)
            if refused is not None:
                failed.append(refused)
        return failed

    # ------------------------------------------------------------ results

    def on_table_over(self, table: TableRunner, state: MatchState) -> None:
        """A table's match ended on the clock: its result goes into the draw
        (at the process that owns the tournament)."""
        if state.winner not in ("A", "B"):
            return
        task = asyncio.get_running_loop().create_task(
            self._deliver(TableResult.of(table, state)))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _deliver(self, result: TableResult) -> None:
        try:
            await self.server.ownership.deliver_result(result)
        except NotFound:
            return
        except ApiError as exc:
            log.warning("table %d's result was not entered: %s", result.table_id, exc.message)

    async def enter_result(self, result: TableResult) -> None:
        """Enter a table's result for the match that table holds (source
        ``clock``), or record a clash with the one held.  Idempotent: a
        result told again (a restart, a retry across processes) changes
        nothing.  ``ApiError`` 503 ``not_owner`` when another process owns
        the tournament (nothing entered; ``NotFound``)."""
        hub = await self.get(result.tournament_id)
        async with hub.lock:
            await self.server.ownership.own_tournament(hub)
            number = next((n for n, t in hub.state.table_ids.items()
                           if t == result.table_id), None)
            found = hub.state.at_table(number) if number is not None else None
            if found is None and number is not None:  # a Swing or couples table (issue 13)

                if not await clock_result(self.server, hub, number, result):
                    await self._clash(hub, number, result)
                return
            if found is None:
                return
            (event, r, i), m = found
            if (m.a, m.b) != result.players:
                return  # the table holds another match than the draw's
            winner = m.a if result.winner == "A" else m.b
            try:
                await self.act(hub, [{"do": "result", "event": event, "round": r, "match": i,
                                      "winner": winner, "source": "clock",
                                      "score": list(result.score)}], source="server")
            except ApiError as exc:
                if exc.code == "not_owner":
                    raise
                log.warning("table %d's result was not entered: %s", result.table_id,
                            exc.message)

    @staticmethod
    def held_at(state: Tournament, number: int,
                players: tuple[str, str]) -> tuple[str, dict[str, Any]] | None:
        """The decided match of ``players`` that table ``number`` held (the
        Main, the consolation, the Swing's last two rounds, the couples
        matches): its label and the result the tournament holds for it."""
        for event, r, i in reversed(state.by_number.get(number, ())):
            m = state.bracket(event).rounds[r][i]
            if m.winner is not None and (m.a, m.b) == players:
                label = f"{EVENT_LABELS[event]} R{r + 1} match {i + 1}"
                detail = state.results.get((event, r, i))
                return label, {**(detail.to_dict() if detail else {"source": "hand"}),
                               "winner": m.winner}
        swing = state.events.swing
        if swing is not None:
            for games in (swing.games, swing.last_games):
                for k, g in enumerate(games):
                    if g.table == number and (g.a, g.b) == players and g.winner is not None:
                        return f"Swing game {k + 1}", {
                            "winner": g.winner, "source": g.source or "hand",
                            **({"corrected": g.corrected.to_dict()} if g.corrected else {})}
        couples = state.events.couples
        if couples is not None:
            for e, enc in enumerate(couples.encounters):
                for (phase, m_), n in enc.tables.items():
                    pair = enc.encounter().phases[phase][m_]
                    if n == number and pair == players and (phase, m_) in enc.winners:
                        held: dict[str, Any] = {"winner": enc.winners[(phase, m_)],
                                                "source": enc.sources.get((phase, m_), "hand")}
                        if (phase, m_) in enc.scores:
                            held["score"] = enc.scores[(phase, m_)]
                        if (phase, m_) in enc.corrections:
                            held["corrected"] = enc.corrections[(phase, m_)].to_dict()
                        return (f"Couples encounter {e + 1} phase {phase + 1} match {m_ + 1}",
                                held)
        return None

    async def _clash(self, hub: LiveTournament, number: int, result: TableResult) -> None:
        """A table's final result for a match the tournament already holds a
        result for: when they disagree (the winner, or both scores), the
        director gets an alert naming both (a ``clash``, stored); never
        dropped silently, never recorded twice, never against a result the
        director corrected.  The caller holds ``hub.lock``."""
        if result.winner not in ("A", "B"):
            return
        players, table_id = result.players, result.table_id
        found = self.held_at(hub.state, number, players)
        if found is None:
            log.warning("table %d's result matches no match of the tournament", table_id)
            return
        label, held = found
        if held.get("corrected"):
            return  # the director corrected this result: theirs is the last word
        clock = {"winner": players[0] if result.winner == "A" else players[1],
                 "score": list(result.score)}
        same_score = held.get("score") is None or list(held["score"]) == clock["score"]
        if held["winner"] == clock["winner"] and same_score:
            return  # they agree
        if any(c.table_id == table_id and c.match == label and c.clock.to_dict() == clock
               for c in hub.state.clashes):
            return  # already recorded (a restart reports a finished match again)
        source = held.get("source")
        action = {"do": "clash", "table": number, "table_id": table_id, "match": label,
                  "players": list(players),
                  "held": {"winner": held["winner"],
                           "source": source if source in RESULT_SOURCES else "hand",
                           **({"score": held["score"]} if held.get("score") else {})},
                  "clock": clock, "at_ms": self.server.clock.now_ms()}
        try:
            await self.act(hub, [action], source="server")
        except ApiError as exc:
            if exc.code == "not_owner":
                raise
            log.warning("table %d's clash was not recorded: %s", table_id, exc.message)
            return
        log.warning("tournament %d: table %d's clock says %s won %s; the tournament holds %s "
                    "(%s)", hub.id, number, clock["winner"], label, held["winner"], source)

    def room_token(self, tournament_id: int) -> str:
        """The read-only token of a tournament's room display."""
        assert self.server.tokens is not None
        return self.server.tokens.room_token(tournament_id)

    async def room_allowed(self, request: Request, tournament_id: int) -> bool:
        """The room token, or the director of the tournament's club."""
        token = self.server.principal(request).token
        return (token is not None and hmac.compare_digest(
            token.encode("utf-8", "surrogatepass"), self.room_token(tournament_id).encode())
                ) or await self.server.directs(request, tournament_id)


# ------------------------------------------------------------ the room display

async def _clocks(server: Host, state: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The live clock of each match of ``state["matches"]`` still at its table."""
    clocks: dict[int, dict[str, Any]] = {}
    for i, m in enumerate(state["matches"]):
        table = server.hub.tables.get(m["table_id"]) if m["table_id"] is not None else None
        if table is not None and m["winner"] is None and table.row.spec.players == (m["a"],
                                                                                     m["b"]):
            await server.hub.ready(table.id)  # a table a first start left unfolded
            s = table.state_now()
            clocks[i] = {"phase": s.phase, "score": list(s.score), "on_turn": s.on_turn,
                         "reserve_ms": [s.A.reserve_ms, s.B.reserve_ms], "length": s.length,
                         "at_ms": s.at_ms,
                         # a flag worked out while the timekeeper is away: no result yet
                         "provisional": table.provisional is not None,
                         # the forecast's (``tournaments.forecast``; never projected)
                         **clock_inputs(table, s)}
    return clocks


async def room_body(server: Host, tid: int) -> dict[str, Any]:
    """``room.json``'s body: the draw sheet and every table's match live,
    projected for the room (``render.room.room_view``); ``NotFound``."""
    hub = await server.tourneys.get(tid)
    row = await server.store.tournament(tid)
    state = hub.view()
    clocks = await _clocks(server, state)
    now = server.clock.now_ms()
    return room_view(tournament_id=tid, name=row.name, state=state, clocks=clocks,
                     late=late_view(server, hub), server_ms=now,
                     ends=room_standings(hub.state),
                     flight=await room_flights(server.tourneys, hub),
                     forecast=round_forecast(state, clocks, now, with_ids=False))


async def forecast_body(server: Host, tid: int) -> dict[str, Any]:
    """The round's forecast for the director (``tournaments.forecast``);
    ``NotFound``."""
    hub = await server.tourneys.get(tid)
    state = hub.view()
    return round_forecast(state, await _clocks(server, state), server.clock.now_ms(),
                          with_ids=True)


async def public_body(server: Host, tid: int, club: str | None = None) -> dict[str, Any] | None:
    """``/p/{id}.json``'s body, projected for anyone (``render.public``);
    None while the tournament is not public; ``NotFound``.  ``club``: the
    name this venue publishes under (its path is ``/p/{club}/{id}``)."""
    hub = await server.tourneys.get(tid)
    if not hub.state.public:
        return None
    row = await server.store.tournament(tid)
    state = hub.view()
    return public_view(tournament_id=tid, name=row.name, closed=row.closed_ms is not None,
                       state=state, standings=final_standings(hub.state).to_dict(),
                       results=player_results(hub.state), seats=seats(hub.state),
                       clocks=await _clocks(server, state), late=late_view(server, hub),
                       server_ms=server.clock.now_ms(), club=club)


async def live_body(server: Host, hub: LiveTournament) -> dict[str, Any]:
    """What a venue publishes of its live tables (``render.public.live_view``):
    each running match's clock and the late arrivals' counts, now."""
    state = hub.view()
    return live_view(state=state, clocks=await _clocks(server, state),
                     late=late_view(server, hub), server_ms=server.clock.now_ms())
