"""Bad input at the command line: every one a clear line and exit code 2
(issue 18 §5), never a traceback nor a batch stopped half-way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bgclock import contest, script
from tests.conftest import ROOT, SCRIPTS
from tests.test_cli_main import run

HUGE = "9" * 5000  # over Python's 4,300-digit conversion limit
MARK = "\x00huge\x00"


def int_paths(value: Any, key: str = "") -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every integer's path in a parsed JSON value, with the nearest object key."""
    if isinstance(value, dict):
        for k, v in value.items():
            for path, near in int_paths(v, k):
                yield (k, *path), near
    elif isinstance(value, list):
        for i, v in enumerate(value):
            for path, near in int_paths(v, key):
                yield (i, *path), near
    elif isinstance(value, int) and not isinstance(value, bool):
        yield (), key


def with_huge(data: Any, path: tuple[Any, ...]) -> str:
    """``data`` as JSON text with the integer at ``path`` made 5,000 digits long."""
    copy = json.loads(json.dumps(data))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = MARK
    return json.dumps(copy).replace(json.dumps(MARK), HUGE)


CLOCK_FILES = sorted(SCRIPTS.glob("*/*.json"))[::40]
CONTEST_FILES = sorted((ROOT / "tests" / "contests").rglob("*.json"))[::3]


@pytest.mark.parametrize("source", CLOCK_FILES + CONTEST_FILES, ids=lambda p: p.name)
def test_an_integer_too_long_anywhere_is_an_invalid_script_naming_the_field(
        source: Path, tmp_path: Path) -> None:
    module = contest if source in CONTEST_FILES else script
    data = json.loads(source.read_text(encoding="utf-8"))
    paths = list(int_paths(data))
    assert paths, source
    target = tmp_path / source.name
    for path, near in paths:
        target.write_text(with_huge(data, path), encoding="utf-8")
        code, line = module.run_file(target)[:2]
        assert code == 2, (path, line)
        assert line.startswith(f"{target}: invalid script: "), line
        said = line.removeprefix(f"{target}: invalid script: ")
        assert near in said or str(path[0]) in said.split(":")[0], (path, line)
        assert len(line) < 400, line


def test_the_batch_goes_on_after_a_huge_integer(tmp_path: Path) -> None:
    good = CLOCK_FILES[0]
    data = json.loads(good.read_text(encoding="utf-8"))
    bad = tmp_path / "huge.json"
    bad.write_text(with_huge(data, ("steps", 0, "at_ms")), encoding="utf-8")
    done = run("replay", str(good), str(bad), str(good))
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    assert f"{bad}: invalid script: steps[0].at_ms" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "2 passed, 0 failed, 1 invalid"

    contests = CONTEST_FILES
    data = json.loads(contests[0].read_text(encoding="utf-8"))
    path, _near = next(iter(int_paths(data)))
    bad.write_text(with_huge(data, path), encoding="utf-8")
    done = run("contest", str(bad), *map(str, contests))
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"{len(contests)} passed, 0 failed, 1 invalid"


def test_a_file_that_never_ends_is_refused_and_the_batch_goes_on() -> None:
    good = CLOCK_FILES[0]
    for command in ("replay", "contest"):
        done = run(command, "/dev/zero", str(good if command == "replay" else CONTEST_FILES[0]))
        assert done.returncode == 2, done
        assert "/dev/zero: invalid script: larger than 16 MiB" in done.stdout
        assert done.stdout.strip().splitlines()[-1] == "1 passed, 0 failed, 1 invalid"


# ------------------------------------------------------------------ serve

def one_line(args: list[str], *words: str) -> str:
    done = run(*args)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "Director:" not in done.stdout
    return lines[0]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "0.01", "1e9", "ten"])
def test_a_header_timeout_out_of_bounds(value: str, tmp_path: Path) -> None:
    one_line(["serve", "--db", str(tmp_path / "t.db"), f"--header-timeout={value}"],
             "--header-timeout")
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize("value", ["0", "-5", "65537", "1.5", "many"])
def test_max_per_client_out_of_bounds(value: str, tmp_path: Path) -> None:
    one_line(["serve", "--db", str(tmp_path / "t.db"), f"--max-per-client={value}"],
             "--max-per-client")
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize("option, value", [
    ("--allow-origin", "notaurl"), ("--allow-origin", "http://club.local/"),
    ("--allow-origin", "ftp://club.local"), ("--allow-origin", "http://club.local:99999"),
    ("--allow-origin", "http://user@club.local"),
    ("--allow-host", ""), ("--allow-host", "club.local:8000"), ("--allow-host", "a/b"),
    ("--allow-host", "http://club.local"), ("--allow-host", "club local"),
])
def test_an_origin_or_host_that_could_never_match_is_refused(
        option: str, value: str, tmp_path: Path) -> None:
    one_line(["serve", "--db", str(tmp_path / "t.db"), f"{option}={value}"], option)
    assert not (tmp_path / "t.db").exists()


