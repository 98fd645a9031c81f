"""A round start cut short (issue 18 §1): the server dies between the writes
of a round start (an injected crash after the Nth write); after a restart, or
a repeated round start, the round is complete (every match bound to a clock
table holding it) and playable: a match played on its clock reaches the draw.
On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bgclock.store import Store, StoreError
from tests._server_kit import DIRECTOR, STORES, Device, anyio_backend, live_server, store_factory
from tests.test_server_tourney import _field, _finish, _post, _state, _tournament, _until

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio

#: The store's writes a round start makes (an action, a table, its next match).
WRITES = ("append_actions", "create_table", "update_table", "next_match")


class Crash:
    """Counts the store's writes once armed; the ``after``+1th and every later
    one fail as if the process had died before them."""

    def __init__(self, store: Store) -> None:
        self.after: int | None = None
        self.writes = 0
        for name in WRITES:
            setattr(store, name, self._wrap(getattr(store, name)))

    def _wrap(self, write: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            if self.after is not None:
                if self.writes >= self.after:
                    raise StoreError("crashed (injected)")
                self.writes += 1
            return await write(*args, **kwargs)

        return wrapped


async def _complete_round(live: Any, base: str, r: int) -> dict[str, Any]:
    """Every match of round ``r`` is at a table whose clock holds it."""
    state = await _state(live, base)
    rounds = state["main"]["rounds"][r]
    ready = [i for i, m in enumerate(rounds) if m["a"] and m["b"] and not m["winner"]]
    at = {m["match"]: m for m in state["matches"] if m["round"] == r}
    assert sorted(at) == ready, (at, ready)
    for i in ready:
        tid = at[i]["table_id"]
        assert tid is not None, at[i]
        info = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()
        assert info["players"] == [rounds[i]["a"], rounds[i]["b"]]
        assert info["seq"] == 0
    # one clock table per number: none made twice
    r = await live.http.get(base, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    ids = sorted(t["id"] for t in r.json()["tables"])
    assert ids == sorted(state["tables"].values()), (ids, state["tables"])
    return state


async def _play(live: Any, base: str, state: dict[str, Any], r: int) -> None:
    """The first match of round ``r`` played on its clock: its winner in the draw."""
    m = next(x for x in state["matches"] if x["round"] == r and not x["winner"])
    info = (await live.http.get(f"/api/tables/{m['table_id']}", headers=DIRECTOR)).json()
    async with Device.open(live.ws_url, {"token": info["token"]}) as device:
        await device.welcome()
        await _finish(device, "A")

    async def decided() -> Any:
        return (await _state(live, base))["main"]["rounds"][r][m["match"]]["winner"]

    assert await _until(decided) == m["a"]


SETTINGS = {"rounds": [{"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]}


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("after", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("how", ["restart", "again"])
async def test_a_round_start_cut_short_is_completed(kind: str, after: int, how: str,
                                                   tmp_path: Path) -> None:
    # the first round of 8 players at 4 new tables: 9 writes (the action,
    # then a table and its binding per match); the crash comes after `after`
    async with store_factory(kind, tmp_path) as make:
        store = make()
        crash = Crash(store)
        async with live_server(lambda: store) as live:
            base = await _tournament(live)
            await _field(live, base, 8, settings=SETTINGS)
            crash.after = after
            await live.http.post(f"{base}/rounds", json={"event": "main", "round": 0},
                                 headers=DIRECTOR)
            assert crash.writes == after
            if how == "again":  # the director starts it again: it is completed
                crash.after = None
                again = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
                assert len(again["tables"]) == 4 and again["not_ready"] == []
                await _play(live, base, await _complete_round(live, base, 0), 0)
                return
        async with live_server(make) as live:  # the restart completes it
            if after == 0:  # nothing was stored: the round starts as usual
                await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            state = await _complete_round(live, base, 0)
            again = await live.http.post(f"{base}/rounds", json={"event": "main", "round": 0},
                                         headers=DIRECTOR)
            assert again.status_code == 409  # nothing left to start or complete
            await _play(live, base, state, 0)


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("how", ["restart", "again"])
async def test_a_next_round_cut_short_gives_the_tables_their_next_match(
        kind: str, how: str, tmp_path: Path) -> None:
    # the final at table 1 again (the table's next match, one write), cut
    # short after its action was stored
    async with store_factory(kind, tmp_path) as make:
        store = make()
        crash = Crash(store)
        async with live_server(lambda: store) as live:
            base = await _tournament(live)
            await _field(live, base, 4, settings=SETTINGS)
            await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            state = await _state(live, base)
            for m in state["matches"]:
                info = (await live.http.get(f"/api/tables/{m['table_id']}",
                                            headers=DIRECTOR)).json()
                async with Device.open(live.ws_url, {"token": info["token"]}) as device:
                    await device.welcome()
                    await _finish(device, "A")

            async def both() -> Any:
                s = await _state(live, base)
                return all(m["winner"] for m in s["main"]["rounds"][0])

            await _until(both)
            crash.after = 1
            await live.http.post(f"{base}/rounds", json={"event": "main", "round": 1,
                                                         "tables": [1]}, headers=DIRECTOR)
            assert crash.writes == 1
            if how == "again":
                crash.after = None
                again = await _post(live, f"{base}/rounds", {"event": "main", "round": 1})
                assert again["completed"] == [1]
                await _play(live, base, await _complete_round(live, base, 1), 1)
                return
        async with live_server(make) as live:
            state = await _complete_round(live, base, 1)
            await _play(live, base, state, 1)


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("after", [1, 2])
async def test_a_swing_round_cut_short_is_completed_at_restart(kind: str, after: int,
                                                             tmp_path: Path) -> None:
    # the Swing's pairing stored (and one table made when after=2), then the crash
    async with store_factory(kind, tmp_path) as make:
        store = make()
        crash = Crash(store)
        async with live_server(lambda: store) as live:
            base = await _tournament(live)
            r = await live.http.post(f"{base}/players.csv", content=b"S1\nS2\nS3\nS4\n",
                                     headers={**DIRECTOR, "content-type": "text/csv"})
            assert r.status_code == 201, r.text
            await _post(live, f"{base}/swing", {"start_vp": 100, "cpp": [20],
                                                "rules": "usbgf-2013-delay"}, status=201)
            crash.after = after
            await live.http.post(f"{base}/swing/rounds", json={"seed": 3}, headers=DIRECTOR)
            assert crash.writes == after
        async with live_server(make) as live:
            state = await _state(live, base)
            games = state["swing"]["games"]
            assert len(games) == 2
            for g in games:
                tid = state["tables"][str(g["table"])]
                info = (await live.http.get(f"/api/tables/{tid}", headers=DIRECTOR)).json()
                assert info["players"] == [g["a"], g["b"]] and info["length"] == 1
            r = await live.http.get(base, headers=DIRECTOR)
            assert len(r.json()["tables"]) == 2  # none made twice


@pytest.mark.parametrize("kind", STORES)
async def test_a_table_the_director_closed_is_left_closed_and_the_server_starts(
        kind: str, tmp_path: Path) -> None:
    async with store_factory(kind, tmp_path) as make:
        async with live_server(make) as live:
            base = await _tournament(live)
            await _field(live, base, 4, settings=SETTINGS)
            started = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            closed = started["tables"][0]["table_id"]
            r = await live.http.post(f"/api/tables/{closed}/close", headers=DIRECTOR)
            assert r.status_code == 200, r.text
            again = await _post(live, f"{base}/rounds", {"event": "main", "round": 0})
            assert again["completed"] == [] and again["not_ready"][0]["error"] == "closed"
        async with live_server(make) as live:  # the restart seats nothing over it
            r = await live.http.get(base, headers=DIRECTOR)
            assert sorted(t["id"] for t in r.json()["tables"]) == sorted(
                t["table_id"] for t in started["tables"])
            state = await _state(live, base)
            assert state["tables"]["1"] == closed
