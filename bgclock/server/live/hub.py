"""The live tables: each table's match, its watchers, its expiry timer.

Theory of operation
-------------------
Everything here runs on the event loop, so one table's commands are handled
one at a time, in arrival order, without locks.  A command is:

1. stamped: its arrival on the table's time line, less the lag credit
   (``live.lag``), never before the match's last event (``match.now``);
2. decided by ``bgclock.core`` on the live ``Match`` (a refusal raises and is
   answered to the sender only; nothing is stored);
3. given the table's next ``seq`` and handed to the ``Writer``, which commits
   everything queued, from every table, in one transaction;
4. after the commit, and only then, broadcast (``update``) to the table's
   watchers and the director, and acknowledged to its sender.

Commands keep coming while a commit is in flight: the live match runs ahead
of the disk by at most one batch, and ``committed_seq`` says how far the
disk is.  Should a commit fail, the table is rebuilt from its committed
prefix, its commands still queued are taken back from the writer, and the
senders of the lost commands get a ``storage`` error (the pages send them
again); unless the database was only away, the table then reloads from the
store (``reload``: the store is the truth) and its dashboard card says so.
A command id is applied once, whatever its age (``live.idempotency``).  Every
store call has a deadline (``Store.deadline_s``): a database that went silent
fails the whole batch at once (``StoreUnavailable``), with the commands
queued while it was tried, so a command's error comes within one deadline;
the next batch, once the database answers again, commits as usual.

One timer per running clock fires at the engine's expiry instant and is
re-armed after every accepted event; a command judged at an instant past the
expiry applies the expiry first, so a press never loses to a late tick nor
wins against an early one.  A checkpoint (the match time now) is stored at
least once a second while a clock runs; recovery charges up to it.

A table holds its log folded up to a *base* and only the events after it
(``live.snapshots``): every ``SNAPSHOT_EVERY`` committed events it stores a
snapshot (the writer puts it after the commit) and moves its base to the
one before, so memory and a start's fold do not grow with the evening.

The dashboards' alerts are computed by each dashboard from the tables'
states; which of them the director has handled is the server's: a note
``{"type": "handled", "key": ...}`` in the table's log (its idem key
``handled/KEY``: stored once), sent to every director as ``handled``.  A
command that settles an alert (``handles``) is committed together with its
note, and its id is derived from the alert by the dashboard: the directors
share one space of ids, so the same confirmation from two dashboards is
applied once and the second gets the first's ack.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from types import MappingProxyType
from typing import Any, Protocol

from bgclock.core import (
    SIDES,
    ClockError,
    Event,
    IllegalCommand,
    InvalidCommand,
    Match,
    MatchState,
    Stop,
)
from bgclock.server.edge.auth import RateLimiter
from bgclock.server.errors import ProtocolError
from bgclock.server.live import snapshots
from bgclock.server.live.idempotency import CommandIds, Line
from bgclock.server.live.lag import DEFAULT_PARAMS, LagParams, LagQuota
from bgclock.server.live.snapshots import SNAPSHOT_EVERY, Base
from bgclock.server.live.table_state import (
    HANDED_OVER_BY,
    KEEPER_SILENT_MS,
    PROVISIONAL_BOUND_MS,
    Accept,
    Ask,
    Asked,
    Claimed,
    Declined,
    Duplicate,
    Flag,
    Handover,
    Keeper,
    Press,
    Refuse,
    TableState,
    answer_keep,
    ask_keep,
    decide,
    give_keep,
    handed_over,
    provisional_final,
)
from bgclock.server.live.table_state import flag as flag_of
from bgclock.server.live.time import ServerClock, TimerHandle
from bgclock.server.live.writer import Writer
from bgclock.server.ws.protocol import (
    Command,
    Handle,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepRequest,
    LateStartCmd,
    Summon,
    dumps,
)
from bgclock.store import (
    Fenced,
    Store,
    StoredEvent,
    StoredNote,
    StoredSnapshot,
    StoreError,
    StoreUnavailable,
    TableRow,
    TableSpec,
)

log = logging.getLogger("bgclock.server")

#: The updates a table keeps to catch a device up; a device further behind
#: gets the snapshot alone (its state is all it needs to go on).
CATCH_UP_EVENTS = 200
#: The note of a result entered by hand (``TableHub.close_match``).
HAND_RESULT = "hand_result"
#: Commands (and summonses) one table accepts, whatever the number of its
#: connections: a burst of this many, then this many a second.
TABLE_RATE: tuple[float, float] = (60, 20)


class Watcher(Protocol):
    """A connection that receives messages; ``send`` never blocks."""

    def send(self, text: str) -> None: ...


def new_match(spec: TableSpec) -> Match:
    """The match a table's spec describes (``InvalidCommand`` if it cannot be)."""
    return Match.new(spec.rules, length=spec.length, score=spec.score, teams=spec.teams,
                     crawford=spec.crawford, clock=dict(spec.clock))


def in_fold_order(events: Iterable[StoredEvent]) -> list[StoredEvent]:
    """A log in the order it is folded: by instant, then by seq.

    The log is append-only and numbered in the order the server accepted
    its events; they are also in the order of their instants except where a
    keeper's queued press was merged before a director's event it had not
    seen (``TableHub.command``): it is folded at its instant."""
    out = list(events)
    if any(a.at_ms > b.at_ms for a, b in zip(out, out[1:], strict=False)):
        out.sort(key=lambda e: (e.at_ms, e.seq))
    return out


def fold(spec: TableSpec, events: Iterable[StoredEvent]) -> Match:
    match = new_match(spec)
    for stored in in_fold_order(events):
        try:
            match.apply(Event.from_dict(stored.event))
        except (ClockError, KeyError, TypeError, ValueError) as exc:
            raise Unfoldable(f"event {stored.seq} cannot be replayed: {exc}") from exc
    return match


def hit_does_nothing(match: Match, side: str) -> bool:
    """A hit that changes nothing: no clock runs for ``side`` (``Match._hit``)."""
    return (match.phase != "playing" or match.late
            or match.on_turn is None or SIDES[match.on_turn] != side)


class Unfoldable(ValueError):
    """A stored log the engine refuses to replay (the table is quarantined)."""


def states_after(spec: TableSpec, events: list[StoredEvent],
                 after_seq: int) -> list[tuple[StoredEvent, MatchState | None]]:
    """Replay the log; the state right after each event past ``after_seq``
    (exactly what its ``update`` carried); None from the first event the
    engine refuses on (a quarantined table's log)."""
    match: Match | None = new_match(spec)
    out: list[tuple[StoredEvent, MatchState | None]] = []
    for stored in in_fold_order(events):
        if match is not None:
            try:
                match.apply(Event.from_dict(stored.event))
            except (ClockError, KeyError, TypeError, ValueError):
                match = None
        if stored.seq > after_seq:
            out.append((stored, None if match is None else match.state()))
    return out


def update_message(stored: StoredEvent, state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "update", "table": stored.table_id, "seq": stored.seq, "event": stored.event,
            "source": stored.source, "lag_credit_ms": stored.lag_credit_ms, "state": state}


def idem_key(role: str, msg_id: str) -> str:
    """A command id as stored: the director's ids are kept apart from the
    devices' (``director/``; a message id never holds a ``/``), so a device's
    id can never swallow the director's command, nor the other way round."""
    return f"director/{msg_id}" if role == "director" else msg_id


def message_id(key: str | None) -> str | None:
    """The id the sender gave, from its stored key."""
    return None if key is None else key.rpartition("/")[2]


def ack_message(stored: StoredEvent, *, duplicate: bool) -> dict[str, Any]:
    return {"type": "ack", "id": message_id(stored.idem_key), "table": stored.table_id,
            "seq": stored.seq, "at_ms": stored.at_ms, "lag_credit_ms": stored.lag_credit_ms,
            "duplicate": duplicate}


def summon_message(note: StoredNote) -> dict[str, Any]:
    return {"type": "summon", "table": note.table_id, "why": note.note["why"],
            "side": note.note["side"], "at_ms": note.at_ms, "seq": note.seq, "n": note.n,
            "source": note.source}


def note_ack_message(note: StoredNote, *, duplicate: bool) -> dict[str, Any]:
    return {"type": "ack", "id": note.idem_key, "table": note.table_id, "seq": note.seq,
            "at_ms": note.at_ms, "lag_credit_ms": 0, "duplicate": duplicate, "note": note.n}


def handled_key(key: str) -> str:
    """A handled note's idem key: one per alert and table (a message id never
    holds a ``/``, so no summons' id can take it)."""
    return f"handled/{key}"


def handled_message(table_id: int, keys: list[str]) -> dict[str, Any]:
    return {"type": "handled", "table": table_id, "keys": keys}


def provisional_key(table_id: int, at_ms: int) -> str:
    """The dashboard alert of a provisional flag; the director confirms the
    flag by marking it handled."""
    return f"{table_id}:provisional:{at_ms}"


