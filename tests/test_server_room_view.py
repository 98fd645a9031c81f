"""The room token gets exactly what the room display shows (issue 18 §3): the
exact key sets of ``room.json`` and ``events.json``, and none of the
director's secrets (appeal votes and hearing notes, correction reasons,
federation ids, seeds, table ids)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bgclock.server.render.room import (
    APPEAL_KEYS,
    BRACKET_KEYS,
    CLOCK_KEYS,
    COUPLES_MATCH_KEYS,
    ENCOUNTER_KEYS,
    LATE_KEYS,
    MATCH_KEYS,
    MEMBER_KEYS,
    RESULT_KEYS,
    ROOM_KEYS,
    STANDING_KEYS,
    SWING_GAME_KEYS,
    SWING_KEYS,
    events_view,
    room_view,
)
from tests._server_kit import DIRECTOR, Device, anyio_backend, live
from tests.test_server_tourney import _field, _post, _state, _tournament, _until

__all__ = ["anyio_backend", "live"]

HEARING = "both players heard; the referee saw the dice cocked"
REASON = "the sheet was misread by the desk"
SECRETS = (HEARING, REASON, "FIBT", "votes", "hearing", "replaced", "federation_id",
           "table_id", "seed", "settings", "players\": [{")


async def _decide(live: Any, base: str, votes: dict[str, str]) -> None:
    """The panel's decision with the hearing notes (and the director's vote,
    where the rules ask for it with the panel's)."""
    body = {"votes": votes, "hearing": HEARING}
    r = await live.http.post(f"{base}/appeals/1/decision", json=body, headers=DIRECTOR)
    if r.status_code == 422 and "director" in r.json()["message"]:
        body["votes"] = {**votes, "director": next(iter(votes.values()))}
        r = await live.http.post(f"{base}/appeals/1/decision", json=body, headers=DIRECTOR)
    assert r.status_code == 200, r.text


def assert_no_secret(view: Any) -> None:
    text = json.dumps(view)
    for secret in SECRETS:
        assert secret not in text, secret


# ------------------------------------------------------------------ pure

def test_room_view_keeps_only_what_the_room_shows() -> None:
    state = {
        "main": {"size": 2, "late_slots": [1], "arrivals": ["L"], "late_open": False,
                 "rounds": [[{"a": "A", "b": "B", "winner": "A", "extra": 1}]]},
        "consolation": None,
        "matches": [{"event": "main", "round": 0, "match": 0, "table": 1, "table_id": 9,
                     "a": "A", "b": "B", "winner": "A", "length": 7, "rules": "x",
                     "clock": "none", "result": {"source": "hand", "score": [7, 2],
                                                 "reason": REASON, "was": "B"}}],
        "committee": [{"id": 1, "name": "A", "federation_id": "FIBT1"}],
        "appeals": [{"appeal": 1, "event": "main", "round": 0, "match": 0, "by": 2,
                     "ruling": "cocked dice", "panel": [1, 3, 4], "replaced": {"2": 4},
                     "at_ms": 5, "decision": "upheld", "votes": {"1": "uphold"},
                     "hearing": HEARING}],
        "players": [{"id": 1, "name": "A", "federation_id": "FIBT1"}], "seed": 7,
    }
    late = [{"event": "main", "round": 0, "match": 0, "table": 1, "a": "A", "b": "B",
             "absent": ["B"], "from_ms": 0, "at_ms": 1, "clock": False,
             "arrived_ms": {"B": 3}, "winner": None,
             "count": {"at_ms": 4, "points": 1, "score": [0, 1], "over": False,
                       "disqualified": None, "arrived": False, "next_point_ms": 9,
                       "out_ms": 99}}]
    clock = {"phase": "playing", "score": [0, 0], "on_turn": "A", "reserve_ms": [1, 2],
             "length": 7, "at_ms": 3, "provisional": False, "log": ["secret"]}
    ends = {"champions": {"main": "A"}, "standings": [], "registered": ["A", "B"],
            "result_order": [["main", 0, 0]], "seats": [], "secret": HEARING}
    view = room_view(tournament_id=3, name="Open", state=state, clocks={0: clock}, late=late,
                     server_ms=10, ends=ends)
    assert tuple(view) == ROOM_KEYS
    assert view["main"] == {"size": 2, "late_slots": [1], "late_open": False,
                            "rounds": [[{"a": "A", "b": "B", "winner": "A"}]]}
    assert view["champions"] == {"main": "A"} and "secret" not in view
    assert view["matches"] == [{"event": "main", "round": 0, "match": 0, "table": 1, "a": "A",
                                "b": "B", "winner": "A", "length": 7, "result": {"score": [7, 2],
                                                                   "source": "hand"},
                                "clock": {k: clock[k] for k in CLOCK_KEYS}}]
    assert view["committee"] == [{"id": 1, "name": "A"}]
    assert view["appeals"] == [{"appeal": 1, "event": "main", "round": 0, "match": 0,
                                "ruling": "cocked dice", "panel": [1, 3, 4],
                                "decision": "upheld"}]
    assert view["late"][0]["count"] == {"points": 1, "score": [0, 1], "over": False,
                                        "arrived": False, "next_point_ms": 9, "out_ms": 99}
    assert set(view["late"][0]) == set(LATE_KEYS)
    assert_no_secret(view)


