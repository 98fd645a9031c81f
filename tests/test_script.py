"""``bgclock replay``: exit codes, failure reports, invalid scripts, --state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bgclock.cli import main

GOOD: dict[str, Any] = {
    "about": "usbgf-2013 3.3: the higher roller's clock starts",
    "rules": "usbgf-2013-delay",
    "match": {"length": 7},
    "steps": [
        {"at_ms": 0, "do": "opening_roll", "dice": [5, 3]},
        {"at_ms": 20000, "expect": {"A": {"reserve_ms": 832000, "running": True},
                                    "on_turn": "A", "cube": {"owner": None}}},
    ],
}


def _write(tmp_path: Path, data: Any, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["replay", *args])
    return code, capsys.readouterr().out


def test_passing_script_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _replay(capsys, str(_write(tmp_path, GOOD)))
    assert code == 0 and "ok" in out and "1 passed, 0 failed" in out


def test_failing_step_exits_1_with_field_expected_actual(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = json.loads(json.dumps(GOOD))
    bad["steps"][1]["expect"]["A"]["reserve_ms"] = 832001
    code, out = _replay(capsys, str(_write(tmp_path, bad)))
    assert code == 1
    assert "step 1: A.reserve_ms: expected 832001, actual 832000" in out


def test_unexpected_refusal_and_unexpected_acceptance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused = dict(GOOD, steps=[{"at_ms": 0, "do": "opening_roll", "dice": [4, 4]}])
    code, out = _replay(capsys, str(_write(tmp_path, refused)))
    assert code == 1 and "step 0: refused: expected false, actual true" in out
    assert "equal" in out
    accepted = dict(GOOD, steps=[{"at_ms": 0, "do": "opening_roll", "dice": [4, 3],
                                  "refused": True}])
    code, out = _replay(capsys, str(_write(tmp_path, accepted)))
    assert code == 1 and "step 0: refused: expected true, actual false" in out


def test_refused_step_that_is_refused_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(GOOD, steps=[
        {"at_ms": 0, "do": "hit", "side": "A"},
        {"at_ms": 0, "do": "double", "side": "A", "refused": True,
         "expect": {"phase": "setup", "game": 0}},
    ])
    assert _replay(capsys, str(_write(tmp_path, data)))[0] == 0


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d.update(rules="usbgf-2099"), "rules"),
        (lambda d: d.update(colour="red"), "colour"),
        (lambda d: d["match"].update(length=0), "match.length"),
        (lambda d: d["match"].update(score=[7, 0]), "match.score"),
        (lambda d: d["match"].update(teams="yes"), "match.teams"),
        (lambda d: d["match"].update(clock={"mode": "sandglass"}), "match.clock.mode"),
        (lambda d: d["match"].update(clock={"delay_ms": 1.5}), "match.clock.delay_ms"),
        (lambda d: d["match"].update(clock={"per_point_ms": 1000, "less_per_point_ms": 9000},
                                     score=[3, 3]), "match"),
        (lambda d: d["match"].update(extra=1), "match.extra"),
        (lambda d: d["steps"][0].update(at_ms=-1), "steps[0].at_ms"),
        (lambda d: d["steps"][1].update(at_ms=-0.5), "steps[1].at_ms"),
        (lambda d: d["steps"].append({"at_ms": 10}), None),  # decreasing: checked below
        (lambda d: d["steps"][0].update(do="fly"), "steps[0].do"),
        (lambda d: d["steps"][0].update(dice=[0, 3]), "steps[0]"),
        (lambda d: d["steps"][0].update(sidee="A"), "steps[0]"),
        (lambda d: d["steps"][1]["expect"].update(phase="plaing"), "steps[1].expect.phase"),
        (lambda d: d["steps"][1]["expect"]["A"].update(reserve=1), "steps[1].expect.A.reserve"),
        (lambda d: d["steps"][1]["expect"]["A"].update(running="yes"),
         "steps[1].expect.A.running"),
        (lambda d: d["steps"][1]["expect"].update(on_turn="C"), "steps[1].expect.on_turn"),
        (lambda d: d["steps"][1]["expect"].update(cube={"value": 0}),
         "steps[1].expect.cube.value"),
        (lambda d: d["steps"][1]["expect"].update(stopped_reason="lunch"),
         "steps[1].expect.stopped_reason"),
        (lambda d: d["steps"][1].update(refused=True), "steps[1].refused"),
        (lambda d: d["steps"][0].update(refused="no"), "steps[0].refused"),
        # clock-script: each event takes exactly its own fields
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "stop", "reason": "other"}),
         "steps[1]"),
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "resume", "side": "A"}),
         "steps[1]"),
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "stop", "side": "A",
                                         "reason": "restart"}), "steps[1].reason"),
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "hit", "side": "A",
                                         "result": "single"}), "steps[1]"),
        # the USBGF overtime option only where an expiry loses the match
        (lambda d: d.update(rules="aba-2003-standard") or d["match"].update(
            clock={"overtime_ms": 60000}), "match"),
        (lambda d: d.update(rules="biba-2014") or d["match"].update(
            clock={"overtime_ms": 60000}), "match"),
        (lambda d: d["match"].update(clock={"overtime_ms": -1}), "match.clock.overtime_ms"),
        (lambda d: d["match"].update(clock={"overtime_ms": True}), "match.clock.overtime_ms"),
        # "any positive overtime_ms": 0 is no overtime, not a value of it
        (lambda d: d["match"].update(clock={"overtime_ms": 0}), "match.clock.overtime_ms"),
        # an event's fields are exactly its own: no stored-form "v", no nulls
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "hit", "side": "A", "v": 1}),
         "steps[1].v"),
        (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "stop", "side": None,
                                         "reason": "other"}), "steps[1].side"),
    ],
)
def test_invalid_script_exits_2_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, field: str | None
) -> None:
    data = json.loads(json.dumps(GOOD))
    change(data)
    code, out = _replay(capsys, str(_write(tmp_path, data)))
    assert code == 2, out
    assert "invalid script" in out
    if field is not None:
        assert f"{field}:" in out or f"{field} " in out, out
    else:
        assert "must not decrease" in out


def test_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _replay(capsys, str(_write(tmp_path, "{not json")))
    assert code == 2 and "invalid script" in out
    code, out = _replay(capsys, str(tmp_path / "missing.json"))
    assert code == 2


def test_exit_code_is_the_highest_and_every_file_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path, GOOD, "good.json")
    bad = json.loads(json.dumps(GOOD))
    bad["steps"][1]["expect"]["on_turn"] = "B"
    failing = _write(tmp_path, bad, "failing.json")
    invalid = _write(tmp_path, dict(GOOD, rules="x"), "invalid.json")
    code, out = _replay(capsys, str(failing), str(good))
    assert code == 1 and "good.json: ok" in out
    code, out = _replay(capsys, str(invalid), str(failing), str(good))
    assert code == 2 and "1 passed, 1 failed, 1 invalid" in out


def test_state_prints_final_state_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _replay(capsys, "--state", str(_write(tmp_path, GOOD)))
    assert code == 0
    state = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    assert state["A"]["reserve_ms"] == 832000 and state["phase"] == "playing"
    assert set(state) == {"A", "B", "phase", "stopped_reason", "on_turn", "score", "cube",
                          "crawford", "cube_frozen", "winner", "game"}


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for preset in ("usbgf-2013-delay", "aba-2003-standard", "biba-2014", "it-tournament"):
        assert preset in out
    assert main(["rules", "it-tournament"]) == 0
    out = capsys.readouterr().out
    assert "3:00 per point" in out and "italian-tournament-rules.txt" in out
    assert main(["rules", "nope"]) == 2
    assert "unknown preset" in capsys.readouterr().out
    assert main(["rules", "--json", "biba-2014"]) == 0
    assert json.loads(capsys.readouterr().out)["delay_ms"] == 12000
    assert main(["rules", "aba-2003-bronstein"]) == 0
    assert "on expiry: loses the match" in capsys.readouterr().out
    assert main(["rules", "aba-2003-standard"]) == 0
    assert "on expiry: penalty points" in capsys.readouterr().out
