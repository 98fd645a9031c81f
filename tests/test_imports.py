"""No module of ``bgclock`` imports one that imports it back (issue 18 §4).

The graph is read from the source with ``ast``: every ``import`` and
``from ... import`` counts, at the top, inside functions and under
``if TYPE_CHECKING``.  A name imported from a package counts as an edge to
that package's submodule when there is one (``from bgclock.server import
app``), else to the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bgclock

ROOT = Path(bgclock.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, known: set[str], root: str = "bgclock") -> set[str]:
    """The modules of package ``root`` that ``name`` (at ``path``) imports,
    anywhere in it."""
    is_package = path.name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == root:
                    out.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != root:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    return {m for m in out if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that starts and ends at one module,
    or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = GREY
        stack.append(node)
        for nxt in sorted(graph[node]):
            if colour[nxt] == GREY:
                return [*stack[stack.index(nxt):], nxt]
            if colour[nxt] == WHITE:
                found = visit(nxt)
                if found is not None:
                    return found
        stack.pop()
        colour[node] = BLACK
        return None

    for node in sorted(graph):
        if colour[node] == WHITE:
            found = visit(node)
            if found is not None:
                return found
    return None


def test_the_graph_sees_every_kind_of_import() -> None:
    graph = import_graph()
    assert "bgclock.server.app" in graph
    # a top-level import, and the package's own modules are found
    assert "bgclock.server.context" in graph["bgclock.server.app"]
    assert any(m.startswith("bgclock.core") for m in graph["bgclock.server.live.hub"])


@pytest.mark.parametrize(("source", "edges"), [
    ("from . import b\n", {"p.b"}),
    ("import p.b\n", {"p.b"}),
    ("def f():\n    from .b import x\n", {"p.b"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.b import X\n", {"p.b"}),
    ("from .sub import c\n", {"p.sub.c"}),
    ("x = 1\n", set()),
])
def test_imports_are_read_at_any_depth(tmp_path: Path, source: str,
                                       edges: set[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(source)
    known = {"p.a", "p.b", "p.sub", "p.sub.c"}
    assert _imports("p.a", path, known, root="p") == edges


def test_a_cycle_is_found_and_shown() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_of_bgclock_imports_one_that_imports_it_back() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
