"""The browser clock engine's speed under node (and, with --chromium, its
start-up on a phone-like Chromium: 4x CPU throttling).

    python -m bench.engine_js [--events 10000] [--chromium]

Prints the JS engine's commands/s (apply, state read after each) and the
replay time of a log of accepted events (a long match of hits, doubles,
stops and games), the Python core's figures beside them; with --chromium,
the time to import the engine module and replay the log in Chromium at 4x
CPU throttling (CDP Emulation.setCPUThrottlingRate) and the JS heap used.
Figures, not assertions: speed never goes in the tests.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any

from bgclock.core import Event, Match

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bgclock" / "web" / "static" / "engine" / "index.js"
RULES = "usbgf-2007-bronstein"
MATCH: dict[str, Any] = {"length": 999, "clock": {"reserve_ms": 10**9}}

NODE_BENCH = """
import { Match, replay } from %(engine)s;
import { readFileSync } from "node:fs";
const { rules, match, events } = JSON.parse(readFileSync(0, "utf-8"));
const best = (f, n) => {
  let b = Infinity;
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint(); f();
    b = Math.min(b, Number(process.hrtime.bigint() - t) / 1e6);
  }
  return b;
};
const replayMs = best(() => replay(events, rules, match), 7);
const applyMs = best(() => { const m = Match.create(rules, match);
  for (const e of events) { m.apply(e); m.state(); } }, 7);
console.log(JSON.stringify({ replayMs, applyMs }));
"""


def make_log(n: int, seed: int = 1) -> list[dict[str, Any]]:
    """``n`` accepted events of one long match (checked on the Python core)."""
    rng = random.Random(seed)
    m = Match.new(RULES, **MATCH)
    log: list[dict[str, Any]] = []
    t = 0

    def add(ev: dict[str, Any]) -> None:
        ev["at_ms"] = t
        m.apply(Event.from_dict(ev))
        log.append(ev)

    while len(log) < n:
        st = m.state()
        t += rng.randint(200, 20_000)
        if st.phase in ("setup", "between_games"):
            add({"do": "opening_roll", "dice": rng.choice(([6, 1], [2, 5]))})
        elif st.phase == "stopped":
            add({"do": "resume"})
        elif st.double_offered_by is not None:
            add({"do": "take", "side": "B" if st.double_offered_by == "A" else "A"})
        elif st.phase == "match_over":
            m = Match.new(RULES, **MATCH)  # the log restarts: keep replaying one match
            log.clear()
            t = 0
        else:
            r = rng.random()
            side = st.on_turn
            if r < 0.02 and not st.crawford and st.cube_value < 4 and st.cube_owner in (None, side):
                add({"do": "double", "side": side})
            elif r < 0.04:
                add({"do": "stop", "side": side, "reason": "other"})
            elif r < 0.05:
                add({"do": "game_over", "winner": rng.choice("AB"), "result": "single"})
            else:
                add({"do": "hit", "side": side})
    return log


def node_figures(log: list[dict[str, Any]]) -> dict[str, float]:
    code = NODE_BENCH % {"engine": json.dumps(ENGINE.as_uri())}
    out = subprocess.run(["node", "--input-type=module", "-e", code], check=True, text=True,
                         capture_output=True,
                         input=json.dumps({"rules": RULES, "match": MATCH, "events": log}))
    figures: dict[str, float] = json.loads(out.stdout)
    return figures


def python_figures(log: list[dict[str, Any]]) -> float:
    events = [Event.from_dict(e) for e in log]
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        m = Match.new(RULES, **MATCH)
        for e in events:
            m.apply(e)
            m.state()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def chromium_figures(log: list[dict[str, Any]]) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from bench.web_kit import launch_chromium
    from bgclock.server.render.pages import STATIC_DIR

    origin = "http://engine.test"

    def serve(route: Any) -> None:
        path = route.request.url.removeprefix(origin)
        if path == "/":
            route.fulfill(status=200, content_type="text/html",
                          body="<!doctype html><title>b</title>")
        else:
            file = STATIC_DIR / path.removeprefix("/static/")
            route.fulfill(status=200, content_type="text/javascript", body=file.read_text())

    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            cdp.send("Performance.enable")
            page.route(f"{origin}/**", serve)
            page.goto(f"{origin}/")
            result: dict[str, float] = page.evaluate("""async (arg) => {
                const t0 = performance.now();
                const E = await import("/static/engine/index.js");
                const t1 = performance.now();
                const m = E.replay(arg.events, arg.rules, arg.match);
                m.state();
                const t2 = performance.now();
                return {importMs: t1 - t0, replayMs: t2 - t1};
            }""", {"rules": RULES, "match": MATCH, "events": log})
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            result["heapUsedMB"] = metrics["JSHeapUsedSize"] / 2**20
        finally:
            browser.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--chromium", action="store_true")
    args = parser.parse_args()
    log = make_log(args.events)
    n = len(log)
    js = node_figures(log)
    py_ms = python_figures(log)
    print(f"log: {n} accepted events ({RULES}, one match)")
    print(f"node  replay: {js['replayMs']:.1f} ms ({n / js['replayMs'] * 1000:,.0f} events/s)")
    print(f"node  apply + state after each: {js['applyMs']:.1f} ms "
          f"({n / js['applyMs'] * 1000:,.0f} commands/s)")
    print(f"python apply + state after each: {py_ms:.1f} ms ({n / py_ms * 1000:,.0f} commands/s)")
    if args.chromium:
        ch = chromium_figures(log)
        print(f"chromium 4x throttled: import {ch['importMs']:.1f} ms, "
              f"replay {ch['replayMs']:.1f} ms, JS heap {ch['heapUsedMB']:.1f} MB")


if __name__ == "__main__":
    main()
