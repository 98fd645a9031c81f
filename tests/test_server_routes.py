"""The Mount tree (issue 18 §4): one path-id convertor, the director's guard
on the director's Mount (not on each route), and errors answered by the
handlers of ``errors``, never by hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.middleware import Middleware
from starlette.routing import Mount, Route

from bgclock.server.edge.director import DirectorOnly
from bgclock.server.edge.limits import MAX_ID
from bgclock.server.edge.paths import IdConvertor, at_most
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


def _routes(routes: Any, prefix: str = "", guarded: bool = False,
            ) -> Iterator[tuple[str, Route, bool]]:
    """(whole path, route, under the director's guard) through the Mounts."""
    for r in routes:
        if isinstance(r, Mount):
            inner = guarded or isinstance(r.app, DirectorOnly)
            yield from _routes(r.routes, prefix + r.path, inner)
        elif isinstance(r, Route):
            yield prefix + r.path, r, guarded


def _filled(path: str, value: str = "1") -> str:
    return re.sub(r"\{(\w+)(:\w+)?\}", value, path)


@pytest.mark.parametrize("limit", [0, 1, 9, 10, 99, 100, 205, 1000, 4096, 65_535])
def test_the_id_pattern_takes_exactly_0_to_its_bound(limit: int) -> None:
    pattern = re.compile(at_most(limit) + r"\Z")
    for n in range(limit * 2 + 20):
        assert bool(pattern.match(str(n))) == (n <= limit), n


@pytest.mark.parametrize(("text", "taken"), [
    ("0", True), ("7", True), (str(MAX_ID), True), (str(MAX_ID - 10), True),
    ("9123372036854775808", True), (str(MAX_ID + 1), False), (str(2**64), False),
    ("9" * 19, False), ("1" * 20, False), ("-1", False), ("１２", False), ("1e3", False),
    ("", False), (" 1", False),
])
def test_the_id_convertor_is_bounded_to_63_bits(text: str, taken: bool) -> None:
    convertor = IdConvertor()
    assert bool(re.compile(convertor.regex + r"\Z").match(text)) == taken
    if taken:
        assert convertor.convert(text) == int(text)
        assert convertor.to_string(int(text)) == str(int(text))
    with pytest.raises(ValueError, match="an id"):
        convertor.to_string(MAX_ID + 1)


async def test_every_director_route_needs_the_key_and_only_those(live: Any) -> None:
    found = list(_routes(live.app.routes))
    guarded = [(p, r) for p, r, g in found if g]
    open_ = {p for p, _, g in found if not g}
    assert len(guarded) > 60
    # what a room token or a table's token opens is outside the guard
    assert {"/api/tournaments/{tournament_id:id}/room.json", "/t/{table_id:id}",
            "/api/tables/{table_id:id}/events", "/api/tables/{table_id:id}/sheet",
            "/healthz"} <= open_
    assert "/api/tournaments/{tournament_id:id}/state" in {p for p, _ in guarded}
    for path, route in guarded:
        for method in sorted(route.methods or {"GET"}):
            if method == "HEAD":
                continue
            r = await live.http.request(method, _filled(path))
            assert r.status_code == 401, (method, path, r.status_code)
            assert r.json() == {"error": "unauthorized",
                                "message": "the director's key is needed"}


async def test_a_path_no_route_takes_is_a_404_with_or_without_the_key(live: Any) -> None:
    for path in ("/api/nothing", "/api/tournaments/x/room.stream", "/api/tables/-1",
                 f"/api/tournaments/{MAX_ID + 1}/state", "/api/tables/１２/log.json"):
        for headers in ({}, DIRECTOR):
            r = await live.http.get(path, headers=headers)
            assert r.status_code == 404, (path, headers)
            assert r.json()["error"] == "not_found"
    r = await live.http.get("/no-such-page")
    assert r.status_code == 404


async def test_a_refusal_raised_anywhere_is_answered_by_the_handler(live: Any) -> None:
    # ApiError from a route, NotFound from the store: one shape
    r = await live.http.get("/api/tournaments/12345/state", headers=DIRECTOR)
    assert r.status_code == 404 and set(r.json()) == {"error", "message"}
    r = await live.http.post("/api/tournaments", content=b"{", headers=DIRECTOR)
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = await live.http.get("/api/tournaments/1/standings.html?lang=xx", headers=DIRECTOR)
    assert r.status_code == 422 and "query.lang" in r.json()["message"]


def test_the_guard_looks_only_at_its_own_routes() -> None:
    async def endpoint(request: Any) -> Any:
        raise AssertionError("never called")

    inner = Mount("", routes=[Route("/a", endpoint)], middleware=[Middleware(DirectorOnly)])
    guard = inner.app
    assert isinstance(guard, DirectorOnly)
    scope = {"type": "http", "path": "/a", "root_path": "", "method": "GET"}
    assert guard._guarded(scope)
    assert not guard._guarded({**scope, "path": "/b"})
