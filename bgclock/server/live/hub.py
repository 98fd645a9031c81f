"""The live tables: each table's commands decided and stored in order, and the set of tables.

Theory of operation
-------------------
Everything here runs on the event loop, so one table's commands are handled
one at a time, in arrival order, without locks.  A command is:

1. stamped: its arrival on the table's time line, less the lag credit
   (``live.lag``), never before the match's last event (``match.now``);
2. decided by ``live.table_state.decide`` (who may act, at which instant)
   and ``bgclock.core`` on the live ``Match`` (a refusal raises and is
   answered to the sender only; nothing is stored);
3. given the table's next ``seq`` and handed to the ``Writer``, which commits
   everything queued, from every table, in one transaction;
4. after the commit, and only then, broadcast (``update``) to the table's
   watchers and the director, and acknowledged to its sender.

Commands keep coming while a commit is in flight: the live match runs ahead
of the disk by at most one batch, and ``committed_seq`` says how far the
disk is.  Should a commit fail, the table goes back to its committed prefix
and reloads from the store (``live.recovery``).  A command id is applied
once, whatever its age (``live.idempotency``).  Every store call has a
deadline (``Store.deadline_s``): a database that went silent fails the
whole batch at once (``StoreUnavailable``), with the commands queued while
it was tried, so a command's error comes within one deadline; the next
batch, once the database answers again, commits as usual.

The pieces
----------
A ``TableRunner`` is a ``live.table.Table`` (its state, what it shows, how it
sends) run: this module decides and applies its commands and tells the
tournament its results; its roles are objects holding a reference to it,
each in its own module: ``live.devices`` (connections, the timekeeper and
its hand-over), ``live.alerts`` (summonses, alerts handled), ``live.flags``
(the expiry timer, provisional flags) and ``live.recovery`` (loading,
restarts, failed commits, quarantine).  The roles know the table as a
``Table`` and never import this module: the imports go one way (``table``,
then ``flags``, ``recovery``, ``alerts`` and ``devices``, then ``hub``),
and the one thing a role tells above it, a result for the tournament, it is
handed as ``TableRunner.report_over``.  The ``Hub`` is every table of the
server (what they share is its ``live.table.TableServices``): it starts,
loads, mirrors and checkpoints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

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
from bgclock.server.live import snapshots
from bgclock.server.live.alerts import Alerts
from bgclock.server.live.commands import (
    Command,
    Handle,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepRequest,
    LateStartCmd,
    Summon,
)
from bgclock.server.live.devices import Devices
from bgclock.server.live.flags import Flags
from bgclock.server.live.fold import (
    HAND_RESULT,
    Unfoldable,
    hit_does_nothing,
    keeper_of,
    new_match,
)
from bgclock.server.live.lag import DEFAULT_PARAMS, LagParams
from bgclock.server.live.messages import ack_message, dumps, idem_key, update_message
from bgclock.server.live.recovery import Recovery, Stored, read_stored
from bgclock.server.live.refusal import Refused
from bgclock.server.live.snapshots import Base
from bgclock.server.live.table import TABLE_RATE, Table, TableServices, Watcher
from bgclock.server.live.table_state import (
    KEEPER_SILENT_MS,
    PROVISIONAL_BOUND_MS,
    Accept,
    Duplicate,
    Press,
    Refuse,
    decide,
)
from bgclock.server.live.time import ServerClock
from bgclock.store import (
    Store,
    StoredEvent,
    StoredNote,
    StoredSnapshot,
    StoreError,
    TableRow,
    TableSpec,
)

log = logging.getLogger("bgclock.server")


class TableRunner(Table):
    """One table, run: its commands decided in arrival order and stored
    through the writer, its results told; its roles (``devices``,
    ``alerts``, ``flags``, ``recovery``) act on it."""

    hub: Hub

    def __init__(self, hub: Hub, row: TableRow) -> None:
        super().__init__(hub, row)
        self.flags = Flags(self, self.report_over)
        self.recovery = Recovery(self, self.flags)
        self.alerts = Alerts(self, self.recovery, self.flags)
        self.devices = Devices(self, self.flags)

    # -------------------------------------------------- what others call

    def device_hello(self, device: str | None, queued: int, name: str | None = None) -> None:
        """A table device said hello (``Devices.hello``)."""
        self.devices.hello(device, queued, name)

    def device_gone(self, device: str | None = None) -> None:
        """A table device's connection closed (``Devices.gone``)."""
        self.devices.gone(device)

    def keep_request(self, sender: Watcher, role: str, msg: KeepRequest | Keep) -> None:
        """A device asks for the table's time (``Devices.keep_request``)."""
        self.devices.keep_request(sender, role, msg)

    def keep_answer(self, sender: Watcher, role: str, msg: KeepAnswer) -> None:
        """The keeper's screen answers a request for the time (``Devices.keep_answer``)."""
        self.devices.keep_answer(sender, role, msg)

    def keep_give(self, sender: Watcher, role: str, msg: KeepGive) -> None:
        """The director hands the table's time to a device (``Devices.keep_give``)."""
        self.devices.keep_give(sender, role, msg)

    def summon(self, sender: Watcher, role: str, msg: Summon) -> None:
        """A summons of the director (``Alerts.summon``)."""
        self.alerts.summon(sender, role, msg)

    def handle(self, sender: Watcher, role: str, msg: Handle) -> None:
        """The director marks an alert handled (``Alerts.handle``)."""
        self.alerts.handle(sender, role, msg)

    def send_summons(self, watcher: Watcher, since_seq: int | None) -> None:
        """The summons made since ``since_seq`` (``Alerts.send_summons``)."""
        self.alerts.send_summons(watcher, since_seq)

    def send_handled(self, watcher: Watcher) -> None:
        """The alerts handled so far (``Alerts.send_handled``)."""
        self.alerts.send_handled(watcher)

    # ----------------------------------------------------------- commands

    def receive(self, sender: Watcher, role: str, cmd: Command) -> None:
        """A connection's command, decided in arrival order: now, or once the
        store has said whether its id was stored (``live.idempotency``) and
        what waits before it is decided; an error now (``Refused``) or
        sent to the sender then.  The keeper's queued commands are counted."""
        key = idem_key(role, cmd.id)
        if not self.folded or (not self.line.busy
                                              and not self.ids.unknown(key)):
            self._counted(sender, role, cmd, None)
            return
        if self.line.full:
            raise Refused("busy", "this table's commands wait for the database: "
                                "send it again")
        arrival = self.match_now()

        async def decide_in_turn() -> None:
            if self.ids.unknown(key) and not self.closed:
                try:
                    await self.ids.recall(self.hub.store, self.id, key, self.committed_seq)
                except StoreError as exc:
                    sender.refuse(Refused(
                        "storage", f"the database could not be asked about this command: "
                        f"{exc}; send it again", msg_id=cmd.id, table=self.id))
                    return
            try:
                self._counted(sender, role, cmd, arrival)
            except Refused as exc:
                sender.refuse(exc.about(cmd.id, self.id))

        self.line.add(decide_in_turn)

    def _counted(self, sender: Watcher, role: str, cmd: Command, arrival: int | None) -> None:
        device = getattr(sender, "device", None)
        try:
            self.command(sender, role, cmd, arrival)
        except Refused:
            self.devices.counted(device, accepted=False)
            raise
        self.devices.counted(device, accepted=True)

    def late_start(self, sender: Watcher, cmd_id: str, side: str) -> None:
        """The late player's clock started at this instant (the desk's late
        start, a director's command): a typed operation, so that the desk
        builds no protocol message; ``Refused`` as ``command``."""
        self.command(sender, "director", LateStartCmd(
            type="cmd", id=cmd_id, table=self.id, side="A" if side == "A" else "B"))

    def command(self, sender: Watcher, role: str, cmd: Command,
                arrival_ms: int | None = None) -> None:
        """Decide one command (``live.table_state.decide``) on what memory
        holds; answer an error now or an ack after the commit.  ``arrival_ms``:
        when it arrived on the table's time line (None: now)."""
        self.check_folded()
        if self.reloading:
            raise Refused("busy", "this table is being reloaded from the database: "
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
            if answer.code == "handed_over":
                raise self.devices.refused_handed_over()
            raise Refused.of(answer)
        if isinstance(answer, Duplicate):
            assert existing is not None
            if existing.seq <= self.committed_seq:
                sender.send(dumps(ack_message(existing, duplicate=True)))
            else:
                self.ack_waiters.setdefault(key, []).append(sender)
            return
        if not self.limiter.allow():
            raise Refused("rate_limited", "too many commands at this table: slow down")
        self._run(sender, role, cmd, key, answer, arrival)

    def _run(self, sender: Watcher, role: str, cmd: Command, key: str,
             answer: Accept, arrival: int) -> None:
        """Carry out an accepted command's decision."""
        at, credit = answer.at_ms, answer.credit_ms
        if answer.merge:
            merged = self._merged(cmd, at, key, role)
            if merged is not None:
                claim = self.devices.claim_with_event(answer)
                self._accept_merged(sender, cmd, key, role, merged, arrival, claim)
                return
            if answer.before_handover:
                # never after the new keeper's time line: not counted at all
                raise self.devices.refused_handed_over()
            # the director's events refuse it there: after them
            at = self.log[-1].at_ms if self.log else self.base.log_end_ms
            credit = max(arrival - at, 0)
        if at < self.match.now:
            # A flag announced meanwhile moved the live match past this
            # instant: go back to the log's end (the flag is only derived).
            self.match = self.refold()
            if self.provisional is not None and at < self.provisional.at_ms:
                self.flags.withdraw()
            self.flags.check_told()
        try:
            event = Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": at})
        except (InvalidCommand, TypeError, ValueError) as exc:
            raise Refused("invalid", str(exc)) from None
        expiry = self.match.expires_at()
        if expiry is not None and expiry <= at:
            self.flags.flag(expiry)
        if cmd.do == "hit" and hit_does_nothing(self.match, str(getattr(cmd, "side", None))):
            # nothing to store: the idle side's button does nothing
            self.answer_noop(sender, cmd.id)
            return
        attention = self.attention()
        try:
            self.match.apply(event)
        except IllegalCommand as exc:
            raise Refused.by_the_rules("illegal", exc) from None
        except ClockError as exc:
            raise Refused.by_the_rules("invalid", exc) from None
        claim = self.devices.claim_with_event(answer)
        if answer.quota_key is not None and answer.quota is not None:
            self.quotas[answer.quota_key] = answer.quota
        self.seq += 1
        stored = StoredEvent(table_id=self.id, seq=self.seq, idem_key=key, at_ms=at,
                             event=event.to_dict(), source=role, lag_credit_ms=credit,
                             received_ms=self.hub.clock.now_ms())
        self.log.append(stored)
        self.ids.add(stored)
        handled = (None if cmd.handles is None
                   else self.alerts.handled_note(cmd.handles, at, role))
        if claim is not None:
            handled = claim if handled is None else handled  # a director never claims
        after = self.match.copy()
        # "restart" ends with the first command accepted after the recovery
        # (a kept table's too: its keeper may never come back)
        self.recovering = False
        attention_changed = self.attention() != attention
        self.flags.rearm()
        self._submit(sender, cmd.id, key, stored, after, attention_changed, handled)

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

        def saved() -> None:
            self.committed_seq = stored.seq
            self.committed_match = after
            self.recent.append((stored.seq, text))
            self.take_snapshot()
            self.broadcast(text)
            if attention_changed:
                self.broadcast(self.table_message())
            if handled is not None and handled.note.get("type") == "handled":
                self.alerts.handled_committed(handled)
            elif handled is not None:  # the claim stored with the press
                self.committed_notes = max(self.committed_notes, handled.n)
                self.broadcast(self.table_message())
            sender.send(dumps(ack_message(stored, duplicate=False)))
            for waiter in self.ack_waiters.pop(key, ()):
                waiter.send(dumps(ack_message(stored, duplicate=True)))
            self.report_over(after_state)

        self.recovery.commit(
            stored if handled is None else (stored, handled), sender, msg_id,
            lambda error: ("the database refused an earlier command; send it again"
                           if error is None else f"the database refused the command: {error}"),
            saved)

    def _merged(self, cmd: Command, at: int, key: str,
                role: str) -> tuple[StoredEvent, Match] | None:
        """The keeper's command at ``at``, before director's events it had
        not seen: the event to store and the log refolded with it in the
        order of instants, or None if that fold refuses anything (then the
        command counts after them, as any other)."""
        try:
            event = Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": at})
        except (InvalidCommand, TypeError, ValueError) as exc:
            raise Refused("invalid", str(exc)) from None
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
            self.flags.withdraw()
        self.flags.check_told()
        attention_changed = self.attention() != attention
        self.flags.rearm()
        self._submit(sender, cmd.id, key, stored, self.match.copy(), attention_changed, claim)

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

    # ------------------------------------------------------------ results

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
        ``Refused`` when the table cannot be closed now."""
        await self.hub.ready(self.id)  # a table a first start left unfolded
        await self.owned()
        self.check_folded()
        self.check_open()
        result = {"side": side, "name": name, "score": score}
        if self.hand_result == result:
            return
        if self.reloading:
            raise Refused("busy", "this table is being reloaded from the database: "
                                "try again")
        at = max(self.match_now(), self.match.now)
        expiry = self.match.expires_at()
        if expiry is not None and expiry <= at:
            self.flags.flag(expiry)  # the clock ran out first: its flag is told as it is
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
            self.flags.rearm()
        note = self.new_note({"type": HAND_RESULT, **result}, "director")
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
                self.recovery.failed(error)
            if not committed.done():
                committed.set_result(error)

        self.hub.writer.submit(note if stored is None else (stored, note), done)
        error = await committed
        if error is not None:
            raise Refused("storage", f"the table could not be closed: {error}")

    async def renew(self, spec: TableSpec, *, tournament_id: int | None = None) -> None:
        """The table's next match: the finished match's log is archived by
        the store and a fresh match starts on the same table (same id, same
        link and token) with its own time line.  ``tournament_id``: the
        event the new match belongs to, when it is not the table's (a
        room's table seating another event's match).  ``Refused``
        when the table cannot take it now."""
        await self.hub.ready(self.id)  # a table a first start left unfolded
        await self.owned()
        if self.closed:
            raise Refused("closed", "this table is closed")
        self.tournament_note = None
        if self.editing or self.committed_seq != self.seq or (
                self.committed_notes != len(self.notes)):
            raise Refused("busy", "the table's last commands are being stored: try again")
        if self.match.expires_at() is not None:
            raise Refused("running", "the clock is running: stop it or finish the match")
        if self.provisional is not None:
            # its result is not known yet: the next match would drop it
            raise Refused("provisional", "the flag at this table is provisional: the "
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
        self.flags.end()
        self.line.cancel()
        self.__init__(self.hub, row)  # type: ignore[misc]  # a fresh match, same table
        self.watchers, self.devices_online, self.offline_since_ms = watchers, online, offline
        if keeper is not None:
            # the claim is the table's, not the match's: carried to its next match
            self.keeper, self.keeper_offline_since_ms = keeper, keeper_offline
            self.store_note({"type": "keeper", "device": keeper.device, "name": keeper.name,
                              "by": "carried", **({"named": True} if keeper.named else {})},
                             "server")
        self.broadcast(self.table_message())
        self.broadcast(self.snapshot_message())

    def close(self) -> None:
        """The table stops here (closed, or another process runs it now)."""
        self.closed = True
        self.line.cancel()
        self.flags.end()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    # ---------------------------------------------- the director's writes

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
        """With several processes: before a director's write that is not a
        command (an edit, the next match, a closing), this process keeps the
        table (it takes it if nobody does; it is then loaded in place), else
        ``not_owner``: the write would go behind its keeper's back."""
        if not await self.hub.owner.own(self.id):
            raise Refused("not_owner", f"table {self.id} is owned by another process: "
                                "send this there", table=self.id)

    def reset(self, row: TableRow) -> None:
        """The director edited the table before play."""
        self.row = row
        self.tournament_note = None
        self.match = new_match(row.spec)
        self.committed_match = self.match.copy()
        self.base, self.snapped = Base(), None
        self.flags.rearm()


