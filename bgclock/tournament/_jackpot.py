"""Jackpots and re-entries at the desk (issue 35 §3).

Theory of operation
-------------------
A **jackpot** is a tournament whose settings carry ``jackpot: {size: 4 or
8, length, room?}``: a knockout of ``size`` players at one match length
(every round), no late slots, in the director's room when one is named.
Players enter on the spot, so a registration in a jackpot is also its
check-in; the ``size``-th entry fills it (``jackpot_due``), and the server
then stores, in the same request, the room (``flight``, when named and not
set yet), the draw and round 1's start at the room's tables.  The fold
only says whether the jackpot is full: the server draws its seed (as for
any draw), so the log replays the same draw.  An entry past the size, or
after the draw, is refused (``jackpot_full``).

A **re-entry** (``reenter``) is a new entry of a player already out: one
more entry fee in the ledger (the same ``Ledger.reenter`` the money's
``reentry`` action folds, so the fee and the seat never disagree) and a
seat:

- a knockout's Main: a player whose every entry so far lost a match takes
  the next open late slot (``MainDraw.arrive(again=True)``: the name is
  in the draw once more); refused while they are in play, with no late
  slot open, or once late arrivals are closed;
- a More Swiss: a player out (``losses`` losses on their current entry)
  re-enters the next round's pairing at 0 wins 0 losses (``Weekly.reenter``);
  refused once the event is over.

Both are refused after the director's ``settings.reentry_until_ms`` (the
action's ``at_ms`` is the server's clock), or when the director set none.
A Swiss, a round robin and a double elimination take no re-entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from msgspec import UnsetType

from ._errors import InvalidContest
from .actions import JackpotBody

#: A jackpot's sizes.
JACKPOT_SIZES: Final = (4, 8)


@dataclass(frozen=True, slots=True, kw_only=True)
class Jackpot:
    """A jackpot's size, match length and room (None: no room)."""

    size: int
    length: int
    room: str | None = None

    @classmethod
    def of(cls, body: JackpotBody) -> Jackpot:
        room = None if isinstance(body.room, UnsetType) or body.room is None \
            else " ".join(body.room.split())
        if room == "":
            raise InvalidContest("jackpot.room: a room needs a name")
        return cls(size=body.size, length=body.length, room=room)

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "length": self.length, "room": self.room}


def check_jackpot(jackpot: Jackpot | None, fmt: str, late_slots: int) -> None:
    """A jackpot is a knockout without late slots."""
    if jackpot is None:
        return
    if fmt != "knockout":
        raise InvalidContest("jackpot: a jackpot is a knockout (format knockout)")
    if late_slots:
        raise InvalidContest("late_slots: a jackpot takes no late-arrival slots (0)")
