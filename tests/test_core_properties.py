"""Invariants of the clock engine under random command sequences (Hypothesis).

Random presets, small reserves (so that flags fall), random commands at random
instants.  After every step: no reserve below zero, at most one clock running,
time conserved between events, the event log (and a snapshot) replays to the live state, a
refused command changes nothing, and an expiry happens exactly at its instant.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bgclock.core import (
    EVENT_TYPES,
    PRESETS,
    RESULTS,
    STOP_REASONS,
    ClockError,
    Event,
    Match,
    replay,
)

SIDE = st.sampled_from(["A", "B"])
RESULT = st.sampled_from(sorted(RESULTS))


def _fields(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    per_kind: dict[str, st.SearchStrategy[dict[str, Any]]] = {
        "opening_roll": st.fixed_dictionaries(
            {"dice": st.tuples(st.integers(1, 6), st.integers(1, 6))}
        ),
        "stop": st.fixed_dictionaries(
            {"side": SIDE, "reason": st.sampled_from(sorted(STOP_REASONS))}
        ),
        "resume": st.just({}),
        "concede": st.fixed_dictionaries({"side": SIDE, "result": RESULT}),
        "claim": st.fixed_dictionaries({"side": SIDE, "result": RESULT}),
        "ruling": st.one_of(
            st.fixed_dictionaries({"decision": st.sampled_from(["accept", "invalid", "lost"])}),
            st.fixed_dictionaries({"decision": st.just("gin"), "result": RESULT}),
        ),
        "game_over": st.fixed_dictionaries({"winner": SIDE, "result": RESULT}),
        "adjust": st.fixed_dictionaries(
            {"side": SIDE, "delta_ms": st.integers(-30_000, 30_000)}
        ),
        "penalty": st.fixed_dictionaries({"side": SIDE, "points": st.integers(1, 3)}),
    }
    return per_kind.get(kind, st.fixed_dictionaries({"side": SIDE}))


# Hits and opening rolls dominate real matches; weight them up.
KINDS = sorted(EVENT_TYPES) + ["hit"] * 8 + ["opening_roll"] * 3 + ["double", "take"] * 2
COMMAND = st.sampled_from(KINDS).flatmap(
    lambda kind: _fields(kind).map(lambda f: {"do": kind, **f})
)
DT = st.one_of(st.just(0), st.just(1), st.integers(0, 3_000), st.integers(0, 40_000))


def _conserved(mode: str, before: dict[str, Any], after: dict[str, Any], ran: int) -> bool:
    lost = before["reserve_ms"] - after["reserve_ms"]
    if mode == "simple_delay":
        return lost + (before["delay_ms"] - after["delay_ms"]) == ran
    return lost == ran


class MatchMachine(RuleBasedStateMachine):
    match: Match
    log: list[Event]
    config: dict[str, Any]
    t: int

    @initialize(
        rules=st.sampled_from(sorted(PRESETS)),
        length=st.integers(1, 9),
        data=st.data(),
    )
    def setup(self, rules: str, length: int, data: st.DataObject) -> None:
        score = (data.draw(st.integers(0, length - 1)), data.draw(st.integers(0, length - 1)))
        clock: dict[str, object] = {"reserve_ms": data.draw(st.integers(0, 60_000))}
        if data.draw(st.booleans()):
            clock["mode"] = data.draw(
                st.sampled_from(["simple_delay", "bronstein", "standard", "increment"])
            )
        if data.draw(st.booleans()):
            clock["delay_ms"] = data.draw(st.integers(0, 15_000))
        self.config = dict(
            rules=rules, length=length, score=score, teams=data.draw(st.booleans()),
            crawford=data.draw(st.booleans()), clock=clock,
        )
        self.match = Match.new(**self.config)
        self.log = []
        self.t = 0

    @rule(dt=DT, command=COMMAND)
    def command(self, dt: int, command: dict[str, Any]) -> None:
        m = self.match
        t0 = self.t
        t1 = t0 + dt
        before = m.state(t0).to_dict()
        expiry = m.expires_at()
        mode = m.settings.mode.name

        # Time conserved while nothing happens; an expiry exactly at its instant.
        probe = m.copy()
        after = probe.state(t1).to_dict()
        if before["phase"] == "playing":
            runner = before["on_turn"]
            idle = "B" if runner == "A" else "A"
            assert expiry is not None and expiry > t0
            # Compare while the clock still runs: after a flag the display moves on.
            last = min(t1, expiry - 1)
            if last >= t0:
                running = m.copy().state(last).to_dict()
                assert running[runner]["running"] is True
                assert _conserved(mode, before[runner], running[runner], last - t0), (
                    before, running)
                assert running[idle]["reserve_ms"] == before[idle]["reserve_ms"]
            if expiry <= t1:
                at_flag = m.copy().state(expiry).to_dict()
                assert at_flag[runner]["running"] is False
                assert at_flag[runner]["reserve_ms"] in (0, 300_000)  # ABA resets to 5:00
        else:
            assert expiry is None
            assert after["A"] == before["A"] and after["B"] == before["B"]

        event = Event.from_dict({"at_ms": t1, **command})
        settled = m.state(t1).to_dict()
        try:
            m.apply(event)
        except ClockError:
            assert m.state(t1).to_dict() == settled, "a refused command changed the state"
        else:
            self.log.append(event)
        self.t = t1

    @invariant()
    def clocks_are_sane(self) -> None:
        s = self.match.state(self.t)
        assert s.A.reserve_ms >= 0 and s.B.reserve_ms >= 0
        assert s.A.delay_ms >= 0 and s.B.delay_ms >= 0
        assert not (s.A.running and s.B.running)
        assert (s.phase == "playing") == (s.A.running or s.B.running)
        if s.phase == "match_over":
            assert s.winner is not None

    @invariant()
    def log_replays_to_live_state(self) -> None:
        rebuilt = replay(self.log, **self.config)
        assert rebuilt.state(self.t).to_dict() == self.match.copy().state(self.t).to_dict()

    @invariant()
    def snapshot_restores_the_live_match(self) -> None:
        # the server folds a table from its stored snapshot plus the tail
        stored = json.loads(json.dumps(self.match.to_snapshot()))
        restored = Match.from_snapshot(self.match.settings, stored)
        assert restored.to_snapshot() == self.match.to_snapshot()
        assert restored.state(self.t).to_dict() == self.match.copy().state(self.t).to_dict()


MatchMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMatchInvariants = MatchMachine.TestCase
