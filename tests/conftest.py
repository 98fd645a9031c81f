"""Shared test fixtures and paths."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from bench.web_kit import LiveServer

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "tests" / "scripts"
SHARED = ROOT.parent / "shared"


# ------------------------------------------------------ the browser tests
# (a module may define its own ``live`` or ``pages``: its own wins)

@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """The tournament server in a thread, one per test module."""
    from bench.web_kit import running_server

    with running_server() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from bench.web_kit import launch_chromium

    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    """Pages each in a context of its own; a page error fails the test."""
    from tests._web import Pages

    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, p.errors
