"""Make the pages' bundles again: ``python -m bgclock.server.render.bundle``.

Each entry of ``render.modules.BUNDLES`` is bundled by esbuild (npm, in
``package.json``: ``npm ci`` installs it) into one minified ES module whose
first line names the digest of the sources it was made from; the server
loads a bundle only while its sources are unchanged (``modules.deliver``),
and ``tests/server/render/test_modules.py`` fails while one is stale.  Run it after
changing any module a bundled page imports.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bgclock.server.render.modules import BUNDLES, bundle_header, sources_digest
from bgclock.server.render.pages import STATIC_DIR

#: esbuild as npm installs it at the repository's root.
ESBUILD = Path(__file__).resolve().parents[3] / "node_modules" / ".bin" / "esbuild"


def build(folder: Path, entry: str, esbuild: Path = ESBUILD) -> Path:
    """Bundle ``entry`` (a path under ``folder``) to its ``BUNDLES`` path."""
    out = folder / BUNDLES[entry]
    digest = sources_digest(folder, entry)
    subprocess.run(
        [str(esbuild), str(folder / entry), "--bundle", "--format=esm", "--minify",
         "--legal-comments=none", "--log-level=warning",
         f"--banner:js={bundle_header(entry, digest).rstrip()}", f"--outfile={out}"],
        check=True)
    return out


def main() -> int:
    if not ESBUILD.is_file():
        print(f"bundle: {ESBUILD} is missing: run `npm ci` first", file=sys.stderr)
        return 2
    for entry in BUNDLES:
        out = build(STATIC_DIR, entry)
        print(f"{out.relative_to(STATIC_DIR)}: {out.stat().st_size} bytes, from {entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
