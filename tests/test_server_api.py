"""The director's HTTP API, the exports, OpenAPI and the protocol's schemas."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from starlette.routing import Mount

from bgclock.server.ws.protocol import SCHEMAS
from tests._server_kit import (
    DIRECTOR,
    KEY,
    Device,
    anyio_backend,
    live,
)

__all__ = ["anyio_backend", "live"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.anyio
async def test_tables_are_created_edited_before_play_and_closed(live: Any) -> None:
    http = live.http
    t = (await http.post("/api/tournaments", json={"name": "Spring"}, headers=DIRECTOR)).json()
    r = await http.post(f"/api/tournaments/{t['id']}/tables", headers=DIRECTOR,
                        json={"rules": "aba-2003-standard", "length": 5, "score": [1, 2],
                              "players": ["Cy", "Di"], "name": "7", "teams": False})
    assert r.status_code == 201
    table = r.json()
    assert table["url"].endswith(f"/t/{table['id']}?token={table['token']}")
    r = await http.patch(f"/api/tables/{table['id']}", json={"length": 7, "crawford": True},
                         headers=DIRECTOR)
    assert r.status_code == 200 and r.json()["length"] == 7 and r.json()["score"] == [1, 2]
    state = (await http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)).json()["state"]
    assert state["length"] == 7 and state["A"]["reserve_ms"] == 6 * 60_000 * 7 - 3 * 60_000 * 3
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        assert (await d.cmd("opening_roll", dice=[2, 1]))["type"] == "ack"
        r = await http.patch(f"/api/tables/{table['id']}", json={"length": 9}, headers=DIRECTOR)
        assert r.status_code == 409
        r = await http.post(f"/api/tables/{table['id']}/close", headers=DIRECTOR)
        assert r.status_code == 200 and r.json()["status"] == "closed"
        assert (await d.expect("table"))["info"]["status"] == "closed"
        assert (await d.cmd("hit", side="A"))["code"] == "closed"
    listing = (await http.get(f"/api/tournaments/{t['id']}", headers=DIRECTOR)).json()
    assert [x["id"] for x in listing["tables"]] == [table["id"]]
    r = await http.post(f"/api/tournaments/{t['id']}/close", headers=DIRECTOR)
    assert r.status_code == 200 and r.json()["status"] == "closed"
    r = await http.post(f"/api/tournaments/{t['id']}/tables", headers=DIRECTOR,
                        json={"rules": "aba-2003-standard", "length": 5})
    assert r.status_code == 409


@pytest.mark.anyio
async def test_each_table_has_its_low_time_warnings(live: Any) -> None:
    plain = await live.table()
    assert plain["warn_s"] == [60, 20, 10]
    table = await live.table(warn_s=[10, 90, 30])
    assert table["warn_s"] == [90, 30, 10]  # kept highest first
    r = await live.http.patch(f"/api/tables/{table['id']}", json={"warn_s": [45, 5]},
                              headers=DIRECTOR)
    assert r.status_code == 200 and r.json()["warn_s"] == [45, 5]
    r = await live.http.patch(f"/api/tables/{table['id']}", json={"warn_s": [0]},
                              headers=DIRECTOR)
    assert r.status_code == 422 and "warn_s" in r.json()["message"]
    got = (await live.http.get(f"/api/tables/{table['id']}", headers=DIRECTOR)).json()
    assert got["warn_s"] == [45, 5]
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        _, snapshot = await d.welcome()
        assert snapshot["info"]["warn_s"] == [45, 5]
    # what the server restarts with is what the database holds
    rows = {r.id: r for r in await live.server.store.tables()}
    assert rows[table["id"]].spec.warn_s == (45, 5)


@pytest.mark.anyio
@pytest.mark.parametrize("spec", [
    {"rules": "no-such-rules", "length": 5},
    {"rules": "usbgf-2013-delay", "length": 0},
    {"rules": "usbgf-2013-delay", "length": 5, "score": [5, 0]},
    {"rules": "usbgf-2013-delay", "length": 5, "clock": {"tempo": 3}},
    {"rules": "usbgf-2013-delay", "length": 5, "players": ["only one"]},
    {"rules": "usbgf-2013-delay", "length": 5, "teams": "yes"},
    {"length": 5},
    {"rules": "usbgf-2013-delay", "length": 5, "colour": "red"},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": []},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [60, 50, 40, 30, 20, 10]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [0]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [-5]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [7.5]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": ["10"]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [True]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": [10, 10]},
    {"rules": "usbgf-2013-delay", "length": 5, "warn_s": 60},
    # the USBGF overtime option: positive, and only where an expiry loses the match
    {"rules": "aba-2003-standard", "length": 5, "clock": {"overtime_ms": 60000}},
    {"rules": "biba-2014", "length": 5, "clock": {"overtime_ms": 60000}},
    {"rules": "usbgf-2013-delay", "length": 5, "clock": {"overtime_ms": 0}},
])
async def test_an_invalid_table_is_refused_with_the_reason(live: Any,
                                                           spec: dict[str, Any]) -> None:
    t = (await live.http.post("/api/tournaments", json={"name": "x"}, headers=DIRECTOR)).json()
    r = await live.http.post(f"/api/tournaments/{t['id']}/tables", json=spec, headers=DIRECTOR)
    assert r.status_code == 422
    assert r.json()["error"] == "invalid" and r.json()["message"]
    assert (await live.http.get(f"/api/tournaments/{t['id']}",
                                headers=DIRECTOR)).json()["tables"] == []


@pytest.mark.anyio
async def test_unknown_things_are_404(live: Any) -> None:
    assert (await live.http.get("/api/tables/999", headers=DIRECTOR)).status_code == 404
    assert (await live.http.get("/api/tournaments/999", headers=DIRECTOR)).status_code == 404
    r = await live.http.post("/api/tournaments/999/tables", headers=DIRECTOR,
                             json={"rules": "usbgf-2013-delay", "length": 3})
    assert r.status_code == 404


@pytest.mark.anyio
async def test_the_log_exports_every_press_with_both_reserves(live: Any) -> None:
    table = await live.table(rules="usbgf-2007-bronstein", length=1)
    async with Device.open(live.ws_url, {"token": table["token"]}) as d:
        await d.welcome()
        for do, fields in [("opening_roll", {"dice": [5, 2]}), ("hit", {"side": "A"}),
                           ("hit", {"side": "B"}), ("game_over",
                                                    {"winner": "A", "result": "single"})]:
            assert (await d.cmd(do, **fields))["type"] == "ack"
    base = f"/api/tables/{table['id']}"
    log = (await live.http.get(f"{base}/log.json", headers=DIRECTOR)).json()
    assert [e["seq"] for e in log["events"]] == [1, 2, 3, 4]
    rows = list(csv.DictReader(io.StringIO(
        (await live.http.get(f"{base}/log.csv", headers=DIRECTOR)).text)))
    assert [r["do"] for r in rows] == ["opening_roll", "hit", "hit", "game_over"]
    for row, entry in zip(rows, log["events"], strict=True):
        assert int(row["A_reserve_ms"]) == entry["state"]["A"]["reserve_ms"]
        assert int(row["B_reserve_ms"]) == entry["state"]["B"]["reserve_ms"]
        assert int(row["at_ms"]) == entry["at_ms"]
    assert rows[0]["details"] == "dice=5-2"
    report = (await live.http.get(f"{base}/report", headers=DIRECTOR)).json()
    assert report["finished"] and report["winner"] == "A" and report["score"] == [1, 0]
    assert report["sides"]["A"]["player"] == "Ann" and report["sides"]["A"]["presses"] == 1
    assert report["sides"]["A"]["reserve_at_start_ms"] == 120_000


@pytest.mark.anyio
async def test_the_qr_code_and_the_pages(live: Any) -> None:
    table = await live.table()
    r = await live.http.get(f"/api/tables/{table['id']}/qr.svg?key={KEY}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<?xml") and "<svg" in r.text
    page = await live.http.get(f"/t/{table['id']}?token={table['token']}")
    assert page.status_code == 200 and "<html" in page.text
    assert (await live.http.get("/")).status_code == 200


def _paths(routes: Any, prefix: str = "") -> Any:
    """Every route's whole path, through the Mounts."""
    for r in routes:
        if isinstance(r, Mount):
            yield from _paths(r.routes, prefix + r.path)
        else:
            yield prefix + getattr(r, "path", "")


@pytest.mark.anyio
async def test_openapi_describes_every_api_route(live: Any) -> None:
    doc = (await live.http.get("/openapi.json")).json()
    assert doc["openapi"].startswith("3.")
    routes = set(_paths(live.app.routes))
    assert "/api/tournaments/{tournament_id:id}/state" in routes  # inside its Mount
    for path in routes:
        if path.startswith("/api/"):
            templated = re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", path)
            assert templated in doc["paths"], path
    schemas = (await live.http.get("/protocol/schemas.json")).json()
    assert schemas["messages"] == json.loads(json.dumps(SCHEMAS))


def test_the_protocol_pages_examples_follow_the_schemas() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = text.split("### Client → server")[1].split("```json")[1].split("```")[0]
    examples = [json.loads(line) for line in block.strip().splitlines()]
    assert {e["type"] for e in examples} == set(SCHEMAS)
    for example in examples:
        jsonschema.validate(example, SCHEMAS[example["type"]])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "cmd", "id": "x", "do": "hit", "at_ms": 5}, SCHEMAS["cmd"])
