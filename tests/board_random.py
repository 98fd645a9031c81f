"""Random positions for the board tests and benchmarks (fixed seeds, no I/O)."""

from __future__ import annotations

import random

from bgclock.board import Position

KINDS = ("contact", "bar", "closed", "bearoff", "race", "mixed")


def _scatter(rng: random.Random, n: int, lo: int, hi: int, free: set[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    choices = [p for p in range(lo, hi + 1) if p in free]
    for _ in range(n):
        if not choices:
            break
        p = rng.choice(choices)
        out[p] = out.get(p, 0) + 1
    return out


def random_position(rng: random.Random, kind: str | None = None) -> Position:
    """A legal random position of the given kind (or a random kind)."""
    kind = kind or rng.choice(KINDS)
    while True:
        mine: dict[int, int] = {}
        theirs: dict[int, int] = {}  # in the opponent's own numbering
        if kind == "race":
            split = rng.randint(6, 18)
            mine = _scatter(rng, rng.randint(1, 15), 1, split, set(range(1, 25)))
            theirs = _scatter(rng, rng.randint(1, 15), 1, 24 - split, set(range(1, 25)))
        elif kind == "bearoff":
            mine = _scatter(rng, rng.randint(1, 15), 1, 6, set(range(1, 25)))
            theirs = _scatter(rng, rng.randint(1, 15), 1, rng.choice((6, 6, 12)), set(range(1, 25)))
        elif kind == "closed":
            # the opponent holds most of its home board; we may be on the bar
            for p in rng.sample(range(1, 7), rng.randint(4, 6)):
                theirs[p] = 2
            rest = 15 - sum(theirs.values())
            theirs.update(_scatter(rng, rest, 7, 24, set(range(7, 25))))
            free = {p for p in range(1, 25) if 25 - p not in theirs}
            mine = _scatter(rng, rng.randint(5, 15), 1, 24, free)
            if rng.random() < 0.7:
                mine[25] = rng.randint(1, 3)
        else:
            nm = rng.randint(1, 15) if kind == "mixed" else 15 - rng.randint(0, 3)
            no = rng.randint(1, 15) if kind == "mixed" else 15 - rng.randint(0, 3)
            theirs = _scatter(rng, no, 1, 24, set(range(1, 25)))
            free = {p for p in range(1, 25) if 25 - p not in theirs}
            mine = _scatter(rng, nm, 1, 24, free)
            if kind == "bar" or rng.random() < 0.15:
                mine[25] = mine.get(25, 0) + rng.randint(1, 2)
            if rng.random() < 0.15:
                theirs[25] = theirs.get(25, 0) + 1
        # trim to 15 checkers a side
        for side in (mine, theirs):
            while sum(side.values()) > 15:
                p = rng.choice(list(side))
                side[p] -= 1
                if not side[p]:
                    del side[p]
        if not mine or not theirs:
            continue
        if any(25 - p in theirs for p in mine if p != 25):
            continue
        return Position.from_points(mine, theirs)
