"""Score sheets of a hand-entered match (Italian rule book; tournament.md section 5).

"It's the leading player's duty to check if the score sheets match together:
in case of a failure the score sheet of the trailing player will be valid."

A sheet is what a player hands in: the winner, and either the running score
game by game (``games``: the score after each game, as the rule book's sheet
keeps it) or only the final score (``score``), or just the winner.  ``via``
says how it reached the desk: ``player`` (handed in at the table with the
player's own confirmation, their sheet PIN), ``director`` (the director entered
it, from the paper sheet), ``table`` (the table's token alone: any of the two
players, or anyone at the table, could have sent it).

``settle(a, b)`` is the pure decision (docs/tournament.md, "Score sheets"):

- one sheet missing: ``waiting``;
- a sheet that is not its player's own (``via`` ``table``): ``director``
  (a result is *agreed* only from the two players' own sheets);
- the two sheets the same: ``agreed``;
- they differ and both keep the running score: the *trailing player* is the
  one behind at the start of the first game where they differ; the match
  stands as that player's sheet says (``trailing``), flagged to the director,
  who may still correct it.  Level at that start (no one trails): ``director``;
- they differ and one holds only a final result: ``director``, seeing both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ._errors import InvalidContest

SIDES: Final = ("A", "B")
#: How a sheet reached the desk; the first two are the player's own.
VIAS: Final = ("player", "director", "table")
CONFIRMED: Final = frozenset({"player", "director"})
#: A running score has at most this many lines (games and penalty lines).
MAX_GAMES: Final = 256
MAX_POINTS: Final = 999


@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet:
    """One player's score sheet of a match."""

    winner: str
    #: The final score [A, B], when the sheet gives it (the last line of ``games``).
    score: tuple[int, int] | None = None
    #: The running score after each game, [A, B] per line, when the sheet keeps it.
    games: tuple[tuple[int, int], ...] | None = None
    via: str = "director"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner}
        if self.score is not None:
            out["score"] = list(self.score)
        if self.games is not None:
            out["games"] = [list(g) for g in self.games]
        out["via"] = self.via
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """What two sheets decide."""

    #: ``waiting`` (a sheet is missing), ``agreed``, ``trailing`` (the trailing
    #: player's sheet stands, flagged) or ``director`` (the director settles).
    outcome: str
    winner: str | None = None
    score: tuple[int, int] | None = None
    #: ``trailing``: whose sheet stands, and the first game (1-based) where they differ.
    trailing: str | None = None
    game: int | None = None
    #: The two sheets say different things.
    mismatch: bool = False
    #: Why the director must settle (``director``), in words.
    why: str | None = None


def parse_sheet(winner: str, given_score: Sequence[int] | None,
                given_games: Sequence[Sequence[int]] | None, players: tuple[str, str],
                length: int, via: str, start: tuple[int, int] = (0, 0)) -> Sheet:
    """A sheet from an action's ``winner``, ``score``? and ``games``?
    (``actions.Sheet``), checked against the match's players and length
    (errors name the field).  The running score counts from ``start``, the
    score the match began at (0-0, or the points a late arrival cost)."""
    if via not in VIAS:
        raise InvalidContest(f"via: must be one of {', '.join(VIAS)}")
    if winner not in players:
        raise InvalidContest(f"winner: must be {players[0]} or {players[1]}")
    w = players.index(winner)
    score: tuple[int, int] | None = None
    if given_score is not None:
        score = _pair(given_score, "score")
    games: tuple[tuple[int, int], ...] | None = None
    if given_games is not None:
        raw = given_games
        if not 1 <= len(raw) <= MAX_GAMES:
            raise InvalidContest(f"games: must list the score after each game, 1 to "
                                 f"{MAX_GAMES} lines of [A, B]")
        lines = [_pair(g, f"games[{i}]") for i, g in enumerate(raw)]
        before = start
        for i, line in enumerate(lines):
            gained = (line[0] - before[0], line[1] - before[1])
            if min(gained) < 0 or (gained[0] > 0) == (gained[1] > 0):
                raise InvalidContest(f"games[{i}]: each game adds points to one side only "
                                     f"(after {list(before)} came {list(line)})")
            if max(before) >= length:
                raise InvalidContest(f"games[{i}]: the match was over at {list(before)}")
            before = line
        if before[w] < length or before[1 - w] >= length:
            raise InvalidContest(f"games: the last line {list(before)} does not give the "
                                 f"match of {length} to {winner}")
        if score is not None and score != before:
            raise InvalidContest(f"score: {list(score)} is not the last line of games, "
                                 f"{list(before)}")
        games = tuple(lines)
        score = before
    elif score is not None and (score[w] < length or score[1 - w] >= length):
        raise InvalidContest(f"score: {list(score)} does not give the match of {length} "
                             f"to {winner}")
    return Sheet(winner=str(winner), score=score, games=games, via=via)


def _pair(value: object, where: str) -> tuple[int, int]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool)
                       and 0 <= x <= MAX_POINTS for x in value)):
        raise InvalidContest(f"{where}: must be [A, B], two whole numbers from 0 to "
                             f"{MAX_POINTS}")
    return value[0], value[1]


def _same(a: Sheet, b: Sheet) -> bool:
    """The two sheets say the same: winner, and every figure both give."""
    if a.winner != b.winner:
        return False
    if a.score is not None and b.score is not None and a.score != b.score:
        return False
    return a.games is None or b.games is None or a.games == b.games


def settle(a: Sheet | None, b: Sheet | None, start: tuple[int, int] = (0, 0)) -> Settlement:
    """The decision of the two players' sheets (``a`` side A's, ``b`` side B's);
    ``start`` is the score the match began at."""
    if a is None or b is None:
        return Settlement(outcome="waiting")
    same = _same(a, b)
    if a.via not in CONFIRMED or b.via not in CONFIRMED:
        who = " and ".join(s for s, x in zip(SIDES, (a, b), strict=True)
                           if x.via not in CONFIRMED)
        return Settlement(outcome="director", mismatch=not same,
                          why=f"the sheet of {who} was handed in with the table's token "
                              "alone, not with the player's own confirmation")
    if same:
        score = a.score if a.score is not None else b.score
        return Settlement(outcome="agreed", winner=a.winner, score=score)
    if a.games is None or b.games is None:
        return Settlement(outcome="director", mismatch=True,
                          why="the sheets differ and one holds only a final result")
    k = next((i for i, (x, y) in enumerate(zip(a.games, b.games, strict=False)) if x != y),
             min(len(a.games), len(b.games)))
    began = a.games[k - 1] if k else start
    if began[0] == began[1]:
        return Settlement(outcome="director", mismatch=True, game=k + 1,
                          why=f"the sheets differ from game {k + 1}, which began level at "
                              f"{began[0]}-{began[1]}: no one was trailing")
    side = 0 if began[0] < began[1] else 1
    stands = (a, b)[side]
    return Settlement(outcome="trailing", winner=stands.winner, score=stands.score,
                      trailing=SIDES[side], game=k + 1, mismatch=True)
