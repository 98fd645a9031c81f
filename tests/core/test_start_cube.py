"""``start``'s cube (clock-script ``start``): its stored form and its checks.

The rules of the cube as it stands are pinned by the clock scripts
(``tests/scripts/it-tournament/clock-start-cube-*.json``); here, the event
itself: read from a step or the stored log, written back the same, refused
as malformed when its value is no power of two from 1 to 2^20.
"""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.core import MAX_CUBE, Cube, Event, InvalidCommand, Start


@pytest.mark.parametrize(("given", "cube"), [
    ({"value": 4, "owner": "B"}, Cube(value=4, owner="B")),
    ({"value": 2}, Cube(value=2, owner=None)),  # the other field as on a new game
    ({"owner": "A"}, Cube(value=1, owner="A")),
    ({"owner": None}, Cube()),
    ({}, Cube()),
    ({"value": MAX_CUBE, "owner": "A"}, Cube(value=2**20, owner="A")),
])
def test_a_start_reads_its_cube_and_stores_it_whole(given: dict[str, Any], cube: Cube) -> None:
    event = Event.from_dict({"do": "start", "at_ms": 5, "side": "A", "cube": given})
    assert event == Start(at_ms=5, side="A", cube=cube)
    stored = event.to_dict()
    assert stored["cube"] == {"value": cube.value, "owner": cube.owner}
    assert Event.from_dict(stored) == event


def test_a_start_without_a_cube_is_stored_as_before() -> None:
    event = Event.from_dict({"do": "start", "at_ms": 0, "side": "B"})
    assert event == Start(at_ms=0, side="B") and event.to_dict() == {
        "v": 1, "do": "start", "at_ms": 0, "side": "B"}


@pytest.mark.parametrize("cube", [
    {"value": 0}, {"value": 3}, {"value": 6, "owner": "A"}, {"value": -2}, {"value": 2**21},
    {"value": 1.5}, {"value": True}, {"value": "2"}, {"value": None}, {"owner": "C"},
    {"owner": ["A"]}, {"value": 2, "owner": "A", "side": "B"}, [2, "A"], "centered", 2,
])
def test_a_cube_that_is_no_cube_is_malformed(cube: Any) -> None:
    with pytest.raises(InvalidCommand, match="cube"):
        Event.from_dict({"do": "start", "at_ms": 0, "side": "A", "cube": cube})
