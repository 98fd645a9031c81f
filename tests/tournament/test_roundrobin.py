"""Round robin: every two players meet exactly once; standings by wins, then
the wins among the tied players (tournament.md section 6)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament.formats import Result, roundrobin_schedule, roundrobin_standings


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32))
def test_every_two_meet_once_and_an_odd_field_has_one_bye_each(n: int, seed: int) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    schedule = roundrobin_schedule(players, random.Random(seed))
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset((a, b)) for r in schedule for a, b in r if b is not None]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    byes = [a for r in schedule for a, b in r if b is None]
    assert sorted(byes) == (sorted(players) if n % 2 else [])
    for r in schedule:
        assert sorted(x for pair in r for x in pair if x is not None) == sorted(players)


def test_the_draw_of_the_order_is_random() -> None:
    players = [f"P{i}" for i in range(1, 7)]
    firsts = {frozenset(roundrobin_schedule(players, random.Random(s))[0][0]) for s in range(30)}
    assert len(firsts) > 3


def test_ties_on_wins_are_broken_by_the_matches_among_the_tied() -> None:
    # A and B have two wins each, A beat B; C and D one each, C beat D
    def won(a: str, b: str) -> Result:
        return Result(a=a, b=b, winner=a)
    rounds = [[won("A", "B"), won("C", "D")], [won("A", "C"), won("B", "D")],
              [won("D", "A"), won("B", "C")]]
    table = [(p.player, p.place, p.wins) for p in roundrobin_standings(list("ABCD"), rounds)]
    assert table == [("A", 1, 2), ("B", 2, 2), ("C", 3, 1), ("D", 4, 1)]


def test_a_circle_of_three_shares_the_place() -> None:
    def won(a: str, b: str) -> Result:
        return Result(a=a, b=b, winner=a)
    rounds = [[won("A", "B"), Result(a="C", b=None, winner="C")],
              [won("B", "C"), Result(a="A", b=None, winner="A")],
              [won("C", "A"), Result(a="B", b=None, winner="B")]]
    assert [(p.player, p.place) for p in roundrobin_standings(list("ABC"), rounds)] == \
        [("A", 1), ("B", 1), ("C", 1)]
