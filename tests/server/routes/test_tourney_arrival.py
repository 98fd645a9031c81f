"""A late arrival seats or queues the match at once (issue 32 §5,
docs/tournament.md "The evening's flows"): once the first round has started
at tables, the match the arrival completes is seated at a free table, or, in
a room whose tables are all taken, waits for the next one; before the first
round starts the arrival only takes its slot (the round start seats it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import anyio_backend, live_server, store_factory
from tests.test_server_tourney import _field, _post, _state, _tournament

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
NO_CLOCK = {"rounds": [{"length": 3, "rules": "it-tournament", "clock": "none"}],
            "late_slots": 3}


def _key(state: dict[str, Any], name: str) -> tuple[int, dict[str, Any]]:
    for i, m in enumerate(state["main"]["rounds"][0]):
        if name in (m["a"], m["b"]):
            return i, m
    raise AssertionError(name)


async def _field_and_late(live: Any) -> str:
    """Five players drawn in eight slots, and a sixth who comes late."""
    base = await _tournament(live, "Campionato")
    await _field(live, base, 5, settings=NO_CLOCK)
    await _post(live, f"{base}/players", {"name": "Late"}, status=201)
    return base


async def test_an_arrival_after_the_round_started_is_seated_at_once(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _field_and_late(live)
        started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
        taken = {t["table"] for t in started["tables"]}
        body = await _post(live, f"{base}/late/arrive", {"player": 6})
        i, m = _key(body["state"], "Late")
        assert m["a"] and m["b"]  # the late slot faced a present player
        arrival = body["arrival"]
        assert (arrival["event"], arrival["round"], arrival["match"]) == ("main", 0, i)
        assert arrival["table"] is not None and arrival["table"] not in taken
        assert not arrival["waiting"]
        seated = [x for x in body["state"]["matches"] if x["round"] == 0 and x["match"] == i]
        assert [x["table"] for x in seated] == [arrival["table"]]


async def test_an_arrival_before_the_round_started_only_takes_its_slot(
        tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _field_and_late(live)
        body = await _post(live, f"{base}/late/arrive", {"player": 6})
        assert "arrival" not in body and body["state"]["matches"] == []
        started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
        i, _m = _key(started["state"], "Late")
        assert i in {t["match"] for t in started["tables"]}


async def test_an_arrival_in_a_full_room_waits_for_the_next_free_table(
        tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _field_and_late(live)
        ready = [i for i, m in enumerate((await _state(live, base))["main"]["rounds"][0])
                 if m["a"] and m["b"]]
        await _post(live, f"{base}/flight", {"room": "Sala", "tables": len(ready)})
        started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
        assert len(started["tables"]) == len(ready)
        body = await _post(live, f"{base}/late/arrive", {"player": 6})
        i, _m = _key(body["state"], "Late")
        assert body["arrival"]["table"] is None and body["arrival"]["waiting"]
        assert i not in {x["match"] for x in body["state"]["matches"] if x["round"] == 0}
