"""Tournament actions on the server cost the action, not the tournament
(issue 18 §1): a 2,048-row CSV import decided in place in one pass that gives
the event loop back, all or nothing; a refusal midway or a failed write puts
the state back.  On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bgclock.server.tournaments.service import SLICE
from bgclock.store import StoreError
from tests._server_kit import DIRECTOR, anyio_backend, live
from tests.test_server_tourney import _state, _tournament

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

ROWS = 2048


def _csv(n: int, *, last: str | None = None, prefix: str = "Player") -> bytes:
    rows = [f"{prefix} {i},FIBT{i}" for i in range(1, n + 1)]
    if last is not None:
        rows[-1] = last
    return ("name,federation_id\n" + "\n".join(rows) + "\n").encode()


async def _import(live: Any, base: str, body: bytes) -> Any:
    return await live.http.post(f"{base}/players.csv", content=body,
                                headers={**DIRECTOR, "content-type": "text/csv"})


async def test_a_2048_row_import_is_all_or_nothing(live: Any) -> None:
    base = await _tournament(live)
    await live.http.post(f"{base}/players", json={"name": "Early"}, headers=DIRECTOR)
    before = await _state(live, base)
    # the last row repeats a name: refused with its line, nothing changed
    r = await _import(live, base, _csv(ROWS, last="Player 7"))
    assert r.status_code == 422, r.text
    assert f"line {ROWS + 1}" in r.json()["message"] and "Player 7" in r.json()["message"]
    after = await _state(live, base)
    assert after["players"] == before["players"] and after["actions"] == before["actions"]
    r = await _import(live, base, _csv(ROWS))
    assert r.status_code == 201, r.text
    state = r.json()["state"]
    assert len(state["players"]) == ROWS + 1 and state["actions"] == ROWS + 1
    assert state["players"][-1] == {"id": ROWS + 1, "name": f"Player {ROWS}",
                                    "federation_id": f"FIBT{ROWS}", "checked_in": False,
                                    "withdrawn": False, "register_id": None}
    stored = (await live.http.get(f"{base}/actions", headers=DIRECTOR)).json()["actions"]
    assert [a["n"] for a in stored] == list(range(1, ROWS + 2))
    # the fold of the stored log gives the state the server holds
    live.server.tourneys.hubs.clear()
    assert (await _state(live, base))["players"] == state["players"]


async def test_a_failed_write_puts_the_state_back(live: Any) -> None:
    base = await _tournament(live)
    r = await _import(live, base, _csv(10))
    assert r.status_code == 201
    store = live.server.store
    real = store.append_actions

    async def failing(actions: Any) -> None:
        raise StoreError("disk full")

    store.append_actions = failing
    try:
        r = await _import(live, base, _csv(20, prefix="Other"))
        assert r.status_code >= 500
    finally:
        store.append_actions = real
    state = await _state(live, base)
    assert len(state["players"]) == 10 and state["actions"] == 10
    r = await live.http.post(f"{base}/players", json={"name": "Next"}, headers=DIRECTOR)
    assert r.status_code == 201 and r.json()["done"] == [{"player": 11}]


async def test_a_long_import_gives_the_event_loop_back_while_it_is_decided(live: Any) -> None:
    # a ticker counts the loop's turns; the import's actions are all decided
    # before its one write: the ticker must have run between them
    base = await _tournament(live)
    store = live.server.store
    real = store.append_actions
    ticks = 0
    seen: list[int] = []

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    async def counting(actions: Any) -> None:
        seen.append(ticks)
        await real(actions)

    store.append_actions = counting
    task = asyncio.get_running_loop().create_task(ticker())
    try:
        hub = await live.server.tourneys.get(int(base.rsplit("/", 1)[1]))
        start = ticks
        async with hub.lock:
            await live.server.tourneys.act(hub, [{"do": "register", "name": f"R{i}"}
                                                 for i in range(ROWS)])
    finally:
        task.cancel()
        store.append_actions = real
    assert SLICE <= 256  # a slice of register actions stays well under a few ms
    assert seen[0] - start >= ROWS // SLICE - 1
    assert len(hub.state.players) == ROWS
