"""A cluster trusts only what proves itself (issue 31).

Two real ``bgclock serve --cluster`` processes on PostgreSQL and Redis
(``tests.test_cluster``'s fixtures):

- the authorization matrix: every route of the application, with no
  credential, a table's token, the room's token, another tournament's
  token, a player's sheet PIN, a wrong key, and the director's key as a
  query and as a bearer, at the process that keeps the tournament and at
  the one that does not: each answers the same, and nothing but the
  director's key passes the director's guard (the score sheet forwarded
  without a token decided a match before);
- the bus: forged, altered and replayed messages of every kind published
  straight to Redis change nothing, leak nothing, and are logged.
Waits are on state: a forgery is followed by a genuine message on the same
channel, whose answer shows that the forgery was heard (and dropped) first.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from bgclock.server.cluster.forward import request_message
from tests._server_kit import POSTGRES, anyio_backend, app_routes
from tests.test_cluster import AUTH, PASSWORD, REDIS, _redis_up, cluster

__all__ = ["anyio_backend"]

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
    pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379"),
]

SETTINGS = {"rounds": [{"length": 3, "rules": "usbgf-2013-delay", "clock": "on_request"}]}


def _post(url: str, path: str, body: Any = None, **kw: Any) -> httpx.Response:
    return httpx.post(url + path, json=body if body is not None else {},
                      headers=kw.get("headers", AUTH), timeout=15)


def _get(url: str, path: str) -> httpx.Response:
    return httpx.get(url + path, headers=AUTH, timeout=15)


def _evening(a: Any) -> dict[str, Any]:
    """Two tournaments at ``a``: the first drawn with its round at tables."""
    tid = _post(a.url, "/api/tournaments", {"name": "Club"}).json()["id"]
    other = _post(a.url, "/api/tournaments", {"name": "Other"}).json()["id"]
    base = f"/api/tournaments/{tid}"
    assert _post(a.url, f"{base}/settings", SETTINGS).status_code == 200
    for name in ("Ann", "Bob"):
        assert _post(a.url, f"{base}/players", {"name": name}).status_code == 201
    for pid in (1, 2):
        assert _post(a.url, f"{base}/players/{pid}/check-in").status_code == 200
    assert _post(a.url, f"{base}/draw", {"seed": 3}).status_code == 200
    started = _post(a.url, f"{base}/rounds", {"event": "main", "round": 0})
    assert started.status_code == 200, started.text
    table_id = started.json()["tables"][0]["table_id"]
    table = _get(a.url, f"/api/tables/{table_id}").json()
    other_table = _post(a.url, f"/api/tournaments/{other}/tables",
                        {"rules": "usbgf-2013-delay", "length": 3}).json()
    state = _get(a.url, f"{base}/state").json()
    pins = _get(a.url, f"{base}/sheet-pins").json()
    return {"tid": tid, "other": other, "table_id": table_id, "token": table["token"],
            "other_token": other_table["token"],
            "room": state["room_url"].split("token=")[1],
            "other_room": _get(a.url, f"/api/tournaments/{other}/state"
                               ).json()["room_url"].split("token=")[1],
            "pin": pins["pins"][0]["pin"]}


def _routes() -> list[tuple[str, str]]:
    """Every (method, path) of the application (path parameters as names)."""
    from bgclock.server.app import create_app
    from bgclock.store.connect import open_store

    return app_routes(create_app(open_store(":memory:"), static_dir=None))


def _fill(path: str, ev: dict[str, Any]) -> str:
    return (path.replace("{tournament_id:id}", str(ev["tid"]))
            .replace("{table_id:id}", str(ev["table_id"])).replace("{player_id:id}", "1")
            .replace("{tid:id}", str(ev["tid"])))


def _credentials(ev: dict[str, Any]) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """name -> (query, headers)."""
    return {
        "nobody": ({}, {}),
        "table token": ({"token": ev["token"]}, {}),
        "room token": ({"token": ev["room"]}, {}),
        "another tournament's table token": ({"token": ev["other_token"]}, {}),
        "another tournament's room token": ({"token": ev["other_room"]}, {}),
        "a player's PIN": ({"pin": ev["pin"]}, {}),
        "a wrong key": ({"key": "not-the-key"}, {"Authorization": "Bearer not-the-key"}),
        "the director's key as a query": ({"key": PASSWORD}, {}),
        "the director's key as a bearer": ({}, {"Authorization": f"Bearer {PASSWORD}"}),
    }


async def test_the_authorization_matrix_is_the_same_at_either_process() -> None:
    async with cluster("a", "b") as (_schema, (a, b)), httpx.AsyncClient(
            timeout=30, limits=httpx.Limits(max_connections=AT_ONCE)) as client:
        ev = _evening(a)
        routes = [(m, _fill(p, ev)) for m, p in _routes() if "{" not in _fill(p, ev)
                  and not p.startswith("/static")]
        assert len(routes) > 60
        # the director's guard: 401 without the key, and passed with it
        # (a venue's publishing route answers 401 to the director too)
        gets = [path for method, path in routes if method == "GET"]
        bare = await _statuses(client, [(a.url + p, "GET", {}, {}) for p in gets])
        keyed = await _statuses(client, [(a.url + p, "GET", {}, AUTH) for p in gets])
        director_only = {("GET", p) for p, x, y in zip(gets, bare, keyed, strict=True)
                         if x == 401 and y != 401}
        assert director_only, "no route of the director's guard found"
        creds = _credentials(ev)
        cases = [(method, path, name) for method, path in routes for name in creds
                 # the director's writes are the features' own tests
                 if not (name.startswith("the director") and method != "GET")]
        asked = [(node.url + path, method, *creds[name])
                 for method, path, name in cases for node in (a, b)]
        answers = await _statuses(client, asked)
        for k, (method, path, name) in enumerate(cases):
            seen = answers[2 * k:2 * k + 2]
            for node, status in zip((a, b), seen, strict=True):
                if (method, path) in director_only:
                    passes = status not in (401, 403)
                    assert passes == name.startswith("the director"), (
                        node.name, method, path, name, status)
                if not name.startswith("the director"):
                    assert status not in (200, 201, 204) or method == "GET", (
                        node.name, method, path, name, status)
            assert seen[0] == seen[1] or 503 in seen, (method, path, name, seen)
        # the forged sheet of issue 31, at the process that keeps nothing
        for side in ("A", "B"):
            forged = httpx.post(f"{b.url}/api/tables/{ev['table_id']}/sheet",
                                json={"by": side, "games": [[1, 0], [3, 0]]}, timeout=15)
            assert forged.status_code == 403, forged.text
        state = _get(a.url, f"/api/tournaments/{ev['tid']}/state").json()
        assert all(m["winner"] is None for m in state["main"]["rounds"][0])


#: Requests of the matrix in flight at once (none of them changes anything:
#: no write is sent with the director's key, and every other is refused).
AT_ONCE = 12


async def _statuses(client: httpx.AsyncClient,
                    asked: list[tuple[str, str, dict[str, str], dict[str, str]]]) -> list[int]:
    """The status of each (url, method, query, headers), in order; a stream's
    body is not read, and a request that gets no answer names itself."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(url: str, method: str, query: dict[str, str],
                  headers: dict[str, str]) -> int:
        async with gate:
            try:
                async with client.stream(method, url, params=query, headers=headers,
                                         json={} if method != "GET" else None) as answer:
                    return answer.status_code
            except httpx.TimeoutException as exc:
                raise AssertionError(f"no answer to {method} {url} {query} "
                                     f"{sorted(headers)}") from exc

    return list(await asyncio.gather(*(one(*x) for x in asked)))


