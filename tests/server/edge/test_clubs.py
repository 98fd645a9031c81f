"""Two clubs on one hosted server, each blind to the other (issue 37 §4):
``bgclock clubs add``'s keys (``edge.named_keys``), the director's guard that
keeps a club's director to the club's own (``edge.clubs``), a club's session
cookie, its rooms, and its dashboard's live feed (``ws.session.ClubFeed``).

The matrix asks every route of the application, filled with club Lucca's
tournament and table, with club Pisa's key (as a bearer and as ``?key=``)
and with Pisa's session cookie: nothing of Lucca's is readable or writable
with it, and nothing of Lucca's changed.  Then Lucca's own key does what a
director does on its own, and the server's director still sees every club.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bgclock.server.edge.named_keys import CLUB_DIRECTOR, add_key
from tests._server_kit import DIRECTOR, Device, anyio_backend, app_routes, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

#: Requests in flight at once.
AT_ONCE = 12


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def _club_event(live: Any, key: str, name: str) -> dict[str, Any]:
    """A tournament the club of ``key`` makes, with two players and a table."""
    headers = _bearer(key)
    t = await live.http.post("/api/tournaments", json={"name": name}, headers=headers)
    assert t.status_code == 201, t.text
    tid = t.json()["id"]
    base = f"/api/tournaments/{tid}"
    for who in ("Ann", "Bob"):
        r = await live.http.post(f"{base}/players", json={"name": f"{who} {name}"},
                                 headers=headers)
        assert r.status_code in (200, 201), r.text
    table = await live.http.post(f"{base}/tables", json={
        "rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"]}, headers=headers)
    assert table.status_code == 201, table.text
    return {"tid": tid, "table_id": table.json()["id"], "token": table.json()["token"]}


async def _two_clubs(live: Any) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """Lucca's and Pisa's keys, added while the server runs (it reads them at
    first use), and an event of each."""
    lucca = await add_key(live.server.store, CLUB_DIRECTOR, "lucca")
    pisa = await add_key(live.server.store, CLUB_DIRECTOR, "pisa")
    return lucca, pisa, await _club_event(live, lucca, "Lucca"), await _club_event(
        live, pisa, "Pisa")


def _fill(path: str, ev: dict[str, Any]) -> str:
    return (path.replace("{tournament_id:id}", str(ev["tid"]))
            .replace("{table_id:id}", str(ev["table_id"])).replace("{player_id:id}", "1")
            .replace("{entry_id:id}", "1").replace("{club:club}", "lucca")
            .replace("{event}", "main").replace("{clash:id}", "1").replace("{appeal:id}", "1"))


async def _statuses(live: Any, asked: list[tuple[str, str, dict[str, str],
                                                  dict[str, str]]]) -> list[int]:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(method: str, path: str, query: dict[str, str],
                  headers: dict[str, str]) -> int:
        async with gate:
            r = await live.http.request(method, path, params=query, headers=headers)
            return r.status_code

    return list(await asyncio.gather(*(one(*a) for a in asked)))


async def _what_lucca_has(live: Any, ev: dict[str, Any]) -> tuple[Any, ...]:
    state = await live.http.get(f"/api/tournaments/{ev['tid']}/actions", headers=DIRECTOR)
    log = await live.http.get(f"/api/tables/{ev['table_id']}/log.json", headers=DIRECTOR)
    return state.json()["actions"], log.json()["events"], log.json()["table"]["status"]


async def test_nothing_of_one_club_is_readable_or_writable_with_the_others_key(
        live: Any) -> None:
    lucca, pisa, ev, _ = await _two_clubs(live)
    before = await _what_lucca_has(live, ev)
    # Pisa's browser session, as its director's link gives it
    opened = await live.http.get(f"/director?key={pisa}", headers={"accept": "text/html"},
                                 follow_redirects=False)
    assert opened.status_code == 303
    cookie = opened.headers["set-cookie"].split(";")[0]
    assert cookie.startswith("bgclock_director=pisa.") and pisa not in cookie
    routes = [(m, _fill(p, ev)) for m, p in app_routes(live.app)
              if "{" not in _fill(p, ev) and not p.startswith("/static")]
    assert len(routes) > 80
    creds = {"nobody": ({}, {}), "pisa bearer": ({}, _bearer(pisa)),
             "pisa query": ({"key": pisa}, {}),
             "pisa session": ({}, {"cookie": cookie, "sec-fetch-site": "same-origin"})}
    asked = [(m, p, *creds[c]) for m, p in routes for c in creds]
    answers = await _statuses(live, asked)
    by = {(m, p, c): answers[k] for k, (m, p, c) in enumerate(
        (m, p, c) for m, p in routes for c in creds)}
    for method, path in routes:
        nobody = by[(method, path, "nobody")]
        for c in ("pisa bearer", "pisa query", "pisa session"):
            status = by[(method, path, c)]
            lucca_thing = f"/{ev['tid']}" in path or f"/{ev['table_id']}" in path
            if nobody in (401, 403, 404) and (lucca_thing or path.startswith("/api/register")):
                # a director's route on Lucca's: as if it did not exist, or not a club's
                assert status in (403, 404), (method, path, c, status)
            if method != "GET":
                assert status not in (200, 201, 204), (method, path, c, status)
    # nothing of Lucca's changed
    assert await _what_lucca_has(live, ev) == before


async def test_a_club_lists_and_directs_its_own_and_the_server_director_sees_all(
        live: Any) -> None:
    lucca, pisa, ev, other = await _two_clubs(live)
    own = await live.http.post("/api/tournaments", json={"name": "Server's own"},
                               headers=DIRECTOR)

    async def names(headers: dict[str, str]) -> list[str]:
        r = await live.http.get("/api/tournaments", headers=headers)
        assert r.status_code == 200, r.text
        return [t["name"] for t in r.json()["tournaments"]]

    assert await names(_bearer(lucca)) == ["Lucca"]
    assert await names(_bearer(pisa)) == ["Pisa"]
    assert await names(DIRECTOR) == ["Lucca", "Pisa", "Server's own"]
    # its own event, as a director runs it
    base = f"/api/tournaments/{ev['tid']}"
    headers = _bearer(lucca)
    assert (await live.http.get(f"{base}/state", headers=headers)).status_code == 200
    assert (await live.http.get(f"/api/tables/{ev['table_id']}", headers=headers)
            ).status_code == 200
    checked = await live.http.post(f"{base}/players/check-in", json={"players": [1, 2]},
                                   headers=headers)
    assert checked.status_code == 200, checked.text
    drawn = await live.http.post(f"{base}/draw", json={"seed": 1}, headers=headers)
    assert drawn.status_code == 200, drawn.text
    # another club's, and the server director's: as if they did not exist
    for path in (f"/api/tournaments/{other['tid']}/state", f"/api/tables/{other['table_id']}",
                 f"/api/tournaments/{own.json()['id']}"):
        r = await live.http.get(path, headers=headers)
        assert r.status_code == 404 and r.json()["error"] == "not_found", (path, r.text)
    missing = await live.http.get("/api/tournaments/999/state", headers=headers)
    assert missing.status_code == 404
    # the server director's register is not a club's, nor a link into it
    for method, path, body in (("GET", "/api/register", None),
                               ("POST", "/api/register", {"name": "Carla"}),
                               ("GET", f"{base}/register-search?q=a", None),
                               ("POST", f"{base}/players", {"name": "Carla", "register_id": 1})):
        r = await live.http.request(method, path, json=body, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "club_forbidden", (path, r.text)
    # a wrong key of the club form opens nothing
    forged = "lucca." + lucca.partition(".")[2][::-1]
    assert (await live.http.get("/api/tournaments", headers=_bearer(forged))).status_code == 401


async def test_a_new_key_for_a_club_ends_its_old_key_and_sessions(live: Any) -> None:
    store = live.server.store
    old = await add_key(store, CLUB_DIRECTOR, "lucca")
    opened = await live.http.get(f"/director?key={old}", headers={"accept": "text/html"},
                                 follow_redirects=False)
    cookie = {"cookie": opened.headers["set-cookie"].split(";")[0]}
    assert (await live.http.get("/api/tournaments", headers=cookie)).status_code == 200
    new = await add_key(store, CLUB_DIRECTOR, "lucca", replace=True)
    assert (await live.http.get("/api/tournaments", headers=_bearer(new))).status_code == 200
    assert (await live.http.get("/api/tournaments", headers=_bearer(old))).status_code == 401
    assert (await live.http.get("/api/tournaments", headers=cookie)).status_code == 401


async def test_two_clubs_rooms_of_one_name_are_two_rooms(live: Any) -> None:
    lucca, pisa, a, b = await _two_clubs(live)
    for ev, key in ((a, lucca), (b, pisa)):
        r = await live.http.post(f"/api/tournaments/{ev['tid']}/flight",
                                 json={"room": "Sala", "precedence": 1}, headers=_bearer(key))
        assert r.status_code == 200, r.text
    for ev, key, name in ((a, lucca, "Lucca"), (b, pisa, "Pisa")):
        r = await live.http.get(f"/api/tournaments/{ev['tid']}/flight", headers=_bearer(key))
        assert [e["name"] for e in r.json()["flight"]["events"]] == [name], r.text


async def test_a_clubs_dashboard_feed_holds_only_its_own_tables(live: Any) -> None:
    lucca, pisa, mine, theirs = await _two_clubs(live)
    async with Device.open(live.ws_url, {"v": 1, "key": lucca}) as dash:
        welcome = await dash.expect("welcome")
        assert welcome["tables"] == [mine["table_id"]]
        await dash.quiet(0.3)
        # Pisa's table plays: none of it reaches Lucca's dashboard
        async with Device.open(live.ws_url, {"v": 1, "token": theirs["token"]}) as phone:
            await phone.expect("welcome")
            ack = await phone.cmd("opening_roll", dice=[6, 1])
            assert ack["type"] == "ack", ack
        # Lucca's own table plays: its dashboard sees it
        async with Device.open(live.ws_url, {"v": 1, "token": mine["token"]}) as phone:
            await phone.expect("welcome")
            assert (await phone.cmd("opening_roll", dice=[5, 2]))["type"] == "ack"
        seen = await dash.quiet(1.0)
        tables = {m.get("table") for m in seen if "table" in m}
        assert mine["table_id"] in tables and theirs["table_id"] not in tables, seen
        assert all(m.get("tournament") in (None, mine["tid"]) for m in seen), seen
        # a director's command at another club's table: as if it did not exist
        refused = await dash.cmd("stop", table=theirs["table_id"], side="A", reason="director")
        assert refused["type"] == "error" and refused["code"] == "not_found", refused
        done = await dash.cmd("stop", table=mine["table_id"], side="B", reason="director")
        assert done["type"] == "ack", done
    # the server's director sees both
    async with Device.open(live.ws_url, {"v": 1, "key": DIRECTOR["Authorization"][7:]}) as dash:
        welcome = await dash.expect("welcome")
        assert {mine["table_id"], theirs["table_id"]} <= set(welcome["tables"])
    # a wrong club key is refused at the hello
    async with Device.open(live.ws_url, {"v": 1, "key": "lucca." + "x" * 32}) as dash:
        refused = await dash.expect("error")
        assert refused["code"] == "unauthorized"


def test_the_matrix_covers_every_director_route_of_the_application() -> None:
    """The club's guard decides on the routes the matrix asks; a route it
    cannot place is refused to a club (deny by default: edge.clubs)."""
    from bgclock.server.app import create_app
    from bgclock.store.connect import open_store

    app = create_app(open_store(":memory:"), static_dir=None)
    paths = {p for _, p in app_routes(app)}
    assert "/api/register" in paths and "/api/tournaments/{tournament_id:id}/state" in paths
    unplaced = [p for p in paths if "{" in _fill(p, {"tid": 1, "table_id": 2})
                and not p.startswith("/static")]
    assert unplaced == [], unplaced
