"""What each place wins: a pool split by shares, ties shared (issue 36 §2),
and side pools paid in a hierarchy across an event's brackets.

``payouts`` checks its inputs and calls ``_split.split`` (the rule: exact
total, never rising, tied players equal; see that module).  A hierarchy
(the US Open's "1st, 2nd, 1st Consolation, 3rd/4th, 2nd Consolation") is the
same split over bracket places in the order the director ranks them, a
``3/4`` tier being two places shared.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from .._errors import InvalidContest
from ._pool import MAX_PLACES, Percent, parse_shares, parse_tied, whole
from ._split import split

#: A pool above 10 000 000 000.00 is not a backgammon event's.
MAX_POOL_CENTS: Final = 10 ** 12
#: The largest rounding unit: amounts in multiples of 1 000.00.
MAX_UNIT_CENTS: Final = 100_000
#: A bracket's name in a hierarchy.
_BRACKET = re.compile(r"[a-z][a-z_]{0,31}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Payout:
    """A pool split: ``amounts[i]`` is place ``i + 1``'s (cents)."""

    pool: int
    shares: tuple[Fraction, ...]
    tied: tuple[tuple[int, ...], ...]
    amounts: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"pool": cents, "places": [{"place": 1, "amount": cents}, ...]}``,
        with ``"tied": [[3, 4], ...]`` when places are shared."""
        out: dict[str, Any] = {
            "pool": self.pool,
            "places": [{"place": i, "amount": a} for i, a in enumerate(self.amounts, 1)],
        }
        if self.tied:
            out["tied"] = [list(run) for run in self.tied]
        return out


def payouts(pool: int, shares: str | Sequence[Percent],
            tied: Sequence[str | Sequence[int]] = (), unit: int = 1) -> Payout:
    """Each place's amount of ``pool`` cents paid by ``shares`` (per cent
    per place, 1st first: ``parse_shares``), the runs of places in ``tied``
    shared by tied players (``parse_tied``).

    ``unit``: the amounts are paid in multiples of it (100: whole dollars or
    euros, as many directors pay): the pool's whole units are split by the
    rule, and the cents below a unit (``pool mod unit``) go to the top place
    (one each to its players, 1st first, when it is shared), so the total is
    still the pool and nothing rises.

    >>> payouts(2_984_000, "50,25,12.5,12.5").amounts
    (1492000, 746000, 373000, 373000)
    >>> payouts(1_000, "50,30,20", tied=["2,3"]).amounts
    (500, 250, 250)
    """
    pool = whole(pool, "pool", 0, MAX_POOL_CENTS)
    unit = whole(unit, "unit", 1, MAX_UNIT_CENTS)
    parsed = parse_shares(shares)
    runs = parse_tied(tied, len(parsed))
    amounts = [a * unit for a in split(pool // unit, parsed, runs)]
    top = next((len(run) for run in runs if run[0] == 1), 1)
    for i in range(pool % unit):
        amounts[i % top] += 1
    return Payout(pool=pool, shares=parsed, tied=runs, amounts=tuple(amounts))


@dataclass(frozen=True, slots=True)
class Tier:
    """One step of a hierarchy: a bracket's place, or its places shared
    (``places=(3, 4)``: the two semi-final losers)."""

    bracket: str
    places: tuple[int, ...]


def parse_hierarchy(text: str, field: str = "hierarchy") -> tuple[Tier, ...]:
    """A hierarchy as text, best first: ``"main 1, main 2, consolation 1,
    main 3/4, consolation 2"``."""
    tiers: list[Tier] = []
    items = text.split(",")
    if len(items) > MAX_PLACES:
        raise InvalidContest(f"{field}: at most {MAX_PLACES} tiers")
    for item in items:
        parts = item.split()
        if len(parts) != 2:
            raise InvalidContest(f"{field}: each tier is a bracket and a place, like main 1 "
                                 "or main 3/4")
        places = tuple(whole(p, field, 1, MAX_PLACES) for p in parts[1].split("/"))
        tiers.append(Tier(parts[0].lower(), places))
    return tuple(tiers)


def hierarchy_payouts(pool: int, tiers: Sequence[Tier],
                      shares: str | Sequence[Percent]) -> list[dict[str, Any]]:
    """Side-pool money paid across brackets in the order ``tiers`` ranks
    them (best first), ``shares`` per bracket place in that order (a tier of
    two places takes two shares): ``[{"bracket", "place", "amount"}]`` in
    that order.  The amounts never rise along the order, a tier's places
    get the same, and they add up to ``pool``; each bracket's places are
    listed from its 1st, without a gap and once.

    >>> order = parse_hierarchy("main 1, main 2, consolation 1, main 3/4, consolation 2")
    >>> [r["amount"] for r in hierarchy_payouts(100_000, order, "40,20,15,10,10,5")]
    [40000, 20000, 15000, 10000, 10000, 5000]
    """
    if not 1 <= len(tiers) <= MAX_PLACES:
        raise InvalidContest(f"hierarchy: must be 1 to {MAX_PLACES} tiers")
    seen: dict[str, int] = {}
    slots: list[tuple[str, int]] = []
    tied: list[tuple[int, ...]] = []
    for tier in tiers:
        if not _BRACKET.fullmatch(tier.bracket):
            raise InvalidContest(f"hierarchy: {tier.bracket!r} is not a bracket's name")
        last = seen.get(tier.bracket, 0)
        if list(tier.places) != list(range(last + 1, last + 1 + len(tier.places))):
            raise InvalidContest(f"hierarchy: {tier.bracket} {tier.places[0]} must come "
                                 f"next after {tier.bracket} {last}" if last else
                                 f"hierarchy: {tier.bracket} must start at its 1st place")
        seen[tier.bracket] = tier.places[-1]
        if len(tier.places) > 1:
            tied.append(tuple(range(len(slots) + 1, len(slots) + 1 + len(tier.places))))
        slots += [(tier.bracket, p) for p in tier.places]
    if len(slots) > MAX_PLACES:
        raise InvalidContest(f"hierarchy: at most {MAX_PLACES} places in all")
    parsed = parse_shares(shares)
    if len(parsed) != len(slots):
        raise InvalidContest(f"shares: must be one per bracket place ({len(slots)}), "
                             f"not {len(parsed)}")
    amounts = split(whole(pool, "pool", 0, MAX_POOL_CENTS), parsed, tied)
    return [{"bracket": b, "place": p, "amount": a}
            for (b, p), a in zip(slots, amounts, strict=True)]
