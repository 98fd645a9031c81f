"""A double elimination run at the desk (``_double``, issue 35 §2): the
Main is the winners' bracket, the losers' bracket and the final (with its
reset) are events started at tables like the consolation; results by hand
or from a clock, a correction that would change a match already at a table
or decided refused, the standings as the format's, the log replays it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._draw import Match
from bgclock.tournament._standings import player_results, standings
from bgclock.tournament.formats import DoubleElimination

Pick = Callable[[Match], str]


def _drawn(n: int, seed: int = 3) -> tuple[Tournament, list[dict[str, Any]]]:
    log: list[dict[str, Any]] = [{"do": "settings", "format": "double"}]
    for i in range(1, n + 1):
        log += [{"do": "register", "name": f"P{i}"}, {"do": "check_in", "player": i}]
    log.append({"do": "draw", "seed": seed})
    return Tournament.fold(log), log


def _step(t: Tournament, log: list[dict[str, Any]], pick: Pick) -> bool:
    """Start the first round with ready matches and decide them; False: none."""
    for event in ("main", "losers", "final"):
        bracket = t.bracket(event)
        for r in range(len(bracket.rounds)):
            ready = t.ready(event, r)
            if not ready:
                continue
            actions = [{"do": "start_round", "event": event, "round": r}] + [
                {"do": "result", "event": event, "round": r, "match": i,
                 "winner": pick(bracket.rounds[r][i]), "source": "clock"} for i in ready]
            for a in actions:
                t.apply(a)
                log.append(a)
            return True
    return False


def _play(n: int, pick: Pick, seed: int = 3) -> tuple[Tournament, list[dict[str, Any]]]:
    t, log = _drawn(n, seed)
    while _step(t, log, pick):
        pass
    return t, log


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 13, 16])
@pytest.mark.parametrize("upset", [False, True])
def test_a_double_elimination_is_played_to_its_champion(n: int, upset: bool) -> None:
    t, log = _play(n, (lambda m: m.b or "") if upset else (lambda m: m.a or ""))
    assert t.double is not None and t.consolation is None
    champion = t.double.champion
    assert champion is not None
    # the losers' champion won the first final: the reset was played
    assert len(t.double.final.rounds) == (2 if upset else 1)
    # every player but the champion lost twice; the pure format agrees
    lost: dict[str, int] = {}
    for row in player_results(t):
        if row["result"] == "lost":
            lost[row["player"]] = lost.get(row["player"], 0) + 1
    assert champion not in lost or (upset and lost[champion] == 1)
    assert all(k == 2 for p, k in lost.items() if p != champion)
    assert len(lost) == n - 1 + (1 if upset else 0)
    s = standings(t).events[0]
    assert s.complete and s.champion == champion and s.placings[0].names == (champion,)
    assert sum(len(p.names) for p in s.placings) == n
    assert Tournament.fold(log).to_dict() == t.to_dict()


def test_the_losers_bracket_is_the_formats_drop_in_order() -> None:
    t, log = _play(8, lambda m: min(m.a or "", m.b or ""), seed=5)
    assert t.main is not None
    # the pure format fed the same results gives the same losers' bracket
    pure = DoubleElimination([n for n in t.main.bracket.slots() if n], random.Random(0),
                             main=t.main)
    for r, row in enumerate(t.bracket("losers").rounds):
        for i, m in enumerate(row):
            s = pure.losers[r][i]
            assert (s.a, s.b) == (m.a, m.b)
            if not s.decided:
                assert m.winner is not None
                pure.record("losers", r, i, m.winner)
    assert pure.offsets == (1, 0) and pure.losers_champion is not None


def test_a_loser_drops_into_the_losers_bracket_once_known() -> None:
    t, log = _drawn(4)
    assert t.bracket("losers").rounds == [[Match()], [Match()]]
    with pytest.raises(IllegalContest, match="no match of this round is ready"):
        t.apply({"do": "start_round", "event": "losers", "round": 0})
    first = t.bracket("main").rounds[0]
    for i, m in enumerate(first):
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    losers = t.bracket("losers").rounds[0][0]
    assert {losers.a, losers.b} == {first[0].b, first[1].b}
    t.apply({"do": "start_round", "event": "losers", "round": 0})
    assert ("losers", 0, 0) in t.tables


def test_a_correction_that_changes_a_match_at_a_table_is_refused() -> None:
    t, log = _drawn(4)
    first = t.bracket("main").rounds[0]
    for i, m in enumerate(first):
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    t.apply({"do": "start_round", "event": "losers", "round": 0})
    before = t.to_dict()
    m = first[0]
    with pytest.raises(IllegalContest, match="losers' bracket's round 1 match 1") as refused:
        t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b})
    assert refused.value.code == "double_match_started"
    assert t.to_dict() == before
    with pytest.raises(IllegalContest, match="undo that one first"):
        t.apply({"do": "revert", "round": 0, "match": 0})
    assert t.to_dict() == before


def test_a_correction_before_the_drop_is_played_moves_the_loser() -> None:
    t, log = _drawn(4)
    first = t.bracket("main").rounds[0]
    for i, m in enumerate(first):
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    a, b = first[0].a, first[0].b
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": b, "reason": "sheet"})
    assert a in (t.bracket("losers").rounds[0][0].a, t.bracket("losers").rounds[0][0].b)
    # the hand result's undo: the loser is not known again
    t.apply({"do": "revert", "round": 0, "match": 0})
    t.apply({"do": "revert", "round": 0, "match": 0})
    assert t.bracket("losers").rounds[0][0].a is None


def test_a_withdrawal_in_the_losers_bracket_gives_the_match() -> None:
    t, log = _drawn(4)
    first = t.bracket("main").rounds[0]
    for i, m in enumerate(first):
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    out = t.bracket("losers").rounds[0][0]
    gone = t.by_name(out.a or "")
    assert gone is not None
    t.apply({"do": "withdraw", "player": gone.id})
    assert out.winner == out.b and t.results[("losers", 0, 0)].source == "withdrawn"


def test_a_double_elimination_refuses_what_it_cannot_be() -> None:
    with pytest.raises(InvalidContest, match="late_slots: a double elimination"):
        Tournament.fold([{"do": "settings", "format": "double", "late_slots": 2}])
    t, _ = _drawn(3)
    with pytest.raises(IllegalContest, match="not a double elimination") as refused:
        Tournament.fold([{"do": "register", "name": "A"}]).bracket("losers")
    assert refused.value.code == "not_double"
    t = Tournament.fold([{"do": "settings", "format": "double", "reentry_until_ms": 10}])
    for i in range(1, 4):
        t.apply({"do": "register", "name": f"P{i}"})
        t.apply({"do": "check_in", "player": i})
    t.apply({"do": "draw", "seed": 1})
    with pytest.raises(IllegalContest, match="takes no re-entries") as refused:
        t.apply({"do": "reenter", "player": 1, "at_ms": 0})
    assert refused.value.code == "no_reentries_format"
