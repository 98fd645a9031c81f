"""``bench/press_path.py`` stays runnable against the server as shipped: a
short run on each store decides, commits and acknowledges every press."""

from __future__ import annotations

import asyncio

import pytest

from bench.press_path import run
from tests._server_kit import POSTGRES


@pytest.mark.parametrize("store", ["none", "hop", "sqlite", pytest.param(
    "postgres", marks=pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"))])
def test_a_short_press_path_run(store: str) -> None:
    kind = POSTGRES if store == "postgres" else store
    assert kind is not None
    row = asyncio.run(run(kind, 20))
    assert row["presses"] == 20 and row["cpu_us"] > 0
    # each press: its update and its ack to the device, its update to the director
    assert row["messages"] >= 3 * 20
