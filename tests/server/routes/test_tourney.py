"""The weekly formats at the desk through the director's routes (issue 35
§2, §4): a More Swiss created, drawn, each round paired as it starts, results
by hand, the field and the pairing's reasons, a correction that would change
a paired round refused, the standings and the wall; on SQLite and
PostgreSQL, with a ManualClock."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend
from tests.test_server_tourney_desk import _post, _state, manual

__all__ = ["anyio_backend", "manual"]
pytestmark = pytest.mark.anyio


async def _event(live: Any, settings: dict[str, Any], n: int) -> str:
    r = await live.http.post("/api/tournaments", json={"name": "Club night"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {**settings, "rounds": [
        {"length": 5, "rules": "usbgf-2013-delay", "clock": "none"}]})
    for i in range(1, n + 1):
        await _post(live, f"{base}/players", {"name": f"P{i}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    await _post(live, f"{base}/draw", {"seed": 3})
    return base


async def _refused(live: Any, path: str, body: dict[str, Any], status: int = 409) -> Any:
    r = await live.http.post(path, json=body, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return r.json()


async def test_a_more_swiss_is_played_to_a_winner_by_hand(manual: Any) -> None:
    live, _ = manual
    base = await _event(live, {"format": "moreswiss", "losses": 2}, 7)
    state = await _state(live, base)
    assert state["drawn"] and state["weekly"]["paired"] == 0 and state["main"]["rounds"] == []
    assert (await _refused(live, f"{base}/rounds", {"round": 1}))["error"] == "no_matches"
    r = 0
    while True:
        state = await _state(live, base)
        if state["weekly"]["over"]:
            break
        started = await _post(live, f"{base}/rounds", {"event": "main", "round": r})
        matches = started["state"]["main"]["rounds"][r]
        seated = [t["match"] for t in started["tables"]]
        assert seated == [i for i, m in enumerate(matches) if m["b"] is not None]
        if r == 1:  # the next round is not paired before this one is over
            assert (await _refused(live, f"{base}/rounds", {"round": 2}))["error"] \
                == "round_not_over"
        for i, m in enumerate(matches):
            if m["b"] is not None:
                await _post(live, f"{base}/results", {"round": r, "match": i,
                                                      "winner": min(m["a"], m["b"])})
        r += 1
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    paired = [a["action"] for a in actions if a["action"]["do"] == "pair_round"]
    assert [a["round"] for a in paired] == list(range(r)) and all("seed" in a for a in paired)
    # the field: records, who is out, who can still win; a round's reasons
    field = (await live.http.get(f"{base}/field?round=2", headers=DIRECTOR)).json()
    leader = field["field"][0]
    assert not leader["out"] and leader["can_still_win"]
    assert sum(1 for row in field["field"] if row["out"]) == 6
    assert field["reasons"] and all(isinstance(x, str) for x in field["reasons"])
    assert field["finished"] and field["standings"][0]["player"] == leader["player"]
    bad = await live.http.get(f"{base}/field?round=99", headers=DIRECTOR)
    assert bad.status_code == 422 and "round" in bad.json()["message"]
    # a correction of round 1 would change round 2's pairing: refused, with the reason
    first = state["main"]["rounds"][0]
    i, m = next((i, m) for i, m in enumerate(first) if m["b"] is not None)
    other = m["b"] if m["winner"] == m["a"] else m["a"]
    body = await _refused(live, f"{base}/corrections", {"round": 0, "match": i,
                                                       "winner": other, "reason": "sheet"})
    assert body["error"] == "pairing_would_change" and "round 2" in body["message"]
    undo = await _refused(live, f"{base}/results/revert", {"round": 0, "match": i})
    assert undo["error"] == "round_paired" and "round 2" in undo["message"]
    # the last round's result can be corrected and undone
    last = len(state["main"]["rounds"]) - 1
    j, lm = next((j, x) for j, x in enumerate(state["main"]["rounds"][last]) if x["b"])
    loser = lm["b"] if lm["winner"] == lm["a"] else lm["a"]
    await _post(live, f"{base}/corrections", {"round": last, "match": j, "winner": loser,
                                              "reason": "sheet"})
    await _post(live, f"{base}/results/revert", {"round": last, "match": j,
                                                 "winner": loser, "corrections": 1})
    # the standings and the wall, in Italian
    standings = (await live.http.get(f"{base}/standings.json", headers=DIRECTOR)).json()
    main = standings["events"][0]
    assert main["event"] == "main" and main["complete"] and main["champion"]
    page = await live.http.get(f"{base}/standings.html?lang=it", headers=DIRECTOR)
    assert page.status_code == 200 and main["champion"] in page.text
    assert "More Swiss" in page.text
    wall = await live.http.get(f"{base}/pairings.html?lang=it&round=1", headers=DIRECTOR)
    bye = next(m["a"] for m in first if m["b"] is None)
    assert wall.status_code == 200 and f"Turno di riposo: {bye}" in wall.text


async def test_a_swiss_refuses_what_it_cannot_be(manual: Any) -> None:
    live, _ = manual
    r = await live.http.post("/api/tournaments", json={"name": "Swiss"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    bad = await _refused(live, f"{base}/settings", {"format": "dutch"}, status=422)
    assert bad["message"].startswith("body.format: must be one of knockout, swiss, moreswiss")
    await _post(live, f"{base}/settings", {"format": "swiss"})
    for i in range(1, 4):
        await _post(live, f"{base}/players", {"name": f"P{i}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    body = await _refused(live, f"{base}/draw", {"seed": 1}, status=422)
    assert "swiss_rounds" in body["message"]
    await _post(live, f"{base}/settings", {"swiss_rounds": 2})
    await _post(live, f"{base}/draw", {"seed": 1})
    assert (await _refused(live, f"{base}/late/close", {}))["error"] == "no_late_slots"
    no = await live.http.get(f"/api/tournaments/{r.json()['id']}/field", headers=DIRECTOR)
    assert no.status_code == 200 and no.json()["format"] == "swiss"
    started = await _post(live, f"{base}/rounds", {"round": 0})
    assert len(started["tables"]) == 1 and started["state"]["weekly"]["paired"] == 1
