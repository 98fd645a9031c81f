"""Events: validation on construction, the stored form, version checks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.core import (
    EVENT_TYPES,
    Adjust,
    Event,
    GameOver,
    InvalidCommand,
    OpeningRoll,
    Ruling,
    Stop,
)


def test_round_trip_of_every_kind() -> None:
    samples = [
        {"do": "opening_roll", "at_ms": 0, "dice": [6, 1]},
        {"do": "start", "at_ms": 1, "side": "A"},
        {"do": "late_start", "at_ms": 1, "side": "B"},
        {"do": "hit", "at_ms": 2, "side": "A"},
        {"do": "double", "at_ms": 3, "side": "A"},
        {"do": "take", "at_ms": 3, "side": "B"},
        {"do": "pass", "at_ms": 3, "side": "B"},
        {"do": "stop", "at_ms": 4, "side": "A", "reason": "fallen_dice"},
        {"do": "stop", "at_ms": 4, "reason": "restart"},
        {"do": "resume", "at_ms": 5},
        {"do": "concede", "at_ms": 6, "side": "A", "result": "gammon"},
        {"do": "claim", "at_ms": 6, "side": "B", "result": "single"},
        {"do": "accept", "at_ms": 7, "side": "B"},
        {"do": "reject", "at_ms": 7, "side": "B"},
        {"do": "ruling", "at_ms": 8, "decision": "gin", "result": "gammon"},
        {"do": "ruling", "at_ms": 8, "decision": "invalid"},
        {"do": "game_over", "at_ms": 9, "winner": "A", "result": "backgammon"},
        {"do": "break", "at_ms": 9, "side": "A"},
        {"do": "premature", "at_ms": 9, "side": "B"},
        {"do": "adjust", "at_ms": 9, "side": "B", "delta_ms": -5000},
        {"do": "penalty", "at_ms": 9, "side": "B", "points": 2},
    ]
    assert {s["do"] for s in samples} == set(EVENT_TYPES)
    for data in samples:
        event = Event.from_dict(data)
        stored = event.to_dict()
        assert stored["v"] == 1
        assert Event.from_dict(stored) == event
        assert {k: v for k, v in stored.items() if k != "v"} == data


@pytest.mark.parametrize(
    "data, words",
    [
        ({"do": "opening_roll", "at_ms": 0, "dice": [7, 1]}, "two dice from 1 to 6"),
        ({"do": "opening_roll", "at_ms": 0, "dice": [1]}, "two dice"),
        ({"do": "hit", "at_ms": 0, "side": "C"}, "'A' or 'B'"),
        ({"do": "hit", "at_ms": -1, "side": "A"}, "negative"),
        ({"do": "hit", "at_ms": 1.5, "side": "A"}, "whole number"),
        ({"do": "hit", "at_ms": True, "side": "A"}, "whole number"),
        ({"do": "hit", "at_ms": 0}, "missing field 'side'"),
        ({"do": "hit", "at_ms": 0, "side": "A", "color": "red"}, "unknown field 'color'"),
        ({"do": "jump", "at_ms": 0}, "unknown event"),
        ({"do": "stop", "at_ms": 0, "reason": "coffee"}, "reason"),
        ({"do": "concede", "at_ms": 0, "side": "A", "result": "double"}, "single, gammon"),
        ({"do": "ruling", "at_ms": 0, "decision": "gin"}, "needs the result"),
        ({"do": "ruling", "at_ms": 0, "decision": "lost", "result": "single"}, "takes no result"),
        ({"do": "penalty", "at_ms": 0, "side": "A", "points": 0}, "at least 1"),
        ({"do": "hit", "at_ms": 0, "side": "A", "v": 9}, "version"),
    ],
)
def test_malformed_events_are_invalid(data: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidCommand, match=words):
        Event.from_dict(data)


def test_events_are_frozen() -> None:
    e = Adjust(at_ms=1, side="A", delta_ms=5)
    with pytest.raises(AttributeError):
        e.delta_ms = 6  # type: ignore[misc]


def test_keyword_only() -> None:
    with pytest.raises(TypeError):
        GameOver(1, "A", "single")  # type: ignore[misc]
    assert Stop(at_ms=1, reason="restart").side is None  # the server's own stop
    with pytest.raises(InvalidCommand, match="side"):
        Stop(at_ms=1, reason="other")  # clock-script: stop takes its side
    assert Ruling(at_ms=1, decision="accept").result is None
    assert OpeningRoll(at_ms=0, dice=(2, 1)).dice == (2, 1)


@given(at=st.integers(0, 2**40), delta=st.integers(-(2**40), 2**40), side=st.sampled_from("AB"))
def test_adjust_round_trip(at: int, delta: int, side: str) -> None:
    e = Adjust(at_ms=at, side=side, delta_ms=delta)
    assert Event.from_dict(e.to_dict()) == e
