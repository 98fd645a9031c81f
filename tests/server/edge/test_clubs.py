"""Two clubs on one hosted server, each blind to the other (issue 37 §4):
``bgclock clubs add``'s keys (``edge.named_keys``), the director's guard that
keeps a club's director to the club's own (``edge.clubs``), a club's session
cookie, its rooms, and its dashboard's live feed (``ws.session.ClubFeed``).

The matrix asks every route of the application, filled with club Lucca's
tournament, table and register entry, with club Pisa's key (as a bearer and
as ``?key=``) and with Pisa's session cookie: nothing of Lucca's is readable
or writable with it (no answer names Lucca's register person), and nothing
of Lucca's changed.  Then Lucca's own key does what a director does on its
own, and the server's director still sees every club.  Each club keeps a
players' register of its own: Pisa's credentials reach Pisa's people only,
and one federation id is a person in each club's register.
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
#: The federation id of a person in each club's register (one id, two people).
FED = "FIBT-7"


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _member(club: str) -> str:
    """The name of the person in the club's register."""
    return f"Socia di {club}"


async def _club_event(live: Any, key: str, name: str) -> dict[str, Any]:
    """A person in the register of the club of ``key`` (federation id
    ``FED``), and a tournament the club makes, with two players (the first
    linked to that person) and a table."""
    headers = _bearer(key)
    entry = await live.http.post("/api/register", json={
        "name": _member(name), "federation_id": FED}, headers=headers)
    assert entry.status_code == 201, entry.text
    t = await live.http.post("/api/tournaments", json={"name": name}, headers=headers)
    assert t.status_code == 201, t.text
    tid = t.json()["id"]
    base = f"/api/tournaments/{tid}"
    for who, link in (("Ann", {"register_id": entry.json()["id"]}), ("Bob", {})):
        r = await live.http.post(f"{base}/players", json={"name": f"{who} {name}", **link},
                                 headers=headers)
        assert r.status_code in (200, 201), r.text
    table = await live.http.post(f"{base}/tables", json={
        "rules": "usbgf-2013-delay", "length": 3, "players": ["Ann", "Bob"]}, headers=headers)
    assert table.status_code == 201, table.text
    return {"tid": tid, "table_id": table.json()["id"], "token": table.json()["token"],
            "entry": entry.json()["id"]}


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
            .replace("{entry_id:id}", str(ev.get("entry", 1))).replace("{club:club}", "lucca")
            .replace("{event}", "main").replace("{clash:id}", "1").replace("{appeal:id}", "1"))


