"""The table page's first clock figure on a poor link, and a reload with the
server down (issue 33 §4).

A phone-sized page (360x640) opens a new table's link at a venue's insecure
name (``http://tables.lan:PORT``, Chromium's resolver mapping it to this
machine) on Chromium's "Slow 3G" (DevTools' preset: 2,000 ms latency per
request, 50,000 bytes a second each way, ``Network.emulateNetworkConditions``)
with the browser's cache disabled: a first visit.  The figure is navigation
start -> the first clock figure (a reserve that shows digits instead of the
page's "–:––" placeholder), with the HTTP requests the page made, beside the
6 s floor, for each way of loading the page's script (``delivered_as``).

Then a reload with the server killed, on a page that was open before
(``bgclock serve`` in a process of its own):

- ``refused``: its port refuses connections;
- ``silent``: the port still takes connections but nothing answers (a
  server machine that froze, a venue router that swallows the packets);

over TLS (``https://tables.lan``, a self-signed certificate the browser
accepts: the service worker registers) and over ``http://tables.lan`` (an
insecure origin: no service worker).  The figure is the reload's start ->
the first clock figure, or what the browser showed instead.

    python bench/first_clock.py [--runs 3] [--skip-reload]
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.web_kit import CHROMIUM, LiveServer, free_port, running_server  # noqa: E402
from bgclock.server.render import modules  # noqa: E402
from bgclock.server.render.modules import entry_delivery, import_graph  # noqa: E402
from bgclock.server.render.pages import STATIC_DIR  # noqa: E402

#: DevTools' "Slow 3G": 400 ms x 5 latency, 500 kbit/s x 0.8 each way.
SLOW_3G: dict[str, Any] = {"offline": False, "latency": 2000, "downloadThroughput": 50_000,
                           "uploadThroughput": 50_000, "connectionType": "cellular3g"}
#: Issue 33 §4: the first clock figure within 6 s of opening the link.
FLOOR_S = 6.0
#: The insecure name the venue's phones use, mapped to this machine.
LAN_NAME = "tables.lan"
#: Marks the first clock figure (DevTools runs it before the page's scripts,
#: outside the page's Content-Security-Policy).
MARK_FIRST_FIGURE = """
(() => {
  const seen = () => [...document.querySelectorAll('.reserve')]
    .some((e) => /\\d/.test(e.textContent || ''));
  const watch = new MutationObserver(() => {
    if (seen()) { performance.mark('first-figure'); watch.disconnect(); }
  });
  watch.observe(document, { subtree: true, childList: true, characterData: true });
})();
"""
FIRST_FIGURE = "(performance.getEntriesByName('first-figure')[0] || {}).startTime"
SHOWS_FIGURE = ("[...document.querySelectorAll('.reserve')]"
                ".some((e) => /\\d/.test(e.textContent || ''))")


def launch(playwright: Any) -> Any:
    """Debian's chromium, ``tables.lan`` resolving to this machine (and its
    self-signed certificate accepted, as a venue's phones are told to)."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=["--no-sandbox", f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
              "--ignore-certificate-errors"])


@contextlib.contextmanager
def delivered_as(delivery: str) -> Iterator[None]:
    """The table page's script as ``delivery`` says: ``modules`` (the entry
    alone, as before issue 33), ``preload`` (the entry and a modulepreload
    hint per module), ``bundle`` (what the server does: its bundle when
    current)."""
    graph = import_graph(STATIC_DIR, "table/main.js")
    fixed = {"modules": ("table/main.js", ()), "preload": ("table/main.js", graph)}
    if delivery == "bundle":
        script, _ = entry_delivery(STATIC_DIR, "table/main.js")
        assert script != "table/main.js", \
            "no current bundle: python -m bgclock.server.render.bundle"
        yield
        return
    with mock.patch.object(modules, "entry_delivery", lambda folder, entry: fixed[delivery]):
        yield


