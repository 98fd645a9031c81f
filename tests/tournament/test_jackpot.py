"""Jackpots and re-entries folded at the desk (``_jackpot``, issue 35 §3):
a jackpot full at its size-th entry (and never past it), a re-entry into
the Main's next open late slot or a More Swiss's next round at 0-0, its
refusals with the reason, and the ledger's one more entry with the seat."""

from __future__ import annotations

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._running import jackpot_due
from bgclock.tournament._standings import standings


def _jackpot(size: int, entered: int) -> Tournament:
    t = Tournament.fold([{"do": "settings",
                          "jackpot": {"size": size, "length": 3, "room": " Sala  B "}}])
    for i in range(1, entered + 1):
        t.apply({"do": "register", "name": f"J{i}"})
    return t


@pytest.mark.parametrize("size", [4, 8])
def test_a_jackpot_is_full_at_its_last_place_and_refuses_one_more(size: int) -> None:
    t = _jackpot(size, size - 1)
    assert not jackpot_due(t) and all(p.checked_in for p in t.players)
    t.apply({"do": "register", "name": "Last"})
    assert jackpot_due(t)
    view = t.to_dict()["settings"]
    assert view["jackpot"] == {"size": size, "length": 3, "room": "Sala B"}
    assert view["rounds"][0]["length"] == 3
    with pytest.raises(IllegalContest, match=f"the jackpot is full \\({size} players\\)") as no:
        t.apply({"do": "register", "name": "Late"})
    assert no.value.code == "jackpot_full"
    t.apply({"do": "draw", "seed": 4})
    assert not jackpot_due(t) and t.main is not None and t.main.size == size
    t.apply({"do": "start_round", "round": 0})
    assert len(t.live_tables()) == size // 2


def test_a_withdrawal_before_the_draw_frees_a_place() -> None:
    t = _jackpot(4, 4)
    t.apply({"do": "withdraw", "player": 2})
    assert not jackpot_due(t)
    t.apply({"do": "register", "name": "Again"})
    assert jackpot_due(t)


def test_a_jackpot_is_a_knockout_without_late_slots() -> None:
    with pytest.raises(InvalidContest, match="jackpot: a jackpot is a knockout"):
        Tournament.fold([{"do": "settings", "format": "swiss",
                          "jackpot": {"size": 4, "length": 3}}])
    with pytest.raises(InvalidContest, match="late_slots: a jackpot"):
        Tournament.fold([{"do": "settings", "jackpot": {"size": 4, "length": 3},
                          "late_slots": 2}])
    with pytest.raises(InvalidContest, match="jackpot.size"):
        Tournament.fold([{"do": "settings", "jackpot": {"size": 6, "length": 3}}])


def _main(n: int, late: int, until: int | None = 100) -> Tournament:
    t = Tournament.fold([{"do": "settings", "late_slots": late, "reentry_until_ms": until}])
    for i in range(1, n + 1):
        t.apply({"do": "register", "name": f"P{i}"})
        t.apply({"do": "check_in", "player": i})
    t.apply({"do": "draw", "seed": 7})
    return t


def _first_loser(t: Tournament) -> tuple[int, str]:
    for i, m in enumerate(t.bracket("main").rounds[0]):
        if m.a is not None and m.b is not None and m.winner is None:
            t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
            player = t.by_name(m.b)
            assert player is not None
            return player.id, m.b
    raise AssertionError("no match")


def test_a_knocked_out_player_reenters_the_mains_next_late_slot() -> None:
    t = _main(6, 2)
    assert t.main is not None
    pid, name = _first_loser(t)
    entries = t.to_dict()["money"]["totals"]["entries"]
    done = t.apply({"do": "reenter", "player": pid, "at_ms": 50})
    slot = t.main.late_positions[0]
    assert done == {"player": pid, "position": slot, "entries": 2}
    assert t.main.bracket.slots()[slot] == name
    # the seat and the fee: one more entry in the ledger
    money = t.to_dict()["money"]
    assert money["totals"]["entries"] == entries + 1
    assert next(r for r in money["players"] if r["player"] == pid)["entries"] == 2
    # in play again: no second re-entry until knocked out again
    with pytest.raises(IllegalContest, match="still in the Main") as refused:
        t.apply({"do": "reenter", "player": pid, "at_ms": 60})
    assert refused.value.code == "not_knocked_out"
    # the standings list them once, in play
    assert name in standings(t).events[0].in_play