def test_events_view_drops_seeds_settings_and_correction_reasons() -> None:
    swing = {"players": ["A", "B"], "start_vp": 100, "cpp_schedule": [10], "rules": "x",
             "clock": "none", "clock_override": {}, "vp": {"A": 100, "B": 100}, "out": [],
             "winner": None, "round": 1, "cpp": 10, "next_cpp": 10, "under_way": True,
             "seed": 7, "sitting": None, "correctable": True, "all_in": [],
             "history": [{"A": 100, "B": 100}],
             "games": [{"a": "A", "b": "B", "table": 1, "stake": 10, "all_in": False,
                        "winner": None, "result": "single", "cube": 1, "source": "hand",
                        "corrected": {"reason": REASON}}],
             "rounds": [{"round": 0, "cpp": 10, "sat_out": [], "games": [{"reason": REASON}]}]}
    couples = {"format": "knockout", "length": 5, "rules": "x", "clock": "none",
               "couples": [{"name": "C1", "players": ["A", "B"]}],
               "standings": [{"place": 1, "couple": "C1", "encounters": 1, "matches": 2,
                              "points": 3}],
               "champion": None,
               "encounters": [{"encounter": 0, "round": 0, "a": "C1", "b": "C2",
                               "wins": {"C1": 1, "C2": 0}, "winner": None,
                               "decided_after_phase": None,
                               "matches": [{"phase": 1, "match": 0, "a": "A", "b": "C",
                                            "teams": False, "table": 2, "winner": "A",
                                            "score": [5, 1], "source": "hand",
                                            "corrected": {"reason": REASON}}]}]}
    view = events_view({"swing": swing, "couples": couples}, server_ms=5)
    assert set(view) == {"swing", "couples", "server_ms"}
    assert set(view["swing"]) == set(SWING_KEYS)
    assert set(view["swing"]["games"][0]) == set(SWING_GAME_KEYS)
    assert set(view["couples"]) == {"standings", "champion", "encounters"}
    assert set(view["couples"]["standings"][0]) == set(STANDING_KEYS)
    encounter = view["couples"]["encounters"][0]
    assert set(encounter) == set(ENCOUNTER_KEYS)
    assert set(encounter["matches"][0]) == set(COUPLES_MATCH_KEYS)
    assert encounter["matches"][0]["corrected"] is True
    assert_no_secret(view)
    assert events_view({"swing": None, "couples": None}, server_ms=1) == {
        "swing": None, "couples": None, "server_ms": 1}


# ------------------------------------------------------------------ server

