"""The director's undo (issue 19 §2): ``reinstate`` a withdrawn player and
``revert`` a hand result or a correction, each a compensating action in the
log; refused (changing nothing) once something later depends on it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import IllegalContest, Tournament


def _drawn(n: int, seed: int, **extra: Any) -> Tournament:
    t = Tournament()
    t.apply({"do": "settings", "seed": seed, **extra})
    for k in range(1, n + 1):
        t.apply({"do": "register", "name": f"P{k}"})
        t.apply({"do": "check_in", "player": k})
    t.apply({"do": "draw"})
    return t


def _results(t: Tournament) -> dict[str, Any]:
    """What an undo must restore: every match, its result, every player's status."""
    view = t.to_dict()
    return {"main": view["main"], "consolation": view["consolation"],
            "results": {str(k): v for k, v in t.results.items()},
            "players": view["players"]}


def _playable(t: Tournament) -> list[tuple[str, int, int]]:
    out = []
    for event, bracket in (("main", t.main.bracket if t.main else None),
                           ("consolation", t.consolation.bracket if t.consolation else None)):
        if bracket is None:
            continue
        for r, matches in enumerate(bracket.rounds):
            out += [(event, r, i) for i, m in enumerate(matches)
                    if m.a and m.b and m.winner is None]
    return out


def _play_some(t: Tournament, rng: random.Random, n: int) -> None:
    for _ in range(n):
        ready = _playable(t)
        if not ready:
            return
        event, r, i = rng.choice(ready)
        m = t.bracket(event).rounds[r][i]
        t.apply({"do": "result", "event": event, "round": r, "match": i,
                 "winner": rng.choice([m.a, m.b]), "source": "hand"})


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(4, 16), st.integers(0, 12))
def test_an_action_then_its_undo_restores_the_results_and_statuses(
        seed: int, players: int, played: int) -> None:
    rng = random.Random(seed)
    t = _drawn(players, seed)
    _play_some(t, rng, played)
    for _ in range(12):
        before = _results(t)
        kind = rng.randrange(3)
        ready = _playable(t)
        if kind == 0 and ready:  # a result by hand, reverted
            event, r, i = rng.choice(ready)
            m = t.bracket(event).rounds[r][i]
            t.apply({"do": "result", "event": event, "round": r, "match": i,
                     "winner": rng.choice([m.a, m.b]), "score": [7, rng.randrange(7)]})
            undo = {"do": "revert", "event": event, "round": r, "match": i}
        elif kind == 1:  # a correction, reverted
            decided = [(e, r, i) for (e, r, i), d in t.results.items()
                       if d.source == "hand"]
            if not decided:
                continue
            event, r, i = rng.choice(decided)
            m = t.bracket(event).rounds[r][i]
            try:
                t.apply({"do": "correct", "event": event, "round": r, "match": i,
                         "winner": m.b if m.winner == m.a else m.a, "reason": "sheet"})
            except IllegalContest:
                assert _results(t) == before
                continue
            undo = {"do": "revert", "event": event, "round": r, "match": i}
        else:  # a withdrawal, the player reinstated
            still = [p.id for p in t.players if not p.withdrawn]
            pid = rng.choice(still)
            t.apply({"do": "withdraw", "player": pid})
            undo = {"do": "reinstate", "player": pid}
        try:
            t.apply(undo)
        except IllegalContest as exc:
            # refused only because something later depends on it (and says so)
            assert exc.code in ("next_match_started", "consolation_drawn"), exc
            continue
        assert _results(t) == before, undo


def test_a_withdrawal_after_the_draw_is_undone_while_the_match_is_undecided() -> None:
    t = _drawn(4, 3)
    m = t.main.bracket.rounds[0][0] if t.main else None
    assert m is not None and m.a and m.b
    pid = t.by_name(m.a).id  # type: ignore[union-attr]
    before = _results(t)
    t.apply({"do": "withdraw", "player": pid})
    assert m.winner == m.b and t.results[("main", 0, 0)].to_dict() == {"source": "withdrawn"}
    done = t.apply({"do": "reinstate", "player": pid})
    assert done == {"player": pid, "undecided": [{"event": "main", "round": 0, "match": 0}]}
    assert _results(t) == before
    # once the winner's next match is decided, the withdrawal's result stays
    t.apply({"do": "withdraw", "player": pid})
    other = t.main.bracket.rounds[0][1]  # type: ignore[union-attr]
    t.apply({"do": "result", "round": 0, "match": 1, "winner": other.a})
    nxt = t.main.bracket.rounds[1][0]  # type: ignore[union-attr]
    t.apply({"do": "result", "round": 1, "match": 0, "winner": nxt.a})
    before = _results(t)
    with pytest.raises(IllegalContest) as refused:
        t.apply({"do": "reinstate", "player": pid})
    assert refused.value.code == "next_match_started"
    assert "undo that one first" in str(refused.value)
    assert _results(t) == before


