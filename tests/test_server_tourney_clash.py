"""A clock result that loses the race with a hand result (issue 18; since
issue 32 a hand result closes the table, so the race is a clock that ended
while the director typed): the
director gets an alert naming both results, stored (a ``clash`` action in the
tournament's log), shown until dismissed, never recorded twice.  On SQLite and
PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bgclock.server.tournaments.host import TableResult
from tests._server_kit import DIRECTOR, STORES, Device, anyio_backend, live_server, store_factory
from tests.test_server_tourney import _field, _finish, _post, _state, _tournament, _until

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

SETTINGS = {"rounds": [{"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]}


async def _play(live: Any, table_id: int, winner: str) -> None:
    info = (await live.http.get(f"/api/tables/{table_id}", headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        await _finish(device, winner)


@contextlib.contextmanager
def _held(live: Any) -> Iterator[Callable[[], None]]:
    """The clocks' results held back on their way to the tournament (the
    race: a table's match is over on its clock while the director types
    its result by hand); the callable lets them go."""
    hub = live.server.hub
    told, held = hub.on_over, []
    hub.on_over = lambda table, state: held.append((table, state))

    def release() -> None:
        hub.on_over = told
        for table, state in held:
            told(table, state)

    try:
        yield release
    finally:
        hub.on_over = told


@pytest.mark.parametrize("kind", STORES)
async def test_a_clock_result_that_loses_the_race_with_a_hand_result_is_an_alert(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live)
            await _field(live, base, 4, settings=SETTINGS)
            started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            rounds = started["state"]["main"]["rounds"][0]
            t1, t2 = started["tables"]
            m1, m2 = rounds[t1["match"]], rounds[t2["match"]]
            with _held(live) as release:
                await _play(live, t2["table_id"], "B")
                await _play(live, t1["table_id"], "B")
                # table 2: the hand result and the clock agree (B won): no alert
                await _post(live, f"{base}/results", {"round": 0, "match": t2["match"],
                                                      "winner": m2["b"]})
                # table 1: the director enters A by hand, then the clock says B
                await _post(live, f"{base}/results", {"round": 0, "match": t1["match"],
                                                      "winner": m1["a"], "score": [1, 0]})
                release()

            async def clashes() -> Any:
                return (await _state(live, base))["clashes"]

            found = await _until(clashes)
            assert found == [{
                "clash": 1, "table": 1, "table_id": t1["table_id"],
                "match": f"Main R1 match {t1['match'] + 1}", "players": [m1["a"], m1["b"]],
                "held": {"winner": m1["a"], "source": "hand", "score": [1, 0]},
                "clock": {"winner": m1["b"], "score": [0, 1]},
                "at_ms": found[0]["at_ms"], "dismissed": None}]
            # the held result stands until the director corrects it
            state = await _state(live, base)
            assert state["main"]["rounds"][0][t1["match"]]["winner"] == m1["a"]
        async with live_server(make) as live:  # a restart reports the table again: once
            state = await _state(live, base)
            assert len(state["clashes"]) == 1
            done = await _post(live, f"{base}/clashes/1/dismiss", {"reason": "sheets seen"})
            assert done["state"]["clashes"][0]["dismissed"] == {"reason": "sheets seen"}
            again = await live.http.post(f"{base}/clashes/1/dismiss", json={},
                                         headers=DIRECTOR)
            assert again.status_code == 409, again.text
            missing = await live.http.post(f"{base}/clashes/2/dismiss", json={},
                                           headers=DIRECTOR)
            assert missing.status_code == 422 and "clash" in missing.text
            actions = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()
            assert [a["action"]["do"] for a in actions["actions"]].count("clash") == 1


@pytest.mark.parametrize("kind", STORES)
async def test_a_clash_at_a_swing_table_is_an_alert(kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make, live_server(make) as live:
        base = await _tournament(live)
        csv_text = "".join(f"S{i}\n" for i in range(1, 5))
        r = await live.http.post(f"{base}/players.csv", content=csv_text.encode(),
                                 headers={**DIRECTOR, "content-type": "text/csv"})
        assert r.status_code == 201, r.text
        await _post(live, f"{base}/swing", {"start_vp": 100, "cpp": [20],
                                            "rules": "usbgf-2013-delay"}, status=201)
        paired = await _post(live, f"{base}/swing/rounds", {"seed": 5})
        game = paired["tables"][0]
        await _post(live, f"{base}/swing/results", {"game": game["game"], "winner": game["a"],
                                                    "result": "single", "cube": 1})
        await _play(live, game["table_id"], "B")

        async def clashes() -> Any:
            return (await _state(live, base))["clashes"]

        found = (await _until(clashes))[0]
        assert found["match"] == f"Swing game {game['game'] + 1}"
        assert found["held"] == {"winner": game["a"], "source": "hand"}
        assert found["clock"]["winner"] == game["b"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_result_the_director_corrected_is_no_clash_after_a_restart(
        kind: str, tmp_path: Path) -> None:
    # the clock says B; the director corrects it to A (the sheets said so); a
    # restart reports the finished table again: the correction stands, no alert
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live)
            await _field(live, base, 4, settings=SETTINGS)
            started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            t1 = started["tables"][0]
            m1 = started["state"]["main"]["rounds"][0][t1["match"]]
            await _play(live, t1["table_id"], "B")

            async def decided() -> Any:
                return (await _state(live, base))["main"]["rounds"][0][t1["match"]]["winner"]

            assert await _until(decided) == m1["b"]
            await _post(live, f"{base}/corrections", {"round": 0, "match": t1["match"],
                                                      "winner": m1["a"], "reason": "sheets"})
        async with live_server(make) as live:
            state = await _state(live, base)
            assert state["main"]["rounds"][0][t1["match"]]["winner"] == m1["a"]
            # the restart's report of the table is handled before a new action is
            r = await live.http.post(f"{base}/players", json={"name": "Late"},
                                     headers=DIRECTOR)
            assert r.status_code == 201
            assert (await _state(live, base))["clashes"] == []


async def test_a_table_result_told_again_is_entered_once(tmp_path: Path) -> None:
    """A cluster carries a table's result to its tournament's keeper and
    sends it again until the keeper's receipt comes back, and a takeover
    folds the tournament afresh: a result told twice is one result."""
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _tournament(live)
        await _field(live, base, 4, settings=SETTINGS)
        started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
        t1 = started["tables"][0]
        await _play(live, t1["table_id"], "B")

        async def decided() -> Any:
            return (await _state(live, base))["main"]["rounds"][0][t1["match"]]["winner"]

        await _until(decided)
        server = live.server
        table = server.hub.tables[t1["table_id"]]
        told = TableResult.of(table, table.match.state())
        assert TableResult.from_dict(told.to_dict()) == told  # as the bus carries it
        before = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
        await server.tourneys.enter_result(told)  # a retry
        hub = await server.tourneys.get(int(base.rsplit("/", 1)[1]))
        hub.rebuild()  # a takeover's fresh fold
        await server.tourneys.enter_result(TableResult.from_dict(told.to_dict()))
        after = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
        assert after == before
        assert [a["action"]["do"] for a in after].count("result") == 1
