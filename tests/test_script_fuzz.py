"""Scripts never crash: every field of every valid script, given every JSON type.

``../shared/spec/clock-script.md`` ("2 for a file that is not a valid script,
saying which field is wrong"; "every file is run") and ``tournament.md`` ("a
null where the format wants a value" is invalid "in every contest").  The
valid scripts (the spec's examples and ours) are the seeds: one field's value
at a time (every path, walked) is replaced by a value of each JSON type, and
``bgclock replay`` / ``bgclock contest`` must answer 0, 1 or 2 with no
traceback, run the file after it in the batch, and, when the new value's type
is not the field's, say "invalid script" (2) naming that field or the object
holding it.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgclock import contest, script
from bgclock.cli import main
from tests.conftest import ROOT, SCRIPTS, SHARED

CLOCK_SEEDS = sorted((SHARED / "spec" / "examples").glob("*.json")) + sorted(
    SCRIPTS.glob("*/*.json"))
CONTEST_SEEDS = sorted((SHARED / "spec" / "contest-examples").glob("*.json")) + sorted(
    (ROOT / "tests" / "contests").rglob("*.json"))
SPEC_SEEDS = [p for p in CLOCK_SEEDS + CONTEST_SEEDS if SHARED in p.parents]

#: One value of every JSON type (and the words and shapes the format uses, so
#: that a word where a number is wanted, or an object where a word is, is tried).
VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 3, 1.5, 2**70, "", "x", "A", "single", "playing",
    [], [1], ["A", "B"], [[1, 2]], {}, {"value": 2}, {"A": {"reserve_ms": 1}},
)

#: Leaf keys that take null as a value, under an ``expect`` (tournament.md,
#: clock-script.md): everywhere else a null is invalid.
NULLABLE = frozenset({"stopped_reason", "on_turn", "winner", "owner", "disqualified",
                      "reserve_ms", "decided_after_phase"})

Path_ = tuple[str | int, ...]


def _paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    """Every path below the root, depth first."""
    items: Any = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, sub in items:
        yield (*path, key)
        yield from _paths(sub, (*path, key))


def _at(data: Any, path: Path_) -> Any:
    for key in path:
        data = data[key]
    return data


def _replaced(data: Any, path: Path_, value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    _at(copy, path[:-1])[path[-1]] = value
    return copy


def _dotted(path: Path_) -> str:
    """A path as the scripts' messages write it: ``steps[3].expect.A``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def _kind(value: Any) -> str:
    """The JSON type (a bool is not a number; 1.5 is not a whole number)."""
    if value is None or isinstance(value, bool | str | list | dict):
        return type(value).__name__
    return "int" if isinstance(value, int) else "float"


def _must_be_invalid(original: Any, value: Any, path: Path_) -> bool:
    """The format cannot hold ``value`` where ``original`` stood."""
    if original is None or _kind(original) == _kind(value):
        return False  # another value of the field's type may hold (or fail: 1)
    if value is None:
        return not ("expect" in path and path[-1] in NULLABLE)
    return True


def _named(line: str) -> str:
    """The field an 'invalid script' line names (up to its first colon)."""
    return line.split("invalid script: ", 1)[1].split(":", 1)[0]


def _check(command: str, seed: Path, path: Path_, value: Any, folder: Path) -> None:
    data = json.loads(seed.read_text())
    bad = folder / "a-bad.json"
    bad.write_text(json.dumps(_replaced(data, path, value)))
    good = folder / "b-good.json"
    good.write_text(seed.read_text())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([command, str(bad), str(good)])  # a traceback fails the test
    lines = out.getvalue().splitlines()
    where = f"{seed.name} {_dotted(path)} = {json.dumps(value)}: {lines}"
    assert code in (0, 1, 2), where
    assert lines[0].startswith(f"{bad}: "), where
    assert lines[1].startswith(f"{good}: ok"), where  # the batch goes on
    _invalid_if_it_must(data, path, value, code, lines[0], where)


def _invalid_if_it_must(data: Any, path: Path_, value: Any, code: int, line: str,
                        where: str) -> None:
    """A value the field cannot hold: 2, naming the field or the object holding it."""
    if _must_be_invalid(_at(data, path), value, path):
        assert code == 2 and "invalid script: " in line, where
        named, dotted = _named(line), _dotted(path)
        assert dotted == named or dotted.startswith((named + ".", named + "[")), where


def _one(command: str, seed: Path, path: Path_, value: Any, folder: Path) -> tuple[int, str]:
    """``run_file`` of the seed with one field replaced: (exit code, line)."""
    bad = folder / "one.json"
    bad.write_text(json.dumps(_replaced(json.loads(seed.read_text()), path, value)))
    if command == "replay":
        code, line, _ = script.run_file(bad)
        return code, line
    return contest.run_file(bad)


@pytest.mark.parametrize(("command", "seeds"), [("replay", CLOCK_SEEDS),
                                               ("contest", CONTEST_SEEDS)])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=st.sampled_from(VALUES))
