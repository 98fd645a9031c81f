"""A tournament run from the director's desk: state = fold(actions)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import ContestError, IllegalContest, InvalidContest, MainDraw, Tournament


def _players(n: int, *, checked_in: bool = True) -> list[dict[str, Any]]:
    acts: list[dict[str, Any]] = [{"do": "register", "name": f"P{i}"} for i in range(1, n + 1)]
    if checked_in:
        acts += [{"do": "check_in", "player": i} for i in range(1, n + 1)]
    return acts


def _run(actions: list[dict[str, Any]]) -> Tournament:
    t = Tournament()
    for a in actions:
        t, _ = t.after(a)
    return t


def _play_ready(t: Tournament, event: str, rng: random.Random) -> tuple[Tournament, list[Any]]:
    """Decide every match of ``event`` whose players are known; the actions."""
    acts = []
    for r in range(len(t.bracket(event).rounds)):
        for i in range(len(t.bracket(event).rounds[r])):
            m = t.bracket(event).rounds[r][i]
            if m.winner is None and m.a is not None and m.b is not None:
                a = {"do": "result", "event": event, "round": r, "match": i,
                     "winner": rng.choice([m.a, m.b])}
                t, _ = t.after(a)
                acts.append(a)
    return t, acts


def test_the_draw_is_the_same_main_draw_the_simulation_makes() -> None:
    # tournament.md §4: the same seed gives the same draw
    t = _run([{"do": "settings", "seed": 42, "late_slots": 2}, *_players(9), {"do": "draw"}])
    expected = MainDraw([f"P{i}" for i in range(1, 10)], late_slots=2, rng=random.Random(42))
    assert t.main is not None
    assert t.main.bracket.to_dict() == expected.bracket.to_dict()
    assert t.main.late_positions == expected.late_positions


def test_only_checked_in_players_still_in_are_drawn() -> None:
    t = _run([*_players(6, checked_in=False), {"do": "check_in", "player": 1},
              {"do": "check_in", "player": 2}, {"do": "check_in", "player": 3},
              {"do": "check_in", "player": 4}, {"do": "withdraw", "player": 4},
              {"do": "draw"}])
    assert t.main is not None
    assert sorted(x for x in t.main.bracket.slots() if x) == ["P1", "P2", "P3"]


def test_a_refused_action_changes_nothing() -> None:
    t = _run(_players(4))
    before = t.to_dict()
    for bad in ({"do": "register", "name": "P1"}, {"do": "register", "name": ""},
                {"do": "check_in", "player": 9}, {"do": "result", "round": 0, "match": 0,
                                                   "winner": "P1"},
                {"do": "settings", "rounds": [{"length": 0}]},
                {"do": "settings", "rounds": [{"clock": "sometimes"}]},
                {"do": "nothing"}, {"do": "draw", "extra": 1}):
        with pytest.raises(ContestError):
            t.after(bad)
        assert t.to_dict() == before


def test_errors_name_the_field() -> None:
    t = Tournament()
    with pytest.raises(InvalidContest, match=r"rounds\[1\]\.clock"):
        t.after({"do": "settings", "rounds": [{}, {"clock": "maybe"}]})
    with pytest.raises(InvalidContest, match="late_slots"):
        t.after({"do": "settings", "late_slots": -1})


def test_late_arrivals_take_the_slots_in_order_and_closing_gives_byes() -> None:
    t = _run([{"do": "settings", "seed": 3, "late_slots": 3}, *_players(5),
              {"do": "register", "name": "Late"}, {"do": "draw"},
              {"do": "arrive", "player": 6}])
    assert t.main is not None
    assert t.main.arrivals == ["Late"] and t.players[5].checked_in
    t, _ = t.after({"do": "close_late"})
    assert not t.main.late_open
    with pytest.raises(IllegalContest):
        t.after({"do": "arrive", "player": 1})


def test_tables_are_given_to_ready_matches_and_freed_by_their_results() -> None:
    t = _run([{"do": "settings", "seed": 1}, *_players(8), {"do": "draw"},
              {"do": "start_round", "round": 0}])
    assert sorted(t.live_tables()) == [1, 2, 3, 4]
    with pytest.raises(IllegalContest):  # table 1 still has a match on
        t.after({"do": "start_round", "round": 0})
    m = t.main.bracket.rounds[0][0] if t.main else None
    assert m is not None
    t, _ = t.after({"do": "result", "round": 0, "match": 0, "winner": m.a, "source": "clock"})
    assert sorted(t.live_tables()) == [2, 3, 4]
    assert t.main is not None and t.main.bracket.rounds[1][0].a == m.a


def test_the_consolation_is_drawn_once_every_first_match_loser_is_known() -> None:
    t = _run([{"do": "settings", "seed": 5}, *_players(8), {"do": "draw"}])
    rng = random.Random(0)
    for i in range(3):
        assert t.consolation is None and t.main is not None
        m = t.main.bracket.rounds[0][i]
        t, _ = t.after({"do": "result", "round": 0, "match": i, "winner": m.a})
    m = t.main.bracket.rounds[0][3]
    t, _ = t.after({"do": "result", "round": 0, "match": 3, "winner": rng.choice([m.a, m.b])})
    assert t.consolation is not None  # at once, without waiting for the Main's later rounds
    losers = {m.b if m.winner == m.a else m.a for m in t.main.bracket.rounds[0]} \
        if t.main else set()
    assert {x for x in t.consolation.bracket.slots() if x} == losers


def test_a_correction_moves_the_new_winner_on_until_the_next_match_starts() -> None:
    t = _run([{"do": "settings", "seed": 5}, *_players(8), {"do": "draw"}])
    assert t.main is not None
    m = t.main.bracket.rounds[0][0]
    a, b = m.a, m.b
    t, _ = t.after({"do": "result", "round": 0, "match": 0, "winner": a})
    t, done = t.after({"do": "correct", "round": 0, "match": 0, "winner": b,
                       "reason": "score sheet"})
    assert done == {"winner": b, "was": a}
    assert t.main is not None and t.main.bracket.rounds[1][0].a == b
    assert t.results[("main", 0, 0)].to_dict()["corrected"] == {"from": a, "reason": "score sheet"}
    t, _ = t.after({"do": "result", "round": 0, "match": 1,
                    "winner": t.main.bracket.rounds[0][1].a})
    t, _ = t.after({"do": "start_round", "round": 1})
    with pytest.raises(IllegalContest, match="next match"):
        t.after({"do": "correct", "round": 0, "match": 0, "winner": a})


def test_a_withdrawn_player_loses_the_matches_they_face() -> None:
    t = _run([{"do": "settings", "seed": 5}, *_players(4), {"do": "draw"}])
    assert t.main is not None
    m = t.main.bracket.rounds[0][0]
    gone = t.by_name(str(m.a))
    assert gone is not None
    t, _ = t.after({"do": "withdraw", "player": gone.id})
    assert t.main is not None and t.main.bracket.rounds[0][0].winner == m.b
    assert t.results[("main", 0, 0)].to_dict() == {"source": "withdrawn"}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), late=st.integers(0, 6), seed=st.integers(0, 10**6))
def test_the_log_folds_to_the_state_the_director_saw(n: int, late: int, seed: int) -> None:
    if bracket_too_big(n, late):
        return
    actions: list[dict[str, Any]] = [{"do": "settings", "seed": seed, "late_slots": late},
                                     *_players(n), {"do": "draw"}]
    if late:
        actions.append({"do": "close_late"})
    t = _run(actions)
    rng = random.Random(seed)
    for event in ("main", "consolation", "main", "consolation", "main", "consolation"):
        for _ in range(8):
            if event == "consolation" and t.consolation is None:
                break
            t, acts = _play_ready(t, event, rng)
            actions += acts
    assert Tournament.fold(actions).to_dict() == t.to_dict()
    assert t.main is not None and t.main.bracket.champion is not None
    assert t.consolation is not None


def bracket_too_big(n: int, late: int) -> bool:
    size = 2
    while size < n + late:
        size *= 2
    return n * 2 < size


def test_a_draw_with_fewer_registered_players_than_half_the_bracket_is_refused() -> None:
    # Reading (docs/tournament.md, "Readings", section 4): the director keeps
    # fewer late slots; nothing is drawn with a bye or a slot facing another.
    t = _run([{"do": "settings", "late_slots": 4, "seed": 1}, *_players(3)])
    with pytest.raises(InvalidContest, match="late") as err:
        t.after({"do": "draw"})
    assert "half" in str(err.value)
    assert t.main is None  # refused: nothing changed
    t, _ = t.after({"do": "settings", "late_slots": 1})
    t, done = t.after({"do": "draw"})
    assert done["size"] == 4 and t.main is not None
