"""The browser tests' pages, each in a browser context of its own (a device
of its own); their fixtures (``live``, ``browser``, ``pages``) are in
``tests/conftest.py``."""

from __future__ import annotations

import json
import time
from typing import Any

PHONE = {"width": 412, "height": 915}


def settle(page: Any) -> None:
    """Until a tap may land where a table page's controls just changed: the
    page swallows a second tap at the same spot within 400 ms of such a change
    (a double tap never reaches the control that took the first one's place;
    docs/pages.md), so a test that taps a confirmation where its opener was
    waits for that, as a player's eyes would."""
    from bench.web_kit import until

    until(page, "!window.__bgclock || !(performance.now() - __bgclock.app.layoutAt < 400)", 3000)


def pick(page: Any, picker: str, tid: int | str, drawn: str) -> None:
    """Pick tournament ``tid`` with a screen's ``picker`` and wait until the
    screen is drawn from that tournament's state (``drawn``, a selector of
    what only a drawing from the state holds): until then its fields and
    buttons are those drawn before, and a pick reads the tournament again
    (the same one too).  What was drawn before is marked, and the wait is
    for an unmarked drawing."""
    from bench.web_kit import until

    page.evaluate("(sel) => document.querySelectorAll(sel)"
                  ".forEach((n) => { n.dataset.old = '1'; })", drawn)
    page.select_option(picker, str(tid))
    until(page, f"!!document.querySelector({drawn + ':not([data-old])'!r})", 15000)


def pick_tournament(page: Any, tid: int | str) -> None:
    """Pick tournament ``tid`` on the dashboard's tournament screen (``pick``:
    drawn with its room's link)."""
    pick(page, "#trn-pick", tid, f'#tourney a[href*="/room/{tid}?"]')


def pump_until(page: Any, cond: Any, timeout_s: float = 15.0) -> None:
    """Until ``cond()`` holds, letting the page's events (a request, a route
    to hold, a finished read) reach this thread: each ``evaluate``
    dispatches what Playwright received meanwhile."""
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("not true in time")
        page.evaluate("1")


def until_api(check: Any, timeout_s: float = 10.0) -> None:
    """Until ``check()`` (a read of the server's state) holds."""
    end = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)


class Pages:
    """Pages opened by one test, each in its own context (its own device)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        #: What each page's WebSockets received, by ``id(page)``.
        self.frames: dict[int, list[dict[str, Any]]] = {}

    def open(self, url: str, viewport: dict[str, int] | None = None,
             init: str | None = None) -> Any:
        """A page in a context of its own; ``init``: a script run before the
        page's own (``add_init_script``)."""
        ctx = self.browser.new_context(viewport=viewport or PHONE)
        self.contexts.append(ctx)
        if init is not None:
            ctx.add_init_script(init)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # the Content-Security-Policy refusing something the page needs
        page.on("console", lambda m: self.errors.append(m.text)
                if "Content Security Policy" in m.text else None)
        frames = self.frames.setdefault(id(page), [])

        def received(f: Any) -> None:
            # a batch frame (docs/protocol.md) is read as the messages it carries
            m = json.loads(f)
            frames.extend(m["messages"] if m.get("type") == "batch" else [m])

        page.on("websocket", lambda ws: ws.on("framereceived", received))
        page.goto(url)
        return page

    def __call__(self, url: str, viewport: dict[str, int] | None = None) -> Any:
        return self.open(url, viewport)

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