def test_every_malformed_field_is_answered_and_the_batch_goes_on(
    command: str, seeds: list[Path], data: st.DataObject, value: Any
) -> None:
    seed = data.draw(st.sampled_from(seeds))
    path = data.draw(st.sampled_from(list(_paths(json.loads(seed.read_text())))))
    with tempfile.TemporaryDirectory() as folder:
        _check(command, seed, path, value, Path(folder))


@pytest.mark.parametrize("seed", SPEC_SEEDS, ids=lambda p: p.name)
def test_every_field_of_the_specs_examples_takes_every_type(seed: Path, tmp_path: Path) -> None:
    # The walk in full over the spec's own examples: every path, every type.
    command = "replay" if seed in CLOCK_SEEDS else "contest"
    data = json.loads(seed.read_text())
    for path in _paths(data):
        for value in VALUES:
            code, line = _one(command, seed, path, value, tmp_path)
            where = f"{_dotted(path)} = {json.dumps(value)}: {line}"
            assert code in (0, 1, 2), where
            _invalid_if_it_must(data, path, value, code, line, where)


# ------------------------------------------------- the cases the issue names

@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["match"].update(clock={"mode": ["bronstein"]}), "match.clock.mode"),
    (lambda d: d["match"].update(clock={"mode": {"bronstein": 1}}), "match.clock.mode"),
    (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "stop", "side": "A",
                                     "reason": ["director"]}), "steps[1].reason"),
    (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "concede", "side": "A",
                                     "result": {"single": 1}}), "steps[1]"),
    (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "claim", "side": "A",
                                     "result": ["gammon"]}), "steps[1]"),
    (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "game_over", "winner": "A",
                                     "result": {}}), "steps[1]"),
    (lambda d: d["steps"].insert(1, {"at_ms": 1, "do": "ruling", "decision": ["lost"]}),
     "steps[1]"),
    (lambda d: d["steps"][1]["expect"].update(stopped_reason=["break"]),
     "steps[1].expect.stopped_reason"),
    (lambda d: d["steps"][1]["expect"].update(phase={"playing": True}),
     "steps[1].expect.phase"),
    (lambda d: d["steps"][1]["expect"].update(on_turn=["A"]), "steps[1].expect.on_turn"),
    (lambda d: d["steps"][1]["expect"].update(cube={"owner": ["A"]}),
     "steps[1].expect.cube.owner"),
    (lambda d: d["steps"][0].update(do=None), "steps[0].do"),
    (lambda d: d["steps"][0].update(do=["hit"]), "steps[0].do"),
    (lambda d: d.update(about=["usbgf"]), "about"),
    (lambda d: d.update(about=None), "about"),
    (lambda d: d.update(rules=["usbgf-2013-delay"]), "rules"),
])
def test_the_issues_malformed_values_are_invalid_naming_the_field(
    tmp_path: Path, change: Any, field: str
) -> None:
    data: dict[str, Any] = {
        "rules": "usbgf-2013-delay", "match": {"length": 7},
        "steps": [{"at_ms": 0, "do": "opening_roll", "dice": [5, 3]},
                  {"at_ms": 100, "expect": {"phase": "playing"}}],
    }
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, line, _ = script.run_file(path)
    assert code == 2, line
    assert _named(line) == field, line


@pytest.mark.parametrize(("seed", "change", "field"), [
    ("couples", lambda d: d.update(expect=None), "expect"),
    ("swing", lambda d: d["rounds"][0].update(expect=None), "rounds[0].expect"),
    ("late", lambda d: d["steps"][0].update(expect=None), "steps[0].expect"),
    ("late", lambda d: d.update(rules=None), "rules"),
    ("late", lambda d: d.update(about=None), "about"),
    ("couples", lambda d: d["expect"].update(decided_after_phase=True),
     "expect.decided_after_phase"),
    ("couples", lambda d: d["expect"].update(decided_after_phase=3.0),
     "expect.decided_after_phase"),
    ("couples", lambda d: d["expect"].update(winner=["A"]), "expect.winner"),
    ("swing", lambda d: d["rounds"][0]["expect"].update(winner={"Ada": 1}),
     "rounds[0].expect.winner"),
    ("swing", lambda d: d["rounds"][0]["games"][0].update(result=["gammon"]),
     "rounds[0].games[0].result"),
    ("late", lambda d: d.update(absent={"A": 1}), "absent"),
])
def test_a_null_or_a_wrong_type_is_invalid_in_every_contest(
    tmp_path: Path, seed: str, change: Any, field: str
) -> None:
    # tournament.md: "a null where the format wants a value (an expect of
    # null included), in every contest, as in clock scripts"
    name = {"couples": "couples-encounter", "swing": "swing-three-players",
            "late": "late-arrival-seven-points"}[seed]
    data = json.loads((SHARED / "spec" / "contest-examples" / f"{name}.json").read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, line = contest.run_file(path)
    assert code == 2, line
    assert _named(line) == field, line
