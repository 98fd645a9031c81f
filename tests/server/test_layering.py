"""The server's folders import along the layering of ``../shared/DESIGN.md``
("Target layout"), and the imports that still go against it are named here
as debts, each with why it is there: a new import against the layering
fails, and a debt paid must be struck from the list (issue 34 §1).

From the bottom: ``errors`` and ``context`` (the ``Server``: "imported by
all, imports none of them"); ``edge`` (credentials, limits, bodies);
``live`` (the tables) and ``ws`` (their protocol) and ``tournaments``;
``ownership`` (who owns each table and tournament: the interface and the
one-process implementation); ``render`` (pages, exports, sheets); ``routes``
(one module per resource);
``cluster`` (the cluster's implementation, which may reach anything below
the application); ``app`` and the command lines on top.  The graph is
``tests/test_imports.py``'s: every import, at any depth, under
``TYPE_CHECKING`` too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bgclock.server
from tests.test_imports import import_graph

#: What each folder (or top module) of ``bgclock/server`` may import of the others.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "context": frozenset({"errors"}),
    "edge": frozenset({"errors", "context"}),
    "live": frozenset({"errors", "context", "edge"}),
    "ws": frozenset({"errors", "context", "edge", "live"}),
    "tournaments": frozenset({"errors", "context", "edge", "live"}),
    "ownership": frozenset({"errors", "context", "edge", "live", "ws", "tournaments"}),
    "render": frozenset({"errors", "context", "edge", "live", "tournaments"}),
    "routes": frozenset({"errors", "context", "edge", "live", "ws", "tournaments",
                         "ownership", "render"}),
    "cluster": frozenset({"errors", "context", "edge", "live", "ws", "tournaments",
                          "ownership", "render", "routes"}),
    "app": frozenset({"errors", "context", "edge", "live", "ws", "tournaments",
                      "ownership", "render", "routes", "cluster"}),
    "cli": frozenset({"errors", "context", "edge", "live", "ws", "tournaments",
                      "ownership", "render", "routes", "cluster", "app"}),
    "keys_cli": frozenset({"edge", "cli"}),
}

#: The imports against the layering that are still there (folder -> folder,
#: "web" for ``bgclock.web``), and why: issue 34 §1 and issue 33 §1 pay them.
DEBTS: dict[tuple[str, str], str] = {
    ("context", "edge"): "the Server holds the director's key check and the limits",
    ("context", "live"): "the Server builds and holds the tables' hub",
    ("context", "ownership"): "the Server holds who owns each table and tournament "
                              "(one process's, unless create_app chose otherwise)",
    ("context", "tournaments"): "the Server builds and holds the tournaments' service",
    ("render", "routes"): "the OpenAPI renderer reads the routes' own bounds and shapes",
    ("render", "ws"): "the OpenAPI renderer lists the protocol's schemas",
    ("tournaments", "render"): "the service renders the room and public views it pushes",
}


def _folder(module: str) -> str | None:
    """``bgclock.server.live.hub`` -> ``live``; ``bgclock.web...`` -> ``web``."""
    parts = module.split(".")
    if parts[:2] == ["bgclock", "web"]:
        return "web"
    if parts[:2] != ["bgclock", "server"] or len(parts) < 3:
        return None
    return parts[2]


def against_the_layering() -> dict[tuple[str, str], list[str]]:
    """(importer's folder, imported folder) -> the module edges, for every
    import between the server's folders that the layering does not allow."""
    found: dict[tuple[str, str], list[str]] = {}
    for name, targets in import_graph().items():
        here = _folder(name)
        if here is None or here == "web":
            continue
        for target in targets:
            there = _folder(target)
            if there is None or there == here or there in MAY_IMPORT.get(here, frozenset()):
                continue
            found.setdefault((here, there), []).append(f"{name} -> {target}")
    return found


def test_every_folder_of_the_server_is_placed_in_the_layering() -> None:
    folders = {_folder(name) for name in import_graph()} - {None, "web"}
    assert folders <= set(MAY_IMPORT), folders - set(MAY_IMPORT)


def test_no_import_goes_against_the_layering_but_the_named_debts() -> None:
    found = against_the_layering()
    new = {pair: edges for pair, edges in found.items() if pair not in DEBTS}
    assert not new, f"imports against the layering (../shared/DESIGN.md): {new}"
    paid = set(DEBTS) - set(found)
    assert not paid, f"no longer imported: strike these debts from DEBTS: {paid}"


def test_a_new_import_against_the_layering_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.server.test_layering as me

    graph = import_graph()
    graph["bgclock.server.live.hub"] = graph["bgclock.server.live.hub"] | {
        "bgclock.server.routes.tables"}
    monkeypatch.setattr(me, "import_graph", lambda: graph)
    assert ("live", "routes") in against_the_layering()


#: Where the cluster may be named outside ``server/cluster/``: the command
#: lines (its options) and ``create_app`` (the choice), issue 34 §1.
NAMES_THE_CLUSTER = frozenset({"bgclock.cli", "bgclock.server.cli", "bgclock.server.app"})


def test_nothing_outside_the_cluster_imports_it_but_the_choice() -> None:
    importers = {name for name, targets in import_graph().items()
                 if not name.startswith("bgclock.server.cluster")
                 and any(t.startswith("bgclock.server.cluster") for t in targets)}
    assert importers <= NAMES_THE_CLUSTER, importers - NAMES_THE_CLUSTER


def test_nothing_outside_the_cluster_speaks_of_it() -> None:
    """Not in code, nor in a comment: the one-process code is written against
    the ownership (``server/ownership/``, whose interface may name what
    implements it), which says "another process"."""
    server = Path(bgclock.server.__file__).resolve().parent
    found = []
    for path in sorted(server.rglob("*.py")):
        relative = path.relative_to(server).as_posix()
        if relative.startswith(("cluster/", "ownership/")) or relative in ("cli.py", "app.py"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bcluster", line, re.IGNORECASE):
                found.append(f"{relative}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def _protocol_errors_made(tree: ast.AST) -> list[int]:
    """The lines naming ``ProtocolError`` or building a ``{"type": "error"}``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name | ast.alias | ast.Attribute):
            name = (node.id if isinstance(node, ast.Name)
                    else node.name if isinstance(node, ast.alias) else node.attr)
            if name.rpartition(".")[2] == "ProtocolError":
                lines.append(getattr(node, "lineno", 0))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "type"
                        and isinstance(value, ast.Constant) and value.value == "error"):
                    lines.append(node.lineno)
    return lines


def test_a_table_says_no_in_its_own_terms_and_only_ws_words_it() -> None:
    """A table refuses with live's ``Refused``; the protocol's ``error``
    (``ws.protocol.ProtocolError``) is made only in ``ws`` and by the
    cluster, which relays ws's messages (issue 33 §1)."""
    server = Path(bgclock.server.__file__).resolve().parent
    found = []
    for path in sorted(server.rglob("*.py")):
        relative = path.relative_to(server).as_posix()
        if relative.startswith(("ws/", "cluster/")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{relative}:{n}" for n in _protocol_errors_made(tree)]
    assert not found, found


def test_the_check_of_who_words_a_refusal_sees_both_ways_of_doing_it() -> None:
    made = ast.parse('from bgclock.server.ws.protocol import ProtocolError\n'
                     'x = {"type": "error", "code": "busy"}\n'
                     'raise ProtocolError("busy", "wait")\n')
    assert sorted(set(_protocol_errors_made(made))) == [1, 2, 3]
