"""The weekly formats at the desk (issue 35 §2 and §4): a Swiss, a More Swiss
or a round robin run as a tournament's event, folded from the same log as
the Main (``_running.Tournament`` keeps one ``Weekly`` instead of a
``MainDraw`` when the settings' ``format`` asks for one).

Theory of operation
-------------------
``draw`` fixes the field (every checked-in player still in, in id order)
and the event's seed (a round robin's schedule comes from it).  No round is
paired then: ``pair_round`` pairs the next round, when the director starts
it, from the results known at that moment.  The pairing is an input stored
in the action (its pairs, its bye and the seed it was drawn with): the fold
checks that it pairs exactly the players due (the field's players still in,
each once, a bye only for an odd number) and never pairs again, so a log
replays the same rounds whatever the pairing code becomes.  The server
draws it with ``next_pairing`` (the pure ``formats`` pairing, from
``random.Random(seed)``).

The rounds are a ``Rounds`` bracket under the event ``main``: round r's
matches are the pairs in order, the bye last (``b`` None, its winner set at
once).  Nothing moves from one round to the next, so a result, a
correction and its undo, a table, a clock's result, a late count, a score
sheet, a withdrawal (the opponent wins the match under way) and the rating
run take the Main's paths unchanged.

A later round was paired from the results of the rounds before it: a
correction (or its undo) of a result in a round that is no longer the last
is taken only when every later round's pairing, drawn again with its own
seed from the changed results, comes out the same; else it is refused with
the first pairing it would change (``pairing_would_change``).  A result's
undo (the match undecided again) in a round a later round was paired from
is refused, naming the round and how many of its matches are decided
(``round_paired``): a round is paired only from a complete round before it.
A round robin's schedule does not depend on results, so its results can
always be corrected.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ._draw import Bracket, Match
from ._errors import IllegalContest, InvalidContest
from .formats import (
    FieldRow,
    Pair,
    Place,
    Result,
    explain,
    field_table,
    met_pairs,
    moreswiss_standings,
    pair_round,
    records,
    roundrobin_schedule,
    roundrobin_standings,
    swiss_standings,
)
from .formats.pairing import Pairing

#: The formats an event can be (``knockout``: the Main of section 4;
#: ``double``: the Main as a winners' bracket, ``_double``).
WEEKLY: Final = ("swiss", "moreswiss", "roundrobin")
FORMATS: Final = ("knockout", *WEEKLY, "double")
#: A re-entered player's earlier entry is named ``name`` + ``GHOST`` + its
#: number in the records (no name holds a control character).
GHOST: Final = "\x1f"


def ghost_name(name: str, n: int) -> str:
    """The name of a re-entered player's ``n``-th earlier entry (1 first)."""
    return f"{name}{GHOST}{n}"


def real_name(name: str) -> str:
    return name.split(GHOST, 1)[0]


class Rounds(Bracket):
    """A weekly format's rounds: a winner stays in its match (nothing moves on)."""

    def _move_on(self, round_index: int, match_index: int, winner: str | None) -> None:
        """Nothing moves on: the next round is paired from the results."""

    @property
    def champion(self) -> str | None:
        return None


