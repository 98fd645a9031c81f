"""Master points a federation counts (issue 36 §4): the USBGF's 2019
formula, as data tables citing their source.  Pure; docs/tournament.md,
"Money and points".

>>> from bgclock.tournament.points import match_win_points
>>> round(match_win_points(9, division="novice"), 4)
0.5
"""

from ._usbgf import (
    DIVISION_WEIGHTS,
    RANK_FACTORS,
    SOURCE,
    Finisher,
    master_points,
    match_win_points,
    placement_points,
    rank_factor,
    rounded,
)

__all__ = ["DIVISION_WEIGHTS", "RANK_FACTORS", "SOURCE", "Finisher", "master_points",
           "match_win_points", "placement_points", "rank_factor", "rounded"]
