"""The browser tests' pages, each in a browser context of its own (a device
of its own); their fixtures (``live``, ``browser``, ``pages``) are in
``tests/conftest.py``."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 412, "height": 915}


class Pages:
    """Pages opened by one test, each in its own context (its own device)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str, viewport: dict[str, int] | None = None) -> Any:
        ctx = self.browser.new_context(viewport=viewport or PHONE)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # the Content-Security-Policy refusing something the page needs
        page.on("console", lambda m: self.errors.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.goto(url)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
