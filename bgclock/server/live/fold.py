"""A table's stored log, folded: the match it replays to, and what its notes say.

The log is append-only and numbered in the order the server accepted its
events; it is folded in the order of their instants (``in_fold_order``).
Beside the log, a table's notes (never engine events) say who keeps its
time (``keeper_of``, ``handover_of``), which alerts the director handled,
which flags are final and the result the director entered by hand.  Pure
functions: the live table (``live.table``), a start, the exports and the
score sheets read a log through them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bgclock.core import SIDES, ClockError, Event, Match, MatchState
from bgclock.server.live.table_state import HANDED_OVER_BY, Handover, Keeper
from bgclock.store import StoredEvent, StoredNote, TableSpec

#: The note of a result entered by hand (``TableRunner.close_match``).
HAND_RESULT = "hand_result"


class Unfoldable(ValueError):
    """A stored log the engine refuses to replay (the table is quarantined)."""


def new_match(spec: TableSpec) -> Match:
    """The match a table's spec describes (``InvalidCommand`` if it cannot be)."""
    return Match.new(spec.rules, length=spec.length, score=spec.score, teams=spec.teams,
                     crawford=spec.crawford, clock=dict(spec.clock))


def in_fold_order(events: Iterable[StoredEvent]) -> list[StoredEvent]:
    """A log in the order it is folded: by instant, then by seq.

    The log is append-only and numbered in the order the server accepted
    its events; they are also in the order of their instants except where a
    keeper's queued press was merged before a director's event it had not
    seen (``TableRunner.command``): it is folded at its instant."""
    out = list(events)
    if any(a.at_ms > b.at_ms for a, b in zip(out, out[1:], strict=False)):
        out.sort(key=lambda e: (e.at_ms, e.seq))
    return out


def fold(spec: TableSpec, events: Iterable[StoredEvent]) -> Match:
    """The match a whole log replays to (``Unfoldable`` if the engine refuses it)."""
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
    refused by the fold (``TableRunner._merged``) instead."""
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


def hand_result_of(notes: list[StoredNote]) -> dict[str, Any] | None:
    """The result the director entered by hand for this match, if any."""
    for x in reversed(notes):
        if x.note.get("type") == HAND_RESULT:
            return {k: x.note.get(k) for k in ("side", "name", "score")}
    return None


def final_flags_of(notes: list[StoredNote]) -> set[int]:
    """The instants of the flags held final (``flag_final`` notes)."""
    return {int(x.note["at_ms"]) for x in notes if x.note.get("type") == "flag_final"}


def handled_of(notes: list[StoredNote]) -> dict[str, StoredNote]:
    """The dashboard alerts the director handled: alert key -> its note."""
    return {str(x.note["key"]): x for x in notes if x.note.get("type") == "handled"}

