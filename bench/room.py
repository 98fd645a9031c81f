"""The room display's update latency when 256 tables finish within a minute.

    python bench/room.py                 # 256 tables, finishing over 60 s
    python bench/room.py --tables 64 --seconds 20 --displays 50

A server on loopback (SQLite, in a thread of this process, as the web tests
run it) holds a 512-player Main whose first round is at 256 clock tables
(one-point matches).  One device per table says hello and makes the opening
roll; then the tables end their matches (``game_over``) one after another,
evenly over ``--seconds``.  Each match's result goes from the clock into the
draw (``on_table_over``) and reaches the room display through ``room.json``.

``--displays`` pushed displays (``room.stream``, as room/stream.js listens) and two
readers of ``room.json`` run meanwhile:

- the *pushed displays*: the first decodes every view it receives; a
  result's latency is from its ``game_over`` ack to the arrival of the first
  view showing its winner.  The others only note when each view arrives (the
  same bytes for all): the spread is how much later the last display had it
  than the first, and every display must count the same views (one view
  built per change burst, whatever the number of displays);

- the *display*: every 2 s, like room/stream.js; a result's display latency is from
  its ``game_over`` ack to the end of the first read showing its winner;
- a *probe*: every 50 ms; its latency is the server's part (the result
  entered into the draw and served), with at most 50 ms of sampling.

Printed: both latencies (median, 95th percentile, max), the time to serve
``room.json`` (median, max, its size) while the tables finish.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
import websockets  # noqa: E402

from bench.web_kit import KEY, running_server  # noqa: E402

HEADERS = {"Authorization": f"Bearer {KEY}"}
DISPLAY_POLL_S = 2.0
PROBE_POLL_S = 0.05


async def pushed(url: str, path: str, index: int, seen: dict[str, float],
                 arrivals: list[list[float]], stop: asyncio.Event) -> None:
    """One display on ``room.stream``: the arrival of every view (and, for
    display 0, the first view showing each winner)."""
    mine: list[float] = []
    arrivals[index] = mine
    async with httpx.AsyncClient(base_url=url, timeout=None) as http, http.stream(
            "GET", path) as r:
        assert r.status_code == 200, r.status_code
        lines = r.aiter_lines()

        async def read() -> None:
            async for line in lines:
                if not line.startswith("data: "):
                    continue
                t = time.perf_counter()
                mine.append(t)
                if index == 0:
                    for m in json.loads(line[6:])["matches"]:
                        key = f"{m['event']}:{m['round']}:{m['match']}"
                        if m["winner"] and key not in seen:
                            seen[key] = t

        reading = asyncio.create_task(read())
        await stop.wait()
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def setup(url: str, tables: int) -> tuple[str, list[dict[str, Any]]]:
    async with httpx.AsyncClient(base_url=url, headers=HEADERS, timeout=120) as http:
        r = await http.post("/api/tournaments", json={"name": "Bench open"})
        base = f"/api/tournaments/{r.json()['id']}"
        await http.post(f"{base}/settings", json={"seed": 1, "rounds": [
            {"length": 1, "rules": "usbgf-2013-delay", "clock": "required"}]})
        players = "".join(f"Player {i}\n" for i in range(1, 2 * tables + 1))
        await http.post(f"{base}/players.csv", content=players.encode(),
                        headers={"content-type": "text/csv"})
        for pid in range(1, 2 * tables + 1):
            await http.post(f"{base}/players/{pid}/check-in", json={})
        await http.post(f"{base}/draw", json={})
        t0 = time.perf_counter()
        started = (await http.post(f"{base}/rounds", json={"round": 0})).json()
        print(f"{tables} tables set up by the round's start in "
              f"{time.perf_counter() - t0:.1f} s")
        room_url = started["state"]["room_url"]
        token = parse_qs(urlparse(room_url).query)["token"][0]
        return f"{base}/room.json?token={token}", started["tables"]


async def stream_open(url: str, path: str, arrivals: list[list[float]], n: int) -> None:
    """Wait until every display has its first view."""
    while sum(1 for a in arrivals if a) < n:
        await asyncio.sleep(0.05)


async def device(ws_url: str, table: dict[str, Any], at: float,
                 finished: dict[str, float]) -> None:
    token = parse_qs(urlparse(table["url"]).query)["token"][0]
    async with websockets.connect(ws_url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))

        async def until(kind: str, cid: str | None = None) -> dict[str, Any]:
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == kind and (cid is None or msg.get("id") == cid):
                    return dict(msg)
                if msg["type"] == "error" and msg.get("id") == cid:
                    raise RuntimeError(msg)

        await until("snapshot")
        await ws.send(json.dumps({"type": "cmd", "id": "r", "do": "opening_roll",
                                  "dice": [3, 5]}))
        await until("ack", "r")
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        await ws.send(json.dumps({"type": "cmd", "id": "g", "do": "game_over",
                                  "winner": "B", "result": "single"}))
        await until("ack", "g")
        finished[f"{table['event']}:{table['round']}:{table['match']}"] = time.perf_counter()
        await asyncio.sleep(1)


async def reader(url: str, path: str, every: float, seen: dict[str, float],
                 served: list[float], sizes: list[int], stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            r = await http.get(path)
            t1 = time.perf_counter()
            served.append(t1 - t0)
            sizes.append(len(r.content))
            for m in r.json()["matches"]:
                key = f"{m['event']}:{m['round']}:{m['match']}"
                if m["winner"] and key not in seen:
                    seen[key] = t1
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - t0)))


async def run(url: str, tables: int, seconds: float, displays: int) -> None:
    path, started = await setup(url, tables)
    stream_path = path.replace("/room.json?", "/room.stream?")
    arrivals: list[list[float]] = [[] for _ in range(displays)]
    pushed_seen: dict[str, float] = {}
    ws_url = url.replace("http", "ws") + "/ws"
    finished: dict[str, float] = {}
    display: dict[str, float] = {}
    probe: dict[str, float] = {}
    served: list[float] = []
    probe_served: list[float] = []
    sizes: list[int] = []
    stop = asyncio.Event()
    streams = [asyncio.create_task(pushed(url, stream_path, i, pushed_seen, arrivals, stop))
               for i in range(displays)]
    await stream_open(url, stream_path, arrivals, displays)
    start = time.perf_counter() + 5.0  # every device connected and rolled by then
    devices = [asyncio.create_task(device(ws_url, t, start + seconds * k / len(started),
                                          finished))
               for k, t in enumerate(started)]
    readers = [
        asyncio.create_task(reader(url, path, DISPLAY_POLL_S, display, served, sizes, stop)),
        asyncio.create_task(reader(url, path, PROBE_POLL_S, probe, probe_served, [], stop)),
    ]
    await asyncio.gather(*devices)
    await asyncio.sleep(DISPLAY_POLL_S + 1)
    stop.set()
    await asyncio.gather(*readers, *streams)
    lat_display = [display[k] - t for k, t in finished.items() if k in display]
    lat_probe = [probe[k] - t for k, t in finished.items() if k in probe]
    missing = len(finished) - len(lat_display)

    def row(name: str, xs: list[float]) -> str:
        return (f"{name:<40} median {statistics.median(xs) * 1000:7.0f} ms   "
                f"p95 {pct(xs, 95) * 1000:7.0f} ms   max {max(xs) * 1000:7.0f} ms")

    print(f"{len(finished)} matches ended over {seconds:.0f} s "
          f"({len(finished) / seconds:.1f} a second); {missing} never seen")
    if displays:
        lat_pushed = [pushed_seen[k] - t for k, t in finished.items() if k in pushed_seen]
        views = [len(a) for a in arrivals]
        n = min(views)
        spread = [max(a[i] for a in arrivals) - min(a[i] for a in arrivals) for i in range(n)]
        print(f"{displays} pushed displays: {views[0]} views each "
              f"(min {n}, max {max(views)}) for {len(finished)} results; "
              f"{len(finished) - len(lat_pushed)} results never seen")
        print(row("pushed display (room.stream)", lat_pushed))
        print(row("last display after the first", spread))
    print(row("display (room.json every 2 s)", lat_display))
    print(row("server's part (probe every 50 ms)", lat_probe))
    print(row("room.json served (display's reads)", served))
    print(row("room.json served (probe's reads)", probe_served))
    print(f"room.json size: {max(sizes) / 1024:.0f} KiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--displays", type=int, default=20,
                        help="pushed room displays (room.stream), 0 for none")
    args = parser.parse_args()
    # a room of 256 tables connects at once: no per-address handshake limit here
    with running_server(handshake_rate=None) as live:
        asyncio.run(run(live.url, args.tables, args.seconds, args.displays))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
