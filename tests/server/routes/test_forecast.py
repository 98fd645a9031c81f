"""The round's forecast on the server (issue 32 §8): the director's
``/forecast`` and the room display's ``room.json``, on SQLite and
PostgreSQL, with a ManualClock."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend
from tests.test_server_tourney_desk import _started, manual

__all__ = ["anyio_backend", "manual"]
pytestmark = pytest.mark.anyio
MIN = 60_000


async def _get(live: Any, path: str) -> dict[str, Any]:
    r = await live.http.get(path, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_each_clock_table_and_the_round_are_forecast(manual: Any) -> None:
    live, clock = manual
    base, started = await _started(live, n=4, clock="required", length=7)
    ids = {t["table_id"] for t in started["tables"]}
    f = await _get(live, f"{base}/forecast")
    now = clock.now_ms()
    assert f["server_ms"] == now and f["unclocked"] == 0
    assert {m["table_id"] for m in f["matches"]} == ids and len(ids) == 2
    assert all(m["end_ms"] > now and m["event"] == "main" for m in f["matches"])
    assert f["end_ms"] == max(m["end_ms"] for m in f["matches"])
    assert f["holding"]["table_id"] == f["matches"][0]["table_id"]  # alike: the first
    clock.advance(30 * MIN)  # nothing scored in half an hour: later
    later = await _get(live, f"{base}/forecast")
    assert later["end_ms"] > f["end_ms"]
    room = (await _get(live, f"{base}/room.json"))["forecast"]
    assert room["end_ms"] == later["end_ms"]
    assert all("table_id" not in m for m in room["matches"])  # the room sees no table ids
    assert room["holding"] == {k: v for k, v in later["holding"].items() if k != "table_id"}


async def test_matches_without_a_clock_are_counted_not_forecast(manual: Any) -> None:
    live, _ = manual
    base, _ = await _started(live, n=4, clock="none")
    f = await _get(live, f"{base}/forecast")
    assert (f["end_ms"], f["holding"], f["matches"], f["unclocked"]) == (None, None, [], 2)
    r = await live.http.get("/api/tournaments/999/forecast", headers=DIRECTOR)
    assert r.status_code == 404
    assert (await live.http.get(f"{base}/forecast")).status_code == 401
