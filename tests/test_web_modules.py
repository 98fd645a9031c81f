"""The pages' ES modules as a graph (issue 19 §5, DESIGN.md "web/static"):
every relative import names a file that is there, no module imports one
that imports it back, no page sets a global but its one debug object, and
the pages load only their entries (a screen's folder holds the rest)."""

from __future__ import annotations

import re
from pathlib import Path

from bgclock.server.render.pages import STATIC_DIR

IMPORT = re.compile(r'^\s*(?:import|export)\s+(?:[^"\';]*?\s+from\s+)?["\'](\.{1,2}/[^"\']+)["\']',
                    re.M)
#: ``(window).name =`` or ``window.name =``: a global set by a page.
GLOBAL = re.compile(r'\bwindow\)?\.([A-Za-z_$][\w$]*)\s*=[^=]')
#: The one debug object each page may set (docs/pages.md, "Debug objects").
DEBUG_OBJECTS = {"__bgclock", "__bgclockDesk"}


def _graph() -> dict[Path, set[Path]]:
    graph: dict[Path, set[Path]] = {}
    for path in sorted(STATIC_DIR.rglob("*.js")):
        graph[path] = {(path.parent / spec).resolve() for spec in IMPORT.findall(path.read_text())}
    return graph


def _cycle(graph: dict[Path, set[Path]]) -> list[Path] | None:
    state: dict[Path, int] = {}

    def visit(node: Path, stack: list[Path]) -> list[Path] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep, stack)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in graph:
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_every_relative_import_names_a_file_that_is_there() -> None:
    graph = _graph()
    missing = {str(p.relative_to(STATIC_DIR)): str(d) for p, deps in graph.items()
               for d in deps if not d.is_file()}
    assert not missing
    # the screens import one another through their folders
    assert (STATIC_DIR / "tourney/view/pools.js").resolve() in graph[
        (STATIC_DIR / "tourney/view/standings.js").resolve()]


def test_no_module_imports_one_that_imports_it_back() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(str(p.relative_to(STATIC_DIR.resolve())) for p in cycle)


def test_a_cycle_would_be_found() -> None:
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert _cycle({a: {b}, b: {c}, c: {a}}) == [a, b, c, a]
    assert _cycle({a: {b}, b: {c}, c: set()}) is None


def test_no_page_sets_a_global_but_its_debug_object() -> None:
    found = {(str(p.relative_to(STATIC_DIR)), name) for p in STATIC_DIR.rglob("*.js")
             for name in GLOBAL.findall(p.read_text())}
    assert {name for _, name in found} == DEBUG_OBJECTS, found


def test_the_pages_load_their_entries_and_the_screens_have_folders() -> None:
    scripts = {name: re.findall(r'<script type="module" src="\{\{STATIC\}\}/([^"]+)"',
                                (STATIC_DIR / name).read_text())
               for name in ("director.html", "room.html", "table.html")}
    assert scripts == {
        "director.html": ["director/main.js", "tourney/main.js", "contests/main.js",
                          "register/main.js"],
        "room.html": ["room/main.js"],
        "table.html": ["table/main.js"],
    }
    for screen in ("tourney", "contests", "register", "room"):
        folder = STATIC_DIR / screen
        assert {"main.js", "state.js", "strings.js"} <= {p.name for p in folder.glob("*.js")}
        assert list((folder / "view").glob("*.js")), screen
