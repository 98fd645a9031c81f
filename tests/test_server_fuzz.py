"""Every POST/PATCH route of the OpenAPI document fed malformed bodies
(issue 18 §3): bytes that are not UTF-8, fields too long, wrong types, huge
numbers, deep nesting, a CSV field over csv's limit.  None may answer 500: a
bad body is a 4xx naming what is wrong.  New routes are fuzzed as soon as
the document lists them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.render.openapi import openapi
from tests._server_kit import DIRECTOR, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

DOC = json.loads(json.dumps(openapi()))

#: Values no field accepts as they are (as JSON text: some are not JSON values
#: Python writes, like a 5,000-digit integer or a lone surrogate).
BAD_VALUES: tuple[str, ...] = (
    "null", "true", "[]", "{}", "-1", "0", "1.5", "1e999", "9" * 5000, '"' + "x" * 60_000 + '"',
    '"\\u0000"', '"\\ud800"', '"A\\u200bB"', '""', '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]',
    '{"a": {"b": {"c": 1}}}', '["x", 1, null]',
)
#: Whole bodies, as bytes.
BAD_BODIES: tuple[bytes, ...] = (
    b"", b"\xff\xfe\xfd", b'{"x": "\xff"}', b'{"\xc3": 1}', b"null", b"[]", b'"text"', b"1e999",
    b"{", b"{}" * 10, b"[" * 100 + b"]" * 100, b'{"a":' * 50 + b"1" + b"}" * 50,
    b"\x00", "{\"x\": \"caf\u00e9\"}".encode("latin-1"),
)
#: A players' CSV that Python's csv cannot read, or that is not text.
BAD_CSV: tuple[bytes, ...] = (
    b"name\n" + b"x" * 140_000 + b"\n", b"name\n\"" + b"x" * 140_000 + b"\"\n", b"a\x00b\n",
    b"\xff\xfe\n", b"name\n\"unclosed\n", b"\n\n\n", b"name,federation_id,extra\nA,B,C\n",
    "name\nAda\u200b\n".encode(), b"name\n" + b"A" * 101 + b"\n",
)


class PathIds(dict[str, Any]):
    """The path's ids: the ones made for the test, 1 for any other a new
    route names (``{clash}``), so that every route is reached."""

    def __missing__(self, key: str) -> Any:
        return 1


def properties(op: dict[str, Any]) -> list[str]:
    """The top-level fields of an operation's JSON body (from its schema)."""
    body = op.get("requestBody")
    if body is None:
        return []
    schema = body["content"].get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        schema = DOC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return list(schema.get("properties", {}))


def routes() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            if method in ("post", "patch", "put") and "requestBody" in op:
                out.append((method.upper(), path, op))
    return out


def test_the_document_has_routes_to_fuzz() -> None:
    found = {path for _m, path, _op in routes()}
    assert "/api/tournaments/{tournament_id}/players" in found
    assert "/api/tables/{table_id}" in found
    assert len(found) >= 25


async def test_no_body_makes_any_route_answer_500(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        r = await live.http.post("/api/tournaments", json={"name": "Fuzz"}, headers=DIRECTOR)
        tid = r.json()["id"]
        base = f"/api/tournaments/{tid}"
        r = await live.http.post(f"{base}/players.csv", headers={
            **DIRECTOR, "content-type": "text/csv"}, content=b"name\nP1\nP2\nP3\nP4\n")
        assert r.status_code == 201, r.text
        r = await live.http.post(f"{base}/tables", headers=DIRECTOR, json={
            "rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"]})
        table_id = r.json()["id"]
        ids = PathIds(tournament_id=tid, table_id=table_id, player_id=1, appeal=1, event="main")
        seen: list[tuple[str, str, int]] = []

        async def send(method: str, path: str, body: bytes, ctype: str) -> None:
            url = path.format_map(ids)
            r = await live.http.request(method, url, content=body,
                                        headers={**DIRECTOR, "content-type": ctype})
            seen.append((method, path, r.status_code))
            assert r.status_code < 500, (method, path, body[:80], r.status_code, r.text[:300])
            if r.status_code >= 400:
                said = r.json()
                assert said["error"] and said["message"], said

        for method, path, op in routes():
            for body in BAD_BODIES:
                await send(method, path, body, "application/json")
            for name in properties(op):
                for value in BAD_VALUES:
                    await send(method, path, f'{{"{name}": {value}}}'.encode(),
                               "application/json")
                await send(method, path, f'{{"{name}": "'.encode() + b"\xff\xfe" + b'"}',
                           "application/json")
        for body in BAD_CSV:
            await send("POST", "/api/tournaments/{tournament_id}/players.csv", body, "text/csv")
        assert {path for _m, path, _s in seen} >= {path for _m, path, _op in routes()}
        # the tournament is still served, its four players as they were
        r = await live.http.get(f"{base}/state", headers=DIRECTOR)
        assert r.status_code == 200
        assert [p["name"] for p in r.json()["players"]][:4] == ["P1", "P2", "P3", "P4"]


