"""Double elimination at the desk (issue 35 §2; tournament.md section 6):
the winners' bracket is the Main (``_draw.MainDraw``, drawn as section 4
draws it, without late slots), the losers' bracket and the final (with
its reset) are two more events the desk runs like the consolation:
``losers`` and ``final``, rounds started at numbered tables, results from
the clocks or by hand, corrections and undo.

Theory of operation
-------------------
The losers' bracket and the final are folded from the Main's results and
their own: ``sync`` rebuilds the pure ``formats.DoubleElimination`` over
the Main's bracket (read, never changed) and replays the losers' and the
final's winners the desk holds, round by round, so who drops where is
always the format's drop-in order (``formats.double.DROP_OFFSETS``).  The
desk's matches are ``Match`` objects kept in the same places (round r,
match i of the losers' bracket is the format's slot r, i): a player facing
nobody (a winners' round-1 bye dropped nobody) has a bye, listed with ``b``
None and decided at once; nobody facing nobody is an empty match, never
ready and never listed on a sheet.  The final is round 1 of ``final``; its
reset, when the losers' champion wins it, is round 2.

A result moves nothing by itself in ``losers`` and ``final`` (``Rounds``):
``sync``, after every settling action, fills the next matches.  A
correction or an undo anywhere is taken only when no match that is at a
table or decided changes players (``check``: tried on a copy of the
event, in time proportional to the event); else it is refused, naming the
first such match.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from ._draw import Bracket, MainDraw, Match
from ._errors import IllegalContest
from ._weekly import Rounds
from .formats import DoubleElimination, Place

#: The double elimination's events past the Main (its winners' bracket).
DOUBLE_EVENTS: Final = ("losers", "final")

MatchKey = tuple[str, int, int]


@dataclass(slots=True, kw_only=True)
class DoubleDesk:
    """A double elimination's losers' bracket and final over the Main."""

    main: MainDraw
    losers: Rounds = field(default_factory=lambda: Rounds(size=0))
    final: Rounds = field(default_factory=lambda: Rounds(size=0))

    @classmethod
    def over(cls, main: MainDraw) -> DoubleDesk:
        desk = cls(main=main)
        shape = desk._elimination()
        desk.losers.rounds = [[Match() for _ in slots] for slots in shape.losers]
        desk.sync()
        return desk

    def _elimination(self) -> DoubleElimination:
        players = [n for n in self.main.bracket.slots() if n is not None]
        return DoubleElimination(players, random.Random(0), main=self.main)

    def bracket(self, event: str) -> Bracket:
        return self.losers if event == "losers" else self.final

    # ------------------------------------------------------------ folding

    def sync(self) -> DoubleElimination:
        """The losers' bracket and the final as the Main's results and the
        winners held make them; a held winner whose match changed players
        is dropped (``check`` refuses that where it matters)."""
        de = self._elimination()
        for r, row in enumerate(self.losers.rounds):
            for i, m in enumerate(row):
                s = de.losers[r][i]
                if not s.known:
                    m.a = m.b = m.winner = None
                    continue
                if (m.a, m.b) != (s.a, s.b):
                    m.a, m.b, m.winner = s.a, s.b, None
                if s.decided:
                    m.winner = s.winner
                elif m.winner is not None:
                    de.record("losers", r, i, m.winner)
        k = 0
        while True:
            due = next((x for x in de.ready() if x[0] == "final"), None)
            if due is None:
                break
            _, _, _, a, b = due
            if k == len(self.final.rounds):
                self.final.rounds.append([Match()])
            m = self.final.rounds[k][0]
            if (m.a, m.b) != (a, b):
                m.a, m.b, m.winner = a, b, None
            k += 1
            if m.winner is None:
                break
            de.record("final", k - 1, 0, m.winner)
        del self.final.rounds[k:]
        return de

    def check(self, changes: Iterable[tuple[MatchKey, str | None]],
              held: Iterable[MatchKey]) -> None:
        """Refused unless giving each match its winner (None: undecided)
        leaves every match in ``held`` (at a table or decided) of the
        losers' bracket and the final with the players it has now."""
        trial = copy.deepcopy(self)
        for (event, r, i), winner in changes:
            if event == "main":
                trial.main.bracket.rounds[r][i].winner = winner
                trial.main.bracket._move_on(r, i, winner)
            else:
                trial.bracket(event).rounds[r][i].winner = winner
        trial.sync()
        moved = {key for key, _ in changes}
        for key in sorted(held):
            event, r, i = key
            if event not in DOUBLE_EVENTS or key in moved:
                continue
            now = self.bracket(event).rounds[r][i]
            rows = trial.bracket(event).rounds
            then = rows[r][i] if r < len(rows) else None
            if then is None or (then.a, then.b) != (now.a, now.b):
                word = "the final" if event == "final" else "the losers' bracket"
                raise IllegalContest(
                    f"{word}'s round {r + 1} match {i + 1} ({now.a} – {now.b}) has started "
                    "or is decided with the players this result gave: undo that one first",
                    "double_match_started", {"event": event, "round": r + 1, "match": i + 1})

    # ------------------------------------------------------------ reading

    def standings(self) -> list[Place]:
        """Last in first, then by the round out, later first (section 6)."""
        return self.sync_view().standings()

    def sync_view(self) -> DoubleElimination:
        """The pure format as the desk holds it (a copy: the desk is unchanged)."""
        return copy.deepcopy(self).sync()

    @property
    def champion(self) -> str | None:
        return self.sync_view().champion

    def to_dict(self) -> dict[str, Any]:
        de = self.sync_view()
        return {"format": "double",
                "losers": self.losers.to_dict()["rounds"],
                "final": self.final.to_dict()["rounds"],
                "losers_champion": de.losers_champion, "champion": de.champion,
                "standings": [p.to_dict() for p in de.standings()]}
