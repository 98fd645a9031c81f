"""Double elimination: the winners' bracket is a Main, a first loss drops a
player into the losers' bracket, a second puts them out, the final and its
reset, and the order the losers drop in (tournament.md section 6)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from bgclock.tournament import IllegalContest, InvalidContest
from bgclock.tournament.formats import DoubleElimination, conflicts, drop_offsets, search_offsets
from bgclock.tournament.formats.double import DROP_OFFSETS, _clash


def _play(event: DoubleElimination, pick: int) -> None:
    """Play every match, the ``pick``-th player (0: a, 1: b) winning."""
    while event.champion is None:
        for section, r, i, a, b in event.ready():
            event.record(section, r, i, (a, b)[pick])


def test_the_losers_champion_winning_the_final_plays_the_reset() -> None:
    event = DoubleElimination(["A", "B"], random.Random(0))
    (_, _, _, a, b), = event.ready()
    event.record("winners", 0, 0, a)
    assert event.losers_champion == b
    event.record("final", 0, 0, b)  # the losers' champion wins: once more
    assert event.champion is None
    (section, r, _, x, y), = event.ready()
    assert (section, r, x, y) == ("final", 1, a, b)
    event.record("final", 1, 0, b)
    assert event.champion == b
    assert [(p.player, p.place) for p in event.standings()] == [(b, 1), (a, 2)]


def test_the_winners_champion_winning_the_final_ends_it() -> None:
    event = DoubleElimination([f"P{i}" for i in range(1, 9)], random.Random(1))
    _play(event, 0)
    assert len(event.final) == 1 and event.champion == event.winners.champion
    places = [p.place for p in event.standings()]
    # 1, 2, 3, 4, 5-6, 7-8: the places of a double elimination of eight
    assert places == [1, 2, 3, 4, 5, 5, 7, 7]


def test_a_result_not_ready_or_a_stranger_is_refused_and_changes_nothing() -> None:
    event = DoubleElimination(["A", "B", "C", "D"], random.Random(2))
    before = event.ready()
    with pytest.raises(IllegalContest):
        event.record("losers", 0, 0, "A")
    _, r, i, a, b = before[0]
    with pytest.raises(InvalidContest, match="winner"):
        event.record("winners", r, i, "nobody")
    assert event.ready() == before


def test_more_than_the_table_is_refused() -> None:
    with pytest.raises(InvalidContest, match="players"):
        DoubleElimination([f"P{i}" for i in range(300)], random.Random(0))


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64, 128])
def test_the_drop_table_is_the_searched_optimum(size: int) -> None:
    offsets, counts = search_offsets(size)
    assert offsets == DROP_OFFSETS[size] == drop_offsets(size)
    assert conflicts(size, offsets) == counts


@pytest.mark.parametrize("size", [8, 16, 32, 64])
def test_no_xor_order_drops_the_losers_better(size: int) -> None:
    k = size.bit_length() - 1
    best = conflicts(size, drop_offsets(size))
    for offsets in itertools.product(*[range(size >> r) for r in range(2, k + 1)]):
        assert conflicts(size, offsets) >= best


def _matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    for i in range(1, len(items)):
        for rest in _matchings(items[1:i] + items[i + 1:]):
            yield [(items[0], items[i]), *rest]


def test_no_order_of_any_kind_does_better_for_eight() -> None:
    # every pairing of the round-1 losers, every order of each drop
    size, k = 8, 3
    best = conflicts(size, drop_offsets(size))
    for pairing in _matchings(list(range(4))):
        for order in itertools.permutations(pairing):
            for w2 in itertools.permutations(range(2)):
                slots = [frozenset({(1, a), (1, b)}) for a, b in order]
                drops = [frozenset({(2, w2[j])}) for j in range(2)]
                counts = [0, sum(_clash(s, d, k) for s, d in zip(slots, drops, strict=True))]
                grown = [s | d for s, d in zip(slots, drops, strict=True)]
                counts.append(int(_clash(grown[0], grown[1], k)))
                counts.append(int(_clash(grown[0] | grown[1], frozenset({(3, 0)}), k)))
                assert counts >= best


def test_no_rematch_in_the_losers_bracket_before_the_table_allows() -> None:
    # played out at random: nobody meets a player a second time before the
    # first losers' round where the conflict counts allow it
    for seed in range(40):
        n = 9 + seed % 24
        event = DoubleElimination([f"P{i}" for i in range(1, n + 1)], random.Random(seed))
        rng = random.Random(seed)
        while event.champion is None:
            for section, r, i, a, b in event.ready():
                event.record(section, r, i, rng.choice([a, b]))
        counts = conflicts(event.winners.size, event.offsets)
        first = next(i for i, c in enumerate(counts) if c)
        met = {frozenset((m.a, m.b)) for row in event.winners_results() for m in row
               if m.b is not None}
        for r, row in enumerate(event.losers_results()[:first]):
            for m in row:
                assert m.b is None or frozenset((m.a, m.b)) not in met, (seed, r)