@pytest.mark.anyio
async def test_the_room_token_reads_the_decision_not_the_votes_nor_the_hearing(
        live: Any) -> None:
    base = await _tournament(live)
    await _field(live, base, 8, settings={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    started = await _post(live, f"{base}/rounds", {"round": 0})
    state = started["state"]
    pid = {p["name"]: p["id"] for p in state["players"]}
    m0, m1 = state["matches"][0], state["matches"][1]
    others = [p["id"] for p in state["players"]
              if p["name"] not in (m0["a"], m0["b"])]
    await _post(live, f"{base}/committee", {"members": others[:3]})
    await _post(live, f"{base}/appeals", {"round": 0, "match": m0["match"],
                                          "by": pid[m0["a"]], "ruling": "cocked dice"},
                status=201)
    await _decide(live, base, {str(o): "overturn" for o in others[:3]})
    await _post(live, f"{base}/results", {"round": 0, "match": m1["match"],
                                          "winner": m1["a"], "score": [3, 1]})
    await _post(live, f"{base}/corrections", {"round": 0, "match": m1["match"],
                                              "winner": m1["b"], "reason": REASON})
    tid = int(base.rsplit("/", 1)[1])
    token = (await _state(live, base))["room_url"].split("token=")[1]
    room = (await live.http.get(f"/api/tournaments/{tid}/room.json?token={token}")).json()

    assert tuple(room) == ROOM_KEYS
    assert room["appeals"] == [{"appeal": 1, "event": "main", "round": 0,
                                "match": m0["match"], "ruling": "cocked dice",
                                "panel": others[:3], "decision": "overturned"}]
    assert all(tuple(a) == APPEAL_KEYS for a in room["appeals"])
    assert all(tuple(x) == MEMBER_KEYS for x in room["committee"])
    for m in room["matches"]:
        assert tuple(m) == MATCH_KEYS
        assert m["clock"] is None or tuple(m["clock"]) == CLOCK_KEYS
    corrected = next(m for m in room["matches"] if m["match"] == m1["match"])
    assert corrected["winner"] == m1["b"] and corrected["result"]["source"] == "hand"
    assert set(corrected["result"]) <= set(RESULT_KEYS)
    assert set(room["main"]) == {"rounds", *BRACKET_KEYS}
    assert_no_secret(room)
    # the director's key reads the same view (the room display opened by the director)
    assert (await live.http.get(f"{base}/room.json", headers=DIRECTOR)).json()["appeals"] \
        == room["appeals"]


@pytest.mark.anyio
async def test_the_room_token_reads_the_swing_without_its_seed(live: Any) -> None:
    base = await _tournament(live, "Swing day")
    names = ["Ada", "Bea", "Cid", "Dan"]
    csv_text = "name,federation_id\n" + "".join(f"{n},FIBT{i}\n" for i, n in enumerate(names))
    r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                             headers={**DIRECTOR, "content-type": "text/csv"})
    assert r.status_code == 201, r.text
    await _post(live, f"{base}/swing", {"start_vp": 100, "cpp": [20, 40],
                                        "rules": "usbgf-2013-delay"}, status=201)
    started = await _post(live, f"{base}/swing/rounds", {"seed": 7})
    table = started["tables"][0]["table_id"]
    info = (await live.http.get(f"/api/tables/{table}", headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        assert (await device.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
    tid = int(base.rsplit("/", 1)[1])
    token = (await _state(live, base))["room_url"].split("token=")[1]

    async def seen() -> Any:
        r = await live.http.get(f"/api/tournaments/{tid}/events.json?token={token}")
        return r.json() if r.status_code == 200 else None

    events = await _until(seen)
    assert set(events) == {"swing", "couples", "server_ms"} and events["couples"] is None
    swing = events["swing"]
    assert set(swing) == set(SWING_KEYS) and swing["under_way"] is True
    assert all(set(g) == set(SWING_GAME_KEYS) for g in swing["games"])
    assert len(swing["games"]) == 2
    assert_no_secret(events)
