"""One live table: its state, what it shows, how it sends and stores a note.

A ``Table`` holds everything the server knows of one table: the live match
and its log, its notes (summonses, alerts handled, keeper claims, flags held
final), its watchers and the state of its devices.  It reads (the state
now, the dashboard's card, the rules' ``TableState``), sends (to its
watchers, to the directors) and folds its stored log; what it does with a
message is the runner's (``live.hub.TableRunner``) and its roles':
``live.devices`` (the timekeeper), ``live.alerts`` (summonses, alerts
handled), ``live.flags`` (the expiry timer and provisional flags) and
``live.recovery`` (a restart, a failed commit, a log that cannot be
replayed).

A table holds its log folded up to a *base* and only the events after it
(``live.snapshots``): every ``SNAPSHOT_EVERY`` committed events it stores a
snapshot (the writer puts it after the commit) and moves its base to the
one before, so memory and a start's fold do not grow with the evening.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import Any, Protocol

from bgclock.core import ClockError, Event, Match, MatchState
from bgclock.server.edge.auth import RateLimiter
from bgclock.server.live import snapshots
from bgclock.server.live.fold import (
    Unfoldable,
    final_flags_of,
    hand_result_of,
    handled_of,
    handover_of,
    in_fold_order,
    keeper_of,
    new_match,
)
from bgclock.server.live.idempotency import CommandIds, Line
from bgclock.server.live.lag import DEFAULT_PARAMS, LagParams, LagQuota
from bgclock.server.live.messages import dumps, provisional_key, update_message
from bgclock.server.live.owner import Alone, TableOwner
from bgclock.server.live.refusal import Refused
from bgclock.server.live.snapshots import Base
from bgclock.server.live.table_state import (
    KEEPER_SILENT_MS,
    PROVISIONAL_BOUND_MS,
    Ask,
    Flag,
    Handover,
    Keeper,
    TableState,
)
from bgclock.server.live.table_state import check_open as shut
from bgclock.server.live.time import ServerClock, TimerHandle
from bgclock.server.live.writer import Writer
from bgclock.store import Store, StoredEvent, StoredNote, TableRow

#: The updates a table keeps to catch a device up; a device further behind
#: gets the snapshot alone (its state is all it needs to go on).
CATCH_UP_EVENTS = 200
#: Commands (and summonses) one table accepts, whatever the number of its
#: connections: a burst of this many, then this many a second.
TABLE_RATE: tuple[float, float] = (60, 20)


class Watcher(Protocol):
    """A connection that receives messages; ``send`` never blocks.
    ``refuse`` tells it, in its own protocol's words, what a table refused
    of what it sent, when the answer comes after a store's read or commit
    (a refusal now is raised: ``Refused``)."""

    def send(self, text: str) -> None: ...

    def refuse(self, refused: Refused) -> None: ...


class TableServices:
    """What every table of one hub uses: the store, the clock, the writer,
    the directors' connections, the bounds, and the hooks that tell the
    rest of the server what a table sent (``live.hub.Hub`` is one)."""

    def __init__(self, store: Store, clock: ServerClock, *,
                 lag_params: LagParams = DEFAULT_PARAMS,
                 table_rate: tuple[float, float] = TABLE_RATE,
                 provisional_bound_ms: int = PROVISIONAL_BOUND_MS,
                 keeper_silent_ms: int = KEEPER_SILENT_MS) -> None:
        self.store = store
        #: How long a keeper may stay silent before another device that asks
        #: for its table's time gets it without its yes (``--keeper-silent-s``).
        self.keeper_silent_ms = keeper_silent_ms
        #: How long a keeper may stay silent before its table's provisional
        #: flag becomes final on its own.
        self.provisional_bound_ms = provisional_bound_ms
        self.table_rate = table_rate
        self.clock = clock
        self.lag_params = lag_params
        self.directors: set[Watcher] = set()
        self.writer = Writer(store)
        # a commit fenced: another process owns its tables now (its owner says what follows)
        self.writer.on_fenced = lambda fenced: self.owner.table_fenced(fenced)
        #: Told the tournament id (or None) of a table that sent its watchers
        #: anything: the room displays' push (``live.roomfeed``).
        self.on_change: Callable[[int | None], None] | None = None
        #: Which tables this process owns, as the hub asks it: this process
        #: alone until the server gives it the ownership it chose.
        self.owner: TableOwner = Alone()


class Table:
    """One table: its match, its log, its notes, its watchers and its timers."""

    def __init__(self, hub: TableServices, row: TableRow) -> None:
        self.hub = hub
        self.row = row
        self.id = row.id
        self.closed = row.closed_ms is not None
        self.match = new_match(row.spec)
        self.seq = 0
        self.committed_seq = 0
        #: The log folded up to a seq (``live.snapshots``): ``log`` holds the
        #: events after it, ``log[i].seq == base.seq + i + 1``.
        self.base = Base()
        #: The last snapshot taken or read (the next base), or None.
        self.snapped: Base | None = None
        self.log: list[StoredEvent] = []
        #: The ids of its stored commands (``live.idempotency``), and the
        #: commands waiting in order for the store (a lookup, a reload).
        self.ids = CommandIds()
        self.line = Line(f"bgclock-table-{row.id}")
        #: Reloading from the store after a failed commit; the last reload
        #: (its instant, seq and why), shown on the dashboard's card.
        self.reloading = False
        self.reloaded: dict[str, Any] | None = None
        self.ack_waiters: dict[str, list[Watcher]] = {}
        self.quotas: dict[str, LagQuota] = {}
        self.watchers: set[Watcher] = set()
        self.timer: TimerHandle | None = None
        self.generation = 0
        #: Summons of the director, stored beside the log (never engine events).
        self.notes: list[StoredNote] = []
        self.committed_notes = 0
        self.note_keys: dict[str, StoredNote] = {}
        self.note_waiters: dict[str, list[Watcher]] = {}
        #: The dashboard alerts the director handled: alert key -> its note.
        self.handled: dict[str, StoredNote] = {}
        self.handle_waiters: dict[str, list[tuple[Watcher, str]]] = {}
        #: The device that keeps the table's time (it claimed it by a roll, a
        #: press or ``keep``): its commands count at the instants it applied them.
        self.keeper: Keeper | None = None
        #: The requests for the time waiting for the keeper's answer, by
        #: device (in memory only: an unanswered request changes nothing).
        self.asks: dict[str, Ask] = {}
        #: The last hand-over of the time (from another device), and
        #: how many presses of the former keeper made before it were refused.
        self.handover: Handover | None = None
        self.handover_refused = 0
        #: Since when (wall ms) no connection of the keeper is open.
        self.keeper_offline_since_ms: int | None = None
        #: A flag worked out while the keeper was away: not a result yet.
        self.provisional: Flag | None = None
        self.provisional_side: str | None = None
        self.provisional_timer: TimerHandle | None = None
        #: The result told to the tournament (winner, score), and the table's
        #: final log disagreeing with it (the director's alert), if it does.
        self.reported: dict[str, Any] | None = None
        self.conflict: dict[str, Any] | None = None
        #: The flags (their instants) a kept table holds final: stored as
        #: ``flag_final`` notes, so a restart does not make them provisional again.
        self.final_flags: set[int] = set()
        #: Brought back after a restart, waiting for the keeper to reconcile.
        self.recovering = False
        self.devices_online = 0
        self.offline_since_ms: int | None = None
        #: The keeper's queued commands still to come after its hello.
        self.reconcile_left = 0
        self.reconcile_counts = [0, 0]  # applied, refused
        self.reconciled: dict[str, int] | None = None
        #: The match as the disk holds it (``state_now`` never re-folds the log).
        self.committed_match = self.match.copy()
        #: The last updates sent, ``(seq, text)``, to catch a device up.
        self.recent: deque[tuple[int, str]] = deque(maxlen=CATCH_UP_EVENTS)
        #: Why the stored log cannot be replayed (None: it can).
        self.quarantined: str | None = None
        #: The director's edit is being stored: commands wait for it.
        self.editing = False
        self.limiter = RateLimiter(*hub.table_rate)
        #: the device's log requests (``GET .../events``), apart from its commands
        self.log_limiter = RateLimiter(10, 2)
        #: The match's end was told to ``hub.on_over`` (once per match).
        self.over_reported = False
        #: The tournament's line for the table page (a late count), or None.
        self.tournament_note: dict[str, Any] | None = None
        #: The result the director entered by hand for this match (``close_match``):
        #: ``{"side", "name", "score"}``; the table takes no more presses.
        self.hand_result: dict[str, Any] | None = None
        #: The table's log is folded (its match, seq, notes and keeper are
        #: known).  False only for a table a first start registered without
        #: folding it (``Hub.ready`` folds it): nothing reads its state then.
        self.folded = True

    @property
    def by_key(self) -> dict[str, StoredEvent]:
        """The window's events by command id (``ids.window``)."""
        return self.ids.window

    # ------------------------------------------------------------- reading

    def match_now(self) -> int:
        """The table's time line now: ms since it was created."""
        return max(self.hub.clock.now_ms() - self.row.created_ms, 0)

    def state_now(self) -> MatchState:
        """The state at this instant, as committed (never runs ahead of the disk)."""
        match = self.match if self.committed_seq == self.seq else self.committed_match
        match = match.copy()
        return match.state(max(self.match_now(), match.now))

    def info(self) -> dict[str, Any]:
        """The table's card, as the dashboards and its pages show it."""
        info = {"id": self.id, "tournament_id": self.row.tournament_id,
                **self.row.spec.to_dict(), "status": "closed" if self.closed else "open",
                "attention": self.attention(), "created_ms": self.row.created_ms,
                "seq": self.committed_seq, "quarantined": self.quarantined,
                "link": self.link(),
                "provisional": None if self.provisional is None else {
                    "at_ms": self.provisional.at_ms, "side": self.provisional_side,
                    "key": provisional_key(self.id, self.provisional.at_ms)},
                "conflict": self.conflict, "reloaded": self.reloaded,
                "hand_result": self.hand_result}
        if not self.folded:  # its row only: nothing is known of its match yet
            info["loading"] = True
        elif self.tournament_note:
            info["late"] = self.tournament_note
        return info

    def present(self) -> dict[str, str | None]:
        """The table devices connected now: id -> the name they said."""
        return {device: getattr(w, "name", None) for w in self.watchers
                if isinstance(device := getattr(w, "device", None), str)}

    def keeper_online(self) -> bool:
        """A connection of the keeper's device is open."""
        keeper = self.keeper
        return keeper is not None and any(
            getattr(w, "device", None) == keeper.device for w in self.watchers)

    def link(self) -> dict[str, Any]:
        """The table's devices as the dashboard shows them: once a device
        keeps the time, ``state`` and ``offline_since_ms`` are the keeper's,
        whatever other devices are connected."""
        keeper = self.keeper
        if keeper is not None:
            online = self.keeper_online()
            state = "online" if online else "offline"
            since = None if online else self.keeper_offline_since_ms
        else:
            state = "online" if self.devices_online else (
                "offline" if self.offline_since_ms is not None else "none")
            since = None if self.devices_online else self.offline_since_ms
        return {"state": state, "devices": self.devices_online, "offline_since_ms": since,
                "keeper": keeper is not None,
                "keeper_device": None if keeper is None else keeper.device,
                "keeper_name": None if keeper is None else keeper.label(),
                "reconciled": self.reconciled,
                "asks": [{"device": a.device, "name": a.label(), "at_ms": a.at_ms}
                         for a in self.asks.values()],
                "silent_bound_ms": self.hub.keeper_silent_ms,
                "handover": None if self.handover is None else {
                    "from_name": self.handover.previous.label(), "at_ms": self.handover.at_ms,
                    "refused": self.handover_refused}}

    def table_state(self) -> TableState:
        """What the table's rules read now (``live.table_state``)."""
        return TableState(
            closed=self.closed, quarantined=self.quarantined, editing=self.editing,
            decided_by=None if self.hand_result is None else str(self.hand_result["name"]),
            keeper=self.keeper, keeper_online=self.keeper_online(), handover=self.handover,
            keeper_offline_since_ms=self.keeper_offline_since_ms,
            asks=MappingProxyType(dict(self.asks)), present=MappingProxyType(self.present()),
            recovering=self.recovering, reconcile_left=self.reconcile_left,
            log_end_ms=self.log[-1].at_ms if self.log else self.base.log_end_ms,
            device_floor_ms=self.device_floor(), match_ms=self.match.now,
            expiry_ms=self.match.expires_at(), quotas=MappingProxyType(dict(self.quotas)),
            lag_params=self.hub.lag_params)

    def attention(self) -> str | None:
        """Why the director should look at the table (its card's mark), or None."""
        if self.quarantined is not None:
            return "quarantined"
        if self.recovering or (
            self.match.phase == "stopped" and self.match.stopped_reason == "restart"
        ):
            return "restart"
        return None

    async def events_after(self, after: int, limit: int) -> tuple[list[StoredEvent], bool]:
        """The committed events with seq > ``after`` (at most ``limit``), and
        whether more follow: from memory when they are in the window (after
        the base), else from the store."""
        end = self.committed_seq
        if after >= self.base.seq:
            first = after - self.base.seq
            page = self.log[first:max(first, min(after + limit, end) - self.base.seq)]
        else:
            page = [e for e in await self.hub.store.events_page(self.id, after, limit)
                    if e.seq <= end]
        return page, after + limit < end

    def snapshot_message(self) -> str:
        """The table's committed state now and its card (``snapshot``)."""
        return dumps({"type": "snapshot", "table": self.id, "seq": self.committed_seq,
                      "state": self.state_now().to_dict(), "info": self.info()})

    def table_message(self) -> str:
        """The table's card (``table``), for the dashboards and its devices."""
        return dumps({"type": "table", "table": self.id, "info": self.info()})

    def catch_up(self, watcher: Watcher, last_seq: int | None) -> None:
        """Send the updates missed since ``last_seq``, then a snapshot.

        Only the last ``CATCH_UP_EVENTS`` updates are kept: a device further
        behind gets the snapshot alone, so what one hello costs is bounded."""
        if (last_seq is not None and last_seq < self.committed_seq and self.recent
                and self.recent[0][0] <= last_seq + 1):
            for seq, text in self.recent:
                if last_seq < seq <= self.committed_seq:
                    watcher.send(text)
        watcher.send(self.snapshot_message())

    # ------------------------------------------------------------ loading

    def load(self, events: list[StoredEvent], notes: list[StoredNote] | None = None,
             base: Base | None = None) -> None:
        """Replay the stored log, or its events after ``base`` (a stored
        snapshot: ``snapshots.follows`` holds); ``Unfoldable`` if the engine
        refuses it.  Only the last ``SNAPSHOT_EVERY`` events stay in memory
        (when they follow the rest in the fold order)."""
        base = base or Base()
        whole = base.seq == 0  # the whole log: memory meets every command id
        ordered = in_fold_order(events)
        cut = len(ordered) - snapshots.SNAPSHOT_EVERY
        if cut <= 0 or max(e.seq for e in ordered[:cut]) != base.seq + cut:
            cut = 0  # the window keeps them all: the rest does not fold after them
        first_recent = events[-1].seq - CATCH_UP_EVENTS if events else 0
        start = next((i for i, e in enumerate(ordered) if e.seq > first_recent), len(ordered))
        match = new_match(self.row.spec) if base.match is None else base.match.copy()
        self.recent.clear()
        recent: list[tuple[int, str]] = []
        for i, stored in enumerate(ordered):
            if i == cut and cut:
                base = snapshots.base_after(base, events[:cut], match.copy())
            try:
                match.apply(Event.from_dict(stored.event))
            except (ClockError, KeyError, TypeError, ValueError) as exc:
                raise Unfoldable(f"event {stored.seq} cannot be replayed: {exc}") from exc
            if i >= start:
                recent.append((stored.seq, dumps(update_message(stored,
                                                                match.state().to_dict()))))
        self.recent.extend(sorted(recent))
        self.match = match
        self.committed_match = match.copy()
        self.base = self.snapped = base
        self.log = list(events[cut:])
        self.seq = self.committed_seq = events[-1].seq if events else base.seq
        self.ids.load(self.log, events[:cut], complete=whole, folded_upto=base.seq)
        self.notes = list(notes or [])
        self.committed_notes = len(self.notes)
        self.note_keys = {x.idem_key: x for x in self.notes if x.idem_key is not None}
        self.handled = handled_of(self.notes)
        self.keeper = keeper_of(self.notes)
        self.handover = handover_of(self.notes, self.log)
        self.final_flags = final_flags_of(self.notes)
        self.hand_result = hand_result_of(self.notes)
        self.take_snapshot()

    def take_snapshot(self) -> None:
        """Store the committed match as the table's snapshot when
        ``SNAPSHOT_EVERY`` events were committed since the last one, and move
        the base to that last one (the window keeps at most two intervals of
        events).  Not while a later event in flight folds before it.

        (Not at a stop: the events after the last snapshot are what a start
        rebuilds the catch-up updates from.)"""
        last = self.base if self.snapped is None else self.snapped
        if (self.committed_seq - last.seq < snapshots.SNAPSHOT_EVERY
                or self.quarantined is not None or self.committed_seq <= self.base.seq):
            return
        match = self.committed_match
        done = self.committed_seq - self.base.seq
        if any(e.at_ms < match.now for e in self.log[done:]):
            return
        new = snapshots.base_after(self.base, self.log[:done], match.copy())
        self.hub.writer.snapshot(snapshots.encode(self.row, new, self.hub.clock.now_ms()))
        if self.snapped is not None and self.snapped.seq > self.base.seq:
            self._rebase(self.snapped)
        self.snapped = new

    def _rebase(self, base: Base) -> None:
        """Fold the window up to ``base`` into the base: its events leave memory."""
        drop = base.seq - self.base.seq
        for stored in self.log[:drop]:
            self.ids.leave(stored)
        del self.log[:drop]
        self.base = base

    def refold(self, extra: Iterable[StoredEvent] = ()) -> Match:
        """The base and the window (and ``extra``) folded in the fold order."""
        match = new_match(self.row.spec) if self.base.match is None else self.base.match.copy()
        for stored in in_fold_order([*self.log, *extra]):
            try:
                match.apply(Event.from_dict(stored.event))
            except (ClockError, KeyError, TypeError, ValueError) as exc:
                raise Unfoldable(f"event {stored.seq} cannot be replayed: {exc}") from exc
        return match

    def device_floor(self) -> int:
        """The instant of the table's last event that is not the director's."""
        return snapshots.device_floor(self.log, self.base.device_floor_ms)

    # -------------------------------------------------------------- notes

    def new_note(self, body: dict[str, Any], source: str) -> StoredNote:
        """A note appended to the table's (the caller queues it)."""
        note = StoredNote(table_id=self.id, n=len(self.notes) + 1, seq=self.seq, idem_key=None,
                          at_ms=max(self.match_now(), self.match.now), note=body, source=source,
                          received_ms=self.hub.clock.now_ms())
        self.notes.append(note)
        return note

    def store_note(self, body: dict[str, Any], source: str) -> None:
        """A note appended and queued; counted committed once stored (unless
        the table went back to the disk's state meanwhile)."""
        note = self.new_note(body, source)
        generation = self.generation

        def done(error: BaseException | None) -> None:
            if error is None and generation == self.generation:
                self.committed_notes = max(self.committed_notes, note.n)

        self.hub.writer.submit(note, done)

    # ------------------------------------------------------------- checks

    def checkpoint_ms(self) -> int | None:
        """The match time to store as the running clock's checkpoint now
        (None: no clock runs here to checkpoint)."""
        if (not self.folded or self.closed or self.quarantined is not None
                or self.match.expires_at() is None):
            return None
        return max(self.match_now(), self.match.now)

    def check_folded(self) -> None:
        """Refuse (``loading``) a table a first start left unfolded: its
        callers await ``Hub.ready`` first, so this never decides on a blank
        match."""
        if not self.folded:
            raise Refused("loading", f"table {self.id} is being loaded: send it again",
                                table=self.id)

    def check_editable(self) -> None:
        """Raise ``Refused`` unless the director may edit the table now."""
        if self.closed:
            raise Refused("closed", "this table is closed")
        if self.quarantined is not None:
            raise Refused("quarantined", f"this table is quarantined: {self.quarantined}")
        if self.seq > 0:
            raise Refused("started",
                                "play has started: the table can no longer be edited")
        if self.editing:
            raise Refused("busy", "the table is being edited")

    def check_open(self) -> None:
        """Raise ``Refused`` unless the table takes commands now (the
        rules' own ``table_state.check_open``)."""
        refusal = shut(self.table_state())
        if refusal is not None:
            raise Refused.of(refusal)

    # ------------------------------------------------------------ sending

    def broadcast_directors(self, text: str) -> None:
        """To every dashboard (and the other processes' through ``owner.relay``)."""
        for director in list(self.hub.directors):
            director.send(text)
        self.relay(text, everyone=False)
        if self.hub.on_change is not None:
            self.hub.on_change(self.row.tournament_id)

    def broadcast(self, text: str) -> None:
        """To the table's devices and every dashboard."""
        for watcher in list(self.watchers):
            if getattr(watcher, "relayed", False):
                continue  # a device of another process: the table's channel carries it
            watcher.send(text)
        for director in list(self.hub.directors):
            director.send(text)
        self.relay(text, everyone=True)
        if self.hub.on_change is not None:
            self.hub.on_change(self.row.tournament_id)

    def relay(self, text: str, *, everyone: bool) -> None:
        """A broadcast of this process's table, for the watchers other
        processes serve (``owner.relay``)."""
        self.hub.owner.relay(self.id, text, everyone)

    def send_device(self, device: str, text: str) -> None:
        """To every connection of one table device (a relayed one too)."""
        for watcher in list(self.watchers):
            if getattr(watcher, "device", None) == device:
                watcher.send(text)
