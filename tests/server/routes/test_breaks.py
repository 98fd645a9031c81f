"""The director's routes for breaks at a match without a clock, the
presumption of a missing score sheet (issue 38 §3, §4) and an appeal heard
by two members and the director (issue 32 §6); on SQLite and PostgreSQL,
with a ManualClock."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend
from tests.test_server_tourney_desk import _match, _pid, _post, _started, _state, manual

__all__ = ["anyio_backend", "manual"]
pytestmark = pytest.mark.anyio

MIN = 60_000
AT = {"event": "main", "round": 0, "match": 0}


async def _breaks(live: Any, base: str) -> dict[str, Any]:
    r = await live.http.get(f"{base}/breaks", headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _refused(live: Any, path: str, body: dict[str, Any], status: int = 409) -> str:
    r = await live.http.post(path, json=body, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return str(r.json()["error"])


async def test_a_break_is_counted_timed_and_its_penalty_offered(manual: Any) -> None:
    # it-rules: "In all 13 point matches or more, each player is allowed to
    # take two breaks of 10mn duration each ... penalties shall be awarded"
    live, clock = manual
    base, started = await _started(live, length=13)
    m = _match(started["state"])
    a, b = _pid(started["state"], m["a"]), _pid(started["state"], m["b"])
    view = await _breaks(live, base)
    assert [x["match"] for x in view["breaks"]] == [0, 1]
    first = view["breaks"][0]
    assert (first["allowance"], first["used"], first["clock"]) == (2, {"A": 0, "B": 0}, False)
    body = await _post(live, f"{base}/breaks", {**AT, "player": a}, status=201)
    assert body["done"][0]["number"] == 1 and body["breaks"][0]["breaks"][0]["running"]
    clock.advance(4 * MIN)
    [running] = (await _breaks(live, base))["breaks"][0]["breaks"]
    assert running["left_ms"] == 6 * MIN and not running["alert"]
    assert await _refused(live, f"{base}/breaks", {**AT, "player": b}) == "break_running"
    assert await _refused(live, f"{base}/breaks/penalty", {
        **AT, "player": a, "number": 1, "points": 1}) == "break_in_time"
    clock.advance(8 * MIN)  # 12 minutes: 2 over, the penalty offered
    [over] = (await _breaks(live, base))["breaks"][0]["breaks"]
    assert over["alert"] and over["over_ms"] == 2 * MIN and over["suggested"] == 1
    body = await _post(live, f"{base}/breaks/end", AT)
    assert body["done"][0]["over_ms"] == 2 * MIN
    body = await _post(live, f"{base}/breaks/penalty", {**AT, "player": a, "number": 1,
                                                         "points": 1})
    [decided] = body["breaks"][0]["breaks"]
    assert decided["penalty"] == 1 and not decided["alert"]
    assert _match(body["state"])["winner"] is None  # no score given: recorded only
    # the second break of a 13-point match, then no third
    clock.advance(30 * MIN)
    await _post(live, f"{base}/breaks", {**AT, "player": a}, status=201)
    clock.advance(5 * MIN)
    await _post(live, f"{base}/breaks/end", AT)
    assert await _refused(live, f"{base}/breaks", {**AT, "player": a}) == "no_break_left"
    state = await _state(live, base)
    assert [x["penalty"] for x in state["breaks"][0]["breaks"]] == [1, None]
    # the log says who did what
    actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    assert [x["action"]["do"] for x in actions[-5:]] == [
        "break_start", "break_end", "break_penalty", "break_start", "break_end"]
    assert all(x["source"] == "director" and "at_ms" in x["action"] for x in actions[-5:])


async def test_penalty_points_reaching_the_length_end_the_match(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, length=7)
    m = _match(started["state"], 1)
    late = _pid(started["state"], m["b"])
    at = {**AT, "match": 1}
    await _post(live, f"{base}/breaks", {**at, "player": late}, status=201)
    clock.advance(21 * MIN)
    body = await _post(live, f"{base}/breaks/penalty", {**at, "player": late, "number": 1,
                                                         "points": 3, "score": [4, 1]})
    assert body["done"][0]["winner"] == m["a"] and body["done"][0]["score"] == [7, 1]
    assert _match(body["state"], 1)["winner"] == m["a"]
    result = next(x for x in body["state"]["matches"] if x["match"] == 1)["result"]
    assert result == {"source": "disqualified", "player": m["b"], "reason": "break",
                      "score": [7, 1]}
    assert [x["match"] for x in body["breaks"]] == [0]  # no longer being played


async def test_a_break_body_is_checked_and_a_clock_keeps_its_own(manual: Any) -> None:
    live, _clock = manual
    base, started = await _started(live)
    assert await _refused(live, f"{base}/breaks/penalty", {
        **AT, "player": 1, "number": 3, "points": 1}, 422) == "invalid"
    r = await live.http.post(f"{base}/breaks", json={**AT, "player": 1, "at_ms": 5},
                             headers=DIRECTOR)
    assert r.status_code == 422 and "at_ms" in r.json()["message"]  # the server's instant
    assert await _refused(live, f"{base}/breaks/end", AT) == "no_break"
    clocked, state = await _started(live, clock="required")
    m = _match(state["state"])
    view = await _breaks(live, clocked)
    assert view["breaks"][0]["clock"] is True
    assert await _refused(live, f"{clocked}/breaks", {
        **AT, "player": _pid(state["state"], m["a"])}) == "clock_in_use"


async def test_one_sheet_in_the_director_confirms_the_presumption(manual: Any) -> None:
    live, _clock = manual
    base, started = await _started(live)
    m = _match(started["state"])
    body = await _post(live, f"{base}/sheets", {**AT, "by": "B", "winner": m["b"],
                                                "score": [3, 7]})
    [sheet] = body["state"]["sheets"]
    assert sheet["presumption"] == {"by": "B", "missing": "A", "winner": m["b"],
                                    "score": [3, 7], "via": "director"}
    assert await _refused(live, f"{base}/sheets/presume", {**AT, "by": "A"}) == "no_sheet"
    body = await _post(live, f"{base}/sheets/presume", {**AT, "by": "B"})
    assert body["done"] == [{"winner": m["b"], "by": "B", "missing": "A"}]
    result = next(x for x in body["state"]["matches"] if x["match"] == 0)["result"]
    assert result == {"source": "hand", "sheets": "presumed", "score": [3, 7]}


async def test_two_members_and_the_director_decide_an_appeal(manual: Any) -> None:
    live, _clock = manual
    base, started = await _started(live, n=8)
    state = started["state"]
    m = _match(state)
    a_id = _pid(state, m["a"])
    others = [p["id"] for p in state["players"] if p["name"] not in (m["a"], m["b"])]
    await _post(live, f"{base}/committee", {"members": others[:3]})
    await _post(live, f"{base}/appeals", {**AT, "by": a_id, "ruling": "cocked dice"},
                status=201)
    r = await live.http.post(f"{base}/appeals/1/decision", headers=DIRECTOR, json={
        "votes": {str(others[0]): "overturn", "director": "overturn"}})
    assert r.status_code == 422 and "at least 2 members" in r.json()["message"]
    body = await _post(live, f"{base}/appeals/1/decision", {"votes": {
        str(others[0]): "overturn", str(others[2]): "overturn", "director": "uphold"}})
    assert body["done"] == [{"appeal": 1, "decision": "overturned"}]  # 2-1, one member away
