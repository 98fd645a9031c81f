"""Flights: several events in one room, sharing its table numbers (issue 23 §1).

Theory of operation.  An *event* (a flight: Championship, Intermediate,
Beginners) is one tournament, with its own players, match length, rule-book
preset and late slots.  Events that name the same *room* share the room's
table numbers: ``1 .. tables`` (``tables`` = 0: no stated limit, the lowest
numbers no match holds).  A table number is free when no event of the room
has an undecided match (or a Swing or couples game) on it.

When matches want tables (a round start, or matches left waiting by an
earlier one), :func:`allocate` seats them in the room's *precedence order*
and leaves the rest waiting, in the same order, for the next table that
frees.  The Italian rule book says "Matches of the Championship and
Intermediate take precedence" (italian-tournament-rules.txt, the seating
clauses): the director gives each event a precedence number (1 first, so
Championship 1, Intermediate 2, Beginners 3) and the order is

1. the event's precedence (lower first);
2. the earlier round first (a match from a round already under way before a
   later round's);
3. the Main before its consolation before its Last Chance;
4. the lower match number (the draw sheet's order), then the event's name.

This module is pure: the server gathers the busy numbers and the claims of
every event in the room, asks :func:`allocate`, and records each event's
share as that event's own ``start_round`` action (its log stays the truth).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ._errors import InvalidContest

#: The longest room name.
MAX_ROOM_NAME: Final = 60
#: The largest precedence number a director may give.
MAX_PRECEDENCE: Final = 99
#: The largest table pool of a room (the fold's highest table number).
MAX_ROOM_TABLES: Final = 9999
#: Bracket order inside one event at the same round (the Main first).
BRACKET_ORDER: Final = {"main": 0, "consolation": 1, "last_chance": 2,
                         "losers": 1, "final": 2}

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Flight:
    """An event's place in a room: the room's name, the event's precedence
    and the room's table count as this event states it (0: no limit)."""

    room: str
    precedence: int = 1
    tables: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.room, str) or not self.room.strip() \
                or len(self.room) > MAX_ROOM_NAME or _CONTROL.search(self.room):
            raise InvalidContest(f"room: must be a name of 1 to {MAX_ROOM_NAME} characters")
        _bounded(self.precedence, "precedence", 1, MAX_PRECEDENCE)
        _bounded(self.tables, "tables", 0, MAX_ROOM_TABLES)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Flight:
        """The flight an action or a stored view gives (``room``, ``precedence``,
        ``tables``; the room's spacing tidied); ``InvalidContest`` naming the field."""
        room = data.get("room")
        if isinstance(room, str):
            room = " ".join(room.split())
        return cls(room=room,  # type: ignore[arg-type]  # checked on construction
                   precedence=data.get("precedence", 1), tables=data.get("tables", 0))

    def to_dict(self) -> dict[str, Any]:
        return {"room": self.room, "precedence": self.precedence, "tables": self.tables}


def _bounded(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidContest(f"{name}: must be a whole number from {low} to {high}")
    return value


def room_key(room: str) -> str:
    """Rooms are the same when their names are, ignoring case and spacing."""
    return " ".join(room.split()).casefold()


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A match that wants a table number: which event (``tournament``: its
    id, ``event``: its name), its precedence, and the match."""

    tournament: int
    event: str
    precedence: int
    bracket: str
    round: int
    match: int

    def order(self) -> tuple[int, int, int, int, str, int]:
        """The claim's place in the precedence order (module docstring)."""
        return (self.precedence, self.round, BRACKET_ORDER.get(self.bracket, 9), self.match,
                self.event, self.tournament)


@dataclass(frozen=True, slots=True, kw_only=True)
class Allocation:
    """What :func:`allocate` decided: each seated claim with its table
    number, and the claims left waiting, both in precedence order."""

    seated: tuple[tuple[Claim, int], ...]
    waiting: tuple[Claim, ...]

    def numbers(self) -> list[int]:
        return [n for _, n in self.seated]


def free_numbers(busy: Collection[int], tables: int, want: int) -> list[int]:
    """Up to ``want`` free table numbers, lowest first: from ``1 .. tables``,
    or any number when ``tables`` is 0 (no stated limit)."""
    out: list[int] = []
    n = 1
    limit = tables if tables > 0 else MAX_ROOM_TABLES
    while len(out) < want and n <= limit:
        if n not in busy:
            out.append(n)
        n += 1
    return out


def allocate(claims: Iterable[Claim], busy: Collection[int], tables: int) -> Allocation:
    """Seat ``claims`` at the room's free table numbers in precedence order:
    the first claims get the lowest free numbers, the rest wait.  ``busy``:
    the numbers any event of the room holds now; ``tables``: the room's
    pool (0: no limit).  A claim named twice is seated once."""
    _bounded(tables, "tables", 0, MAX_ROOM_TABLES)
    unique = sorted(set(claims), key=Claim.order)
    free = free_numbers(busy, tables, len(unique))
    seated = tuple(zip(unique, free, strict=False))
    return Allocation(seated=seated, waiting=tuple(unique[len(free):]))


def room_tables(flights: Iterable[Flight]) -> int:
    """The room's table pool from its events' flights: the smallest limit
    any of them states (a room cannot hold more tables than one event's
    director counted), 0 when none states one."""
    limits = [f.tables for f in flights if f.tables > 0]
    return min(limits) if limits else 0
