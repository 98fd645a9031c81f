"""HTTP answers are gzipped for a client that accepts gzip (static files and
JSON past ``GZIP_MIN_BYTES``), and plain for one that does not."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from bgclock.server.app import GZIP_MIN_BYTES, WEB_STATIC
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


@dataclass
class Raw:
    status_code: int
    headers: httpx.Headers
    content: bytes


async def raw_get(url: str, path: str, encoding: str | None,
                  headers: dict[str, str] | None = None) -> Raw:
    """The answer as sent (httpx would decompress it: read the raw bytes)."""
    sent = {**(headers or {}), "Accept-Encoding": encoding or "identity"}
    async with httpx.AsyncClient(base_url=url) as http, http.stream(
            "GET", path, headers=sent) as r:
        body = b"".join([chunk async for chunk in r.aiter_raw()])
        return Raw(r.status_code, r.headers, body)


async def test_a_static_script_is_gzipped_when_accepted(live: Any) -> None:
    plain = (WEB_STATIC / "kit/link.js").read_bytes()
    assert len(plain) > GZIP_MIN_BYTES
    r = await raw_get(live.url, "/static/kit/link.js", "gzip")
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert gzip.decompress(r.content) == plain
    assert len(r.content) < len(plain) / 2
    r = await raw_get(live.url, "/static/kit/link.js", None)
    assert "content-encoding" not in r.headers and r.content == plain


async def test_json_is_gzipped_and_keeps_its_security_headers(live: Any) -> None:
    await live.table()
    r = await raw_get(live.url, "/protocol/schemas.json", "gzip")
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert gzip.decompress(r.content)[:1] == b"{"
    assert r.headers["x-content-type-options"] == "nosniff"
    r = await raw_get(live.url, "/api/tournaments", "gzip", DIRECTOR)  # short: plain
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["x-content-type-options"] == "nosniff"
