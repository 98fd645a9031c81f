"""An entry made by mistake is deleted while the event is not drawn (issue 32
§3, docs/tournament.md "A person is one entry"): it leaves every list, its
name and its register link are free again, and a player's id is never given
twice; after the draw only a withdrawal is left."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.tournament import IllegalContest, InvalidContest, Tournament


def _event(*names: str, linked: bool = False) -> Tournament:
    t = Tournament()
    for k, name in enumerate(names):
        action: dict[str, Any] = {"do": "register", "name": name}
        if linked:
            action["register_id"] = 100 + k
        t.apply(action)
    return t


def test_a_deleted_entry_leaves_the_lists_and_frees_its_name_and_link() -> None:
    t = _event("Ann", "Bob", "Cy", linked=True)
    assert t.apply({"do": "delete_entry", "player": 2}) == {"player": 2, "name": "Bob"}
    assert [p["name"] for p in t.to_dict()["players"]] == ["Ann", "Cy"]
    # the name and the register entry may be entered again: a new id, never 2
    assert t.apply({"do": "register", "name": "Bob", "register_id": 101}) == {"player": 4}
    assert [p["id"] for p in t.to_dict()["players"]] == [1, 3, 4]


def test_a_deleted_entry_is_no_player_for_later_actions() -> None:
    t = _event("Ann", "Bob", "Cy")
    t.apply({"do": "delete_entry", "player": 2})
    for action in ({"do": "check_in", "player": 2}, {"do": "delete_entry", "player": 2},
                   {"do": "settings", "seeds": [2]}):
        with pytest.raises(InvalidContest, match="no player 2"):
            t.apply(action)


def test_a_deleted_entry_leaves_the_seeds_and_groups_and_is_not_drawn() -> None:
    t = _event("Ann", "Bob", "Cy", "Dee")
    t.apply({"do": "settings", "seeds": [2, 1], "groups": [[2, 3], [1, 4]]})
    for pid in (1, 2, 3, 4):
        t.apply({"do": "check_in", "player": pid})
    t.apply({"do": "delete_entry", "player": 2})
    settings = t.to_dict()["settings"]
    assert settings["seeds"] == [1] and settings["groups"] == [[1, 4]]
    t.apply({"do": "draw", "seed": 7})
    drawn = {x for m in t.to_dict()["main"]["rounds"][0] for x in (m["a"], m["b"]) if x}
    assert drawn == {"Ann", "Cy", "Dee"}


def test_after_the_draw_an_entry_is_withdrawn_not_deleted() -> None:
    t = _event("Ann", "Bob")
    for pid in (1, 2):
        t.apply({"do": "check_in", "player": pid})
    t.apply({"do": "draw", "seed": 1})
    with pytest.raises(IllegalContest, match="can only withdraw") as refused:
        t.apply({"do": "delete_entry", "player": 1})
    assert refused.value.code == "already_drawn_delete"
    assert len(t.to_dict()["players"]) == 2


def test_a_committee_member_is_not_deleted_until_another_committee_is_named() -> None:
    t = _event("Ann", "Bob", "Cy", "Dee")
    t.apply({"do": "committee", "members": [1, 2, 3]})
    with pytest.raises(IllegalContest) as refused:
        t.apply({"do": "delete_entry", "player": 2})
    assert refused.value.code == "on_committee"
    t.apply({"do": "committee", "members": [1, 3, 4]})
    t.apply({"do": "delete_entry", "player": 2})


def test_a_log_with_a_deletion_folds_to_the_same_state() -> None:
    t = _event("Ann", "Bob", "Cy")
    t.apply({"do": "delete_entry", "player": 1})
    log = [{"do": "register", "name": n} for n in ("Ann", "Bob", "Cy")]
    log.append({"do": "delete_entry", "player": 1})
    again = Tournament()
    for action in log:
        again.apply(action)
    assert again.to_dict() == t.to_dict()
