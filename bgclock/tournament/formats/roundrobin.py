"""Round robin (tournament.md section 6; DrawBoss, Backgammon Hotspot, the
UK Masters Series): every two players meet exactly once: N - 1 rounds for an
even N, N rounds for an odd N with one bye a round (each player exactly one).

The schedule is the circle method: the players drawn into a random order
(an odd field gets an empty seat, whose opponent has the bye), the first
seat fixed and the others turning one place a round; seat i meets seat
n-1-i.  Every two seats face each other in exactly one round.

Standings: by wins (the bye counts as one, and every player of an odd field
has exactly one), then by the wins in the matches among the players tied
on wins (one head-to-head table per tie, not applied again inside it);
players still tied share the place, the best of the places shared.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ._common import Pair, Place, Result, check_players, ranked, records


def roundrobin_schedule(players: Sequence[str], rng: random.Random) -> list[list[Pair]]:
    """Every round's pairs (the bye last, as ``(player, None)``)."""
    names = check_players(players)
    seats: list[str | None] = list(names)
    rng.shuffle(seats)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    out: list[list[Pair]] = []
    for _ in range(n - 1):
        pairs: list[Pair] = []
        bye: Pair | None = None
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a is None or b is None:
                player = a if b is None else b
                assert player is not None
                bye = (player, None)
            else:
                pairs.append((a, b) if rng.random() < 0.5 else (b, a))
        out.append(pairs + ([bye] if bye else []))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return out


def roundrobin_standings(players: Sequence[str],
                         results: Sequence[Sequence[Result]]) -> list[Place]:
    """Wins, then the wins among the tied players; ties share the best place."""
    names = check_players(players)
    rec = records(names, results)
    by_wins: dict[int, set[str]] = {}
    for p in names:
        by_wins.setdefault(rec[p].wins, set()).add(p)
    head_to_head = dict.fromkeys(names, 0)
    for matches in results:
        for m in matches:
            if m.b is not None and m.b in by_wins[rec[m.a].wins]:
                head_to_head[m.winner] += 1
    return ranked(names, lambda p: (-rec[p].wins, -head_to_head[p]), rec)
