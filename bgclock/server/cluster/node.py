"""One process of a cluster: its leases, its forwarding and its relays.

Theory of operation
-------------------
Each table is owned by the process that first needs it (a device says hello
there) and can take its lease (``lease``); the owner loads it from the store
(the fold), runs it as a single process does, and publishes every update it
broadcasts once, on the table's channel (``bus``).

A device that says hello at a process that cannot take the lease is
*relayed*: that process answers its hello (``welcome``) and its pings
itself, forwards its hello, messages and goodbye to the owner's node channel
tagged with a connection id, subscribes to the table's channel while it has
relayed connections of that table, and passes the owner's updates and the
answers meant for that connection (acks, errors, the catch-up) to its
socket.  At the owner, a relayed device is a ``RemoteDevice`` among the
table's watchers: the table's rules (the timekeeper's claim, its online
state) see it as any device; the device's commands keep their device
instants, so where a press entered the cluster changes nothing.

Takeover: every ``WATCH_S`` a process tries the lease of each table it
relays.  The owner's death (``kill -9``: its lease connection closes; a
pause: PostgreSQL ends its idle session after ``LEASE_TTL_S``) frees the
lock; the first process to take it bumps the epoch, folds the table from the
store (a table with a timekeeper waits for it to reconcile, as after a restart)
and closes its relayed connections (``not_owner``, close code 1012): the
devices reconnect, to any process, and send their queued presses with their
device instants.

A tournament is owned the same way (``owner_elsewhere``: folded afresh from
the store when this process takes its lease).  A director's HTTP request on
a tournament, or a table's write, that reaches a process that does not own
it is forwarded to the owner (``run_at_owner``, ``forward_http``; the middleware
is ``edge.owner``, the two ends' pieces ``forward``) and answered with the
owner's answer within ``FORWARD_S``.  A table's result goes to its
tournament's owner (``deliver_result``), again until its receipt comes
back; the owner enters it once (``_take_result``).

A former owner learns it lost a table when a write is fenced (``Fenced``) or
its lease connection comes back to a newer epoch: it says so in its log,
sends ``not_owner`` to the table's devices and closes them (they reconnect
and are relayed), and forgets the table.

Reads at a process that does not own the table (HTTP, room displays) are
answered from a mirror of it (``mirror``); a table nobody uses has its lease
handed back (``handback``); both run in this process's sweep, in their own
modules.

A process leaves and joins without a gap (``drain``): on ``SIGTERM`` it
hands each table over (the lease unlocked once its commits are stored, then
its devices sent to reconnect) before it exits; a process with far fewer
tables than the others asks them for some (``drain.Balance``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import orjson
from starlette.requests import Request
from starlette.responses import Response

from bgclock.server.cluster import drain as draining
from bgclock.server.cluster.batch import Batched
from bgclock.server.cluster.bus import Bus
from bgclock.server.cluster.config import ClusterConfig
from bgclock.server.cluster.forward import (
    FORWARD_S,
    FORWARDED,
    MAX_FORWARDED_BODY,
    Answer,
    answer_message,
    answer_of,
    forwarded_scope,
    replay,
    request_message,
    run,
)
from bgclock.server.cluster.handback import Handback
from bgclock.server.cluster.holding import Holding
from bgclock.server.cluster.lease import Leases
from bgclock.server.cluster.mirror import Mirrors
from bgclock.server.context import Server
from bgclock.server.edge.limits import read_bounded
from bgclock.server.edge.principal import on_behalf
from bgclock.server.errors import ApiError, BodyTooLarge
from bgclock.server.live.hub import TableRunner
from bgclock.server.live.messages import dumps
from bgclock.server.live.recovery import Stored
from bgclock.server.live.refusal import Refused
from bgclock.server.ownership.interface import Ownership
from bgclock.server.tournaments.host import TableResult
from bgclock.server.ws.connection import Connection
from bgclock.server.ws.protocol import Hello, Ping, ProtocolError, decode
from bgclock.server.ws.silence import SILENT_LINK_S, SilenceWatch
from bgclock.store import Fenced, NotFound, StoreError

if TYPE_CHECKING:
    from bgclock.server.tournaments.host import LiveTournament
    from bgclock.store._postgres import PostgresStore


log = logging.getLogger("bgclock.cluster")

#: How often a process tries the leases of the tables it relays (s): the
#: bound on a takeover after the owner's lease is free.
WATCH_S: Final = 0.5
#: The close code of a connection whose table moved (the device reconnects).
MOVED_CLOSE: Final = 1012
#: How often, and how long apart (s), a relaying process looks for the
#: table's live owner before it sends the device to reconnect.
OWNER_TRIES: Final = 20
OWNER_RETRY_S: Final = 0.05
#: A table's result sent to its tournament's owner: how long it waits for
#: the owner's receipt (s), how long apart and how often it tries (an
#: owner that died meanwhile: the next try takes the tournament).
RESULT_ACK_S: Final = 2.0
RESULT_RETRY_S: Final = 0.5
RESULT_TRIES: Final = 20
#: Results' keys an owner remembers having entered (a retry is answered at once).
RESULTS_KEPT: Final = 4096


def _no_table(table_id: int) -> Stored:
    raise NotFound(f"no table {table_id}")


def not_owner_message(table_id: int, why: str) -> str:
    """The ``not_owner`` error a device gets before its socket is closed."""
    return dumps(ProtocolError("not_owner", f"table {table_id} {why}: reconnecting",
                               table=table_id).to_message())


class RemoteDevice:
    """A device connected to another process, as its table's owner sees it:
    what the table sends it goes to that process's node channel."""

    relayed = True
    batch = None
    dead = False

    def __init__(self, cluster: Cluster, origin: str, cid: str, table_id: int | None,
                 device: str | None, name: str | None) -> None:
        self.cluster = cluster
        self.origin = origin
        self.cid = cid
        self.role = "table"
        self.table_id: int | None = table_id
        self.device = device
        self.name = name
        self._channel = cluster.bus.node_channel(origin)

    def send(self, text: str) -> None:
        self.cluster.bus.publish(self._channel, orjson.dumps(
            {"k": "send", "c": self.cid, "text": text}))

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def refuse(self, refused: Refused) -> None:
        self.send_json(ProtocolError.of(refused).to_message())


