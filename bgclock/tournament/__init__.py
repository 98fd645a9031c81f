"""bgclock.tournament: the tournament around the clocks, pure and sans-I/O.

Late arrivals, Swing, couples and the draw of the Main and its Progressive
Consolation, as the Italian rule book describes them, and the weekly formats
(``formats``: Swiss, More Swiss, round robin, double elimination), as
``../shared/spec/tournament.md`` pins them down.  Nothing here reads a clock,
a file, a socket or the environment; randomness comes in as a seeded
``random.Random``.

>>> from bgclock.tournament import LateArrival
>>> LateArrival(length=7, absent=("A",), from_ms=1_200_000).state(2_400_000).score
(0, 4)
"""

from ._couples import WINS_NEEDED, Couple, Encounter, Standing, schedule, standings
from ._draw import (
    Bracket,
    ConsolationDraw,
    MainDraw,
    Match,
    bracket_size,
    first_match_losers,
    simulate,
    spread,
)
from ._errors import ContestError, IllegalContest, InvalidContest
from ._late import DEFAULT_GRACE_MS, POINT_EVERY_MS, LateArrival, LateState
from ._names import surname, surname_key
from ._prizes import STANDING_EVENTS
from ._rating import (
    START_RATING,
    Rated,
    RatedMatch,
    RatingChange,
    experience_factor,
    rate,
    rate_all,
    rated_matches,
    register_key,
    upset_probability,
)
from ._running import (
    ACTIONS,
    CLOCK_POLICIES,
    EVENTS,
    Player,
    RoundSettings,
    Tournament,
)
from ._standings import (
    EventStandings,
    Placing,
    Standings,
    bracket_standings,
    couples_standings,
    player_results,
    seats,
    swing_standings,
)
from ._standings import standings as final_standings
from ._swing import (
    RESULTS,
    GameOutcome,
    RoundOutcome,
    Swing,
    SwingGame,
    cpp_for_round,
    swing_game_result,
)
from .actions import ACTION_TYPES, Action, decode_action, encode_action
from .formats import (
    DoubleElimination,
    FieldRow,
    Pairing,
    PairingReasons,
    Result,
    explain,
    field_table,
    moreswiss_pairing,
    moreswiss_standings,
    roundrobin_schedule,
    roundrobin_standings,
    simulate_format,
    swiss_pairing,
    swiss_standings,
)

__all__ = [
    "surname", "surname_key",
    "ACTIONS", "CLOCK_POLICIES", "EVENTS", "Player", "RoundSettings", "Tournament",
    "DEFAULT_GRACE_MS", "POINT_EVERY_MS", "RESULTS", "WINS_NEEDED", "Bracket",
    "ConsolationDraw", "ContestError", "Couple", "Encounter", "GameOutcome", "IllegalContest",
    "InvalidContest", "LateArrival", "LateState", "MainDraw", "Match", "RoundOutcome", "Swing",
    "Standing", "SwingGame", "bracket_size", "cpp_for_round", "first_match_losers", "schedule",
    "simulate", "spread", "standings", "swing_game_result",
    # the tournament's end (issue 19 §4)
    "STANDING_EVENTS", "EventStandings", "Placing", "Standings", "bracket_standings",
    "couples_standings", "final_standings", "player_results", "seats", "swing_standings",
    "START_RATING", "Rated", "RatedMatch", "RatingChange", "experience_factor", "rate",
    "rate_all", "rated_matches", "register_key", "upset_probability",
    # every action declared once (issue 18 §1)
    "ACTION_TYPES", "Action", "decode_action", "encode_action",
    # the weekly formats (issue 35, tournament.md section 6)
    "DoubleElimination", "FieldRow", "Pairing", "PairingReasons", "Result", "explain",
    "field_table", "moreswiss_pairing", "moreswiss_standings", "roundrobin_schedule",
    "roundrobin_standings", "simulate_format", "swiss_pairing", "swiss_standings",
]
