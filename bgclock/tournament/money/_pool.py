"""The prize pool of an event and the shares it is paid by (issue 36 §2).

Money is integer cents; a per cent (a return, a share) is an exact
``Fraction`` read from its decimal text ("12.5" is 25/2), never a float.
Every input is bounded and a bad one is refused naming its field.

**The pool** is ``entries × fee × return / 100``, rounded down to the cent
(a fraction of a cent of the return stays with the house, as a director
paying out in cash does), plus the money added, which is paid whole.

**Places paid by field size** (``DEFAULT_TABLE``, the director's own table
passed in its place): about a quarter of the field is paid, in whole
knockout rounds (the winner alone below 8 entries; the final from 8; the
semi-finals from 16; the quarter-finals from 32), each round's losers paid
the same, each round's losers getting half of what each loser of the round
after it gets.  That halving is the structure of the Las Vegas 2015 Main
(50 / 25 / 12.5 / 12.5, the issue's anchor), carried down to the 2 and up to
the 8 places paid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from .._errors import InvalidContest
from .._side import MAX_ENTRY_CENTS

#: Bounds (a value beyond them is a typing slip): entries of one event, the
#: money added (1 000 000.00), the places one structure pays.
MAX_ENTRIES: Final = 100_000
MAX_ADDED_CENTS: Final = 100_000_000
MAX_PLACES: Final = 64
#: A per cent as text: up to 3 digits, and up to 4 decimals.
_PERCENT = re.compile(r"\d{1,3}(\.\d{1,4})?")

Percent = str | int | Fraction

#: Places paid by field size: ``(fewest entries, shares per place)``, rows in
#: ascending order; a field takes the last row it reaches.
DEFAULT_TABLE: Final[tuple[tuple[int, tuple[Fraction, ...]], ...]] = (
    (1, (Fraction(100),)),
    (8, (Fraction(200, 3), Fraction(100, 3))),
    (16, (Fraction(50), Fraction(25), Fraction(25, 2), Fraction(25, 2))),
    (32, (Fraction(40), Fraction(20), Fraction(10), Fraction(10),
          Fraction(5), Fraction(5), Fraction(5), Fraction(5))),
)


def whole(value: object, field: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (an ``int``, or
    its decimal digits as text), else an error naming ``field``."""
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,12}", value.strip()):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidContest(f"{field}: must be a whole number from {low} to {high}")
    return value


def percent(value: Percent, field: str, *, zero: bool = True) -> Fraction:
    """``value`` as an exact per cent from 0 (or above 0 when ``zero`` is
    false) to 100: text like ``"12.5"`` (at most 4 decimals), an ``int`` or a
    ``Fraction``.  Never a float."""
    if isinstance(value, str):
        text = value.strip()
        if not _PERCENT.fullmatch(text):
            raise InvalidContest(f"{field}: must be a per cent like 90 or 12.5 (at most 4 "
                                 "decimals)")
        exact = Fraction(text)
    elif isinstance(value, Fraction) or (isinstance(value, int)
                                         and not isinstance(value, bool)):
        exact = Fraction(value)
    else:
        raise InvalidContest(f"{field}: must be a per cent like 90 or 12.5")
    if exact > 100 or exact < 0 or (exact == 0 and not zero):
        low = "0" if zero else "above 0"
        raise InvalidContest(f"{field}: must be a per cent from {low} to 100")
    return exact


def prize_pool(entries: int, fee: int, return_pct: Percent, added: int = 0) -> int:
    """The pool in cents: ``entries × fee × return / 100`` rounded down, plus
    ``added``.

    >>> prize_pool(80, 40_000, "93.25")
    2984000
    >>> prize_pool(3, 1_000, "33.3333", added=50)   # 999.9999 -> 999, + 50
    1049
    """
    entries = whole(entries, "entries", 1, MAX_ENTRIES)
    fee = whole(fee, "fee", 0, MAX_ENTRY_CENTS)
    back = percent(return_pct, "return")
    added = whole(added, "added", 0, MAX_ADDED_CENTS)
    exact = entries * fee * back / 100
    return exact.numerator // exact.denominator + added


