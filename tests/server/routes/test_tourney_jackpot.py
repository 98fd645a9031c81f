"""Jackpots, re-entries and a double elimination through the director's
routes (issue 35 §2, §3): a jackpot that draws and starts round 1 when its
last place is taken (in its room), a re-entry refused with the reason and
then taken (its seat and its fee), a double elimination's losers' bracket
and final started at tables and printed; on SQLite and PostgreSQL, with a
ManualClock."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend
from tests.test_server_tourney_desk import _post, _state, manual

__all__ = ["anyio_backend", "manual"]
pytestmark = pytest.mark.anyio
NONE = [{"length": 3, "rules": "usbgf-2013-delay", "clock": "none"}]


async def _tournament(live: Any, name: str, settings: dict[str, Any]) -> str:
    r = await live.http.post("/api/tournaments", json={"name": name}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", settings)
    return base


async def _refused(live: Any, path: str, body: Any = None, status: int = 409) -> Any:
    r = await live.http.post(path, json=body, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return r.json()


async def test_a_jackpot_draws_and_starts_when_its_last_place_is_taken(manual: Any) -> None:
    live, _ = manual
    base = await _tournament(live, "Jackpot 1", {"jackpot": {"size": 4, "length": 3,
                                                            "room": "Sala B"}})
    for k in range(1, 4):
        body = await _post(live, f"{base}/players", {"name": f"J{k}"}, status=201)
        assert "jackpot" not in body and not body["state"]["drawn"]
    body = await _post(live, f"{base}/players", {"name": "J4"}, status=201)
    assert body["jackpot"]["started"] and len(body["jackpot"]["tables"]) == 2
    state = body["state"]
    assert state["drawn"] and state["flight"]["room"] == "Sala B"
    assert sorted(m["table"] for m in state["matches"]) == [1, 2]
    assert all(m["length"] == 3 for m in state["matches"])
    kinds = [a["action"]["do"] for a in (await live.http.get(
        f"{base}/actions", headers=DIRECTOR)).json()["actions"]]
    at = len(kinds) - 1 - kinds[::-1].index("register")
    assert kinds[at:at + 4] == ["register", "flight", "draw", "start_round"]
    full = await _refused(live, f"{base}/players", {"name": "J5"})
    assert full["error"] == "jackpot_full" and "4 players" in full["message"]
    # a second jackpot in the same room takes the room's next tables
    other = await _tournament(live, "Jackpot 2", {"jackpot": {"size": 4, "length": 3,
                                                             "room": "sala b"}})
    for k in range(1, 5):
        body = await _post(live, f"{other}/players", {"name": f"K{k}"}, status=201)
    assert sorted(m["table"] for m in body["state"]["matches"]) == [3, 4]


async def test_a_jackpot_refuses_a_size_it_cannot_be(manual: Any) -> None:
    live, _ = manual
    r = await live.http.post("/api/tournaments", json={"name": "J"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    bad = await _refused(live, f"{base}/settings", {"jackpot": {"size": 5, "length": 3}}, 422)
    assert "jackpot.size" in bad["message"]
    assert not (await _state(live, base))["settings"]["jackpot"]


async def test_a_reentry_takes_the_mains_next_late_slot_and_one_more_fee(manual: Any) -> None:
    live, clock = manual
    until = clock.now_ms() + 60_000
    base = await _tournament(live, "Open", {"rounds": NONE, "late_slots": 2,
                                            "reentry_until_ms": until})
    await _post(live, f"{base}/money", {"fee": 1000})
    for k in range(1, 7):
        await _post(live, f"{base}/players", {"name": f"P{k}"}, status=201)
        await _post(live, f"{base}/players/{k}/check-in")
    await _post(live, f"{base}/draw", {"seed": 5})
    state = await _state(live, base)
    i, m = next((i, m) for i, m in enumerate(state["main"]["rounds"][0]) if m["a"] and m["b"])
    loser = next(p["id"] for p in state["players"] if p["name"] == m["b"])
    winner = next(p["id"] for p in state["players"] if p["name"] == m["a"])
    refused = await _refused(live, f"{base}/players/{loser}/reenter")
    assert refused["error"] == "not_knocked_out"
    await _post(live, f"{base}/results", {"round": 0, "match": i, "winner": m["a"]})
    assert (await _refused(live, f"{base}/players/{winner}/reenter"))["error"] \
        == "not_knocked_out"
    body = await _post(live, f"{base}/players/{loser}/reenter")
    slot = body["state"]["main"]["late_slots"][0]
    assert body["done"][0]["position"] == slot
    row = next(r for r in body["state"]["money"]["players"] if r["player"] == loser)
    assert row["entries"] == 2 and row["owed"] == 2000
    kinds = [a["action"]["do"] for a in (await live.http.get(
        f"{base}/actions", headers=DIRECTOR)).json()["actions"]]
    assert kinds.count("reenter") == 1 and "reentry" not in kinds  # one action, both
    clock.advance(120_000)
    late = await _refused(live, f"{base}/players/{winner}/reenter")
    assert late["error"] == "reentry_closed"


async def test_a_double_elimination_is_run_at_tables_and_printed(manual: Any) -> None:
    live, _ = manual
    base = await _tournament(live, "Nordic", {"format": "double", "rounds": NONE})
    for k in range(1, 5):
        await _post(live, f"{base}/players", {"name": f"P{k}"}, status=201)
        await _post(live, f"{base}/players/{k}/check-in")
    await _post(live, f"{base}/draw", {"seed": 2})
    state = await _state(live, base)
    assert state["double"]["losers"] == [[{"a": None, "b": None, "winner": None}]] * 2
    played = 0
    for _ in range(12):
        state = await _state(live, base)
        if state["double"]["champion"]:
            break
        for event in ("main", "losers", "final"):
            rounds = state["main"]["rounds"] if event == "main" else state["double"][event]
            r = next((r for r, row in enumerate(rounds) if any(
                x["a"] and x["b"] and not x["winner"] for x in row)), None)
            if r is None:
                continue
            started = await _post(live, f"{base}/rounds", {"event": event, "round": r})
            for t in started["tables"]:
                x = rounds[r][t["match"]]
                await _post(live, f"{base}/results", {"event": event, "round": r,
                                                      "match": t["match"],
                                                      "winner": max(x["a"], x["b"])})
                played += 1
            break
    state = await _state(live, base)
    assert state["double"]["champion"] and played >= 6
    standings = (await live.http.get(f"{base}/standings.json", headers=DIRECTOR)).json()
    assert standings["events"][0]["champion"] == state["double"]["champion"]
    sheet = await live.http.get(f"{base}/draw/losers.html?lang=it", headers=DIRECTOR)
    assert sheet.status_code == 200 and "Tabellone dei perdenti" in sheet.text
    wall = await live.http.get(f"{base}/pairings.html?event=losers&round=1&lang=it",
                               headers=DIRECTOR)
    assert wall.status_code == 200 and "Tabellone dei perdenti" in wall.text
    page = await live.http.get(f"{base}/standings.html?lang=it", headers=DIRECTOR)
    assert "Doppia eliminazione" in page.text
    csv = await live.http.get(f"{base}/draw.csv", headers=DIRECTOR)
    assert "losers" in csv.text and "final" in csv.text
