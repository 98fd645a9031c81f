"""Double elimination (tournament.md section 6; the Nordic Open, Monte
Carlo): a winners' bracket (a Main as in section 4, without late slots); a
player's first loss drops them into a losers' bracket; a second loss puts
them out; the winners' bracket champion meets the losers' bracket champion
in a final, and when the losers' bracket champion wins it, the two play once
more (the reset, as Challonge and the Nordic Open play it).

Theory of operation
-------------------
The winners' bracket is ``_draw.MainDraw`` (size S = 2**k, byes spread as
section 4 spreads them).  The losers' bracket has 2(k - 1) rounds:

- round 1 pairs the losers of winners' round 1 (matches 2i and 2i+1);
- for winners' round r = 2..k, a *drop* round: the survivors of the losers'
  bracket (one per winners' round-r match) each meet a loser of winners'
  round r: slot j meets the loser of match ``j XOR c_r``;
- after each drop round but the last, a *merge* round pairs its winners
  (2j and 2j+1).

Two players can meet a second time in the losers' bracket only when one of
them beat the other in the winners' bracket, that is when a player who lost
winners' round r meets one who came from under that round-r match.  Every
losers' slot carries the set of winners' matches its player can have come
from; a match *can be a rematch* when one side's set holds a match under
(an ancestor of) one on the other side.  The offsets ``c_r`` are, per size, those
whose rounds' counts of matches that can be rematches are the least in order
from the first round on (the lexicographic least over the XOR orders:
``search_offsets``, an exhaustive search, made the table ``DROP_OFFSETS``).
No order of any kind does better for S = 8 and 16 (checked against every
order in tests/tournament/test_double.py).  The first losers' round where a
rematch can happen: 3 of 4 for S = 8, 4 of 6 for 16, 5 of 8 for 32, 7 of 10
for 64, 8 of 12 for 128, 9 of 14 for 256.

Slots hold players, or nobody where a winners' round-1 match was a bye (no
loser): a player facing nobody moves on (a bye, listed with ``b`` None and
counted as a win, as section 6 counts byes); nobody facing nobody is no
match and is not listed.

Standings: the last player in first, then by the round in which a player
went out (the losers' bracket's rounds in order, then the final), later
first; players out in the same round share the place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .._draw import Bracket, MainDraw
from .._errors import IllegalContest, InvalidContest
from ._common import Place, Result, check_players, ranked, records

Section = Literal["winners", "losers", "final"]
SECTIONS: Final = ("winners", "losers", "final")

#: A losers' bracket slot's source: ("W", r, j) the loser of winners' round
#: r (0-based) match j, or ("L", r, j) the winner of losers' round r match j.
Source = tuple[str, int, int]

def _ancestors(labels: frozenset[tuple[int, int]], k: int) -> set[tuple[int, int]]:
    """The winners' matches (1-based round, index) above ``labels``."""
    out: set[tuple[int, int]] = set()
    for s, i in labels:
        for r in range(s + 1, k + 1):
            out.add((r, i >> (r - s)))
    return out


def _clash(x: frozenset[tuple[int, int]], y: frozenset[tuple[int, int]], k: int) -> bool:
    """Whether a player from ``x`` and one from ``y`` can have met already."""
    return bool(_ancestors(x, k) & y or _ancestors(y, k) & x)