def first_open(browser: Any, url: str) -> dict[str, Any]:
    """A first visit on Slow 3G: the first clock figure and the requests made."""
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, service_workers="block")
    page = ctx.new_page()
    page.add_init_script(MARK_FIRST_FIGURE)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    page.goto(url, wait_until="commit", timeout=120_000)
    deadline = time.monotonic() + 120
    while page.evaluate(FIRST_FIGURE) is None:
        if time.monotonic() > deadline:
            raise AssertionError("no clock figure within 120 s")
        time.sleep(0.05)
    figure_ms = float(page.evaluate(FIRST_FIGURE))
    ctx.close()
    return {"figure_s": figure_ms / 1000, "requests": len(requests)}


@contextlib.contextmanager
def silent_port(port: int) -> Iterator[None]:
    """``port`` takes connections (the kernel's backlog) and answers nothing."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(64)
        yield


def reload_down(browser: Any, secure: bool, how: str, limit_s: float) -> str:
    """Open a table's page on ``bgclock serve`` (over TLS when ``secure``),
    kill the server, reload: what shows, and when."""
    from tests._serve_proc import start
    from tests.test_web_tls import TlsLive, self_signed

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--db", f"{tmp}/b.db", "--port", str(port), "--allow-host", LAN_NAME]
        if secure:
            certfile, keyfile = self_signed(Path(tmp))
            args += ["--certfile", str(certfile), "--keyfile", str(keyfile)]
        serving = start(args)
        scheme = "https" if secure else "http"
        kind = TlsLive if secure else LiveServer
        live = kind(url=f"{scheme}://127.0.0.1:{port}", key=serving.key)
        url = live.table_url(live.table(), f"{scheme}://{LAN_NAME}:{port}")
        ctx = browser.new_context(viewport={"width": 360, "height": 640})
        page = ctx.new_page()
        page.goto(url)
        deadline = time.monotonic() + 30
        while not page.evaluate(SHOWS_FIGURE + " && window.__bgclock.app.worker !== 'pending'"):
            if time.monotonic() > deadline:
                raise AssertionError("the page did not settle within 30 s")
            time.sleep(0.05)
        worker = str(page.evaluate("window.__bgclock.app.worker"))
        serving.kill9()
    # the server is gone: its port refuses, or takes connections and stays silent
    with silent_port(port) if how == "silent" else contextlib.nullcontext():
        start_s = time.monotonic()
        try:
            page.reload(wait_until="commit", timeout=limit_s * 1000)
        except Exception as e:  # noqa: BLE001 -- the browser's error, reported
            took = time.monotonic() - start_s
            ctx.close()
            return f"error page after {took:.1f} s ({str(e).splitlines()[0][:60]}); worker {worker}"
        while time.monotonic() - start_s < limit_s:
            with contextlib.suppress(Exception):
                if page.evaluate(SHOWS_FIGURE):
                    took = time.monotonic() - start_s
                    ctx.close()
                    return f"clock after {took:.2f} s; worker {worker}"
            time.sleep(0.02)
        ctx.close()
        return f"nothing within {limit_s:.0f} s; worker {worker}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-reload", action="store_true")
    parser.add_argument("--reload-limit", type=float, default=45.0,
                        help="seconds a reload may take before it counts as nothing shown")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        with running_server(allow_hosts=[LAN_NAME]) as live:
            base = f"http://{LAN_NAME}:{live.url.rsplit(':', 1)[1]}"
            for delivery in ("modules", "preload", "bundle"):
                with delivered_as(delivery):
                    runs = [first_open(browser, live.table_url(live.table(), base))
                            for _ in range(args.runs)]
                figures = sorted(r["figure_s"] for r in runs)
                each = ", ".join(f"{f:.2f}" for f in figures)
                print(f"first open, Slow 3G, {delivery:>7}: first clock figure median "
                      f"{statistics.median(figures):.2f} s (runs {each}), "
                      f"{runs[0]['requests']} requests; floor {FLOOR_S:.0f} s")
        if not args.skip_reload:
            for secure in (True, False):
                for how in ("refused", "silent"):
                    origin = f"{'https' if secure else 'http'}://{LAN_NAME}"
                    print(f"reload, server killed ({how}), {origin}: "
                          f"{reload_down(browser, secure, how, args.reload_limit)}")
        browser.close()


if __name__ == "__main__":
    main()
