"""Pairing a round of Swiss and More Swiss (tournament.md section 6), exactly.

  1. When the players in are odd in number, one gets a bye: among the
     players in with the fewest byes so far, one with the most losses, drawn
     at random among those.
  2. The others are paired so that, in this order: (a) the number of pairs
     that already met in this event is the least possible; (b) the sum, over
     the pairs, of the square of the difference of their losses is the least
     possible; (c) among the pairings left, one is drawn at random.

Theory of operation
-------------------
Step 2 is a minimum-cost perfect matching on the complete graph of the
players to pair, with a lexicographic cost.  It is made one integer cost per
pair, in three tiers that cannot spill into each other:

    cost(x, y) = met(x, y) * A + (losses(x) - losses(y))**2 * B + noise(x, y)

with ``noise`` a random integer in [0, T) drawn from the round's
``random.Random``, ``B = p * T`` (the noise of the p pairs adds up to less
than one unit of B) and ``A = p * Q * B + B`` (Q the largest squared loss
difference: the squared differences and the noise of a whole pairing add up
to less than one rematch).  The cheapest perfect matching under this cost has
the fewest rematches, then the least sum of squared differences, then the
least noise: a random pairing among the optimal ones, and every optimal
pairing can come out (it is the one drawn whenever its pairs draw the lowest
noise).  Integer costs keep it exact: no float ever decides a pairing.

The matching is Edmonds' blossom algorithm (maximum weight, maximum
cardinality, O(n^3)) from rustworkx, on weights ``M - cost``; it pairs 256
players in about 15 ms (bench/formats.py, docs/performance.md).  When nobody
to pair has met anyone and all have the same losses (round 1), every pairing
is optimal and the round is a uniformly random pairing: the players shuffled
and paired in order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .._errors import IllegalContest, InvalidContest
from ._common import Pair, Record, name_order

#: The noise tier's width in bits: ties among optimal pairings are broken at
#: random, never the optimum itself.  Wide, so that two optimal pairings
#: practically never draw the same total noise: the matching's own choice
#: between equal weights is not reproducible (it varies from call to call).
NOISE_BITS: Final = 48
NOISE: Final = 1 << NOISE_BITS


@dataclass(frozen=True, slots=True, kw_only=True)
class Pairing:
    """A round's pairing: the pairs, the bye (or None), and what the
    objective counted: ``rematches`` (pairs that already met) and ``spread``
    (the sum of the squared loss differences)."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    rematches: int
    spread: int

    def round(self) -> list[Pair]:
        """The round as pairs, the bye last as ``(player, None)``."""
        out: list[Pair] = list(self.pairs)
        if self.bye is not None:
            out.append((self.bye, None))
        return out


def choose_bye(players_in: Sequence[str], rec: Mapping[str, Record],
               rng: random.Random) -> str | None:
    """The bye of a round (None when the players in are even in number):
    among those with the fewest byes so far, one with the most losses, drawn
    at random."""
    if len(players_in) % 2 == 0:
        return None
    fewest = min(rec[p].byes for p in players_in)
    candidates = [p for p in players_in if rec[p].byes == fewest]
    most = max(rec[p].losses for p in candidates)
    candidates = sorted((p for p in candidates if rec[p].losses == most), key=name_order)
    return candidates[rng.randrange(len(candidates))]


def _met(rec: Mapping[str, Record], players: Sequence[str]) -> set[frozenset[str]]:
    inside = set(players)
    return {frozenset((p, q)) for p in players for q in rec[p].opponents if q in inside}


def pair_round(players_in: Sequence[str], rec: Mapping[str, Record],
               rng: random.Random) -> Pairing:
    """Pair a round of the players in (section 6's pairing): the bye, then an
    optimal pairing of the others drawn at random among the optimal ones."""
    players = sorted(set(players_in), key=name_order)
    if len(players) != len(players_in):
        raise InvalidContest("players: a player is listed twice")
    if len(players) < 2:
        raise IllegalContest("a round needs two players or more in")
    missing = [p for p in players if p not in rec]
    if missing:
        raise InvalidContest(f"players: {missing[0]} has no record")
    bye = choose_bye(players, rec, rng)
    pool = [p for p in players if p != bye]
    met = _met(rec, pool)
    pairs = optimal_pairs(pool, {p: rec[p].losses for p in pool}, met, rng)
    rematches = sum(1 for a, b in pairs if frozenset((a, b)) in met)
    spread = sum((rec[a].losses - rec[b].losses) ** 2 for a, b in pairs)
    return Pairing(pairs=tuple(pairs), bye=bye, rematches=rematches, spread=spread)


