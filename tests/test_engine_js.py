"""Conformance of the JavaScript engine: every clock script, run by the Node
runner ``tests/js/replay.mjs``, gives what ``bgclock replay`` gives.

For each file: the exit code, the failing step and field (none for the
conformance scripts), every refused step with its refusal code and words, and
the final state (``--state``'s fields).  Invalid scripts are invalid for both,
naming the same field.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bgclock.core import ClockError, Match
from bgclock.script import ScriptError, load_script, run_file, state_fields
from tests.conftest import SCRIPTS, SHARED
from tests.js_engine import NODE, RUNNER

pytestmark = pytest.mark.skipif(NODE is None, reason="node is missing")

EXAMPLES = sorted((SHARED / "spec" / "examples").glob("*.json"))
FILES = EXAMPLES + sorted(SCRIPTS.glob("*/*.json"))


def _js(*paths: Path) -> list[dict[str, Any]]:
    assert NODE is not None
    out = subprocess.run([NODE, str(RUNNER), "--json", *map(str, paths)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.stderr == "", out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def _python_refusals(path: Path) -> list[list[Any]]:
    """(step, code, words) of every refused step, as the Python core gives them."""
    script = load_script(json.loads(path.read_text()))
    match: Match = script.new_match()
    out: list[list[Any]] = []
    for step in script.steps:
        if step.event is not None:
            try:
                match.apply(step.event)
            except ClockError as exc:
                out.append([step.index, exc.code, str(exc)])
                if not step.refused:
                    break
            else:
                if step.refused:
                    break
        match.state(step.at_ms)
    return out


@pytest.fixture(scope="module")
def js_results() -> dict[str, dict[str, Any]]:
    return {r["file"]: r for r in _js(*FILES)}


def test_there_are_scripts_to_run() -> None:
    assert len(EXAMPLES) >= 6 and len(FILES) >= 150


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_script_gives_what_bgclock_replay_gives(
    path: Path, js_results: dict[str, dict[str, Any]]
) -> None:
    code, line, outcome = run_file(path)
    js = js_results[str(path)]
    assert js["code"] == code, js["line"]
    assert js["line"] == line
    assert outcome is not None
    assert js["state"] == state_fields(outcome.state)
    assert js["refusals"] == _python_refusals(path)


GOOD: dict[str, Any] = {
    "rules": "usbgf-2013-delay",
    "match": {"length": 7},
    "steps": [
        {"at_ms": 0, "do": "opening_roll", "dice": [5, 3]},
        {"at_ms": 20000, "expect": {"A": {"reserve_ms": 832000, "running": True},
                                    "on_turn": "A", "cube": {"owner": None}}},
    ],
}

#: (a change to GOOD, what bgclock replay says about it): invalid scripts.
CHANGES: list[tuple[str, Any]] = [
    ("unknown preset", lambda d: d.update(rules="usbgf-2099")),
    ("unknown top key", lambda d: d.update(colour="red")),
    ("length 0", lambda d: d["match"].update(length=0)),
    ("score at length", lambda d: d["match"].update(score=[7, 0])),
    ("teams not bool", lambda d: d["match"].update(teams="yes")),
    ("unknown mode", lambda d: d["match"].update(clock={"mode": "sandglass"})),
    ("delay not int", lambda d: d["match"].update(clock={"delay_ms": 1.5})),
    ("reserve below 0", lambda d: d["match"].update(
        clock={"per_point_ms": 1000, "less_per_point_ms": 9000}, score=[3, 3])),
    ("unknown match key", lambda d: d["match"].update(extra=1)),
    ("negative at_ms", lambda d: d["steps"][0].update(at_ms=-1)),
    ("at_ms decreasing", lambda d: d["steps"].append({"at_ms": 10})),
    ("unknown event", lambda d: d["steps"][0].update(do="fly")),
    ("die of 0", lambda d: d["steps"][0].update(dice=[0, 3])),
    ("three dice", lambda d: d["steps"][0].update(dice=[1, 2, 3])),
    ("unknown event field", lambda d: d["steps"][0].update(sidee="A")),
    ("misspelled phase", lambda d: d["steps"][1]["expect"].update(phase="plaing")),
    ("unknown side field", lambda d: d["steps"][1]["expect"]["A"].update(reserve=1)),
    ("running not bool", lambda d: d["steps"][1]["expect"]["A"].update(running="yes")),
    ("on_turn C", lambda d: d["steps"][1]["expect"].update(on_turn="C")),
    ("cube 0", lambda d: d["steps"][1]["expect"].update(cube={"value": 0})),
    ("stopped_reason lunch", lambda d: d["steps"][1]["expect"].update(stopped_reason="lunch")),
    ("refused without event", lambda d: d["steps"][1].update(refused=True)),
    ("refused not bool", lambda d: d["steps"][0].update(refused="no")),
    ("stop without side", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "stop", "reason": "other"})),
    ("resume with side", lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "resume", "side": "A"})),
    ("server's stop reason", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "stop", "side": "A", "reason": "restart"})),
    ("hit with result", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "hit", "side": "A", "result": "single"})),
    ("gin without result", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "ruling", "decision": "gin"})),
    ("lost with result", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "ruling", "decision": "lost", "result": "single"})),
    ("penalty of 0", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "penalty", "side": "A", "points": 0})),
    ("adjust by a fraction", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "adjust", "side": "A", "delta_ms": 0.5})),
    ("overtime under aba standard", lambda d: d.update(rules="aba-2003-standard") or d[
        "match"].update(clock={"overtime_ms": 60000})),
    ("overtime under biba", lambda d: d.update(rules="biba-2014") or d["match"].update(
        clock={"overtime_ms": 60000})),
    ("overtime -1", lambda d: d["match"].update(clock={"overtime_ms": -1})),
    ("overtime true", lambda d: d["match"].update(clock={"overtime_ms": True})),
    ("overtime 0", lambda d: d["match"].update(clock={"overtime_ms": 0})),
    ("stored-form version", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "hit", "side": "A", "v": 1})),
    ("null side", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "stop", "side": None, "reason": "other"})),
    ("steps not a list", lambda d: d.update(steps={})),
    # issue 38: a list or an object where a word is wanted, never a crash
    ("mode as a list", lambda d: d["match"].update(clock={"mode": ["bronstein"]})),
    ("reason as an object", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "stop", "side": "A", "reason": {"director": 1}})),
    ("result as a list", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "concede", "side": "A", "result": ["single"]})),
    ("decision as an object", lambda d: d["steps"].insert(
        1, {"at_ms": 1, "do": "ruling", "decision": {}})),
    ("stopped_reason as a list", lambda d: d["steps"][1]["expect"].update(
        stopped_reason=["break"])),
    ("about as a list", lambda d: d.update(about=["x"])),
    ("about null", lambda d: d.update(about=None)),
    ("do null", lambda d: d["steps"][0].update(do=None)),
    # clock-script start: the cube's value a power of two from 1 to 2^20
    *[(f"start cube {cube!r}", lambda d, cube=cube: d.update(rules="it-tournament") or d[
        "steps"].__setitem__(0, {"at_ms": 0, "do": "start", "side": "A", "cube": cube}))
      for cube in ({"value": 0}, {"value": 3}, {"value": 2**21, "owner": "A"},
                   {"value": -2, "owner": "A"}, {"value": 1.5}, {"value": True},
                   {"value": "2", "owner": "A"}, {"value": None}, {"owner": "C"},
                   {"owner": ["A"]}, {"value": 2, "owner": "A", "side": "B"},
                   [2, "A"], "centered", 2, None)],
    ("no match", lambda d: d.pop("match")),
]


def _field(line: str) -> str:
    """The field an 'invalid script' line names (the text up to its first colon)."""
    return line.split("invalid script: ", 1)[1].split(":", 1)[0]


def test_invalid_scripts_are_invalid_for_both_naming_the_same_field(tmp_path: Path) -> None:
    paths = []
    for i, (_, change) in enumerate(CHANGES):
        data = json.loads(json.dumps(GOOD))
        change(data)
        path = tmp_path / f"bad{i:02}.json"
        path.write_text(json.dumps(data))
        paths.append(path)
    (tmp_path / "notjson.json").write_text("{")
    paths.append(tmp_path / "notjson.json")
    results = {r["file"]: r for r in _js(*paths)}
    for (name, _), path in zip([*CHANGES, ("not JSON", None)], paths, strict=True):
        code, line, _ = run_file(path)
        js = results[str(path)]
        assert code == 2, (name, line)
        assert js["code"] == 2, (name, js["line"])
        if name != "not JSON":
            assert _field(js["line"]) == _field(line), (name, js["line"], line)
    with pytest.raises(ScriptError):  # the list really holds invalid scripts
        load_script(json.loads(paths[0].read_text()))


def test_exit_code_is_the_highest_and_state_prints_the_final_state(tmp_path: Path) -> None:
    assert NODE is not None
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD))
    failing = tmp_path / "failing.json"
    bad = json.loads(json.dumps(GOOD))
    bad["steps"][1]["expect"]["A"]["reserve_ms"] = 1
    failing.write_text(json.dumps(bad))
    out = subprocess.run([NODE, str(RUNNER), "--state", str(good), str(failing)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert lines[0] == f"{good}: ok (2 steps)"
    assert json.loads(lines[1])["A"]["reserve_ms"] == 832000
    assert lines[2] == (f"{failing}: FAIL step 1: A.reserve_ms: expected 1, actual 832000")
    assert lines[-1] == "1 passed, 1 failed, 0 invalid"
    only_good = subprocess.run([NODE, str(RUNNER), str(good)], capture_output=True, text=True,
                               timeout=60, check=False)
    assert only_good.returncode == 0


def test_the_devices_match_applies_replaces_and_drops_its_commands() -> None:
    """tests/js/device_check.mjs: bgclock/web/static/device.js in Node."""
    assert NODE is not None
    done = subprocess.run([NODE, str(RUNNER.parent / "device_check.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["device:", "ok", "device", "merge:", "ok"]


def test_the_devices_store_keeps_its_match_and_queue_across_a_reload() -> None:
    """tests/js/store_check.mjs: bgclock/web/static/device-store.js in Node."""
    assert NODE is not None
    done = subprocess.run([NODE, str(RUNNER.parent / "store_check.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["store:", "ok"]


def test_the_table_pages_link_words_count_and_name_what_happened() -> None:
    """tests/js/words_check.mjs: bgclock/web/static/table/words.js in Node."""
    assert NODE is not None
    done = subprocess.run([NODE, str(RUNNER.parent / "words_check.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["words:", "ok"]