async def _published(channel: str, data: bytes) -> None:
    client = aioredis.from_url(REDIS)
    try:
        await client.publish(channel, data)
    finally:
        await client.aclose()


async def test_forged_altered_and_replayed_bus_messages_change_nothing() -> None:
    async with cluster("a", "b") as (_schema, (a, b)):
        ev = _evening(a)
        prefix = a.prefix
        tid, table_id = ev["tid"], ev["table_id"]
        before = _get(a.url, f"/api/tournaments/{tid}/state").json()
        events_before = _get(a.url, f"/api/tables/{table_id}/log.json").json()
        spy = aioredis.from_url(REDIS)
        heard = spy.pubsub()
        await heard.subscribe(f"{prefix}:node:evil", f"{prefix}:node:a")
        try:
            register = request_message("evil", "r1", {
                "method": "POST", "path": f"/api/tournaments/{tid}/players",
                "query_string": b"", "headers": [(b"content-type", b"application/json")]},
                b'{"name": "Mallory"}')
            pins = request_message("evil", "r2", {
                "method": "GET", "path": f"/api/tournaments/{tid}/sheet-pins",
                "query_string": b"", "headers": []}, b"")
            forgeries = [
                (f"{prefix}:node:a", register), (f"{prefix}:node:b", register),
                (f"{prefix}:node:a", pins),
                (f"{prefix}:node:a", {"k": "hello", "from": "evil", "c": "1", "t": table_id,
                                      "device": "evil", "name": "Evil", "queued": 0}),
                (f"{prefix}:node:a", {"k": "msg", "from": "evil", "c": "1", "t": table_id,
                                      "text": json.dumps({"type": "cmd", "id": "x1",
                                                          "do": "opening_roll",
                                                          "dice": [6, 1]})}),
                (f"{prefix}:node:a", {"k": "dmsg", "from": "evil", "c": "2", "t": table_id,
                                      "text": json.dumps({"type": "director", "table": table_id,
                                                          "do": "adjust", "side": "A",
                                                          "delta_ms": 300000})}),
                (f"{prefix}:node:a", {"k": "result", "from": "evil", "r": "r3",
                                      "result": {"table_id": table_id, "tournament_id": tid,
                                                 "winner": "A", "score": [3, 0]}}),
                (f"{prefix}:all", {"k": "tourney", "from": "evil", "t": tid,
                                   "text": json.dumps({"type": "tournament"})}),
            ]
            for channel, msg in forgeries:
                await _published(channel, json.dumps(msg).encode())
            await _published(f"{prefix}:table:{table_id}",
                             b'a{"type":"table","info":{"length":99}}')
            # a genuine forwarded request on a's channel, after the forgeries:
            # once it is answered, a has heard (and dropped) them all
            genuine = _post(b.url, f"/api/tournaments/{tid}/players", {"name": "Real"})
            assert genuine.status_code == 201, genuine.text
            # the genuine message, captured on the wire, replayed and altered
            captured = None
            until = time.monotonic() + 30  # a bound against a hang, not a timing
            while captured is None:
                assert time.monotonic() < until, "the genuine message was never heard"
                got = await heard.get_message(ignore_subscribe_messages=True, timeout=1)
                if got is None:  # a subscription's confirmation, or nothing yet
                    continue
                if got["channel"] == f"{prefix}:node:a".encode() and b"Real" in got["data"]:
                    captured = bytes(got["data"])
                assert got["channel"] != f"{prefix}:node:evil".encode(), got
            await _published(f"{prefix}:node:a", captured)
            await _published(f"{prefix}:node:a", captured.replace(b"Real", b"Fake"))
            again = _post(b.url, f"/api/tournaments/{tid}/players", {"name": "Later"})
            assert again.status_code == 201, again.text
            while True:  # nothing answered to the forger, all heard by now
                got = await heard.get_message(ignore_subscribe_messages=True, timeout=0.5)
                if got is None:
                    break
                assert got["channel"] != f"{prefix}:node:evil".encode(), got
        finally:
            await heard.aclose()
            await spy.aclose()
        after = _get(a.url, f"/api/tournaments/{tid}/state").json()
        names = [p["name"] for p in after["players"]]
        assert names == [p["name"] for p in before["players"]] + ["Real", "Later"]
        assert after["main"]["rounds"] == before["main"]["rounds"]
        assert _get(a.url, f"/api/tables/{table_id}/log.json").json() == events_before
        assert _get(b.url, f"/api/tables/{table_id}").json()["length"] == 3
        err = a.stop() + b.stop()
        assert "was dropped" in err and "a replay" in err and "does not verify" in err



