"""The pure fold of the desk's actions: late arrivals at a match, score
sheets, the ruling committee and appeals (bgclock.tournament, issue 12)."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament

MIN = 60_000


def _drawn(n: int = 4, length: int = 7) -> tuple[Tournament, list[dict[str, Any]]]:
    log: list[dict[str, Any]] = [{"do": "settings", "seed": 5, "rounds": [
        {"length": length, "rules": "it-tournament", "clock": "none"}]}]
    for i in range(1, n + 1):
        log += [{"do": "register", "name": f"P{i}"}, {"do": "check_in", "player": i}]
    log += [{"do": "draw"}, {"do": "start_round", "round": 0}]
    return Tournament.fold(log), log


def _ids(state: Tournament, i: int = 0) -> tuple[int, int]:
    m = state.bracket("main").rounds[0][i]
    a, b = state.by_name(m.a or ""), state.by_name(m.b or "")
    assert a is not None and b is not None
    return a.id, b.id


def test_a_late_count_follows_the_rule_and_the_log_replays_to_it() -> None:
    state, log = _drawn()
    a, _b = _ids(state)
    action = {"do": "absent", "round": 0, "match": 0, "player": a, "from_ms": 20 * MIN,
              "at_ms": 0, "clock": False}
    state, done = state.after(action)
    assert done == {"player": a, "side": "A", "from_ms": 20 * MIN}
    key = ("main", 0, 0)
    assert state.late_state(key, 19 * MIN)["points"] == 0
    view = state.late_state(key, 31 * MIN)
    assert view["points"] == 2 and view["score"] == [0, 2] and not view["over"]
    assert view["next_point_ms"] == 35 * MIN and view["out_ms"] == 40 * MIN
    assert state.late_state(key, 40 * MIN)["over"]
    assert state.running_lates() == [key]
    arrive = {"do": "arrive", "player": a, "at_ms": 31 * MIN}
    state, done = state.after(arrive)
    assert done["late"]["points"] == 2 and done["late"]["arrived"]
    assert state.late_state(key, 90 * MIN)["points"] == 2
    assert state.running_lates() == []
    again = Tournament.fold([*log, action, arrive])
    assert again.to_dict() == state.to_dict()


def test_absent_and_disqualify_refusals() -> None:
    state, _ = _drawn()
    a, b = _ids(state)
    c, _d = _ids(state, 1)
    with pytest.raises(InvalidContest, match="player"):
        state.after({"do": "absent", "round": 0, "match": 0, "player": c, "from_ms": 0})
    with pytest.raises(InvalidContest, match="from_ms"):
        state.after({"do": "absent", "round": 0, "match": 0, "player": a, "from_ms": -1})
    state, _ = state.after({"do": "absent", "round": 0, "match": 0, "player": a,
                            "from_ms": 0})
    with pytest.raises(IllegalContest, match="already marked absent"):
        state.after({"do": "absent", "round": 0, "match": 0, "player": a, "from_ms": 0})
    state, done = state.after({"do": "disqualify", "round": 0, "match": 0, "player": a,
                               "score": [0, 4]})
    assert done["winner"] == state.players[b - 1].name
    assert state.results[("main", 0, 0)].to_dict()["source"] == "disqualified"
    with pytest.raises(IllegalContest, match="decided"):
        state.after({"do": "disqualify", "round": 0, "match": 0, "player": b})


def test_sheets_agree_differ_or_the_director_decides() -> None:
    state, _ = _drawn()
    m = state.bracket("main").rounds[0][0]
    sheet = {"do": "sheet", "round": 0, "match": 0}
    state, done = state.after({**sheet, "by": "A", "winner": m.a, "score": [7, 2]})
    assert not done["final"]
    state, done = state.after({**sheet, "by": "B", "winner": m.a, "score": [7, 1]})
    assert done["mismatch"] and state.to_dict()["sheets"][0]["mismatch"]
    state, done = state.after({**sheet, "by": "B", "winner": m.a, "score": [7, 2]})
    assert done["final"] and m.winner is None  # the copy decided; the original is untouched
    assert state.bracket("main").rounds[0][0].winner == m.a
    assert state.results[("main", 0, 0)].to_dict() == {"source": "hand", "sheets": "agreed",
                                             "score": [7, 2]}


def test_an_appeal_panel_replaces_a_member_who_plays_and_the_majority_decides() -> None:
    state, _ = _drawn(8)
    a, b = _ids(state)
    others = [p.id for p in state.players if p.id not in (a, b)]
    with pytest.raises(InvalidContest, match="members"):
        state.after({"do": "committee", "members": [a, a, b]})
    state, _ = state.after({"do": "committee", "members": [b, others[0], others[1]]})
    appeal = {"do": "appeal", "round": 0, "match": 0, "by": a, "ruling": "cocked dice"}
    with pytest.raises(IllegalContest, match="substitute"):
        state.after(appeal)
    with pytest.raises(InvalidContest, match="substitutes"):
        state.after({**appeal, "substitutes": [others[0]]})
    state, done = state.after({**appeal, "substitutes": [others[2]]})
    assert done == {"appeal": 1, "panel": [others[2], others[0], others[1]]}
    votes = {str(others[2]): "uphold", str(others[0]): "overturn", str(others[1]): "uphold"}
    # the director votes with the panel: votes without theirs are refused
    with pytest.raises(InvalidContest, match="votes"):
        state.after({"do": "decide", "appeal": 1, "votes": votes})
    votes["director"] = "overturn"
    with pytest.raises(InvalidContest, match="votes"):
        state.after({"do": "decide", "appeal": 1, "votes": {**votes, "99": "uphold"}})
    state, done = state.after({"do": "decide", "appeal": 1, "votes": votes})
    assert done == {"appeal": 1, "decision": "upheld"}  # a tie, 2-2: the ruling stands
    with pytest.raises(IllegalContest, match="already decided"):
        state.after({"do": "decide", "appeal": 1, "votes": votes})
    # a second appeal: three of four to overturn is a majority
    state, _ = state.after({**appeal, "substitutes": [others[2]]})
    state, done = state.after({"do": "decide", "appeal": 2, "votes": {
        str(others[2]): "overturn", str(others[0]): "overturn", str(others[1]): "uphold",
        "director": "overturn"}})
    assert done == {"appeal": 2, "decision": "overturned"}


# ------------------------------------------------ score sheets (tournament.md 5)

SHEET = {"do": "sheet", "round": 0, "match": 0}


def _sheets(state: Tournament, a: dict[str, Any], b: dict[str, Any]
            ) -> tuple[Tournament, dict[str, Any]]:
    state, _ = state.after({**SHEET, "by": "A", **a})
    return state.after({**SHEET, "by": "B", **b})


def test_different_running_scores_the_trailing_players_sheet_stands_flagged() -> None:
    state, _ = _drawn(length=5)
    m = state.bracket("main").rounds[0][0]
    # the sheets agree on 1-0, 1-2; they differ from game 3, which began with A
    # trailing 1-2: A's sheet stands (A won 5-2 on it), flagged to the director
    a = {"winner": m.a, "games": [[1, 0], [1, 2], [3, 2], [5, 2]], "via": "player"}
    b = {"winner": m.b, "games": [[1, 0], [1, 2], [1, 4], [3, 4], [3, 6]], "via": "player"}
    state, done = _sheets(state, a, b)
    assert done["final"] and done["outcome"] == "trailing" and done["trailing"] == "A"
    assert state.bracket("main").rounds[0][0].winner == m.a
    assert state.results[("main", 0, 0)].to_dict() == {"source": "hand", "sheets": "trailing",
                                             "score": [5, 2], "trailing": "A", "game": 3}
    row = state.to_dict()["sheets"][0]
    assert row["flagged"] and row["game"] == 3 and not row["mismatch"]
    # the director may still correct it
    state, _ = state.after({"do": "correct", "round": 0, "match": 0, "winner": m.b,
                            "reason": "B's sheet was right"})
    assert state.bracket("main").rounds[0][0].winner == m.b


def test_the_trailing_player_is_b_when_b_is_behind_and_the_same_sheets_agree() -> None:
    state, _ = _drawn(length=3)
    m = state.bracket("main").rounds[0][0]
    a = {"winner": m.a, "games": [[2, 0], [3, 0]], "via": "director"}
    b = {"winner": m.b, "games": [[2, 0], [2, 1], [2, 3]], "via": "player"}
    state, done = _sheets(state, a, b)
    assert done["outcome"] == "trailing" and done["trailing"] == "B"
    assert state.results[("main", 0, 0)].to_dict()["score"] == [2, 3]
    state, _ = _drawn(length=3)
    state, done = _sheets(state, {**b, "via": "player"}, b)
    assert done["outcome"] == "agreed"
    assert state.results[("main", 0, 0)].to_dict()["score"] == [2, 3]


@pytest.mark.parametrize(("a", "b", "why"), [
    # level at the start of the first differing game: no trailing player
    ({"games": [[1, 0], [3, 0]]}, {"games": [[1, 0], [1, 1], [1, 3]]}, None),
    ({"games": [[2, 0], [3, 0]]}, {"games": [[0, 1], [0, 3]]}, "level"),
    # one sheet holds only a final result
    ({"score": [3, 1]}, {"games": [[0, 1], [0, 3]]}, "final result"),
    ({}, {"score": [1, 3]}, "final result"),
])
def test_sheets_that_differ_without_a_trailing_player_wait_for_the_director(
    a: dict[str, Any], b: dict[str, Any], why: str | None
) -> None:
    state, _ = _drawn(length=3)
    m = state.bracket("main").rounds[0][0]
    last_a = (a.get("games") or [a.get("score") or [3, 0]])[-1]
    last_b = (b.get("games") or [b.get("score") or [0, 3]])[-1]
    wa = m.a if last_a[0] >= 3 else m.b
    wb = m.a if last_b[0] >= 3 else m.b
    state, done = _sheets(state, {"winner": wa, "via": "player", **a},
                          {"winner": wb, "via": "player", **b})
    if why is None:  # the first differing game began at 1-0: A led, B trailed
        assert done["outcome"] == "trailing" and done["trailing"] == "B"
        return
    assert not done["final"] and done["mismatch"] and done["outcome"] == "director"
    assert why in done["why"]
    assert state.bracket("main").rounds[0][0].winner is None
    assert state.to_dict()["sheets"][0]["mismatch"]


def test_a_result_is_agreed_only_from_the_two_players_own_sheets() -> None:
    # issue 18 section 3: the table's token alone does not confirm a sheet
    state, _ = _drawn()
    m = state.bracket("main").rounds[0][0]
    same = {"winner": m.a, "score": [7, 2]}
    state2, done = _sheets(state, {**same, "via": "table"}, {**same, "via": "table"})
    assert not done["final"] and done["outcome"] == "director"
    assert "table's token" in done["why"] and not done["mismatch"]
    state2, done = _sheets(state, {**same, "via": "table"}, {**same, "via": "player"})
    assert not done["final"] and "sheet of A" in done["why"]
    state2, done = _sheets(state, {**same, "via": "player"}, {**same, "via": "director"})
    assert done["final"] and state2.results[("main", 0, 0)].to_dict()["sheets"] == "agreed"
    # the director's own sheet is final whatever the players' say
    state2, _ = _sheets(state, {**same, "via": "table"}, {**same, "via": "table"})
    state2, done = state2.after({**SHEET, "by": "director", "winner": m.b, "score": [5, 7]})
    assert done["final"] and state2.results[("main", 0, 0)].to_dict() == {
        "source": "hand", "sheets": "director", "score": [5, 7]}


@pytest.mark.parametrize(("edit", "field"), [
    ({"games": []}, "games"),
    ({"games": [[1, 1]]}, "games[0]"),
    ({"games": [[2, 0], [1, 3]]}, "games[1]"),
    ({"games": [[7, 0], [7, 2]]}, "games[1]"),
    ({"games": [[0, 7]]}, "games"),
    ({"games": [[7, "0"]]}, "games[0][1]"),
    ({"games": [[3, 0], [7, 0]], "score": [7, 1]}, "score"),
    ({"score": [6, 2]}, "score"),
    ({"score": [2, 7]}, "score"),
    ({"via": "phone"}, "via"),
    ({"by": "director", "via": "player"}, "via"),
    ({"winner": "nobody"}, "winner"),
])
def test_a_bad_sheet_names_the_field_and_changes_nothing(edit: dict[str, Any],
                                                         field: str) -> None:
    state, _ = _drawn()
    m = state.bracket("main").rounds[0][0]
    before = state.to_dict()
    with pytest.raises(InvalidContest) as err:
        state.after({**SHEET, "by": "A", "winner": m.a, **edit})
    assert str(err.value).startswith(field + ":"), err.value
    assert state.to_dict() == before


def test_a_running_score_counts_from_the_points_a_late_arrival_cost() -> None:
    state, _ = _drawn(length=5)
    a, _b = _ids(state)
    m = state.bracket("main").rounds[0][0]
    state, _ = state.after({"do": "absent", "round": 0, "match": 0, "player": a,
                            "from_ms": 0, "at_ms": 0, "clock": False})
    state, _ = state.after({"do": "arrive", "player": a, "at_ms": 11 * MIN})  # 0-2
    with pytest.raises(InvalidContest, match=r"^games\[0\]"):
        state.after({**SHEET, "by": "A", "winner": m.a, "games": [[1, 0], [5, 0]]})
    # they differ from game 1, which A began trailing 0-2: A's sheet stands
    state, done = _sheets(state,
                          {"winner": m.b, "games": [[0, 5]], "via": "player"},
                          {"winner": m.b, "games": [[3, 2], [3, 5]], "via": "player"})
    assert done["outcome"] == "trailing" and done["trailing"] == "A"
    assert state.results[("main", 0, 0)].to_dict()["score"] == [0, 5]
    assert state.results[("main", 0, 0)].to_dict()["game"] == 1
