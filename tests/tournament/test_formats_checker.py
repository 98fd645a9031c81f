"""Section 6 on many seeds and sizes: ``bgclock draw simulate --format``'s
own code path, its JSON checked by tests/tournament/_check.py (the spec's
rules, brute force for small pools)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament.formats import simulate_format
from tests.tournament import _check

seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), rounds=st.integers(1, 9), seed=seeds)
def test_swiss_keeps_every_rule(n: int, rounds: int, seed: int) -> None:
    _check.check_swiss(simulate_format("swiss", n, seed=seed, rounds=rounds), n, rounds)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(6, 14), seed=seeds)
def test_swiss_longer_than_the_field_forces_rematches_and_keeps_them_fewest(
        n: int, rounds: int, seed: int) -> None:
    _check.check_swiss(simulate_format("swiss", n, seed=seed, rounds=rounds), n, rounds)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), losses=st.integers(1, 5), seed=seeds)
def test_more_swiss_keeps_every_rule(n: int, losses: int, seed: int) -> None:
    _check.check_moreswiss(simulate_format("moreswiss", n, seed=seed, losses=losses), n, losses)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), seed=seeds)
def test_round_robin_keeps_every_rule(n: int, seed: int) -> None:
    _check.check_roundrobin(simulate_format("roundrobin", n, seed=seed), n)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 64), seed=seeds)
def test_double_elimination_keeps_every_rule(n: int, seed: int) -> None:
    _check.check_double(simulate_format("double", n, seed=seed), n)


def test_256_players_each_format() -> None:
    _check.check_swiss(simulate_format("swiss", 256, seed=3, rounds=3), 256, 3)
    _check.check_moreswiss(simulate_format("moreswiss", 255, seed=4, losses=2), 255, 2)
    _check.check_roundrobin(simulate_format("roundrobin", 255, seed=5), 255)
    _check.check_double(simulate_format("double", 256, seed=6), 256)
    _check.check_double(simulate_format("double", 129, seed=7), 129)


def test_the_same_seed_gives_the_same_event_and_another_seed_another() -> None:
    for fmt, kw in (("swiss", {"rounds": 4}), ("moreswiss", {"losses": 3}),
                    ("roundrobin", {}), ("double", {})):
        one = simulate_format(fmt, 13, seed=11, **kw)
        assert simulate_format(fmt, 13, seed=11, **kw) == one
        assert simulate_format(fmt, 13, seed=12, **kw) != one
