"""A table's calls to the director: summonses, and the alerts the director handled.

A summons (a player calls the director) is a note in the table's log, told
to the director and the table's devices once stored.  The dashboards'
alerts are computed by each dashboard from the tables' states; which of
them the director has handled is the server's: a note ``{"type":
"handled", "key": ...}`` in the table's log (its idem key ``handled/KEY``:
stored once), sent to every director as ``handled``.  A command that
settles an alert (``handles``) is committed together with its note
(``handled_note``, from the runner), and its id is derived from the alert
by the dashboard: the directors share one space of ids, so the same
confirmation from two dashboards is applied once and the second gets the
first's ack.  A provisional flag's alert handled is the director's
confirmation of the flag (``live.flags``).
"""

from __future__ import annotations

from bgclock.server.live.commands import Handle, Summon
from bgclock.server.live.flags import Flags
from bgclock.server.live.messages import (
    dumps,
    handled_key,
    handled_message,
    note_ack_message,
    provisional_key,
    summon_message,
)
from bgclock.server.live.recovery import Recovery
from bgclock.server.live.refusal import Refused
from bgclock.server.live.table import Table, Watcher
from bgclock.store import StoredNote


class Alerts:
    """One table's summonses and handled alerts."""

    def __init__(self, table: Table, recovery: Recovery, flags: Flags) -> None:
        self.table = table
        self.recovery = recovery
        self.flags = flags

    def summon(self, sender: Watcher, role: str, msg: Summon) -> None:
        """Store a summons of the director as a note, then tell the director
        (and the table's devices); the sender gets an ack when it gave an id."""
        t = self.table
        t.check_folded()
        t.check_open()
        if msg.id is not None:
            existing = t.note_keys.get(msg.id)
            if existing is not None:
                if existing.n <= t.committed_notes:
                    sender.send(dumps(note_ack_message(existing, duplicate=True)))
                else:
                    t.note_waiters.setdefault(msg.id, []).append(sender)
                return
        for open_note in reversed(t.notes):
            if open_note.seq != t.seq:
                break
            if (open_note.note.get("why"), open_note.note.get("side")) == (msg.why, msg.side):
                # the same call, nothing happened since: the director is already called
                if msg.id is not None:
                    sender.send(dumps({**note_ack_message(open_note, duplicate=True),
                                       "id": msg.id}))
                return
        if not t.limiter.allow():
            raise Refused("rate_limited", "too many messages at this table: slow down")
        note = StoredNote(table_id=t.id, n=len(t.notes) + 1, seq=t.seq,
                          idem_key=msg.id, at_ms=max(t.match_now(), t.match.now),
                          note={"type": "summon", "why": msg.why, "side": msg.side},
                          source=role, received_ms=t.hub.clock.now_ms())
        t.notes.append(note)
        if msg.id is not None:
            t.note_keys[msg.id] = note

        def stored() -> None:
            t.committed_notes = note.n
            t.broadcast(dumps(summon_message(note)))
            if msg.id is not None:
                sender.send(dumps(note_ack_message(note, duplicate=False)))
                for waiter in t.note_waiters.pop(msg.id, ()):
                    waiter.send(dumps(note_ack_message(note, duplicate=True)))

        self.recovery.commit(note, sender, msg.id,
                             lambda _: "the database refused the summons; send it again",
                             stored)

    def handle(self, sender: Watcher, role: str, msg: Handle) -> None:
        """The director marks an alert handled: store it once, then tell every
        director; the sender gets an ack when it gave an id (``duplicate``
        when the alert was handled already)."""
        t = self.table
        if role != "director":
            raise Refused("forbidden", "only the director handles alerts")
        t.check_folded()
        if t.closed:
            raise Refused("closed", "this table is closed")
        existing = t.handled.get(msg.key)
        if existing is not None:
            if msg.id is None:
                return
            if existing.n <= t.committed_notes:
                sender.send(dumps({**note_ack_message(existing, duplicate=True), "id": msg.id}))
            else:
                t.handle_waiters.setdefault(msg.key, []).append((sender, msg.id))
            return
        if not t.limiter.allow():
            raise Refused("rate_limited", "too many messages at this table: slow down")
        note = self.handled_note(msg.key, max(t.match_now(), t.match.now), role)

        def stored() -> None:
            self.handled_committed(note)
            if msg.id is not None:
                sender.send(dumps({**note_ack_message(note, duplicate=False), "id": msg.id}))

        self.recovery.commit(note, sender, msg.id,
                             lambda _: "the database refused the mark; send it again", stored)

    def handled_note(self, alert: str, at_ms: int, role: str) -> StoredNote:
        """The note that ``alert`` is handled (queued by the caller)."""
        t = self.table
        note = StoredNote(table_id=t.id, n=len(t.notes) + 1, seq=t.seq,
                          idem_key=handled_key(alert), at_ms=at_ms,
                          note={"type": "handled", "key": alert}, source=role,
                          received_ms=t.hub.clock.now_ms())
        t.notes.append(note)
        t.note_keys[handled_key(alert)] = note
        t.handled[alert] = note
        return note

    def handled_committed(self, note: StoredNote) -> None:
        """A handled note is on disk: every dashboard hears of it (a
        provisional flag's alert handled: the director confirmed the flag)."""
        t = self.table
        t.committed_notes = max(t.committed_notes, note.n)
        alert = str(note.note["key"])
        t.broadcast_directors(dumps(handled_message(t.id, [alert])))
        if (t.provisional is not None
                and alert == provisional_key(t.id, t.provisional.at_ms)):
            self.flags.settle("director")
        for waiter, msg_id in t.handle_waiters.pop(alert, ()):
            waiter.send(dumps({**note_ack_message(note, duplicate=True), "id": msg_id}))

    def send_summons(self, watcher: Watcher, since_seq: int | None) -> None:
        """The summons made since ``since_seq`` (all without it): a director
        that was away still sees who called."""
        t = self.table
        for note in t.notes[: t.committed_notes]:
            if note.note.get("type") == "summon" and (since_seq is None or note.seq >= since_seq):
                watcher.send(dumps(summon_message(note)))

    def send_handled(self, watcher: Watcher) -> None:
        """The alerts handled so far (stored): every dashboard shows the same list."""
        t = self.table
        keys = [str(x.note["key"]) for x in t.notes[: t.committed_notes]
                if x.note.get("type") == "handled"]
        if keys:
            watcher.send(dumps(handled_message(t.id, keys)))
