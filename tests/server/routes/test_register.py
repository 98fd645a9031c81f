"""The register's whole lists (issue 32 §7), on SQLite and PostgreSQL: the
rating list in every format and the register's export are streamed in
chunks built off the event loop, and a table's press is acknowledged while
one of them is being read; a list kept is one register's (issue 37 §4)."""

from __future__ import annotations

import asyncio
import csv
import io
import threading
from typing import Any

import pytest

from bgclock.server.edge.named_keys import CLUB_DIRECTOR, add_key
from bgclock.server.routes import register as routes
from bgclock.store import _register
from tests._server_kit import DIRECTOR, Device, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio
CSV = {**DIRECTOR, "content-type": "text/csv"}
PLAYERS = 11


async def _fill(live: Any, n: int = PLAYERS) -> None:
    text = "name,federation_id,club,rating\n" + "".join(
        f"Player {i:02d},F{i},=Club {i % 3},{1400 + (i * 37) % 300}\n" for i in range(n))
    r = await live.http.post("/api/register.csv", content=text.encode(), headers=CSV)
    assert r.status_code == 201, r.text


async def test_every_list_is_whole_in_order_across_chunks(live: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(routes, "CHUNK", 3)  # 11 rows: four chunks
    await _fill(live)
    by_page = (await live.http.get("/api/register?order=rating&limit=200",
                                   headers=DIRECTOR)).json()["entries"]
    r = await live.http.get("/api/register/ratings.json", headers=DIRECTOR)
    assert r.status_code == 200 and "content-length" not in r.headers  # streamed
    ratings = r.json()["ratings"]
    assert [x["rank"] for x in ratings] == list(range(1, PLAYERS + 1))
    assert [x["id"] for x in ratings] == [e["id"] for e in by_page]
    assert ratings[0] == {"rank": 1, **by_page[0]}
    text = (await live.http.get("/api/register/ratings.csv", headers=DIRECTOR)).text
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0] == ["rank", "name", "federation_id", "club", "rating", "experience"]
    assert [r[0] for r in rows[1:]] == [str(k) for k in range(1, PLAYERS + 1)]
    assert [r[1] for r in rows[1:]] == [e["name"] for e in by_page]
    assert rows[1][3].startswith("'=Club")  # a formula stays text
    export = (await live.http.get("/api/register.csv", headers=DIRECTOR)).text
    ids = [int(r[0]) for r in list(csv.reader(io.StringIO(export.removeprefix("\ufeff"))))[1:]]
    assert ids == sorted(e["id"] for e in by_page)
    page = (await live.http.get("/api/register/ratings.html?lang=it", headers=DIRECTOR)).text
    assert page.count("<tr><td>") == PLAYERS and page.rstrip().endswith("</html>")
    assert f"<tr><td>{PLAYERS}</td>" in page and "</tbody></table>" in page


async def test_an_empty_register_lists_nothing(live: Any) -> None:
    assert (await live.http.get("/api/register/ratings.json",
                                headers=DIRECTOR)).json() == {"ratings": []}
    page = (await live.http.get("/api/register/ratings.html?lang=it", headers=DIRECTOR)).text
    assert "Il registro è vuoto." in page and "<table>" not in page
    text = (await live.http.get("/api/register.csv", headers=DIRECTOR)).text
    assert text == "\ufeffid,name,federation_id,club,rating,experience\r\n"


async def test_a_press_is_acknowledged_while_the_rating_list_is_read(
        live: Any, monkeypatch: Any) -> None:
    # the list's rows are held half-read (as a huge register's would be):
    # the table's press must not wait for them
    await _fill(live)
    entered, release = threading.Event(), threading.Event()
    armed = [False]
    plain = _register._entry

    def held(row: Any) -> Any:
        if armed[0]:
            armed[0] = False
            entered.set()
            release.wait(30)
        return plain(row)

    monkeypatch.setattr(_register, "_entry", held)
    table = await live.table()
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        assert (await d.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
        armed[0] = True
        read = asyncio.create_task(live.http.get("/api/register/ratings.csv",
                                                 headers=DIRECTOR))
        try:
            assert await asyncio.to_thread(entered.wait, 10)
            ack = await d.cmd("hit", side="A")
            assert ack["type"] == "ack", ack
            assert not read.done()
        finally:
            release.set()
        r = await read
    assert r.status_code == 200 and r.text.count("\r\n") == PLAYERS + 1


async def test_a_list_is_kept_until_the_register_changes(live: Any) -> None:
    await _fill(live)
    reads = []
    store = live.server.store
    plain = store.register_list

    async def counted(order: str = "name", *, owner: str | None) -> Any:
        reads.append(order)
        return await plain(order, owner=owner)

    store.register_list = counted
    first = (await live.http.get("/api/register/ratings.json", headers=DIRECTOR)).json()
    again = (await live.http.get("/api/register/ratings.json", headers=DIRECTOR)).json()
    assert again == first and reads == ["rating"]
    top = first["ratings"][0]
    r = await live.http.patch(f"/api/register/{top['id']}", json={"club": "Roma"},
                              headers=DIRECTOR)
    assert r.status_code == 200, r.text
    edited = (await live.http.get("/api/register/ratings.json", headers=DIRECTOR)).json()
    assert edited["ratings"][0]["club"] == "Roma" and reads == ["rating", "rating"]
    await _fill(live, PLAYERS + 1)  # one more player, the others as they were
    grown = (await live.http.get("/api/register/ratings.json", headers=DIRECTOR)).json()
    assert len(grown["ratings"]) == PLAYERS + 1


async def test_a_list_kept_is_one_registers_even_were_two_stamps_alike(live: Any) -> None:
    # a stamp is one register's (the store's); were two clubs' alike, each
    # club still reads its own list, never the one kept for the other
    store = live.server.store

    async def alike(*, owner: str | None) -> tuple[int, ...]:
        return (1,)

    store.register_stamp = alike
    lists = {}
    for club in ("lucca", "pisa"):
        key = {"Authorization": f"Bearer {await add_key(store, CLUB_DIRECTOR, club)}"}
        r = await live.http.post("/api/register", json={"name": f"Socia di {club}"},
                                 headers=key)
        assert r.status_code == 201, r.text
        for path in ("/api/register/ratings.json", "/api/register.csv"):
            lists[(club, path)] = (await live.http.get(path, headers=key)).text
    for club, other in (("lucca", "pisa"), ("pisa", "lucca")):
        for path in ("/api/register/ratings.json", "/api/register.csv"):
            assert f"Socia di {club}" in lists[(club, path)], lists
            assert f"Socia di {other}" not in lists[(club, path)], lists
