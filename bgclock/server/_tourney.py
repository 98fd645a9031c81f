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
match* (``TableHub.renew``: the finished match's log is archived and a fresh
match starts on the same id).  Clock policy ``none`` sets up no clock table.

Results: when a table's match is over on the clock (``match_over`` with a
winner, by a command or by a flag at its expiry), ``on_table_over`` enters the
result for the match that table holds (source ``clock``); the director may
enter one by hand or correct one.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import hmac
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.core import PRESETS, MatchState
from bgclock.store import Fenced, NotFound, StoredAction, StoreError, TableSpec
from bgclock.tournament import ContestError, InvalidContest, Tournament, seats
from bgclock.tournament._names import check_new_names
from bgclock.tournament._running import (
    MAX_FEDERATION_ID,
    MAX_PLAYER_NAME,
    MAX_SEED,
    RESULT_SOURCES,
)

from ._desk import ROUTES as DESK_ROUTES
from ._desk import LateDesk, late_view
from ._errors import Refused, read_csv_text
from ._limits import BodyTooLarge, LimitError, check_id, check_name
from ._protocol import ProtocolError
from ._register import check_link
from ._room import room_view
from ._schema import BodyError, decode_body
from ._standings import ROUTES as STANDINGS_ROUTES
from ._standings import room_standings
from ._tourney_bodies import (
    ArriveBody,
    CheckInBody,
    CorrectionBody,
    DismissBody,
    DrawBody,
    PlayerBody,
    ResultBody,
    RevertBody,
    RoundBody,
    SeedingBody,
    SettingsBody,
    choices_of,
    fields_of,
)

if TYPE_CHECKING:
    from ._hub import TableHub
    from .app import Server

log = logging.getLogger("bgclock.server")
T = TypeVar("T", bound=msgspec.Struct)

#: A CSV of players: at most this many bytes and rows.
MAX_CSV_BYTES = 256 * 1024
MAX_CSV_ROWS = 2048


#: A bracket's name on its clock tables' labels.
EVENT_LABELS: Final = {"main": "Main", "consolation": "Consolation", "last_chance": "Last Chance"}


def json_response(data: Any, status_code: int = 200) -> Response:
    """JSON encoded by msgspec: the bytes ``JSONResponse`` gives, in a tenth
    of its time (a 2,048-player state is 0.5 ms, not 7, on the event loop)."""
    return Response(msgspec.json.encode(data), status_code=status_code,
                    media_type="application/json")


def _refusal(exc: ContestError) -> Refused:
    """The answer to a refused action: its stable code (``illegal`` /
    ``invalid`` where the rules gave none) and params."""
    if isinstance(exc, InvalidContest):
        return Refused(422, exc.code or "invalid", f"body.{exc}", exc.params)
    return Refused(409, exc.code or "illegal", str(exc), exc.params)


#: The actions that make a tournament worth folding at start (``resume``).
RESUMED = frozenset({"absent", "start_round", "swing_round", "couples_phase"})

#: A long batch of actions (a CSV import) gives the event loop back after
#: this many actions, so the clocks' presses never queue behind it.
SLICE = 128


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