def test_a_good_origin_and_host_are_taken() -> None:
    import argparse

    from bgclock.server import cli

    parser = argparse.ArgumentParser()
    cli.configure(parser)
    args = parser.parse_args(["--allow-origin", "https://club.example:8443",
                              "--allow-origin", "*", "--allow-host", "Club.Local",
                              "--allow-host", "[::1]", "--allow-host", "192.168.1.10"])
    assert args.allow_origin == ["https://club.example:8443", "*"]
    assert args.allow_host == ["Club.Local", "::1", "192.168.1.10"]


def test_a_db_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    db = tmp_path / "tournamnet" / "club.db"  # a typo on a restart
    line = one_line(["serve", "--db", str(db)], "--db", str(db.parent), "does not exist")
    assert line.startswith("bgclock serve: ")
    assert not db.parent.exists()
    url = f"sqlite:///{db}"
    one_line(["serve", "--db", url], "--db", str(db.parent))
    assert not db.parent.exists()


def test_a_schema_with_sqlite_is_refused(tmp_path: Path) -> None:
    one_line(["serve", "--db", str(tmp_path / "t.db"), "--db-schema", "club"],
             "--db-schema", "SQLite")
    assert not (tmp_path / "t.db").exists()


def test_the_serve_epilog_names_what_the_install_has() -> None:
    done = run("serve", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "docs/evening.md in bgclock's source tree (it is not installed" in text
    assert "SECONDS" in text and "0.1-3600" in text and "1-65536" in text


def test_rules_id_names_the_rule_text_without_a_path_of_this_checkout() -> None:
    done = run("rules", "biba-2014")
    assert done.returncode == 0
    source = next(line for line in done.stdout.splitlines() if "source:" in line)
    assert "../" not in source and "/shared/" not in source
    assert "biba-2014.txt" in source and "not installed" in source


# ------------------------------------------------------------------ install

def readme_commands() -> list[str]:
    """The README's first two commands (its first two code blocks)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = text.split("```")[1::2]
    return [block.strip() for block in blocks[:2]]


def test_the_readme_commands_make_and_use_a_virtual_environment() -> None:
    serve, tests = readme_commands()
    for command in (serve, tests):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
        assert " pip install" not in command.replace(".venv/bin/pip install", "")
    assert serve.endswith(" && .venv/bin/bgclock serve")
    assert "'.[test]'" in tests and tests.endswith(" && .venv/bin/python -m pytest")


def test_ci_runs_exactly_the_readme_test_command_from_the_venv() -> None:
    lines = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == readme_commands()[1]
    for tool in ("ruff", "mypy", "bgclock replay", "bgclock contest"):
        assert any(line.startswith(f".venv/bin/{tool}") for line in lines), tool
    assert not any(line.startswith(("pip ", "python3 -m pip", "pytest")) for line in lines)
    # the README's first command, on the base install, before any extra
    first = lines.index("bash .ci/first-command")
    assert first < next(i for i, line in enumerate(lines) if "'.[test]'" in line)
    assert "awk '/^```/{n++; next} n==1' README.md" in (ROOT / ".ci" / "first-command"
                                                        ).read_text(encoding="utf-8")


def test_pyproject_license_is_an_spdx_expression_with_a_pinned_backend() -> None:
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    assert project["project"]["license"] == "MIT"
    assert project["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").exists()
    (requirement,) = project["build-system"]["requires"]
    assert requirement.startswith("setuptools>=77.0.3,<")  # PEP 639 support


# ------------------------------------------------------------------ names in contest scripts

@pytest.mark.parametrize("players, words", [
    (["Ada", "Bo", "ADA"], "players[2]: ADA is the same name as the player Ada"),
    (["Rossi", "R\u03bfssi"], "players[1]: R\u03bfssi looks like the player Rossi"),
    (["Ada", "Bo\u200b"], "players[1]: must not hold invisible"),
])
def test_a_swing_scripts_look_alike_players_are_an_invalid_script(
        players: list[str], words: str, tmp_path: Path) -> None:
    path = tmp_path / "swing.json"
    path.write_text(json.dumps({"contest": "swing", "players": players, "start_vp": 100,
                                "cpp": [10], "rounds": []}), encoding="utf-8")
    code, line = contest.run_file(path)
    assert code == 2 and line.startswith(f"{path}: invalid script: {words}"), line


def test_a_couples_scripts_look_alike_names_are_an_invalid_script(tmp_path: Path) -> None:
    source = sorted((ROOT / "tests" / "contests" / "couples").glob("*.json"))[0]
    data = json.loads(source.read_text(encoding="utf-8"))
    (first, pair), (second, _) = list(data["couples"].items())
    path = tmp_path / "couples.json"
    data["couples"] = {first: pair, second: [pair[0].upper(), "Someone"]}
    path.write_text(json.dumps(data), encoding="utf-8")
    code, line = contest.run_file(path)
    assert code == 2 and f"is the same name as the player {pair[0]}" in line, line
