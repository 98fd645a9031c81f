"""How close the round's forecast comes (issue 32 §8), on simulated evenings.

A deterministic simulation (``--seed``): ``--evenings`` rounds of
``--matches`` matches (lengths 5 to 11), USBGF simple delay clocks (2 min a
point of reserve, 12 s a move).  Each table has its own pace (seconds a
move), each game its number of moves, each move its thinking time; each
game is won by the stronger player more often and is worth 1, 2 or 4
points; 30 s between games.  At 25, 50 and 75 % of each round's real length
the clocks as they stand are given to ``forecast_round``; the forecast
round end and each running match's end are compared with what happened.

    PYTHONPATH=$PWD python bench/forecast.py
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from bgclock.tournament.forecast import MatchClock, forecast_round

MINUTE = 60_000
DELAY_MS = 12_000
PER_POINT_MS = 2 * MINUTE
BETWEEN_GAMES_MS = 30_000


@dataclass
class Played:
    """A simulated match: its states after every move, and its end."""

    length: int
    #: (at_ms, score_a, score_b, reserve_a, reserve_b, game), in order.
    states: list[tuple[int, int, int, int, int, int]]
    end_ms: int

    def at(self, t: int) -> tuple[int, int, int, int, int, int]:
        last = self.states[0]
        for s in self.states:
            if s[0] > t:
                break
            last = s
        return last


def play(rng: random.Random, length: int) -> Played:
    """One match from 0 ms."""
    strength = rng.uniform(0.35, 0.65)
    pace_ms = rng.uniform(6_000, 16_000)  # this table's mean time a move
    reserve = [PER_POINT_MS * length] * 2
    score = [0, 0]
    t = 0
    states = [(0, 0, 0, reserve[0], reserve[1], 1)]
    game = 1
    while max(score) < length:
        moves = rng.randint(36, 66)
        side = rng.randint(0, 1)
        for _ in range(moves):
            think = int(pace_ms * rng.uniform(0.3, 1.7))
            used = max(0, think - DELAY_MS)
            if used >= reserve[side]:  # the flag falls: the other side wins the match
                t += DELAY_MS + reserve[side]
                reserve[side] = 0
                score[1 - side] = length
                states.append((t, score[0], score[1], reserve[0], reserve[1], game))
                return Played(length=length, states=states, end_ms=t)
            reserve[side] -= used
            t += think
            states.append((t, score[0], score[1], reserve[0], reserve[1], game))
            side = 1 - side
        r = rng.random()
        points = 1 if r < 0.6 else 2 if r < 0.92 else 4
        score[0 if rng.random() < strength else 1] += points
        game += 1
        t += BETWEEN_GAMES_MS
        states.append((t, score[0], score[1], reserve[0], reserve[1], game))
    return Played(length=length, states=states, end_ms=t)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--evenings", type=int, default=200)
    p.add_argument("--matches", type=int, default=16)
    p.add_argument("--seed", type=int, default=32)
    args = p.parse_args()
    rng = random.Random(args.seed)
    rounds: dict[int, list[float]] = {25: [], 50: [], 75: []}
    matches: dict[int, list[float]] = {25: [], 50: [], 75: []}
    holding_right = {25: 0, 50: 0, 75: 0}
    lasted = []
    for _ in range(args.evenings):
        played = [play(rng, rng.choice((5, 7, 7, 9, 11))) for _ in range(args.matches)]
        end = max(m.end_ms for m in played)
        lasted.append(end / MINUTE)
        slowest = max(range(len(played)), key=lambda i: played[i].end_ms)
        for q in rounds:
            now = end * q // 100
            clocks = []
            for i, m in enumerate(played):
                if m.end_ms <= now:
                    continue
                _, a, b, ra, rb, game = m.at(now)
                clocks.append(MatchClock(key=i, length=m.length, score=(a, b), game=game,
                                         reserve_ms=(ra, rb), delay_ms=DELAY_MS,
                                         start_reserve_ms=(PER_POINT_MS * m.length,) * 2,
                                         started_ms=0, now_ms=now))
            f = forecast_round(clocks)
            assert f.end_ms is not None
            rounds[q].append((f.end_ms - end) / MINUTE)
            holding_right[q] += f.holding == slowest
            matches[q].extend((x.end_ms - played[int(str(x.key))].end_ms) / MINUTE
                              for x in f.matches)
    print(f"{args.evenings} simulated rounds of {args.matches} matches (5-11 points), seed "
          f"{args.seed}: a round lasted {pct(lasted, 0.5):.0f} min median "
          f"({min(lasted):.0f}-{max(lasted):.0f})")
    print(f"{'at':>4} {'round: mean':>12} {'|mean|':>7} {'|p50|':>6} {'|p90|':>6} "
          f"{'holding':>8}  {'match: mean':>11} {'|p50|':>6} {'|p90|':>6}  (minutes; + late)")
    for q in rounds:
        err, absr = rounds[q], [abs(x) for x in rounds[q]]
        absm = [abs(x) for x in matches[q]]
        print(f"{q:3d}% {sum(err) / len(err):12.1f} {sum(absr) / len(absr):7.1f} "
              f"{pct(absr, 0.5):6.1f} {pct(absr, 0.9):6.1f} "
              f"{100 * holding_right[q] / args.evenings:7.0f}%  "
              f"{sum(matches[q]) / len(matches[q]):11.1f} {pct(absm, 0.5):6.1f} "
              f"{pct(absm, 0.9):6.1f}")


if __name__ == "__main__":
    main()