def refused(answer: Refuse) -> ProtocolError:
    """The protocol's error for a decision's refusal."""
    return ProtocolError(answer.code, answer.message, refusal=answer.refusal,
                         params=None if answer.params is None else dict(answer.params),
                         field=answer.field)


def keeper_of(notes: Iterable[StoredNote]) -> Keeper | None:
    """The table's keeper: its last ``keeper`` note (a hand-over is a new one)."""
    keeper = None
    for x in notes:
        if x.note.get("type") == "keeper":
            name = x.note.get("name")
            keeper = Keeper(str(x.note["device"]), name if isinstance(name, str) else None,
                            named=x.note.get("named") is True)
    return keeper


def handover_of(notes: Sequence[StoredNote], log: Sequence[StoredEvent]) -> Handover | None:
    """The match's last hand-over of the time: its last ``keeper`` note, when
    it moved the time from another device (``by`` in ``HANDED_OVER_BY``);
    ``pressed`` once a table device's event was stored after it at or past
    its instant (the new keeper's: the former keeper's own presses before it
    are folded in before that instant).
    ``log`` may start after a snapshot: a press folded into it is then not
    seen here, and a press of the former keeper before the snapshot's end is
    refused by the fold (``TableHub._merged``) instead."""
    keepers = [x for x in notes if x.note.get("type") == "keeper"]
    if (not keepers or keepers[-1].note.get("by") not in HANDED_OVER_BY
            or not keepers[-1].note.get("previous")):
        return None
    last = keepers[-1]
    previous, name = str(last.note["previous"]), None
    for x in keepers[:-1]:  # the former keeper's name, as its own claim said it
        if x.note.get("device") == previous:
            said = x.note.get("name")
            name = said if isinstance(said, str) else None
    pressed = any(e.seq > last.seq and e.source == "table" and e.at_ms >= last.at_ms
                  for e in log)
    return Handover(Keeper(previous, name), last.at_ms, pressed)


