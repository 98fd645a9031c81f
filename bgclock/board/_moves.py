"""Legal plays for a roll, by the rules of backgammon.

Theory of operation
-------------------
The mover's checkers are packed into one integer, four bits per slot: slot
``p`` (1..24) holds the count on the mover's point ``p`` and slot 25 its bar.
The opponent never moves during a play, so it is reduced to two bit masks over
the mover's points: ``blocked`` (two or more opposing checkers: cannot land)
and ``blots`` (exactly one: landing hits it).  A play's result is the pair
``(mover, hits)`` where ``hits`` marks the blots hit on the way; the pair fixes
the resulting position, so plays are deduplicated by it.

Rules applied (the same as GNU Backgammon's move generator):
- a checker on the bar must enter before any other checker moves;
- a checker may bear off only while all the mover's checkers are in its home
  board; with the exact number, or with a higher number from the highest
  occupied point;
- as many dice as possible must be played (up to four for a double); if only
  one die of a non-double can be played, the higher one must be when it can.

For doubles the sources of successive moves never increase: any legal
sequence of equal dice can be reordered that way (entering and bearing off
only get easier when the rear checkers move first), so every resulting
position is still found, with far fewer permutations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from bgclock.board._position import BAR, CHECKERS, POINTS, Position

Move = tuple[int, int]  # (from, to): 25 = the bar, 0 = borne off
_Key = tuple[int, int]  # (packed mover, hit mask)

_UNIT: Final = tuple(1 << (4 * s) for s in range(26))
_BAR_SHIFT: Final = 100
_HOME_SHIFT: Final = 28  # slots 7.. start here


def pack(position: Position) -> tuple[int, int, int]:
    """(packed mover, blocked mask, blot mask) for the side on roll."""
    mover = 0
    for i, n in enumerate(position.on_roll):
        mover |= n << (4 * (i + 1))
    blocked = 0
    blots = 0
    opp = position.opponent
    for p in range(1, POINTS + 1):
        n = opp[POINTS - p]
        if n >= 2:
            blocked |= 1 << p
        elif n == 1:
            blots |= 1 << p
    return mover, blocked, blots


def _steps(
    b: int, h: int, d: int, blocked: int, blots: int, max_src: int
) -> list[tuple[int, int, int, int]]:
    """Every single move of one die: (mover, hits, from, to)."""
    if b >> _BAR_SHIFT:
        t = 25 - d
        if max_src < 25 or blocked >> t & 1:
            return []
        if blots >> t & 1:
            h |= 1 << t
        return [(b - _UNIT[25] + _UNIT[t], h, 25, t)]
    out = []
    home = not b >> _HOME_SHIFT
    top = (b.bit_length() + 3) >> 2  # one past the highest occupied slot
    if top > max_src + 1:
        top = max_src + 1
    for p in range(top - 1, 0, -1):
        if not b >> (4 * p) & 15:
            continue
        t = p - d
        if t > 0:
            if blocked >> t & 1:
                continue
            nh = h | (1 << t) if blots >> t & 1 else h
            out.append((b - _UNIT[p] + _UNIT[t], nh, p, 0 + t))
        elif home and (t == 0 or not b >> (4 * (p + 1))):
            out.append((b - _UNIT[p], h, p, 0))
    return out


def generate(
    b: int, blocked: int, blots: int, d1: int, d2: int
) -> dict[_Key, tuple[Move, ...]]:
    """All distinct results of a roll: ``{(mover, hits): one way to play it}``.

    A roll with no legal move gives the unchanged position with no moves.
    """
    if d1 == d2:
        return _doubles(b, blocked, blots, d1)
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    full: dict[_Key, tuple[Move, ...]] = {}
    single_hi: dict[_Key, tuple[Move, ...]] = {}
    single_lo: dict[_Key, tuple[Move, ...]] = {}
    for first, second, singles in ((hi, lo, single_hi), (lo, hi, single_lo)):
        for nb, nh, f, t in _steps(b, 0, first, blocked, blots, 25):
            m1 = (f, t)
            singles.setdefault((nb, nh), (m1,))
            for nb2, nh2, f2, t2 in _steps(nb, nh, second, blocked, blots, 25):
                key = (nb2, nh2)
                if key not in full:
                    full[key] = (m1, (f2, t2))
    if full:
        return full
    if single_hi:
        return single_hi
    if single_lo:
        return single_lo
    return {(b, 0): ()}


def _doubles(b: int, blocked: int, blots: int, d: int) -> dict[_Key, tuple[Move, ...]]:
    # level: {(mover, hits): (highest source still allowed, moves)}
    level: dict[_Key, tuple[int, tuple[Move, ...]]] = {(b, 0): (25, ())}
    for _ in range(4):
        nxt: dict[_Key, tuple[int, tuple[Move, ...]]] = {}
        for (cb, ch), (max_src, moves) in level.items():
            for nb, nh, f, t in _steps(cb, ch, d, blocked, blots, max_src):
                key = (nb, nh)
                old = nxt.get(key)
                if old is None or old[0] < f:
                    nxt[key] = (f, (*moves, (f, t)))
        if not nxt:
            break
        level = nxt
    return {key: moves for key, (_, moves) in level.items()}


def unpack(position: Position, key: _Key) -> Position:
    """The position after a play, the opponent now on roll."""
    mover, hits = key
    mine = tuple(mover >> (4 * (i + 1)) & 15 for i in range(POINTS + 1))
    opp = list(position.opponent)
    hit_count = 0
    p = 1
    while hits >> p:
        if hits >> p & 1:
            opp[POINTS - p] = 0
            hit_count += 1
        p += 1
    opp[BAR] += hit_count
    return Position._trusted(tuple(opp), mine)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """One legal way to play a roll, up to its resulting position.

    ``moves``: (from, to) pairs in the mover's numbering, 25 the bar and 0 off;
    ``position``: the result, with the opponent now on roll.
    """

    moves: tuple[Move, ...]
    position: Position

    def notation(self) -> str:
        """The moves in the usual notation, e.g. ``"bar/22 6/off"``."""
        def name(p: int) -> str:
            return "bar" if p == 25 else "off" if p == 0 else str(p)

        return " ".join(f"{name(f)}/{name(t)}" for f, t in self.moves) or "(no move)"


def legal_plays(position: Position, die1: int, die2: int) -> tuple[Play, ...]:
    """Every legal play of ``die1``-``die2`` by the side on roll, one per result.

    A roll that cannot be played at all gives one play with no moves.

    >>> len(legal_plays(Position.initial(), 3, 1))
    16
    """
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError(f"dice must be 1..6, got {die1}-{die2}")
    b, blocked, blots = pack(position)
    return tuple(
        Play(moves=moves, position=unpack(position, key))
        for key, moves in generate(b, blocked, blots, die1, die2).items()
    )


def resulting_positions(position: Position, die1: int, die2: int) -> frozenset[Position]:
    """The set of positions a roll can lead to (opponent on roll)."""
    return frozenset(p.position for p in legal_plays(position, die1, die2))


ROLLS: Final = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls, each as (low, high)."""


def checkers_off(position: Position) -> int:
    """Checkers the side on roll has borne off."""
    return CHECKERS - sum(position.on_roll)


def keys_for(position: Position, rolls: Iterable[tuple[int, int]]) -> int:
    """Number of distinct plays over ``rolls`` (used by the benchmark)."""
    b, blocked, blots = pack(position)
    return sum(len(generate(b, blocked, blots, x, y)) for x, y in rolls)
