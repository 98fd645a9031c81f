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
from typing import TYPE_CHECKING, Any, Final

from msgspec import UnsetType

from ._errors import IllegalContest, InvalidContest
from .actions import JackpotBody, Reenter, Reentry

if TYPE_CHECKING:
    from ._running import Tournament

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


def entries(t: Tournament) -> int:
    """The players entered and still in (registered, not withdrawn)."""
    return sum(1 for p in t.players if not p.deleted and not p.withdrawn)


def check_entry(t: Tournament) -> None:
    """Refused when a registration would overfill the jackpot."""
    jp = t.jackpot
    if jp is None:
        return
    if t.main is not None or entries(t) >= jp.size:
        raise IllegalContest(f"the jackpot is full ({jp.size} players)", "jackpot_full",
                             {"n": jp.size})


def jackpot_due(t: Tournament) -> bool:
    """Whether the jackpot is full and not drawn yet: the server draws it
    and starts its round 1 now."""
    jp = t.jackpot
    return jp is not None and t.main is None and sum(
        1 for p in t.players if p.checked_in and not p.withdrawn and not p.deleted) == jp.size


def _lost(t: Tournament, name: str) -> tuple[int, bool]:
    """How many Main matches ``name`` lost, and whether they are in play
    (in a Main match without a winner)."""
    assert t.main is not None
    lost, live = 0, False
    for matches in t.main.bracket.rounds:
        for m in matches:
            if name not in (m.a, m.b):
                continue
            if m.winner is None:
                live = True
            elif m.a is not None and m.b is not None and m.winner != name:
                lost += 1
    return lost, live


def reenter(t: Tournament, a: Reenter) -> dict[str, Any]:
    """A re-entry: the seat (the Main's next late slot, or a More Swiss's
    next round) and one more entry in the ledger, or neither."""
    player = t.player(a.player)
    until = t.reentry_until_ms
    if player.withdrawn:
        raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                             {"player": player.name})
    if until is None:
        raise IllegalContest("re-entries are not taken: the director has set no re-entry "
                             "deadline (settings.reentry_until_ms)", "no_reentries")
    if a.at_ms > until:
        raise IllegalContest("the re-entry deadline has passed", "reentry_closed",
                             {"until_ms": until})
    weekly = t.weekly
    if weekly is not None:
        if weekly.format != "moreswiss":
            raise IllegalContest(f"a {weekly.format} takes no re-entries", "no_reentries_format",
                                 {"format": weekly.format})
        round_index = weekly.check_reenter(player.name, t.withdrawn)
        done = t.ledger.reenter(Reentry(player=player.id), player, True)
        weekly.reenter(player.name)
        return {"player": player.id, "round": round_index, "entries": done["entries"]}
    if t.double is not None:
        raise IllegalContest("a double elimination takes no re-entries",
                             "no_reentries_format", {"format": "double"})
    main = t.main
    if main is None:
        raise IllegalContest("the draw is not made yet: register the player instead",
                             "not_drawn")
    if player.name not in (t.draw_names() or set()):
        raise IllegalContest(f"{player.name} is not in the draw: a late arrival takes a "
                             "slot instead", "not_in_draw", {"player": player.name})
    lost, live = _lost(t, player.name)
    if live or lost < 1 + t.reentered.get(player.name, 0):
        raise IllegalContest(f"{player.name} is still in the Main", "not_knocked_out",
                             {"player": player.name})
    if not main.late_open or len(main.arrivals) >= len(main.late_positions):
        raise IllegalContest("no late slot of the Main is open: a re-entry takes one",
                             "no_late_slot")
    done = t.ledger.reenter(Reentry(player=player.id), player, True)
    position = main.arrive(player.name, again=True)
    t.reentered[player.name] = t.reentered.get(player.name, 0) + 1
    return {"player": player.id, "position": position, "entries": done["entries"]}
