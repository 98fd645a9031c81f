"""The pages load their files from a versioned URL cached for a year; any
other static URL is revalidated (bgclock/server/_static.py, docs/pages.md
"Caching")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.app import WEB_STATIC
from bgclock.server.render.pages import static_version, versioned_url
from bgclock.server.routes.static import IMMUTABLE, REVALIDATE
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

YEAR = IMMUTABLE.decode()
ASK = REVALIDATE.decode()


def test_the_version_follows_every_file_name_and_byte(tmp_path: Path) -> None:
    def version(files: dict[str, bytes]) -> str:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        for name, data in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return static_version(folder)

    base = version({"a.js": b"1", "sub/b.js": b"2"})
    assert re.fullmatch(r"[0-9a-f]{12}", base)
    assert version({"a.js": b"1", "sub/b.js": b"2"}) == base        # the same files
    assert version({"a.js": b"1", "sub/b.js": b"3"}) != base        # a byte
    assert version({"a.js": b"1", "sub/c.js": b"2"}) != base        # a name
    assert version({"a.js": b"1", "sub/b.js": b"2", "d.css": b""}) != base  # a new file
    assert version({"a.js12": b"", "sub/b.js": b"2"}) != base  # no two files run together


async def test_a_page_loads_versioned_files_cached_for_a_year(live: Any) -> None:
    table = await live.table()
    tid = (await live.http.get("/api/tournaments", headers=DIRECTOR)).json()["tournaments"][0]["id"]
    prefix = versioned_url()
    assert prefix == "/static/v/" + static_version(WEB_STATIC)
    for page in (f"/t/{table['id']}?token={table['token']}", "/director",
                 f"/room/{tid}"):
        r = await live.http.get(page, headers=DIRECTOR)
        assert r.status_code == 200, page
        assert r.headers["cache-control"] == "no-store", page   # the page: always fresh
        urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text)
        assert urls and all(u.startswith(prefix + "/") for u in urls), (page, urls)
        for url in urls:
            f = await live.http.get(url)
            assert f.status_code == 200, url
            assert f.headers["cache-control"] == YEAR, url
            assert f.content == (WEB_STATIC / url.removeprefix(prefix + "/")).read_bytes()
    # a module's relative import stays under the version
    nested = await live.http.get(prefix + "/table/guard.js")
    assert nested.status_code == 200 and nested.headers["cache-control"] == YEAR
    missing = await live.http.get(prefix + "/no-such.js")
    assert missing.status_code == 404 and missing.headers.get("cache-control") != YEAR


async def test_other_static_urls_are_revalidated(live: Any) -> None:
    plain = (WEB_STATIC / "kit/link.js").read_bytes()
    r = await live.http.get("/static/kit/link.js")
    assert r.status_code == 200 and r.content == plain
    assert r.headers["cache-control"] == ASK
    again = await live.http.get("/static/kit/link.js",
                                headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == ASK
    # a page opened before an upgrade asks for its old version: today's
    # files, never cached under the old name
    old = await live.http.get("/static/v/000000000000/kit/link.js")
    assert old.status_code == 200 and old.content == plain
    assert old.headers["cache-control"] == ASK
    # the API is still never stored
    api = await live.http.get("/api/tournaments", headers=DIRECTOR)
    assert api.headers["cache-control"] == "no-store"
