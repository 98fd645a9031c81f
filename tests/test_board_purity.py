"""bgclock.board is pure: standard library only, no clock, socket, environment or gnubg."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

BOARD = Path(__file__).resolve().parent.parent / "bgclock" / "board"
FORBIDDEN = {"time", "asyncio", "sqlite3", "socket", "os", "gnubg", "gnubg_nn", "random",
             "datetime", "subprocess", "threading", "multiprocessing", "pathlib", "io"}
# the command-line shell may print; nothing else may touch the outside world
SHELL_ONLY = {"sys", "argparse", "json"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Attribute) and node.attr == "environ":
            names.add("os")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("open", "__import__"):
            names.add(f"<{node.func.id}>")  # type: ignore[attr-defined]
    return names


MODULES = sorted(BOARD.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_board_module_is_pure(path: Path) -> None:
    names = _imports(path) - {"__future__", "bgclock"}
    allowed = set(sys.stdlib_module_names) - FORBIDDEN
    if path.name != "cli.py":
        allowed -= SHELL_ONLY
    assert not {n for n in names if n.startswith("<")}, f"{path.name} opens files"
    bad = {n for n in names if n not in allowed}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nfrom gnubg_nn import moves\nimport os\nx = os.environ\n")
    assert {"time", "gnubg_nn", "os"} <= _imports(bad)