class TableHub:
    """One table: its match, its log, its watchers and its expiry timer."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
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
        #: A cluster's mirror of a table another process keeps (``cluster.mirror``):
        #: read only, it never writes; ``mirrored`` is the keeper's last ``info``.
        self.mirror = False
        self.mirrored: dict[str, Any] | None = None
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
        if self.mirrored is not None:  # the keeper's, at the seq this mirror holds
            return {**self.mirrored, "seq": self.committed_seq}
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
            device_floor_ms=self._device_floor(), match_ms=self.match.now,
            expiry_ms=self.match.expires_at(), quotas=MappingProxyType(dict(self.quotas)),
            lag_params=self.hub.lag_params)

    def attention(self) -> str | None:
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
        return dumps({"type": "snapshot", "table": self.id, "seq": self.committed_seq,
                      "state": self.state_now().to_dict(), "info": self.info()})

    def table_message(self) -> str:
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

    def send_summons(self, watcher: Watcher, since_seq: int | None) -> None:
        """The summons made since ``since_seq`` (all without it): a director
        that was away still sees who called."""
        for note in self.notes[: self.committed_notes]:
            if note.note.get("type") == "summon" and (since_seq is None or note.seq >= since_seq):
                watcher.send(dumps(summon_message(note)))

    def send_handled(self, watcher: Watcher) -> None:
        """The alerts handled so far (stored): every dashboard shows the same list."""
        keys = [str(x.note["key"]) for x in self.notes[: self.committed_notes]
                if x.note.get("type") == "handled"]
        if keys:
            watcher.send(dumps(handled_message(self.id, keys)))

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
        cut = len(ordered) - SNAPSHOT_EVERY
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
        self.ids.load(self.log, events[:cut], complete=whole)
        self.notes = list(notes or [])
        self.committed_notes = len(self.notes)
        self.note_keys = {x.idem_key: x for x in self.notes if x.idem_key is not None}
        self.handled = _handled_of(self.notes)
        self.keeper = keeper_of(self.notes)
        self.handover = handover_of(self.notes, self.log)
        self.final_flags = _final_flags_of(self.notes)
        self.hand_result = _hand_result_of(self.notes)
        self.take_snapshot()

    def follow(self, stored: StoredEvent, text: str) -> bool:
        """A mirror: apply the keeper's committed event ``stored`` (its
        ``update`` is ``text``).  False when it does not follow what the
        mirror holds (a gap, an event folded before the last one): the
        mirror is folded again from the store, which holds it already."""
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
        return len(self.log) <= 2 * SNAPSHOT_EVERY

    def take_snapshot(self) -> None:
        """Store the committed match as the table's snapshot when
        ``SNAPSHOT_EVERY`` events were committed since the last one, and move
        the base to that last one (the window keeps at most two intervals of
        events).  Not while a later event in flight folds before it.

        (Not at a stop: the events after the last snapshot are what a start
        rebuilds the catch-up updates from.)"""
        last = self.base if self.snapped is None else self.snapped
        if self.mirror:  # its keeper stores the snapshots
            return
        if (self.committed_seq - last.seq < SNAPSHOT_EVERY or self.quarantined is not None
                or self.committed_seq <= self.base.seq):
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

    def recover(self, checkpoint_ms: int | None,
                started_ms: int | None = None) -> StoredEvent | None:
        """After a restart: a running clock stops at its last checkpoint,
        unless a device keeps the table's time: that clock ran on at the
        table, and the device's queued presses count when it reconciles.
        ``started_ms``: the server's start (a table folded after it is
        recovered as of then); None: now."""
        if self.closed or self.match.expires_at() is None:
            return None
        now = self.hub.clock.now_ms() if started_ms is None else started_ms
        if self.keeper is not None:
            self.recovering = True
            self.keeper_offline_since_ms = now
            return None
        at = max(checkpoint_ms or 0, self.match.now)
        self.match.advance(at)  # an expiry before the checkpoint happened: apply it
        if self.match.expires_at() is None:
            return None
        stop = Stop(at_ms=at, reason="restart")
        self.match.apply(stop)
        self.seq += 1
        stored = StoredEvent(table_id=self.id, seq=self.seq, idem_key=None, at_ms=at,
                             event=stop.to_dict(), source="server", lag_credit_ms=0,
                             received_ms=now)
        self.log.append(stored)
        return stored

    def recovered(self, stored: StoredEvent) -> None:
        """The restart's stop is on disk."""
        self.committed_seq = stored.seq
        self.committed_match = self.match.copy()
        self.recent.append((stored.seq, dumps(update_message(stored,
                                                             self.match.state().to_dict()))))
        self.take_snapshot()

    def quarantine(self, reason: str, events: list[StoredEvent],
                   notes: list[StoredNote] | None = None) -> None:
        """The stored log cannot be replayed: keep it, refuse commands, tell the director."""
        self.quarantined = reason
        self.base = Base()
        self.snapped = None
        self.log = list(events)
        self.ids.load(self.log, complete=True)
        self.seq = self.committed_seq = events[-1].seq if events else 0
        # its notes too: the director may still mark its alert handled
        self.notes = list(notes or [])
        self.committed_notes = len(self.notes)
        self.note_keys = {x.idem_key: x for x in self.notes if x.idem_key is not None}
        self.handled = _handled_of(self.notes)
        log.error("table %d is quarantined: %s", self.id, reason)

    def reset(self, row: TableRow) -> None:
        """The director edited the table before play."""
        self.row = row
        self.tournament_note = None
        self.match = new_match(row.spec)
        self.committed_match = self.match.copy()
        self.base, self.snapped = Base(), None
        self.rearm()

    # ------------------------------------------------------------ devices

    def device_hello(self, device: str | None, queued: int, name: str | None = None) -> None:
        """A table device said hello (its connection is among the watchers
        already); the keeper's hello starts a reconciliation of ``queued``
        commands.  Saying hello claims nothing (a roll, a press or ``keep`` does)."""
        self.devices_online += 1
        changed = self.devices_online == 1  # the dashboard's
        told = False  # every device's too: the keeper is back
        keeper = self.keeper
        if keeper is not None and device == keeper.device:
            if name is not None and name != keeper.name and not keeper.named:
                self.keeper = Keeper(keeper.device, name)  # shown, not stored
            told = self.keeper_offline_since_ms is not None
            self.keeper_offline_since_ms = None
            self.reconcile_left = queued
            self.reconcile_counts = [0, 0]
            if queued == 0:
                changed = self._reconciled() or changed
        if told:
            self.broadcast(self.table_message())
        elif changed:
            self.broadcast_directors(self.table_message())

    def device_gone(self, device: str | None = None) -> None:
        """A table device's connection closed (it is no longer a watcher)."""
        self.devices_online = max(0, self.devices_online - 1)
        if (device is not None and device in self.asks
                and not any(getattr(w, "device", None) == device for w in self.watchers)):
            del self.asks[device]  # the asker left: its request goes with it
            self.broadcast(self.table_message())
        keeper = self.keeper
        if keeper is not None and device == keeper.device and not self.keeper_online():
            # every device hears of it: the time is the server's estimate now
            self.keeper_offline_since_ms = self.hub.clock.now_ms()
            if self.devices_online == 0:
                self.offline_since_ms = self.keeper_offline_since_ms
            self.broadcast(self.table_message())
        elif self.devices_online == 0:
            self.offline_since_ms = self.hub.clock.now_ms()
            self.broadcast_directors(self.table_message())

    def counted(self, device: str | None, accepted: bool) -> None:
        """One of the keeper's queued commands was decided."""
        if (device is None or self.keeper is None or device != self.keeper.device
                or self.reconcile_left <= 0):
            return
        self.reconcile_left -= 1
        self.reconcile_counts[0 if accepted else 1] += 1
        if self.reconcile_left == 0 and self._reconciled():
            self.broadcast(self.table_message())

    def _reconciled(self) -> bool:
        """The keeper is back and its queue is decided: the restart attention
        ends and a provisional flag is settled.  True when the dashboard
        should hear of it."""
        was_away = self.recovering or self.offline_since_ms is not None
        applied, refused_n = self.reconcile_counts
        if not was_away and not applied and not refused_n:
            return self._settle_provisional("reconciled")
        self.recovering = False
        self._settle_provisional("reconciled")
        self.reconciled = {"at_ms": self.hub.clock.now_ms(), "applied": applied,
                           "refused": refused_n}
        return True

    def keep_request(self, sender: Watcher, role: str, msg: KeepRequest | Keep) -> None:
        """A device asks for the table's time (``live.table_state.ask_keep``):
        granted at once (nobody keeps it, or the keeper is silent past the
        bound), else the keeper's screens are asked and nothing changes."""
        self.check_folded()
        answer = ask_keep(self.table_state(), getattr(sender, "device", None),
                          getattr(sender, "name", None), role, now_ms=self.hub.clock.now_ms(),
                          msg_id=msg.id, bound_ms=self.hub.keeper_silent_ms)
        if isinstance(answer, Refuse):
            raise refused(answer)
        if not self.limiter.allow():  # a hand-over is stored: counted like a command
            raise ProtocolError("rate_limited", "too many messages at this table: slow down")
        if isinstance(answer, Asked):
            ask = answer.ask
            fresh = ask.device not in self.asks
            self.asks[ask.device] = ask
            sender.send(dumps({"type": "keep_pending", "table": self.id, "id": msg.id,
                               "keeper": answer.keeper.label()}))
            if fresh:
                self._send_device(answer.keeper.device, dumps(
                    {"type": "keep_asked", "table": self.id, "device": ask.device,
                     "name": ask.label(), "at_ms": ask.at_ms}))
                self.broadcast(self.table_message())
            return
        self._claim(answer, answer.how)
        if msg.id is not None and answer.ask is None:
            sender.send(self._granted(answer, msg.id))

    def keep_answer(self, sender: Watcher, role: str, msg: KeepAnswer) -> None:
        """The keeper's screen answers a request for the time."""
        self.check_folded()
        answer = answer_keep(self.table_state(), getattr(sender, "device", None), role,
                             msg.device, msg.yes)
        if isinstance(answer, Refuse):
            raise refused(answer)
        if isinstance(answer, Declined):
            del self.asks[answer.ask.device]
            self._send_device(answer.ask.device, dumps(
                {"type": "keep_refused", "table": self.id, "id": answer.ask.id,
                 "keeper": answer.keeper.label(), "by": "keeper"}))
            self.broadcast(self.table_message())
        else:
            self._claim(answer, answer.how)
        if msg.id is not None:
            sender.send(dumps({"type": "ack", "id": msg.id, "table": self.id, "seq": self.seq,
                               "at_ms": max(self.match_now(), self.match.now),
                               "lag_credit_ms": 0, "duplicate": False}))

    def keep_give(self, sender: Watcher, role: str, msg: KeepGive) -> None:
        """The director hands the table's time to a device from the dashboard."""
        self.check_folded()
        answer = give_keep(self.table_state(), role, msg.device, msg.name)
        if isinstance(answer, Refuse):
            raise refused(answer)
        self._claim(answer, answer.how)
        if msg.id is not None:
            sender.send(dumps({"type": "ack", "id": msg.id, "table": self.id, "seq": self.seq,
                               "at_ms": max(self.match_now(), self.match.now),
                               "lag_credit_ms": 0, "duplicate": False, "keeper": True}))

    def _granted(self, claimed: Claimed, msg_id: str | None) -> str:
        return dumps({"type": "keep_granted", "table": self.id, "id": msg_id,
                      "by": claimed.how, "seq": self.seq,
                      "previous": None if claimed.previous is None else claimed.previous.label()})

    def _send_device(self, device: str, text: str) -> None:
        """To every connection of one table device (a relayed one too)."""
        for watcher in list(self.watchers):
            if getattr(watcher, "device", None) == device:
                watcher.send(text)

    def _claim(self, claimed: Claimed, how: str,
               with_event: bool = False) -> StoredNote | None:
        """Record a claim: the keeper note (returned unqueued ``with_event``:
        stored with the event that claims)."""
        keeper = claimed.keeper
        same = claimed.previous is not None and claimed.previous.device == keeper.device
        if same and claimed.previous is not None and claimed.previous.named:
            keeper = claimed.previous  # the director's name stays
        self.keeper = keeper
        if self.keeper_online():
            self.keeper_offline_since_ms = None
        elif self.keeper_offline_since_ms is None:
            self.keeper_offline_since_ms = self.hub.clock.now_ms()
        asks, self.asks = self.asks, {}
        if claimed.ask is not None:  # the asker hears it first, then the others
            self._send_device(claimed.ask.device, self._granted(claimed, claimed.ask.id))
        for ask in asks.values():
            if claimed.ask is None or ask.device != claimed.ask.device:
                self._send_device(ask.device, dumps(
                    {"type": "keep_refused", "table": self.id, "id": ask.id,
                     "keeper": keeper.label(), "by": "taken"}))
        if same:
            if asks or keeper != claimed.previous:
                self.broadcast(self.table_message())
            return None
        body = {"type": "keeper", "device": keeper.device, "name": keeper.name, "by": how,
                **({"previous": claimed.previous.device} if claimed.previous else {}),
                **({"named": True} if keeper.named else {})}
        if with_event:
            return self._new_note(body, "table")
        self._store_note(body, "director" if how == "director" else "table")
        if how in HANDED_OVER_BY and claimed.previous is not None:
            # what the former keeper did before this instant may still come
            self.handover = Handover(claimed.previous, self.notes[-1].at_ms)
            self.handover_refused = 0
        self.broadcast(self.table_message())
        return None

    # ------------------------------------------------------- provisional

    def _settle_provisional(self, how: str) -> bool:
        """Make a provisional flag final (the keeper reconciled and did not
        withdraw it, the director confirmed it, or the keeper stayed silent
        past the bound): the result goes to the tournament.  True if one was."""
        flag = self.provisional
        if flag is None:
            return False
        if how == "reconciled" and self.table_state().keeper_away:
            return False
        self._end_provisional()
        self._flag_final(flag.at_ms, how)
        log.info("table %d: the flag at %d ms is final (%s)", self.id, flag.at_ms, how)
        self.broadcast(self.table_message())
        state = self.match.copy().state()
        self.report_over(state)
        return True

    def _flag_final(self, at_ms: int, how: str) -> None:
        """Store that the flag at ``at_ms`` is final (once)."""
        if at_ms in self.final_flags or self.closed or self.quarantined is not None:
            return
        self.final_flags.add(at_ms)
        self._store_note({"type": "flag_final", "at_ms": at_ms, "how": how}, "server")

    def _withdraw_provisional(self) -> None:
        """The keeper's press came before the flag: it never happened."""
        if self.provisional is None:
            return
        self._end_provisional()
        self.broadcast(self.table_message())

    def _check_told(self) -> None:
        """The live match no longer ends as the result told to the tournament
        (a keeper's press came back before a flag made final by the bound):
        the director's alert names both."""
        if (self.over_reported and self.reported is not None and self.conflict is None
                and self.match.phase != "match_over"):
            self.conflict = {"told": self.reported, "final": None}
            self.broadcast(self.table_message())

    def _end_provisional(self) -> None:
        self.provisional = None
        self.provisional_side = None
        if self.provisional_timer is not None:
            self.provisional_timer.cancel()
            self.provisional_timer = None

    def _arm_provisional_bound(self) -> None:
        """The keeper silent for ``hub.provisional_bound_ms``: the flag is final."""
        if self.provisional_timer is not None:
            self.provisional_timer.cancel()
        since = self.keeper_offline_since_ms
        start = self.hub.clock.now_ms() if since is None else since
        self.provisional_timer = self.hub.clock.call_at(start + self.hub.provisional_bound_ms,
                                                        self._on_provisional_bound)

    def _on_provisional_bound(self) -> None:
        self.provisional_timer = None
        if self.provisional is None:
            return
        if not provisional_final(self.table_state(), offline_since_ms=self.keeper_offline_since_ms,
                                 now_ms=self.hub.clock.now_ms(),
                                 bound_ms=self.hub.provisional_bound_ms):
            # back but not reconciled yet: give its queue the same bound again
            self._arm_provisional_bound()
            return
        self._settle_provisional("bound")

    def _new_note(self, body: dict[str, Any], source: str) -> StoredNote:
        """A note appended to the table's (the caller queues it)."""
        note = StoredNote(table_id=self.id, n=len(self.notes) + 1, seq=self.seq, idem_key=None,
                          at_ms=max(self.match_now(), self.match.now), note=body, source=source,
                          received_ms=self.hub.clock.now_ms())
        self.notes.append(note)
        return note

    def _store_note(self, body: dict[str, Any], source: str) -> None:
        note = self._new_note(body, source)
        generation = self.generation

        def done(error: BaseException | None) -> None:
            if error is None and generation == self.generation:
                self.committed_notes = max(self.committed_notes, note.n)

        self.hub.writer.submit(note, done)

    def check_folded(self) -> None:
        """Refuse (``loading``) a table a first start left unfolded: its
        callers await ``Hub.ready`` first, so this never decides on a blank
        match."""
        if not self.folded:
            raise ProtocolError("loading", f"table {self.id} is being loaded: send it again",
                                table=self.id)

    def check_editable(self) -> None:
        """Raise ``ProtocolError`` unless the director may edit the table now."""
        if self.closed:
            raise ProtocolError("closed", "this table is closed")
        if self.quarantined is not None:
            raise ProtocolError("quarantined", f"this table is quarantined: {self.quarantined}")
        if self.seq > 0:
            raise ProtocolError("started",
                                "play has started: the table can no longer be edited")
        if self.editing:
            raise ProtocolError("busy", "the table is being edited")

    async def edit(self, spec: TableSpec) -> None:
        """Store the director's edit; commands wait for it (``busy``), so an
        edit and the first command never both succeed."""
        await self.hub.ready(self.id)  # a table a first start left unfolded
        await self.owned()
        self.check_editable()
        self.editing = True
        try:
            row = await self.hub.store.update_table(self.id, spec)
        finally:
            self.editing = False
        self.reset(row)

    async def owned(self) -> None:
        """In a cluster: before a director's write that is not a command (an
        edit, the next match, a closing), this process keeps the table (it
        takes it if nobody does; it is then loaded in place), else
        ``not_owner``: the write would go behind its keeper's back."""
        acquire = self.hub.acquire
        if acquire is not None and not await acquire(self.id):
            raise ProtocolError("not_owner", f"table {self.id} is kept by another process of "
                                "the cluster: send this there", table=self.id)

    # ------------------------------------------------------------ sending

    def broadcast_directors(self, text: str) -> None:
        for director in list(self.hub.directors):
            director.send(text)
        if self.hub.on_relay is not None and not self.mirror:
            self.hub.on_relay(self.id, text, False)
        if self.hub.on_change is not None:
            self.hub.on_change(self.row.tournament_id)

    def broadcast(self, text: str) -> None:
        for watcher in list(self.watchers):
            if getattr(watcher, "relayed", False):
                continue  # a device of another process: the table's channel carries it
            watcher.send(text)
        for director in list(self.hub.directors):
            director.send(text)
        if self.hub.on_relay is not None and not self.mirror:  # its keeper's channel
            self.hub.on_relay(self.id, text, True)
        if self.hub.on_change is not None:
            self.hub.on_change(self.row.tournament_id)

    # ----------------------------------------------------------- commands

    def receive(self, sender: Watcher, role: str, cmd: Command) -> None:
        """A connection's command, decided in arrival order: now, or once the
        store has said whether its id was stored (``live.idempotency``) and
        what waits before it is decided; an error now (``ProtocolError``) or
        sent to the sender then.  The keeper's queued commands are counted."""
        key = idem_key(role, cmd.id)
        if self.mirror or not self.folded or (not self.line.busy
                                              and not self.ids.unknown(key)):
            self._counted(sender, role, cmd, None)
            return
        if self.line.full:
            raise ProtocolError("busy", "this table's commands wait for the database: "
                                "send it again")
        arrival = self.match_now()

        async def decide_in_turn() -> None:
            if self.ids.unknown(key) and not self.closed:
                try:
                    await self.ids.recall(self.hub.store, self.id, key, self.committed_seq)
                except StoreError as exc:
                    sender.send(dumps(ProtocolError(
                        "storage", f"the database could not be asked about this command: "
                        f"{exc}; send it again", msg_id=cmd.id, table=self.id).to_message()))
                    return
            try:
                self._counted(sender, role, cmd, arrival)
            except ProtocolError as exc:
                exc.msg_id, exc.table = cmd.id, self.id
                sender.send(dumps(exc.to_message()))

        self.line.add(decide_in_turn)

    def _counted(self, sender: Watcher, role: str, cmd: Command, arrival: int | None) -> None:
        device = getattr(sender, "device", None)
        try:
            self.command(sender, role, cmd, arrival)
        except ProtocolError:
            self.counted(device, accepted=False)
            raise
        self.counted(device, accepted=True)

    def late_start(self, sender: Watcher, cmd_id: str, side: str) -> None:
        """The late player's clock started at this instant (the desk's late
        start, a director's command): a typed operation, so that the desk
        builds no protocol message; ``ProtocolError`` as ``command``."""
        self.command(sender, "director", LateStartCmd(
            type="cmd", id=cmd_id, table=self.id, side="A" if side == "A" else "B"))

    def command(self, sender: Watcher, role: str, cmd: Command,
                arrival_ms: int | None = None) -> None:
        """Decide one command (``live.table_state.decide``) on what memory
        holds; answer an error now or an ack after the commit.  ``arrival_ms``:
        when it arrived on the table's time line (None: now)."""
        if self.mirror:  # another process keeps it (a late start armed here, say)
            raise ProtocolError("not_owner", f"table {self.id} is kept by another process "
                                "of the cluster", table=self.id)
        self.check_folded()
        if self.reloading:
            raise ProtocolError("busy", "this table is being reloaded from the database: "
                                "send it again")
        key = idem_key(role, cmd.id)
        existing = self.ids.find(key)
        device = getattr(sender, "device", None) if role != "director" else None
        arrival = self.match_now() if arrival_ms is None else arrival_ms
        answer = decide(self.table_state(), Press(
            role=role, do=cmd.do, device=device, device_name=getattr(sender, "name", None),
            side=getattr(cmd, "side", None), device_at_ms=cmd.device_at_ms, lag_ms=cmd.lag_ms,
            arrival_ms=arrival, handles=cmd.handles, known=existing is not None,
            handled=cmd.handles is not None and cmd.handles in self.handled))
        if isinstance(answer, Refuse):
            raise self.refused_handed_over() if answer.code == "handed_over" else refused(answer)
        if isinstance(answer, Duplicate):
            assert existing is not None
            if existing.seq <= self.committed_seq:
                sender.send(dumps(ack_message(existing, duplicate=True)))
            else:
                self.ack_waiters.setdefault(key, []).append(sender)
            return
        if not self.limiter.allow():
            raise ProtocolError("rate_limited", "too many commands at this table: slow down")
        self._run(sender, role, cmd, key, answer, arrival)

    def _run(self, sender: Watcher, role: str, cmd: Command, key: str,
             answer: Accept, arrival: int) -> None:
        """Carry out an accepted command's decision."""
        at, credit = answer.at_ms, answer.credit_ms
        if answer.merge:
            merged = self._merged(cmd, at, key, role)
            if merged is not None:
                claim = self._claim_with_event(answer)
                self._accept_merged(sender, cmd, key, role, merged, arrival, claim)
                return
            if answer.before_handover:
                # never after the new keeper's time line: not counted at all
                raise self.refused_handed_over()
            # the director's events refuse it there: after them
            at = self.log[-1].at_ms if self.log else self.base.log_end_ms
            credit = max(arrival - at, 0)
        if at < self.match.now:
            # A flag announced meanwhile moved the live match past this
            # instant: go back to the log's end (the flag is only derived).
            self.match = self.refold()
            if self.provisional is not None and at < self.provisional.at_ms:
                self._withdraw_provisional()
            self._check_told()
        try:
            event = Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": at})
        except (InvalidCommand, TypeError, ValueError) as exc:
            raise ProtocolError("invalid", str(exc)) from None
        expiry = self.match.expires_at()
        if expiry is not None and expiry <= at:
            self.flag(expiry)
        if cmd.do == "hit" and hit_does_nothing(self.match, str(getattr(cmd, "side", None))):
            # nothing to store: the idle side's button does nothing
            self.answer_noop(sender, cmd.id)
            return
        attention = self.attention()
        try:
            self.match.apply(event)
        except IllegalCommand as exc:
            raise ProtocolError.from_clock_error("illegal", exc) from None
        except ClockError as exc:
            raise ProtocolError.from_clock_error("invalid", exc) from None
        claim = self._claim_with_event(answer)
        if answer.quota_key is not None and answer.quota is not None:
            self.quotas[answer.quota_key] = answer.quota
        self.seq += 1
        stored = StoredEvent(table_id=self.id, seq=self.seq, idem_key=key, at_ms=at,
                             event=event.to_dict(), source=role, lag_credit_ms=credit,
                             received_ms=self.hub.clock.now_ms())
        self.log.append(stored)
        self.ids.add(stored)
        handled = (None if cmd.handles is None
                   else self._handled_note(cmd.handles, at, role))
        if claim is not None:
            handled = claim if handled is None else handled  # a director never claims
        after = self.match.copy()
        # "restart" ends with the first command accepted after the recovery
        # (a kept table's too: its keeper may never come back)
        self.recovering = False
        attention_changed = self.attention() != attention
        self.rearm()
        self._submit(sender, cmd.id, key, stored, after, attention_changed, handled)

    def refused_handed_over(self) -> ProtocolError:
        """The refusal of a press of the former keeper made before the
        hand-over that cannot be counted; counted on the dashboard's card."""
        assert self.keeper is not None
        self.handover_refused += 1
        self.broadcast_directors(self.table_message())
        return refused(handed_over(self.keeper))

    def _submit(self, sender: Watcher, msg_id: str, key: str, stored: StoredEvent,
                after: Match, attention_changed: bool, handled: StoredNote | None) -> None:
        """Commit an accepted event (with its handled alert); then tell every
        watcher and ack it, or roll back and say why."""
        h = self.handover
        if (h is not None and not h.pressed and self.keeper is not None
                and getattr(sender, "device", None) == self.keeper.device):
            # the new keeper pressed: the former keeper's past is closed
            self.handover = dataclasses.replace(h, pressed=True)
        after_state = after.state()
        text = dumps(update_message(stored, after_state.to_dict()))
        generation = self.generation

        def done(error: BaseException | None) -> None:
            if generation != self.generation:
                sender.send(dumps(ProtocolError(
                    "storage", "the database refused an earlier command; send it again",
                    msg_id=msg_id, table=self.id).to_message()))
                return
            if error is not None:
                self.failed(error)
                sender.send(dumps(ProtocolError(
                    "storage", f"the database refused the command: {error}",
                    msg_id=msg_id, table=self.id).to_message()))
                return
            self.committed_seq = stored.seq
            self.committed_match = after
            self.recent.append((stored.seq, text))
            self.take_snapshot()
            self.broadcast(text)
            if attention_changed:
                self.broadcast(self.table_message())
            if handled is not None and handled.note.get("type") == "handled":
                self._handled_committed(handled)
            elif handled is not None:  # the claim stored with the press
                self.committed_notes = max(self.committed_notes, handled.n)
                self.broadcast(self.table_message())
            sender.send(dumps(ack_message(stored, duplicate=False)))
            for waiter in self.ack_waiters.pop(key, ()):
                waiter.send(dumps(ack_message(stored, duplicate=True)))
            self.report_over(after_state)

        self.hub.writer.submit(stored if handled is None else (stored, handled), done)

    def _device_floor(self) -> int:
        """The instant of the table's last event that is not the director's."""
        return snapshots.device_floor(self.log, self.base.device_floor_ms)

    def _merged(self, cmd: Command, at: int, key: str,
                role: str) -> tuple[StoredEvent, Match] | None:
        """The keeper's command at ``at``, before director's events it had
        not seen: the event to store and the log refolded with it in the
        order of instants, or None if that fold refuses anything (then the
        command counts after them, as any other)."""
        try:
            event = Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": at})
        except (InvalidCommand, TypeError, ValueError) as exc:
            raise ProtocolError("invalid", str(exc)) from None
        stored = StoredEvent(table_id=self.id, seq=self.seq + 1, idem_key=key, at_ms=at,
                             event=event.to_dict(), source=role, lag_credit_ms=0,
                             received_ms=self.hub.clock.now_ms())
        last = self.base if self.snapped is None else self.snapped
        if at < last.end_ms:
            # before the last snapshot's instant: it would fold before what the
            # snapshot holds; it counts after the director's events instead
            return None
        try:
            return stored, self.refold([stored])
        except Unfoldable:
            return None

    def _claim_with_event(self, answer: Accept) -> StoredNote | None:
        """The claim a command makes, as the note stored with its event."""
        if answer.claim is None:
            return None
        return self._claim(Claimed(answer.claim, self.keeper), "press", with_event=True)

    def _accept_merged(self, sender: Watcher, cmd: Command, key: str, role: str,
                       merged: tuple[StoredEvent, Match], arrival: int,
                       claim: StoredNote | None = None) -> None:
        """Store a keeper's command merged before the director's events (the
        live match is the refolded log); acked after the commit as any other."""
        stored, match = merged
        stored = dataclasses.replace(stored, lag_credit_ms=max(arrival - stored.at_ms, 0))
        attention = self.attention()
        self.match = match
        self.seq = stored.seq
        self.log.append(stored)
        self.ids.add(stored)
        self.recovering = False
        if self.provisional is not None and stored.at_ms < self.provisional.at_ms:
            self._withdraw_provisional()
        self._check_told()
        attention_changed = self.attention() != attention
        self.rearm()
        self._submit(sender, cmd.id, key, stored, self.match.copy(), attention_changed, claim)

    def check_open(self) -> None:
        if self.closed:
            raise ProtocolError("closed", "this table is closed")
        if self.quarantined is not None:
            raise ProtocolError(
                "quarantined", f"this table's log cannot be replayed ({self.quarantined}): "
                "it takes no commands; the director has been told")
        if self.editing:
            raise ProtocolError("busy", "the director is editing this table: try again")

    def answer_noop(self, sender: Watcher, msg_id: str) -> None:
        """Acknowledge a command that changes nothing (nothing is stored)."""
        seq = self.seq

        def done(error: BaseException | None) -> None:
            sender.send(dumps({"type": "ack", "id": msg_id, "table": self.id, "seq": seq,
                               "at_ms": self.match.now, "lag_credit_ms": 0,
                               "duplicate": False, "noop": True}))

        if self.committed_seq == self.seq:
            done(None)
        else:  # after the updates it follows
            self.hub.writer.submit(None, done)

    def summon(self, sender: Watcher, role: str, msg: Summon) -> None:
        """Store a summons of the director as a note, then tell the director
        (and the table's devices); the sender gets an ack when it gave an id."""
        self.check_folded()
        self.check_open()
        if msg.id is not None:
            existing = self.note_keys.get(msg.id)
            if existing is not None:
                if existing.n <= self.committed_notes:
                    sender.send(dumps(note_ack_message(existing, duplicate=True)))
                else:
                    self.note_waiters.setdefault(msg.id, []).append(sender)
                return
        for open_note in reversed(self.notes):
            if open_note.seq != self.seq:
                break
            if (open_note.note.get("why"), open_note.note.get("side")) == (msg.why, msg.side):
                # the same call, nothing happened since: the director is already called
                if msg.id is not None:
                    sender.send(dumps({**note_ack_message(open_note, duplicate=True),
                                       "id": msg.id}))
                return
        if not self.limiter.allow():
            raise ProtocolError("rate_limited", "too many messages at this table: slow down")
        note = StoredNote(table_id=self.id, n=len(self.notes) + 1, seq=self.seq,
                          idem_key=msg.id, at_ms=max(self.match_now(), self.match.now),
                          note={"type": "summon", "why": msg.why, "side": msg.side},
                          source=role, received_ms=self.hub.clock.now_ms())
        self.notes.append(note)
        if msg.id is not None:
            self.note_keys[msg.id] = note
        generation = self.generation

        def done(error: BaseException | None) -> None:
            if generation != self.generation or error is not None:
                if error is not None and generation == self.generation:
                    self.failed(error)
                sender.send(dumps(ProtocolError(
                    "storage", "the database refused the summons; send it again",
                    msg_id=msg.id, table=self.id).to_message()))
                return
            self.committed_notes = note.n
            self.broadcast(dumps(summon_message(note)))
            if msg.id is not None:
                sender.send(dumps(note_ack_message(note, duplicate=False)))
                for waiter in self.note_waiters.pop(msg.id, ()):
                    waiter.send(dumps(note_ack_message(note, duplicate=True)))

        self.hub.writer.submit(note, done)

    def handle(self, sender: Watcher, role: str, msg: Handle) -> None:
        """The director marks an alert handled: store it once, then tell every
        director; the sender gets an ack when it gave an id (``duplicate``
        when the alert was handled already)."""
        if role != "director":
            raise ProtocolError("forbidden", "only the director handles alerts")
        self.check_folded()
        if self.closed:
            raise ProtocolError("closed", "this table is closed")
        existing = self.handled.get(msg.key)
        if existing is not None:
            if msg.id is None:
                return
            if existing.n <= self.committed_notes:
                sender.send(dumps({**note_ack_message(existing, duplicate=True), "id": msg.id}))
            else:
                self.handle_waiters.setdefault(msg.key, []).append((sender, msg.id))
            return
        if not self.limiter.allow():
            raise ProtocolError("rate_limited", "too many messages at this table: slow down")
        note = self._handled_note(msg.key, max(self.match_now(), self.match.now), role)
        generation = self.generation

        def done(error: BaseException | None) -> None:
            if generation != self.generation or error is not None:
                if error is not None and generation == self.generation:
                    self.failed(error)
                sender.send(dumps(ProtocolError(
                    "storage", "the database refused the mark; send it again",
                    msg_id=msg.id, table=self.id).to_message()))
                return
            self._handled_committed(note)
            if msg.id is not None:
                sender.send(dumps({**note_ack_message(note, duplicate=False), "id": msg.id}))

        self.hub.writer.submit(note, done)

    def _handled_note(self, alert: str, at_ms: int, role: str) -> StoredNote:
        """The note that ``alert`` is handled (queued by the caller)."""
        note = StoredNote(table_id=self.id, n=len(self.notes) + 1, seq=self.seq,
                          idem_key=handled_key(alert), at_ms=at_ms,
                          note={"type": "handled", "key": alert}, source=role,
                          received_ms=self.hub.clock.now_ms())
        self.notes.append(note)
        self.note_keys[handled_key(alert)] = note
        self.handled[alert] = note
        return note

    def _handled_committed(self, note: StoredNote) -> None:
        """A handled note is on disk: every dashboard hears of it (a
        provisional flag's alert handled: the director confirmed the flag)."""
        self.committed_notes = max(self.committed_notes, note.n)
        alert = str(note.note["key"])
        self.broadcast_directors(dumps(handled_message(self.id, [alert])))
        if (self.provisional is not None
                and alert == provisional_key(self.id, self.provisional.at_ms)):
            self._settle_provisional("director")
        for waiter, msg_id in self.handle_waiters.pop(alert, ()):
            waiter.send(dumps({**note_ack_message(note, duplicate=True), "id": msg_id}))

    def failed(self, error: BaseException) -> None:
        """A commit failed: go back to what the disk holds, then, unless the
        database was only away (or the table is another process's now),
        reload from it."""
        self.rollback(error)
        if not isinstance(error, StoreUnavailable | Fenced) and not self.reloading:
            self.reloading = True
            self.line.add(partial(self.reload, str(error)))

    async def reload(self, why: str) -> None:
        """Fold the table again from the store (its truth), as a start does
        but without stopping its clock, and say so on the dashboard's card
        (``info.reloaded``).  Should the store not answer, the table goes on
        from its committed prefix (``rollback``)."""
        try:
            row, snap, tail, notes = await self.hub._stored(self.id)
            self.row = row
            await self.hub._load_one(row, snap, tail, notes, into=self)
        except StoreError as exc:
            log.error("table %d could not be reloaded (it goes on from memory): %s",
                      self.id, exc)
            return
        finally:
            self.reloading = False
        self.generation += 1
        self.reloaded = {"at_ms": self.hub.clock.now_ms(), "seq": self.committed_seq,
                         "why": why}
        log.warning("table %d reloaded from the database at seq %d after a failed commit (%s)",
                    self.id, self.committed_seq, why)
        self.rearm()
        self.broadcast(self.snapshot_message())

    def rollback(self, error: BaseException | None = None) -> None:
        """A commit failed: go back to what the disk holds; what the table
        queued after it is taken back from the writer (``error``: what its
        senders are told)."""
        self.generation += 1
        for stored in self.log[self.committed_seq - self.base.seq:]:
            self.ids.forget(stored)
        self.log = self.log[: self.committed_seq - self.base.seq]
        self.seq = self.committed_seq
        self.hub.writer.discard(self.id, error or StoreError("an earlier command failed"))
        self.ack_waiters.clear()
        self.notes = self.notes[: self.committed_notes]
        self.note_keys = {x.idem_key: x for x in self.notes if x.idem_key is not None}
        self.note_waiters.clear()
        self.handled = _handled_of(self.notes)
        self.handle_waiters.clear()
        self.keeper = keeper_of(self.notes)
        self.handover = handover_of(self.notes, self.log)
        self.final_flags = _final_flags_of(self.notes)
        self.match = self.committed_match.copy()
        self.rearm()
        self.broadcast(self.snapshot_message())

    # ------------------------------------------------------------- expiry

    def rearm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        expiry = self.match.expires_at()
        if expiry is not None and not self.closed:
            self.timer = self.hub.clock.call_at(self.row.created_ms + expiry, self._on_timer)

    def _on_timer(self) -> None:
        self.timer = None
        expiry = self.match.expires_at()
        if expiry is None:
            return
        if self.match_now() < expiry:  # the loop's clock fired early
            self.rearm()
            return
        self.flag(expiry)

    def flag(self, expiry: int) -> None:
        """The running clock reached 0 at ``expiry``: tell every watcher.
        While the keeper is away the flag is provisional (``live.table_state.flag``):
        shown as such, never a result until it is final."""
        decided = flag_of(self.table_state())
        provisional = decided is not None and decided.provisional
        if provisional and (expiry in self.final_flags or self.handled.get(
                provisional_key(self.id, expiry)) is not None):
            provisional = False  # final already (before a restart)
        elif not provisional and self.keeper is not None:
            self._flag_final(expiry, "keeper online")
        side = SIDES[self.match.on_turn] if self.match.on_turn is not None else None
        state = self.match.state(expiry)
        text = dumps({"type": "expiry", "table": self.id, "seq": self.seq, "at_ms": expiry,
                      "state": state.to_dict(), "provisional": provisional})
        self.rearm()
        if provisional:
            self.provisional = Flag(expiry, provisional=True)
            self.provisional_side = side
            self._arm_provisional_bound()
        if self.committed_seq == self.seq:
            self.broadcast(text)
            if provisional:
                self.broadcast(self.table_message())
            self.report_over(state)
        else:  # keep the order: the updates before it go out first
            def after_commit(error: BaseException | None) -> None:
                self.broadcast(text)
                if provisional:
                    self.broadcast(self.table_message())
                self.report_over(state)

            self.hub.writer.submit(None, after_commit)

    def report_over(self, state: MatchState) -> None:
        """The match is over with a winner, as the table's final log says:
        tell ``hub.on_over`` (once).  Not while a flag is provisional (it is
        told when the flag is final, or never if the keeper withdraws it).  A
        final log that disagrees with the result told already raises the
        director's alert (``info.conflict``) naming both."""
        if state.phase != "match_over" or state.winner is None or self.provisional is not None:
            return
        result = {"winner": state.winner, "score": list(state.score)}
        if self.over_reported:
            if self.reported is not None and result != self.reported and self.conflict is None:
                self.conflict = {"told": self.reported, "final": result}
                self.broadcast(self.table_message())
            return
        if self.hub.on_over is not None:
            self.over_reported = True
            self.reported = result
            self.hub.on_over(self, state)

    async def close_match(self, side: str, name: str, score: list[int] | None) -> None:
        """The director entered this match's result by hand (docs/protocol.md,
        "A result entered by hand"): a running clock is stopped (a director's
        ``stop``, at this instant) and the match is closed at the table: a
        ``hand_result`` note, stored with the stop in one commit, that the
        table's pages show ("result entered by the director: NAME won") and
        that refuses every press after it (``decided``) until the table's
        next match.  Returns once stored; again with the same result: nothing.
        ``ProtocolError`` when the table cannot be closed now."""
        await self.hub.ready(self.id)  # a table a first start left unfolded
        await self.owned()
        self.check_folded()
        self.check_open()
        result = {"side": side, "name": name, "score": score}
        if self.hand_result == result:
            return
        if self.reloading:
            raise ProtocolError("busy", "this table is being reloaded from the database: "
                                "try again")
        at = max(self.match_now(), self.match.now)
        expiry = self.match.expires_at()
        if expiry is not None and expiry <= at:
            self.flag(expiry)  # the clock ran out first: its flag is told as it is
        stored: StoredEvent | None = None
        if self.match.expires_at() is not None and self.match.on_turn is not None:
            event = Stop(at_ms=at, side=SIDES[self.match.on_turn], reason="director")
            self.match.apply(event)
            self.seq += 1
            stored = StoredEvent(table_id=self.id, seq=self.seq,
                                 idem_key=idem_key("director", f"hand.{self.row.created_ms}"),
                                 at_ms=at, event=event.to_dict(), source="director",
                                 lag_credit_ms=0, received_ms=self.hub.clock.now_ms())
            self.log.append(stored)
            self.ids.add(stored)
            self.rearm()
        note = self._new_note({"type": HAND_RESULT, **result}, "director")
        self.hand_result = result
        after = self.match.copy()
        generation = self.generation
        committed: asyncio.Future[BaseException | None] = (
            asyncio.get_running_loop().create_future())

        def done(error: BaseException | None) -> None:
            if error is None and generation == self.generation:
                self.committed_notes = max(self.committed_notes, note.n)
                if stored is not None:
                    self.committed_seq = stored.seq
                    self.committed_match = after
                    text = dumps(update_message(stored, after.state().to_dict()))
                    self.recent.append((stored.seq, text))
                    self.take_snapshot()
                    self.broadcast(text)
                self.broadcast(self.table_message())
            elif error is not None:
                self.hand_result = None
                self.failed(error)
            if not committed.done():
                committed.set_result(error)

        self.hub.writer.submit(note if stored is None else (stored, note), done)
        error = await committed
        if error is not None:
            raise ProtocolError("storage", f"the table could not be closed: {error}")

    async def renew(self, spec: TableSpec, *, tournament_id: int | None = None) -> None:
        """The table's next match: the finished match's log is archived by
        the store and a fresh match starts on the same table (same id, same
        link and token) with its own time line.  ``tournament_id``: the
        event the new match belongs to, when it is not the table's (a
        room's table seating another event's match).  ``ProtocolError``
        when the table cannot take it now."""
        await self.hub.ready(self.id)  # a table a first start left unfolded
        await self.owned()
        if self.closed:
            raise ProtocolError("closed", "this table is closed")
        self.tournament_note = None
        if self.editing or self.committed_seq != self.seq or (
                self.committed_notes != len(self.notes)):
            raise ProtocolError("busy", "the table's last commands are being stored: try again")
        if self.match.expires_at() is not None:
            raise ProtocolError("running", "the clock is running: stop it or finish the match")
        if self.provisional is not None:
            # its result is not known yet: the next match would drop it
            raise ProtocolError("provisional", "the flag at this table is provisional: the "
                                "director confirms it, or the timekeeper reconciles, first")
        self.editing = True
        # a checkpoint of the old time line must never land on the new one
        self.hub.writer.forget_checkpoint(self.id)
        try:
            row = await self.hub.store.next_match(self.id, spec, self.hub.clock.now_ms(),
                                                 tournament_id=tournament_id)
        finally:
            self.editing = False
        watchers, online, offline = self.watchers, self.devices_online, self.offline_since_ms
        keeper, keeper_offline = self.keeper, self.keeper_offline_since_ms
        if self.timer is not None:
            self.timer.cancel()
        self._end_provisional()
        self.line.cancel()
        self.__init__(self.hub, row)  # type: ignore[misc]  # a fresh match, same table
        self.watchers, self.devices_online, self.offline_since_ms = watchers, online, offline
        if keeper is not None:
            # the claim is the table's, not the match's: carried to its next match
            self.keeper, self.keeper_offline_since_ms = keeper, keeper_offline
            self._store_note({"type": "keeper", "device": keeper.device, "name": keeper.name,
                              "by": "carried", **({"named": True} if keeper.named else {})},
                             "server")
        self.broadcast(self.table_message())
        self.broadcast(self.snapshot_message())

    def close(self) -> None:
        self.closed = True
        self.line.cancel()
        self._end_provisional()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def _hand_result_of(notes: list[StoredNote]) -> dict[str, Any] | None:
    """The result the director entered by hand for this match, if any."""
    for x in reversed(notes):
        if x.note.get("type") == HAND_RESULT:
            return {k: x.note.get(k) for k in ("side", "name", "score")}
    return None