def optimal_pairs(pool: Sequence[str], losses: Mapping[str, int], met: set[frozenset[str]],
                  rng: random.Random) -> list[tuple[str, str]]:
    """A perfect pairing of ``pool`` (even in number) with the fewest pairs in
    ``met``, then the least sum of squared loss differences, drawn at random
    among those (see the module's theory of operation)."""
    n = len(pool)
    if n % 2:
        raise InvalidContest("players: an odd number of players cannot all be paired")
    if n == 0:
        return []
    order = list(pool)
    rng.shuffle(order)
    if n == 2:
        return [(order[0], order[1])]
    if not met and len({losses[p] for p in order}) == 1:
        # every pairing is optimal: a uniformly random one
        return [(order[i], order[i + 1]) for i in range(0, n, 2)]
    import rustworkx  # imported here: the server starts without it until a Swiss is paired

    p = n // 2
    low, high = min(losses.values()), max(losses.values())
    most_squared = (high - low) ** 2
    b_unit = p * NOISE
    a_unit = p * most_squared * b_unit + b_unit
    ceiling = a_unit + most_squared * b_unit + NOISE
    lost = [losses[x] for x in order]
    bits = rng.getrandbits
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        li, xi = lost[i], order[i]
        for j in range(i + 1, n):
            d = li - lost[j]
            cost = d * d * b_unit + bits(NOISE_BITS)
            if met and frozenset((xi, order[j])) in met:
                cost += a_unit
            edges.append((i, j, ceiling - cost))
    graph: rustworkx.PyGraph[int, int] = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=_weight)
    if len(matched) != p:  # the graph is complete: never happens
        raise AssertionError("the matching left a player unpaired")
    # each pair as (earlier, later) in the shuffled order: the matching's own
    # orientation of a pair is not reproducible
    return sorted(((order[min(i, j)], order[max(i, j)]) for i, j in matched),
                  key=lambda pair: name_order(min(pair, key=name_order)))


def _weight(w: int) -> int:
    return w


@dataclass(frozen=True, slots=True, kw_only=True)
class PairReason:
    """Why a pair is as it is: ``floated`` when the losses differ (the one with
    fewer losses plays down), ``rematch_round`` (1-based) when they met
    before."""

    a: str
    b: str
    a_losses: int
    b_losses: int
    rematch_round: int | None
    floated: bool
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PairingReasons:
    """A round's pairing explained for the director."""

    bye: str | None
    bye_why: str
    #: The fewest rematches any pairing of the round can have (the pairing's own).
    least_rematches: int
    #: The least sum of squared loss differences with rematches allowed:
    #: the floats the odd loss groups force; the pairing's ``spread`` is
    #: above it only where floats avoid rematches.
    forced_spread: int
    spread: int
    pairs: tuple[PairReason, ...]

    def lines(self) -> list[str]:
        """The reasons as the desk prints them."""
        out = [self.bye_why] if self.bye is not None else []
        out += [p.why for p in self.pairs if p.floated or p.rematch_round is not None]
        return out or ["every pair has the same losses and never met"]


def explain(pairing: Pairing, rec: Mapping[str, Record],
            first_met: Mapping[frozenset[str], int]) -> PairingReasons:
    """The pairing's reasons: the bye's, each float's (an odd loss group, or
    a rematch avoided) and each rematch's (no pairing has fewer).
    ``first_met``: the 0-based round each two players first met in."""
    pool = [x for pair in pairing.pairs for x in pair]
    bye_why = ""
    if pairing.bye is not None:
        r = rec[pairing.bye]
        fewest = [x for x in [*pool, pairing.bye] if rec[x].byes == r.byes]
        tied = [x for x in fewest if rec[x].losses == r.losses]
        bye_why = (f"bye to {pairing.bye}: {r.byes} byes so far (the fewest), {r.losses} "
                   f"losses (the most among the {len(fewest)} with the fewest byes), drawn "
                   f"among {len(tied)}")
    lost = sorted(rec[x].losses for x in pool)
    forced = sum((lost[i + 1] - lost[i]) ** 2 for i in range(0, len(lost), 2))
    groups: dict[int, int] = {}
    for x in pool:
        groups[rec[x].losses] = groups.get(rec[x].losses, 0) + 1
    reasons = []
    for a, b in pairing.pairs:
        la, lb = rec[a].losses, rec[b].losses
        met = first_met.get(frozenset((a, b)))
        why = []
        if met is not None:
            why.append(f"{a} and {b} met in round {met + 1}: no pairing of this round has "
                       f"fewer than {pairing.rematches} rematch"
                       f"{'es' if pairing.rematches != 1 else ''}")
        if la != lb:
            odd = [f"{n} with {losses} loss{'es' if losses != 1 else ''}"
                   for losses, n in sorted(groups.items()) if n % 2 and losses in (la, lb)]
            if pairing.spread > forced:
                cause = ("pairing by record would need a rematch more"
                         + (f" ({', '.join(odd)}: odd)" if odd else ""))
            else:
                cause = (f"{', '.join(odd)}: an odd number, one floats" if odd
                         else "the groups between them are odd in number")
            why.append(f"{a} ({la} losses) plays {b} ({lb} losses): {cause}")
        reasons.append(PairReason(a=a, b=b, a_losses=la, b_losses=lb, rematch_round=(
            None if met is None else met + 1), floated=la != lb,
            why="; ".join(why) or f"{a} - {b}: same losses, never met"))
    return PairingReasons(bye=pairing.bye, bye_why=bye_why, least_rematches=pairing.rematches,
                          forced_spread=forced, spread=pairing.spread, pairs=tuple(reasons))
