"""Payouts worked out (issue 36 §2): the pool from the entries, each place's
amount exact to the cent, never rising, tied places shared equally; side
pools across brackets in a hierarchy (bgclock/tournament/money)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bgclock.tournament import InvalidContest
from bgclock.tournament.money import (
    DEFAULT_TABLE,
    Tier,
    check_table,
    hierarchy_payouts,
    parse_hierarchy,
    parse_shares,
    parse_tied,
    payouts,
    prize_pool,
    shares_for_field,
    show_percent,
    split,
)
from bgclock.tournament.money._split import units_of
from tests.conftest import ROOT
from tests.test_core_purity import FORBIDDEN, _imports

LV_SHARES = "50,25,12.5,12.5"


@pytest.mark.parametrize("path", sorted((ROOT / "bgclock" / "tournament").glob("[mp]o*/*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_money_and_points_modules_are_pure(path: Path) -> None:
    imported = _imports(path)
    assert not imported & FORBIDDEN, path
    assert not {n for n in imported if n not in sys.stdlib_module_names} - {"bgclock"}, path


# ------------------------------------------------------------ Las Vegas 2015

def test_las_vegas_2015_payouts_are_reproduced_from_entries_and_shares() -> None:
    # The issue gives the payouts only (Main 14,920 / 7,460 / 3,730 / 3,730;
    # Consolation 7,460 / 3,730 / 1,865 / 1,865; Last Chance 3,330 / 1,640),
    # not the entries or the fee, so these are worked back from them:
    # - Main: the four add to 29,840 = 2^4 x 5 x 373, and 14,920 is 50 % of
    #   it, 7,460 25 %, 3,730 12.5 %: shares 50/25/12.5/12.5.  29,840 =
    #   32,000 x 93.25 %: 80 entries at 400.00 with 93.25 % returned (one
    #   combination among those of 29,840; 373 being prime, a round fee
    #   needs a return below 100 %).
    # - Consolation: the four add to 14,920, half the Main, in the same
    #   shares: the 40 first-round losers of those 80 at the same 400.00 and
    #   93.25 %.
    # - Last Chance: 3,330 + 1,640 = 4,970 = 71 x 70: 71 entries at 70.00,
    #   all returned.  3,330 / 4,970 is 67.002 %: shares 67/33 give 3,329.90
    #   and 1,640.10, so the published figures are paid in whole dollars
    #   (unit 100 cents): 4,970 dollars split 67/33 is 3,329.9 and 1,640.1,
    #   rounded down 3,329 and 1,640, and the dollar left over goes to the
    #   larger remainder, the 1st: 3,330 and 1,640.
    main = payouts(prize_pool(80, 40_000, "93.25"), LV_SHARES)
    assert main.pool == 2_984_000
    assert main.amounts == (1_492_000, 746_000, 373_000, 373_000)
    consolation = payouts(prize_pool(40, 40_000, "93.25"), LV_SHARES)
    assert consolation.amounts == (746_000, 373_000, 186_500, 186_500)
    last_chance = payouts(prize_pool(71, 7_000, "100"), "67,33", unit=100)
    assert last_chance.pool == 497_000
    assert last_chance.amounts == (333_000, 164_000)
    # to the cent the same shares pay 3,329.90 and 1,640.10
    assert payouts(497_000, "67,33").amounts == (332_990, 164_010)


# ------------------------------------------------------------ the pool

def test_the_pool_is_rounded_down_to_the_cent_and_added_money_paid_whole() -> None:
    # 3 x 10.00 x 33.3333 % = 9.999999: 9.99 (the fraction of a cent stays
    # with the house), plus 0.50 added
    assert prize_pool(3, 1_000, "33.3333", added=50) == 1_049
    assert prize_pool(10, 2_000, 90) == 18_000
    assert prize_pool(10, 2_000, Fraction(175, 2)) == 17_500   # 87.5 %
    assert prize_pool(1, 0, "100", added=10_000) == 10_000     # a free event, money added


@pytest.mark.parametrize(("args", "field"), [
    ((0, 1_000, "90"), "entries"), ((100_001, 1_000, "90"), "entries"),
    ((10, -1, "90"), "fee"), ((10, 10_000_001, "90"), "fee"), ((10, True, "90"), "fee"),
    ((10, 1_000, "100.5"), "return"), ((10, 1_000, "-1"), "return"),
    ((10, 1_000, "90.00001"), "return"), ((10, 1_000, 0.9), "return"),
    ((10, 1_000, "1e2"), "return"), ((10, 1_000, "90", -5), "added"),
    ((10, 1_000, "90", 10 ** 9), "added"),
])
def test_a_bad_pool_input_is_refused_naming_it(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(InvalidContest, match=f"^{field}: "):
        prize_pool(*args)  # type: ignore[arg-type]


# ------------------------------------------------------------ shares and ties

def test_shares_are_exact_per_cents_never_floats() -> None:
    assert parse_shares("50,25,12.5,12.5") == (50, 25, Fraction(25, 2), Fraction(25, 2))
    # 33.4 + 33.3 + 33.3 is 99.99999999999999 in floats; read exactly it is 100
    assert sum(float(s) for s in ["33.4", "33.3", "33.3"]) != 100
    assert parse_shares("33.4,33.3,33.3") == (Fraction(334, 10),) + (Fraction(333, 10),) * 2


@pytest.mark.parametrize(("shares", "says"), [
    ("50,25,12.5", "must add to 100 (they add to 87.5)"),
    ("25,50,25", "place 2 must not pay more than place 1"),
    ("100,0", "from above 0 to 100"),
    ("60,40.", "like 90 or 12.5"),
    ("", "like 90 or 12.5"),
    (",".join(["1"] * 100), "must be 1 to 64 per cents"),
])
def test_bad_shares_are_refused_naming_the_field(shares: str, says: str) -> None:
    with pytest.raises(InvalidContest, match="^shares: ") as caught:
        parse_shares(shares)
    assert says in str(caught.value)


@pytest.mark.parametrize(("tied", "says"), [
    (["3"], "two or more consecutive places"),
    (["3,5"], "two or more consecutive places"),
    (["4,3"], "two or more consecutive places"),
    (["4,5"], "place 5 is not paid (places 1 to 4 are)"),
    (["2,3", "3,4"], "place 3 is in two runs"),
    (["0,1"], "whole number from 1"),
    (["x,y"], "whole number from 1"),
])
def test_bad_ties_are_refused_naming_the_field(tied: list[str], says: str) -> None:
    with pytest.raises(InvalidContest, match="^tied: ") as caught:
        parse_tied(tied, 4)
    assert says in str(caught.value)


def test_tied_places_share_the_sum_of_their_amounts() -> None:
    # places 3 and 4 of the Main tied: 3,730 + 3,730 shared, 3,730 each
    assert payouts(2_984_000, LV_SHARES, ["3,4"]).amounts[2:] == (373_000, 373_000)
    # 1,000.00 paid 50/30/20 with 2nd and 3rd tied: 300 + 200 = 250 each
    assert payouts(100_000, "50,30,20", ["2,3"]).amounts == (50_000, 25_000, 25_000)


def test_odd_cents_go_to_the_largest_remainders_higher_places_first() -> None:
    # 10.01 paid 50/25/25: dues 5.005, 2.5025, 2.5025: 5.00, 2.50, 2.50 and
    # one cent over, to the largest remainder (0.005 of the 1st)
    assert split(1_001, parse_shares("50,25,25")) == [501, 250, 250]
    # 10.03 paid 40/30/30: dues 4.012, 3.009, 3.009: the 2 cents over go to
    # the 2nd and 3rd (.9 each) before the 1st (.2)
    assert split(1_003, parse_shares("40,30,30")) == [401, 301, 301]
    # equal remainders: the higher place first
    assert split(1_002, parse_shares("25,25,25,25")) == [251, 251, 250, 250]


def test_a_tie_moves_cents_in_whole_runs_and_a_neighbour_makes_up() -> None:
    # 10.01 in four 25 % places with the 1st and 2nd tied: 2.5025 each is due;
    # 2.50 each to all four leaves 1 cent, which the tied pair cannot share:
    # the closest exact list pays the pair 2.51 each and the 3rd 2.50, the
    # 4th 2.49 (a list never rises: the 3rd cannot have more than the pair)
    assert split(1_001, parse_shares("25,25,25,25"), [(1, 2)]) == [251, 251, 250, 249]


def test_when_no_exact_split_exists_the_top_run_differs_by_a_cent() -> None:
    # 10.01 for two players tied for 1st and 2nd: no two equal amounts add
    # to an odd pool; the cent goes to the first of them
    assert payouts(1_001, "50,50", ["1,2"]).amounts == (501, 500)


def test_the_unit_pays_whole_dollars_and_the_cents_below_it_to_first() -> None:
    assert payouts(100_050, "50,30,20", unit=100).amounts == (50_050, 30_000, 20_000)
    # the top place shared: those cents one each to its players
    assert payouts(100_003, "50,50", ["1,2"], unit=100).amounts == (50_002, 50_001)


# ------------------------------------------------------------ properties

@st.composite
def _cases(draw: st.DrawFn, max_pool: int = 10 ** 12,
           max_places: int = 64) -> tuple[int, tuple[Fraction, ...], list[tuple[int, ...]]]:
    raw = sorted(draw(st.lists(st.integers(1, 10_000), min_size=1, max_size=max_places)),
                 reverse=True)
    # shares as 4-decimal per cents adding to 100, never rising
    units = [r * 1_000_000 // sum(raw) for r in raw]
    units[0] += 1_000_000 - sum(units)
    shares = tuple(Fraction(u, 10_000) for u in units)
    assume(all(a >= b > 0 for a, b in zip(shares, shares[1:], strict=False)) and shares[-1] > 0)
    tied: list[tuple[int, ...]] = []
    place = 1
    while place < len(shares):
        if draw(st.booleans()):
            size = draw(st.integers(2, len(shares) - place + 1))
            tied.append(tuple(range(place, place + size)))
            place += size
        else:
            place += 1
    return draw(st.integers(0, max_pool)), shares, tied


def _check(pool: int, amounts: list[int] | tuple[int, ...],
           tied: list[tuple[int, ...]]) -> None:
    assert sum(amounts) == pool
    assert all(a >= b >= 0 for a, b in zip(amounts, amounts[1:], strict=False))
    for run in tied:
        got = {amounts[p - 1] for p in run}
        if run[0] == 1:
            assert max(got) - min(got) <= 1   # only when no exact list exists: below
        else:
            assert len(got) == 1


@settings(max_examples=300, deadline=None)
@given(_cases())
def test_any_pool_shares_and_ties_add_up_never_rise_and_share_equally(
        case: tuple[int, tuple[Fraction, ...], list[tuple[int, ...]]]) -> None:
    pool, shares, tied = case
    _check(pool, split(pool, shares, tied), tied)


def _exhaustive(pool: int, shares: tuple[Fraction, ...],
                tied: list[tuple[int, ...]]) -> list[int] | None:
    """Every non-rising list of whole cents with the tied equal adding to
    ``pool``; the closest (least squared cents from the exact dues), the
    higher places paid more among equals; None if there is none."""
    units = units_of(len(shares), tied)
    dues = [pool * sum(shares[f - 1:f - 1 + k], Fraction(0)) / 100 / k for f, k in units]
    best: tuple[Fraction, list[int]] | None = None

    def walk(g: int, cap: int, chosen: list[int], rest: int) -> None:
        nonlocal best
        if g == len(units):
            if rest == 0:
                cost = sum((k * (m - d) ** 2 for m, (_, k), d in zip(chosen, units, dues,
                                                                      strict=True)),
                           Fraction(0))
                if best is None or cost < best[0] or (cost == best[0] and chosen > best[1]):
                    best = (cost, list(chosen))
            return
        for m in range(min(cap, rest // units[g][1]), -1, -1):
            walk(g + 1, m, [*chosen, m], rest - m * units[g][1])

    walk(0, pool, [], pool)
    if best is None:
        return None
    return [m for m, (_, k) in zip(best[1], units, strict=True) for _ in range(k)]


@settings(max_examples=200, deadline=None)
@given(_cases(max_pool=40, max_places=5))
def test_the_split_is_the_closest_exact_list_an_exhaustive_search_finds(
        case: tuple[int, tuple[Fraction, ...], list[tuple[int, ...]]]) -> None:
    pool, shares, tied = case
    got = split(pool, shares, tied)
    want = _exhaustive(pool, shares, tied)
    if want is None:
        # none exists: the top run is shared and cannot be split equally
        assert tied and tied[0][0] == 1
        assert got[0] - got[len(tied[0]) - 1] == 1
    else:
        assert got == want


def test_large_runs_of_ties_are_quick_enough_to_print() -> None:
    # 64 places, 32 tied at the top, an odd pool: decided, not searched for
    # ever (no timing asserted; the test would hang instead)
    shares = (Fraction(100, 64),) * 64
    amounts = split(10 ** 9 + 7, shares, [tuple(range(1, 33))])
    _check(10 ** 9 + 7, amounts, [tuple(range(1, 33))])


# ------------------------------------------------------------ field size

@pytest.mark.parametrize(("entries", "places"), [(1, 1), (7, 1), (8, 2), (15, 2), (16, 4),
                                                 (31, 4), (32, 8), (100_000, 8)])
def test_the_default_table_pays_about_a_quarter_of_the_field(entries: int,
                                                           places: int) -> None:
    shares = shares_for_field(entries)
    assert len(shares) == places and sum(shares) == 100
    # each round's losers get half of what each loser of the next round gets
    if places >= 2:
        assert shares[0] == 2 * shares[1]
    if places >= 4:
        assert shares[1] == 2 * shares[2] == 2 * shares[3]
    if places == 8:
        assert shares[3] == 2 * shares[4] and len(set(shares[4:])) == 1


def test_the_default_two_places_are_thirds_paid_exactly() -> None:
    assert [show_percent(s) for s in shares_for_field(10)] == ["66.67", "33.33"]
    assert split(100_000, shares_for_field(10)) == [66_667, 33_333]


def test_a_directors_table_is_checked_and_used() -> None:
    table = [(1, ["100"]), (6, ["70", "30"]), (12, ["50", "30", "20"])]
    assert shares_for_field(11, table) == (70, 30)
    assert check_table(DEFAULT_TABLE) == DEFAULT_TABLE
    with pytest.raises(InvalidContest, match=r"^table\[1\]: the rows"):
        check_table([(1, ["100"]), (1, ["70", "30"])])
    with pytest.raises(InvalidContest, match=r"^table\[0\]: the rows"):
        check_table([(2, ["100"])])
    with pytest.raises(InvalidContest, match=r"^table\[1\]: pays 3 places to as few as 2"):
        check_table([(1, ["100"]), (2, ["50", "30", "20"])])


# ------------------------------------------------------------ hierarchy

US_OPEN = "main 1, main 2, consolation 1, main 3/4, consolation 2"


def test_a_side_pool_pays_across_brackets_in_the_us_open_order() -> None:
    # the US Open's "1st, 2nd, 1st Consolation, 3rd/4th, 2nd Consolation"
    tiers = parse_hierarchy(US_OPEN)
    assert tiers[3] == Tier("main", (3, 4))
    paid = hierarchy_payouts(100_001, tiers, "35,20,15,10,10,10")
    assert [(r["bracket"], r["place"]) for r in paid] == [
        ("main", 1), ("main", 2), ("consolation", 1), ("main", 3), ("main", 4),
        ("consolation", 2)]
    assert [r["amount"] for r in paid] == [35_001, 20_000, 15_000, 10_000, 10_000, 10_000]


def test_the_3rd_and_4th_of_a_hierarchy_share_their_money_equally() -> None:
    paid = hierarchy_payouts(1_001, parse_hierarchy(US_OPEN), "35,20,15,10,10,10")
    assert paid[3]["amount"] == paid[4]["amount"]
    _check(1_001, [r["amount"] for r in paid], [(4, 5)])


@pytest.mark.parametrize(("text", "shares", "says"), [
    ("main 2, main 1", "60,40", "main must start at its 1st place"),
    ("main 1, main 3", "60,40", "main 3 must come next after main 1"),
    ("main 1, main 1", "60,40", "main 1 must come next after main 1"),
    ("main 1, Main!? 1", "60,40", "is not a bracket's name"),
    ("main 1, consolation 1", "100", "shares: must be one per bracket place (2), not 1"),
    ("main one", "100", "whole number"),
    ("main", "100", "a bracket and a place"),
])
def test_a_bad_hierarchy_is_refused_naming_the_field(text: str, shares: str, says: str) -> None:
    with pytest.raises(InvalidContest) as caught:
        hierarchy_payouts(10_000, parse_hierarchy(text), shares)
    assert says in str(caught.value)
