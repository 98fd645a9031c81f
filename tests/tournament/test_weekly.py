"""The weekly formats folded at the desk (``_weekly``, issue 35 §2): each
round paired when it starts and stored in the log, the fold replaying it;
what a paired round refuses; the standings and the field."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._standings import standings


def _drawn(n: int, **settings: Any) -> tuple[Tournament, list[dict[str, Any]]]:
    log: list[dict[str, Any]] = [{"do": "settings", **settings}]
    for i in range(1, n + 1):
        log += [{"do": "register", "name": f"P{i}"}, {"do": "check_in", "player": i}]
    log.append({"do": "draw", "seed": 11})
    t = Tournament.fold(log)
    return t, log


def _play_round(t: Tournament, log: list[dict[str, Any]], seed: int) -> int:
    """Pair the next round, start it and let the first-named player win each match."""
    pairing = t.next_pairing(seed)
    r = pairing["round"]
    for action in (pairing, {"do": "start_round", "round": r}):
        t.apply(action)
        log.append(action)
    for i, m in enumerate(t.bracket("main").rounds[r]):
        if m.b is not None:
            action = {"do": "result", "round": r, "match": i, "winner": m.a}
            t.apply(action)
            log.append(action)
    return int(r)


def test_a_swiss_plays_its_rounds_and_the_log_replays_them() -> None:
    t, log = _drawn(6, format="swiss", swiss_rounds=3)
    assert t.weekly is not None and t.weekly.bracket.rounds == []
    for k in range(3):
        _play_round(t, log, 40 + k)
    assert t.weekly.finished(t.withdrawn)
    with pytest.raises(IllegalContest, match="every round"):
        t.next_pairing(1)
    again = Tournament.fold(log)
    assert again.to_dict() == t.to_dict()
    s = standings(t).events[0]
    assert s.complete and s.event == "main" and sum(len(p.names) for p in s.placings) == 6
    # nobody met twice in 3 rounds of 6 players
    rows = t.weekly.field()
    assert all(len(set(r.opponents)) == 3 for r in rows)


def test_a_round_is_paired_only_from_a_complete_round() -> None:
    t, log = _drawn(4, format="swiss", swiss_rounds=3)
    pairing = t.next_pairing(5)
    t.apply(pairing)
    with pytest.raises(IllegalContest, match="round 1 is not over") as refused:
        t.next_pairing(6)
    assert refused.value.code == "round_not_over"


def test_a_stored_pairing_must_pair_exactly_the_players_due() -> None:
    t, _ = _drawn(5, format="moreswiss", losses=2)
    good = t.next_pairing(3)
    bye = good["bye"]
    assert bye is not None
    with pytest.raises(InvalidContest, match="paired once"):
        t.apply({**good, "bye": None})
    with pytest.raises(InvalidContest, match="not a player due"):
        t.apply({**good, "bye": "Nobody"})
    with pytest.raises(InvalidContest, match="paired once"):
        t.apply({**good, "pairs": [good["pairs"][0], good["pairs"][0]]})
    with pytest.raises(InvalidContest, match="next round to pair is 0"):
        t.apply({**good, "round": 1})
    t.apply(good)  # the refusals changed nothing
    assert len(t.bracket("main").rounds[0]) == 3 and t.bracket("main").rounds[0][-1].winner == bye


def test_a_correction_that_would_change_a_paired_round_is_refused() -> None:
    t, log = _drawn(8, format="moreswiss", losses=3)
    _play_round(t, log, 1)
    _play_round(t, log, 2)
    m = t.bracket("main").rounds[0][0]
    assert m.a is not None and m.b is not None
    before = t.to_dict()
    with pytest.raises(IllegalContest, match="round 2 was paired from this result") as no:
        t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "sheet"})
    assert no.value.code == "pairing_would_change"
    with pytest.raises(IllegalContest, match="round 2 is paired from this result") as undo:
        t.apply({"do": "revert", "round": 0, "match": 0})
    assert undo.value.code == "round_paired" and undo.value.params["round"] == 2
    assert t.to_dict() == before
    # the last round's results correct and undo as the Main's do
    last = t.bracket("main").rounds[1][0]
    assert last.b is not None
    t.apply({"do": "correct", "round": 1, "match": 0, "winner": last.b, "reason": "sheet"})
    t.apply({"do": "revert", "round": 1, "match": 0})
    assert t.bracket("main").rounds[1][0].winner == last.a


def test_a_withdrawn_player_loses_the_match_under_way_and_is_not_paired_again() -> None:
    t, log = _drawn(6, format="swiss", swiss_rounds=3)
    pairing = t.next_pairing(9)
    t.apply(pairing)
    a, b = pairing["pairs"][0]
    t.apply({"do": "withdraw", "player": int(a[1:])})
    assert t.bracket("main").rounds[0][0].winner == b
    assert t.results[("main", 0, 0)].source == "withdrawn"
    for i, m in enumerate(t.bracket("main").rounds[0]):
        if m.winner is None:
            t.apply({"do": "result", "round": 0, "match": i, "winner": m.a})
    nxt = t.next_pairing(10)
    assert a not in [x for p in nxt["pairs"] for x in p] and nxt["bye"] is not None


def test_a_round_robin_meets_everyone_once_and_ranks_by_head_to_head() -> None:
    t, log = _drawn(5, format="roundrobin")
    for k in range(5):
        _play_round(t, log, k)
    assert t.weekly is not None and t.weekly.finished(t.withdrawn)
    met = [frozenset((m.a, m.b)) for r in t.bracket("main").rounds for m in r if m.b]
    assert len(met) == len(set(met)) == 10
    # a round robin's schedule never depends on results: a correction is taken
    m = t.bracket("main").rounds[0][0]
    t.apply({"do": "correct", "round": 0, "match": 0, "winner": m.b, "reason": "x"})
    assert standings(t).events[0].complete


def test_settings_are_checked_at_the_draw_and_locked_after() -> None:
    with pytest.raises(InvalidContest, match="swiss_rounds: a Swiss needs"):
        _drawn(4, format="swiss")
    with pytest.raises(InvalidContest, match="late_slots: a moreswiss takes no late"):
        _drawn(4, format="moreswiss", losses=2, late_slots=2)
    with pytest.raises(InvalidContest, match="format: must be one of knockout, swiss"):
        Tournament().apply({"do": "settings", "format": "dutch"})
    t, _ = _drawn(4, format="moreswiss", losses=2)
    with pytest.raises(IllegalContest, match="settings can no longer change"):
        t.apply({"do": "settings", "losses": 3})
    with pytest.raises(IllegalContest, match="no late arrivals"):
        t.apply({"do": "close_late"})
    with pytest.raises(IllegalContest, match="not_weekly|no rounds to pair"):
        _drawn(4)[0].next_pairing(1)
