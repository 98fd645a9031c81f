"""A table's log folded up to a seq: kept in memory as the table's *base*, and
stored (``clock_snapshots``) so that a start folds a snapshot and the events
after it, not the whole evening.

Theory of operation
-------------------
A table holds its base (``Base``: the match folded up to ``seq``, and the two
figures the hub reads off the log's end) and the events after it (its
window).  Every ``SNAPSHOT_EVERY`` committed events the table takes a new
snapshot of its committed match, hands it to the writer (stored apart from
the events, after their commit) and moves its base to the snapshot before:
the window holds between one and two intervals of events, whatever the
length of the evening.  What reads further back (a device's ``events``
page, the exports) reads the store.

A snapshot is only an optimisation, never the truth: the log is.  It covers
a *prefix of the fold order* (events are folded by instant, then seq:
``_hub.in_fold_order``), so it is taken only when every later event folds
after it, and a keeper's press is merged before the director's events only
back to the last snapshot's instant (further back it counts after them, as
any late press).  A snapshot that cannot be read (another engine version or
shape, another time line, a damaged body) or whose tail does not fold after
it is ignored: the table folds its whole log, as before snapshots existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bgclock.core import SNAPSHOT_VERSION, Match
from bgclock.store import StoredEvent, StoredSnapshot, TableRow

#: A table stores a snapshot once this many events were committed since its
#: last one: a start folds fewer than this many events per table.
SNAPSHOT_EVERY: Final = 100
#: The stored format: the engine's (``bgclock.core.SNAPSHOT_VERSION``) and the
#: table's own figures' (the second factor).
VERSION: Final = SNAPSHOT_VERSION * 1000 + 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Base:
    """A table's log folded up to ``seq``."""

    seq: int = 0
    #: The match after it (None: a new match, made from the table's spec).
    match: Match | None = None
    #: The instant of event ``seq`` (the log's end when nothing follows).
    log_end_ms: int = 0
    #: The instant of the last event up to ``seq`` that is not the director's.
    device_floor_ms: int = 0

    @property
    def end_ms(self) -> int:
        """The fold's latest instant: every later event must fold after it."""
        return 0 if self.match is None else self.match.now


class Unreadable(ValueError):
    """A stored snapshot the server does not read (it folds the whole log)."""


def device_floor(events: list[StoredEvent], before: int) -> int:
    """The instant of the last of ``events`` that is not the director's."""
    for stored in reversed(events):
        if stored.source != "director":
            return stored.at_ms
    return before


def base_after(base: Base, events: list[StoredEvent], match: Match) -> Base:
    """The base that ``events`` (in seq order, right after ``base``) make,
    ``match`` being their fold onto it."""
    if not events:
        return base
    return Base(seq=events[-1].seq, match=match, log_end_ms=events[-1].at_ms,
                device_floor_ms=device_floor(events, base.device_floor_ms))


def encode(row: TableRow, base: Base, saved_ms: int) -> StoredSnapshot:
    """The stored form of a table's base."""
    assert base.match is not None
    return StoredSnapshot(
        table_id=row.id, created_ms=row.created_ms, seq=base.seq, version=VERSION,
        state={"seq": base.seq, "match": base.match.to_snapshot(), "log_end_ms": base.log_end_ms,
               "device_floor_ms": base.device_floor_ms},
        saved_ms=saved_ms)


def decode(row: TableRow, stored: StoredSnapshot, blank: Match) -> Base:
    """The base a stored snapshot holds (``blank``: a new match of the table's
    spec, for its settings); ``Unreadable`` when the server cannot use it."""
    if stored.version != VERSION:
        raise Unreadable(f"snapshot version {stored.version}, not {VERSION}")
    if stored.created_ms != row.created_ms or stored.table_id != row.id:
        raise Unreadable("the snapshot is of another match")
    state: dict[str, Any] = stored.state
    try:
        match = Match.from_snapshot(blank.settings, state["match"])
        log_end, floor = state["log_end_ms"], state["device_floor_ms"]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Unreadable(f"the snapshot cannot be read: {exc!r}") from None
    if type(log_end) is not int or type(floor) is not int or stored.seq < 1:
        raise Unreadable("the snapshot's figures are not integers")
    if state.get("seq") != stored.seq:  # a row whose seq and body disagree
        raise Unreadable(f"the snapshot's body is of seq {state.get('seq')!r}, not {stored.seq}")
    return Base(seq=stored.seq, match=match, log_end_ms=log_end, device_floor_ms=floor)


def follows(base: Base, tail: list[StoredEvent]) -> bool:
    """``tail`` (in seq order) continues ``base``: its seqs follow on and each
    of its events folds after the base's (the snapshot is a prefix of the
    log's fold order)."""
    if not tail:
        return True
    if tail[0].seq != base.seq + 1 or tail[-1].seq != base.seq + len(tail):
        return False
    end = base.end_ms
    return all(e.at_ms >= end for e in tail)