async def test_two_clubs_are_blind_to_each_other_at_either_process() -> None:
    """Issue 37 §4 on a cluster: clubs added while both processes run; each
    club's director reaches its own tournament at either process (the one
    that does not keep it forwards the request with its credentials) and
    the other club's, at either, as if it did not exist."""
    from bgclock.server.edge.named_keys import CLUB_DIRECTOR, add_key
    from bgclock.store.connect import open_store

    async with cluster("a", "b") as (schema, (a, b)):
        store = open_store(POSTGRES, schema=schema)
        await store.open()
        try:
            lucca = await add_key(store, CLUB_DIRECTOR, "lucca")
            pisa = await add_key(store, CLUB_DIRECTOR, "pisa")
        finally:
            await store.close()
        made = {}
        for club, key, node in (("lucca", lucca, a), ("pisa", pisa, b)):
            headers = {"Authorization": f"Bearer {key}"}
            r = _post(node.url, "/api/tournaments", {"name": club}, headers=headers)
            assert r.status_code == 201, r.text
            made[club] = (r.json()["id"], headers)
            player = _post(node.url, f"/api/tournaments/{r.json()['id']}/players",
                           {"name": "Ann"}, headers=headers)
            assert player.status_code == 201, player.text
        for node in (a, b):
            for club, other in (("lucca", "pisa"), ("pisa", "lucca")):
                tid, headers = made[club]
                own = httpx.get(f"{node.url}/api/tournaments/{tid}/state", headers=headers,
                                timeout=15)
                assert own.status_code == 200, (node.name, club, own.text)
                theirs = httpx.get(f"{node.url}/api/tournaments/{made[other][0]}/state",
                                   headers=headers, timeout=15)
                assert theirs.status_code == 404, (node.name, club, theirs.text)
                wrote = httpx.post(f"{node.url}/api/tournaments/{made[other][0]}/players",
                                   json={"name": "Eve"}, headers=headers, timeout=15)
                assert wrote.status_code == 404, (node.name, club, wrote.text)
                listed = httpx.get(f"{node.url}/api/tournaments", headers=headers, timeout=15)
                assert [t["name"] for t in listed.json()["tournaments"]] == [club]
        # nothing of either was written by the other
        for club in ("lucca", "pisa"):
            tid, headers = made[club]
            state = _get(a.url, f"/api/tournaments/{tid}/state").json()
            assert [p["name"] for p in state["players"]] == ["Ann"]
