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


# ------------------------------------------------------ markers, given by what a test uses
# so that a developer runs one kind alone or leaves it out:
# ``pytest -m "not browser and not cluster"``, ``pytest -m postgres``.

#: Fixtures and module names that say what a test needs.
_BROWSER_FIXTURES = frozenset({"browser", "pages", "page", "phone_page"})


def pytest_configure(config: pytest.Config) -> None:
    for name, what in (("browser", "drives Debian's chromium through Playwright"),
                       ("postgres", "runs against the PostgreSQL of BGCLOCK_TEST_POSTGRES"),
                       ("cluster", "runs several `bgclock serve --cluster` processes (Redis)"),
                       ("slow", "takes more than a few seconds (a storm, a long search, a "
                                "bench driven as a test)")):
        config.addinivalue_line("markers", f"{name}: {what}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        module = item.module.__name__ if getattr(item, "module", None) else ""
        if fixtures & _BROWSER_FIXTURES or ".web" in module or "test_web_" in module:
            item.add_marker(pytest.mark.browser)
        if "postgres" in item.name or "cluster" in module:
            item.add_marker(pytest.mark.postgres)
        if "cluster" in module:
            item.add_marker(pytest.mark.cluster)
        if "bench" in module or "storm" in item.name or "long_search" in item.name:
            item.add_marker(pytest.mark.slow)
