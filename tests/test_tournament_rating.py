"""The register's rating: the FIBS formula against worked examples, and its
properties (issue 23 §4)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.tournament import (
    InvalidContest,
    MainDraw,
    Rated,
    Tournament,
    experience_factor,
    rate,
    rate_all,
    rated_matches,
    register_key,
    upset_probability,
)
from bgclock.tournament._rating import parse_points, points


def test_two_newcomers_at_five_points() -> None:
    # D = 0: P_upset = 1/(10^0 + 1) = 1/2; K = max(1, 5 - 0/100) = 5 for both;
    # change = 4 * 5 * sqrt(5) * 1/2 = 10 * 2.2360680 = 22.360680 -> 22.36 points
    assert upset_probability(0, 5) == 0.5
    assert experience_factor(0) == 5.0
    winner, loser = rate(Rated(), Rated(), 5)
    assert winner == Rated(150_000 + 2236, 5)
    assert loser == Rated(150_000 - 2236, 5)


def test_the_favourite_wins_and_the_underdog_wins() -> None:
    # 1600 v 1500, both with experience 500 (K = 1), a 9-point match:
    # D * sqrt(N) / 2000 = 100 * 3 / 2000 = 0.15; 10^0.15 = 1.4125375;
    # P_upset = 1 / 2.4125375 = 0.4145013
    assert math.isclose(upset_probability(10_000, 9), 0.4145013, abs_tol=1e-7)
    # the favourite wins: P = P_upset; change = 4 * 1 * 3 * 0.4145013 = 4.974016 -> 4.97
    fav, dog = rate(Rated(160_000, 500), Rated(150_000, 500), 9)
    assert (fav.rating, dog.rating) == (160_497, 149_503)
    # the underdog wins: P = 1 - P_upset = 0.5854987; change = 12 * 0.5854987 = 7.025984 -> 7.03
    dog, fav = rate(Rated(150_000, 500), Rated(160_000, 500), 9)
    assert (dog.rating, fav.rating) == (150_703, 159_297)
    assert (dog.experience, fav.experience) == (509, 509)


def test_each_player_has_their_own_experience_factor() -> None:
    # equal ratings, 3 points: base = 4 * sqrt(3) * 1/2 = 3.4641016;
    # winner's experience 150: K = 5 - 1.5 = 3.5 -> +12.124356 -> +12.12;
    # loser's experience 450: K = max(1, 0.5) = 1 -> -3.4641016 -> -3.46
    assert experience_factor(150) == 3.5
    assert experience_factor(450) == 1.0
    winner, loser = rate(Rated(150_000, 150), Rated(150_000, 450), 3)
    assert winner == Rated(151_212, 153)
    assert loser == Rated(149_654, 453)


def test_bad_values_name_their_field() -> None:
    with pytest.raises(InvalidContest, match="length"):
        rate(Rated(), Rated(), 0)
    with pytest.raises(InvalidContest, match="rating"):
        Rated(10**9, 0)
    with pytest.raises(InvalidContest, match="experience"):
        Rated(150_000, -1)
    with pytest.raises(InvalidContest, match="row 3 rating"):
        parse_points("15OO", "row 3 rating")


def test_printed_points_round_trip() -> None:
    assert points(152_236) == "1522.36"
    assert points(-5) == "-0.05"
    assert parse_points("1522.36", "r") == 152_236
    assert parse_points("1500", "r") == 150_000
    assert parse_points("1499,5", "r") == 149_950


def test_register_key_is_one_identity_for_look_alike_spellings() -> None:
    assert register_key("Mario  ROSSI") == register_key("mario rossi")
    assert register_key("Ｍａｒｉｏ") == register_key("mario")  # full-width letters (NFKC)
    assert register_key("Straße") == register_key("STRASSE")  # case folding
    assert register_key("Mario Rossi") != register_key("Maria Rossi")


ratings = st.integers(0, 400_000)
lengths = st.integers(1, 25)


@given(ratings, ratings, st.integers(400, 100_000), st.integers(400, 100_000), lengths)
def test_zero_sum_between_experienced_players(ra: int, rb: int, ea: int, eb: int,
                                              n: int) -> None:
    w, lo = rate(Rated(ra, ea), Rated(rb, eb), n)
    assert w.rating + lo.rating == ra + rb


@given(ratings, ratings, st.integers(0, 100_000), st.integers(0, 100_000), lengths)
def test_a_win_never_lowers_a_rating(ra: int, rb: int, ea: int, eb: int, n: int) -> None:
    w, lo = rate(Rated(ra, ea), Rated(rb, eb), n)
    assert w.rating >= ra
    assert lo.rating <= rb
    assert w.experience == ea + n and lo.experience == eb + n


@given(ratings, ratings, lengths)
def test_an_upset_pays_more_than_a_win_of_the_favourite(ra: int, rb: int, n: int) -> None:
    hi, low = max(ra, rb), min(ra, rb)
    fav, _ = rate(Rated(hi, 400), Rated(low, 400), n)
    dog, _ = rate(Rated(low, 400), Rated(hi, 400), n)
    assert dog.rating - low >= fav.rating - hi


def _played(n: int = 4) -> Tournament:
    t = Tournament()
    for i in range(1, n + 1):
        t, _ = t.after({"do": "register", "name": f"P{i}", "register_id": 10 + i})
        t, _ = t.after({"do": "check_in", "player": i})
    t, _ = t.after({"do": "draw"})
    return t


def test_rated_matches_follow_the_results_order_and_skip_withdrawals() -> None:
    t = _played()
    assert isinstance(t.main, MainDraw)
    first = t.main.bracket.rounds[0]
    # the second match's result comes in first
    t, _ = t.after({"do": "result", "event": "main", "round": 0, "match": 1,
                    "winner": first[1].a, "source": "clock"})
    t, _ = t.after({"do": "result", "event": "main", "round": 0, "match": 0,
                    "winner": first[0].b, "source": "hand"})
    t, _ = t.after({"do": "withdraw", "player": next(
        p.id for p in t.players if p.name == first[1].a)})
    got = rated_matches(t)
    assert [(m.round, m.match) for m in got] == [(0, 1), (0, 0)]
    assert got[0].winner_name == first[1].a and got[0].length == 7
    # the final (lost by the withdrawn player) and the consolation's walkover do not rate
    assert all(t.results[k].source == "withdrawn"
               for k in t.results if (k[1], k[2]) not in ((0, 0), (0, 1)) and k[0] == "main")
    lines = rate_all({}, got)
    assert [c.won for c in lines] == [True, False, True, False]
    # 1500 v 1500, 7 points, newcomers: 4 * 5 * sqrt(7) * 1/2 = 10 * 2.6457513 = 26.46
    assert lines[0].before == Rated()
    assert lines[0].after == Rated(152_646, 7)
    assert lines[1].after == Rated(147_354, 7)


def test_register_id_is_one_entry_per_tournament() -> None:
    t = Tournament()
    t, _ = t.after({"do": "register", "name": "Ann", "register_id": 5})
    with pytest.raises(InvalidContest, match="register_id"):
        t.after({"do": "register", "name": "Anna", "register_id": 5})
    with pytest.raises(InvalidContest, match="register_id"):
        t.after({"do": "register", "name": "Bob", "register_id": 0})
    assert t.players[0].to_dict()["register_id"] == 5
