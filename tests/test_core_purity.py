"""DESIGN.md: core never imports a clock, the file system, sockets or the web stack."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

FORBIDDEN = {"time", "asyncio", "sqlite3", "socket", "os", "datetime", "random", "threading",
             "starlette", "uvicorn", "asyncpg", "gnubg", "gnubg_nn", "subprocess", "io"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "bgclock" / "core").glob("*.py")),
                         ids=lambda p: p.name)
def test_core_module_is_pure(path: Path) -> None:
    imported = _imports(path)
    assert not imported & FORBIDDEN, f"{path.name} imports {imported & FORBIDDEN}"
    outside_stdlib = {n for n in imported if n not in sys.stdlib_module_names} - {"bgclock"}
    assert not outside_stdlib, f"{path.name} imports {outside_stdlib} from outside the stdlib"
