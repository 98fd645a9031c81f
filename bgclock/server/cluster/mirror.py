"""Mirrors: a table another process owns, live at this one, for reading.

Theory of operation
-------------------
A process that is asked about a table it does not own (an HTTP read of the
table, a room display of its tournament) *mirrors* it: it subscribes to the
table's channel first, then folds the table from the store
(``MirroredTable``, a class of its own: read only, no timer, no write, no
relay), and from then on applies the owner's committed events as their
``update`` messages come (``MirroredTable.follow``): the same fold the
owner runs, so ``state_now`` at this process is the owner's, its running
clock included.  The owner's ``table`` messages carry what only it knows
(its devices online, the timekeeper's claim, a provisional flag): the
mirror answers ``info`` with the last of them (``MirroredTable.mirrored``);
at its start it asks the owner for one (``mirror_ask``, answered on this
process's node channel).

Updates queued while the fold reads the store are applied after it (those
it holds already are skipped by their seq).  Whatever does not follow (a
gap, a timekeeper's press folded before the last event, a ``snapshot``: the
owner was rolled back, took the table over, started the next match) folds
the mirror again from the store: a committed update is in the store before
it is broadcast, so the fold holds it.

Every message of a mirrored table marks its room changed (``Hub.on_change``),
so the room displays at every process are pushed as at the owner's.  A
mirror is kept while its tournament has a room display at this process, or
for ``KEEP_S`` after it was last read; then it is dropped (its subscription
and its fold).  This process taking the table forgets its mirror.

Why a mirror rather than forwarding each read to the owner: a room display
reads every table of its tournament at every change, and its pushes need the
change marks anyway (the table's channel); with the mirror a read costs no
round trip and waits for no other process, and a table nobody owns (its
lease handed back, its owner dead) reads the same, from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import orjson

from bgclock.core import ClockError, Event
from bgclock.server.cluster.bus import Bus
from bgclock.server.cluster.lease import Leases
from bgclock.server.context import Server
from bgclock.server.live import snapshots
from bgclock.server.live.commands import Command
from bgclock.server.live.hub import Hub, TableRunner
from bgclock.server.live.messages import dumps
from bgclock.server.live.recovery import read_stored
from bgclock.server.live.refusal import Refused
from bgclock.server.live.table import Watcher
from bgclock.server.live.table_state import Flag
from bgclock.store import Store, StoredEvent, StoreError, TableRow

log = logging.getLogger("bgclock.cluster")

#: A mirror nobody read for this long (and whose room no display here
#: shows) is dropped (s).
KEEP_S: Final = 30.0
#: How long a first read waits for the owner's ``info`` (s): past it, the
#: mirror answers with what the store says.
INFO_WAIT_S: Final = 0.5


class MirroredTable(TableRunner):
    """A table another process owns, live here for reading: folded from the
    store, then following its owner's committed updates (``follow``).  It
    decides nothing (a command is refused ``not_owner``), stores nothing
    (no snapshot, no checkpoint) and relays nothing (the table's channel is
    its owner's); its card is its owner's last ``info`` (``mirrored``)."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        super().__init__(hub, row)
        #: The owner's last ``info`` (None: not heard yet: the store's).
        self.mirrored: dict[str, Any] | None = None

    def not_owner(self) -> Refused:
        return Refused("not_owner", f"table {self.id} is owned by another process",
                       table=self.id)

    def receive(self, sender: Watcher, role: str, cmd: Command) -> None:
        raise self.not_owner()

    def command(self, sender: Watcher, role: str, cmd: Command,
                arrival_ms: int | None = None) -> None:
        raise self.not_owner()  # a late start armed here, say: its owner starts it

    def take_snapshot(self) -> None:
        return None  # its owner stores the snapshots

    def checkpoint_ms(self) -> int | None:
        return None  # and the checkpoints

    def relay(self, text: str, *, everyone: bool) -> None:
        return None  # its channel is its owner's

    def info(self) -> dict[str, Any]:
        if self.mirrored is not None:  # the owner's, at the seq this mirror holds
            return {**self.mirrored, "seq": self.committed_seq}
        return super().info()

    def follow(self, stored: StoredEvent, text: str) -> bool:
        """Apply the owner's committed event ``stored`` (its ``update`` is
        ``text``).  False when it does not follow what the mirror holds (a
        gap, an event folded before the last one): the mirror is folded
        again from the store, which holds it already."""
        if stored.seq <= self.committed_seq:
            return True
        if stored.seq != self.committed_seq + 1 or stored.at_ms < self.match.now:
            return False
        try:
            self.match.apply(Event.from_dict(stored.event))
        except (ClockError, KeyError, TypeError, ValueError):
            return False
        self.log.append(stored)
        self.seq = self.committed_seq = stored.seq
        self.committed_match = self.match
        self.recent.append((stored.seq, text))
        # the window stays bounded: past two intervals, fold it again
        return len(self.log) <= 2 * snapshots.SNAPSHOT_EVERY

    @classmethod
    async def read(cls, hub: Hub, table_id: int) -> MirroredTable:
        """The table folded from the store, for reading only.  ``StoreError``
        (``NotFound``) from the store."""
        row, snap, tail, notes = await read_stored(hub.store, table_id)
        table = cls(hub, row)
        await table.recovery.load(row, snap, tail, notes)
        return table


class Mirror:
    """One mirrored table: loading or ready, and what came meanwhile."""

    __slots__ = ("info", "info_seen", "loading", "queue", "ready", "table_id", "used")

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.loading = False
        #: The messages of the table's channel that came while it loaded.
        self.queue: list[bytes] = []
        self.ready = asyncio.Event()
        #: The owner's last ``info`` (None: not heard yet).
        self.info: dict[str, Any] | None = None
        self.info_seen = asyncio.Event()
        self.used = time.monotonic()


class Mirrors:
    """This process's mirrors of tables other processes own."""

    def __init__(self, server: Server, store: Store, bus: Bus, leases: Leases, node: str,
                 owns: Callable[[int], bool], relays: dict[int, dict[str, Any]]) -> None:
        #: This process's server and store, the cluster's bus and leases, this
        #: process's name, whether it owns a table, and its relayed devices.
        self.server = server
        self.store = store
        self.bus = bus
        self.leases = leases
        self.node = node
        self.owns = owns
        self.relays = relays
        self.held: dict[int, Mirror] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Tournaments being folded again, and those changed again meanwhile.
        self._refolding: set[int] = set()
        self._again: set[int] = set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ reading

    async def table(self, table_id: int) -> TableRunner:
        """The table as its owner holds it now, mirrored here (folded from
        the store at the first read; ``StoreError`` if it cannot be)."""
        mirror = await self.ensure(table_id)
        deadline = self.store.deadline_s
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(mirror.ready.wait(), deadline)
            await asyncio.wait_for(mirror.info_seen.wait(), INFO_WAIT_S)
        mirror.used = time.monotonic()
        return self.server.hub.tables[table_id]

    async def room(self, tournament_id: int) -> None:
        """Every table of the tournament this process does not own is
        mirrored and loaded (a room display's view reads them all)."""
        hub = self.server.hub
        ids = [t.id for t in list(hub.tables.values())
               if t.row.tournament_id == tournament_id and not self.owns(t.id)]
        mirrors = [await self.ensure(i) for i in ids]
        now = time.monotonic()
        for mirror in mirrors:  # a polling display keeps them as a stream does
            mirror.used = now
        deadline = self.store.deadline_s
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(m.ready.wait() for m in mirrors)),
                                   deadline)

    def wanted(self, tournament_id: int | None) -> bool:
        """A room display of the tournament is open at this process."""
        return tournament_id is not None and (
            tournament_id in self.server.room_feed.rooms)

    async def ensure(self, table_id: int) -> Mirror:
        """The table's mirror, started if it was not (subscribed first, then
        folded from the store; the owner asked for its ``info``)."""
        mirror = self.held.get(table_id)
        if mirror is not None:
            return mirror
        mirror = self.held[table_id] = Mirror(table_id)
        mirror.loading = True
        bus = self.bus
        await bus.subscribe(bus.table_channel(table_id))
        owner = await self.leases.owner("table", table_id)
        asked = 0
        if owner is not None and owner != self.node:
            asked = await bus.receivers(bus.node_channel(owner), orjson.dumps(
                {"k": "mirror_ask", "from": self.node, "t": table_id}))
        if not asked:  # nobody to ask: the store says it all
            mirror.info_seen.set()
        self._spawn(self._load(mirror))
        return mirror

    def adopt(self, table: MirroredTable) -> None:
        """A table this process is handing back, kept as a mirror (a room
        display here shows it), read from the store in place of its runner."""
        hub = self.server.hub
        runner = hub.tables.get(table.id)
        hub.tables[table.id] = table
        if runner is not None and runner is not table:
            runner.close()  # its timers; nothing reads it any more
        mirror = self.held[table.id] = Mirror(table.id)
        mirror.ready.set()
        mirror.info_seen.set()
        bus = self.bus
        self._spawn(bus.subscribe(bus.table_channel(table.id)))

    def forget(self, table_id: int) -> None:
        """This process owns the table now: no mirror of it."""
        self.held.pop(table_id, None)

    # ------------------------------------------------------------ feeding

    def feed(self, table_id: int, text: bytes) -> None:
        """A message of the table's channel (an update, a ``table`` message,
        a snapshot, an expiry...) for its mirror, if it has one."""
        mirror = self.held.get(table_id)
        if mirror is None:
            return
        if mirror.loading:
            mirror.queue.append(text)
            return
        self._apply(mirror, text)

    def _apply(self, mirror: Mirror, text: bytes) -> None:
        hub = self.server.hub
        table = hub.tables.get(mirror.table_id)
        if table is None or self.owns(table.id):
            return
        if not isinstance(table, MirroredTable):  # made dormant meanwhile: fold it again
            self._reload(mirror)
            return
        msg = orjson.loads(text)
        kind = msg.get("type")
        if kind == "update":
            event = msg["event"]
            stored = StoredEvent(table_id=table.id, seq=int(msg["seq"]), idem_key=None,
                                 at_ms=int(event["at_ms"]), event=event,
                                 source=str(msg.get("source")),
                                 lag_credit_ms=int(msg.get("lag_credit_ms") or 0),
                                 received_ms=0)
            if not table.follow(stored, text.decode()):
                self._reload(mirror)
        elif kind == "table":
            self._info(mirror, table, dict(msg["info"]))
        elif kind == "snapshot":
            self._info(mirror, table, dict(msg["info"]))
            self._reload(mirror)
        if hub.on_change is not None:
            hub.on_change(table.row.tournament_id)

    def on_node(self, kind: str, msg: dict[str, Any]) -> None:
        """``mirror_ask`` (at a owner: answer with the table's ``info``) or
        ``mirror_info`` (its answer, here)."""
        table_id = int(msg["t"])
        if kind == "mirror_ask":
            table = self.server.hub.tables.get(table_id)
            text = table.table_message() if table is not None and self.owns(table_id) else ""
            self.bus.publish(self.bus.node_channel(str(msg["from"])), orjson.dumps(
                {"k": "mirror_info", "t": table_id, "text": text}))
            return
        mirror = self.held.get(table_id)
        if mirror is None:
            return
        if msg.get("text"):
            self.feed(table_id, str(msg["text"]).encode())
        mirror.info_seen.set()

    @staticmethod
    def _info(mirror: Mirror, table: MirroredTable, info: dict[str, Any]) -> None:
        mirror.info = info
        mirror.info_seen.set()
        table.mirrored = info
        table.closed = info.get("status") == "closed"
        provisional = info.get("provisional")
        if provisional is None:
            table.provisional, table.provisional_side = None, None
        else:
            table.provisional = Flag(int(provisional["at_ms"]), provisional=True)
            table.provisional_side = provisional.get("side")

    def _reload(self, mirror: Mirror) -> None:
        if not mirror.loading:
            mirror.loading = True
            self._spawn(self._load(mirror))

    async def _load(self, mirror: Mirror) -> None:
        hub = self.server.hub
        table_id = mirror.table_id
        try:
            table = await MirroredTable.read(hub, table_id)
        except StoreError as exc:
            log.warning("table %d: not mirrored (%s): read as last loaded", table_id, exc)
            self.held.pop(table_id, None)
            mirror.loading = False
            mirror.ready.set()
            return
        if self.owns(table_id) or self.held.get(table_id) is not mirror:
            mirror.loading = False
            mirror.ready.set()
            return  # taken here (or dropped) meanwhile: served, not mirrored
        if mirror.info is not None:
            self._info(mirror, table, mirror.info)
        hub.tables[table_id] = table
        queued, mirror.queue = mirror.queue, []
        mirror.loading = False
        for text in queued:
            self._apply(mirror, text)
        mirror.ready.set()
        if hub.on_change is not None:
            hub.on_change(table.row.tournament_id)

    # ------------------------------------------------------------ tournaments

    async def tournament(self, tournament_id: int, text: str) -> None:
        """Another process acted on a tournament it owns (``text``: its
        dashboards' message): this process's copy (if it holds one and does
        not keep it) is folded again from the store, its dashboards told and
        its room displays pushed, as after an action here
        (``Tourneys.announce``); without a copy, its dashboards are told
        ``text``.  Changes that come while it is folded are folded once
        more, after it."""
        hub = self.server.tourneys.hubs.get(tournament_id)
        if hub is None or self.leases.epoch("tournament", tournament_id) is not None:
            if hub is None:
                for director in list(self.server.hub.directors):
                    director.send(text)
            return
        if tournament_id in self._refolding:
            self._again.add(tournament_id)
            return
        self._refolding.add(tournament_id)
        try:
            again = True
            while again:
                self._again.discard(tournament_id)
                try:
                    stored = await self.store.actions(tournament_id)
                except StoreError as exc:
                    log.warning("tournament %d: not read again (%s)", tournament_id, exc)
                    return
                async with hub.lock:
                    if self.leases.epoch("tournament", tournament_id) is not None:
                        return  # kept here now: its own fold is the truth
                    hub.log = [dict(s.action) for s in stored]
                    hub.rebuild()
                again = tournament_id in self._again
        finally:
            self._refolding.discard(tournament_id)
        text = dumps({"type": "tournament", "tournament": tournament_id,
                      "actions": hub.state.count})
        for director in list(self.server.hub.directors):
            director.send(text)
        self.server.room_feed.changed(tournament_id)

    # ------------------------------------------------------------ keeping

    async def sweep(self) -> None:
        """Mirror every table of the rooms displayed here; drop the mirrors
        nobody needs any more."""
        hub = self.server.hub
        rooms = self.server.room_feed.rooms
        if rooms:
            for table in list(hub.tables.values()):
                if (table.row.tournament_id in rooms and table.id not in self.held
                        and not self.owns(table.id)):
                    await self.ensure(table.id)
        now = time.monotonic()
        for table_id, mirror in list(self.held.items()):
            if self.owns(table_id):
                self.held.pop(table_id, None)
                continue
            held = hub.tables.get(table_id)
            if mirror.loading or (held is not None and self.wanted(held.row.tournament_id)):
                continue
            if now - mirror.used < KEEP_S:
                continue
            self.held.pop(table_id, None)
            if isinstance(held, MirroredTable):
                hub.dormant(held.row)  # its fold goes; the row stays known
            if not self.relays.get(table_id):
                with contextlib.suppress(Exception):
                    await self.bus.unsubscribe(self.bus.table_channel(table_id))
