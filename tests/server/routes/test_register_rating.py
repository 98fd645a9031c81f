"""Closing a tournament rates it into its club's register (issue 37 §4), on
SQLite and PostgreSQL: a club's event rates the club's people, whoever
closes it, and never another club's or the server's, even where their people
bear the same names and federation ids."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.server.edge.named_keys import CLUB_DIRECTOR, add_key
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio
START = 150_000


async def _ok(live: Any, headers: dict[str, str], method: str, path: str, status: int = 200,
              **kw: Any) -> Any:
    r = await live.http.request(method, path, headers=headers, **kw)
    assert r.status_code == status, r.text
    return r.json()


async def _people(live: Any, headers: dict[str, str]) -> dict[str, int]:
    """Ann and Bob in the register the credentials reach (one federation id
    each, the same in every register)."""
    return {name: (await _ok(live, headers, "POST", "/api/register", 201,
                             json={"name": name, "federation_id": f"FED-{name}"}))["id"]
            for name in ("Ann", "Bob")}


async def _played(live: Any, headers: dict[str, str], ids: dict[str, int]) -> str:
    """An event of the credentials' club with Ann and Bob linked to ``ids``,
    its one match won by Ann; its base path."""
    t = await _ok(live, headers, "POST", "/api/tournaments", 201, json={"name": "Coppa"})
    base = f"/api/tournaments/{t['id']}"
    await _ok(live, headers, "POST", f"{base}/settings",
              json={"rounds": [{"length": 5, "clock": "none"}]})
    for name, rid in ids.items():
        await _ok(live, headers, "POST", f"{base}/players", 201,
                  json={"name": name, "register_id": rid})
    await _ok(live, headers, "POST", f"{base}/players/check-in", json={"players": [1, 2]})
    await _ok(live, headers, "POST", f"{base}/draw", json={"seed": 1})
    m = (await _ok(live, headers, "GET", f"{base}/state"))["main"]["rounds"][0][0]
    assert {m["a"], m["b"]} == {"Ann", "Bob"}, m
    await _ok(live, headers, "POST", f"{base}/results",
              json={"event": "main", "round": 0, "match": 0, "winner": "Ann"})
    return base


async def _ratings(live: Any, headers: dict[str, str], ids: dict[str, int]
                   ) -> dict[str, tuple[int, int]]:
    """Each person's rating and number of rated matches."""
    out = {}
    for name, rid in ids.items():
        e = await _ok(live, headers, "GET", f"/api/register/{rid}")
        out[name] = (e["rating"], len(e["history"]))
    return out


async def test_a_clubs_event_rates_into_the_clubs_register_only(live: Any) -> None:
    pisa = {"Authorization": f"Bearer {await add_key(live.server.store, CLUB_DIRECTOR, 'pisa')}"}
    lucca = {"Authorization":
             f"Bearer {await add_key(live.server.store, CLUB_DIRECTOR, 'lucca')}"}
    people = {"pisa": await _people(live, pisa), "lucca": await _people(live, lucca),
              "server": await _people(live, DIRECTOR)}
    base = await _played(live, pisa, people["pisa"])
    closed = await _ok(live, pisa, "POST", f"{base}/close")
    assert closed["rated"]["now"] is True and closed["rated"]["matches"] == 1, closed
    rated = await _ratings(live, pisa, people["pisa"])
    assert rated["Ann"][0] > START > rated["Bob"][0] and rated["Ann"][1] == rated["Bob"][1] == 1
    entry = await _ok(live, pisa, "GET", f"/api/register/{people['pisa']['Ann']}")
    assert entry["history"][0]["opponent_id"] == people["pisa"]["Bob"]
    # the same names and federation ids elsewhere: untouched
    untouched = {"Ann": (START, 0), "Bob": (START, 0)}
    assert await _ratings(live, lucca, people["lucca"]) == untouched
    assert await _ratings(live, DIRECTOR, people["server"]) == untouched
    # once
    again = await _ok(live, pisa, "POST", f"{base}/close")
    assert again["rated"]["now"] is False
    assert await _ratings(live, pisa, people["pisa"]) == rated
    # Lucca's event closed by the server's director: Lucca's register still
    base = await _played(live, lucca, people["lucca"])
    closed = await _ok(live, DIRECTOR, "POST", f"{base}/close")
    assert closed["rated"]["now"] is True and closed["rated"]["matches"] == 1, closed
    assert await _ratings(live, lucca, people["lucca"]) == rated
    assert await _ratings(live, DIRECTOR, people["server"]) == untouched
