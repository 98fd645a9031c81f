"""What keeping the table's device state across a reload costs (device-store.js).

For tables with logs of ``--events`` events, a phone-sized page (412x915) on
Chromium with its CPU slowed 4x (DevTools ``Emulation.setCPUThrottlingRate``):

- ``record KB``: the size of the device's record in localStorage;
- ``write ms``: one write of it (``__bgclock.persistNow()``: the page does
  one after each change it draws, coalesced per task), median of 20;
- ``restore ms``: a reload with the server's WebSocket refused, navigation
  start -> the match folded again from the record and shown (no network).

    python bench/table_store.py [--events 0,500,2000]
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

READY = ("!!window.__bgclock && !!__bgclock.app.engine"
         " && __bgclock.app.engine.seq === __bgclock.app.seq")


def measure(browser: Any, url: str) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 412, "height": 915})
    link = {"up": True}

    def gate(ws: Any) -> None:
        if link["up"]:
            ws.connect_to_server()
        else:
            ws.close()

    ctx.route_web_socket("**/ws", gate)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.goto(url)
    until(page, READY + " && __bgclock.conn.offset !== null", 60_000)
    writes = page.evaluate("""() => {
        const out = [];
        for (let i = 0; i < 20; i++) {
          const t = performance.now(); __bgclock.persistNow(); out.push(performance.now() - t);
        }
        return out; }""")
    size = page.evaluate("""() => {
        let n = 0;
        for (let i = 0; i < localStorage.length; i++) {
          const k = localStorage.key(i);
          if (k.startsWith('bgclock.table.')) n += localStorage.getItem(k).length;
        }
        return n; }""")
    link["up"] = False
    page.reload()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    until(page, READY + " && __bgclock.app.restored !== null && !!__bgclock.display()", 60_000)
    restore = page.evaluate("performance.now()")
    ctx.close()
    return {"kb": size / 1024, "write_ms": statistics.median(writes), "restore_ms": restore}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", default="0,500,2000",
                        help="log lengths of the tables (comma-separated)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit("bench/table_store.py needs /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    lengths = [int(x) for x in args.events.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "store.db"
        tables: list[tuple[int, int]] = []
        for n in lengths:
            if n > 0:
                tables.append((n, asyncio.run(seed(["--db", str(db)], n))[1]))
        with running_server(db=db) as live, sync_playwright() as p:
            if 0 in lengths:
                tables.insert(0, (0, int(live.table(players=["Ann", "Bob"], length=7)["id"])))
            browser = launch_chromium(p)
            print(f"the device's record, Chromium {browser.version}, CPU throttled 4x")
            print(f"{'log events':>10} | {'record KB':>9} | {'write ms':>8} | {'restore ms':>10}")
            for n, table_id in tables:
                info = live.api("GET", f"/api/tables/{table_id}")
                url = LiveServer.table_url({"id": table_id, "token": info["token"]}, live.url)
                m = measure(browser, url)
                print(f"{n:>10} | {m['kb']:>9.1f} | {m['write_ms']:>8.2f} | "
                      f"{m['restore_ms']:>10.0f}")
            browser.close()


if __name__ == "__main__":
    main()
