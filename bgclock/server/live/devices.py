"""A table's devices: who is connected, and the timekeeper and its hand-over.

The table's time is kept by one device, its *keeper* (docs/protocol.md
"The timekeeper"): the device that makes the table's first roll or press
claims it (``claim_with_event``, from the runner), and it moves only with
consent (``keep_request``, answered by the keeper's screen in
``keep_answer``), when the keeper has been silent past the bound, or when
the director hands it over from the dashboard (``keep_give``).  What may
happen is decided by ``live.table_state`` (``ask_keep``, ``answer_keep``,
``give_keep``); here it is carried out: a ``keeper`` note stored, the
devices and the dashboards told.

A keeper that comes back after a restart or an absence says how many
commands it queued (``hello``); once they are decided (``counted``), the
table is *reconciled*: the restart's attention ends and a provisional flag
is settled (``live.flags``).
"""

from __future__ import annotations

from bgclock.server.live.commands import Keep, KeepAnswer, KeepGive, KeepRequest
from bgclock.server.live.flags import Flags
from bgclock.server.live.messages import dumps
from bgclock.server.live.refusal import Refused
from bgclock.server.live.table import Table, Watcher
from bgclock.server.live.table_state import (
    HANDED_OVER_BY,
    Accept,
    Asked,
    Claimed,
    Declined,
    Handover,
    Keeper,
    Refuse,
    answer_keep,
    ask_keep,
    give_keep,
    handed_over,
)
from bgclock.store import StoredNote


