"""The wall's pairings list by name sorts by surname (issue 32 §5): "Nicolò
Rossi" under R, after "Anna Ricci"; the room display's registered players
too."""

from __future__ import annotations

import re
from typing import Any

from bgclock.server.tournaments.standings import pairings_html, room_standings
from bgclock.tournament import Tournament

NAMES = ["Nicolò Rossi", "Anna Ricci", "Zeno Abate", "Bruno Russo"]


def _run(actions: list[dict[str, Any]]) -> Tournament:
    t = Tournament()
    for a in actions:
        t, _ = t.after(a)
    return t


def test_the_list_by_name_and_the_registered_players_sort_by_surname() -> None:
    t = _run([*({"do": "register", "name": n} for n in NAMES),
              *({"do": "check_in", "player": i} for i in range(1, 5)),
              {"do": "settings", "seed": 3}, {"do": "draw"},
              {"do": "start_round", "event": "main", "round": 0}])
    page = pairings_html("Open", t, "main", 0, "it")
    by_name = page[page.index('id="by-name"'):]
    firsts = re.findall(r"<tr><td>([^<]+)</td>", by_name)
    assert firsts == ["Zeno Abate", "Anna Ricci", "Nicolò Rossi", "Bruno Russo"]
    assert room_standings(t)["registered"] == firsts