class Tourneys:
    """Every tournament the server has folded so far."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.hubs: dict[int, TournamentHub] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        #: Results from the clocks being entered (kept so none is collected midway).
        self._pending: set[asyncio.Task[None]] = set()
        #: Late counts kept by the server, late starts sent to the clocks.
        self.desk = LateDesk(self)

    async def get(self, tournament_id: int) -> TournamentHub:
        """The tournament's state (folded from its log the first time); ``NotFound``."""
        hub = self.hubs.get(tournament_id)
        if hub is not None:
            return hub
        lock = self._loading.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            hub = self.hubs.get(tournament_id)
            if hub is None:
                await self.server.store.tournament(tournament_id)  # NotFound
                stored = await self.server.store.actions(tournament_id)
                hub = TournamentHub(tournament_id, [dict(s.action) for s in stored])
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
            if self.server.cluster is not None:
                continue  # a cluster: the process that takes the tournament completes it
            stored = await self.server.store.actions(row.id)
            if any(s.action.get("do") in RESUMED for s in stored):
                hub = await self.get(row.id)
                try:
                    async with hub.lock:
                        numbers, failed = await self.complete(hub)
                except (StoreError, ProtocolError) as exc:  # the server starts all the same
                    log.warning("tournament %d: its tables could not be seated: %s",
                                hub.id, exc)
                    continue
                if numbers:
                    log.info("tournament %d: tables %s seated (a round start cut short)",
                             hub.id, ", ".join(map(str, numbers)))
                for f in failed:
                    log.warning("tournament %d: table %d cannot take its match: %s",
                                hub.id, f["table"], f["message"])

    async def act(self, hub: TournamentHub, actions: list[dict[str, Any]], *,
                  source: str = "director",
                  check: Callable[[list[dict[str, Any]]], None] | None = None,
                  ) -> list[dict[str, Any]]:
        """Decide ``actions`` in order, all or none, in place (each costs
        itself, not the tournament; a long batch gives the loop back every
        ``SLICE`` actions); ``check(done)`` may still refuse them; store
        them in one transaction.  A refusal after the first action, or a
        failed write, puts the state back by folding the stored log again.
        The caller holds ``hub.lock``.  In a cluster, this process takes
        the tournament's lease first (``Cluster.own_tournament``: folded
        afresh from the store when it does, 503 ``not_owner`` when another
        process keeps it)."""
        if self.server.cluster is not None:
            await self.server.cluster.own_tournament(hub)
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
                    refused = _refusal(exc)
                    if len(actions) > 1 and "line" in action:
                        refused.message = f"line {action['line']}: {refused.message}"
                    raise refused from None
            if check is not None:
                check(done)
            now = self.server.clock.now_ms()
            await self.server.store.append_actions([
                StoredAction(tournament_id=hub.id, n=first + k, at_ms=now,
                             action=a, source=source)
                for k, a in enumerate(clean)])
        except BaseException as exc:
            if state.count >= first:  # some were decided in place: they go
                hub.rebuild()
            if isinstance(exc, Fenced) and self.server.cluster is not None:
                self.server.cluster.tournament_fenced(hub.id)
            raise
        hub.log.extend(clean)
        for action, did in zip(clean, done, strict=True):
            if action["do"] == "draw":
                log.info("tournament %d: the draw is made with seed %d", hub.id, did["seed"])
        self.announce(hub)
        self.desk.after(hub, clean)
        return done

    def announce(self, hub: TournamentHub) -> None:
        """Tell the directors' dashboards the tournament changed."""
        from ._protocol import dumps

        text = dumps({"type": "tournament", "tournament": hub.id,
                      "actions": hub.state.count})
        for director in list(self.server.hub.directors):
            director.send(text)
        self.server.room_feed.changed(hub.id)

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

    def check_reusable(self, hub: TournamentHub, number: int) -> None:
        """Refuse (409) when table ``number``'s clock table cannot take a new match."""
        tid = hub.state.table_ids.get(number)
        table = self.server.hub.tables.get(tid) if tid is not None else None
        if table is None or table.closed:
            return  # a new table will be made
        if table.quarantined is not None:
            raise Refused(409, "quarantined", f"table {number}'s log cannot be replayed")
        if table.match.expires_at() is not None:
            raise Refused(409, "running", f"table {number}'s clock is still running: "
                          "stop it or finish its match first")

    async def seat(self, hub: TournamentHub, number: int,
                   spec: TableSpec) -> dict[str, Any] | None:
        """A match at table ``number``: its clock table is made the first time
        (and bound to the number), re-specced before play, or given its next
        match.  None, or why it could not take the match now.

        A table made for the number but not bound (a crash between the two
        writes) is found and bound, not made again."""
        server = self.server
        tid = hub.state.table_ids.get(number)
        table = server.hub.tables.get(tid) if tid is not None else None
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
        try:
            if table.seq == 0:
                await table.edit(spec)
                table.broadcast(table.table_message())
                table.broadcast(table.snapshot_message())
            else:
                await table.renew(spec)
        except ProtocolError as exc:
            log.warning("table %d is not ready for its match: %s", table.id, exc.message)
            return {"table": number, "table_id": table.id, "error": exc.code,
                    "message": exc.message, "spec": spec.to_dict()}
        return None

    def seating(self, state: Tournament) -> list[tuple[int, TableSpec]]:
        """Every live match that keeps a clock, with its table number and the
        spec its clock table must hold: the Main, the consolation, the Swing
        round under way and the couples matches at tables."""
        from ._contests import couples_spec, swing_spec

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

    def seated(self, hub: TournamentHub, number: int, spec: TableSpec) -> bool:
        """Whether table ``number``'s clock table holds the match of ``spec``."""
        tid = hub.state.table_ids.get(number)
        table = self.server.hub.tables.get(tid) if tid is not None else None
        return table is not None and not table.closed and table.row.spec.players == spec.players

    async def complete(self, hub: TournamentHub) -> tuple[list[int], list[dict[str, Any]]]:
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
            except Refused as exc:
                refused = {"table": number, "table_id": tid, "error": exc.code,
                           "message": exc.message, "spec": spec.to_dict()}
            if refused is None:
                done.append(number)
            else:
                failed.append(refused)
        return done, failed

    async def set_up(self, hub: TournamentHub,
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

    def on_table_over(self, table: TableHub, state: MatchState) -> None:
        """A table's match ended on the clock: its result goes into the draw."""
        task = asyncio.get_running_loop().create_task(self._clock_result(table, state))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _clock_result(self, table: TableHub, state: MatchState) -> None:
        try:
            hub = await self.get(table.row.tournament_id)
        except NotFound:
            return
        async with hub.lock:
            number = next((n for n, t in hub.state.table_ids.items() if t == table.id), None)
            found = hub.state.at_table(number) if number is not None else None
            if found is None and number is not None:  # a Swing or couples table (issue 13)
                from ._contests import clock_result

                if not await clock_result(self.server, hub, number, table, state):
                    await self._clash(hub, number, table, state)
                return
            if found is None or state.winner not in ("A", "B"):
                return
            (event, r, i), m = found
            if (m.a, m.b) != table.row.spec.players:
                return  # the table holds another match than the draw's
            winner = m.a if state.winner == "A" else m.b
            try:
                await self.act(hub, [{"do": "result", "event": event, "round": r, "match": i,
                                      "winner": winner, "source": "clock",
                                      "score": list(state.score)}], source="server")
            except Refused as exc:
                log.warning("table %d's result was not entered: %s", table.id, exc.message)

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
                return label, {**state.results.get((event, r, i), {"source": "hand"}),
                               "winner": m.winner}
        swing = state.events.swing
        if swing is not None:
            for games in (swing.games, swing.last_games):
                for k, g in enumerate(games):
                    if g.table == number and (g.a, g.b) == players and g.winner is not None:
                        return f"Swing game {k + 1}", {
                            "winner": g.winner, "source": g.source or "hand",
                            **({"corrected": g.corrected} if g.corrected else {})}
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
                            held["corrected"] = enc.corrections[(phase, m_)]
                        return (f"Couples encounter {e + 1} phase {phase + 1} match {m_ + 1}",
                                held)
        return None

    async def _clash(self, hub: TournamentHub, number: int, table: TableHub,
                     state: MatchState) -> None:
        """A table's final result for a match the tournament already holds a
        result for: when they disagree (the winner, or both scores), the
        director gets an alert naming both (a ``clash``, stored); never
        dropped silently, never recorded twice, never against a result the
        director corrected.  The caller holds ``hub.lock``."""
        if state.winner not in ("A", "B"):
            return
        players = table.row.spec.players
        found = self.held_at(hub.state, number, players)
        if found is None:
            log.warning("table %d's result matches no match of the tournament", table.id)
            return
        label, held = found
        if held.get("corrected"):
            return  # the director corrected this result: theirs is the last word
        clock = {"winner": players[0] if state.winner == "A" else players[1],
                 "score": list(state.score)}
        same_score = held.get("score") is None or list(held["score"]) == clock["score"]
        if held["winner"] == clock["winner"] and same_score:
            return  # they agree
        if any(c["table_id"] == table.id and c["match"] == label and c["clock"] == clock
               for c in hub.state.clashes):
            return  # already recorded (a restart reports a finished match again)
        source = held.get("source")
        action = {"do": "clash", "table": number, "table_id": table.id, "match": label,
                  "players": list(players),
                  "held": {"winner": held["winner"],
                           "source": source if source in RESULT_SOURCES else "hand",
                           **({"score": held["score"]} if held.get("score") else {})},
                  "clock": clock, "at_ms": self.server.clock.now_ms()}
        try:
            await self.act(hub, [action], source="server")
        except Refused as exc:
            log.warning("table %d's clash was not recorded: %s", table.id, exc.message)
            return
        log.warning("tournament %d: table %d's clock says %s won %s; the tournament holds %s "
                    "(%s)", hub.id, number, clock["winner"], label, held["winner"], source)

    def room_token(self, tournament_id: int) -> str:
        """The read-only token of a tournament's room display."""
        assert self.server.tokens is not None
        return self.server.tokens.room_token(tournament_id)

    def room_allowed(self, request: Request, tournament_id: int) -> bool:
        token = request.query_params.get("token")
        return (token is not None and hmac.compare_digest(
            token.encode("utf-8", "surrogatepass"), self.room_token(tournament_id).encode())
                ) or self.server.is_director(request)


# -------------------------------------------------------------------- HTTP

async def _decoded(request: Request, into: type[T]) -> dict[str, Any]:
    """A body read bounded, depth-checked, decoded into its declaration
    (``_tourney_bodies``) and given as the dict the fold reads."""
    from .app import _raw_body

    try:
        raw = await _raw_body(request)
    except BodyTooLarge as exc:
        raise Refused(413, "too_large", str(exc)) from None
    except ValueError as exc:
        raise Refused(400, "bad_request", str(exc)) from None
    try:
        body = decode_body(raw, into, choices=choices_of(into))
    except BodyError as exc:
        raise Refused(exc.status, "invalid" if exc.status == 422 else "bad_request",
                      str(exc)) from None
    return fields_of(body)


def _checked_name(field: str, value: Any, limit: int) -> None:
    try:
        check_name(f"body.{field}", value, limit=limit, empty=False)
    except LimitError as exc:
        raise Refused(422, "invalid", str(exc)) from None


async def check_names(server: Server, request: Request, names: list[tuple[str, str]],
                      taken: Callable[[Tournament], Iterable[str]],
                      what: str = "player") -> None:
    """Refuse a new name that is, or looks like, one taken, or holds invisible
    characters (``tournament/_names.py``): ``Refused`` 422 naming the field
    and the name it resembles, before the action is decided or stored.  (Two
    look-alikes sent at the same instant could both pass; the same name twice
    is still refused by the fold, under the lock.)"""
    hub = await _hub(server, request)
    try:
        check_new_names(names, taken(hub.state), what=what)
    except InvalidContest as exc:
        raise Refused(422, "invalid", str(exc)) from None


def _players_taken(state: Tournament) -> Iterable[str]:
    return (p.name for p in state.players)


def _path_id(request: Request, name: str) -> int:
    try:
        return check_id(name, str(request.path_params[name]))
    except LimitError:
        raise NotFound(f"no such {name.removesuffix('_id')}") from None


async def _hub(server: Server, request: Request) -> TournamentHub:
    return await server.tourneys.get(_path_id(request, "tournament_id"))


def _state(server: Server, request: Request, hub: TournamentHub) -> dict[str, Any]:
    room = server.tourneys.room_token(hub.id)
    return {**hub.view(), "late": late_view(server, hub), "tournament_id": hub.id,
            "seats": seats(hub.state),
            "room_url": f"{server.base_url(request)}/room/{hub.id}?token={room}"}


def one_action(body: type[Any], do: str, **extra: Any) -> Callable[
        [Server, Request], Awaitable[Response]]:
    """The route of one action: its body decoded as ``body`` (its
    declaration), then folded as ``do`` with ``extra`` fields."""

    async def handler(server: Server, request: Request) -> Response:
        try:
            data = await _decoded(request, body)
        except Refused as exc:
            return exc.response()
        return await _run(server, request, [{"do": do, **data, **extra}])

    handler.__name__ = f"post_{do}"
    return handler


Check = Callable[["TournamentHub", list[dict[str, Any]]], None]
After = Callable[["TournamentHub", list[dict[str, Any]]], Awaitable[dict[str, Any]]]


async def _run(server: Server, request: Request, actions: list[dict[str, Any]], *,
               status: int = 200, check: Check | None = None,
               after: After | None = None) -> Response:
    """Decide and store ``actions`` under the tournament's lock: ``check``
    (hub, done) may refuse them before they are stored; ``after`` (hub, done)
    does the rest (the tables) and adds to the answer."""
    hub = await _hub(server, request)
    row = await server.store.tournament(hub.id)
    if row.closed_ms is not None:
        return Refused(409, "closed", "this tournament is closed").response()
    try:
        async with hub.lock:
            done = await server.tourneys.act(
                hub, actions, check=None if check is None else lambda d: check(hub, d))
            extra: dict[str, Any] = {}
            if after is not None:
                extra = await after(hub, done) or {}
    except Refused as exc:
        return exc.response()
    return json_response({"done": done, **extra, "state": _state(server, request, hub)},
                         status_code=status)


async def get_state(server: Server, request: Request) -> Response:
    hub = await _hub(server, request)
    return json_response(_state(server, request, hub))


async def get_actions(server: Server, request: Request) -> Response:
    hub = await _hub(server, request)
    stored = await server.store.actions(hub.id)
    return json_response({"actions": [s.to_dict() for s in stored]})


def _check_rules(data: Mapping[str, Any]) -> None:
    rounds = data.get("rounds")
    if isinstance(rounds, list):
        for k, r in enumerate(rounds):
            rules = r.get("rules") if isinstance(r, dict) else None
            if rules is not None and (not isinstance(rules, str) or rules not in PRESETS):
                raise Refused(422, "invalid", f"body.rounds[{k}].rules: unknown rule book "
                              f"(one of {', '.join(PRESETS)})")


async def post_settings(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, SettingsBody)
        _check_rules(data)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "settings", **data}])