class Devices:
    """One table's devices and its timekeeper."""

    def __init__(self, table: Table, flags: Flags) -> None:
        self.table = table
        self.flags = flags

    # ------------------------------------------------------ connections

    def hello(self, device: str | None, queued: int, name: str | None = None) -> None:
        """A table device said hello (its connection is among the watchers
        already); the keeper's hello starts a reconciliation of ``queued``
        commands.  Saying hello claims nothing (a roll, a press or ``keep`` does)."""
        t = self.table
        t.devices_online += 1
        changed = t.devices_online == 1  # the dashboard's
        told = False  # every device's too: the keeper is back
        keeper = t.keeper
        if keeper is not None and device == keeper.device:
            if name is not None and name != keeper.name and not keeper.named:
                t.keeper = Keeper(keeper.device, name)  # shown, not stored
            told = t.keeper_offline_since_ms is not None
            t.keeper_offline_since_ms = None
            t.reconcile_left = queued
            t.reconcile_counts = [0, 0]
            if queued == 0:
                changed = self._reconciled() or changed
        if told:
            t.broadcast(t.table_message())
        elif changed:
            t.broadcast_directors(t.table_message())

    def gone(self, device: str | None = None) -> None:
        """A table device's connection closed (it is no longer a watcher)."""
        t = self.table
        t.devices_online = max(0, t.devices_online - 1)
        if (device is not None and device in t.asks
                and not any(getattr(w, "device", None) == device for w in t.watchers)):
            del t.asks[device]  # the asker left: its request goes with it
            t.broadcast(t.table_message())
        keeper = t.keeper
        if keeper is not None and device == keeper.device and not t.keeper_online():
            # every device hears of it: the time is the server's estimate now
            t.keeper_offline_since_ms = t.hub.clock.now_ms()
            if t.devices_online == 0:
                t.offline_since_ms = t.keeper_offline_since_ms
            t.broadcast(t.table_message())
        elif t.devices_online == 0:
            t.offline_since_ms = t.hub.clock.now_ms()
            t.broadcast_directors(t.table_message())

    def counted(self, device: str | None, accepted: bool) -> None:
        """One of the keeper's queued commands was decided."""
        t = self.table
        if (device is None or t.keeper is None or device != t.keeper.device
                or t.reconcile_left <= 0):
            return
        t.reconcile_left -= 1
        t.reconcile_counts[0 if accepted else 1] += 1
        if t.reconcile_left == 0 and self._reconciled():
            t.broadcast(t.table_message())

    def _reconciled(self) -> bool:
        """The keeper is back and its queue is decided: the restart attention
        ends and a provisional flag is settled.  True when the dashboard
        should hear of it."""
        t = self.table
        was_away = t.recovering or t.offline_since_ms is not None
        applied, refused_n = t.reconcile_counts
        if not was_away and not applied and not refused_n:
            return self.flags.settle("reconciled")
        t.recovering = False
        self.flags.settle("reconciled")
        t.reconciled = {"at_ms": t.hub.clock.now_ms(), "applied": applied,
                        "refused": refused_n}
        return True

    # ------------------------------------------------------ the time's keeper

    def keep_request(self, sender: Watcher, role: str, msg: KeepRequest | Keep) -> None:
        """A device asks for the table's time (``live.table_state.ask_keep``):
        granted at once (nobody keeps it, or the keeper is silent past the
        bound), else the keeper's screens are asked and nothing changes."""
        t = self.table
        t.check_folded()
        answer = ask_keep(t.table_state(), getattr(sender, "device", None),
                          getattr(sender, "name", None), role, now_ms=t.hub.clock.now_ms(),
                          msg_id=msg.id, bound_ms=t.hub.keeper_silent_ms)
        if isinstance(answer, Refuse):
            raise Refused.of(answer)
        if not t.limiter.allow():  # a hand-over is stored: counted like a command
            raise Refused("rate_limited", "too many messages at this table: slow down")
        if isinstance(answer, Asked):
            ask = answer.ask
            fresh = ask.device not in t.asks
            t.asks[ask.device] = ask
            sender.send(dumps({"type": "keep_pending", "table": t.id, "id": msg.id,
                               "keeper": answer.keeper.label()}))
            if fresh:
                t.send_device(answer.keeper.device, dumps(
                    {"type": "keep_asked", "table": t.id, "device": ask.device,
                     "name": ask.label(), "at_ms": ask.at_ms}))
                t.broadcast(t.table_message())
            return
        self.claim(answer, answer.how)
        if msg.id is not None and answer.ask is None:
            sender.send(self._granted(answer, msg.id))

    def keep_answer(self, sender: Watcher, role: str, msg: KeepAnswer) -> None:
        """The keeper's screen answers a request for the time."""
        t = self.table
        t.check_folded()
        answer = answer_keep(t.table_state(), getattr(sender, "device", None), role,
                             msg.device, msg.yes)
        if isinstance(answer, Refuse):
            raise Refused.of(answer)
        if isinstance(answer, Declined):
            del t.asks[answer.ask.device]
            t.send_device(answer.ask.device, dumps(
                {"type": "keep_refused", "table": t.id, "id": answer.ask.id,
                 "keeper": answer.keeper.label(), "by": "keeper"}))
            t.broadcast(t.table_message())
        else:
            self.claim(answer, answer.how)
        if msg.id is not None:
            sender.send(dumps({"type": "ack", "id": msg.id, "table": t.id, "seq": t.seq,
                               "at_ms": max(t.match_now(), t.match.now),
                               "lag_credit_ms": 0, "duplicate": False}))

    def keep_give(self, sender: Watcher, role: str, msg: KeepGive) -> None:
        """The director hands the table's time to a device from the dashboard."""
        t = self.table
        t.check_folded()
        answer = give_keep(t.table_state(), role, msg.device, msg.name)
        if isinstance(answer, Refuse):
            raise Refused.of(answer)
        self.claim(answer, answer.how)
        if msg.id is not None:
            sender.send(dumps({"type": "ack", "id": msg.id, "table": t.id, "seq": t.seq,
                               "at_ms": max(t.match_now(), t.match.now),
                               "lag_credit_ms": 0, "duplicate": False, "keeper": True}))

    def _granted(self, claimed: Claimed, msg_id: str | None) -> str:
        t = self.table
        return dumps({"type": "keep_granted", "table": t.id, "id": msg_id,
                      "by": claimed.how, "seq": t.seq,
                      "previous": None if claimed.previous is None else claimed.previous.label()})

    def claim_with_event(self, answer: Accept) -> StoredNote | None:
        """The claim a command makes, as the note stored with its event."""
        if answer.claim is None:
            return None
        return self.claim(Claimed(answer.claim, self.table.keeper), "press", with_event=True)

    def claim(self, claimed: Claimed, how: str, with_event: bool = False) -> StoredNote | None:
        """Record a claim: the keeper note (returned unqueued ``with_event``:
        stored with the event that claims)."""
        t = self.table
        keeper = claimed.keeper
        same = claimed.previous is not None and claimed.previous.device == keeper.device
        if same and claimed.previous is not None and claimed.previous.named:
            keeper = claimed.previous  # the director's name stays
        t.keeper = keeper
        if t.keeper_online():
            t.keeper_offline_since_ms = None
        elif t.keeper_offline_since_ms is None:
            t.keeper_offline_since_ms = t.hub.clock.now_ms()
        asks, t.asks = t.asks, {}
        if claimed.ask is not None:  # the asker hears it first, then the others
            t.send_device(claimed.ask.device, self._granted(claimed, claimed.ask.id))
        for ask in asks.values():
            if claimed.ask is None or ask.device != claimed.ask.device:
                t.send_device(ask.device, dumps(
                    {"type": "keep_refused", "table": t.id, "id": ask.id,
                     "keeper": keeper.label(), "by": "taken"}))
        if same:
            if asks or keeper != claimed.previous:
                t.broadcast(t.table_message())
            return None
        body = {"type": "keeper", "device": keeper.device, "name": keeper.name, "by": how,
                **({"previous": claimed.previous.device} if claimed.previous else {}),
                **({"named": True} if keeper.named else {})}
        if with_event:
            return t.new_note(body, "table")
        t.store_note(body, "director" if how == "director" else "table")
        if how in HANDED_OVER_BY and claimed.previous is not None:
            # what the former keeper did before this instant may still come
            t.handover = Handover(claimed.previous, t.notes[-1].at_ms)
            t.handover_refused = 0
        t.broadcast(t.table_message())
        return None

    def refused_handed_over(self) -> Refused:
        """The refusal of a press of the former keeper made before the
        hand-over that cannot be counted; counted on the dashboard's card."""
        t = self.table
        assert t.keeper is not None
        t.handover_refused += 1
        t.broadcast_directors(t.table_message())
        return Refused.of(handed_over(t.keeper))
