"""One player's score sheet in, the other's missing: the desk offers the kept
sheet's result and the director confirms it (Italian rule book: "Failure to
keep score creates presumption in favor of an opponent in case of dispute";
issue 38 §4)."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from tests.test_tournament_desk import _drawn

SHEET = {"do": "sheet", "round": 0, "match": 0}
PRESUME = {"do": "presume", "round": 0, "match": 0}


def _view(state: Tournament) -> dict[str, Any]:
    [view] = state.to_dict()["sheets"]
    return view


@pytest.mark.parametrize("kept", ["A", "B"])
def test_the_desk_offers_the_kept_sheet_and_the_director_confirms(kept: str) -> None:
    state, log = _drawn()
    m = state.bracket("main").rounds[0][0]
    keeper = m.a if kept == "A" else m.b
    sheet = {**SHEET, "by": kept, "winner": keeper, "games": [[1, 0], [3, 0], [3, 2], [7, 2]]
             if kept == "A" else [[0, 1], [0, 3], [2, 3], [2, 7]], "via": "player"}
    state, done = state.after(sheet)
    assert not done["final"] and done["outcome"] == "waiting"
    missing = "B" if kept == "A" else "A"
    presumption = _view(state)["presumption"]
    assert presumption == {"by": kept, "missing": missing, "winner": keeper,
                           "score": [7, 2] if kept == "A" else [2, 7], "via": "player"}
    assert state.bracket("main").rounds[0][0].winner is None  # never by itself
    with pytest.raises(IllegalContest) as refused:
        state.after({**PRESUME, "by": missing})
    assert refused.value.code == "no_sheet"
    state, done = state.after({**PRESUME, "by": kept})
    assert done == {"winner": keeper, "by": kept, "missing": missing}
    assert state.bracket("main").rounds[0][0].winner == keeper
    assert state.results[("main", 0, 0)].to_dict() == {
        "source": "hand", "sheets": "presumed", "score": [7, 2] if kept == "A" else [2, 7]}
    assert _view(state)["presumption"] is None
    assert Tournament.fold([*log, sheet, {**PRESUME, "by": kept}]).to_dict() == state.to_dict()
    with pytest.raises(IllegalContest) as refused:
        state.after({**PRESUME, "by": kept})
    assert refused.value.code == "already_decided"


def test_no_presumption_with_both_sheets_or_none() -> None:
    state, _ = _drawn()
    m = state.bracket("main").rounds[0][0]
    with pytest.raises(IllegalContest) as refused:
        state.after({**PRESUME, "by": "A"})
    assert refused.value.code == "no_sheet"
    state, _ = state.after({**SHEET, "by": "A", "winner": m.a, "score": [7, 1]})
    state, done = state.after({**SHEET, "by": "B", "winner": m.b, "score": [3, 7]})
    assert not done["final"] and _view(state)["presumption"] is None
    with pytest.raises(IllegalContest) as refused:
        state.after({**PRESUME, "by": "A"})
    assert refused.value.code == "both_sheets"
    with pytest.raises(InvalidContest, match="by"):
        state.after({**PRESUME, "by": "director"})


def test_a_presumed_result_is_undone_like_a_hand_result() -> None:
    state, _ = _drawn()
    m = state.bracket("main").rounds[0][0]
    state, _ = state.after({**SHEET, "by": "B", "winner": m.a, "score": [7, 5]})
    state, _ = state.after({**PRESUME, "by": "B"})
    state, done = state.after({"do": "revert", "round": 0, "match": 0})
    assert done == {"winner": None, "reverted": "result"}
    # the sheet is still in: the presumption is offered again
    assert _view(state)["presumption"]["by"] == "B"
