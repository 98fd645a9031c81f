"""``bgclock draw simulate --format``: each weekly format played out from a
seed, every winner drawn at random (tournament.md, ``bgclock draw``, "The
weekly formats").  Players are P1..PN; the same seed gives the same event."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .._errors import InvalidContest
from ._common import MAX_FORMAT_PLAYERS, Pair, Result
from .double import DoubleElimination
from .moreswiss import check_losses, moreswiss_pairing, moreswiss_standings, players_in
from .roundrobin import roundrobin_schedule, roundrobin_standings
from .swiss import check_rounds, swiss_pairing, swiss_standings

FORMATS: Final = ("knockout", "swiss", "moreswiss", "roundrobin", "double")


def _play(pairs: Sequence[Pair], rng: random.Random) -> list[Result]:
    """A round's results: a bye wins; every match's winner at random."""
    out = []
    for a, b in pairs:
        winner = a if b is None else (a if rng.random() < 0.5 else b)
        out.append(Result(a=a, b=b, winner=winner))
    return out


def _rounds(results: Sequence[Sequence[Result]]) -> list[list[dict[str, str | None]]]:
    return [[m.to_dict() for m in matches] for matches in results]


def simulate_format(fmt: str, players: int, *, seed: int, rounds: int | None = None,
                    losses: int | None = None) -> dict[str, object]:
    """Play a weekly format for P1..PN out at random from ``seed``: the
    spec's JSON (``format``, ``losses`` for More Swiss, ``rounds`` or, for
    double elimination, ``winners``/``losers``/``final``, ``standings``)."""
    if fmt not in FORMATS[1:]:
        raise InvalidContest(f"format: one of {', '.join(FORMATS)}")
    if isinstance(players, bool) or not isinstance(players, int) \
            or not 2 <= players <= MAX_FORMAT_PLAYERS:
        raise InvalidContest(f"players: must be a whole number from 2 to {MAX_FORMAT_PLAYERS} "
                             f"for --format {fmt}")
    for name, owner, value, check in (("rounds", "swiss", rounds, check_rounds),
                                      ("losses", "moreswiss", losses, check_losses)):
        if fmt == owner and value is None:
            raise InvalidContest(f"{name}: --format {owner} needs --{name} {name[0].upper()}")
        if fmt != owner and value is not None:
            raise InvalidContest(f"{name}: --{name} is for --format {owner}, not {fmt}")
        if value is not None:
            check(value)
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(1, players + 1)]
    results: list[list[Result]] = []
    if fmt == "double":
        event = DoubleElimination(names, rng)
        while event.champion is None:
            ready = event.ready()
            if not ready:  # every result recorded leaves a match to play or a champion
                raise AssertionError("double elimination: no match to play and no champion")
            for section, r, i, a, b in ready:
                event.record(section, r, i, a if rng.random() < 0.5 else b)
        return event.to_dict()
    if fmt == "swiss":
        assert rounds is not None
        for _ in range(rounds):
            results.append(_play(swiss_pairing(names, results, rounds=rounds, rng=rng).round(),
                                 rng))
        return {"format": "swiss", "rounds": _rounds(results),
                "standings": [p.to_dict() for p in swiss_standings(names, results)]}
    if fmt == "moreswiss":
        assert losses is not None
        while len(players_in(names, results, losses=losses)) >= 2:
            pairing = moreswiss_pairing(names, results, losses=losses, rng=rng)
            results.append(_play(pairing.round(), rng))
        return {"format": "moreswiss", "losses": losses, "rounds": _rounds(results),
                "standings": [p.to_dict()
                              for p in moreswiss_standings(names, results, losses=losses)]}
    for pairs in roundrobin_schedule(names, rng):
        results.append(_play(pairs, rng))
    return {"format": "roundrobin", "rounds": _rounds(results),
            "standings": [p.to_dict() for p in roundrobin_standings(names, results)]}
