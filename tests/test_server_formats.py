"""The formats of issue 23 on the server, on SQLite and PostgreSQL: a Last
Chance switched on in the settings, drawn, played at tables and printed
(standings, draw sheet, exports, wall pairings)."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import Tournament
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _get(live: Any, path: str, status: int = 200) -> Any:
    r = await live.http.get(path, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return r


async def _tournament(live: Any, n: int, settings: dict[str, Any]) -> str:
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}],
                                           **settings})
    for i in range(1, n + 1):
        await _post(live, f"{base}/players", {"name": f"Player {i:02d}"}, status=201)
        await _post(live, f"{base}/players/{i}/check-in")
    return base


async def _play(live: Any, base: str, state: dict[str, Any], event: str) -> dict[str, Any]:
    """Every match of ``event`` started at its tables and won by side A."""
    r_no = 0
    while state[event] is not None and r_no < len(state[event]["rounds"]):
        ready = [i for i, m in enumerate(state[event]["rounds"][r_no])
                 if m["a"] and m["b"] and not m["winner"]]
        if ready:
            state = (await _post(live, f"{base}/rounds", {"event": event, "round": r_no}))[
                "state"]
        for i in ready:
            m = state[event]["rounds"][r_no][i]
            state = (await _post(live, f"{base}/results", {
                "event": event, "round": r_no, "match": i, "winner": m["a"],
                "score": [5, 2]}))["state"]
        r_no += 1
    return state


async def test_a_last_chance_drawn_played_and_printed(live: Any) -> None:
    base = await _tournament(live, 16, {"last_chance": True})
    state = (await _post(live, f"{base}/draw", {"seed": 3}))["state"]
    assert state["settings"]["last_chance"] is True and state["last_chance"] is None
    # not drawn yet: the route names why
    r = await live.http.post(f"{base}/rounds", json={"event": "last_chance", "round": 0},
                             headers=DIRECTOR)
    assert r.status_code == 409 and "Last Chance" in r.text
    state = await _play(live, base, state, "main")
    state = await _play(live, base, state, "consolation")
    lc = state["last_chance"]
    assert lc is not None and lc["size"] == 4
    # its entrants: the consolation's first-round losers (16 players: no byes)
    first = state["consolation"]["rounds"][0]
    losers = {m["b"] if m["winner"] == m["a"] else m["a"] for m in first}
    assert {x for m in lc["rounds"][0] for x in (m["a"], m["b"])} == losers
    state = await _play(live, base, state, "last_chance")
    champion = state["last_chance"]["rounds"][-1][0]["winner"]
    assert champion in losers
    # the stored log folds to the same Last Chance
    log = (await _get(live, f"{base}/actions")).json()["actions"]
    folded = Tournament.fold([x["action"] for x in log]).to_dict()
    assert folded["last_chance"] == state["last_chance"]
    standings = (await _get(live, f"{base}/standings.json")).json()
    events = {e["event"]: e for e in standings["events"]}
    assert events["last_chance"]["placings"][0]["names"] == [champion]
    assert "Last Chance" in (await _get(live, f"{base}/standings.html?lang=it")).text
    csv_text = (await _get(live, f"{base}/draw.csv")).text
    assert sum(1 for line in csv_text.splitlines() if line.startswith("last_chance,")) == 3
    assert (await _get(live, f"{base}/draw.json")).json()["last_chance"] == state["last_chance"]
    sheet = (await _get(live, f"{base}/draw/last_chance.html")).text
    assert "Last Chance" in sheet and champion in sheet
    wall = (await _get(live, f"{base}/pairings.html?event=last_chance&round=1&lang=it")).text
    assert "Last Chance" in wall


async def test_the_last_chance_setting_is_checked_and_off_by_default(live: Any) -> None:
    base = await _tournament(live, 4, {})
    r = await live.http.post(f"{base}/settings", json={"last_chance": "yes"}, headers=DIRECTOR)
    assert r.status_code == 422 and "last_chance" in r.text
    state = (await _post(live, f"{base}/draw", {"seed": 1}))["state"]
    assert state["settings"]["last_chance"] is False
    state = await _play(live, base, state, "main")
    state = await _play(live, base, state, "consolation")
    assert state["last_chance"] is None
    r = await live.http.get(f"{base}/draw/last_chance.html", headers=DIRECTOR)
    assert r.status_code == 409 and "settings.last_chance" in r.text


async def test_seeds_and_groups_go_with_the_draw(live: Any) -> None:
    base = await _tournament(live, 12, {})
    # a seed who is not registered, a player in two groups: refused naming the field
    r = await live.http.post(f"{base}/settings", json={"seeds": [1, 13]}, headers=DIRECTOR)
    assert r.status_code == 422 and "seeds[1]" in r.text
    r = await live.http.post(f"{base}/settings", json={"groups": [[1, 2], [2, 3]]},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "groups[1][0]" in r.text
    r = await live.http.post(f"{base}/settings", json={"groups": [[1]]}, headers=DIRECTOR)
    assert r.status_code == 422 and "groups[0]" in r.text
    state = (await _post(live, f"{base}/settings", {
        "seeds": [4, 9], "groups": [[1, 2, 3], [5, 6, 7, 8]]}))["state"]
    assert state["settings"]["seeds"] == [4, 9]
    assert state["settings"]["groups"] == [[1, 2, 3], [5, 6, 7, 8]]
    state = (await _post(live, f"{base}/draw", {"seed": 8}))["state"]
    first = [x for m in state["main"]["rounds"][0] for x in (m["a"], m["b"])]
    half = len(first) // 2
    assert ("Player 04" in first[:half]) != ("Player 09" in first[:half])
    club = {f"Player {i:02d}": 0 for i in (1, 2, 3)} | {f"Player {i:02d}": 1
                                                       for i in (5, 6, 7, 8)}
    for m in state["main"]["rounds"][0]:
        if m["a"] in club and m["b"] in club:
            assert club[m["a"]] != club[m["b"]]
    assert state["main"]["same_group"] == []
    # the stored log folds to the same draw
    log = (await _get(live, f"{base}/actions")).json()["actions"]
    assert Tournament.fold([x["action"] for x in log]).to_dict()["main"] == state["main"]


async def test_a_side_pool_is_recorded_and_printed_in_italian(live: Any) -> None:
    base = await _tournament(live, 8, {})
    state = (await _post(live, f"{base}/draw", {"seed": 5}))["state"]
    r = await live.http.post(f"{base}/side-pools", json={
        "pool": "Jackpot", "event": "main", "entry": 1000, "players": [1, 2, 3, 4],
        "split": [60, 30]}, headers=DIRECTOR)
    assert r.status_code == 422 and "split" in r.text
    r = await live.http.post(f"{base}/side-pools", json={
        "pool": "Jackpot", "event": "main", "entry": 1000, "players": [1, 2, 3, 4],
        "split": [70, 30], "bonus": 1}, headers=DIRECTOR)
    assert r.status_code == 422 and "bonus" in r.text
    done = await _post(live, f"{base}/side-pools", {
        "pool": "Jackpot", "event": "main", "entry": 1050, "players": [1, 2, 3, 4, 5, 6, 7, 8],
        "split": [70, 30]})
    assert done["state"]["side_pools"][0]["pot"] == 8400
    state = await _play(live, base, done["state"], "main")
    champion = state["main"]["rounds"][-1][0]["winner"]
    standings = (await _get(live, f"{base}/standings.json")).json()
    pool = standings["side_pools"][0]
    assert pool["complete"] and pool["places"][0]["names"] == [champion]
    assert pool["places"][0]["cents"] == [5880]
    page = (await _get(live, f"{base}/standings.html?lang=it")).text
    assert "Jackpot" in page and "montepremi 84,00" in page and "58,80" in page
    assert "pot 84.00" in (await _get(live, f"{base}/standings.html?lang=en")).text
    # the stored log folds to the same pool
    log = (await _get(live, f"{base}/actions")).json()["actions"]
    folded = Tournament.fold([x["action"] for x in log])
    assert folded.to_dict()["side_pools"] == state["side_pools"]


async def test_seeds_by_rating_and_groups_by_club_from_the_register(live: Any) -> None:
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    # six register entries: ratings in hundredths, two clubs of two and three
    people = [("Ann", 170_000, "Roma"), ("Bob", 150_000, "Milano"), ("Cy", 180_000, "roma "),
              ("Dee", 160_000, None), ("Ed", 160_000, "Milano"), ("Flo", 140_000, "Roma")]
    for k, (name, rating, club) in enumerate(people, 1):
        e = await _post(live, "/api/register", {"name": name, **({"club": club} if club else {})},
                        status=201)
        r = await live.http.patch(f"/api/register/{e['id']}", json={"rating": rating},
                                  headers=DIRECTOR)
        assert r.status_code == 200, r.text
        await _post(live, f"{base}/players", {"name": name, "register_id": e["id"]},
                    status=201)
        if name != "Flo":  # Flo is not here: not seeded, still in her club's group
            await _post(live, f"{base}/players/{k}/check-in")
    r = await live.http.post(f"{base}/seeding", json={"seeds": -1}, headers=DIRECTOR)
    assert r.status_code == 422 and "seeds" in r.text
    state = (await _post(live, f"{base}/seeding", {"seeds": 3, "clubs": True}))["state"]
    # Cy 1800, Ann 1700, then Dee and Ed at 1600: the first registered first
    assert state["settings"]["seeds"] == [3, 1, 4]
    assert state["settings"]["groups"] == [[1, 3, 6], [2, 5]]
    # it is stored as the settings it gave: the log folds to the same
    log = (await _get(live, f"{base}/actions")).json()["actions"]
    assert log[-1]["action"] == {"do": "settings", "seeds": [3, 1, 4],
                                 "groups": [[1, 3, 6], [2, 5]]}