async def _answers(live: Any, asked: list[tuple[str, str, dict[str, str],
                                                 dict[str, str]]]) -> list[tuple[int, str]]:
    """Each request's status and body (as text)."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(method: str, path: str, query: dict[str, str],
                  headers: dict[str, str]) -> tuple[int, str]:
        async with gate:
            r = await live.http.request(method, path, params=query, headers=headers)
            return r.status_code, r.text

    return list(await asyncio.gather(*(one(*a) for a in asked)))


async def _what_lucca_has(live: Any, ev: dict[str, Any], lucca: str) -> tuple[Any, ...]:
    state = await live.http.get(f"/api/tournaments/{ev['tid']}/actions", headers=DIRECTOR)
    log = await live.http.get(f"/api/tables/{ev['table_id']}/log.json", headers=DIRECTOR)
    register = await live.http.get("/api/register.csv", headers=_bearer(lucca))
    entry = await live.http.get(f"/api/register/{ev['entry']}", headers=_bearer(lucca))
    assert _member("Lucca") in register.text and entry.status_code == 200, register.text
    return (state.json()["actions"], log.json()["events"], log.json()["table"]["status"],
            register.text, entry.json())


async def test_nothing_of_one_club_is_readable_or_writable_with_the_others_key(
        live: Any) -> None:
    lucca, pisa, ev, _ = await _two_clubs(live)
    before = await _what_lucca_has(live, ev, lucca)
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
    answers = await _answers(live, asked)
    by = {(m, p, c): answers[k] for k, (m, p, c) in enumerate(
        (m, p, c) for m, p in routes for c in creds)}
    registers = 0
    for method, path in routes:
        nobody, _ = by[(method, path, "nobody")]
        for c in ("pisa bearer", "pisa query", "pisa session"):
            status, text = by[(method, path, c)]
            lucca_thing = (f"/{ev['tid']}" in path or f"/{ev['table_id']}" in path
                           or path == f"/api/register/{ev['entry']}")
            if nobody in (401, 403, 404) and lucca_thing:
                # a director's route on Lucca's: as if it did not exist, or not a club's
                assert status in (403, 404), (method, path, c, status)
            if method != "GET":
                assert status not in (200, 201, 204), (method, path, c, status)
            # no answer to Pisa names Lucca's register person, its own lists included
            assert _member("Lucca") not in text, (method, path, c, text[:200])
            if method == "GET" and path.startswith("/api/register") and not lucca_thing:
                # the register's lists: Pisa's own register, read
                assert status == 200 and _member("Pisa") in text, (path, c, status, text)
                registers += 1
    assert registers == 3 * 5  # the search, its CSV and the rating list's three forms
    # nothing of Lucca's changed
    assert await _what_lucca_has(live, ev, lucca) == before


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
    # its register is its own (the register's routes: below)
    r = await live.http.get("/api/register", headers=headers)
    assert [e["name"] for e in r.json()["entries"]] == [_member("Lucca")], r.text
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


async def test_a_clubs_register_is_its_own_and_blind_to_anothers(live: Any) -> None:
    """Pisa's credentials reach Pisa's register only: Lucca's people (one of
    them under the same federation id as Pisa's) and the server's are never
    listed, readable, editable, merged into by an import or linked to an
    entry of Pisa's event; each as an id that was never given."""
    lucca, pisa, ev, mine = await _two_clubs(live)
    own = await live.http.post("/api/register", json={"name": "Persona del server",
                                                      "federation_id": FED}, headers=DIRECTOR)
    assert own.status_code == 201, own.text  # one federation id, a person in each register
    theirs = ev["entry"]
    lucca_before = await _what_lucca_has(live, ev, lucca)
    headers = _bearer(pisa)
    csv = {**headers, "content-type": "text/csv"}
    others = (_member("Lucca"), "Persona del server")

    async def ask(method: str, path: str, **kw: Any) -> Any:
        return await live.http.request(method, path, headers=kw.pop("headers", headers), **kw)

    # listed: its own person only, however it asks
    for path in ("/api/register", f"/api/register?q={FED}", "/api/register?q=socia",
                 "/api/register?order=rating&limit=200"):
        r = await ask("GET", path)
        assert [e["id"] for e in r.json()["entries"]] == [mine["entry"]], (path, r.text)
        assert r.json()["total"] == 1
    for path in ("/api/register.csv", "/api/register/ratings.json",
                 "/api/register/ratings.csv", "/api/register/ratings.html?lang=it"):
        text = (await ask("GET", path)).text
        assert _member("Pisa") in text and not any(o in text for o in others), (path, text)
    # read, edited: as an id never given
    never = await ask("GET", "/api/register/999999")
    for method, body in (("GET", None), ("PATCH", {"name": "Presa"})):
        r = await ask(method, f"/api/register/{theirs}", json=body)
        assert (r.status_code, r.json()["error"]) == (never.status_code, never.json()["error"]) \
            == (404, "not_found"), r.text
    for rid in (theirs, own.json()["id"]):
        r = await ask("POST", "/api/register.csv", content=f"id,name\n{rid},Presa\n".encode(),
                      headers=csv)
        assert r.status_code == 422 and r.json()["error"] == "csv_no_entry", r.text
        assert r.json()["message"] == f"row 2: id: no register entry {rid}"
    # the federation id is taken within Pisa's register, by Pisa's person
    r = await ask("POST", "/api/register", json={"name": "Altra", "federation_id": FED})
    assert r.status_code == 409 and r.json()["message"].startswith("body.federation_id:")
    assert r.json()["params"]["id"] == mine["entry"], r.text
    # an import matching FED updates Pisa's person, never Lucca's
    r = await ask("POST", "/api/register.csv",
                  content=f"name,federation_id,club\nSocia di Pisa,{FED},Pisa BG\n".encode(),
                  headers=csv)
    assert r.status_code == 201 and r.json() == {"imported": 1, "added": 0, "updated": 1}
    # linked to an entry of Pisa's event: Pisa's people only
    base = f"/api/tournaments/{mine['tid']}"
    found = (await ask("GET", f"{base}/register-search?q={FED}")).json()
    assert [(e["id"], e["player"]) for e in found["entries"]] == [(mine["entry"], 1)]
    never = await ask("POST", f"{base}/players", json={"name": "Zeno", "register_id": 999999})
    for rid in (theirs, own.json()["id"]):
        r = await ask("POST", f"{base}/players", json={"name": "Zeno", "register_id": rid})
        assert r.status_code == never.status_code == 422, r.text
        assert r.json()["message"] == f"body.register_id: no register entry {rid}"
    dora = await ask("POST", "/api/register", json={"name": "Dora", "federation_id": "PI-2"})
    assert dora.status_code == 201, dora.text
    r = await ask("POST", f"{base}/players",
                  json={"name": "Dora", "register_id": dora.json()["id"]})
    assert r.status_code == 201, r.text
    # a players' CSV links by Pisa's register: Lucca's id links nobody
    lucca_only = await live.http.post("/api/register", json={
        "name": "Solo Lucca", "federation_id": "LU-9"}, headers=_bearer(lucca))
    assert lucca_only.status_code == 201, lucca_only.text
    lucca_before = await _what_lucca_has(live, ev, lucca)
    r = await ask("POST", f"{base}/players.csv", content=b"Eva,LU-9\n", headers=csv)
    assert r.status_code == 201 and r.json()["unlinked"] == ["Eva"], r.text
    state = (await ask("GET", f"{base}/state")).json()
    links = {p["name"]: p["register_id"] for p in state["players"]}
    assert links["Eva"] is None and links["Dora"] == dora.json()["id"], links
    # the server's director sees the server's own register, no club's
    r = await live.http.get("/api/register", headers=DIRECTOR)
    assert [e["name"] for e in r.json()["entries"]] == ["Persona del server"], r.text
    # nothing of Lucca's changed
    assert await _what_lucca_has(live, ev, lucca) == lucca_before


async def test_the_guard_lets_a_club_reach_the_register_and_refuses_what_it_cannot_place(
        ) -> None:
    """Deny by default (``edge.clubs``): the register's routes are named for
    a club; a route without a tournament's or a table's id that is named
    nowhere is the server director's."""
    from starlette.routing import Route

    from bgclock.server.edge.clubs import CLUB_REGISTER, keep_to_club
    from bgclock.server.errors import ApiError

    async def nothing(request: Any) -> Any:
        return None

    server: Any = None  # these answers need no store
    for path in sorted(CLUB_REGISTER):
        await keep_to_club(server, "pisa", (Route(path, nothing), {}))
    for path in ("/api/settings", "/api/register/merge", "/api/registers"):
        with pytest.raises(ApiError) as refused:
            await keep_to_club(server, "pisa", (Route(path, nothing), {}))
        assert (refused.value.status, refused.value.code) == (403, "club_forbidden")
