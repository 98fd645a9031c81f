"""``bench/dashboard.py``, a short run (4 tables, 1 s measured): the bench
drives the server as shipped and the dashboard in chromium end to end, not
how fast it is.  The page takes in its tables' updates (one press a second
each) and the DevTools metrics are read; the figures are never asserted
against a bound."""

from __future__ import annotations

import asyncio

import pytest

from bench.web_kit import CHROMIUM

pytest.importorskip("playwright.async_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


def test_the_dashboard_bench_runs_against_the_server_as_shipped() -> None:
    from bench.dashboard import METRICS, measure

    row = asyncio.run(measure(4, duration=1.0, warmup=0.5, device_procs=1))
    assert row["tables"] == 4
    assert row["updates_s"] > 0  # the page took in the devices' presses
    for name in METRICS:
        share, per_update = row[name]
        assert share >= 0 and per_update >= 0
    assert row["TaskDuration"][0] > 0  # the page's main thread did work meanwhile
