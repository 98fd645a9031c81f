"""The public page's flag (issue 37 §1): an action of the tournament's log,
folded like every other, so a restart brings the page back up (or down)."""

from __future__ import annotations

import pytest

from bgclock.tournament import InvalidContest, Tournament


def test_a_tournament_starts_private_and_the_flag_folds_from_its_log() -> None:
    t = Tournament()
    assert t.public is False and t.to_dict()["public"] is False
    assert t.apply({"do": "set_public", "public": True}) == {"public": True}
    assert t.public is True
    log = [{"do": "register", "name": "Ann"}, {"do": "set_public", "public": True},
           {"do": "set_public", "public": False}, {"do": "set_public", "public": True}]
    assert Tournament.fold(log).public is True
    assert Tournament.fold(log[:3]).public is False


def test_the_page_goes_up_before_the_draw_and_stays_after_the_last_result() -> None:
    t = Tournament.fold([{"do": "register", "name": n} for n in ("Ann", "Bob")])
    t.apply({"do": "set_public", "public": True})
    for pid in (1, 2):
        t.apply({"do": "check_in", "player": pid})
    t.apply({"do": "draw", "seed": 3})
    m = t.main
    assert m is not None
    first = m.bracket.rounds[0][0]
    t.apply({"do": "result", "event": "main", "round": 0, "match": 0, "winner": first.a})
    assert t.public is True
    t.apply({"do": "set_public", "public": False})
    assert t.public is False


@pytest.mark.parametrize("action, field", [
    ({"do": "set_public"}, "public"),
    ({"do": "set_public", "public": "yes"}, "public"),
    ({"do": "set_public", "public": True, "url": "x"}, "url"),
])
def test_a_malformed_flag_is_refused_naming_the_field_and_nothing_changes(
        action: dict[str, object], field: str) -> None:
    t = Tournament()
    with pytest.raises(InvalidContest, match=field):
        t.apply(action)
    assert t.public is False and t.count == 0
