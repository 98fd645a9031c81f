"""The director's view of a Swiss or More Swiss field (issue 35 §4): the
table of records (wins, losses, byes, opponents met), who is out and who can
still win.  The pairing's reasons are ``pairing.explain``.

Readings: in a More Swiss every player in can still win (winning every
match from now on leaves them the last one in); in a Swiss a player can
still finish first on wins while their wins plus the rounds left reach the
leader's wins (the tie-break may still place them below).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .._errors import InvalidContest
from ._common import Result, check_players, name_order, records
from .moreswiss import check_losses
from .swiss import check_rounds


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldRow:
    """One player's line of the field."""

    player: str
    wins: int
    losses: int
    byes: int
    opponents: tuple[str, ...]
    out: bool
    can_still_win: bool

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "wins": self.wins, "losses": self.losses,
                "byes": self.byes, "opponents": list(self.opponents), "out": self.out,
                "can_still_win": self.can_still_win}


def field_table(players: Sequence[str], results: Sequence[Sequence[Result]], *,
          rounds: int | None = None, losses: int | None = None) -> list[FieldRow]:
    """The field after ``results``: a Swiss of ``rounds`` rounds or a More
    Swiss out at ``losses`` losses (exactly one of the two), the players in
    first, then by wins, fewer losses, name."""
    names = check_players(players)
    if (rounds is None) == (losses is None):
        raise InvalidContest("format: give rounds (Swiss) or losses (More Swiss), one of them")
    rec = records(names, results)
    if rounds is not None:
        check_rounds(rounds)
        left = max(0, rounds - len(results))
        top = max(r.wins for r in rec.values())
        out = dict.fromkeys(names, False)
        can = {p: rec[p].wins + left >= top for p in names}
    else:
        assert losses is not None
        check_losses(losses)
        out = {p: rec[p].losses >= losses for p in names}
        can = {p: not out[p] for p in names}
    rows = [FieldRow(player=p, wins=rec[p].wins, losses=rec[p].losses, byes=rec[p].byes,
                     opponents=rec[p].opponents, out=out[p], can_still_win=can[p])
            for p in names]
    rows.sort(key=lambda r: (r.out, -r.wins, r.losses, name_order(r.player)))
    return rows
