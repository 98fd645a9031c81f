"""When will the round end? (issue 32 §8)  A forecast from the clocks.

Theory of operation
-------------------
A running match is known by its clock: the length, the score, the game
under way, both reserves, the delay a move is given, when the match began
and what the clock allowed at its start.  Its time still to play is

    games still to be played  ×  the table's time per game

*Games still to be played* (``expected_games``): until one player reaches
the length, each game won by either player with even chances and worth 1, 2
or 4 points (``GAME_POINTS``: a single game, a gammon or a cube turned
once, a cube turned twice).  At 0-0 in a 7-point match that is 6.9 games;
at 6-6, 1.  Games, not points: a game's time hardly depends on what it
scores, and a table's time per point swings with every gammon.

*The table's time per game*: what the table has taken per game so far (the
game under way counted as half a game once the table has had the time for
it), pulled towards a prior while few
games are in (``PRIOR_GAMES`` games of the prior): ``(PRIOR_GAMES × prior
+ elapsed) / (PRIOR_GAMES + games done + ½)``.  The prior is the room's
own time per game (every running table's time over its games), once its
tables have played ``ROOM_GAMES`` games; before that, the clock's
allowance: both reserves at the start and a delay for each of
``MOVES_PER_GAME`` moves, spread over the games a match of this length is
expected to take (a table playing at the pace its clock allows).

*What the clocks allow* bounds it: a match cannot run longer than both
reserves as they are now plus a delay for every move of the games still to
be played (``MOVES_PER_GAME`` a game), so a slow table whose reserves are
nearly spent is forecast to end when they run out, not at its past pace.

The round ends when its last match ends: the match forecast last is the
one *holding the round up*.  Pure: every instant is passed in (integer ms).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

#: A game's points and how often (a single game, a gammon or a cube turned
#: once, a cube turned twice or a backgammon).
GAME_POINTS = ((1, 0.6), (2, 0.32), (4, 0.08))
#: Moves a game takes, both players (a bound: most games take fewer).
MOVES_PER_GAME = 60
#: The prior counts as this many games already played at its pace.
PRIOR_GAMES = 1
#: The room's pace is the prior once its tables have played this many games.
ROOM_GAMES = 4


@lru_cache(maxsize=4096)
def expected_games(need_a: int, need_b: int) -> float:
    """Games expected to be played until one side, needing ``need_a`` and
    ``need_b`` points, has them (``GAME_POINTS``, even chances)."""
    if need_a <= 0 or need_b <= 0:
        return 0.0
    total = 1.0
    for points, p in GAME_POINTS:
        total += p * 0.5 * (expected_games(need_a - points, need_b)
                            + expected_games(need_a, need_b - points))
    return total


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchClock:
    """A running match as its clock shows it, at ``now_ms``."""

    #: What the match is known by (a table, an (event, round, match)).
    key: Hashable
    length: int
    score: tuple[int, int]
    #: The game under way (1 for the first).
    game: int
    #: Both reserves now.
    reserve_ms: tuple[int, int]
    #: The delay a move is given (0: none).
    delay_ms: int
    #: Both reserves when the match began.
    start_reserve_ms: tuple[int, int]
    started_ms: int
    now_ms: int
    over: bool = False

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError("length: at least 1")
        if self.game < 1:
            raise ValueError("game: at least 1")
        if min(self.score) < 0 or min(self.reserve_ms) < 0 or self.delay_ms < 0:
            raise ValueError("score, reserve_ms, delay_ms: not negative")
        if self.now_ms < self.started_ms:
            raise ValueError("now_ms: not before started_ms")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchForecast:
    """A match's forecast end."""

    key: Hashable
    end_ms: int
    left_ms: int
    #: The time per game it was worked out with.
    game_ms: int
    #: The clocks' bound decided it (the reserves run out first).
    bounded: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundForecast:
    """The round's forecast end: its matches', the latest, and whose it is."""

    matches: tuple[MatchForecast, ...]
    end_ms: int | None
    #: The key of the match holding the round up (None: nothing running).
    holding: Hashable | None


def prior_game_ms(m: MatchClock) -> int:
    """The clock's allowance per game: both reserves at the start and the
    delays of ``MOVES_PER_GAME`` moves a game, over the games a match of this
    length is expected to take."""
    games = expected_games(m.length, m.length)
    return round(sum(m.start_reserve_ms) / games + m.delay_ms * MOVES_PER_GAME)


def forecast_match(m: MatchClock, prior_ms: int | None = None) -> MatchForecast:
    """When ``m`` is expected to end (see the module's docstring); ``prior_ms``:
    the time per game to pull towards (default: the clock's allowance)."""
    if m.over:
        return MatchForecast(key=m.key, end_ms=m.now_ms, left_ms=0, game_ms=0, bounded=False)
    prior = prior_game_ms(m) if prior_ms is None else prior_ms
    game_ms = round((PRIOR_GAMES * prior + (m.now_ms - m.started_ms))
                    / (PRIOR_GAMES + _done(m, prior)))
    # the game under way is as far played as it was counted above
    games = max(0.5, expected_games(m.length - m.score[0], m.length - m.score[1])
                - (_done(m, prior) - (m.game - 1)))
    left = round(games * game_ms)
    bound = sum(m.reserve_ms) + round(m.delay_ms * MOVES_PER_GAME * games)
    return MatchForecast(key=m.key, end_ms=m.now_ms + min(left, bound),
                         left_ms=min(left, bound), game_ms=game_ms, bounded=bound < left)


def _done(m: MatchClock, prior_ms: int | None = None) -> float:
    """Games played, the game under way as half a game once the table has
    had the time for half a game at the prior's pace (a match just begun has
    played nothing yet)."""
    prior = prior_game_ms(m) if prior_ms is None else prior_ms
    elapsed = m.now_ms - m.started_ms
    return m.game - 1 + 0.5 * min(1.0, elapsed / max(1, (m.game - 0.5) * prior))


def room_game_ms(matches: Sequence[MatchClock]) -> int | None:
    """The room's time per game: every running match's time over its games
    (None until ``ROOM_GAMES`` games are played in all)."""
    running = [m for m in matches if not m.over]
    if sum(m.game - 1 for m in running) < ROOM_GAMES:
        return None
    games = sum(_done(m) for m in running)
    return round(sum(m.now_ms - m.started_ms for m in running) / games)


def forecast_round(matches: Sequence[MatchClock]) -> RoundForecast:
    """Every match's forecast, each pulled towards the room's time per game
    once there is one (``room_game_ms``), and the round's: the latest end,
    and the match it is (the first of them on a tie)."""
    prior = room_game_ms(matches)
    out = tuple(forecast_match(m, prior) for m in matches)
    if not out:
        return RoundForecast(matches=(), end_ms=None, holding=None)
    last = max(out, key=lambda f: f.end_ms)
    return RoundForecast(matches=out, end_ms=last.end_ms, holding=last.key)


__all__ = ["GAME_POINTS", "MOVES_PER_GAME", "PRIOR_GAMES", "ROOM_GAMES", "MatchClock",
           "MatchForecast", "RoundForecast", "expected_games", "forecast_match",
           "forecast_round", "prior_game_ms", "room_game_ms"]