async def post_seeding(server: Server, request: Request) -> Response:
    """Seeds by rating and groups by club from the players' register, folded
    as the ``settings`` they give (explicit ids: the log stays the record)."""
    try:
        data = await _decoded(request, SeedingBody)
    except Refused as exc:
        return exc.response()
    hub = await _hub(server, request)
    entries: dict[int, Any] = {}
    for p in hub.state.players:
        if p.register_id is not None and not p.withdrawn:
            with contextlib.suppress(NotFound):
                entries[p.id] = await server.store.register_entry(p.register_id)
    action: dict[str, Any] = {"do": "settings"}
    if "seeds" in data:
        action["seeds"] = hub.state.rating_seeds(
            {pid: e.rating for pid, e in entries.items()}, data["seeds"])
    if data.get("clubs"):
        action["groups"] = hub.state.club_groups(
            {pid: e.club for pid, e in entries.items() if e.club})
    return await _run(server, request, [action])


def _register(data: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    """A CSV row's player (CSV is not JSON: its fields are checked here)."""
    _checked_name(f"{where}name", data.get("name"), MAX_PLAYER_NAME)
    if data.get("federation_id") is not None:
        _checked_name(f"{where}federation_id", data["federation_id"], MAX_FEDERATION_ID)
    return {"do": "register", **data}


async def post_player(server: Server, request: Request) -> Response:
    try:
        action = {"do": "register", **await _decoded(request, PlayerBody)}
        await check_link(server, action)
        await check_names(server, request, [("body.name", action["name"])], _players_taken)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [action], status=201)


