"""Press on one table device -> repaint on the other, in Chromium, on loopback.

Two table pages (two browser contexts: two devices) watch one table; the
players press in turn (a real click on the running half), and each page
records, on the shared epoch time base (performance.timeOrigin + now()),
the instant of each press and of the first frame drawn after each new
server state.  The figure is the other device's first frame with the
press's seq minus the instant of the press: the whole path (page ->
WebSocket -> server -> SQLite commit -> broadcast -> page -> frame).

    python bench/web_latency.py [--presses 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def measure(presses: int = 100) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with running_server() as live, sync_playwright() as p:
        browser = launch_chromium(p)
        table = live.table(players=["Ann", "Bob"], length=25)  # 50 minutes each: no flag
        pages = []
        for _ in range(2):
            ctx = browser.new_context(viewport={"width": 412, "height": 915})
            page = ctx.new_page()
            page.goto(LiveServer.table_url(table, live.url))
            until(page, "window.__bgclock && __bgclock.app.state")
            pages.append(page)
        first, second = pages
        first.click("#center .dice[data-die='A'] .die[data-n='6']")
        first.click("#center .dice[data-die='B'] .die[data-n='1']")
        first.click("#roll-start")
        for page in pages:
            until(page, "__bgclock.app.state.on_turn === 'A'")
        for i in range(presses):
            presser, watcher, side = (first, second, "A") if i % 2 == 0 else (second, first, "B")
            seq = watcher.evaluate("__bgclock.app.seq")
            presser.locator(f"#half-{side} .face").click(position={"x": 14, "y": 14})
            until(watcher,
                f"__bgclock.app.paints.some((p) => p[1] > {seq})", timeout_ms=10_000)
        latencies: list[float] = []
        for presser, watcher in ((first, second), (second, first)):
            data = presser.evaluate("[__bgclock.app.presses, __bgclock.app.confirmed]")
            paints = watcher.evaluate("__bgclock.app.paints")
            pressed, confirmed = data
            for at, cid in pressed:
                seq = confirmed.get(cid)
                if seq is None:
                    continue
                shown = [t for t, s in paints if s is not None and s >= seq]
                if shown:
                    latencies.append(min(shown) - at)
        frames = first.evaluate(
            "new Promise((ok) => { const n = __bgclock.app.frames;"
            " setTimeout(() => ok(__bgclock.app.frames - n), 1000); })")
        browser.close()
    return {
        "presses": len(latencies),
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": max(latencies),
        "mean_ms": statistics.fmean(latencies),
        "frames_per_s": frames,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print("web_latency: /usr/bin/chromium is missing", file=sys.stderr)
        return 2
    r = measure(args.presses)
    print(f"press on one device -> repaint on the other, {r['presses']:.0f} presses, loopback:")
    print(f"  p50 {r['p50_ms']:.1f} ms   p99 {r['p99_ms']:.1f} ms   max {r['max_ms']:.1f} ms"
          f"   mean {r['mean_ms']:.1f} ms")
    print(f"  the running clock is redrawn {r['frames_per_s']:.0f} times a second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