def test_a_reentry_is_refused_with_the_reason() -> None:
    t = _main(6, 1, until=100)
    pid, _ = _first_loser(t)
    winner = t.by_name(t.bracket("main").rounds[0][0].a or "")
    assert winner is not None
    cases = [({"player": winner.id, "at_ms": 1}, "not_knocked_out"),
             ({"player": pid, "at_ms": 101}, "reentry_closed")]
    for body, code in cases:
        with pytest.raises(IllegalContest) as refused:
            t.apply({"do": "reenter", **body})
        assert refused.value.code == code
    before = t.to_dict()
    t.apply({"do": "reenter", "player": pid, "at_ms": 100})  # the deadline itself: taken
    pid2, _ = _first_loser(t)
    with pytest.raises(IllegalContest, match="no late slot of the Main is open") as full:
        t.apply({"do": "reenter", "player": pid2, "at_ms": 2})
    assert full.value.code == "no_late_slot" and before != t.to_dict()
    none = _main(5, 1, until=None)
    lost, _ = _first_loser(none)
    with pytest.raises(IllegalContest, match="no re-entry deadline") as closed:
        none.apply({"do": "reenter", "player": lost, "at_ms": 0})
    assert closed.value.code == "no_reentries"


def test_a_reentered_player_enters_the_consolation_once() -> None:
    t = _main(6, 2)
    assert t.main is not None
    pid, name = _first_loser(t)
    t.apply({"do": "reenter", "player": pid, "at_ms": 1})
    t.apply({"do": "close_late"})
    for r in range(2):
        for i, m in enumerate(t.bracket("main").rounds[r]):
            if m.a and m.b and m.winner is None:
                loser_first = name if name in (m.a, m.b) else m.a
                t.apply({"do": "result", "round": r, "match": i,
                         "winner": m.b if loser_first == m.a else m.a})
    assert t.consolation is not None
    entrants = [n for n in t.consolation.bracket.slots() if n]
    assert entrants.count(name) == 1


def test_a_more_swiss_reentry_plays_the_next_round_at_nil() -> None:
    t = Tournament.fold([{"do": "settings", "format": "moreswiss", "losses": 1,
                          "reentry_until_ms": 1000}])
    for i in range(1, 7):
        t.apply({"do": "register", "name": f"P{i}"})
        t.apply({"do": "check_in", "player": i})
    t.apply({"do": "draw", "seed": 2})
    pairing = t.next_pairing(9)
    t.apply(pairing)
    for i, (a, _b) in enumerate(pairing["pairs"]):
        t.apply({"do": "result", "round": 0, "match": i, "winner": a})
    out = t.by_name(pairing["pairs"][0][1])
    assert out is not None and t.weekly is not None
    assert out.name not in t.weekly.due(t.withdrawn)
    done = t.apply({"do": "reenter", "player": out.id, "at_ms": 5})
    assert done == {"player": out.id, "round": 1, "entries": 2}
    assert out.name in t.weekly.due(t.withdrawn)
    row = next(r for r in t.weekly.field() if r.player == out.name)
    assert (row.wins, row.losses, row.out) == (0, 0, False)
    assert len(t.weekly.standings()) == 6  # listed once
    second = t.next_pairing(3)
    assert any(out.name in pair for pair in second["pairs"]) or second["bye"] == out.name
    with pytest.raises(IllegalContest, match="still in the event"):
        t.apply({"do": "reenter", "player": out.id, "at_ms": 6})