def test_revert_refuses_what_it_cannot_undo_and_changes_nothing() -> None:
    t = _drawn(8, 5)
    before = _results(t)
    with pytest.raises(IllegalContest) as refused:
        t.apply({"do": "revert", "round": 0, "match": 0})
    assert refused.value.code == "no_result" and _results(t) == before
    m = t.main.bracket.rounds[0][0]  # type: ignore[union-attr]
    t.apply({"do": "result", "round": 0, "match": 0, "winner": m.a, "source": "clock"})
    before = _results(t)
    with pytest.raises(IllegalContest) as refused:
        t.apply({"do": "revert", "round": 0, "match": 0})
    assert refused.value.code == "not_reversible" and _results(t) == before
    # a correction of a clock result is reverted to the clock's result
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "sheet"})
    assert t.apply({"do": "revert", "round": 0, "match": 0}) == {
        "winner": m.a, "reverted": "correction"}
    assert _results(t) == before


def test_undo_is_refused_once_the_consolation_is_drawn_with_the_loser() -> None:
    t = _drawn(4, 9)
    for i in (0, 1):
        m = t.main.bracket.rounds[0][i]  # type: ignore[union-attr]
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    assert t.consolation is not None  # drawn with both first-round losers
    before = _results(t)
    with pytest.raises(IllegalContest) as refused:
        t.apply({"do": "revert", "round": 0, "match": 0})
    assert refused.value.code == "consolation_drawn"
    assert _results(t) == before


def test_two_dashboards_undoing_the_same_correction_undo_it_once() -> None:
    """Both dashboards showed "undo the last correction" of a hand result
    corrected to the other player. The first undo puts the hand result
    back; the second names what it saw (the corrected winner, one
    correction) and is refused instead of wiping the hand result too."""
    t = _drawn(8, 5)
    m = t.main.bracket.rounds[0][0]  # type: ignore[union-attr]
    t.apply({"do": "result", "round": 0, "match": 0, "winner": m.a, "source": "hand"})
    hand = _results(t)
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "sheet"})
    seen = {"do": "revert", "round": 0, "match": 0, "winner": m.b, "corrections": 1}
    assert t.apply(seen) == {"winner": m.a, "reverted": "correction"}
    assert _results(t) == hand
    with pytest.raises(IllegalContest) as refused:
        t.apply(seen)
    assert refused.value.code == "result_changed" and refused.value.params == {"name": m.a}
    assert _results(t) == hand
    # the same on undoing the hand result itself: what was seen must still be there
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "again"})
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "score",
             "score": [5, 3]})  # a correction of the score only: the same winner
    with pytest.raises(IllegalContest):  # it saw one correction; there are two now
        t.apply({**seen, "corrections": 1})
    t.apply({**seen, "corrections": 2})
    t.apply({**seen, "corrections": 1})
    assert _results(t) == hand
    t.apply({"do": "revert", "round": 0, "match": 0, "winner": m.a, "corrections": 0})
    assert t.main.bracket.rounds[0][0].winner is None  # type: ignore[union-attr]
    # a stored revert that names nothing (an older log) still replays
    assert t.apply({"do": "result", "round": 0, "match": 0, "winner": m.a, "source": "hand"})
    assert t.apply({"do": "revert", "round": 0, "match": 0}) == {
        "winner": None, "reverted": "result"}


def test_the_state_says_how_many_corrections_an_undo_walks_back() -> None:
    t = _drawn(8, 5)
    m = t.main.bracket.rounds[0][0]  # type: ignore[union-attr]
    t.apply({"do": "start_round", "round": 0})
    t.apply({"do": "result", "round": 0, "match": 0, "winner": m.a, "source": "hand"})

    def result() -> dict[str, Any]:
        [seat] = [x for x in t.to_dict()["matches"] if (x["round"], x["match"]) == (0, 0)]
        return dict(seat["result"])

    assert "corrections" not in result()
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "sheet"})
    assert result()["corrections"] == 1
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.a, "reason": "again"})
    assert result()["corrections"] == 2
