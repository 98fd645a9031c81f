"""What every weekly format shares (tournament.md section 6): a played
match, a player's record, and places that ties share.

"A player's record is their wins and losses in the event; a bye counts as a
win."  A record is folded from the results, never kept beside them: the
results are the truth.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .._errors import InvalidContest

#: The most players a weekly format takes (pairing and the JSON both grow
#: with it; the spec checks 2 to 256).
MAX_FORMAT_PLAYERS: Final = 512


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """One decided match of a round: ``b`` is None for a bye (``winner`` is
    then ``a``)."""

    a: str
    b: str | None
    winner: str

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise InvalidContest(f"result: {self.a} cannot meet themselves")
        if self.winner not in (self.a, self.b):
            raise InvalidContest(f"result: the winner must be {self.a} or {self.b}")

    @property
    def loser(self) -> str | None:
        """The player who lost (None for a bye)."""
        if self.b is None:
            return None
        return self.b if self.winner == self.a else self.a

    @property
    def is_bye(self) -> bool:
        return self.b is None

    def to_dict(self) -> dict[str, str | None]:
        return {"a": self.a, "b": self.b, "winner": self.winner}


#: A round's pairing before its results: (a, b), b None for the bye.
Pair = tuple[str, str | None]


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """A player's record: wins (a bye counts as one), losses, byes and the
    opponents met, in round order (a rematch lists the opponent twice)."""

    player: str
    wins: int = 0
    losses: int = 0
    byes: int = 0
    opponents: tuple[str, ...] = ()

    @property
    def played(self) -> int:
        """Rounds played (a bye is a round played)."""
        return self.wins + self.losses


def records(players: Iterable[str], rounds: Iterable[Iterable[Result]]) -> dict[str, Record]:
    """Every player's record after ``rounds`` (players without a match yet
    have an empty one).  A name in a result that is not a player is refused."""
    wins: dict[str, int] = {}
    losses: dict[str, int] = {}
    byes: dict[str, int] = {}
    met: dict[str, list[str]] = {}
    for p in players:
        wins[p] = losses[p] = byes[p] = 0
        met[p] = []
    for matches in rounds:
        for m in matches:
            for name in (m.a, m.b):
                if name is not None and name not in wins:
                    raise InvalidContest(f"results: {name} is not a player of this event")
            wins[m.winner] += 1
            if m.b is None:
                byes[m.a] += 1
                continue
            loser = m.loser
            assert loser is not None
            losses[loser] += 1
            met[m.a].append(m.b)
            met[m.b].append(m.a)
    return {p: Record(player=p, wins=wins[p], losses=losses[p], byes=byes[p],
                      opponents=tuple(met[p])) for p in wins}


def met_pairs(rounds: Iterable[Iterable[Result]]) -> dict[frozenset[str], int]:
    """For every two players who met, the round (0-based) they first met in."""
    out: dict[frozenset[str], int] = {}
    for r, matches in enumerate(rounds):
        for m in matches:
            if m.b is not None:
                out.setdefault(frozenset((m.a, m.b)), r)
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """One line of the standings: a shared place is the best of the places
    shared (two players tied after the first both have place 2)."""

    player: str
    place: int
    wins: int
    losses: int

    def to_dict(self) -> dict[str, str | int]:
        return {"player": self.player, "place": self.place, "wins": self.wins,
                "losses": self.losses}


def ranked(players: Sequence[str], key: Callable[[str], Hashable],
           rec: Mapping[str, Record]) -> list[Place]:
    """Standings ordered by ``key`` (smaller first); players with equal keys
    share the best of their places ("1, 2, 2, 4"), listed by name order
    (P2 before P10)."""
    order = sorted(players, key=lambda p: (key(p), name_order(p)))
    out: list[Place] = []
    for i, p in enumerate(order):
        place = out[-1].place if out and key(order[i - 1]) == key(p) else i + 1
        out.append(Place(player=p, place=place, wins=rec[p].wins, losses=rec[p].losses))
    return out


def name_order(name: str) -> tuple[str, int, str]:
    """P2 before P10: a name's letters, then its trailing number."""
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    return (stem, int(digits) if digits else -1, name)


def whole_number(value: int, field: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else refused
    naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidContest(f"{field}: must be a whole number from {low} to {high}")
    return value


def check_players(players: Sequence[str], *, least: int = 2) -> list[str]:
    """The players of a format: ``least`` to MAX_FORMAT_PLAYERS different names."""
    names = list(players)
    if not least <= len(names) <= MAX_FORMAT_PLAYERS:
        raise InvalidContest(f"players: from {least} to {MAX_FORMAT_PLAYERS}")
    if any(not isinstance(n, str) or not n for n in names):
        raise InvalidContest("players: every player needs a name")
    if len(set(names)) != len(names):
        raise InvalidContest("players: names must be different")
    return names
