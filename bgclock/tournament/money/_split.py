"""Splitting a pool between the places paid: integer cents, exact, never rising.

Theory of operation.  The places paid are cut into *units*: a place on its
own, or a run of places shared by tied players (``tied``: places 3 and 4 are
one unit of two players).  A unit's exact due is ``pool × (its shares added)
/ 100``, the same for each of its players: ``x = due / players``, a fraction
of a cent.  The amounts chosen are, among all the lists of whole cents that

1. add up to the pool exactly,
2. never rise from one place to the next, and
3. give the players of a unit exactly the same amount,

the one closest to the exact dues (the least squared cents away from them,
``Σ players × (amount − x)²``, so a difference is spread over many places
rather than laid on one); among lists equally close, the one that pays the
higher places more (compared from 1st down).

Without ties this is the largest-remainder rule: every place gets its due
rounded down, and the cents left over (fewer than the places) go one each to
the places whose dues lost most to the rounding, higher places first among
equals.  With ties it is the same rule taken over whole units: a unit of
``k`` players moves ``k`` cents at a time, so a place next to it may end a
few cents from its due for the tied players to get exactly the same and the
total to stay the pool.  When no list meets 1–3 (every place paid is shared
and the pool does not divide among them, such as 10.01 shared by two
players tied for 1st and 2nd), the fewest cents that make one possible are
held back and then paid one each to the players of the top unit, 1st first:
those players then differ by one cent at most.

The search is a small dynamic programme over the units, each unit's amount
looked for within a few cents of its due (``k`` players: ``⌈largest unit /
k⌉ + 1`` cents per player), pruned by the cost of a first answer found within
2 cents; tests/tournament/test_payouts.py compares it with an exhaustive
search on small pools.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm


def units_of(places: int, tied: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """The units of ``places`` paid places: ``(first place, players)`` in
    order, a tied run as one (``tied`` already checked: consecutive runs of
    two or more places, within the places paid, not overlapping)."""
    starts = {min(run): len(run) for run in tied}
    out: list[tuple[int, int]] = []
    place = 1
    while place <= places:
        size = starts.get(place, 1)
        out.append((place, size))
        place += size
    return out


def _closest(pool: int, dues: Sequence[int], sizes: Sequence[int], scale: int,
             narrow: bool = False,
             bound: int | None = None) -> tuple[int, list[int]] | None:
    """Each unit's amount per player (the closest list meeting 1–3 of the
    module's docstring), or ``None`` when there is none.  ``dues[g] / scale``
    is unit ``g``'s exact due in cents (all its players together)."""
    floors = [due // (scale * size) for due, size in zip(dues, sizes, strict=True)]
    left = pool - sum(f * k for f, k in zip(floors, sizes, strict=True))
    weight = lcm(*sizes)
    # a unit of k players moves in steps of k cents; the others make up the
    # difference, a few cents each
    largest = max(sizes)
    spreads = [2 if narrow else -(-largest // size) + 1 for size in sizes]
    # the least each unit can cost (its due rounded down or up), summed from
    # the bottom: no list is cheaper than what it has cost so far plus that
    least = [0] * (len(sizes) + 1)
    for g in range(len(sizes) - 1, -1, -1):
        off = floors[g] * sizes[g] * scale - dues[g]
        low = min(off * off, (off + sizes[g] * scale) ** 2) * (weight // sizes[g])
        least[g] = least[g + 1] + low
    # state after a unit: (its amount, cents given above the floors so far)
    # -> (cost so far, the amounts so far)
    states: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(-1, 0): (0, ())}
    below = sum(s * k for s, k in zip(spreads, sizes, strict=True))
    for g, (due, size, floor) in enumerate(zip(dues, sizes, floors, strict=True)):
        spread = spreads[g]
        below -= spread * size
        top = floor + spread + (left // size if g == 0 else 0)
        nxt: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (above, given), (cost, amounts) in states.items():
            for amount in range(min(top, above) if g else top, max(0, floor - spread) - 1, -1):
                total = given + (amount - floor) * size
                # what is still to give must fit the units below
                if not -below <= left - total <= below:
                    continue
                key = (amount, total)
                off = amount * size * scale - due
                spent = cost + off * off * (weight // size)
                if bound is not None and spent + least[g + 1] > bound:
                    continue
                here = (spent, amounts + (amount,))
                best = nxt.get(key)
                if best is None or here[0] < best[0] or (here[0] == best[0]
                                                         and here[1] > best[1]):
                    nxt[key] = here
        states = nxt
    finals = [v for (_, given), v in states.items() if given == left]
    if not finals:
        return None
    cost = min(c for c, _ in finals)
    return cost, list(max(a for c, a in finals if c == cost))


def _search(pool: int, shares: Sequence[Fraction], units: Sequence[tuple[int, int]],
            scale: int) -> list[int] | None:
    """``_closest`` for a pool, its units and shares: looked for first within
    2 cents of each unit's due (quick), then as wide as the units need, no
    list costing more than the first one found."""
    sizes = [k for _, k in units]
    dues = _dues(pool, shares, units, scale)
    quick = _closest(pool, dues, sizes, scale, narrow=True)
    if quick is not None and max(sizes) == 1:
        return quick[1]  # the wide search is the same one
    found = _closest(pool, dues, sizes, scale, bound=None if quick is None else quick[0])
    return None if found is None else found[1]


def _dues(pool: int, shares: Sequence[Fraction], units: Sequence[tuple[int, int]],
          scale: int) -> list[int]:
    """Each unit's exact due times ``scale`` (a whole number: ``scale`` clears
    the shares' denominators and the per cent)."""
    return [int(pool * sum(shares[first - 1:first - 1 + k], Fraction(0)) * scale / 100)
            for first, k in units]


def split(pool: int, shares: Sequence[Fraction],
          tied: Sequence[Sequence[int]] = ()) -> list[int]:
    """The amount (cents) of each place paid, 1st first: ``shares[i]`` is
    place ``i + 1``'s per cent (non-increasing, adding to 100: checked by
    ``parse_shares``), ``tied`` the runs of places shared by tied players
    (checked by ``check_tied``).  See the module's docstring for the rule.

    >>> split(2_984_000, [Fraction(50), Fraction(25), Fraction(25, 2), Fraction(25, 2)])
    [1492000, 746000, 373000, 373000]
    >>> split(1001, [Fraction(50), Fraction(50)], tied=[(1, 2)])
    [501, 500]
    """
    units = units_of(len(shares), tied)
    sizes = [k for _, k in units]
    scale = 100 * lcm(*(s.denominator for s in shares))
    held = 0
    per_player = _search(pool, shares, units, scale)
    while per_player is None:
        held += 1
        per_player = _search(pool - held, shares, units, scale)
    out: list[int] = []
    for amount, k in zip(per_player, sizes, strict=True):
        out += [amount] * k
    for i in range(held):
        out[i % sizes[0]] += 1
    return out
