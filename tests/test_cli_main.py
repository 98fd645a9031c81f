"""The ``bgclock`` command itself: its version, replaying folders, and bad input
or a closed pipe answered in words, never with a traceback (subprocesses)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bgclock
from tests.conftest import ROOT, SCRIPTS


def bgclock_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "bgclock.cli", *args]


def env() -> dict[str, str]:
    return {**os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                        os.environ.get("PYTHONPATH")]))}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(bgclock_cmd(*args), capture_output=True, text=True, env=env(),
                          cwd=ROOT, timeout=120)


def piped_to_head(*args: str) -> tuple[int, str, str]:
    """``bgclock ARGS | head -1``: (bgclock's exit code, head's line, bgclock's stderr)."""
    producer = subprocess.Popen(bgclock_cmd(*args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env(), cwd=ROOT)
    assert producer.stdout is not None and producer.stderr is not None
    head = subprocess.run(["head", "-n", "1"], stdin=producer.stdout, capture_output=True,
                          text=True, timeout=120)
    producer.stdout.close()  # only head reads it now: when head is gone, the pipe is closed
    err = producer.stderr.read().decode()
    producer.stderr.close()
    return producer.wait(120), head.stdout, err


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"bgclock {bgclock.__version__}"
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert tomllib.load(f)["project"]["version"] == bgclock.__version__


def test_replay_a_folder_runs_every_script_under_it_in_order(tmp_path: Path) -> None:
    chosen = sorted(SCRIPTS.glob("*/*.json"))[:3]
    assert len(chosen) == 3
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / "a").mkdir()
    copies = [tmp_path / "b" / "deeper" / "z.json", tmp_path / "a" / "y.json",
              tmp_path / "b" / "x.json"]
    for source, copy in zip(chosen, copies, strict=True):
        shutil.copy(source, copy)
    (tmp_path / "a" / "notes.txt").write_text("not a script")
    done = run("replay", str(tmp_path))
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    ran = [line.split(": ok")[0] for line in lines[:-1]]
    assert ran == [str(p) for p in sorted(copies)]
    assert lines[-1] == "3 passed, 0 failed, 0 invalid"


def test_replay_the_whole_scripts_folder_equals_replaying_its_files() -> None:
    by_folder = run("replay", "-q", str(SCRIPTS))
    files = sorted(str(p) for p in SCRIPTS.rglob("*.json"))
    by_files = run("replay", "-q", *files)
    assert by_folder.returncode == by_files.returncode == 0
    assert by_folder.stdout == by_files.stdout
    assert by_folder.stdout.strip() == f"{len(files)} passed, 0 failed, 0 invalid"


def test_replay_a_folder_without_scripts(tmp_path: Path) -> None:
    done = run("replay", str(tmp_path))
    assert done.returncode == 2
    assert "no clock scripts" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_deeply_nested_json_is_an_invalid_script(opening: str, closing: str,
                                                  tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(opening * 100_000 + "1" * (opening != "[") + closing * 100_000)
    done = run("replay", str(deep))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert f"{deep}: invalid script: the JSON nests too deeply" in done.stdout


def test_nesting_just_below_the_parsers_limit_is_an_invalid_script(tmp_path: Path) -> None:
    # deep enough to strain the validator's messages, shallow enough to parse
    deep = tmp_path / "phase.json"
    value = "[" * 900 + "]" * 900
    deep.write_text('{"rules": "usbgf-2013-delay", "match": {"length": 3}, '
                    f'"steps": [{{"at_ms": 0, "expect": {{"phase": {value}}}}}]}}')
    done = run("replay", str(deep))
    assert done.returncode == 2 and done.stderr == ""
    assert "invalid script" in done.stdout


def test_replay_piped_to_head() -> None:
    code, line, err = piped_to_head("replay", "--state", *[str(SCRIPTS)] * 3)
    assert line.startswith(str(SCRIPTS)) and line.rstrip().endswith("steps)")
    assert err == ""
    assert code == 141  # as a shell shows a command ended by a closed pipe


def test_rules_piped_to_head() -> None:
    code, line, err = piped_to_head("rules")
    assert line.startswith("id ")
    assert err == "" and code in (0, 141)


def test_serve_piped_to_head_stops_quietly(tmp_path: Path) -> None:
    from tests._server_kit import free_port

    code, line, err = piped_to_head("serve", "--db", str(tmp_path / "t.db"),
                                    "--port", str(free_port()))
    assert line.startswith("bgclock serve: store ")
    assert err == "" and code == 141


@pytest.mark.parametrize("args, words", [
    (["serve", "--port", "http"], "--port"),
    (["replay"], "FILE"),
    (["adjudicate"], "POSITION"),
    (["adjudicate", "garbage"], "Position ID"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_arguments_are_one_line(args: list[str], words: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