#: The checkpoint ticker's parts: a tenth of the tables every tenth of the
#: interval.
CHECKPOINT_PARTS = 10


class Hub(TableServices):
    """Every table of the server: start, load, checkpoints (and, as
    ``TableServices``, what the tables share: the writer, the directors' connections)."""

    def __init__(self, store: Store, clock: ServerClock, *,
                 lag_params: LagParams = DEFAULT_PARAMS,
                 checkpoint_interval_ms: int = 1000,
                 table_rate: tuple[float, float] = TABLE_RATE,
                 provisional_bound_ms: int = PROVISIONAL_BOUND_MS,
                 keeper_silent_ms: int = KEEPER_SILENT_MS) -> None:
        super().__init__(store, clock, lag_params=lag_params, table_rate=table_rate,
                         provisional_bound_ms=provisional_bound_ms,
                         keeper_silent_ms=keeper_silent_ms)
        self.checkpoint_interval_ms = checkpoint_interval_ms
        self.tables: dict[int, TableRunner] = {}
        self._ticker: asyncio.Task[None] | None = None
        #: Told when a table's match is over with a winner (the tournament's results).
        self.on_over: Callable[[TableRunner, MatchState], None] | None = None
        #: Told of a table a first start left unfolded, once it is folded.
        self.on_folded: Callable[[TableRunner], None] | None = None
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
        if not self.owner.owns_everything:  # each table is loaded when this process takes it
            for row in rows:
                self.dormant(row)
            self.writer.start()
            self._ticker = asyncio.get_running_loop().create_task(self._checkpoints(),
                                                                  name="bgclock-checkpoints")
            return []
        stored = await self.store.all_snapshots()
        tails = await self.store.all_tails(2 * snapshots.SNAPSHOT_EVERY)
        notes = await self.store.all_notes()
        restarts: list[StoredEvent] = []
        deferred: list[TableRunner] = []
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
            stop = table.recovery.restarted()
            if stop is not None:
                restarts.append(stop)
            self.tables[row.id] = table
        if restarts:
            await self.store.commit(restarts, {})
            for stop in restarts:
                self.tables[stop.table_id].recovery.recovered(stop)
            log.warning("clocks stopped by the restart at tables %s",
                        ", ".join(str(s.table_id) for s in restarts))
        for table in self.tables.values():
            table.flags.rearm()
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

    def _unfolded(self, row: TableRow, *, keeps: bool = False) -> TableRunner:
        """A table registered at start without its fold (``ready`` folds it)."""
        table = TableRunner(self, row)
        table.folded = False
        self.tables[row.id] = table
        self._keeps[row.id] = keeps
        return table

    async def ready(self, table_id: int | None) -> TableRunner | None:
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

    async def _fold_deferred(self, table: TableRunner) -> None:
        """Fold a table the start registered unfolded, as the start would
        have (its stop at the checkpoint as of the start's instant), store
        its snapshot, and show it to the dashboards."""
        try:
            # its row again: closed meanwhile, maybe
            row, snap, tail, notes = await read_stored(self.store, table.id,
                                                            closed_notes=False)
            table.row = row
            table.closed = table.closed or row.closed_ms is not None
            await self._load_one(row, snap, tail, notes, into=table)
            stop = table.recovery.restarted(self.started_ms)
            if stop is not None:
                await self.store.commit([stop], {})
                table.recovery.recovered(stop)
                log.warning("clock stopped by the restart at table %d", table.id)
        finally:
            self._folds.pop(table.id, None)  # done, or the next use tries again
        table.folded = True
        self.deferred_folds[table.id] = self.deferred_folds.get(table.id, 0) + 1
        table.flags.rearm()
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

    async def load_table(self, table_id: int, stored: Stored | None = None) -> TableRunner:
        """Load one table from its snapshot and the events after it (a clock
        that ran is stopped at its checkpoint, as at a start) and serve it:
        what a process taking a table over, or a first use, calls.
        ``stored``: what the store holds of it, read already (with others:
        ``PostgresStore.stored_many``).  ``StoreError`` (``NotFound``) from
        the store."""
        pending = self.tables.get(table_id)
        if pending is not None and not pending.folded:  # its first fold is this load
            table = await self.ready(table_id)
            assert table is not None
            return table
        table = await self._load_one(*(stored or await read_stored(self.store, table_id)))
        stop = table.recovery.restarted()
        if stop is not None:
            await self.store.commit([stop], {})
            table.recovery.recovered(stop)
        old = self.tables.get(table_id)
        if old is not None:
            table.watchers = old.watchers
            old.close()
        self.tables[table_id] = table
        table.flags.rearm()
        return table

    async def _load_one(self, row: TableRow, snap: StoredSnapshot | None,
                        tail: list[StoredEvent], notes: list[StoredNote], *,
                        into: TableRunner | None = None) -> TableRunner:
        """A table folded from what the store holds (``Recovery.load``).
        ``into``: the table registered unfolded, folded in place (every
        reference to it stays good)."""
        table = TableRunner(self, row) if into is None else into
        await table.recovery.load(row, snap, tail, notes)
        return table

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
            table.flags.end()
            table.line.cancel()
        self.checkpoint_now()
        await self.writer.close()

    def checkpoint_now(self, part: int | None = None) -> None:
        """Store the match time now of every running table, or of the
        ``part``-th of ``CHECKPOINT_PARTS`` (the tables whose id gives that
        remainder)."""
        checkpoints = {
            t.id: at for t in self.tables.values()
            if (part is None or t.id % CHECKPOINT_PARTS == part)
            and (at := t.checkpoint_ms()) is not None
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

    def dormant(self, row: TableRow) -> TableRunner:
        """A table this process knows but does not own (another process does): its row
        only, no log; nothing it would write passes the store's fence."""
        table = TableRunner(self, row)
        self.tables[row.id] = table
        return table

    async def take(self, table_id: int, stored: Stored | None = None) -> TableRunner:
        """This process took the table's lease from another: load it as a start
        does (``load_table``) and show it to this process's dashboards."""
        table = await self.load_table(table_id, stored)
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

    def add(self, row: TableRow) -> TableRunner:
        table = TableRunner(self, row)
        self.tables[row.id] = table
        self.owner.table_added(row.id)
        for director in list(self.directors):
            director.send(table.table_message())
            director.send(table.snapshot_message())
        return table

    def table(self, table_id: int | None) -> TableRunner:
        table = self.tables.get(table_id) if table_id is not None else None
        if table is None:
            raise Refused("not_found", f"no table {table_id}", table=table_id)
        if not self.owner.owns(table.id):
            raise Refused("not_owner", f"table {table_id} is owned by another process: "
                                "open it there", table=table_id)
        table.check_folded()  # its caller did not await ``ready``: never a blank state
        return table