async def test_bytes_that_are_not_utf8_are_named_by_their_field(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        r = await live.http.post("/api/tournaments", content=b'{"name": "Caf\xe9"}',
                                 headers={**DIRECTOR, "content-type": "application/json"})
        assert r.status_code == 422, r.text
        assert r.json()["message"] == "body.name: must be UTF-8 text (byte 13 is not)"
        r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
        base = f"/api/tournaments/{r.json()['id']}"
        r = await live.http.post(f"{base}/tables", headers={
            **DIRECTOR, "content-type": "application/json"},
            content=b'{"rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "B\xffb"]}')
        assert r.status_code == 422
        assert r.json()["message"].startswith("body.players[1]: must be UTF-8 text")
        r = await live.http.post(f"{base}/players", content=b"\xff{}",
                                 headers={**DIRECTOR, "content-type": "application/json"})
        assert r.status_code == 400 and r.json()["message"].startswith("body: must be UTF-8")
        r = await live.http.post(f"{base}/players.csv", content=b"name\n" + b"x" * 140_000,
                                 headers={**DIRECTOR, "content-type": "text/csv"})
        assert r.status_code == 422
        assert r.json()["message"] == ("line 2: body: a field is longer than 131072 "
                                       "characters (a name has at most 100)")
        r = await live.http.post(f"{base}/players.csv", content=b"name\nA\x00da\n",
                                 headers={**DIRECTOR, "content-type": "text/csv"})
        assert r.status_code == 422 and r.json()["message"].startswith("line 2: body")
        r = await live.http.get(f"{base}/state", headers=DIRECTOR)
        assert r.json()["players"] == []


QUERIES = ("token=%FF%FE", "token=1.%FF%FE", "token=1.\u00e9t\u00e9", "key=%FF",
           "token=" + "t" * 5000, "after=-1", "after=1e999", "after=" + "9" * 40,
           "after=%00", "token=&token=x", "key=%ED%A0%80")
PATH_IDS = ("0", "-1", "9" * 30, "%FF", "abc", "1.5", "%00")


async def test_no_query_or_path_id_makes_a_get_answer_500(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        r = await live.http.post("/api/tournaments", json={"name": "Fuzz"}, headers=DIRECTOR)
        tid = r.json()["id"]
        r = await live.http.post(f"/api/tournaments/{tid}/tables", headers=DIRECTOR, json={
            "rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"]})
        ids = PathIds(tournament_id=tid, table_id=r.json()["id"], event="main")
        gets = [p for p, ops in DOC["paths"].items() if "get" in ops]
        assert len(gets) >= 15
        for path in gets:
            for query in QUERIES:
                for headers in (DIRECTOR, {}):
                    url = f"{path.format_map(ids)}?{query}"
                    status, text = await _status(live.http, url, headers)
                    assert status < 500, (path, query, status, text)
            for bad in PATH_IDS:
                if "{" not in path:
                    continue
                url = path.format_map(PathIds({k: bad for k in ids}))
                status, text = await _status(live.http, url, DIRECTOR)
                assert status < 500, (url, status, text)


async def _status(http: Any, url: str, headers: dict[str, str]) -> tuple[int, str]:
    """A GET's status, and the start of its body unless it is a stream that
    never ends (the room's server-sent events: only its status is read)."""
    async with http.stream("GET", url, headers=headers) as r:
        if r.headers.get("content-type", "").startswith("text/event-stream"):
            return r.status_code, ""
        return r.status_code, (await r.aread()).decode("utf-8", "replace")[:200]


def test_tokens_with_any_characters_are_refused_not_raised() -> None:
    from bgclock.server.edge.auth import DirectorAuth, TableTokens

    tokens = TableTokens(b"k" * 16)
    good = tokens.token(7)
    assert tokens.table_of(good) == 7
    for bad in ("7.\u00e9\u00e9", "7.\ud800", "7." + "\uffff" * 30, "\u0661.abc"):
        assert tokens.table_of(bad) is None
    secret = DirectorAuth("director-key")
    assert secret.check("director-key")
    assert not secret.check("director-k\u00e9y") and not secret.check("\ud800")
