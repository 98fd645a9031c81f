"""The table page's start-up time and memory on Chromium with 4x CPU throttling.

A phone-sized page (412x915) opens a table's link; Chromium's CPU is slowed
4x (DevTools ``Emulation.setCPUThrottlingRate``, the "mid-range phone"
preset); the figures are the median of ``--runs`` fresh page loads each:

- ``state``: navigation start -> the first state drawn (the server's snapshot);
- ``engine``: navigation start -> the device's own match ready (the table's
  log loaded through ``GET /api/tables/N/events`` and folded by the browser
  engine), for a new table and tables with long logs;
- ``heap``: the JavaScript heap in use once the engine is ready
  (``Performance.getMetrics`` JSHeapUsedSize), and DOM nodes.

    python bench/table_startup.py [--runs 5] [--events 0,500,5000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.attack import seed  # noqa: E402
from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until  # noqa: E402


def load_once(browser: Any, url: str) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 412, "height": 915})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Performance.enable")
    page.goto(url)
    until(page, "!!(window.__bgclock && __bgclock.app.state)", 30_000)
    state_ms = page.evaluate("performance.now()")
    try:
        until(page, "!!__bgclock.app.engine"
                    " && __bgclock.app.engine.seq === __bgclock.app.seq", 60_000)
    except AssertionError:
        raise AssertionError(page.evaluate(
            "JSON.stringify([__bgclock.app.seq, __bgclock.app.engine && __bgclock.app.engine.seq,"
            " __bgclock.app.engineError, __bgclock.app.fetching])")) from None
    engine_ms = page.evaluate("performance.now()")
    page.wait_for_timeout(300)  # a few frames drawn from the engine
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    ctx.close()
    return {"state_ms": state_ms, "engine_ms": engine_ms,
            "heap_mb": metrics["JSHeapUsedSize"] / 2**20, "nodes": metrics["Nodes"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--events", default="0,500,5000",
                        help="log lengths of the tables opened (comma-separated)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit("bench/table_startup.py needs /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    lengths = [int(x) for x in args.events.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "startup.db"
        tables: list[tuple[int, int]] = []
        for n in lengths:
            if n > 0:
                tables.append((n, asyncio.run(seed(["--db", str(db)], n))[1]))
        with running_server(db=db) as live, sync_playwright() as p:
            if 0 in lengths:
                tables.insert(0, (0, int(live.table(players=["Ann", "Bob"], length=7)["id"])))
            browser = launch_chromium(p)
            print(f"table page start-up, Chromium {browser.version}, CPU throttled 4x, "
                  f"median of {args.runs} loads")
            print(f"{'log events':>10} | {'state ms':>8} | {'engine ms':>9} | {'heap MB':>7} | "
                  f"{'DOM nodes':>9}")
            for n, table_id in tables:
                info = live.api("GET", f"/api/tables/{table_id}")
                url = LiveServer.table_url({"id": table_id, "token": info["token"]}, live.url)
                runs = [load_once(browser, url) for _ in range(args.runs)]
                med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"{n:>10} | {med['state_ms']:>8.0f} | {med['engine_ms']:>9.0f} | "
                      f"{med['heap_mb']:>7.1f} | {med['nodes']:>9.0f}")
            browser.close()


if __name__ == "__main__":
    main()