def parse_shares(shares: str | Sequence[Percent], field: str = "shares") -> tuple[Fraction, ...]:
    """Shares per place, 1st first: text ``"50,25,12.5,12.5"`` or a list.
    Each above 0, never rising from one place to the next (a place never
    pays more than the one above it), adding to exactly 100; at most
    ``MAX_PLACES``."""
    listed = shares.split(",") if isinstance(shares, str) else list(shares)
    if not 1 <= len(listed) <= MAX_PLACES:
        raise InvalidContest(f"{field}: must be 1 to {MAX_PLACES} per cents, 1st first")
    out = tuple(percent(s, field, zero=False) for s in listed)
    for place, (upper, lower) in enumerate(zip(out, out[1:], strict=False), 2):
        if lower > upper:
            raise InvalidContest(f"{field}: place {place} must not pay more than place "
                                 f"{place - 1}")
    total = sum(out, Fraction(0))
    if total != 100:
        raise InvalidContest(f"{field}: must add to 100 (they add to {show_percent(total)})")
    return out


def parse_tied(tied: Sequence[str | Sequence[int]], places: int,
               field: str = "tied") -> tuple[tuple[int, ...], ...]:
    """Runs of places shared by tied players (``"3,4"`` or ``(3, 4)``):
    two or more consecutive places each, within the ``places`` paid, no
    place in two runs.  Returned in place order."""
    if len(tied) > MAX_PLACES:
        raise InvalidContest(f"{field}: at most {MAX_PLACES} runs of tied places")
    runs: list[tuple[int, ...]] = []
    for run in tied:
        items = run.split(",") if isinstance(run, str) else list(run)
        if len(items) > MAX_PLACES:
            raise InvalidContest(f"{field}: a run of at most {MAX_PLACES} places")
        got = tuple(whole(p, field, 1, MAX_PLACES) for p in items)
        if len(got) < 2 or list(got) != list(range(got[0], got[0] + len(got))):
            raise InvalidContest(f"{field}: must be two or more consecutive places, like 3,4")
        if got[-1] > places:
            raise InvalidContest(f"{field}: place {got[-1]} is not paid (places 1 to {places} "
                                 "are)")
        runs.append(got)
    runs.sort()
    for a, b in zip(runs, runs[1:], strict=False):
        if b[0] <= a[-1]:
            raise InvalidContest(f"{field}: place {b[0]} is in two runs of tied places")
    return tuple(runs)


def shares_for_field(entries: int,
                     table: Sequence[tuple[int, Sequence[Percent]]] = DEFAULT_TABLE,
                     ) -> tuple[Fraction, ...]:
    """The shares a field of ``entries`` is paid by: the last row of
    ``table`` whose fewest entries it reaches (``check_table``).

    >>> [str(s) for s in shares_for_field(20)]
    ['50', '25', '25/2', '25/2']
    """
    entries = whole(entries, "entries", 1, MAX_ENTRIES)
    rows = check_table(table)
    return [shares for least, shares in rows if least <= entries][-1]


def check_table(table: Sequence[tuple[int, Sequence[Percent]]],
                field: str = "table") -> tuple[tuple[int, tuple[Fraction, ...]], ...]:
    """A table of places paid by field size, checked: rows ``(fewest
    entries, shares)``, the first from 1 entry, the fewest entries rising,
    each row's shares valid (``parse_shares``) and no more places than its
    fewest entries."""
    if not 1 <= len(table) <= MAX_PLACES:
        raise InvalidContest(f"{field}: must be 1 to {MAX_PLACES} rows")
    rows: list[tuple[int, tuple[Fraction, ...]]] = []
    for k, (least, shares) in enumerate(table):
        least = whole(least, f"{field}[{k}]", 1, MAX_ENTRIES)
        if (k == 0) != (least == 1) or (rows and least <= rows[-1][0]):
            raise InvalidContest(f"{field}[{k}]: the rows' fewest entries must start at 1 "
                                 "and rise")
        parsed = parse_shares(shares, f"{field}[{k}]")
        if len(parsed) > least:
            raise InvalidContest(f"{field}[{k}]: pays {len(parsed)} places to as few as "
                                 f"{least} entries")
        rows.append((least, parsed))
    return tuple(rows)


def show_percent(value: Fraction) -> str:
    """A per cent for people, exact up to 4 decimals (``12.5``), else to 2
    (``66.67``); no float on the way."""
    if (value * 10_000).denominator == 1:
        scaled, places = int(value * 10_000), 4
    else:
        scaled, places = round(value * 100), 2
    whole_part, part = divmod(scaled, 10 ** places)
    decimals = f"{part:0{places}d}".rstrip("0")
    return f"{whole_part}.{decimals}" if decimals else str(whole_part)