def _final_flags_of(notes: list[StoredNote]) -> set[int]:
    return {int(x.note["at_ms"]) for x in notes if x.note.get("type") == "flag_final"}


def _handled_of(notes: list[StoredNote]) -> dict[str, StoredNote]:
    return {str(x.note["key"]): x for x in notes if x.note.get("type") == "handled"}


#: The checkpoint ticker's parts: a tenth of the tables every tenth of the
#: interval.
CHECKPOINT_PARTS = 10


class Hub:
    """Every table of the server, the director's connections, the writer."""

    def __init__(self, store: Store, clock: ServerClock, *,
                 lag_params: LagParams = DEFAULT_PARAMS,
                 checkpoint_interval_ms: int = 1000,
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
        self.checkpoint_interval_ms = checkpoint_interval_ms
        self.tables: dict[int, TableHub] = {}
        self.directors: set[Watcher] = set()
        self.writer = Writer(store)
        self._ticker: asyncio.Task[None] | None = None
        #: Told when a table's match is over with a winner (the tournament's results).
        self.on_over: Callable[[TableHub, MatchState], None] | None = None
        #: Told the tournament id (or None) of a table that sent its watchers
        #: anything: the room displays' push (``live.roomfeed``).
        self.on_change: Callable[[int | None], None] | None = None
        #: A cluster's process (``bgclock.server.cluster``): tables are loaded
        #: when this process takes their lease (``take``), not at start;
        #: ``owns`` says which it holds; ``on_relay`` gets every broadcast.
        self.lazy = False
        self.owns: Callable[[int], bool] | None = None
        self.acquire: Callable[[int], Awaitable[bool]] | None = None
        #: Told of a table a first start left unfolded, once it is folded.
        self.on_folded: Callable[[TableHub], None] | None = None
        #: Told the id of a table this process made (the others learn of it).
        self.on_added: Callable[[int], None] | None = None
        #: (table id, text, for its devices too: else for the directors only)
        self.on_relay: Callable[[int, str, bool], None] | None = None
        #: The start's instant (wall ms): a table folded after it is recovered as of then.
        self.started_ms = 0
        #: The folds of tables a first start registered unfolded, under way.
        self._folds: dict[int, asyncio.Task[None]] = {}
        self._keeps: dict[int, bool] = {}
        self._background: asyncio.Task[None] | None = None
        #: How many times each table registered unfolded was folded (once).
        self.deferred_folds: dict[int, int] = {}

    async def start(self) -> list[int]:
        """Rebuild every table from its snapshot and the events after it;
        return the tables stopped for the restart.

        A table without a usable snapshot and with a long log (the first
        start after an upgrade) is registered, not folded: its row is known
        and listed, and it is folded on its first use (``ready``) or by a
        background task, one table at a time, so the server answers within
        about one table's fold whatever the evening's log."""
        rows = await self.store.tables()
        self.started_ms = self.clock.now_ms()
        if self.lazy:  # a cluster: each table is loaded when its lease is taken
            for row in rows:
                self.dormant(row)
            self.writer.start()
            self._ticker = asyncio.get_running_loop().create_task(self._checkpoints(),
                                                                  name="bgclock-checkpoints")
            return []
        stored = await self.store.all_snapshots()
        tails = await self.store.all_tails(2 * SNAPSHOT_EVERY)
        notes = await self.store.all_notes()
        restarts: list[StoredEvent] = []
        deferred: list[TableHub] = []
        for row in rows:
            if row.closed_ms is not None:  # its final state, for the record (read once)
                snap = await self.store.snapshot(row.id)
                if snap is None:
                    deferred.append(self._unfolded(row))
                    continue
                table = await self._load_one(
                    row, snap, await self.store.events(row.id, snap.seq), [])
            else:
                snap = stored.get(row.id)
                tail = tails.get(row.id)
                if tail is None and snap is None:  # a long log without a snapshot
                    deferred.append(self._unfolded(row, keeps=keeper_of(
                        notes.get(row.id, [])) is not None))
                    continue
                table = await self._load_one(row, snap, tail or [], notes.get(row.id, []))
            stop = self._recover(table)
            if stop is not None:
                restarts.append(stop)
            self.tables[row.id] = table
        if restarts:
            await self.store.commit(restarts, {})
            for stop in restarts:
                self.tables[stop.table_id].recovered(stop)
            log.warning("clocks stopped by the restart at tables %s",
                        ", ".join(str(s.table_id) for s in restarts))
        for table in self.tables.values():
            table.rearm()
        self.writer.start()
        self._ticker = asyncio.get_running_loop().create_task(self._checkpoints(),
                                                              name="bgclock-checkpoints")
        if deferred:
            log.warning("%d tables have no snapshot yet (a first start): each is folded "
                        "on its first use, the others one at a time meanwhile", len(deferred))
            # the tables a device keeps first: their clock ran on at the table
            deferred.sort(key=lambda t: (not self._keeps.get(t.id, False), t.id))
            self._background = asyncio.get_running_loop().create_task(
                self._fold_in_background([t.id for t in deferred]), name="bgclock-folds")
        return [s.table_id for s in restarts]

    def _unfolded(self, row: TableRow, *, keeps: bool = False) -> TableHub:
        """A table registered at start without its fold (``ready`` folds it)."""
        table = TableHub(self, row)
        table.folded = False
        self.tables[row.id] = table
        self._keeps[row.id] = keeps
        return table

    async def ready(self, table_id: int | None) -> TableHub | None:
        """The table, folded (None: no such table).  A table a first start
        left unfolded is folded now, once however many callers wait for it
        (they share one task, which a caller's cancellation does not stop);
        ``StoreError`` if its log cannot be read (a later call tries again)."""
        table = self.tables.get(table_id) if table_id is not None else None
        if table is None or table.folded:
            return table
        task = self._folds.get(table.id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._fold_deferred(table),
                                                          name=f"bgclock-fold-{table.id}")
            self._folds[table.id] = task
        await asyncio.shield(task)
        return self.tables.get(table.id)

    async def _fold_deferred(self, table: TableHub) -> None:
        """Fold a table the start registered unfolded, as the start would
        have (its stop at the checkpoint as of the start's instant), store
        its snapshot, and show it to the dashboards."""
        try:
            # its row again: closed meanwhile, maybe
            row, snap, tail, notes = await self._stored(table.id, closed_notes=False)
            table.row = row
            table.closed = table.closed or row.closed_ms is not None
            await self._load_one(row, snap, tail, notes, into=table)
            stop = self._recover(table, self.started_ms)
            if stop is not None:
                await self.store.commit([stop], {})
                table.recovered(stop)
                log.warning("clock stopped by the restart at table %d", table.id)
        finally:
            self._folds.pop(table.id, None)  # done, or the next use tries again
        table.folded = True
        self.deferred_folds[table.id] = self.deferred_folds.get(table.id, 0) + 1
        table.rearm()
        if not table.closed and table.quarantined is None:  # ended while the server was down
            table.report_over(table.match.state())
        if self.on_folded is not None:
            self.on_folded(table)
        if not table.closed:
            table.broadcast_directors(table.table_message())
            snapshot = table.snapshot_message()
            for director in list(self.directors):
                director.send(snapshot)
                table.send_summons(director, None)
                table.send_handled(director)

    async def _fold_in_background(self, table_ids: list[int]) -> None:
        """Fold the tables the start left unfolded, one at a time, yielding
        to the loop between them: a press at a folded table waits at most
        for one table's fold."""
        for table_id in table_ids:
            try:
                await self.ready(table_id)
            except StoreError as exc:
                log.error("table %d could not be folded now (its first use tries again): %s",
                          table_id, exc)
            await asyncio.sleep(0)

    async def load_table(self, table_id: int) -> TableHub:
        """Load one table from its snapshot and the events after it (a clock
        that ran is stopped at its checkpoint, as at a start) and serve it:
        what a process taking a table over, or a first use, calls.
        ``StoreError`` (``NotFound``) from the store."""
        pending = self.tables.get(table_id)
        if pending is not None and not pending.folded:  # its first fold is this load
            table = await self.ready(table_id)
            assert table is not None
            return table
        table = await self._load_one(*await self._stored(table_id))
        stop = self._recover(table)
        if stop is not None:
            await self.store.commit([stop], {})
            table.recovered(stop)
        old = self.tables.get(table_id)
        if old is not None:
            table.watchers = old.watchers
            old.close()
        self.tables[table_id] = table
        table.rearm()
        return table

    async def mirror_table(self, table_id: int) -> TableHub:
        """A table another process keeps, folded from the store for reading
        only (a cluster's mirror, ``cluster.mirror``): not served, no timer,
        nothing written.  ``StoreError`` (``NotFound``) from the store."""
        return await self._load_one(*await self._stored(table_id), mirror=True)

    async def _stored(self, table_id: int, *, closed_notes: bool = True) -> tuple[
            TableRow, StoredSnapshot | None, list[StoredEvent], list[StoredNote]]:
        """What folding one table reads: its row, its snapshot, the events
        after it and its notes (none for a closed table unless
        ``closed_notes``, as a start reads it)."""
        row = await self.store.table(table_id)
        snap = await self.store.snapshot(table_id)
        tail = await self.store.events(table_id, snap.seq if snap else 0)
        if row.closed_ms is not None and not closed_notes:
            return row, snap, tail, []
        return row, snap, tail, await self.store.notes(table_id)

    async def _load_one(self, row: TableRow, snap: StoredSnapshot | None,
                        tail: list[StoredEvent], notes: list[StoredNote], *,
                        mirror: bool = False, into: TableHub | None = None) -> TableHub:
        """A table folded from ``snap`` and ``tail`` (the events after it), or
        from its whole log when the snapshot cannot be used; quarantined
        when the log cannot be replayed.  ``mirror``: another process's
        table, read only (``cluster.mirror``); ``into``: the table registered
        unfolded, folded in place (every reference to it stays good)."""
        table = TableHub(self, row) if into is None else into
        table.mirror = mirror
        base: Base | None = None
        if snap is not None:
            try:
                base = snapshots.decode(row, snap, table.match)
            except snapshots.Unreadable as exc:
                log.warning("table %d: its snapshot is not used (%s): the whole log is "
                            "folded", row.id, exc)
            else:
                if not snapshots.follows(base, tail):
                    log.warning("table %d: the log does not follow its snapshot at seq %d: "
                                "the whole log is folded", row.id, base.seq)
                    base = None
            if base is None:
                tail = await self.store.events(row.id)
        try:
            table.load(tail, notes, base)
        except Unfoldable as exc:
            if base is not None:  # the snapshot may be what is wrong: the log says
                log.warning("table %d: %s after its snapshot: the whole log is folded",
                            row.id, exc)
                return await self._load_one(row, None, await self.store.events(row.id), notes,
                                            mirror=mirror, into=into)
            # one bad log never stops the server: the table keeps its log,
            # takes no commands, and the director sees why
            table.quarantine(str(exc), tail, notes)
        return table

    def _recover(self, table: TableHub, started_ms: int | None = None) -> StoredEvent | None:
        """A loaded table after a restart: its running clock's stop, if any
        (``started_ms``: the start's instant, for a table folded after it)."""
        if table.quarantined is not None:
            return None
        if table.keeper is not None:  # no device is connected yet
            table.keeper_offline_since_ms = (self.clock.now_ms() if started_ms is None
                                             else started_ms)
        return table.recover(table.row.checkpoint_ms, started_ms)

    async def stop(self) -> None:
        if self._background is not None:
            self._background.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._background
            self._background = None
        for task in list(self._folds.values()):
            # a fold under way stops: what it stored (a snapshot, the restart's
            # stop) is what a fold of the next start reads
            task.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
                table.timer = None
            table._end_provisional()
            table.line.cancel()
        self.checkpoint_now()
        await self.writer.close()

    def checkpoint_now(self, part: int | None = None) -> None:
        """Store the match time now of every running table, or of the
        ``part``-th of ``CHECKPOINT_PARTS`` (the tables whose id gives that
        remainder)."""
        checkpoints = {
            t.id: max(t.match_now(), t.match.now)
            for t in self.tables.values()
            if (part is None or t.id % CHECKPOINT_PARTS == part)
            and t.folded and not t.closed and t.quarantined is None and not t.mirror
            and t.match.expires_at() is not None
        }
        if checkpoints:
            self.writer.checkpoint(checkpoints)

    async def _checkpoints(self) -> None:
        """Each running table's checkpoint once an interval, a part of the
        tables at a time: all of them at once was a stop of every table's
        presses (at 2,000 tables about 10 ms each second, the p99's worst)."""
        part = 0
        while True:
            await asyncio.sleep(self.checkpoint_interval_ms / 1000 / CHECKPOINT_PARTS)
            self.checkpoint_now(part)
            part = (part + 1) % CHECKPOINT_PARTS

    def dormant(self, row: TableRow) -> TableHub:
        """A table this process knows but does not own (a cluster): its row
        only, no log; nothing it would write passes the store's fence."""
        table = TableHub(self, row)
        self.tables[row.id] = table
        return table

    async def take(self, table_id: int) -> TableHub:
        """This process took the table's lease (a cluster): load it as a start
        does (``load_table``) and show it to this process's dashboards."""
        table = await self.load_table(table_id)
        for director in list(self.directors):
            director.send(table.table_message())
            director.send(table.snapshot_message())
        return table

    def to_directors(self, message: dict[str, Any]) -> str:
        """Send ``message`` to every dashboard of this process; its text (for
        the other processes' dashboards)."""
        text = dumps(message)
        for director in list(self.directors):
            director.send(text)
        return text

    def drop(self, table_id: int) -> None:
        """Another process owns the table now: stop running it here."""
        table = self.tables.get(table_id)
        if table is None:
            return
        table.close()
        self.writer.forget_checkpoint(table_id)
        self.dormant(table.row)

    def add(self, row: TableRow) -> TableHub:
        table = TableHub(self, row)
        self.tables[row.id] = table
        if self.on_added is not None:
            self.on_added(row.id)
        for director in list(self.directors):
            director.send(table.table_message())
            director.send(table.snapshot_message())
        return table

    def table(self, table_id: int | None) -> TableHub:
        table = self.tables.get(table_id) if table_id is not None else None
        if table is None:
            raise ProtocolError("not_found", f"no table {table_id}", table=table_id)
        if self.owns is not None and not self.owns(table.id):
            raise ProtocolError("not_owner", f"table {table_id} is kept by another process "
                                "of the cluster: open it there", table=table_id)
        table.check_folded()  # its caller did not await ``ready``: never a blank state
        return table
