"""Check-in at the desk, "all present" (issue 32 §5): several players
checked in by one composite action, all or none; a bad body names the field
and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live_server, store_factory
from tests.test_server_tourney import _post, _state, _tournament

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


async def test_all_present_checks_in_every_player_named_or_none(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _tournament(live, "Campionato")
        for name in ("Anna", "Bruno", "Carla"):
            await _post(live, f"{base}/players", {"name": name}, status=201)
        for body, field in (({"players": []}, "body.players"),
                            ({"players": [1, 1]}, "body.players"),
                            ({"players": [0]}, "body.players[0]"),
                            ({}, "players")):
            r = await live.http.post(f"{base}/players/check-in", json=body, headers=DIRECTOR)
            assert r.status_code == 422 and field in r.json()["message"], (body, r.text)
        r = await live.http.post(f"{base}/players/check-in", json={"players": [1, 9]},
                                 headers=DIRECTOR)
        assert r.status_code in (404, 409, 422), r.text
        assert not any(p["checked_in"] for p in (await _state(live, base))["players"])
        body = await _post(live, f"{base}/players/check-in", {"players": [1, 3]})
        assert [p["checked_in"] for p in body["state"]["players"]] == [True, False, True]
        actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
        assert [a["action"]["do"] for a in actions][-2:] == ["check_in", "check_in"]
