"""How a page's ES modules reach a phone on a poor link (docs/pages.md,
"Loading on a poor link").

A page names one entry module (``table/main.js``); the entry imports the rest
by relative specifiers.  A browser finds each module only once its importer
has arrived, and an HTTP/1.1 origin gets six connections: on a link with a
2 s round trip, the table page's 37 modules took 21 s.  So the page's head
is worked out here, once per process, from the files:

- a **bundle** of the entry (``bundle/table.mjs``, made by esbuild from the
  same modules: ``python -m bgclock.server.render.bundle``) is loaded instead of the
  entry when its first line names the digest of the files it was made from
  and they are still those files: one request instead of 37;
- otherwise (a module changed since the bundle was made, or no bundle) the
  entry itself, with a ``<link rel="modulepreload">`` for every module of its
  static import graph, so that the browser asks for all of them at once.

A stale bundle is never served: it can make the page slower, never different
from its modules.  The modules stay the source (node runs the engine's in
the tests); the bundle is derived from them.
"""

from __future__ import annotations

import hashlib
import html
import re
from functools import lru_cache
from pathlib import Path
from typing import Final

#: A static import or re-export with a relative specifier (``import {a} from
#: "./x.js"``, ``import * as k from "../kit/link.js"``, ``import "./s.js"``,
#: ``export {b} from "./y.js"``) at the start of a line; types named in JSDoc
#: comments (``import("./x.js").T``) are not imports.
IMPORT: Final = re.compile(
    r'^\s*(?:import|export)\s+(?:[^"\';]*?\s+from\s+)?["\'](\.{1,2}/[^"\']+)["\']', re.M)
#: Each entry that has a bundle, and the bundle's path (both under the static folder).
BUNDLES: Final = {"table/main.js": "bundle/table.mjs"}
#: The bundle's first line: ``// bgclock bundle of <entry>; sources <digest>``.
HEADER: Final = re.compile(r"^// bgclock bundle of (\S+); sources ([0-9a-f]{16})\n")


def import_graph(folder: Path, entry: str) -> tuple[str, ...]:
    """Every module ``entry`` loads (itself first, then breadth first), as
    paths relative to ``folder``.  Raises FileNotFoundError naming the
    importer when an import names a file that is not there."""
    root = folder.resolve()
    order = [entry]
    seen = {entry}
    for name in order:
        source = (root / name).read_text(encoding="utf-8")
        for spec in IMPORT.findall(source):
            path = ((root / name).parent / spec).resolve()
            if not path.is_file():
                raise FileNotFoundError(f"{name} imports {spec}: no such file")
            dep = path.relative_to(root).as_posix()
            if dep not in seen:
                seen.add(dep)
                order.append(dep)
    return tuple(order)


def sources_digest(folder: Path, entry: str) -> str:
    """16 hex characters over the names and bytes of ``entry``'s import graph."""
    digest = hashlib.sha256()
    for name in sorted(import_graph(folder, entry)):
        data = (folder / name).read_bytes()
        digest.update(len(name).to_bytes(4, "big") + name.encode("utf-8"))
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:16]


def bundle_header(entry: str, digest: str) -> str:
    """The first line of ``entry``'s bundle made from sources of ``digest``."""
    return f"// bgclock bundle of {entry}; sources {digest}\n"


def bundle_state(folder: Path, entry: str) -> str:
    """``"current"``, ``"stale"`` (made from other sources), ``"missing"``, or
    ``"none"`` (``entry`` has no bundle)."""
    name = BUNDLES.get(entry)
    if name is None:
        return "none"
    path = folder / name
    if not path.is_file():
        return "missing"
    with path.open(encoding="utf-8") as f:
        found = HEADER.match(f.readline())
    if found is None or found.group(1) != entry:
        return "stale"
    return "current" if found.group(2) == sources_digest(folder, entry) else "stale"


@lru_cache(maxsize=8)
def entry_delivery(folder: Path, entry: str) -> tuple[str, tuple[str, ...]]:
    """What a page loads for ``entry``: the script (the bundle when it is
    current, else the entry) and the modules to preload (none for a bundle).
    Read once per process, as ``static_version`` is."""
    if bundle_state(folder, entry) == "current":
        return BUNDLES[entry], ()
    return entry, import_graph(folder, entry)


def deliver(page: str, folder: Path, entry: str) -> str:
    """``page`` (its ``{{STATIC}}`` not yet filled) loading ``entry`` as
    ``entry_delivery`` says: the script tag pointed at the bundle, or the
    modulepreload hints put at ``{{PRELOAD}}``."""
    script, preload = entry_delivery(folder, entry)
    page = page.replace(f'src="{{{{STATIC}}}}/{entry}"', f'src="{{{{STATIC}}}}/{script}"')
    hints = "\n".join(f'<link rel="modulepreload" href="{{{{STATIC}}}}/{html.escape(name)}">'
                      for name in preload)
    return page.replace("{{PRELOAD}}", hints)
