"""A tournament's public page and a player's own page (issue 37 §1, §2):
``PATCH /api/tournaments/{id}`` puts it up and takes it down, anyone reads
it without a key, and no secret of the tournament is ever on it.

The crawl builds a tournament that holds every secret bgclock keeps (the
director's key, the room token, each table's token, each sheet PIN, the
players' federation ids, a table device's name, a correction's reason, the
committee's votes and hearing notes), then reads every public page, JSON
and the stream's first view and looks for each of them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
import pytest

from bgclock.server.render.public import PLAYER_PAGE_KEYS, PUBLIC_KEYS
from tests._server_kit import DIRECTOR, KEY, Device, anyio_backend, live
from tests.test_server_tourney import _field, _post, _state, _tournament

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

HEARING = "Heard both players; the referee saw the dice cocked on the bar"
REASON = "The desk misread the sheet of table two"
RULING = "the cocked dice are rolled again"
DEVICE = "Tablet Sala Verde 77"


async def _patch(live: Any, tid: int, body: Any, status: int = 200,
                 headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = await live.http.patch(f"/api/tournaments/{tid}", json=body,
                              headers=DIRECTOR if headers is None else headers)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _round(live: Any, n: int = 8) -> tuple[str, int, dict[str, Any]]:
    base = await _tournament(live, "Coppa Pubblica")
    await _field(live, base, n, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    started = await _post(live, f"{base}/rounds", {"round": 0})
    return base, int(base.rsplit("/", 1)[1]), started["state"]


@contextlib.asynccontextmanager
async def _stream(live: Any, path: str) -> AsyncIterator[Any]:
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as http, http.stream(
            "GET", path) as r:
        assert r.status_code == 200, await r.aread()
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = r.aiter_lines()

        async def following() -> dict[str, Any] | None:
            async def read() -> dict[str, Any] | None:
                async for line in lines:
                    if line.startswith("data: "):
                        return dict(orjson.loads(line.removeprefix("data: ")))
                return None  # the stream ended
            return await asyncio.wait_for(read(), 5)

        yield following


async def test_the_director_puts_the_page_up_and_takes_it_down_at_once(live: Any) -> None:
    base, tid, state = await _round(live)
    assert state["public"] is False and state["public_url"] is None
    for path in (f"/p/{tid}", f"/p/{tid}.json", f"/p/{tid}.stream", f"/p/{tid}/player/1",
                 f"/p/{tid}/player/1.json", "/p/999.json"):
        assert (await live.http.get(path)).status_code == 404, path
    up = await _patch(live, tid, {"public": True})
    assert up["public"] is True
    assert up["public_url"] == f"{live.url}/p/{tid}" == up["state"]["public_url"]
    assert (await _state(live, base))["public_url"] == up["public_url"]
    page = await live.http.get(up["public_url"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    data = await live.http.get(up["public_url"] + ".json")
    assert data.status_code == 200 and data.headers["cache-control"] == "no-store"
    view = data.json()
    assert tuple(view) == PUBLIC_KEYS
    assert view["tournament"] == {"id": tid, "name": "Coppa Pubblica", "closed": False}
    assert [b["event"] for b in view["brackets"]] == ["main"]
    assert len(view["pairings"]) == 4 and all(p["table"] for p in view["pairings"])
    assert [m["clock"]["phase"] for m in view["matches"]] == ["setup"] * 4
    me = view["pairings"][0]["a"]
    pid = next(p["id"] for p in view["players"] if p["name"] == me)
    mine = (await live.http.get(f"/p/{tid}/player/{pid}.json")).json()
    assert tuple(mine) == PLAYER_PAGE_KEYS
    assert mine["next"] == {"event": "main", "round": 0, "table": view["pairings"][0]["table"],
                            "opponent": view["pairings"][0]["b"]}
    assert mine["match"]["clock"]["phase"] == "setup"
    assert (await live.http.get(f"/p/{tid}/player/99.json")).status_code == 404
    async with _stream(live, f"/p/{tid}.stream") as following:
        assert (await following())["tournament"]["id"] == tid
        down = await _patch(live, tid, {"public": False})
        assert down["public"] is False and down["public_url"] is None
        assert await following() is None  # the open stream ended
    for path in (f"/p/{tid}", f"/p/{tid}.json", f"/p/{tid}/player/{pid}.json"):
        assert (await live.http.get(path)).status_code == 404, path
    # the flag is in the log: a fold from the store (a restart) keeps it
    await _patch(live, tid, {"public": True})
    live.server.tourneys.hubs.clear()
    assert (await live.http.get(f"/p/{tid}.json")).status_code == 200


async def test_only_the_director_changes_the_flag_and_bad_bodies_name_the_field(
        live: Any) -> None:
    _, tid, _ = await _round(live, 4)
    assert (await live.http.patch(f"/api/tournaments/{tid}", json={"public": True})
            ).status_code == 401
    for body, field in (({}, "public"), ({"public": "yes"}, "public"),
                        ({"public": True, "name": "x"}, "name")):
        refused = await _patch(live, tid, body, status=422)
        assert field in refused["message"], refused
    assert (await _state(live, f"/api/tournaments/{tid}"))["public"] is False
    await _patch(live, 999, {"public": True}, status=404)
    # a closed tournament may still be published (its results) or taken down
    await _post(live, f"/api/tournaments/{tid}/close")
    assert (await _patch(live, tid, {"public": True}))["public"] is True
    assert (await live.http.get(f"/p/{tid}.json")).json()["tournament"]["closed"] is True


async def test_a_result_is_pushed_to_the_public_page(live: Any) -> None:
    base, tid, state = await _round(live, 4)
    await _patch(live, tid, {"public": True})
    m = state["matches"][0]
    async with _stream(live, f"/p/{tid}.stream") as following:
        before = await following()
        assert before is not None and before["matches"][0]["winner"] is None
        await _post(live, f"{base}/results", {"round": 0, "match": 0, "winner": m["a"],
                                               "score": [3, 1]})
        after = await following()
        assert after is not None and after["matches"][0]["winner"] == m["a"]
        assert after["matches"][0]["result"] == {"score": [3, 1], "source": "hand"}


async def _secret_tournament(live: Any) -> tuple[int, list[str], list[str]]:
    """A public tournament holding every secret: its id, the secrets, and
    the sheet PINs (numbers: looked for as whole numbers)."""
    base, tid, state = await _round(live)
    pid = {p["name"]: p["id"] for p in state["players"]}
    m0, m1 = state["matches"][0], state["matches"][1]
    others = [p["id"] for p in state["players"] if p["name"] not in (m0["a"], m0["b"])]
    await _post(live, f"{base}/committee", {"members": others[:3]})
    await _post(live, f"{base}/appeals", {"round": 0, "match": m0["match"],
                                          "by": pid[m0["a"]], "ruling": RULING}, status=201)
    body = {"votes": {str(o): "overturn" for o in others[:3]}, "hearing": HEARING}
    r = await live.http.post(f"{base}/appeals/1/decision", json=body, headers=DIRECTOR)
    if r.status_code == 422 and "director" in r.json()["message"]:
        body["votes"] = {**body["votes"], "director": "overturn"}  # type: ignore[dict-item]
        r = await live.http.post(f"{base}/appeals/1/decision", json=body, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    await _post(live, f"{base}/results", {"round": 0, "match": m1["match"],
                                          "winner": m1["a"], "score": [3, 1]})
    await _post(live, f"{base}/corrections", {"round": 0, "match": m1["match"],
                                              "winner": m1["b"], "reason": REASON})
    await _post(live, f"{base}/prizes", {"event": "main", "prizes": ["100 €", "50 €"]})
    # a table device with a name keeps the time of match 3's clock
    m2 = state["matches"][2]
    token = live.server.tokens.token(m2["table_id"])
    async with Device.open(live.ws_url, {"token": token, "device": "dev-77",
                                         "name": DEVICE}) as device:
        await device.welcome()
        assert (await device.cmd("opening_roll", dice=[3, 1]))["type"] == "ack"
    pins = (await live.http.get(f"{base}/sheet-pins", headers=DIRECTOR)).json()
    up = await _patch(live, tid, {"public": True})
    room = up["state"]["room_url"].split("token=")[1]
    secrets = [KEY, room, HEARING, REASON, DEVICE, "dev-77",
               *(live.server.tokens.token(m["table_id"]).split(".")[1]
                 for m in state["matches"]),
               *(p["federation_id"] for p in state["players"]),
               # the director's words for what is kept private
               "votes", "hearing", "federation_id", "register_id", "table_id", "token",
               "seed", "keeper", "reason", "corrected", "appeals", "committee"]
    assert all(len(s) >= 4 for s in secrets)
    listed = pins["pins"] if isinstance(pins, dict) and "pins" in pins else pins
    return tid, secrets, [str(p["pin"]) for p in listed]


async def test_no_secret_is_on_any_public_page_or_in_its_json(live: Any) -> None:
    tid, secrets, pins = await _secret_tournament(live)
    assert len(pins) == 8
    players = (await live.http.get(f"/p/{tid}.json")).json()["players"]
    paths = [f"/p/{tid}", f"/p/{tid}.json"]
    for p in players:
        paths += [f"/p/{tid}/player/{p['id']}", f"/p/{tid}/player/{p['id']}.json"]
    bodies = {}
    for path in paths:
        r = await live.http.get(path)
        assert r.status_code == 200, path
        bodies[path] = r.text
    async with _stream(live, f"/p/{tid}.stream") as following:
        bodies["stream"] = json.dumps(await following())
    # the static files the page loads hold nothing of the tournament either
    page = bodies[f"/p/{tid}"]
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        bodies[src] = (await live.http.get(src)).text
    for where, text in bodies.items():
        if where.startswith("/static/"):
            assert KEY not in text and all(s not in text for s in secrets[1:6]), where
            continue
        for secret in secrets:
            assert secret not in text, (where, secret)
        for pin in pins:
            assert not re.search(rf"(?<!\d){pin}(?!\d)", text), (where, "a sheet PIN")
    # what the crawl looked at is really there: the public page is not empty
    view = json.loads(bodies[f"/p/{tid}.json"])
    assert any(m["result"] for m in view["matches"])
    assert view["standings"] and view["players"]
