"""The board engine: positions, IDs, legal plays and what can still happen.

Pure: standard library only; never reads a clock, a file, a socket or the
environment.  Everything a caller may touch is re-exported here.

- :class:`Position` - checkers of both sides, seen from the side on roll.
- :func:`position_from_id` / :func:`position_id` - gnubg Position IDs.
- :func:`match_from_id` / :func:`match_id` / :class:`MatchState` - gnubg Match IDs.
- :func:`position_from_xgid` / :func:`xgid` - eXtreme Gammon XGIDs.
- :func:`read_position` - a position as a person types it (Position ID,
  ``ID:MATCHID`` or XGID), with its match when given.
- :func:`legal_plays` / :class:`Play` - the legal plays of a roll.
- :func:`can_happen` / :func:`outcome_table` / :class:`Solver` / :class:`Answer` -
  whether a side can still win a single game, a gammon or a backgammon, under
  three readings: ``possible``, ``against_best_defence`` and ``certain``
  (see ``docs/adjudication.md``).
- :func:`rule_dispute` - the director's ruling on a clock dispute (BIBA
  expiry, rejected concession or claim) computed from the position.
"""

from bgclock.board._dispute import DisputeRuling, rule_dispute
from bgclock.board._ids import (
    MatchState,
    match_from_id,
    match_id,
    position_from_id,
    position_from_xgid,
    position_id,
    read_position,
    xgid,
)
from bgclock.board._moves import ROLLS, Play, legal_plays, resulting_positions
from bgclock.board._outcomes import (
    DEFAULT_NODE_BUDGET,
    READINGS,
    RESULT_POINTS,
    RESULTS,
    SIDES,
    Answer,
    Reading,
    Result,
    Side,
    Solver,
    can_happen,
    outcome_table,
)
from bgclock.board._position import (
    BoardError,
    InvalidId,
    InvalidPosition,
    Position,
)

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "READINGS",
    "RESULTS",
    "RESULT_POINTS",
    "ROLLS",
    "SIDES",
    "Answer",
    "DisputeRuling",
    "Reading",
    "Result",
    "Side",
    "Solver",
    "can_happen",
    "outcome_table",
    "BoardError",
    "InvalidId",
    "InvalidPosition",
    "MatchState",
    "Play",
    "Position",
    "legal_plays",
    "match_from_id",
    "match_id",
    "position_from_id",
    "position_from_xgid",
    "position_id",
    "read_position",
    "resulting_positions",
    "rule_dispute",
    "xgid",
]
