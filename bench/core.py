"""Benchmark of the clock engine: commands per second, replay time, memory.

Prints its figures; never a timed test.  Run: ``python bench/core.py``.
Goals (issue "core clock engine"): >= 200,000 commands/s on one core; a
10,000-event log replayed in <= 50 ms; one live match in <= 20 KB.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc

from bgclock.core import (
    Double,
    Event,
    GameOver,
    Hit,
    Match,
    OpeningRoll,
    Resume,
    Stop,
    Take,
    replay,
)

SETTINGS = dict(rules="usbgf-2007-bronstein", length=999, clock={"reserve_ms": 10**12})


def match_log(n_events: int) -> list[Event]:
    """A long, realistic log: games of ~40 hits with a double, a take and a stop."""
    events: list[Event] = []
    t = 0
    game = 0
    while len(events) < n_events:
        game += 1
        dice = (6, 1) if game % 2 else (2, 5)
        events.append(OpeningRoll(at_ms=t, dice=dice))
        runner = "A" if dice[0] > dice[1] else "B"
        for move in range(40):
            t += 2_000 + (move * 7919) % 9_000
            if move == 10:
                events.append(Double(at_ms=t, side=runner))
                runner = "B" if runner == "A" else "A"
                t += 3_000
                events.append(Take(at_ms=t, side=runner))
                runner = "B" if runner == "A" else "A"
                continue
            if move == 20:
                events.append(Stop(at_ms=t, side=runner, reason="fallen_dice"))
                t += 5_000
                events.append(Resume(at_ms=t))
                continue
            events.append(Hit(at_ms=t, side=runner))
            runner = "B" if runner == "A" else "A"
        t += 1_000
        events.append(GameOver(at_ms=t, winner="A" if game % 3 else "B", result="single"))
        t += 30_000
    return events[:n_events]


def commands_per_second(events: list[Event], repeats: int) -> list[float]:
    rates = []
    for _ in range(repeats):
        m = Match.new(**SETTINGS)  # type: ignore[arg-type]
        apply = m.apply
        gc.disable()
        start = time.perf_counter_ns()
        for e in events:
            apply(e)
        elapsed = time.perf_counter_ns() - start
        gc.enable()
        rates.append(len(events) / (elapsed / 1e9))
    return rates


def decode_and_apply_per_second(events: list[Event], repeats: int) -> list[float]:
    """The server's path: a JSON-ready dict is validated into an event, then applied."""
    dicts = [e.to_dict() for e in events]
    rates = []
    for _ in range(repeats):
        m = Match.new(**SETTINGS)  # type: ignore[arg-type]
        start = time.perf_counter_ns()
        for d in dicts:
            m.apply(Event.from_dict(d))
        rates.append(len(dicts) / ((time.perf_counter_ns() - start) / 1e9))
    return rates


def replay_ms(events: list[Event], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        m = replay(events, **SETTINGS)  # type: ignore[arg-type]
        m.state()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def live_match_bytes() -> int:
    """Memory held by one live match in play (the state; the log is the store's)."""
    events = match_log(200)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    m = Match.new(**SETTINGS)  # type: ignore[arg-type]
    for e in events:
        m.apply(e)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    del events
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert m.state().game > 0
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    events = match_log(args.events)
    rates = commands_per_second(events, args.repeats)
    decoded = decode_and_apply_per_second(events, args.repeats)
    times = replay_ms(events, args.repeats)
    memory = live_match_bytes()
    print(f"core engine, {len(events)} events, {args.repeats} runs, one core")
    print(f"  applying commands: median {statistics.median(rates):,.0f} /s "
          f"(best {max(rates):,.0f} /s)   goal >= 200,000 /s")
    print(f"  decoding (from_dict) + applying: median {statistics.median(decoded):,.0f} /s")
    print(f"  replaying the {len(events)}-event log: median {statistics.median(times):.1f} ms "
          f"(best {min(times):.1f} ms)   goal <= 50 ms")
    print(f"  one live match: {memory:,} bytes   goal <= 20,480 bytes")


if __name__ == "__main__":
    main()
