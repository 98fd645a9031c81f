"""The table page's script on a poor link (bgclock/server/render/modules.py, issue 33
§4): its bundle while the bundle is current, else its entry with a
modulepreload hint for every module of its import graph; a stale bundle is
never served.  The figures are bench/first_clock.py's."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bgclock.server.render.modules import (
    BUNDLES,
    bundle_header,
    bundle_state,
    deliver,
    entry_delivery,
    import_graph,
    sources_digest,
)
from bgclock.server.render.pages import STATIC_DIR, table_page
from tests.test_web_modules import _graph

ENTRY = "table/main.js"
PAGE = '<head>{{PRELOAD}}</head><script type="module" src="{{STATIC}}/table/main.js"></script>'
HINT = re.compile(r'<link rel="modulepreload" href="\{\{STATIC\}\}/([^"]+)">')


def _files(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def _small(folder: Path) -> Path:
    """An entry importing in every way a page's module does."""
    return _files(folder, {
        "table/main.js": ('import { a } from "./a.js";\nimport * as k from "../kit/k.js";\n'
                          'import "../s.js";\nimport {\n  b,\n  c,\n} from "./b.js";\n'
                          '/** @typedef {import("./types.js").T} T */\n'),
        "table/a.js": 'export { k } from "../kit/k.js";\nexport const a = 1;\n',
        "table/b.js": 'import { deep } from "../deep/d.js";\nexport const b = deep, c = 2;\n',
        "kit/k.js": "export const k = 1;\n",
        "s.js": "",
        "deep/d.js": "export const deep = 3;\n",
        "table/types.js": "",   # types only: never loaded
    })


def test_the_graph_follows_every_import_once_and_no_jsdoc_type(tmp_path: Path) -> None:
    folder = _small(tmp_path)
    assert import_graph(folder, ENTRY) == (
        "table/main.js", "table/a.js", "kit/k.js", "s.js", "table/b.js", "deep/d.js")


def test_an_import_of_a_missing_file_names_its_importer(tmp_path: Path) -> None:
    folder = _files(tmp_path, {"table/main.js": 'import "./gone.js";\n'})
    with pytest.raises(FileNotFoundError, match=r"table/main.js imports ./gone.js"):
        import_graph(folder, ENTRY)


def test_the_table_page_graph_is_every_module_its_entry_reaches() -> None:
    """Held to tests/test_web_modules.py's own reading of the imports."""
    graph, root = _graph(), STATIC_DIR.resolve()
    reached, todo = set(), [(root / ENTRY).resolve()]
    while todo:
        path = todo.pop()
        if path not in reached:
            reached.add(path)
            todo.extend(graph[path])
    assert set(import_graph(STATIC_DIR, ENTRY)) == {p.relative_to(root).as_posix()
                                                    for p in reached}
    assert len(reached) > 30


def test_without_a_bundle_every_module_of_the_table_page_is_preloaded(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC_DIR, folder)
    shutil.rmtree(folder / "bundle", ignore_errors=True)
    assert bundle_state(folder, ENTRY) == "missing"
    page = deliver((folder / "table.html").read_text(), folder, ENTRY)
    assert set(HINT.findall(page)) == set(import_graph(folder, ENTRY))
    assert '<script type="module" src="{{STATIC}}/table/main.js">' in page
    assert "{{PRELOAD}}" not in page


def test_the_table_page_loads_its_bundle_which_is_current() -> None:
    state = bundle_state(STATIC_DIR, ENTRY)
    assert state == "current", (
        f"bgclock/web/static/{BUNDLES[ENTRY]} is {state}: a module the table page imports "
        "changed since it was made; run `.venv/bin/python -m bgclock.server.render.bundle` "
        "(after `npm ci`)")
    page = table_page(7)
    assert re.search(r'<script type="module" src="/static/v/[0-9a-f]{12}/bundle/table\.mjs">',
                     page)
    assert "modulepreload" not in page and "table/main.js" not in page


def test_a_stale_bundle_is_never_served(tmp_path: Path) -> None:
    folder = _small(tmp_path)
    bundle = folder / BUNDLES[ENTRY]
    bundle.parent.mkdir()
    bundle.write_text(bundle_header(ENTRY, sources_digest(folder, ENTRY)) + "/* made */\n")
    assert bundle_state(folder, ENTRY) == "current"
    assert deliver(PAGE, folder, ENTRY) == (
        '<head></head><script type="module" src="{{STATIC}}/bundle/table.mjs"></script>')
    # one byte of one module changed since: its modules, preloaded, not the bundle
    (folder / "deep/d.js").write_text("export const deep = 4;\n")
    assert bundle_state(folder, ENTRY) == "stale"
    entry_delivery.cache_clear()   # a server reads it once, at start
    page = deliver(PAGE, folder, ENTRY)
    assert 'src="{{STATIC}}/table/main.js"' in page
    assert HINT.findall(page) == list(import_graph(folder, ENTRY))
    # a bundle of another entry, or with no header, is stale too
    bundle.write_text(bundle_header("room/main.js", sources_digest(folder, ENTRY)))
    assert bundle_state(folder, ENTRY) == "stale"
    bundle.write_text("var x;\n")
    assert bundle_state(folder, ENTRY) == "stale"


def test_the_sources_digest_follows_names_and_bytes(tmp_path: Path) -> None:
    base = sources_digest(_small(tmp_path / "a"), ENTRY)
    assert base == sources_digest(_small(tmp_path / "b"), ENTRY)
    other = _small(tmp_path / "c")
    (other / "table/types.js").write_text("changed, never imported")
    assert sources_digest(other, ENTRY) == base
    (other / "s.js").write_text(";")
    assert sources_digest(other, ENTRY) != base