async def post_players_csv(server: Server, request: Request) -> Response:
    """``name[,federation_id]`` per line; a first line ``name,...`` is a header.
    All rows or none."""
    try:
        text = await read_csv_text(request, MAX_CSV_BYTES)
    except Refused as exc:
        return exc.response()
    reader = csv.reader(io.StringIO(text))
    try:
        rows = [r for r in reader if any(c.strip() for c in r)]
    except csv.Error as exc:  # a field over csv's limit (131,072 characters), a NUL
        words = (f"a field is longer than {csv.field_size_limit()} characters (a name has "
                 f"at most {MAX_PLAYER_NAME})" if "field limit" in str(exc)
                 else f"not a CSV row name[,federation_id] ({exc})")
        return Refused(422, "invalid", f"line {reader.line_num}: body: {words}").response()
    if rows and rows[0] and rows[0][0].strip().lower() in ("name", "nome"):
        rows, offset = rows[1:], 2
    else:
        offset = 1
    if not rows:
        return Refused(422, "invalid", "body: no players in the CSV").response()
    if len(rows) > MAX_CSV_ROWS:
        return Refused(422, "invalid", f"body: at most {MAX_CSV_ROWS} rows").response()
    actions = []
    try:
        for k, row in enumerate(rows):
            if k and k % SLICE == 0:
                await asyncio.sleep(0)  # the clocks' presses go first
            where = f"line {k + offset}: "
            if len(row) > 2:
                raise Refused(422, "invalid", f"{where}columns are name[,federation_id]")
            fed = row[1].strip() if len(row) > 1 and row[1].strip() else None
            data: dict[str, Any] = {"name": row[0].strip()}
            if fed is not None:
                data["federation_id"] = fed
            try:
                action = _register(data)
            except Refused as exc:
                exc.message = where + exc.message
                raise
            actions.append({**action, "line": k + offset})
        names = [(f"line {a['line']}: body.name", a["name"]) for a in actions]
        await check_names(server, request, names, _players_taken)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, actions, status=201)


