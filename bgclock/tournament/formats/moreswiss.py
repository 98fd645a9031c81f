"""More Swiss (tournament.md section 6; the Chicago Open's Open and
Intermediate): "Players will be eliminated when they get their fourth loss.
Byes will be treated as wins. ... No player can receive a second bye until
all remaining players have had at least one bye. Byes are awarded to a
player with the worst possible record. Players will be paired against
players with as similar a record as possible".

A player is out at their L-th loss; rounds go on while two or more players
are in, each paired by ``pairing.pair_round`` over the players in.
Standings: the last player in first, then by the round in which a player
went out, later first; players out in the same round share the place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .._errors import IllegalContest
from ._common import Place, Result, check_players, ranked, records, whole_number
from .pairing import Pairing, pair_round

#: The most losses a More Swiss may allow.
MAX_LOSSES = 20


def check_losses(losses: int) -> int:
    """L, the loss that puts a player out: from 1 to MAX_LOSSES."""
    return whole_number(losses, "losses", 1, MAX_LOSSES)


def players_in(players: Sequence[str], results: Sequence[Sequence[Result]], *,
               losses: int) -> list[str]:
    """The players with fewer than ``losses`` losses, in the given order."""
    rec = records(players, results)
    return [p for p in players if rec[p].losses < losses]


def out_rounds(players: Sequence[str], results: Sequence[Sequence[Result]], *,
               losses: int) -> dict[str, int]:
    """For every player out, the 0-based round of their L-th loss."""
    lost = dict.fromkeys(players, 0)
    out: dict[str, int] = {}
    for r, matches in enumerate(results):
        for m in matches:
            loser = m.loser
            if loser is not None:
                lost[loser] += 1
                if lost[loser] == losses:
                    out[loser] = r
    return out


def moreswiss_pairing(players: Sequence[str], results: Sequence[Sequence[Result]], *,
                      losses: int, rng: random.Random) -> Pairing:
    """The next round's pairing of the players in (refused once fewer than
    two are in: the event is over)."""
    names = check_players(players)
    check_losses(losses)
    rec = records(names, results)
    still = [p for p in names if rec[p].losses < losses]
    if len(still) < 2:
        raise IllegalContest("the More Swiss is over: fewer than two players are in")
    return pair_round(still, rec, rng)


def moreswiss_standings(players: Sequence[str], results: Sequence[Sequence[Result]], *,
                        losses: int) -> list[Place]:
    """The players in first (sharing place 1 until one is left), then the
    players out, the later round first; the same round shares the place."""
    names = check_players(players)
    check_losses(losses)
    rec = records(names, results)
    out = out_rounds(names, results, losses=losses)
    return ranked(names, lambda p: (0, 0) if p not in out else (1, -out[p]), rec)
