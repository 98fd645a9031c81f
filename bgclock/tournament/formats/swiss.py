"""Swiss (tournament.md section 6; DrawBoss's "Swiss (random pairing)"):
R rounds fixed beforehand, nobody eliminated, each round paired by
``pairing.pair_round`` from the results known when it starts.

Standings: by wins (a bye counts as a win), then by the sum of the final
wins of the opponents met (a bye adds nothing; an opponent met twice counts
twice, as Buchholz sums over rounds); players still tied share the place,
the best of the places shared.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .._errors import IllegalContest
from ._common import Place, Record, Result, check_players, ranked, records, whole_number
from .pairing import Pairing, pair_round

#: The most rounds a Swiss takes.
MAX_ROUNDS = 200


def check_rounds(rounds: int) -> int:
    """A Swiss's number of rounds, from 1 to MAX_ROUNDS."""
    return whole_number(rounds, "rounds", 1, MAX_ROUNDS)


def swiss_pairing(players: Sequence[str], results: Sequence[Sequence[Result]], *,
                  rounds: int, rng: random.Random) -> Pairing:
    """The next round's pairing from the results so far (refused once the
    ``rounds`` are played)."""
    names = check_players(players)
    if len(results) >= check_rounds(rounds):
        raise IllegalContest(f"the Swiss is over: its {rounds} rounds are played")
    return pair_round(names, records(names, results), rng)


def opponents_wins(rec: dict[str, Record], player: str) -> int:
    """The tie-break: the sum of the final wins of the opponents met."""
    return sum(rec[o].wins for o in rec[player].opponents)


def swiss_standings(players: Sequence[str],
                    results: Sequence[Sequence[Result]]) -> list[Place]:
    """Wins, then the opponents' wins; ties share the best place."""
    names = check_players(players)
    rec = records(names, results)
    return ranked(names, lambda p: (-rec[p].wins, -opponents_wins(rec, p)), rec)
