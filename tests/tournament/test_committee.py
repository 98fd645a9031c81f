"""An appeal heard as the rule book writes it: "To resolve an appeal at least
2 members of the committee shall be convene with the tournament director ...
A ruling will be taken by majority decision" (issue 32 §6)."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import InvalidContest, Tournament


def _appealed(members: int) -> tuple[Tournament, list[int]]:
    """A drawn tournament of 12, a committee of ``members`` players who do
    not play match 0, and an appeal at match 0: the panel's ids."""
    log: list[dict[str, Any]] = [{"do": "settings", "seed": 1, "rounds": [
        {"length": 7, "rules": "it-tournament", "clock": "none"}]}]
    for i in range(1, 13):
        log += [{"do": "register", "name": f"P{i}"}, {"do": "check_in", "player": i}]
    state = Tournament.fold([*log, {"do": "draw"}, {"do": "start_round", "round": 0}])
    m = state.bracket("main").rounds[0][0]
    playing = {m.a, m.b}
    others = [p.id for p in state.players if p.name not in playing][:members]
    by = state.by_name(m.a or "")
    assert by is not None
    state, _ = state.after({"do": "committee", "members": others})
    state, done = state.after({"do": "appeal", "round": 0, "match": 0, "by": by.id,
                               "ruling": "the dice were cocked"})
    assert done["panel"] == others
    return state, others


def _decide(state: Tournament, votes: dict[str, str]) -> str:
    _, done = state.after({"do": "decide", "appeal": 1, "votes": votes})
    decision: str = done["decision"]
    return decision


@pytest.mark.parametrize("members", [3, 4, 5])
def test_two_members_and_the_director_may_hear_it(members: int) -> None:
    state, panel = _appealed(members)
    # two of the panel sit with the director: the majority of three decides
    two = {str(panel[0]): "overturn", str(panel[-1]): "overturn", "director": "uphold"}
    assert _decide(state, two) == "overturned"
    assert _decide(state, {**two, str(panel[0]): "uphold"}) == "upheld"
    # the whole panel may sit too
    every = {**{str(p): "overturn" for p in panel}, "director": "uphold"}
    assert _decide(state, every) == "overturned"


@pytest.mark.parametrize("members", [3, 4, 5])
def test_fewer_than_two_members_or_no_director_is_no_hearing(members: int) -> None:
    state, panel = _appealed(members)
    with pytest.raises(InvalidContest, match="at least 2 members"):
        state.after({"do": "decide", "appeal": 1,
                     "votes": {str(panel[1]): "overturn", "director": "overturn"}})
    with pytest.raises(InvalidContest, match="director"):
        state.after({"do": "decide", "appeal": 1,
                     "votes": {str(p): "overturn" for p in panel}})
    outsider = max(panel) + 1 if max(panel) < 12 else min(set(range(1, 13)) - set(panel))
    with pytest.raises(InvalidContest, match="does not sit"):
        state.after({"do": "decide", "appeal": 1, "votes": {
            str(panel[0]): "uphold", str(panel[1]): "uphold", str(outsider): "overturn",
            "director": "overturn"}})


def test_a_tie_of_the_votes_cast_upholds_the_ruling() -> None:
    state, panel = _appealed(5)
    # three members and the director: 2-2 is no majority to overturn
    votes = {str(panel[0]): "overturn", str(panel[1]): "overturn", str(panel[2]): "uphold",
             "director": "uphold"}
    assert _decide(state, votes) == "upheld"
    decided, _ = state.after({"do": "decide", "appeal": 1, "votes": votes})
    # the decision keeps who sat: their votes
    assert decided.appeals[0].votes == votes
