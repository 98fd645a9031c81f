"""The players' register at its bounds: a CSV of 2,048 players imported (new,
then again as updates), the rating list printed, and a 128-player tournament
of register players played out and closed (its matches rated).

Run: ``python -m bench.register [--db postgresql://...]`` (default: SQLite in
a temporary folder).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import tempfile
import time
from typing import Any

import httpx

from tests._server_kit import DIRECTOR, live_server

ROWS = 2048
PLAYERS = 128


async def _run(db: str | None) -> None:
    from bgclock.store.connect import open_store

    schema = f"bgclock_bench_{secrets.token_hex(4)}"
    with tempfile.TemporaryDirectory() as folder:
        def make() -> Any:
            if db is None:
                return open_store(os.path.join(folder, "bgclock.db"))
            return open_store(db, schema=schema)

        try:
            async with live_server(make) as live:
                await _measure(live.http)
        finally:
            if db is not None:
                import asyncpg  # type: ignore[import-untyped]

                conn = await asyncpg.connect(db)
                await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                await conn.close()


async def _timed(what: str, call: Any) -> Any:
    t0 = time.perf_counter()
    r = await call
    assert r.status_code in (200, 201), r.text
    print(f"{what}: {(time.perf_counter() - t0) * 1000:.0f} ms")
    return r


async def _measure(http: httpx.AsyncClient) -> None:
    csv_headers = {**DIRECTOR, "content-type": "text/csv"}
    text = "name,federation_id,rating,experience\n" + "".join(
        f"Player {i},F{i},{1400 + i % 300},{i % 500}\n" for i in range(ROWS))
    await _timed(f"import {ROWS} new players", http.post(
        "/api/register.csv", content=text.encode(), headers=csv_headers))
    await _timed(f"import the {ROWS} again (updates)", http.post(
        "/api/register.csv", content=text.encode(), headers=csv_headers))
    r = await _timed(f"the A4 rating list of {ROWS}", http.get(
        "/api/register/ratings.html?lang=it", headers=DIRECTOR))
    print(f"  ({len(r.content)} bytes)")
    t = (await http.post("/api/tournaments", json={"name": "Bench"}, headers=DIRECTOR)).json()
    base = f"/api/tournaments/{t['id']}"
    await http.post(f"{base}/settings", json={"rounds": [{"length": 7, "clock": "none"}]},
                    headers=DIRECTOR)
    found = (await http.get(f"/api/register?limit={PLAYERS}", headers=DIRECTOR)).json()
    for k, e in enumerate(found["entries"], start=1):
        await http.post(f"{base}/players", json={"name": e["name"], "register_id": e["id"]},
                        headers=DIRECTOR)
        await http.post(f"{base}/players/{k}/check-in", headers=DIRECTOR)
    await http.post(f"{base}/draw", json={"seed": 1}, headers=DIRECTOR)
    played = 0
    while True:
        state = (await http.get(f"{base}/state", headers=DIRECTOR)).json()
        todo = [(event, r, i, m) for event in ("main", "consolation") if state.get(event)
                for r, ms in enumerate(state[event]["rounds"]) for i, m in enumerate(ms)
                if m["a"] and m["b"] and not m["winner"]]
        if not todo:
            break
        for event, r, i, m in todo:
            await http.post(f"{base}/results", json={"event": event, "round": r, "match": i,
                                                     "winner": m["a"]}, headers=DIRECTOR)
            played += 1
    r = await _timed(f"close a {PLAYERS}-player tournament, {played} matches played",
                     http.post(f"{base}/close", headers=DIRECTOR))
    print(f"  (rated: {r.json()['rated']['matches']} matches)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default=None, help="postgresql://... (default: SQLite)")
    args = parser.parse_args()
    asyncio.run(_run(args.db))


if __name__ == "__main__":
    main()
