"""A process short of its fair share asks for tables only once it has been
short for ``BALANCE_PATIENCE`` rounds in a row (``cluster.drain.Balance``):
a moment of imbalance while a round's devices connect moves nothing (it
would only send their phones to reconnect)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson
import pytest

from bgclock.server.cluster.drain import BALANCE_PATIENCE, Balance
from tests._server_kit import anyio_backend

__all__ = ["anyio_backend"]

pytestmark = pytest.mark.anyio


class _Bus:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def node_channel(self, node: str) -> str:
        return f"node:{node}"

    def publish(self, channel: str, data: bytes) -> None:
        self.sent.append((channel, orjson.loads(data)))


class _Holding:
    node = "b"
    draining = False


async def test_only_a_lasting_shortfall_asks_for_tables() -> None:
    bus = _Bus()
    balance = Balance(None, _Holding(), bus, None, print)  # type: ignore[arg-type]
    shares = iter([Counter(a=10, b=0)] * (BALANCE_PATIENCE - 1)  # devices still connecting
                  + [Counter(a=5, b=5)]                           # evened out by itself
                  + [Counter(a=10, b=0)] * BALANCE_PATIENCE)      # b stays empty: it asks

    async def counts() -> Counter[str]:
        return Counter(next(shares))

    balance.counts = counts  # type: ignore[method-assign]
    for _ in range(BALANCE_PATIENCE):
        await balance.round()
    assert bus.sent == []
    for _ in range(BALANCE_PATIENCE - 1):
        await balance.round()
        assert bus.sent == []
    await balance.round()
    assert bus.sent == [("node:a", {"k": "release", "from": "b", "n": 5})]
