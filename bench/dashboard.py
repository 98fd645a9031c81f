"""What the director's dashboard costs its browser while the room presses.

``bgclock serve`` (SQLite, as shipped) with N tables, each table's two
devices pressing once a second between them (``bench/_loadgen.py``'s device
workers, the same traffic as ``bench/load.py``), and the dashboard open in
Debian's chromium at 1366x768 watching every table.  Over the measured
window it reads the page's main-thread time from the DevTools protocol
(``Performance.getMetrics``: ``TaskDuration``, ``ScriptDuration``,
``LayoutDuration``, ``RecalcStyleDuration``) and the updates the page took
in (the sum of its tables' seqs), and prints, for each N, the main thread's
share of a core and its milliseconds per update.  The browser runs on the
same machine as the server and the generator, so the figures are a
laptop's order of magnitude, not a phone's.

Run: ``python bench/dashboard.py`` (32, 128 and 256 tables) or
``python bench/dashboard.py --tables 128 --duration 10``.  Never a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import (  # noqa: E402
    KEY,
    create_tables,
    device_specs,
    free_port,
    launch_worker,
    receive,
    send_plan,
    start_clocks,
    start_server,
    stop_workers,
)
from bench.web_kit import CHROMIUM  # noqa: E402

METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


async def metrics(cdp: Any) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")
    return {m["name"]: float(m["value"]) for m in got["metrics"] if m["name"] in METRICS}


async def seqs(page: Any) -> int:
    return int(await page.evaluate(
        "Object.values(__bgclockDesk.app.tables).reduce((n, r) => n + (r.seq || 0), 0)"))


async def measure(n: int, duration: float, warmup: float, device_procs: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    workdir = Path(tempfile.mkdtemp(prefix="bgclock-dash-"))
    port = free_port()
    server = await start_server("bgclock", port, workdir)
    ctx = multiprocessing.get_context("spawn")
    workers: list[tuple[Any, Any]] = []
    try:
        tables = await create_tables(port, n)
        hellos = [(tid, {"type": "hello", "token": tok, "batch": True}) for tid, tok in tables]
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = await browser.new_page(viewport={"width": 1366, "height": 768})
            await page.goto(f"http://127.0.0.1:{port}/director?key={KEY}")
            deadline = time.monotonic() + 60
            while await page.evaluate("document.querySelectorAll('.card').length") < n:
                if time.monotonic() > deadline:
                    raise RuntimeError("the dashboard did not show every table")
                await asyncio.sleep(0.1)
            pipes = [launch_worker(ctx, workers, spec)
                     for spec in device_specs(port, hellos, device_procs)]
            for pipe in pipes:
                await receive(pipe)  # connected
            await start_clocks(workers)
            measure_from, measure_to = send_plan(workers, warmup, duration)
            cdp = await page.context.new_cdp_session(page)
            await cdp.send("Performance.enable")
            await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
            m0, s0, w0 = await metrics(cdp), await seqs(page), time.monotonic()
            await asyncio.sleep(max(0.0, measure_to - time.monotonic()))
            m1, s1, w1 = await metrics(cdp), await seqs(page), time.monotonic()
            for _, pipe in workers:
                await receive(pipe)
            await browser.close()
        span, updates = w1 - w0, max(1, s1 - s0)
        row: dict[str, Any] = {"tables": n, "updates_s": updates / span}
        for name in METRICS:
            spent = m1.get(name, 0.0) - m0.get(name, 0.0)
            row[name] = (100 * spent / span, 1000 * spent / updates)
        return row
    finally:
        stop_workers(workers)
        server.terminate()
        server.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[32, 128, 256])
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--device-procs", type=int, default=1)
    args = ap.parse_args()
    print("| tables | updates/s | main thread (% of a core) | ms per update | script | layout "
          "| style | load avg |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.tables:
        r = asyncio.run(measure(n, args.duration, args.warmup, args.device_procs))
        task, script, layout, style = (r[m] for m in METRICS)
        print(f"| {n} | {r['updates_s']:.0f} | {task[0]:.1f}% | {task[1]:.2f} | "
              f"{script[1]:.2f} | {layout[1]:.2f} | {style[1]:.2f} | {os.getloadavg()[0]:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