@dataclass(slots=True, kw_only=True)
class Weekly:
    """A weekly format's field, its rounds and each round's pairing seed."""

    format: str
    players: list[str]
    seed: int
    #: A Swiss's rounds; a More Swiss's losses (the one that puts a player out).
    total: int | None = None
    losses: int | None = None
    bracket: Rounds = field(default_factory=lambda: Rounds(size=0))
    #: Each round's pairing seed, in order.
    seeds: list[int] = field(default_factory=list)
    #: A More Swiss's re-entries: name -> the rounds (0-based) each new
    #: entry started from (``_jackpot``); its matches before are its
    #: earlier entries' (``ghost_name``), so its record starts at 0-0.
    reentries: dict[str, list[int]] = field(default_factory=dict)

    # ------------------------------------------------------------ reading

    def results(self, upto: int | None = None) -> list[list[Result]]:
        """The decided matches of the rounds before ``upto`` (all: None)."""
        out = []
        for matches in self.bracket.rounds[:upto]:
            out.append([Result(a=m.a, b=m.b, winner=m.winner) for m in matches
                        if m.a is not None and m.winner is not None])
        return out

    def _entry(self, name: str | None, r: int) -> str | None:
        """Who ``name`` was in round ``r``: the player, or an earlier entry."""
        starts = self.reentries.get(name or "")
        if not starts or name is None:
            return name
        n = sum(1 for k in starts if k <= r)
        return name if n == len(starts) else ghost_name(name, n + 1)

    def entries(self, upto: int | None = None) -> tuple[list[str], list[list[Result]]]:
        """The entries (the players, and re-entered players' earlier
        entries) and the results of the rounds before ``upto`` by entry."""
        results = self.results(upto)
        if not self.reentries:
            return list(self.players), results
        names = list(self.players) + [ghost_name(p, n + 1) for p, ks in self.reentries.items()
                                      for n in range(len(ks))]
        out = [[Result(a=self._entry(m.a, r) or "", b=self._entry(m.b, r),
                       winner=self._entry(m.winner, r) or "") for m in matches]
               for r, matches in enumerate(results)]
        return names, out

    def records(self, upto: int | None = None) -> dict[str, Any]:
        """Every entry's record after the rounds before ``upto``."""
        return records(*self.entries(upto))

    def check_reenter(self, name: str, withdrawn: set[str]) -> int:
        """The round a More Swiss re-entry of ``name`` plays first; refused
        (naming why) unless ``name`` is out and the event is not over."""
        if name not in self.players:
            raise IllegalContest(f"{name} is not in this event's field", "not_in_draw",
                                 {"player": name})
        assert self.losses is not None
        if self.records()[name].losses < self.losses:
            raise IllegalContest(f"{name} is still in the event", "not_knocked_out",
                                 {"player": name})
        if self.finished(withdrawn):
            raise IllegalContest("every round of this event is played", "event_over")
        return len(self.bracket.rounds)

    def reenter(self, name: str) -> None:
        """``name`` enters again: from the next round to pair, at 0-0."""
        self.reentries.setdefault(name, []).append(len(self.bracket.rounds))

    def round_done(self, r: int) -> bool:
        return all(m.winner is not None for m in self.bracket.rounds[r])

    def schedule(self) -> list[list[Pair]]:
        """A round robin's rounds (from the event's seed)."""
        return roundrobin_schedule(self.players, random.Random(self.seed))

    def due(self, withdrawn: set[str], upto: int | None = None) -> list[str]:
        """The players the round after ``upto`` rounds pairs (the next: None):
        a round robin's whole field, else the players still in (a More Swiss:
        fewer losses than the limit) who have not withdrawn."""
        if self.format == "roundrobin":
            return list(self.players)
        rec = self.records(upto)
        return [p for p in self.players if p not in withdrawn
                and (self.losses is None or rec[p].losses < self.losses)]

    def over(self, withdrawn: set[str]) -> bool:
        """No round is left to pair (the last one may still be under way)."""
        n = len(self.bracket.rounds)
        if self.format == "swiss":
            return n >= (self.total or 0)
        if self.format == "roundrobin":
            return n >= len(self.schedule())
        return len(self.due(withdrawn)) < 2

    def finished(self, withdrawn: set[str]) -> bool:
        """Every round is paired and played."""
        rounds = self.bracket.rounds
        return self.over(withdrawn) and (not rounds or self.round_done(len(rounds) - 1))

    def can_pair(self, withdrawn: set[str]) -> None:
        """Refused (naming why) unless the next round can be paired now."""
        n = len(self.bracket.rounds)
        if n and not self.round_done(n - 1):
            raise IllegalContest(f"round {n} is not over: the next round is paired from its "
                                 "results", "round_not_over", {"round": n})
        if self.over(withdrawn):
            raise IllegalContest("every round of this event is played", "event_over")
        if len(self.due(withdrawn)) < 2:
            raise IllegalContest("fewer than two players are left to pair", "event_over")

    def next_pairing(self, seed: int, withdrawn: set[str]) -> list[Pair]:
        """The next round's pairs (the bye last, as ``(player, None)``) drawn
        from ``random.Random(seed)``: the pairing of section 6, or a round
        robin's scheduled round."""
        self.can_pair(withdrawn)
        return self._pairing(len(self.bracket.rounds), seed, withdrawn).round() \
            if self.format != "roundrobin" else self.schedule()[len(self.bracket.rounds)]

    def _pairing(self, r: int, seed: int, withdrawn: set[str]) -> Pairing:
        return pair_round(self.due(withdrawn, r), self.records(r), random.Random(seed))

    # ------------------------------------------------------------ acting

    def pair(self, r: int, seed: int, pairs: Sequence[Sequence[str]], bye: str | None,
             withdrawn: set[str]) -> dict[str, Any]:
        """Round ``r`` paired as the action says (checked, not drawn again)."""
        n = len(self.bracket.rounds)
        if r != n:
            raise InvalidContest(f"round: the next round to pair is {n} (0-based)")
        self.can_pair(withdrawn)
        due = set(self.due(withdrawn))
        seen: list[str] = [x for pair in pairs for x in pair] + ([bye] if bye else [])
        for name in seen:
            if name not in due:
                raise InvalidContest(f"pairs: {name} is not a player due in this round")
        if len(set(seen)) != len(seen) or set(seen) != due:
            raise InvalidContest("pairs: every player due must be paired once "
                                 f"({len(due)} players)")
        if (bye is not None) != (len(due) % 2 == 1):
            raise InvalidContest("bye: one bye exactly when the players due are odd in number")
        matches = [Match(a=a, b=b) for a, b in pairs]
        if bye is not None:
            matches.append(Match(a=bye, b=None, winner=bye))
        self.bracket.rounds.append(matches)
        self.seeds.append(seed)
        return {"round": r, "matches": len(matches), "bye": bye}

    def check_change(self, r: int, change: Any, withdrawn: set[str]) -> None:
        """Refused unless ``change()`` (a result of round ``r`` changed in
        place; it returns the undo) leaves every later round's pairing as
        it was drawn.  The change is always undone here."""
        if r + 1 >= len(self.bracket.rounds) or self.format == "roundrobin":
            return  # nothing paired from it (a round robin's schedule: never)
        undo = change()
        try:
            for k in range(r + 1, len(self.bracket.rounds)):
                if any(m.winner is None for m in self.bracket.rounds[k - 1]):
                    raise IllegalContest(
                        f"round {k + 1} is paired from this result ({self._decided(k)}): "
                        f"undoing it would undo that pairing; correct it instead",
                        "round_paired", {"round": k + 1, "decided": self._decided_n(k)})
                held = self.bracket.rounds[k]
                again = self._pairing(k, self.seeds[k], withdrawn).round()
                if _pairs_of(again) != _pairs_of([(m.a or "", m.b) for m in held]):
                    raise IllegalContest(
                        f"round {k + 1} was paired from this result: with it, its pairing "
                        "would be different; the correction is refused",
                        "pairing_would_change", {"round": k + 1})
        finally:
            undo()

    def _decided_n(self, k: int) -> int:
        return sum(1 for m in self.bracket.rounds[k] if m.b is not None and m.winner)

    def _decided(self, k: int) -> str:
        played = sum(1 for m in self.bracket.rounds[k] if m.b is not None)
        return f"{played} matches, {self._decided_n(k)} decided"

    # ------------------------------------------------------------ the views

    def standings(self) -> list[Place]:
        """The format's standings with its tie-breaks (section 6); a
        re-entered player at their last entry's place (the earlier entries
        are not listed: the places below close up)."""
        names, results = self.entries()
        if self.format == "swiss":
            return swiss_standings(names, results)
        if self.format == "moreswiss":
            assert self.losses is not None
            return _players_only(moreswiss_standings(names, results, losses=self.losses))
        return roundrobin_standings(names, results)

    def field(self) -> list[FieldRow]:
        """The table of records (Swiss and More Swiss; a round robin: none)."""
        if self.format == "roundrobin":
            return []
        names, results = self.entries()
        if self.format == "swiss":
            return field_table(names, results, rounds=self.total)
        return [replace(row, opponents=tuple(real_name(o) for o in row.opponents))
                for row in field_table(names, results, losses=self.losses)
                if GHOST not in row.player]

    def reasons(self, r: int) -> list[str]:
        """Round ``r``'s pairing explained (why a float, why a rematch, why the bye)."""
        if not 0 <= r < len(self.bracket.rounds):
            raise InvalidContest(f"round: must be a paired round, 0 to "
                                 f"{len(self.bracket.rounds) - 1}")
        if self.format == "roundrobin":
            return ["a round robin's rounds are its schedule: every two players meet once"]
        _, before = self.entries(r)
        rec = self.records(r)
        matches = self.bracket.rounds[r]
        pairs = tuple((m.a or "", m.b or "") for m in matches if m.b is not None)
        bye = next((m.a for m in matches if m.b is None), None)
        met = met_pairs(before)
        pairing = Pairing(
            pairs=pairs, bye=bye,
            rematches=sum(1 for a, b in pairs if frozenset((a, b)) in met),
            spread=sum((rec[a].losses - rec[b].losses) ** 2 for a, b in pairs))
        return explain(pairing, rec, met).lines()

    def to_dict(self, withdrawn: set[str]) -> dict[str, Any]:
        return {"format": self.format, "players": list(self.players), "seed": self.seed,
                "rounds_total": self.total, "losses": self.losses,
                "paired": len(self.bracket.rounds), "seeds": list(self.seeds),
                "over": self.over(withdrawn), "finished": self.finished(withdrawn),
                "reentries": {k: list(v) for k, v in self.reentries.items()},
                "field": [r.to_dict() for r in self.field()],
                "standings": [p.to_dict() for p in self.standings()]}


def _players_only(places: Sequence[Place]) -> list[Place]:
    """The standings without earlier entries: the places close up (equal
    places stay shared)."""
    out: list[Place] = []
    last_was = None
    for k, p in enumerate(x for x in places if GHOST not in x.player):
        place = out[-1].place if out and p.place == last_was else k + 1
        last_was = p.place
        out.append(replace(p, place=place))
    return out


def _pairs_of(pairs: Sequence[tuple[str, str | None]]) -> set[frozenset[str | None]]:
    return {frozenset((a, b)) for a, b in pairs}
