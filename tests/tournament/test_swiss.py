"""Swiss and More Swiss: the bye, the exact pairing and the standings
(tournament.md section 6), as rulebook cases and properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import IllegalContest, InvalidContest
from bgclock.tournament.formats import (
    Record,
    Result,
    choose_bye,
    explain,
    field_table,
    met_pairs,
    moreswiss_pairing,
    moreswiss_standings,
    pair_round,
    records,
    swiss_pairing,
    swiss_standings,
)
from tests.tournament._check import best_cost, cost


def _win(a: str, b: str | None) -> Result:
    return Result(a=a, b=b, winner=a)


@st.composite
def fields(draw: st.DrawFn) -> dict[str, Record]:
    """Up to 10 players with random losses, byes and opponents met (many
    meetings, so that rematches are often forced)."""
    n = draw(st.integers(2, 10))
    names = [f"P{i}" for i in range(1, n + 1)]
    met: dict[str, list[str]] = {p: [] for p in names}
    for i, p in enumerate(names):
        for q in names[i + 1:]:
            if draw(st.integers(0, 99)) < draw(st.sampled_from([0, 30, 70, 95])):
                met[p].append(q)
                met[q].append(p)
    return {p: Record(player=p, wins=0, losses=draw(st.integers(0, 4)),
                      byes=draw(st.integers(0, 2)), opponents=tuple(met[p])) for p in names}


@settings(max_examples=300, deadline=None)
@given(rec=fields(), seed=st.integers(0, 2**32))
def test_the_pairing_is_the_optimum_of_every_pairing(rec: dict[str, Record], seed: int) -> None:
    # section 6, "Pairing a round" 2(a) then 2(b): brute force over every pairing
    players = list(rec)
    pairing = pair_round(players, rec, random.Random(seed))
    pool = [x for pair in pairing.pairs for x in pair]
    met = {frozenset((p, q)) for p in rec for q in rec[p].opponents}
    losses = {p: rec[p].losses for p in rec}
    assert sorted(pool + ([pairing.bye] if pairing.bye else [])) == sorted(players)
    assert cost(list(pairing.pairs), losses, met) == best_cost(pool, losses, met)
    assert (pairing.rematches, pairing.spread) == cost(list(pairing.pairs), losses, met)


@settings(max_examples=200, deadline=None)
@given(rec=fields(), seed=st.integers(0, 2**32))
def test_the_bye_goes_to_the_fewest_byes_then_the_most_losses(rec: dict[str, Record],
                                                               seed: int) -> None:
    # section 6, "Pairing a round" 1
    players = list(rec)
    bye = choose_bye(players, rec, random.Random(seed))
    if len(players) % 2 == 0:
        assert bye is None
        return
    assert bye is not None
    fewest = min(r.byes for r in rec.values())
    assert rec[bye].byes == fewest
    assert rec[bye].losses == max(r.losses for r in rec.values() if r.byes == fewest)


def test_the_bye_is_drawn_among_the_tied() -> None:
    rec = {p: Record(player=p, losses=1) for p in ("A", "B", "C")}
    assert {choose_bye(["A", "B", "C"], rec, random.Random(s)) for s in range(40)} == \
        {"A", "B", "C"}


def test_round_one_is_a_random_pairing() -> None:
    # "Round 1 is therefore a random pairing": all three pairings of four players come out
    players = ["A", "B", "C", "D"]
    seen = {frozenset(frozenset(p) for p in swiss_pairing(players, [], rounds=3,
                                                         rng=random.Random(s)).pairs)
            for s in range(60)}
    assert len(seen) == 3


def test_different_seeds_give_different_optimal_pairings() -> None:
    # 2(c): after round 1, the four winners and the four losers pair among themselves
    players = [f"P{i}" for i in range(1, 9)]
    r1 = [_win("P1", "P2"), _win("P3", "P4"), _win("P5", "P6"), _win("P7", "P8")]
    seen = set()
    for s in range(30):
        pairing = swiss_pairing(players, [r1], rounds=3, rng=random.Random(s))
        assert (pairing.rematches, pairing.spread) == (0, 0)
        seen.add(frozenset(frozenset(p) for p in pairing.pairs))
    assert len(seen) > 5


def test_a_rematch_is_made_only_when_no_pairing_avoids_it() -> None:
    # four players after three rounds have all met: round 4 must repeat two pairs
    players = ["A", "B", "C", "D"]
    rounds = [[_win("A", "B"), _win("C", "D")], [_win("A", "C"), _win("B", "D")],
              [_win("A", "D"), _win("B", "C")]]
    pairing = swiss_pairing(players, rounds, rounds=4, rng=random.Random(1))
    assert pairing.rematches == 2
    reasons = explain(pairing, records(players, rounds), met_pairs(rounds))
    assert all(r.rematch_round is not None for r in reasons.pairs)
    assert any("no pairing of this round has fewer than 2 rematches" in line
               for line in reasons.lines())


def test_a_float_to_avoid_a_rematch_is_explained() -> None:
    # A and B (0 losses) met already; C and D (1 loss): A-B again, or two floats
    rec = {"A": Record(player="A", losses=0, opponents=("B",)),
           "B": Record(player="B", losses=0, opponents=("A",)),
           "C": Record(player="C", losses=1), "D": Record(player="D", losses=1)}
    pairing = pair_round(list(rec), rec, random.Random(0))
    assert (pairing.rematches, pairing.spread) == (0, 2)
    reasons = explain(pairing, rec, {frozenset(("A", "B")): 0})
    assert reasons.forced_spread == 0 and all(r.floated for r in reasons.pairs)
    assert all("rematch" in r.why for r in reasons.pairs)


def test_an_odd_group_floats_one() -> None:
    rec = {p: Record(player=p, losses=0 if p in "ABC" else 1) for p in "ABCDEF"}
    pairing = pair_round(list(rec), rec, random.Random(3))
    reasons = explain(pairing, rec, {})
    assert pairing.spread == 1 == reasons.forced_spread
    (floated,) = [r for r in reasons.pairs if r.floated]
    assert "odd" in floated.why


def test_swiss_standings_wins_then_opponents_wins_and_shared_places() -> None:
    # section 6, Standings: ties share the best place ("two tied after the first share place 2")
    players = ["A", "B", "C", "D"]
    rounds = [[_win("A", "B"), _win("C", "D")], [_win("A", "C"), _win("B", "D")]]
    table = [(p.player, p.place, p.wins) for p in swiss_standings(players, rounds)]
    # B and C: one win each; B's opponents A (2) and D (0), C's D (0) and A (2): tied
    assert table == [("A", 1, 2, ), ("B", 2, 1), ("C", 2, 1), ("D", 4, 0)]


def test_swiss_refuses_a_round_past_its_last() -> None:
    with pytest.raises(IllegalContest):
        swiss_pairing(["A", "B"], [[_win("A", "B")]], rounds=1, rng=random.Random(0))
    with pytest.raises(InvalidContest, match="rounds"):
        swiss_pairing(["A", "B"], [], rounds=0, rng=random.Random(0))


def test_more_swiss_pairs_only_the_players_in_and_ends_with_one() -> None:
    players = ["A", "B", "C"]
    rounds = [[_win("A", "B"), _win("C", None)]]
    pairing = moreswiss_pairing(players, rounds, losses=1, rng=random.Random(0))
    assert pairing.bye is None and {frozenset(p) for p in pairing.pairs} == {frozenset("AC")}
    rounds.append([Result(a="A", b="C", winner="C")])
    with pytest.raises(IllegalContest, match="over"):
        moreswiss_pairing(players, rounds, losses=1, rng=random.Random(0))
    table = [(p.player, p.place) for p in moreswiss_standings(players, rounds, losses=1)]
    assert table == [("C", 1), ("A", 2), ("B", 3)]


def test_more_swiss_players_out_in_the_same_round_share_the_place() -> None:
    players = ["A", "B", "C", "D"]
    rounds = [[_win("A", "B"), _win("C", "D")]]
    rounds.append([_win("A", "C")])
    table = [(p.player, p.place) for p in moreswiss_standings(players, rounds, losses=1)]
    assert table == [("A", 1), ("C", 2), ("B", 3), ("D", 3)]


def test_the_field_says_who_is_out_and_who_can_still_win() -> None:
    players = ["A", "B", "C", "D"]
    rounds = [[_win("A", "B"), _win("C", "D")], [_win("A", "C"), _win("B", "D")]]
    rows = {r.player: r for r in field_table(players, rounds, losses=2)}
    assert rows["D"].out and not rows["D"].can_still_win
    assert rows["A"].opponents == ("B", "C") and rows["C"].can_still_win
    swiss = {r.player: r for r in field_table(players, rounds, rounds=3)}
    # A has 2 wins, one round left: D (0 wins) cannot reach 2
    assert not swiss["D"].can_still_win and swiss["B"].can_still_win