def conflicts(size: int, offsets: Sequence[int]) -> list[int]:
    """For each losers' round, how many of its matches can be rematches,
    with drop offsets ``offsets`` (c_2.., as many as given: the rounds up to
    the last given drop's merge)."""
    k = size.bit_length() - 1
    out: list[int] = []
    if k < 2:
        return out
    slots = [frozenset({(1, 2 * i)}) | {(1, 2 * i + 1)} for i in range(size // 4)]
    out.append(0)  # two round-1 losers never met
    for r in range(2, min(k, len(offsets) + 1) + 1):
        c = offsets[r - 2]
        drops = [frozenset({(r, j ^ c)}) for j in range(len(slots))]
        out.append(sum(_clash(s, d, k) for s, d in zip(slots, drops, strict=True)))
        slots = [s | d for s, d in zip(slots, drops, strict=True)]
        if r < k:
            out.append(sum(_clash(slots[2 * j], slots[2 * j + 1], k)
                           for j in range(len(slots) // 2)))
            slots = [slots[2 * j] | slots[2 * j + 1] for j in range(len(slots) // 2)]
    return out


def search_offsets(size: int) -> tuple[tuple[int, ...], list[int]]:
    """The XOR offsets c_2..c_k of a bracket of ``size`` whose rounds' counts
    of possible rematches are the lexicographic least (the first round
    first), the smallest offsets among equals, and those counts: an
    exhaustive search with branch and bound (256: about 2.5 minutes, hence
    the table ``DROP_OFFSETS`` made by it)."""
    k = size.bit_length() - 1
    best: list[tuple[list[int], tuple[int, ...]]] = []
    if k < 2:
        return (), []

    def worse(prefix: list[int]) -> bool:
        return bool(best) and prefix > best[0][0][:len(prefix)]

    def walk(r: int, slots: list[frozenset[tuple[int, int]]], prefix: list[int],
             offsets: tuple[int, ...]) -> None:
        if r > k:
            if not best or prefix < best[0][0]:
                best[:] = [(prefix, offsets)]
            return
        m = size >> r
        for c in range(m):
            drops = [frozenset({(r, j ^ c)}) for j in range(m)]
            p = [*prefix, sum(_clash(s, d, k) for s, d in zip(slots, drops, strict=True))]
            if worse(p):
                continue
            grown = [s | d for s, d in zip(slots, drops, strict=True)]
            if r < k:
                p.append(sum(_clash(grown[2 * j], grown[2 * j + 1], k)
                             for j in range(m // 2)))
                if worse(p):
                    continue
                grown = [grown[2 * j] | grown[2 * j + 1] for j in range(m // 2)]
            walk(r + 1, grown, p, (*offsets, c))

    walk(2, [frozenset({(1, 2 * i), (1, 2 * i + 1)}) for i in range(size // 4)], [0], ())
    return best[0][1], best[0][0]


#: ``search_offsets`` for every bracket size a double elimination takes
#: (tests/tournament/test_double.py recomputes them up to 128).
DROP_OFFSETS: Final[dict[int, tuple[int, ...]]] = {
    2: (), 4: (0,), 8: (1, 0), 16: (2, 0, 0), 32: (2, 2, 0, 0), 64: (4, 4, 3, 0, 0),
    128: (8, 8, 6, 0, 0, 0), 256: (8, 8, 6, 4, 3, 0, 0),
}

#: The most players of a double elimination (the largest size in the table).
MAX_DOUBLE_PLAYERS: Final = max(DROP_OFFSETS)


def drop_offsets(size: int) -> tuple[int, ...]:
    """The drop offsets c_2..c_k of a bracket of ``size`` (a power of 2)."""
    if size not in DROP_OFFSETS:
        raise InvalidContest(f"players: a double elimination takes 2 to {MAX_DOUBLE_PLAYERS}")
    return DROP_OFFSETS[size]


@dataclass(slots=True, kw_only=True)
class _Slot:
    """A losers' bracket match: its two sources and what is known of them."""

    a_src: Source
    b_src: Source
    a: str | None = None
    b: str | None = None
    known: bool = False
    #: decided: the winner (a player) or None with ``decided`` (nobody moves on)
    winner: str | None = None
    decided: bool = False


class DoubleElimination:
    """A double elimination for ``players``: draw at construction (the
    winners' bracket from ``rng``), then results by ``record`` as matches
    become ``ready``."""

    def __init__(self, players: Sequence[str], rng: random.Random, *,
                 main: MainDraw | None = None) -> None:
        """``main``: a winners' bracket drawn already (the desk's Main, read
        here and never changed: its results are the desk's), else drawn
        from ``rng`` without late slots."""
        self.players = check_players(players)
        if len(self.players) > MAX_DOUBLE_PLAYERS:
            raise InvalidContest(f"players: a double elimination takes 2 to {MAX_DOUBLE_PLAYERS}")
        self.main = main if main is not None else MainDraw(self.players, late_slots=0, rng=rng)
        self.winners: Bracket = self.main.bracket
        size = self.winners.size
        self.k = size.bit_length() - 1
        self.offsets = drop_offsets(size)
        self.losers: list[list[_Slot]] = []
        if self.k >= 2:
            self.losers.append([_Slot(a_src=("W", 0, 2 * i), b_src=("W", 0, 2 * i + 1))
                                for i in range(size // 4)])
            for r in range(2, self.k + 1):
                prev = len(self.losers) - 1
                c = self.offsets[r - 2]
                m = size >> r
                self.losers.append([_Slot(a_src=("L", prev, j), b_src=("W", r - 1, j ^ c))
                                    for j in range(m)])
                if r < self.k:
                    drop = len(self.losers) - 1
                    self.losers.append([_Slot(a_src=("L", drop, 2 * j),
                                              b_src=("L", drop, 2 * j + 1))
                                        for j in range(m // 2)])
        self.final: list[Result] = []
        self._pending_final: tuple[str, str] | None = None
        self._settle()

    # -- what is known -------------------------------------------------------
    def _source(self, src: Source) -> tuple[bool, str | None]:
        """(known, player or None for nobody)."""
        kind, r, j = src
        if kind == "W":
            m = self.winners.rounds[r][j]
            if m.winner is None:
                return False, None
            if m.a is None or m.b is None:
                return True, None  # a bye: nobody drops
            return True, m.b if m.winner == m.a else m.a
        slot = self.losers[r][j]
        return slot.decided, slot.winner

    def _settle(self) -> None:
        """Fill what the results decide: slots, byes, the final."""
        for matches in self.losers:
            for s in matches:
                if s.decided:
                    continue
                if not s.known:
                    ka, a = self._source(s.a_src)
                    kb, b = self._source(s.b_src)
                    if not (ka and kb):
                        continue
                    if a is None:  # a player facing nobody is listed first
                        a, b = b, None
                    s.a, s.b, s.known = a, b, True
                if s.a is None or s.b is None:
                    s.winner, s.decided = s.a, True
        if self._pending_final is None and not self.final:
            top = self.winners.champion
            bottom = self.losers_champion
            if top is not None and bottom is not None:
                self._pending_final = (top, bottom)

    @property
    def losers_champion(self) -> str | None:
        """The losers' bracket's winner, once known."""
        if self.k < 2:
            w = self.winners.rounds[0][0]
            if w.winner is None or w.a is None or w.b is None:
                return None
            return w.b if w.winner == w.a else w.a
        last = self.losers[-1][0]
        return last.winner if last.decided else None

    @property
    def champion(self) -> str | None:
        """The event's winner, once the final (and its reset) is played."""
        if not self.final:
            return None
        last = self.final[-1]
        if len(self.final) == 1 and last.winner == last.b:
            return None  # the reset is to play
        return last.winner

    def ready(self) -> list[tuple[Section, int, int, str, str]]:
        """The matches whose two players are known and which have no result:
        (section, round, index, a, b), in bracket order."""
        out: list[tuple[Section, int, int, str, str]] = []
        for r, matches in enumerate(self.winners.rounds):
            for i, m in enumerate(matches):
                if m.winner is None and m.a is not None and m.b is not None:
                    out.append(("winners", r, i, m.a, m.b))
        for r, slots in enumerate(self.losers):
            for i, s in enumerate(slots):
                if s.known and not s.decided and s.a is not None and s.b is not None:
                    out.append(("losers", r, i, s.a, s.b))
        if self._pending_final is not None:
            a, b = self._pending_final
            out.append(("final", len(self.final), 0, a, b))
        return out

    def record(self, section: Section, round_index: int, index: int, winner: str) -> None:
        """A match's result; refused (nothing changed) unless it is ready
        and ``winner`` plays in it."""
        match = next((m for m in self.ready()
                      if m[:3] == (section, round_index, index)), None)
        if section not in SECTIONS:
            raise InvalidContest(f"section: one of {', '.join(SECTIONS)}")
        if match is None:
            raise IllegalContest(f"{section} round {round_index + 1} match {index + 1} is "
                                 "not ready to play (or already decided)")
        a, b = match[3], match[4]
        if winner not in (a, b):
            raise InvalidContest(f"winner: must be {a} or {b}")
        if section == "winners":
            self.winners.set_winner(round_index, index, winner)
        elif section == "losers":
            s = self.losers[round_index][index]
            s.winner, s.decided = winner, True
        else:
            self.final.append(Result(a=a, b=b, winner=winner))
            # the losers' champion won the first final: the reset, the same two
            self._pending_final = (a, b) if len(self.final) == 1 and winner == b else None
        self._settle()

    # -- results and standings -----------------------------------------------
    def winners_results(self) -> list[list[Result]]:
        """The winners' bracket's decided matches by round (a bye: b None)."""
        out = []
        for matches in self.winners.rounds:
            row = []
            for m in matches:
                if m.winner is None:
                    continue
                a = m.a if m.a is not None else m.b
                b = m.b if m.a is not None else None
                assert a is not None
                row.append(Result(a=a, b=b, winner=m.winner))
            out.append(row)
        return out

    def losers_results(self) -> list[list[Result]]:
        """The losers' bracket's decided matches by round (nobody against
        nobody is not listed)."""
        return [[Result(a=s.a, b=s.b, winner=s.winner) for s in slots
                 if s.decided and s.a is not None and s.winner is not None]
                for slots in self.losers]

    def results(self) -> list[list[Result]]:
        """Every decided match: the winners', the losers', the final."""
        return [*self.winners_results(), *self.losers_results(), list(self.final)]

    def out_stage(self) -> dict[str, int]:
        """For every player out, when: the losers' round (0-based) of their
        second loss, or ``len(losers)`` for the final."""
        out: dict[str, int] = {}
        for r, slots in enumerate(self.losers_results()):
            for m in slots:
                if m.loser is not None:
                    out[m.loser] = r
        champion = self.champion
        if champion is not None:
            last = self.final[-1]
            loser = last.loser
            assert loser is not None
            out[loser] = len(self.losers)
        return out

    def standings(self) -> list[Place]:
        """The last player in first, then by the round out, later first."""
        rec = records(self.players, self.results())
        out = self.out_stage()
        return ranked(self.players, lambda p: (0, 0) if p not in out else (1, -out[p]), rec)

    def to_dict(self) -> dict[str, object]:
        return {"format": "double",
                "winners": [[m.to_dict() for m in r] for r in self.winners_results()],
                "losers": [[m.to_dict() for m in r] for r in self.losers_results()],
                "final": [m.to_dict() for m in self.final],
                "standings": [p.to_dict() for p in self.standings()]}
