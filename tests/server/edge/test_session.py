"""The director's session (``edge.session``, issue 32 items 4 and 5): the
printed link's key exchanged for a cookie and dropped from the address; a
wrong or missing key on a director's page answered with a page in the
browser's language, the API still with JSON 401."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import HTTPConnection

from bgclock.server.edge.auth import DirectorAuth
from bgclock.server.edge.principal import SESSION_COOKIE
from bgclock.server.edge.session import page_language, session_header, without_key
from tests._server_kit import DIRECTOR, KEY, Device, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]

#: What a browser sends when it opens an address (a navigation).
NAVIGATE = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
            "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "none"}
SESSION = DirectorAuth(KEY).session()


def _session(value: str = SESSION, **headers: str) -> dict[str, str]:
    """``headers`` and the director's session cookie ``value``."""
    return {**headers, "Cookie": f"{SESSION_COOKIE}={value}"}


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Any]:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as server:
        yield server


def _conn(query: str = "", scheme: str = "http", **headers: str) -> HTTPConnection:
    return HTTPConnection({"type": "http", "scheme": scheme, "path": "/director",
                           "server": ("bgclock.lan", 80), "query_string": query.encode(),
                           "headers": [(k.lower().encode(), v.encode())
                                       for k, v in headers.items()]})


def test_the_refusal_page_speaks_the_browsers_language() -> None:
    assert page_language(_conn(**{"Accept-Language": "it-IT,it;q=0.9,en;q=0.8"})) == "it"
    assert page_language(_conn(**{"Accept-Language": "en-GB,it;q=0.5"})) == "en"
    assert page_language(_conn(**{"Accept-Language": "de-DE,de;q=0.9,it;q=0.4"})) == "it"
    assert page_language(_conn(**{"Accept-Language": "fr"})) == "en"
    assert page_language(_conn()) == "en"
    assert page_language(_conn("lang=it", **{"Accept-Language": "en"})) == "it"


def test_the_cookie_is_httponly_lax_and_secure_over_https() -> None:
    plain = session_header(_conn(), SESSION)
    assert plain == f"{SESSION_COOKIE}={SESSION}; Path=/; HttpOnly; SameSite=Lax"
    assert session_header(_conn(scheme="https"), SESSION).endswith("; Secure")


def test_the_address_loses_its_key_and_keeps_the_rest() -> None:
    assert without_key(_conn(f"key={KEY}")) == "/director"
    assert without_key(_conn(f"lang=it&key={KEY}&event=main")) == "/director?lang=it&event=main"


@pytest.mark.anyio
async def test_opening_the_printed_link_sets_the_session_and_drops_the_key(live: Any) -> None:
    r = await live.http.get(f"/director?key={KEY}&lang=it", headers=NAVIGATE)
    assert r.status_code == 303
    assert r.headers["location"] == "/director?lang=it"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}={SESSION};") and KEY not in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert r.headers["cache-control"] == "no-store"  # the edge's headers on it too
    page = await live.http.get("/director?lang=it", headers=_session(**NAVIGATE))
    assert page.status_code == 200 and "<html" in page.text
    # every printout and export the dashboard opens, by the cookie alone
    table = await live.table()
    tid = table["tournament_id"]
    for path in (f"/api/tables/{table['id']}/qr.svg", f"/api/tables/{table['id']}/report.html",
                 "/api/register.csv", "/api/register/ratings.html?lang=it",
                 f"/api/tournaments/{tid}/standings.csv", f"/room/{tid}"):
        got = await live.http.get(path, headers=_session(**NAVIGATE))
        assert got.status_code == 200, path


@pytest.mark.anyio
async def test_a_printout_opened_with_the_key_is_cleaned_too(live: Any) -> None:
    r = await live.http.get(f"/api/register/ratings.html?lang=it&key={KEY}", headers=NAVIGATE)
    assert r.status_code == 303 and r.headers["location"] == "/api/register/ratings.html?lang=it"


@pytest.mark.anyio
async def test_a_wrong_key_shows_a_page_in_italian_and_the_api_keeps_json(live: Any) -> None:
    italian = {**NAVIGATE, "Accept-Language": "it-IT,it;q=0.9"}
    r = await live.http.get("/director?key=not-the-key", headers=italian)
    assert r.status_code == 401 and "set-cookie" not in r.headers
    assert r.headers["content-type"].startswith("text/html")
    assert '<html lang="it">' in r.text and 'data-why="wrong"' in r.text
    assert "Questa chiave non apre le pagine del direttore" in r.text
    missing = await live.http.get("/director", headers={**NAVIGATE, "Accept-Language": "en"})
    assert missing.status_code == 401 and 'data-why="missing"' in missing.text
    assert "this browser does not hold the director" in missing.text
    ended = await live.http.get("/director",
                                headers=_session(DirectorAuth("old-key").session(), **italian))
    assert ended.status_code == 401 and 'data-why="ended"' in ended.text
    # the API: JSON 401, whatever the language
    for path in ("/api/tournaments", "/api/tournaments?key=not-the-key", "/director"):
        api = await live.http.get(path, headers={"Accept-Language": "it"})
        assert api.status_code == 401 and api.json()["error"] == "unauthorized", path


@pytest.mark.anyio
async def test_a_scripts_read_with_the_key_is_not_redirected(live: Any) -> None:
    r = await live.http.get(f"/api/tournaments?key={KEY}")
    assert r.status_code == 200 and r.json() == r.json()


@pytest.mark.anyio
async def test_a_change_by_session_only_from_the_servers_own_pages(live: Any) -> None:
    """CSRF: the cookie goes with any request the browser sends; a change
    counts it only when the request says it came from this server's pages."""
    host = live.url.removeprefix("http://")
    own = {"Origin": live.url, "Sec-Fetch-Site": "same-origin"}
    r = await live.http.post("/api/tournaments", json={"name": "ok"}, headers=_session(**own))
    assert r.status_code == 201, r.text
    for foreign in ({"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
                    {"Origin": f"http://evil.example:{host.split(':')[1]}"}):
        r = await live.http.post("/api/tournaments", json={"name": "forged"},
                                 headers=_session(**foreign))
        assert r.status_code == 401, foreign
    names = [x["name"] for x in (await live.http.get("/api/tournaments",
                                                     headers=DIRECTOR)).json()["tournaments"]]
    assert "forged" not in names and "ok" in names


@pytest.mark.anyio
async def test_the_dashboards_websocket_opens_with_the_session(live: Any) -> None:
    own = _session(Origin=live.url)
    async with Device.open(live.ws_url, {"v": 1}, additional_headers=own) as d:
        assert (await d.expect("welcome"))["role"] == "director"
    stale = _session(DirectorAuth("old").session(), Origin=live.url)
    for headers in (stale, {"Origin": live.url}):
        async with Device.open(live.ws_url, {"v": 1}, additional_headers=headers) as d:
            assert (await d.expect("error"))["code"] == "unauthorized"