async def post_check_in(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, CheckInBody)
    except Refused as exc:
        return exc.response()
    pid = _path_id(request, "player_id")
    return await _run(server, request, [{"do": "check_in", "player": pid, **data}])


async def post_withdraw(server: Server, request: Request) -> Response:
    pid = _path_id(request, "player_id")
    return await _run(server, request, [{"do": "withdraw", "player": pid}])


async def post_reinstate(server: Server, request: Request) -> Response:
    """Undo a withdrawal: the matches it decided are undecided again (refused
    once the winner's next match has started or the consolation is drawn)."""
    pid = _path_id(request, "player_id")
    return await _run(server, request, [{"do": "reinstate", "player": pid}])


async def post_draw(server: Server, request: Request) -> Response:
    """Make the draw with the director's ``seed`` (the body's, else one a
    ``settings`` action gave), else one drawn here from a cryptographic
    source: the draw action carries it, so the log tells how it was drawn."""
    try:
        data = await _decoded(request, DrawBody)
    except Refused as exc:
        return exc.response()
    hub = await _hub(server, request)
    if "seed" in data:
        seed = data["seed"]
    elif hub.state.seed_given:
        seed = hub.state.seed
    else:
        seed = secrets.randbelow(MAX_SEED + 1)
    return await _run(server, request, [{"do": "draw", "seed": seed}])


