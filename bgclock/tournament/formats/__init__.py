"""The weekly formats (tournament.md section 6): Swiss, More Swiss, round
robin and double elimination, each a pure pairing (or draw) and standings
over results.  The knockout (the Main, the Progressive Consolation, the Last
Chance) is ``bgclock.tournament._draw``.  Nothing here reads a clock, a file,
a socket or the environment; randomness comes in as a seeded
``random.Random``.

>>> import random
>>> from bgclock.tournament.formats import Result, swiss_pairing, swiss_standings
>>> players = ["Ada", "Bo", "Cy", "Di"]
>>> first = swiss_pairing(players, [], rounds=2, rng=random.Random(1))
>>> len(first.pairs), first.bye
(2, None)
>>> r1 = [Result(a=a, b=b, winner=a) for a, b in first.round()]
>>> second = swiss_pairing(players, [r1], rounds=2, rng=random.Random(1))
>>> second.rematches, second.spread  # winners meet winners, nobody twice
(0, 0)
"""

from ._common import MAX_FORMAT_PLAYERS, Pair, Place, Record, Result, met_pairs, records
from .double import MAX_DOUBLE_PLAYERS, DoubleElimination, conflicts, drop_offsets, search_offsets
from .field import FieldRow, field_table
from .moreswiss import (
    check_losses,
    moreswiss_pairing,
    moreswiss_standings,
    out_rounds,
    players_in,
)
from .pairing import (
    Pairing,
    PairingReasons,
    PairReason,
    choose_bye,
    explain,
    optimal_pairs,
    pair_round,
)
from .roundrobin import roundrobin_schedule, roundrobin_standings
from .simulate import FORMATS, simulate_format
from .swiss import check_rounds, opponents_wins, swiss_pairing, swiss_standings

__all__ = [
    "MAX_FORMAT_PLAYERS", "Pair", "Place", "Record", "Result", "met_pairs", "records",
    "MAX_DOUBLE_PLAYERS", "DoubleElimination", "conflicts", "drop_offsets", "search_offsets",
    "FieldRow", "field_table",
    "check_losses", "moreswiss_pairing", "moreswiss_standings", "out_rounds", "players_in",
    "Pairing", "PairingReasons", "PairReason", "choose_bye", "explain", "optimal_pairs",
    "pair_round", "roundrobin_schedule", "roundrobin_standings", "FORMATS", "simulate_format",
    "check_rounds", "opponents_wins", "swiss_pairing", "swiss_standings",
]
