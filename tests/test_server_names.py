"""Look-alike and invisible names refused at every door a name comes in
(issue 18 §3): a registration, a players' CSV, the couples' names, a table's
players; nothing stored, the field and the resembled name in the answer."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live
from tests.test_server_tourney import _post, _state, _tournament

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

GREEK_O = "\u03bf"


async def _csv(live: Any, base: str, text: str) -> Any:
    return await live.http.post(f"{base}/players.csv", content=text.encode(),
                                headers={**DIRECTOR, "content-type": "text/csv"})


async def _names(live: Any, base: str) -> list[str]:
    return [p["name"] for p in (await _state(live, base))["players"]]


@pytest.mark.parametrize("new, words", [
    ("case", ["body.name", "Case", "same name"]),
    (f"R{GREEK_O}ssi", ["body.name", "Rossi", "looks like"]),
    ("Rossi\u200b", ["body.name", "U+200B"]),
    ("\u200fRossi", ["body.name", "U+200F"]),
    ("Ca\u2066se", ["body.name", "U+2066"]),
])
async def test_a_registration_that_looks_like_a_player_is_refused(
        live: Any, new: str, words: list[str]) -> None:
    base = await _tournament(live)
    await _post(live, f"{base}/players", {"name": "Case"}, status=201)
    await _post(live, f"{base}/players", {"name": "Rossi"}, status=201)
    r = await live.http.post(f"{base}/players", json={"name": new}, headers=DIRECTOR)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "invalid"
    for word in words:
        assert word in body["message"], body
    assert await _names(live, base) == ["Case", "Rossi"]
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    assert len(actions) == 2


async def test_a_csv_with_a_look_alike_is_refused_whole(live: Any) -> None:
    base = await _tournament(live)
    await _post(live, f"{base}/players", {"name": "Ada"}, status=201)
    r = await _csv(live, base, f"name\nBob\nCy\nR{GREEK_O}ssi\nRossi\n")
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(
        "line 5: body.name: Rossi looks like the player R\u03bfssi"), r.json()
    r = await _csv(live, base, "name\nBob\nADA\n")
    assert r.status_code == 422 and r.json()["message"].startswith(
        "line 3: body.name: ADA is the same name as the player Ada"), r.json()
    r = await _csv(live, base, "Bob\nCy\u200e\n")
    assert r.status_code == 422 and "line 2: body.name" in r.json()["message"]
    assert "U+200E" in r.json()["message"]
    assert await _names(live, base) == ["Ada"]
    r = await _csv(live, base, "name\nBob\nCy\n")
    assert r.status_code == 201, r.text
    assert await _names(live, base) == ["Ada", "Bob", "Cy"]


async def test_couples_names_that_look_alike_are_refused(live: Any) -> None:
    base = await _tournament(live)
    r = await _csv(live, base, "name\nA1\nA2\nB1\nB2\n")
    assert r.status_code == 201, r.text
    body = {"format": "round_robin", "length": 3, "rules": "usbgf-2013-delay",
            "couples": [{"name": "Alfa", "players": [1, 2]},
                        {"name": "ALFA", "players": [3, 4]}]}
    r = await live.http.post(f"{base}/couples", json=body, headers=DIRECTOR)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(
        "body.couples[1].name: ALFA is the same name as the couple Alfa")
    body["couples"][1]["name"] = "Beta\u202e"
    r = await live.http.post(f"{base}/couples", json=body, headers=DIRECTOR)
    assert r.status_code == 422 and "body.couples[1].name" in r.json()["message"]
    assert (await _state(live, base))["couples"] is None
    body["couples"][1]["name"] = "Beta"
    assert (await live.http.post(f"{base}/couples", json=body, headers=DIRECTOR)
            ).status_code == 201


async def test_a_tables_players_must_be_told_apart(live: Any) -> None:
    t = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    tables = f"/api/tournaments/{t.json()['id']}/tables"
    spec = {"rules": "usbgf-2013-delay", "length": 3}
    for players, field in ((["Ann", "ann"], "body.players[1]"),
                           (["Ann", "\u0410nn"], "body.players[1]"),
                           (["Ann\u200d", "Bob"], "body.players[0]")):
        r = await live.http.post(tables, json={**spec, "players": players}, headers=DIRECTOR)
        assert r.status_code == 422, r.text
        assert r.json()["message"].startswith(field), r.json()
    r = await live.http.post(tables, json={**spec, "players": ["Ann", "Bob"]},
                             headers=DIRECTOR)
    assert r.status_code == 201, r.text
    r = await live.http.patch(f"/api/tables/{r.json()['id']}", json={"players": ["Bob", "BOB"]},
                              headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.players[1]"), r.text