async def post_close_late(server: Server, request: Request) -> Response:
    return await _run(server, request, [{"do": "close_late"}])


async def post_arrive(server: Server, request: Request) -> Response:
    try:
        data = await _decoded(request, ArriveBody)
    except Refused as exc:
        return exc.response()
    return await _run(server, request, [{"do": "arrive", **data,
                                         "at_ms": server.clock.now_ms()}])


async def post_round(server: Server, request: Request) -> Response:
    """Start a round: its ready matches get table numbers and clock tables.
    A round start cut short (the server stopped between its writes) is
    completed first; a repeated round start with nothing left to assign
    answers what it completed."""
    try:
        data = await _decoded(request, RoundBody)
    except Refused as exc:
        return exc.response()
    tourneys = server.tourneys

    def check(hub: TournamentHub, done: list[dict[str, Any]]) -> None:
        # every table the round needs must take a new match
        for a in done[0]["assigned"]:
            if tourneys.table_spec(hub.state, a["event"], a["round"], a["match"],
                                   a["table"]) is not None:
                tourneys.check_reusable(hub, a["table"])

    async def after(hub: TournamentHub, done: list[dict[str, Any]]) -> dict[str, Any]:
        failed = await tourneys.set_up(hub, done[0]["assigned"])
        return {"tables": _tables_of(server, request, hub, done[0]["assigned"]),
                "not_ready": failed}

    hub = await _hub(server, request)
    if (await server.store.tournament(hub.id)).closed_ms is not None:
        return Refused(409, "closed", "this tournament is closed").response()
    async with hub.lock:
        numbers, failed = await tourneys.complete(hub)
    if numbers or failed:
        event, r = data.get("event", "main"), data.get("round")
        try:
            nothing_new = isinstance(r, int) and not hub.state.ready(event, r)
        except ContestError:
            nothing_new = False  # the action itself names what is wrong
        if nothing_new:
            completed = [{"event": k[0], "round": k[1], "match": k[2], "table": n}
                         for n, k in sorted(hub.state.live_tables().items())
                         if k[0] == event and k[1] == r]
            return json_response({"done": [], "completed": numbers,
                                 "tables": _tables_of(server, request, hub, completed),
                                 "not_ready": failed,
                                 "state": _state(server, request, hub)})
    return await _run(server, request, [{"do": "start_round", **data}], check=check,
                      after=after)


