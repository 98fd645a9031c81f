"""Actions decided in place (issue 18 §1): a refused action leaves the state
exactly as it was, an accepted one gives the state the fold of the log gives,
and deciding costs the action, not the tournament."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import ContestError, Tournament
from bgclock.tournament._running import HANDLERS, SETTLING


def _random_action(t: Tournament, rng: random.Random) -> dict[str, Any]:
    """A plausible action, often refused (wrong match, player or winner)."""
    names = [p.name for p in t.players] or ["nobody"]
    event = rng.choice(["main", "main", "main", "consolation"])
    r, i = rng.randrange(0, 5), rng.randrange(0, 9)
    who = rng.choice([*names, "X"])
    pid = rng.randrange(1, len(t.players) + 3)
    kind = rng.randrange(16)
    if kind == 0:
        return {"do": "register", "name": rng.choice([*names, f"N{rng.randrange(99)}"])}
    if kind == 1:
        return {"do": "withdraw", "player": pid}
    if kind == 2:
        return {"do": "start_round", "event": event, "round": r}
    if kind in (3, 4, 5):
        return {"do": "result", "event": event, "round": r, "match": i, "winner": who,
                **({"score": [rng.randrange(-1, 9), 3]} if rng.random() < 0.5 else {})}
    if kind == 6:
        return {"do": "correct", "event": event, "round": r, "match": i, "winner": who,
                **({"score": rng.choice([[7, 1], [1000, 0], "7-1"])} if rng.random() < 0.5
                   else {})}
    if kind == 7:
        return {"do": "sheet", "event": event, "round": r, "match": i,
                "by": rng.choice(["A", "B", "director", "C"]), "winner": who}
    if kind == 8:
        return {"do": "absent", "event": event, "round": r, "match": i, "player": pid,
                "from_ms": rng.choice([0, 1_000, -5])}
    if kind == 9:
        return {"do": "disqualify", "event": event, "round": r, "match": i, "player": pid}
    if kind == 10:
        return {"do": "arrive", "player": pid, "at_ms": rng.choice([0, 60_000])}
    if kind == 11:
        return {"do": "close_late"}
    if kind == 12:
        return {"do": "settings", "rounds": [{"length": 5}], "late_slots": rng.choice([1, -1])}
    if kind == 14:
        return {"do": "reinstate", "player": pid}
    if kind == 15:
        return {"do": "revert", "event": event, "round": r, "match": i}
    return {"do": "check_in", "player": pid, "checked_in": rng.choice([True, False, 3])}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(5, 14))
def test_a_refused_action_changes_nothing_and_the_log_folds_to_the_same_state(
        seed: int, players: int) -> None:
    rng = random.Random(seed)
    t = Tournament()
    log: list[dict[str, Any]] = [{"do": "settings", "seed": seed, "late_slots": 1}]
    log += [{"do": "register", "name": f"P{k}"} for k in range(1, players + 1)]
    log += [{"do": "check_in", "player": k} for k in range(1, players + 1)]
    log += [{"do": "draw"}]
    for a in log:
        t.apply(a)
    refused = 0
    for _ in range(150):
        action = _random_action(t, rng)
        before = t.to_dict()
        try:
            t.apply(action)
        except ContestError:
            refused += 1
            assert t.to_dict() == before, action
        else:
            log.append(action)
    assert refused > 0
    assert t.to_dict() == Tournament.fold(log).to_dict()
    # the table-number index finds the same live match as a scan of every table
    live = t.live_tables()
    for number in {*t.by_number, *live}:
        found = t.at_table(number)
        assert (found[0] if found else None) == live.get(number)


def test_every_action_has_one_handler_in_the_table() -> None:
    from bgclock.tournament.actions import ACTION_TYPES

    assert set(HANDLERS) == set(ACTION_TYPES)
    assert set(ACTION_TYPES) >= SETTLING


def test_a_refused_correction_leaves_the_next_match_as_it_was() -> None:
    # A correction that would change the consolation's entrants is refused
    # after it was tried: the bracket is put back.
    t = Tournament()
    for k in range(1, 9):
        t.apply({"do": "register", "name": f"P{k}"})
        t.apply({"do": "check_in", "player": k})
    t.apply({"do": "draw"})
    assert t.main is not None
    for i, m in enumerate(t.main.bracket.rounds[0]):
        t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    assert t.consolation is not None
    before = t.to_dict()
    m = t.main.bracket.rounds[0][0]
    with pytest.raises(ContestError, match="consolation"):
        t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b})
    assert t.to_dict() == before


def test_registering_is_a_lookup_not_a_scan() -> None:
    # 4,096 registrations (the most) decided one by one in place: each finds
    # a duplicate name by the index, so the last refuses a taken name as the
    # first does, and no copy of the tournament is made.
    t = Tournament()
    for k in range(4096):
        t.apply({"do": "register", "name": f"Player {k}"})
    with pytest.raises(ContestError, match="already registered"):
        t.apply({"do": "register", "name": "Player 4095"})
    with pytest.raises(ContestError, match="at most 4096"):
        t.apply({"do": "register", "name": "One more"})
    assert len(t.players) == 4096 and t.count == 4096


def test_a_couples_result_or_correction_refused_for_its_score_changes_nothing() -> None:
    from bgclock.tournament._events import EVENT_ACTIONS, EVENT_HANDLERS
    from bgclock.tournament.actions import kind_of

    assert {kind_of(k) for k in EVENT_HANDLERS} == set(EVENT_ACTIONS)
    t = Tournament()
    for k in range(1, 5):
        t.apply({"do": "register", "name": f"P{k}"})
    t.apply({"do": "couples_create", "format": "knockout",
             "couples": [{"name": "Uno", "players": [1, 2]}, {"name": "Due", "players": [3, 4]}]})
    t.apply({"do": "couples_phase", "encounter": 0})
    before = t.to_dict()
    with pytest.raises(ContestError, match="score"):
        t.apply({"do": "couples_result", "encounter": 0, "phase": 1, "match": 0,
                 "winner": "P1", "score": [1000, 0]})
    assert t.to_dict() == before
    t.apply({"do": "couples_result", "encounter": 0, "phase": 1, "match": 0, "winner": "P1"})
    before = t.to_dict()
    with pytest.raises(ContestError, match="score"):
        t.apply({"do": "couples_correct", "encounter": 0, "phase": 1, "match": 0,
                 "winner": "P4", "score": "5-1"})
    assert t.to_dict() == before
