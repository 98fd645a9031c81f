"""``bgclock draw simulate --format``: the weekly formats end to end, as
the spec's "The weekly formats" prints them, and their bad flags (one line,
exit 2).  The rules themselves: tests/tournament/."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bgclock.cli import main
from bgclock.tournament import simulate
from tests.conftest import ROOT
from tests.tournament import _check


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["draw", "simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("n", [2, 3, 7, 16, 33])
def test_each_format_prints_the_spec_json(capsys: pytest.CaptureFixture[str], n: int) -> None:
    code, out, _ = _run(capsys, "--format", "swiss", "--rounds", "4", "--players", str(n),
                        "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"format", "rounds", "standings"}
    _check.check_swiss(data, n, 4)
    code, out, _ = _run(capsys, "--format", "moreswiss", "--losses", "4", "--players", str(n),
                        "--seed", "5", "--json")
    data = json.loads(out)
    assert list(data)[:2] == ["format", "losses"] and set(data) == {
        "format", "losses", "rounds", "standings"}
    _check.check_moreswiss(data, n, 4)
    code, out, _ = _run(capsys, "--format", "roundrobin", "--players", str(n), "--seed", "5",
                        "--json")
    _check.check_roundrobin(json.loads(out), n)
    code, out, _ = _run(capsys, "--format", "double", "--players", str(n), "--seed", "5",
                        "--json")
    data = json.loads(out)
    assert set(data) == {"format", "winners", "losers", "final", "standings"}
    _check.check_double(data, n)
    assert 1 <= len(data["final"]) <= 2


def test_the_default_format_is_the_knockout_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--players", "9", "--seed", "3", "--consolation", "--json")
    assert code == 0
    assert json.loads(out) == simulate(9, seed=3, consolation=True)
    code, again, _ = _run(capsys, "--format", "knockout", "--players", "9", "--seed", "3",
                          "--consolation", "--json")
    assert again == out


def test_the_sheet_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--format", "double", "--players", "5", "--seed", "1")
    assert code == 0 and "losers' bracket" in out and "standings:" in out


@pytest.mark.parametrize(("args", "field"), [
    (["--format", "swiss", "--players", "6"], "rounds"),
    (["--format", "swiss", "--players", "6", "--rounds", "0"], "rounds"),
    (["--format", "moreswiss", "--players", "6"], "losses"),
    (["--format", "moreswiss", "--players", "6", "--losses", "3", "--rounds", "2"], "rounds"),
    (["--format", "roundrobin", "--players", "1"], "players"),
    (["--format", "double", "--players", "257"], "players"),
    (["--format", "double", "--players", "8", "--late", "2"], "late"),
    (["--format", "swiss", "--players", "8", "--rounds", "2", "--consolation"], "consolation"),
    (["--players", "8", "--losses", "2"], "losses"),
    (["--format", "chess", "--players", "8"], "--format"),
])
def test_bad_flags_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                           args: list[str], field: str) -> None:
    try:
        code = main(["draw", "simulate", *args, "--seed", "1", "--json"])
    except SystemExit as exc:  # argparse's own refusals (an unknown --format)
        code = int(str(exc.code))
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err


def test_two_processes_print_the_same_event_for_a_seed() -> None:
    cmd = [sys.executable, "-m", "bgclock.cli", "draw", "simulate", "--format", "moreswiss",
           "--losses", "3", "--players", "21", "--seed", "9", "--json"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
            for _ in range(2)]
    assert runs[0] == runs[1]
    _check.check_moreswiss(json.loads(runs[0]), 21, 3)
