"""Lag compensation: the pure arithmetic, then through the server on a manual clock."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.server.live.lag import (
    DEFAULT_PARAMS,
    LagParams,
    LagQuota,
    compensate,
    credited_instant,
)
from bgclock.server.live.time import ManualClock
from tests._server_kit import STORES, Device, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]

P = DEFAULT_PARAMS


def test_a_press_is_credited_its_claimed_lag_within_the_quota() -> None:
    quota = LagQuota.new()
    assert quota.quota_ms == P.initial_ms == 1000
    at, credit, after = compensate(quota, 80, arrival_ms=10_000, floor_ms=0)
    assert (at, credit) == (9_920, 80)
    assert after.quota_ms == 1000 - 80 + P.gain_ms


def test_never_more_than_one_second_on_one_press() -> None:
    quota = LagQuota(quota_ms=P.max_ms)
    at, credit, _ = compensate(quota, 5_000, arrival_ms=20_000, floor_ms=0)
    assert credit == P.cap_ms == 1000 and at == 19_000


def test_the_quota_has_a_ceiling() -> None:
    quota = LagQuota.new()
    for _ in range(100):
        _, _, quota = compensate(quota, 0, arrival_ms=1_000, floor_ms=0)
    assert quota.quota_ms == P.max_ms


def test_a_press_never_reaches_back_past_the_last_event() -> None:
    assert credited_instant(arrival_ms=5_000, offered_ms=900, floor_ms=4_700) == (4_700, 300)
    assert credited_instant(arrival_ms=5_000, offered_ms=900, floor_ms=5_000) == (5_000, 0)
    # a clock read late (after a restart) never moves time backwards
    assert credited_instant(arrival_ms=4_000, offered_ms=0, floor_ms=5_000) == (5_000, 0)


def test_an_unused_credit_is_not_charged() -> None:
    quota = LagQuota.new()
    _, credit, after = compensate(quota, 900, arrival_ms=5_000, floor_ms=4_900)
    assert credit == 100 and after.quota_ms == 1000 - 100 + P.gain_ms


def test_spending_more_than_the_quota_is_an_error() -> None:
    with pytest.raises(ValueError):
        LagQuota(quota_ms=10).spend(11)


@given(st.lists(st.integers(0, 60_000), min_size=1, max_size=300))
def test_no_device_gains_more_than_the_quota_allows(claims: list[int]) -> None:
    """Whatever it claims, a device gains at most cap per press and
    initial + gain x (presses - 1) in all."""
    quota = LagQuota.new()
    total = 0
    for i, claim in enumerate(claims):
        _, credit, quota = compensate(quota, claim, arrival_ms=10_000_000 * (i + 1), floor_ms=0)
        assert 0 <= credit <= min(claim, P.cap_ms)
        total += credit
        assert total <= P.initial_ms + P.gain_ms * i
        assert 0 <= quota.quota_ms <= P.max_ms


def _slow_link(presses: int, base_ms: int, jitter_ms: int, spike_every: int,
               spike_ms: int, seed: int, params: LagParams = P) -> int:
    """Total time an honest player on this link loses (ms)."""
    rng = random.Random(seed)
    quota = LagQuota.new(params)
    lost = 0
    t = 0
    for i in range(presses):
        t += rng.randint(2_000, 20_000)  # the press, on the server's time line
        delay = base_ms + rng.randint(-jitter_ms, jitter_ms)
        if spike_every and i % spike_every == spike_every - 1:
            delay = spike_ms
        arrival = t + delay
        at, _, quota = compensate(quota, delay, arrival_ms=arrival, floor_ms=t - 2_000)
        lost += at - t
    return lost


@pytest.mark.parametrize("seed", range(5))
def test_an_honest_slow_link_with_jitter_loses_no_more_than_the_cap(seed: int) -> None:
    # 150 +- 100 ms each way, a 900 ms spike every 25 presses, a long match
    assert _slow_link(600, 150, 100, 25, 900, seed) <= P.cap_ms
    # a rough link near the gain: 200 +- 30 ms, a spike of 1 s every 20 presses
    assert _slow_link(600, 200, 30, 20, 1000, seed) <= P.cap_ms


def test_a_link_slower_than_the_gain_is_compensated_by_the_gain() -> None:
    # 400 ms every press: once the reserve is spent, 250 ms a press are credited
    # (credits = initial + n x gain - the quota left, which ends at one gain)
    lost = _slow_link(100, 400, 0, 0, 0, 1)
    assert lost == 100 * 400 - (P.initial_ms + 100 * P.gain_ms - P.gain_ms)


# ------------------------------------------------------------- through the server


@pytest.fixture(params=STORES)
async def manual(request: Any, tmp_path: Path) -> Any:
    clock = ManualClock()
    async with (
        store_factory(request.param, tmp_path) as make,
        live_server(make, clock=clock, table_rate=(1000, 1000)) as server,
    ):
        yield server, clock


@pytest.mark.anyio
async def test_the_server_credits_an_injected_delay_with_jitter(manual: Any) -> None:
    live, clock = manual
    # standard clocks: every ms on the clock is charged, so a lost ms shows
    table = await live.table(clock={"mode": "standard"})
    created = table["created_ms"]
    rng = random.Random(7)
    lost = 0
    async with Device.open(live.ws_url, {"token": table["token"]}) as device:
        await device.welcome()
        roll = await device.cmd("opening_roll", dice=[6, 1])
        assert roll["lag_credit_ms"] == 0
        side = "A"
        for _ in range(40):
            clock.advance(rng.randint(1_000, 4_000))
            pressed = clock.now_ms() - created
            delay = 180 + rng.randint(-60, 60)
            clock.advance(delay)  # the press travels
            ack = await device.cmd("hit", side=side, lag_ms=delay)
            assert ack["type"] == "ack", ack
            lost += ack["at_ms"] - pressed
            side = "B" if side == "A" else "A"
    assert 0 <= lost <= DEFAULT_PARAMS.cap_ms
    assert lost == 0  # this link stays within the gain: fully compensated


@pytest.mark.anyio
async def test_a_device_claiming_huge_lag_gains_nothing_beyond_the_quota(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard"})
    created = table["created_ms"]
    async with Device.open(live.ws_url, {"token": table["token"]}) as device:
        await device.welcome()
        await device.cmd("opening_roll", dice=[6, 1])
        gains = []
        side = "A"
        for _ in range(12):
            clock.advance(5_000)
            arrived = clock.now_ms() - created
            ack = await device.cmd("hit", side=side, lag_ms=60_000)
            gains.append(arrived - ack["at_ms"])
            side = "B" if side == "A" else "A"
    # each side has its own quota: 1000, then 250 a press
    assert gains[:2] == [1000, 1000]
    assert gains[2:] == [250] * 10
    assert all(g <= DEFAULT_PARAMS.cap_ms for g in gains)


@pytest.mark.anyio
async def test_a_press_that_beats_the_flag_by_a_millisecond_counts(manual: Any) -> None:
    live, clock = manual
    table = await live.table(clock={"mode": "standard", "reserve_ms": 1000})
    async with Device.open(live.ws_url, {"token": table["token"]}) as device:
        await device.welcome()
        roll = await device.cmd("opening_roll", dice=[6, 1])
        clock.advance(999)
        ack = await device.cmd("hit", side="A")
        assert ack["type"] == "ack" and ack["at_ms"] == roll["at_ms"] + 999
        # B's flag: the timer fires at its exact instant
        clock.advance(1000)
        expiry = await device.expect("expiry")
        assert expiry["at_ms"] == ack["at_ms"] + 1000
        assert expiry["state"]["B"]["expired"] and expiry["state"]["phase"] == "match_over"


@pytest.mark.anyio
async def test_a_late_tick_loses_no_press_and_gives_no_flag_away(manual: Any) -> None:
    live, clock = manual
    t1 = await live.table(clock={"mode": "standard", "reserve_ms": 1000})
    t2 = await live.table(clock={"mode": "standard", "reserve_ms": 1000})
    async with (
        Device.open(live.ws_url, {"token": t1["token"]}) as d1,
        Device.open(live.ws_url, {"token": t2["token"]}) as d2,
    ):
        await d1.welcome()
        await d2.welcome()
        r1 = await d1.cmd("opening_roll", dice=[6, 1])
        r2 = await d2.cmd("opening_roll", dice=[6, 1])
        clock.advance(1020, fire_timers=False)  # the loop is late: no tick yet
        # pressed 30 ms before it arrived: 10 ms before the flag -> it counts
        ack = await d1.cmd("hit", side="A", lag_ms=30)
        assert ack["type"] == "ack" and ack["at_ms"] == r1["at_ms"] + 990
        # pressed 10 ms before it arrived: 10 ms after the flag -> too late
        await d2.send({"type": "cmd", "id": "late", "do": "double", "side": "A", "lag_ms": 10})
        expiry, refused = await d2.recv(), await d2.recv()
        assert expiry["type"] == "expiry" and expiry["at_ms"] == r2["at_ms"] + 1000
        assert refused["type"] == "error" and refused["code"] == "illegal"