Dispatch = Callable[[Any, Any, Any], None]


class Cluster(Ownership):
    """This process's part in a cluster (``bgclock serve --cluster``)."""

    def __init__(self, server: Server, store: PostgresStore, config: ClusterConfig,
                 dispatch: Dispatch) -> None:
        self.server = server
        self.store = store
        self.node = config.node_name()
        self.dispatch = dispatch
        self.leases = Leases(store.dsn, store.schema, self.node, deadline_s=store.deadline_s,
                             on_lost=self._lease_lost)
        #: Its tables: held, being taken, loaded or handed over (``holding``).
        self.holding = Holding(self.leases)
        self.bus = Bus(config.redis_url, config.prefix, self.node, self._on_bus,
                       secret=config.secret)
        #: Local connections relayed to another process: table -> id -> connection.
        self.relays: dict[int, dict[str, Connection]] = {}
        self._local: dict[str, Connection] = {}
        #: Devices of other processes at this process's tables.
        self.remotes: dict[tuple[str, str], RemoteDevice] = {}
        self._ids = itertools.count(1)
        self._taking_tournament: dict[int, asyncio.Lock] = {}
        #: Relayed devices' hellos and messages for tables being loaded here,
        #: handled once loaded (``_from_relay``).
        self._held_relays: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        #: The stored logs of the tables this process takes, read together
        #: (four reads for all those asked meanwhile: ``stored_many``).
        self._loads: Batched[int, Stored] = Batched(store.stored_many, _no_table,
                                                    "bgclock-cluster-load")
        #: The whole application (``create_app`` sets it): a forwarded
        #: director's request runs through it here.
        self.app: Any = None
        #: Forwarded requests and results awaiting their owner's answer.
        self._answers: dict[str, asyncio.Future[Any]] = {}
        #: Results entered here at another process's request (their keys).
        self._results_entered: OrderedDict[str, None] = OrderedDict()
        self._watch: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Tables other processes keep, live here for reading (``mirror``).
        self.mirrors = Mirrors(server, store, self.bus, self.leases, self.node, self.owns,
                               self.relays)
        #: Quiet tables' leases handed back (``handback``).
        self.handback = Handback(server.hub, self.holding, self.mirrors, config.release_idle_s)
        self._sweeper: asyncio.Task[None] | None = None
        #: This process's share of the tables (``drain.Balance``).
        self.balance = draining.Balance(server.hub, self.holding, self.bus, self.handback,
                                        self.send_away)
        self._balancer: asyncio.Task[None] | None = None
        # the store checks every write against the epoch this process holds
        # its lease at (the hub asks this ownership the rest: ``live.owner``)
        store.fenced_by(self.leases)

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        await self.leases.open()
        await self.bus.open()
        self._watch = asyncio.get_running_loop().create_task(self._watch_leases(),
                                                             name="bgclock-cluster-watch")
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(),
                                                               name="bgclock-cluster-sweep")
        self._balancer = asyncio.get_running_loop().create_task(
            self._balance(), name="bgclock-cluster-balance")
        log.warning("cluster node %s: leases on PostgreSQL, traffic on %s", self.node,
                    self.bus.prefix)

    async def stop(self) -> None:
        await self._stop_tasks()
        await self._loads.close()
        await self.bus.close()
        await self.leases.close()

    async def _stop_tasks(self) -> None:
        for task in (self._watch, self._sweeper, self._balancer):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def leave(self) -> None:
        await self.drain()

    async def drain(self, within: float = draining.DRAIN_S) -> None:
        """Hand every table over before this process exits (``drain``)."""
        holding = self.holding
        if holding.draining:
            return
        holding.draining = True  # from now on it takes no lease
        await self._stop_tasks()
        loop = asyncio.get_running_loop()
        until = loop.time() + within
        tables = holding.tables()
        log.warning("cluster node %s drains: %d tables to hand over", self.node, len(tables))
        try:
            await asyncio.wait_for(draining.hand_over(
                self.server.hub, holding, self.handback, tables, self.send_away,
                within=within / 2), within)
        except (TimeoutError, OSError, Exception) as exc:  # noqa: BLE001 - the exit goes on
            log.error("the drain did not finish (%s): the rest go with the process", exc)
        self.relays_away("this process is leaving")
        tournaments = [ident for kind, ident in list(self.leases.held) if kind == "tournament"]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.leases.release_many("tournament", tournaments),
                                   max(0.1, until - loop.time()))
        await self.settle(max(0.1, until - loop.time()))
        log.warning("cluster node %s drained", self.node)

    def send_away(self, table: TableRunner, why: str = "moves to another process") -> None:
        """The table moved: its devices here are told and closed (they
        reconnect), those relayed from other processes dropped there."""
        text = not_owner_message(table.id, why)
        for watcher in list(table.watchers):
            if isinstance(watcher, RemoteDevice):
                self.bus.publish(self.bus.node_channel(watcher.origin), orjson.dumps(
                    {"k": "drop", "c": watcher.cid}))
                self.remotes.pop((watcher.origin, watcher.cid), None)
            else:
                watcher.send(text)
                close = getattr(watcher, "close", None)
                if close is not None:
                    self._spawn(close(MOVED_CLOSE))

    def relays_away(self, why: str) -> None:
        """Every device this process relays to another is sent to reconnect."""
        for table_id in list(self.relays):
            self._reconnect_relayed(table_id, why)

    async def settle(self, within: float) -> None:
        """Wait (at most ``within``) for the closes and hand-overs under way."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=within)

    async def _take_released(self, table_ids: list[int]) -> None:
        """Tables another process released at this one's request (its
        ``Balance`` asked): taken."""
        for table_id in table_ids:
            if self.holding.draining:
                return
            try:
                if await self.own(table_id):
                    self.balance.taken += 1
            except Exception as exc:  # noqa: BLE001 - its devices take it wherever they land
                log.warning("table %d: released to this process, not taken: %s", table_id, exc)

    async def _balance(self) -> None:
        while True:
            await asyncio.sleep(draining.BALANCE_S)
            try:
                await self.balance.round()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("the cluster's balance failed")

    @property
    def owns_everything(self) -> bool:
        return False

    async def readable(self, table: TableRunner) -> TableRunner:
        if self.owns(table.id):
            return table
        return await self.mirrors.table(table.id)

    async def readable_room(self, tournament_id: int) -> None:
        await self.mirrors.room(tournament_id)

    def owns(self, table_id: int) -> bool:
        return self.holding.owns(table_id)

    def taking(self, table_id: int) -> bool:
        """This process is taking the table's lease now."""
        return self.holding.taking(table_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ owning

    async def own(self, table_id: int) -> bool:
        """Own the table if this process does or can take its lease (then it
        is loaded from the store); False: another process owns it."""
        holding = self.holding
        if holding.owns(table_id):
            return True
        if holding.draining or table_id in holding.leaving:
            return False
        async with holding.take_lock(table_id):
            if holding.owns(table_id):
                return True
            if holding.draining:
                return False
            holding.loading.add(table_id)
            try:
                epoch = await self.leases.take("table", table_id)
                if epoch is None:
                    return False
                try:
                    table = await self.server.hub.take(table_id, await self._loads.get(table_id))
                except StoreError as exc:
                    log.error("table %d: leased (epoch %d) but not loaded: %s", table_id,
                              epoch, exc)
                    await self.leases.release("table", table_id)
                    return False
            finally:
                holding.loading.discard(table_id)
                held = self._held_relays.pop(table_id, [])
                if not self.owns(table_id):  # not taken: each relaying process is told
                    for kind, msg in held:
                        self._from_relay(kind, msg)
                    held = []
            self._taken(table)
            for kind, msg in held:
                self._from_relay(kind, msg)
        if self.relays.get(table_id):
            # its devices here were relayed to the former owner: they come
            # back and are served here
            self._reconnect_relayed(table_id, "is owned by this process now")
        return True

    async def owner_elsewhere(self, hub: LiveTournament) -> str | None:
        """None when this process owns the tournament (it holds the lease,
        or took it now: then the state is folded afresh from the store, as
        another process may have acted on it); else the name of the process
        that took it last."""
        tid = hub.id
        if self.leases.epoch("tournament", tid) is not None:
            return None
        if self.holding.draining:  # leaving: another process takes it
            return await self.leases.owner("tournament", tid) or ""
        lock = self._taking_tournament.setdefault(tid, asyncio.Lock())
        async with lock:  # one fold per take, and nobody acts on it midway
            if self.leases.epoch("tournament", tid) is not None:
                return None
            epoch = await self.leases.take("tournament", tid)
            if epoch is None:  # "": held, but its row does not name the holder yet
                return await self.leases.owner("tournament", tid) or ""
            try:
                stored = await self.store.actions(tid)
            except BaseException:
                await self.leases.release("tournament", tid)
                raise
            hub.log = [dict(s.action) for s in stored]
            hub.rebuild()
        return None

    async def own_tournament(self, hub: LiveTournament) -> None:
        """Before a tournament action: this process owns the tournament
        (``owner_elsewhere``), or ``ApiError`` 503 ``not_owner`` naming the
        process that does (a director's HTTP request is forwarded there
        before it gets here: ``edge.owner``; this is for the rest)."""
        owner = await self.owner_elsewhere(hub)
        if owner is not None:
            raise ApiError(503, "not_owner", f"tournament {hub.id} is owned by process "
                          f"{owner or '(unknown)'} of the cluster: send its director's "
                          "actions there, or again once that process is gone",
                          {"owner": owner})

    async def owner_of(self, kind: str, ident: int) -> str | None:
        """Who runs a director's request on tournament or table ``ident``:
        None for this process (it owns it, or took it now: also when it
        does not exist, and the route answers 404), else the process to
        forward it to.  ``ApiError`` 503 when a live owner cannot be named."""
        for _ in range(OWNER_TRIES):
            if kind == "tournament":
                try:
                    hub = await self.server.tourneys.get(ident)
                except NotFound:
                    return None
                owner = await self.owner_elsewhere(hub)
                if owner is None:
                    return None
            else:
                if not await self.known(ident) or await self.own(ident):
                    return None
                owner = await self.leases.owner(kind, ident)
            if owner and owner != self.node:
                return owner
            await asyncio.sleep(OWNER_RETRY_S)  # the lease row names its new owner soon
        raise ApiError(503, "not_owner", f"{kind} {ident} is owned by another process of the "
                      "cluster that cannot be named now: try again")

    async def run_at_owner(self, kind: str, ident: int, app: Any, scope: Any, receive: Any,
                           send: Any, *, of_table: bool = False) -> None:
        """Run a director's request here when this process owns the ``kind``
        ``ident`` (or takes it now), else forward it to the process that
        does and answer with its answer (``forward_http``).  A request
        forwarded here already runs here (its owner, or a former one, which
        answers ``not_owner`` itself)."""
        if FORWARDED in scope:
            await app(scope, receive, send)
            return
        if of_table:
            table = self.server.hub.tables.get(ident) if await self.known(ident) else None
            if table is None:
                await app(scope, receive, send)  # the route answers it
                return
            ident = table.row.tournament_id
        owner = await self.owner_of(kind, ident)
        if owner is None:
            await app(scope, receive, send)
            return
        try:
            body = await read_bounded(Request(scope, receive), MAX_FORWARDED_BODY)
        except BodyTooLarge as exc:
            raise ApiError(413, "too_large", str(exc)) from None
        answer = await self.forward_http(kind, ident, owner, scope, body)
        if answer is None:  # the owner went before anyone heard it: owned here now
            await app(scope, replay(body), send)
            return
        response = Response(answer.body, status_code=answer.status,
                            headers=dict(answer.headers))
        await response(scope, receive, send)

    async def forward_http(self, kind: str, ident: int, owner: str, scope: Any,
                           body: bytes) -> Answer | None:
        """Send a director's request to ``owner`` and give its answer; None
        when the request is to run here after all (the owner went before
        anyone heard it, and this process took it).  Waits ``FORWARD_S``:
        an owner that does not answer by then, or that dies meanwhile, is
        answered 503 ``no_answer`` (whether it stored the action is in the
        tournament's log: the state tells)."""
        rid = f"{self.node}.h{next(self._ids)}"
        waiting: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._answers[rid] = waiting
        message = request_message(self.node, rid, scope, body)
        message["kind"], message["id"] = kind, ident
        data = orjson.dumps(message)
        try:
            for _ in range(OWNER_TRIES):
                if await self.bus.receivers(self.bus.node_channel(owner), data):
                    break
                # nobody listens there (the owner is gone): nobody heard it
                found = await self.owner_of(kind, ident)
                if found is None:
                    return None
                owner = found
                await asyncio.sleep(OWNER_RETRY_S)
            else:
                raise ApiError(503, "not_owner", f"{kind} {ident} is owned by process {owner} "
                              "of the cluster, which does not listen: try again",
                              {"owner": owner})
            loop = asyncio.get_running_loop()
            until = loop.time() + FORWARD_S
            while not waiting.done():
                left = until - loop.time()
                if left <= 0:
                    raise self._no_answer(kind, ident, owner, f"did not answer within "
                                          f"{FORWARD_S:g} s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(waiting), min(left, WATCH_S))
                if waiting.done():
                    break
                # the owner still there?  (dead: its lease is free, or taken by another)
                try:
                    now = await self.owner_of(kind, ident)
                except ApiError:
                    continue
                if now != owner:
                    # the lease moved: whatever the owner stored is in the log
                    # now (a write after the move is fenced), so it can be told
                    raise self._no_answer(kind, ident, owner, "stopped before it answered",
                                          await self._request_stored(rid))
            answer: Answer = waiting.result()
            return answer
        finally:
            self._answers.pop(rid, None)

    async def seat_at_owner(self, table_id: int,
                            spec: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """A round start's match for a table another process owns: sent
        there, with the round start's own credentials, as the director's
        edit (``PATCH /api/tables/N``: a table not started yet) or, once the
        table has played, its next match
        (``POST .../next-match``), each run by the owner as it runs them
        from the network.  None when the seating is to be done here (this
        process owns the table, or took it now); else the owner's status
        and JSON answer."""
        body = orjson.dumps(spec)
        answer: tuple[int, dict[str, Any]] | None = None
        for method, path in (("PATCH", f"/api/tables/{table_id}"),
                             ("POST", f"/api/tables/{table_id}/next-match")):
            owner = await self.owner_of("table", table_id)
            if owner is None:
                return None
            # the round start's own credentials: the owner checks them as its own
            scope = {"type": "http", "method": method, "path": path, "query_string": b"",
                     "headers": [(b"content-type", b"application/json"), *on_behalf()]}
            got = await self.forward_http("table", table_id, owner, scope, body)
            if got is None:
                return None
            try:
                answer = got.status, dict(orjson.loads(got.body))
            except (orjson.JSONDecodeError, TypeError, ValueError):
                answer = got.status, {"error": "storage", "message": "the owner's answer "
                                      "could not be read"}
            if got.status == 409 and answer[1].get("error") == "started":
                continue  # it has played: its next match
            break
        return answer

    @staticmethod
    def _no_answer(kind: str, ident: int, owner: str, what: str,
                   done: bool | None = None) -> ApiError:
        """503 ``no_answer``: ``done`` whether the request stored anything
        (None: not known, the owner may still write)."""
        if done is None:
            outcome = ("your request may or may not have been done; read the state again "
                       "before you send it again")
        elif done:
            outcome = "your request was done (the log holds it): do not send it again"
        else:
            outcome = "your request was not done: send it again"
        return ApiError(503, "no_answer", f"process {owner} of the cluster, which owns {kind} "
                        f"{ident}, {what}: {outcome}", {"owner": owner,
                         "done": "unknown" if done is None else "yes" if done else "no"})

    async def _request_stored(self, rid: str) -> bool | None:
        """Whether a forwarded request stored an action (None: the database
        cannot say now)."""
        try:
            return await self.store.request_stored(rid)
        except StoreError:
            return None

    async def _serve_http(self, msg: dict[str, Any]) -> None:
        """A director's request forwarded here: run through the whole
        application (when this process still owns its tournament or table)
        and answered to the process it came from."""
        origin, rid = str(msg["from"]), str(msg["r"])
        kind, ident = str(msg.get("kind")), int(msg.get("id") or 0)
        try:
            owner = await self.owner_of(kind, ident)
        except ApiError as exc:
            owner = str(exc.params.get("owner", "?"))
        if owner is not None:
            body = orjson.dumps({"error": "not_owner", "message": f"{kind} {ident} is owned by "
                                 f"process {owner} of the cluster now: send it again",
                                 "params": {"owner": owner}})
            answer = Answer(503, (("content-type", "application/json"),), body)
        elif self.app is None:
            return
        else:
            scope, body_in = forwarded_scope(msg)
            answer = await run(self.app, scope, body_in, rid)
        self.bus.publish(self.bus.node_channel(origin), orjson.dumps(answer_message(rid, answer)))

    async def deliver_result(self, result: TableResult) -> None:
        """A table's result, to the process that owns its tournament (this
        one, or the one the lease names: sent there, tried again until its
        receipt comes back; an owner gone meanwhile: this process takes the
        tournament and enters it).  Entering is idempotent (the tournament's
        state holds the result, and its owner remembers the key)."""
        tid = result.tournament_id
        for _ in range(RESULT_TRIES):
            try:
                owner = await self.owner_of("tournament", tid)
                if owner is None:
                    await self.server.tourneys.enter_result(result)
                    return
            except NotFound:
                raise
            except (ApiError, StoreError) as exc:
                if isinstance(exc, ApiError) and exc.code != "not_owner":
                    raise
                # the owner changed meanwhile, or the database stalled: again
                log.warning("table %d's result: not entered yet (%s)", result.table_id, exc)
                await asyncio.sleep(RESULT_RETRY_S)
                continue
            rid = f"{self.node}.r{next(self._ids)}"
            receipt: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._answers[rid] = receipt
            try:
                if await self.bus.receivers(self.bus.node_channel(owner), orjson.dumps(
                        {"k": "result", "from": self.node, "r": rid,
                         "result": result.to_dict()})):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(receipt), RESULT_ACK_S)
                if receipt.done():
                    log.info("table %d's result went to tournament %d at process %s",
                             result.table_id, tid, owner)
                    return
            finally:
                self._answers.pop(rid, None)
            await asyncio.sleep(RESULT_RETRY_S)
        log.error("table %d's result (%s won %s) did not reach tournament %d's owner: the "
                  "director enters it by hand", result.table_id, result.winner,
                  "-".join(map(str, result.score)), tid)

    async def _take_result(self, msg: dict[str, Any]) -> None:
        """Another process's table result for a tournament this process
        owns: entered (once: a retry is answered from memory, a takeover
        finds it in the state) and its receipt sent back.  No receipt when
        this process does not own the tournament: the sender asks again."""
        result = TableResult.from_dict(msg["result"])
        if result.key not in self._results_entered:
            try:
                if await self.owner_of("tournament", result.tournament_id) is not None:
                    return
                await self.server.tourneys.enter_result(result)
            except NotFound:
                pass
            except (ApiError, StoreError) as exc:
                log.warning("table %d's result not entered yet: %s", result.table_id, exc)
                return
            self._results_entered[result.key] = None
            while len(self._results_entered) > RESULTS_KEPT:
                self._results_entered.popitem(last=False)
        self.bus.publish(self.bus.node_channel(str(msg["from"])), orjson.dumps(
            {"k": "answer", "r": msg["r"]}))

    def tournament_fenced(self, tournament_id: int) -> None:
        """A tournament's write was fenced: another process owns it now."""
        self.leases.forget("tournament", tournament_id)
        log.error("tournament %d: a write was fenced (another process took the lease): "
                  "this process no longer owns it", tournament_id)

    async def known(self, table_id: int) -> bool:
        """The table exists (made by any process): its row is in the hub."""
        hub = self.server.hub
        if table_id in hub.tables:
            return True
        try:
            row = await self.store.table(table_id)
        except NotFound:
            return False
        if table_id not in hub.tables:  # nobody loaded it meanwhile
            hub.dormant(row)
        return True

    def drop(self, table_id: int, why: str) -> None:
        """This process no longer owns the table: say so, close its devices
        (they reconnect and are relayed to the owner), forget it."""
        self.leases.forget("table", table_id)
        hub = self.server.hub
        table = hub.tables.get(table_id)
        log.error("table %d: %s: this process no longer owns it and drops it", table_id, why)
        if table is None:
            return
        text = not_owner_message(table_id, "is owned by another process now")
        self.send_away(table, "is owned by another process now")
        for director in list(hub.directors):
            director.send(text)
        hub.drop(table_id)

    def table_added(self, table_id: int) -> None:
        self.bus.publish(self.bus.all_channel(),
                         orjson.dumps({"k": "table", "from": self.node, "t": table_id}))

    def table_fenced(self, exc: Fenced) -> None:
        for table_id in exc.table_ids:
            if self.owns(table_id):
                self.drop(table_id, "a write was fenced (another process took the lease, "
                          "a newer epoch): nothing written")
            else:  # dropped already (its lease connection said so first)
                log.error("table %d: a write was fenced (this process no longer owns it): "
                          "nothing written", table_id)

    def _lease_lost(self, kind: str, ident: int, why: str) -> None:
        if kind == "table":
            self.drop(ident, f"the lease is lost: {why}")

    async def _watch_leases(self) -> None:
        """Take over the tables this process relays whose owner is gone."""
        while True:
            await asyncio.sleep(WATCH_S)
            for table_id in list(self.relays):
                if not self.relays.get(table_id) or self.owns(table_id):
                    continue
                try:
                    taken = await self.own(table_id)
                except Exception as exc:  # noqa: BLE001 - the next round tries again
                    log.warning("table %d: lease not taken: %s", table_id, exc)
                    continue
                if taken:
                    log.warning("table %d: its owner is gone: this process (%s) took it over",
                                table_id, self.node)

    def _reconnect_relayed(self, table_id: int, why: str) -> None:
        text = not_owner_message(table_id, why)
        for conn in list(self.relays.get(table_id, {}).values()):
            conn.send(text)
            self._spawn(conn.close(MOVED_CLOSE))

    # ------------------------------------------------------------ relaying

    async def device_hello(self, conn: Connection, hello: Hello, table_id: int) -> bool:
        """A table device's hello: False when this process owns the table
        (the caller serves it as usual), True when the device was relayed to
        the owner until it went (the session is over)."""
        if await self.own(table_id):
            return False
        await self._relay(conn, hello, table_id)
        return True

    async def _relay(self, conn: Connection, hello: Hello, table_id: int) -> None:
        server = self.server
        cid = f"{self.node}.{next(self._ids)}"
        conn.role, conn.table_id = "table", table_id
        conn.device, conn.name = hello.device, hello.name
        conn.send_json({"type": "welcome", "v": 1, "role": "table", "tables": [table_id],
                        "server_ms": server.clock.now_ms(), "started_ms": server.started_ms})
        self.relays.setdefault(table_id, {})[cid] = conn
        self._local[cid] = conn
        await self.bus.subscribe(self.bus.table_channel(table_id))
        base = {"from": self.node, "c": cid, "t": table_id}
        hello_text = orjson.dumps(
            {**base, "k": "hello", "device": hello.device, "name": hello.name,
             "queued": hello.queued, "last_seq": hello.last_seq})
        # The lease row names the owner once its epoch bump is committed (a
        # few ms after it took the lock): until a live owner listens, read again
        channel = ""
        watch: SilenceWatch | None = None
        for _ in range(OWNER_TRIES):
            owner = await self.leases.owner("table", table_id)
            if owner is not None and owner != self.node:
                channel = self.bus.node_channel(owner)
                if await self.bus.receivers(channel, hello_text):
                    break
            channel = ""
            await asyncio.sleep(OWNER_RETRY_S)
        try:
            if not channel:  # no owner answers: the device comes back (and takes it, or not)
                log.warning("table %d: no live process owns it: the device is sent to "
                            "reconnect", table_id)
                conn.send(not_owner_message(table_id, "has no live owner yet"))
                await conn.close(MOVED_CLOSE)
                return
            watch = SilenceWatch(SILENT_LINK_S)
            while not conn.dead:
                try:
                    message = await conn.ws.receive()
                except asyncio.CancelledError:
                    if watch.silenced():
                        return
                    raise
                watch.heard()
                if message["type"] == "websocket.disconnect":
                    return
                if not conn.limiter.allow():
                    conn.send_json(ProtocolError("rate_limited", "too many messages: slow down")
                                   .to_message())
                    continue
                text = message.get("text")
                try:
                    decoded = decode(text)
                except ProtocolError as exc:
                    conn.send_json(exc.to_message())
                    continue
                if isinstance(decoded, Ping):
                    watch.start()
                    self.dispatch(server, conn, decoded)  # answered here
                    continue
                if isinstance(decoded, Hello):
                    conn.send_json(ProtocolError("bad_message", "hello was already said")
                                   .to_message())
                    continue
                self.bus.publish(channel, orjson.dumps({**base, "k": "msg", "text": text}))
        finally:
            if watch is not None:
                watch.stop()
            relays = self.relays.get(table_id, {})
            relays.pop(cid, None)
            self._local.pop(cid, None)
            if not relays:
                self.relays.pop(table_id, None)
            if not relays and table_id not in self.mirrors.held:  # a mirror reads it too
                with contextlib.suppress(Exception):
                    await self.bus.unsubscribe(self.bus.table_channel(table_id))
            self.bus.publish(channel, orjson.dumps({**base, "k": "bye"}))

    async def director_hello(self, conn: Connection, since: dict[int, int]) -> None:
        """A dashboard at this process: every table's updates reach it (the
        tables' channels); a table nobody owns is taken here; the others'
        catch-up comes from their owners."""
        await self.bus.subscribe_tables()
        cid = f"{self.node}.{next(self._ids)}"
        conn.relay_id = cid
        self._local[cid] = conn
        hub = self.server.hub
        for row in await self.store.tables():  # made by other processes since this one started
            if row.id not in hub.tables:
                hub.dormant(row)
        others: dict[str, list[int]] = {}
        for table in list(hub.tables.values()):
            if table.closed or self.owns(table.id):
                continue
            if await self.own(table.id):
                continue  # taken here: the caller's catch-up covers it
            owner = await self.leases.owner("table", table.id)
            if owner is not None:
                others.setdefault(owner, []).append(table.id)
        for owner, ids in others.items():
            self.bus.publish(self.bus.node_channel(owner), orjson.dumps(
                {"k": "dir_hello", "from": self.node, "c": cid, "t": 0, "tables": ids,
                 "since": {str(t): since[t] for t in ids if t in since}}))

    def director_gone(self, conn: Connection) -> None:
        cid = getattr(conn, "relay_id", None)
        if cid is not None:
            self._local.pop(cid, None)

    def forwards(self, conn: Connection, message: Any, text: str) -> bool:
        """A director's message for a table another process owns: sent to
        that process (its answer comes back to ``conn``); False: served here."""
        table_id = getattr(message, "table", None)
        if (conn.role != "director" or table_id is None or isinstance(message, Ping | Hello)
                or table_id not in self.server.hub.tables or self.owns(table_id)):
            return False
        self._spawn(self._forward_director(conn, table_id, text))
        return True

    async def _forward_director(self, conn: Connection, table_id: int, text: str) -> None:
        cid = getattr(conn, "relay_id", None)
        if cid is None:
            return
        if await self.own(table_id):  # nobody kept it: it is this process's now
            try:
                self.dispatch(self.server, conn, decode(text))
            except ProtocolError as exc:
                conn.send(dumps(exc.to_message()))
            return
        owner = await self.leases.owner("table", table_id)
        self.bus.publish(self.bus.node_channel(str(owner)), orjson.dumps(
            {"k": "dmsg", "from": self.node, "c": cid, "t": table_id, "text": text}))

    def relay(self, table_id: int, text: str, everyone: bool) -> None:
        """The owner's broadcast of a table, for the processes relaying it
        (``a``: its devices and the directors; ``d``: the directors only)."""
        self.bus.publish(self.bus.table_channel(table_id),
                         (b"a" if everyone else b"d") + text.encode())

    def _on_bus(self, channel: str, data: bytes, pattern: bool) -> None:
        if channel.startswith(self.bus.prefix + ":table:"):
            table_id = int(channel.rsplit(":", 1)[1])
            if self.owns(table_id):
                return  # this process's own broadcast: sent here already
            text = data[1:].decode()
            if pattern:  # every table's channel: for this process's dashboards
                for director in list(self.server.hub.directors):
                    director.send(text)
            else:
                if data[:1] == b"a":
                    for conn in list(self.relays.get(table_id, {}).values()):
                        conn.send(text)
                self.mirrors.feed(table_id, data[1:])
            return
        msg = orjson.loads(data)
        kind = msg["k"]
        if channel == self.bus.all_channel():
            if kind == "table" and msg["from"] != self.node:
                self._spawn(self._table_made(int(msg["t"])))
            elif kind == "tourney" and msg["from"] != self.node:
                self._spawn(self.mirrors.tournament(int(msg["t"]), str(msg["text"])))
            return
        if kind == "http":
            self._spawn(self._serve_http(msg))
        elif kind == "http_answer":
            waiting = self._answers.get(msg["r"])
            if waiting is not None and not waiting.done():
                waiting.set_result(answer_of(msg))
        elif kind == "result":
            self._spawn(self._take_result(msg))
        elif kind == "answer":
            waiting = self._answers.get(msg["r"])
            if waiting is not None and not waiting.done():
                waiting.set_result(True)
        elif kind == "send":
            local = self._local.get(msg["c"])
            if local is not None:
                local.send(msg["text"])
        elif kind == "release":
            self._spawn(self.balance.release(msg))
        elif kind == "released":
            self._spawn(self._take_released([int(t) for t in msg.get("t") or ()]))
        elif kind in ("mirror_ask", "mirror_info"):
            self.mirrors.on_node(kind, msg)
        elif kind == "drop":
            local = self._local.get(msg["c"])
            if local is not None and local.table_id is not None:
                local.send(not_owner_message(local.table_id, "moved to another process"))
                self._spawn(local.close(MOVED_CLOSE))
        else:
            self._from_relay(kind, msg)

    def _from_relay(self, kind: str, msg: dict[str, Any]) -> None:
        """A relayed device's hello, message or goodbye, at the table's owner."""
        origin, cid, table_id = str(msg["from"]), str(msg["c"]), int(msg["t"])
        hub = self.server.hub
        key = (origin, cid)
        if kind in ("hello", "msg", "bye") and table_id in self.holding.loading:
            # taken here and loading now: its relayed devices wait for the
            # load, in order (dropped, they would not know to come back)
            self._held_relays.setdefault(table_id, []).append((kind, msg))
            return
        if kind == "bye":
            device = self.remotes.pop(key, None)
            table = hub.tables.get(table_id)
            if device is not None and table is not None and device in table.watchers:
                table.watchers.discard(device)
                table.device_gone(device.device)
            return
        if kind == "dir_hello":
            sink = RemoteDevice(self, origin, cid, 0, None, None)
            since = {int(k): int(v) for k, v in dict(msg.get("since") or {}).items()}
            for tid in msg.get("tables") or ():
                table = hub.tables.get(int(tid))
                if table is not None and self.owns(table.id):
                    table.catch_up(sink, since.get(table.id))
                    table.send_summons(sink, since.get(table.id))
                    table.send_handled(sink)
            return
        if kind == "dmsg":
            director = RemoteDevice(self, origin, cid, None, None, None)
            director.role = "director"
            try:
                self.dispatch(self.server, director, decode(msg["text"]))
            except ProtocolError as exc:
                director.send(dumps(exc.to_message()))
            return
        if not self.owns(table_id):
            self.bus.publish(self.bus.node_channel(origin), orjson.dumps({"k": "drop", "c": cid}))
            self.remotes.pop(key, None)
            return
        table = hub.tables[table_id]
        if kind == "hello":
            device = RemoteDevice(self, origin, cid, table_id, msg.get("device"),
                                  msg.get("name"))
            self.remotes[key] = device
            table.catch_up(device, msg.get("last_seq"))
            table.watchers.add(device)
            table.device_hello(device.device, int(msg.get("queued") or 0), device.name)
        elif kind == "msg":
            remote = self.remotes.get(key)
            if remote is None:
                self.bus.publish(self.bus.node_channel(origin),
                                 orjson.dumps({"k": "drop", "c": cid}))
                return
            try:
                self.dispatch(self.server, remote, decode(msg["text"]))
            except ProtocolError as exc:
                remote.send(dumps(exc.to_message()))

    # ------------------------------------------------- live at every process

    def tournament_changed(self, tournament_id: int, text: str) -> None:
        """This process acted on a tournament it owns (``text``: its
        dashboards' ``tournament`` message): the other processes' dashboards
        are told (they read it again, and the read is forwarded here), their
        copies of it folded again and their room displays pushed."""
        self.bus.publish(self.bus.all_channel(), orjson.dumps(
            {"k": "tourney", "from": self.node, "t": tournament_id, "text": text}))

    def _taken(self, table: TableRunner) -> None:
        """This process took the table: no mirror of it here; the mirrors at
        the others fold it again (the take may have stored a restart's stop,
        which no update carried), and their dashboards see it."""
        self.mirrors.forget(table.id)
        self.relay(table.id, table.snapshot_message(), False)

    async def _table_made(self, table_id: int) -> None:
        """Another process made a table: known here, shown on this process's
        open dashboards as a table made here is (``Hub.add``), and mirrored
        if a room display here shows its tournament."""
        hub = self.server.hub
        if table_id in hub.tables:
            return
        try:
            if not await self.known(table_id):
                return
        except StoreError as exc:
            log.warning("table %d made by another process is not read: %s", table_id, exc)
            return
        table = hub.tables[table_id]
        for director in list(hub.directors):
            director.send(table.table_message())
            director.send(table.snapshot_message())
        if self.mirrors.wanted(table.row.tournament_id):
            await self.mirrors.ensure(table_id)

    async def _sweep(self) -> None:
        """Hand back the quiet tables' leases; keep the mirrors needed."""
        while True:
            await asyncio.sleep(self.handback.period)
            try:
                await self.handback.sweep()
                await self.mirrors.sweep()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("the cluster's sweep failed")