def _tables_of(server: Server, request: Request, hub: TournamentHub,
               assigned: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for a in assigned:
        tid = hub.state.table_ids.get(a["table"])
        table = server.hub.tables.get(tid) if tid is not None else None
        settings = hub.state.settings_for(a["round"])
        out.append({**a, "clock": settings.clock, "table_id": tid if settings.clock != "none"
                    else None,
                    "url": server.table_link(request, table.id) if table is not None
                    and settings.clock != "none" else None})
    return out


async def post_result(server: Server, request: Request) -> Response:
    """A result by hand.  While the clock of the match's table runs, it is
    refused with ``clock_running`` unless the body says ``stop_clock`` (the
    director confirmed): then that clock is stopped first (a director's
    ``stop``), so it cannot go on to a result of its own."""
    try:
        data = await _decoded(request, ResultBody)
    except Refused as exc:
        return exc.response()
    stop = bool(data.pop("stop_clock", False))
    hub = await _hub(server, request)
    key = (str(data.get("event", "main")), int(data["round"]), int(data["match"]))
    table = server.tourneys.desk.table_of(hub, key)
    if table is not None and table.match.expires_at() is not None:
        number = hub.state.tables[key]
        if not stop:
            return Refused(409, "clock_running", f"table {number}'s clock is running: "
                           "confirm to stop it and enter the result",
                           {"table": number}).response()
        from ._desk import _Quiet
        from ._protocol import StopCmd

        cmd = StopCmd(type="cmd", id=f"hand-{hub.id}-{key[0]}-{key[1]}-{key[2]}",
                      table=table.id, side="B" if table.state_now().on_turn == "B" else "A",
                      reason="director")
        try:
            table.command(_Quiet(f"table {table.id}: stopped for a result by hand"),
                          "director", cmd)
        except ProtocolError as exc:
            return Refused(409, "running", f"table {number}'s clock could not be stopped: "
                           f"{exc.message}", {"table": number}).response()
        if table.match.expires_at() is not None:
            return Refused(409, "running", f"table {number}'s clock could not be stopped",
                           {"table": number}).response()
    return await _run(server, request, [{"do": "result", **data, "source": "hand"}])


post_correction = one_action(CorrectionBody, "correct")


post_revert = one_action(RevertBody, "revert")


async def post_dismiss_clash(server: Server, request: Request) -> Response:
    """The director has seen a clash between a table's result and the one
    held (corrected the match, or kept it): it leaves the alerts."""
    try:
        data = await _decoded(request, DismissBody)
    except Refused as exc:
        return exc.response()
    number = _path_id(request, "clash")
    return await _run(server, request, [{"do": "dismiss_clash", "clash": number, **data}])


# ------------------------------------------------------------ the room display

async def room_body(server: Server, tid: int) -> dict[str, Any]:
    """``room.json``'s body: the draw sheet and every table's match live,
    projected for the room (``_room.room_view``); ``NotFound``."""
    hub = await server.tourneys.get(tid)
    row = await server.store.tournament(tid)
    state = hub.view()
    clocks: dict[int, dict[str, Any]] = {}
    for i, m in enumerate(state["matches"]):
        table = server.hub.tables.get(m["table_id"]) if m["table_id"] is not None else None
        if table is not None and m["winner"] is None and table.row.spec.players == (m["a"],
                                                                                     m["b"]):
            s = table.state_now()
            clocks[i] = {"phase": s.phase, "score": list(s.score), "on_turn": s.on_turn,
                         "reserve_ms": [s.A.reserve_ms, s.B.reserve_ms], "length": s.length,
                         "at_ms": s.at_ms,
                         # a flag worked out while the timekeeper is away: no result yet
                         "provisional": table.provisional is not None}
    return room_view(tournament_id=tid, name=row.name, state=state, clocks=clocks,
                     late=late_view(server, hub), server_ms=server.clock.now_ms(),
                     ends=room_standings(hub.state))


def _room_id(server: Server, request: Request) -> int | Response:
    """The path's tournament id if the request may read its room, else the
    answer saying why (404, 403)."""
    try:
        tid = check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        return Refused(404, "not_found", "no such tournament").response()
    if not server.tourneys.room_allowed(request, tid):
        return Refused(403, "forbidden", "this link does not open this room").response()
    return tid


async def room_json(request: Request) -> Response:
    """The draw sheet and every table's match live, for the room display
    (the room token or the director's key)."""
    server: Server = request.app.state.server
    tid = _room_id(server, request)
    if isinstance(tid, Response):
        return tid
    try:
        return JSONResponse(await room_body(server, tid))
    except NotFound as exc:
        return Refused(404, "not_found", str(exc)).response()


async def room_stream(request: Request) -> Response:
    """``room.json`` pushed (``_roomfeed``): a server-sent event with the
    room's view now, then one after every change (the room token or the
    director's key; 503 past the streams' bound)."""
    from ._roomfeed import EventStream

    server: Server = request.app.state.server
    tid = _room_id(server, request)
    if isinstance(tid, Response):
        return tid
    full = server.room_feed.room_full(tid)
    if full is not None:
        return Refused(503, "busy", full).response()
    try:
        first = await server.room_feed.frame(tid)
    except NotFound as exc:
        return Refused(404, "not_found", str(exc)).response()
    return EventStream(server.room_feed.stream(tid, first))


async def room_page(request: Request) -> Response:
    from starlette.responses import HTMLResponse

    from bgclock import web

    server: Server = request.app.state.server
    try:
        tid = check_id("tournament_id", str(request.path_params["tournament_id"]))
    except LimitError:
        return Refused(404, "not_found", "no such tournament").response()
    if not server.tourneys.room_allowed(request, tid):
        return Refused(403, "forbidden", "this link does not open this room").response()
    return HTMLResponse(web.room_page())


#: The director's routes under ``/api/tournaments/{tournament_id}``.
ROUTES: list[tuple[str, str, Any]] = [
    ("/state", "GET", get_state),
    ("/actions", "GET", get_actions),
    ("/settings", "POST", post_settings),
    ("/seeding", "POST", post_seeding),
    ("/players", "POST", post_player),
    ("/players.csv", "POST", post_players_csv),
    ("/players/{player_id}/check-in", "POST", post_check_in),
    ("/players/{player_id}/withdraw", "POST", post_withdraw),
    ("/players/{player_id}/reinstate", "POST", post_reinstate),
    ("/draw", "POST", post_draw),
    ("/late/arrive", "POST", post_arrive),
    ("/late/close", "POST", post_close_late),
    ("/rounds", "POST", post_round),
    ("/results", "POST", post_result),
    ("/corrections", "POST", post_correction),
    ("/results/revert", "POST", post_revert),
    ("/clashes/{clash}/dismiss", "POST", post_dismiss_clash),
    *DESK_ROUTES,
    *STANDINGS_ROUTES,
]
