"""A match's snapshot (``Match.to_snapshot``) makes the match its log made.

The server folds a table from its stored snapshot plus the events after it
(``bgclock.server.live.snapshots``): at every step of every clock script, a
match rebuilt from a snapshot taken there (through JSON, as stored) must
answer every later event as the match that never stopped, and read the same
state at every instant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bgclock.core import SNAPSHOT_VERSION, ClockError, Hit, Match, OpeningRoll
from bgclock.script import load_script, read_json
from tests.conftest import SCRIPTS, SHARED

OURS = sorted(SCRIPTS.glob("*/*.json"))
EXAMPLES = sorted((SHARED / "spec" / "examples").glob("*.json"))


def _stored(match: Match) -> dict[str, Any]:
    """The snapshot as the store gives it back (JSON text and back)."""
    data: dict[str, Any] = json.loads(json.dumps(match.to_snapshot()))
    return data


def _play(match: Match, steps: list[Any]) -> list[Any]:
    """Each step's outcome (refused or not) and state at its instant."""
    out: list[Any] = []
    for step in steps:
        refused = None
        if step.event is not None:
            try:
                match.apply(step.event)
            except ClockError as exc:
                refused = str(exc)
        out.append((refused, match.state(step.at_ms).to_dict()))
    return out


@pytest.mark.parametrize("path", OURS + EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_snapshot_at_every_step_folds_like_the_whole_log(path: Path) -> None:
    script = load_script(read_json(path))
    whole = _play(script.new_match(), script.steps)
    for cut in range(len(script.steps) + 1):
        match = script.new_match()
        _play(match, script.steps[:cut])
        restored = Match.from_snapshot(match.settings, _stored(match))
        assert restored.to_snapshot() == match.to_snapshot()
        assert _play(restored, script.steps[cut:]) == whole[cut:], f"cut after step {cut}"


def _running() -> Match:
    match = Match.new("usbgf-2013-delay", length=7)
    match.apply(OpeningRoll(at_ms=0, dice=(5, 3)))
    match.apply(Hit(at_ms=9_000, side="A"))
    return match


def test_a_snapshot_of_another_version_is_not_read() -> None:
    match = _running()
    data = _stored(match)
    data["v"] = SNAPSHOT_VERSION + 1
    with pytest.raises(ValueError, match="version"):
        Match.from_snapshot(match.settings, data)


def test_a_snapshot_of_another_engine_shape_is_not_read() -> None:
    match = _running()
    data = _stored(match)
    del data["match"]["cube_value"]
    with pytest.raises(ValueError):
        Match.from_snapshot(match.settings, data)
    data = _stored(match)
    data["slots"] = "0" * 12
    with pytest.raises(ValueError):
        Match.from_snapshot(match.settings, data)
    data = _stored(match)
    data["match"]["now"] = "9000"
    with pytest.raises(ValueError, match="integer"):
        Match.from_snapshot(match.settings, data)


def test_a_restored_match_is_independent_of_its_snapshot() -> None:
    match = _running()
    data = _stored(match)
    restored = Match.from_snapshot(match.settings, data)
    restored.apply(Hit(at_ms=20_000, side="B"))
    again = Match.from_snapshot(match.settings, data)
    assert again.state(9_000).to_dict() == match.state(9_000).to_dict()
