"""The entries ledger folded from the action log, the event's payouts worked
out from it, and the master points at close (issue 36 §1, §2, §4;
docs/tournament.md, "Entries, money and points at the desk")."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._awards import award_of, event_payouts, event_points

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ivo")


def _entered(n: int = 8, **money: Any) -> Tournament:
    """``n`` players registered and checked in; the money set as given."""
    acts: list[dict[str, Any]] = [{"do": "settings", "rounds": [{"length": 5, "clock": "none"}],
                                   "seed": 3},
                                  {"do": "money", "currency": "EUR", "fee": 2000,
                                   "return_pct": "90", **money}]
    acts += [{"do": "register", "name": x} for x in NAMES[:n]]
    acts += [{"do": "check_in", "player": i} for i in range(1, n + 1)]
    return Tournament.fold(acts)


def _play_out(t: Tournament) -> None:
    """Every match of the Main and the consolation won by hand by side A."""
    t.apply({"do": "draw", "seed": 3})
    for event in ("main", "consolation"):
        r = 0
        while True:
            bracket = getattr(t, event)
            if bracket is None or r >= len(bracket.bracket.rounds):
                break
            for i, m in enumerate(bracket.bracket.rounds[r]):
                if m.a and m.b and not m.winner:
                    t.apply({"do": "result", "event": event, "round": r, "match": i,
                             "winner": m.a, "score": [5, 1], "source": "hand"})
            r += 1


def test_the_desk_sees_who_has_not_paid_before_the_draw() -> None:
    t = _entered()
    for pid in range(1, 8):
        t.apply({"do": "payment", "player": pid, "cents": 2000})
    money = t.to_dict()["money"]
    assert money["unpaid"] == [{"player": 8, "name": "Ivo", "due": 2000}]
    assert [r["status"] for r in money["players"]] == ["paid"] * 7 + ["unpaid"]
    assert money["totals"]["entries"] == 8
    assert money["totals"]["due"] == 16_000 and money["totals"]["collected"] == 14_000
    # 8 x 20.00 x 90 % = 144.00
    assert money["totals"]["pool"] == 14_400


def test_a_note_counts_as_paid_and_the_totals_tell_cash_from_notes() -> None:
    t = _entered(4)
    t.apply({"do": "payment", "player": 1, "cents": 2000})
    t.apply({"do": "payment", "player": 2, "cents": 2000, "method": "note",
             "note": "bonifico"})
    t.apply({"do": "payment", "player": 3, "cents": 500})
    totals = t.to_dict()["money"]["totals"]
    assert (totals["cash"], totals["notes"], totals["net"]) == (2500, 2000, 4500)
    assert [u["name"] for u in t.to_dict()["money"]["unpaid"]] == ["Carla", "Dario"]
    assert t.to_dict()["money"]["unpaid"][0]["due"] == 1500


def test_a_payment_above_what_is_owed_is_refused_and_changes_nothing() -> None:
    t = _entered(2)
    t.apply({"do": "payment", "player": 1, "cents": 2000})
    before = t.to_dict()
    with pytest.raises(IllegalContest) as caught:
        t.apply({"do": "payment", "player": 1, "cents": 2000})  # "Pagato" twice
    assert caught.value.code == "overpaid"
    assert t.to_dict()["money"] == before["money"]


def test_refunds_never_exceed_what_was_paid() -> None:
    t = _entered(2)
    t.apply({"do": "payment", "player": 1, "cents": 2000})
    with pytest.raises(IllegalContest) as caught:
        t.apply({"do": "refund", "player": 1, "cents": 2001})
    assert caught.value.code == "refund_too_much"
    t.apply({"do": "withdraw", "player": 1})  # withdrawn before the draw: owes nothing
    assert t.to_dict()["money"]["players"][0]["credit"] == 2000
    t.apply({"do": "refund", "player": 1, "cents": 2000, "note": "ritirato"})
    row = t.to_dict()["money"]["players"][0]
    assert (row["paid"], row["owed"], row["status"]) == (0, 0, "none")
    assert t.to_dict()["money"]["totals"]["refunds"] == 2000


def test_a_reentry_is_one_more_fee_and_one_more_entry_in_the_pool() -> None:
    t = _entered(4)
    t.apply({"do": "reentry", "player": 2})
    money = t.to_dict()["money"]
    assert money["players"][1]["entries"] == 2 and money["players"][1]["owed"] == 4000
    # 5 entries x 20.00 x 90 % = 90.00
    assert money["totals"]["entries"] == 5 and money["totals"]["pool"] == 9000


def test_side_pools_are_owed_by_their_members_and_totalled_apart() -> None:
    t = _entered(4)
    t.apply({"do": "side_pool", "pool": "Jackpot", "players": [1, 2], "event": "main",
             "entry": 1000, "split": [100]})
    t.apply({"do": "payment", "player": 1, "cents": 3000})
    t.apply({"do": "payment", "player": 2, "cents": 2500})
    money = t.to_dict()["money"]
    assert money["players"][0]["owed"] == 3000 and money["players"][1]["due"] == 500
    # each player's money goes to the entry first, then to the pools
    assert money["totals"]["collected"] == 4000
    assert money["totals"]["pools"] == [{"pool": "Jackpot", "event": "main", "entry": 1000,
                                         "members": 2, "pot": 2000, "collected": 1500}]


def test_the_currency_is_fixed_once_money_is_taken() -> None:
    t = _entered(2)
    t.apply({"do": "money", "currency": "CHF"})
    t.apply({"do": "payment", "player": 1, "cents": 100})
    with pytest.raises(IllegalContest) as caught:
        t.apply({"do": "money", "currency": "EUR"})
    assert caught.value.code == "currency_fixed"


@pytest.mark.parametrize(("body", "field"), [
    ({"return_pct": "101"}, "return_pct"),
    ({"fee": -1}, "fee"),
    ({"currency": "euro"}, "currency"),
    ({"shares": "50,30"}, "shares"),
    ({"hierarchy": "main 1, main 2"}, "hierarchy"),
    ({"hierarchy": "main 1, main 2", "shares": "50,30,20"}, "shares"),
    ({"table": [[2, "100"]]}, "table[0]"),
    ({"division": "pro"}, "division"),
])
def test_bad_money_settings_are_refused_naming_the_field(body: dict[str, Any],
                                                         field: str) -> None:
    t = _entered(2)
    before = t.to_dict()
    with pytest.raises(InvalidContest) as caught:
        t.apply({"do": "money", **body})
    assert str(caught.value).startswith(f"{field}: "), caught.value
    assert t.to_dict() == before


def test_the_payouts_come_from_the_entries_and_the_standings() -> None:
    t = _entered()
    _play_out(t)
    pay = event_payouts(t)
    # 8 x 20.00 x 90 % = 144.00; 8 entries pay the final: 66 2/3 / 33 1/3
    assert pay["pool"] == 14_400 and pay["shares"] == ["66.67", "33.33"]
    assert [p["amount"] for p in pay["places"]] == [9600, 4800]
    final = t.main.bracket.rounds[-1][0] if t.main else None
    assert final is not None and final.winner == final.a
    assert award_of(pay, "main", final.a or "") == 9600
    assert award_of(pay, "main", final.b or "") == 4800
    assert pay["undecided"] == 0


def test_a_hierarchy_pays_across_brackets_and_the_semi_finalists_share() -> None:
    t = _entered(hierarchy="main 1, main 2, consolation 1, main 3/4",
                 shares="40,25,15,10,10", added=600)
    _play_out(t)
    pay = event_payouts(t)
    # (144.00 + 6.00 added) = 150.00: 60.00, 37.50, 22.50 (consolation), 15.00 x 2
    assert pay["pool"] == 15_000
    assert [(p["bracket"], p["place"], p["amount"]) for p in pay["places"]] == [
        ("main", 1, 6000), ("main", 2, 3750), ("consolation", 1, 2250), ("main", 3, 1500),
        ("main", 4, 1500)]
    semis = [a for a in pay["awards"] if a["bracket"] == "main" and a["label"] == "3–4"]
    assert len(semis) == 1 and semis[0]["cents"] == [1500, 1500]
    assert sum(sum(a["cents"]) for a in pay["awards"]) + pay["undecided"] == pay["pool"]
    assert pay["undecided"] == 0


def test_before_the_end_the_money_of_undecided_places_is_held() -> None:
    t = _entered()
    t.apply({"do": "draw", "seed": 3})
    pay = event_payouts(t)
    assert pay["awards"] == [] and pay["undecided"] == pay["pool"] == 14_400


def test_master_points_of_an_8_player_knockout_by_hand() -> None:
    # Hand calculation (USBGF 2019, event weight 1, Open: division weight 1.0),
    # 8 players, every match to 5 points: one match won = sqrt(5) / 3
    # = 2.2360680 / 3 = 0.7453560; placement base 0.6 x log2(8) = 1.8.
    # - the winner, 3 Main matches won, 1st: 3 x 0.7453560 = 2.2360680 -> 2.24;
    #   1.8 x 1 = 1.80; total 4.0360680 -> 4.04
    # - the finalist, 2 won, 2nd: 1.4907120 -> 1.49; 1.8 x 0.7 = 1.26;
    #   total 2.7507120 -> 2.75
    # - a semi-finalist, 1 won, ranks 3-4: 0.7453560 -> 0.75;
    #   1.8 x (0.5 + 0.333) / 2 = 0.7497 -> 0.75; total 1.4950560 -> 1.50
    # - the consolation's winner (lost in the Main's first round: ranks 5-8)
    #   won 2 consolation matches: 1.4907120 -> 1.49;
    #   1.8 x (0.25 + 0.2 + 1/6 + 1/7) / 4 = 1.8 x 0.1898810 = 0.3417857 -> 0.34;
    #   total 1.8324977 -> 1.83
    t = _entered()
    _play_out(t)
    pts = event_points(t)
    assert pts["on"] and pts["players"] == 8 and pts["in_play"] == 0
    by_rank = {r["rank"]: r for r in pts["rows"]}
    assert (by_rank["1"]["match_win"], by_rank["1"]["placement"],
            by_rank["1"]["total"]) == (2.24, 1.8, 4.04)
    assert (by_rank["2"]["match_win"], by_rank["2"]["placement"],
            by_rank["2"]["total"]) == (1.49, 1.26, 2.75)
    semis = [r for r in pts["rows"] if r["rank"] == "3–4"]
    assert [r["total"] for r in semis] == [1.5, 1.5]
    assert {r["placement"] for r in semis} == {0.75}
    assert t.consolation is not None
    cons_winner = t.consolation.bracket.rounds[-1][0].winner
    row = next(r for r in pts["rows"] if r["name"] == cons_winner)
    assert row["rank"] == "5–8" and row["won"] == 2
    assert (row["match_win"], row["placement"], row["total"]) == (1.49, 0.34, 1.83)
    assert math.isclose(2 * math.sqrt(5) / 3 + 1.8 * (0.25 + 0.2 + 1 / 6 + 1 / 7) / 4,
                        1.8324977, abs_tol=1e-7)


def test_a_director_can_switch_the_master_points_off() -> None:
    t = _entered(points=False)
    _play_out(t)
    pts = event_points(t)
    assert pts["on"] is False and pts["rows"] == []


def test_the_log_replays_to_the_same_ledger() -> None:
    acts: list[dict[str, Any]] = [{"do": "money", "fee": 1500, "return_pct": "85"}]
    acts += [{"do": "register", "name": n} for n in NAMES[:3]]
    acts += [{"do": "payment", "player": 1, "cents": 1500, "method": "note", "note": "IOU"},
             {"do": "reentry", "player": 2}, {"do": "payment", "player": 2, "cents": 3000},
             {"do": "refund", "player": 2, "cents": 1000}]
    live = Tournament()
    for a in acts:
        live.apply(a)
    assert Tournament.fold(acts).to_dict() == live.to_dict()
