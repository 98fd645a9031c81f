"""The players' register on the server (issue 23 §4), on SQLite and PostgreSQL:
entries, CSV import/export, the rating list, registration from the register,
and ratings when a tournament is closed."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import Rated, rate
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio
CSV = {**DIRECTOR, "content-type": "text/csv"}


async def _ok(live: Any, method: str, path: str, status: int = 200, **kw: Any) -> Any:
    r = await live.http.request(method, path, headers=kw.pop("headers", DIRECTOR), **kw)
    assert r.status_code == status, r.text
    return r.json() if r.headers.get("content-type", "").startswith("application/json") \
        else r.text


async def _import(live: Any, text: str, status: int = 201) -> Any:
    return await _ok(live, "POST", "/api/register.csv", status, content=text.encode(),
                     headers=CSV)


async def test_entries_added_searched_edited_and_one_identity(live: Any) -> None:
    ann = await _ok(live, "POST", "/api/register", 201,
                    json={"name": "Anna  Rossi", "federation_id": "FIBT1", "club": "Roma"})
    assert ann["name"] == "Anna Rossi" and ann["rating"] == 150_000
    assert ann["rating_points"] == "1500.00"
    bob = await _ok(live, "POST", "/api/register", 201, json={"name": "Bruno Bianchi"})
    # a look-alike of a name without a federation id is the same person
    r = await live.http.post("/api/register", json={"name": "BRUNO  bianchi"}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("body.name:")
    r = await live.http.post("/api/register", json={"name": "Ａｎｎａ Rossi",
                                                    "federation_id": "FIBT1"}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("body.federation_id:")
    # two people of one name, told apart by federation ids
    await _ok(live, "POST", "/api/register", 201,
              json={"name": "Anna Rossi", "federation_id": "FIBT9"})
    found = await _ok(live, "GET", "/api/register?q=ROSSI")
    assert found["total"] == 2 and {e["federation_id"] for e in found["entries"]} == {
        "FIBT1", "FIBT9"}
    assert [e["id"] for e in (await _ok(live, "GET", "/api/register?q=fibt1"))["entries"]] \
        == [ann["id"]]
    page = await _ok(live, "GET", "/api/register?limit=1&offset=1")
    assert page["total"] == 3 and len(page["entries"]) == 1
    edited = await _ok(live, "PATCH", f"/api/register/{bob['id']}",
                       json={"club": "Milano", "rating": 160_000})
    assert edited["club"] == "Milano" and edited["rating"] == 160_000
    # bounds and bad input name the field and change nothing
    for query, field in (("limit=201", "query.limit"), ("order=age", "query.order"),
                         ("offset=x", "query.offset"), ("q=" + "x" * 101, "query.q")):
        r = await live.http.get(f"/api/register?{query}", headers=DIRECTOR)
        assert r.status_code == 422 and r.json()["message"].startswith(field), r.text
    r = await live.http.post("/api/register", json={"name": "Eva", "rating": 10**9},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "body.rating" in r.json()["message"]
    r = await live.http.post("/api/register", json={"name": "   "}, headers=DIRECTOR)
    assert r.status_code == 422 and "body.name" in r.json()["message"]
    assert (await live.http.get("/api/register/99999", headers=DIRECTOR)).status_code == 404
    assert (await live.http.get("/api/register")).status_code == 401
    assert (await _ok(live, "GET", "/api/register"))["total"] == 3


async def test_csv_import_is_all_or_nothing_naming_row_and_field(live: Any) -> None:
    bad = [
        ("name,rating\nAnn,1500\nBob,15OO\n", "row 3: rating:"),
        ("name,federation_id\nAnn,F1\nAnna,F1\n", "row 3: federation_id: the same person"),
        ("name,club\nAnn,Roma\n,Milano\n", "row 3: name:"),
        ("name,experience\nAnn,-3\n", "row 2: experience:"),
        ("name,elo\nAnn,1\n", "row 1: elo: unknown column"),
        ("club\nRoma\n", "row 1: name:"),
        ("name\nAnn\nann\n", "row 3: name: the same person as row 2"),
        ("name\n" + "P\x01\n", "row 2: name:"),
    ]
    for text, words in bad:
        r = await live.http.post("/api/register.csv", content=text.encode(), headers=CSV)
        assert r.status_code == 422 and r.json()["message"].startswith(words), (text, r.text)
    r = await live.http.post("/api/register.csv",
                             content=("name\n" + "".join(f"P{i}\n" for i in range(2049)))
                             .encode(), headers=CSV)
    assert r.status_code == 422 and "2048" in r.json()["message"]
    r = await live.http.post("/api/register.csv", content=b"name\n" + b"x" * 300_000,
                             headers=CSV)
    assert r.status_code == 413
    assert (await _ok(live, "GET", "/api/register"))["total"] == 0
    done = await _import(live, "name,federation_id,club,rating,experience\n"
                         "Ann,F1,Roma,1600.5,420\nBob,,Milano,,\n")
    assert done == {"imported": 2, "added": 2, "updated": 0}
    # again, matched by federation id and by name: updated, not added
    done = await _import(live, "name,federation_id,club\nAnn B,F1,Torino\nbob,,Napoli\n")
    assert done == {"imported": 2, "added": 0, "updated": 2}
    text = await _ok(live, "GET", "/api/register.csv")
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0] == "id,name,federation_id,club,rating,experience"
    assert lines[1].endswith(",Ann B,F1,Torino,1600.50,420")
    assert lines[2].endswith(",bob,,Napoli,1500.00,0")
    # the export imports back as it is
    assert (await _import(live, text))["updated"] == 2


async def _register_four(live: Any) -> tuple[str, dict[str, int]]:
    await _import(live, "name,federation_id,rating,experience\nAnn,F1,1600,500\n"
                  "Bob,F2,1500,500\nCarla,F3,1450,0\nDino,F4,1550,120\n")
    entries = {e["name"]: e["id"] for e in (await _ok(live, "GET", "/api/register"))["entries"]}
    t = await _ok(live, "POST", "/api/tournaments", 201, json={"name": "Coppa"})
    base = f"/api/tournaments/{t['id']}"
    await _ok(live, "POST", f"{base}/settings", json={"rounds": [{"length": 5, "clock": "none"}]})
    found = await _ok(live, "GET", f"{base}/register-search?q=car")
    assert [(e["name"], e["player"]) for e in found["entries"]] == [("Carla", None)]
    for name, rid in entries.items():
        await _ok(live, "POST", f"{base}/players", 201, json={"name": name, "register_id": rid})
    r = await live.http.post(f"{base}/players", json={"name": "Carla Bis",
                                                      "register_id": entries["Carla"]},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "register_id" in r.json()["message"]
    r = await live.http.post(f"{base}/players", json={"name": "Zed", "register_id": 9999},
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.register_id")
    found = await _ok(live, "GET", f"{base}/register-search?q=car")
    assert found["entries"][0]["player"] == 3
    for i in range(1, 5):
        await _ok(live, "POST", f"{base}/players/{i}/check-in")
    await _ok(live, "POST", f"{base}/draw", json={"seed": 4})
    return base, entries


async def _won(live: Any, base: str, event: str, r: int, i: int, side: str) -> tuple[str, str]:
    state = await _ok(live, "GET", f"{base}/state")
    m = state[event]["rounds"][r][i]
    winner, loser = (m["a"], m["b"]) if side == "a" else (m["b"], m["a"])
    await _ok(live, "POST", f"{base}/results",
              json={"event": event, "round": r, "match": i, "winner": winner})
    return winner, loser


async def test_a_tournament_closed_rates_its_matches_once(live: Any) -> None:
    base, ids = await _register_four(live)
    start = {"Ann": Rated(160_000, 500), "Bob": Rated(150_000, 500),
             "Carla": Rated(145_000, 0), "Dino": Rated(155_000, 120)}
    played = [await _won(live, base, "main", 0, 1, "b"), await _won(live, base, "main", 0, 0, "a"),
              await _won(live, base, "consolation", 0, 0, "a"),
              await _won(live, base, "main", 1, 0, "b")]
    # the same arithmetic, match by match in the order the results came in
    now = dict(start)
    for w, lo in played:
        now[w], now[lo] = rate(now[w], now[lo], 5)
    closed = await _ok(live, "POST", f"{base}/close")
    assert closed["rated"]["matches"] == 4 and closed["rated"]["now"] is True
    ratings = (await _ok(live, "GET", "/api/register/ratings.json"))["ratings"]
    assert {e["name"]: (e["rating"], e["experience"]) for e in ratings} == {
        n: (r.rating, r.experience) for n, r in now.items()}
    assert [e["rating"] for e in ratings] == sorted((r.rating for r in now.values()),
                                                    reverse=True)
    winner = played[-1][0]
    entry = await _ok(live, "GET", f"/api/register/{ids[winner]}")
    assert [h["won"] for h in entry["history"]][-1] is True
    assert entry["history"][-1]["rating_after"] == now[winner].rating
    assert entry["history"][0]["rating_before"] == start[winner].rating
    assert entry["history"][0]["tournament_name"] == "Coppa"
    assert all(h["length"] == 5 for h in entry["history"])
    # closing twice rates once
    again = await _ok(live, "POST", f"{base}/close")
    assert again["rated"] == {**closed["rated"], "now": False}
    assert (await _ok(live, "GET", "/api/register/ratings.json"))["ratings"] == ratings
    # a rated player's rating follows from the matches
    r = await live.http.patch(f"/api/register/{ids[winner]}", json={"rating": 1},
                              headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("body.rating")


async def test_withdrawals_and_unlinked_players_do_not_rate(live: Any) -> None:
    await _import(live, "name,federation_id\nAnn,F1\nBob,F2\nCarla,F3\n")
    ids = {e["name"]: e["id"] for e in (await _ok(live, "GET", "/api/register"))["entries"]}
    t = await _ok(live, "POST", "/api/tournaments", 201, json={"name": "Sera"})
    base = f"/api/tournaments/{t['id']}"
    await _ok(live, "POST", f"{base}/settings", json={"rounds": [{"length": 3, "clock": "none"}]})
    for name in ("Ann", "Bob", "Carla"):
        await _ok(live, "POST", f"{base}/players", 201, json={"name": name,
                                                              "register_id": ids[name]})
    await _ok(live, "POST", f"{base}/players", 201, json={"name": "Walk-in"})
    for i in range(1, 5):
        await _ok(live, "POST", f"{base}/players/{i}/check-in")
    await _ok(live, "POST", f"{base}/draw", json={"seed": 1})
    await _won(live, base, "main", 0, 0, "a")
    await _won(live, base, "main", 0, 1, "a")
    state = await _ok(live, "GET", f"{base}/state")
    final = state["main"]["rounds"][1][0]
    gone = next(p["id"] for p in state["players"] if p["name"] == final["a"])
    await _ok(live, "POST", f"{base}/players/{gone}/withdraw")
    closed = await _ok(live, "POST", f"{base}/close")
    # the Walk-in's match does not rate (not in the register), the final is a walkover
    first = state["main"]["rounds"][0]
    linked = sum(1 for m in first if "Walk-in" not in (m["a"], m["b"]))
    assert closed["rated"]["matches"] == linked
    rated = [e for e in (await _ok(live, "GET", "/api/register/ratings.json"))["ratings"]
             if e["experience"]]
    assert len(rated) == 2 * linked


async def test_the_rating_list_prints_in_the_directors_language(live: Any) -> None:
    await _import(live, "name,club,rating\nAnn <b>,Roma,1600\nBob,,1500\n")
    page = await live.http.get("/api/register/ratings.html?lang=it", headers=DIRECTOR)
    assert page.status_code == 200
    assert "Classifica rating" in page.text and "size: A4" in page.text
    # the Italian list writes a decimal comma (the CSV and the JSON keep the point)
    assert "Ann &lt;b&gt;" in page.text and page.text.index("1600,00") < page.text.index(
        "1500,00")
    assert "1600.00" not in page.text
    english = await live.http.get("/api/register/ratings.html?lang=en", headers=DIRECTOR)
    assert "1600.00" in english.text and "1600,00" not in english.text
    r = await live.http.get("/api/register/ratings.html?lang=xx", headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("query.lang")
    text = await _ok(live, "GET", "/api/register/ratings.csv")
    assert text.lstrip("\ufeff").splitlines()[1] == "1,Ann <b>,,Roma,1600.00,0"


async def test_the_register_is_bounded(live: Any, monkeypatch: Any) -> None:
    from bgclock.server.routes import register as _register

    monkeypatch.setattr(_register, "MAX_ENTRIES", 3)
    await _import(live, "name\nAnn\nBob\n")
    r = await live.http.post("/api/register.csv", content=b"name\nAnn\nCarla\nDino\n",
                             headers=CSV)
    assert r.status_code == 409 and "at most 3" in r.json()["message"]
    assert (await _ok(live, "GET", "/api/register"))["total"] == 2
    # updating the ones there takes no room
    assert (await _import(live, "name,club\nAnn,Roma\nBob,Roma\nCarla,Roma\n"))["added"] == 1
    r = await live.http.post("/api/register", json={"name": "Dino"}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["message"].startswith("body: the register holds")


async def test_a_rating_the_store_refused_is_done_by_closing_again(live: Any,
                                                                   monkeypatch: Any) -> None:
    from bgclock.store import StoreError

    base, ids = await _register_four(live)
    await _won(live, base, "main", 0, 0, "a")
    store = live.server.store
    real = store.register_rate

    async def refused(*args: Any, **kwargs: Any) -> bool:
        raise StoreError("the database is away")

    before = (await _ok(live, "GET", "/api/register/ratings.json"))["ratings"]
    monkeypatch.setattr(store, "register_rate", refused)
    closed = await _ok(live, "POST", f"{base}/close")
    assert closed["status"] == "closed" and closed["rated"]["now"] is False
    assert "close it again" in closed["rated"]["error"]
    assert (await _ok(live, "GET", "/api/register/ratings.json"))["ratings"] == before
    monkeypatch.setattr(store, "register_rate", real)
    again = await _ok(live, "POST", f"{base}/close")
    assert again["rated"]["now"] is True and again["rated"]["matches"] == 1
