"""Money of a tournament, worked out (issue 36 §2, §3): pure, integer cents.

The prize pool from the entries, the shares per place (or the places paid
by field size), each place's amount with ties shared, and side pools paid in
a hierarchy across brackets.  docs/tournament.md, "Money and points", gives
the rules and their sources.

>>> from bgclock.tournament.money import payouts, prize_pool
>>> payouts(prize_pool(80, 40_000, "93.25"), "50,25,12.5,12.5").to_dict()["places"][2]
{'place': 3, 'amount': 373000}
"""

from .._side import MAX_ENTRY_CENTS
from ._payouts import (
    MAX_POOL_CENTS,
    MAX_UNIT_CENTS,
    Payout,
    Tier,
    hierarchy_payouts,
    parse_hierarchy,
    payouts,
)
from ._pool import (
    DEFAULT_TABLE,
    MAX_ADDED_CENTS,
    MAX_ENTRIES,
    MAX_PLACES,
    check_table,
    parse_shares,
    parse_tied,
    percent,
    prize_pool,
    shares_for_field,
    show_percent,
    whole,
)
from ._split import split

__all__ = [
    "DEFAULT_TABLE", "MAX_ADDED_CENTS", "MAX_ENTRIES", "MAX_ENTRY_CENTS", "MAX_PLACES",
    "MAX_POOL_CENTS", "MAX_UNIT_CENTS", "Payout", "Tier", "check_table", "hierarchy_payouts",
    "parse_hierarchy", "parse_shares", "parse_tied", "payouts", "percent", "prize_pool",
    "shares_for_field", "show_percent", "split", "whole",
]
