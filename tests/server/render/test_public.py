"""The public projection (``render/public.py``): exactly the keys it lists,
whatever the director's state holds, and a player's page that is a
selection of it (issue 37 §1, §2)."""

from __future__ import annotations

import json
from typing import Any

from bgclock.server.render.public import (
    PAIRING_KEYS,
    PLACING_KEYS,
    PLAYER_KEYS,
    PLAYER_PAGE_KEYS,
    PLAYER_RESULT_KEYS,
    PUBLIC_KEYS,
    STANDINGS_KEYS,
    TOURNAMENT_KEYS,
    player_path,
    player_view,
    public_path,
    public_view,
)
from bgclock.server.render.room import (
    BRACKET_MATCH_KEYS,
    CLOCK_KEYS,
    LATE_COUNT_KEYS,
    LATE_KEYS,
    MATCH_KEYS,
    RESULT_KEYS,
)
from bgclock.tournament import Tournament, final_standings, player_results, seats

HEARING = "the panel heard both players at length"
REASON = "a slip of the desk's pen"


def _evening() -> Tournament:
    """Eight players, round 1 at tables, a committee's decision with its
    hearing, a corrected result with its reason, prizes."""
    t = Tournament()
    t.apply({"do": "settings", "rounds": [{"length": 5, "clock": "required"}], "seed": 4})
    for i in range(1, 9):
        t.apply({"do": "register", "name": f"Giocatore {i}", "federation_id": f"FIBT-{i:04d}"})
        t.apply({"do": "check_in", "player": i})
    t.apply({"do": "draw", "seed": 4})
    t.apply({"do": "start_round", "round": 0, "tables": [1, 2, 3, 4]})
    for n in (1, 2, 3, 4):
        t.apply({"do": "bind_table", "table": n, "table_id": 100 + n})
    assert t.main is not None
    m0, m1 = t.main.bracket.rounds[0][0], t.main.bracket.rounds[0][1]
    t.apply({"do": "result", "event": "main", "round": 0, "match": 0, "winner": m0.a,
             "score": [5, 2], "source": "clock"})
    t.apply({"do": "result", "event": "main", "round": 0, "match": 1, "winner": m1.a,
             "score": [5, 1]})
    t.apply({"do": "correct", "event": "main", "round": 0, "match": 1, "winner": m1.b,
             "reason": REASON})
    t.apply({"do": "prizes", "event": "main", "prizes": ["200 €", "100 €"]})
    t.apply({"do": "set_public", "public": True})
    return t


def _view(t: Tournament, clocks: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    return public_view(tournament_id=7, name="Coppa", closed=False, state=t.to_dict(),
                       standings=final_standings(t).to_dict(), results=player_results(t),
                       seats=seats(t), clocks=clocks or {}, late=[], server_ms=1000)


def test_the_public_view_keeps_only_the_keys_it_lists() -> None:
    t = _evening()
    clock = {"phase": "playing", "score": [1, 0], "on_turn": "A", "reserve_ms": [1, 2],
             "length": 5, "at_ms": 3, "provisional": False, "keeper": "Tablet 9",
             "device_name": "Tablet 9"}
    view = _view(t, {2: clock})
    assert tuple(view) == PUBLIC_KEYS
    assert tuple(view["tournament"]) == TOURNAMENT_KEYS
    assert view["url"] == public_path(7) == "/p/7"
    for b in view["brackets"]:
        assert set(b) == {"event", "size", "rounds"}
        assert all(tuple(m) == BRACKET_MATCH_KEYS for r in b["rounds"] for m in r)
    for m in view["matches"]:
        assert tuple(m) == MATCH_KEYS
        assert m["clock"] is None or tuple(m["clock"]) == CLOCK_KEYS
        assert m["result"] is None or set(m["result"]) <= set(RESULT_KEYS)
    assert view["matches"][2]["clock"]["phase"] == "playing"
    assert all(tuple(p) == PAIRING_KEYS for p in view["pairings"])
    assert all(tuple(r) == PLAYER_RESULT_KEYS for r in view["results"])
    assert all(tuple(s) == (*STANDINGS_KEYS, "placings") for s in view["standings"])
    assert all(set(p) <= set(PLACING_KEYS) for s in view["standings"] for p in s["placings"])
    assert all(tuple(p) == PLAYER_KEYS for p in view["players"])
    text = json.dumps(view)
    for secret in (HEARING, REASON, "FIBT", "federation_id", "table_id", "seed", "Tablet",
                   "corrected", "reason", "register_id", "keeper"):
        assert secret not in text, secret


def test_a_late_arrival_keeps_its_points_and_not_the_directors_notes() -> None:
    late = {"event": "main", "round": 0, "match": 2, "table": 3, "absent": ["Giocatore 5"],
            "from_ms": 10, "clock": False, "winner": None, "at_ms": 10,
            "arrived_ms": {"x": 1}, "note": "called twice",
            "count": {"points": 2, "score": [2, 0], "over": False, "arrived": False,
                      "next_point_ms": 50, "out_ms": 90, "at_ms": 11}}
    view = public_view(tournament_id=1, name="x", closed=True, state=_evening().to_dict(),
                       standings={}, results=[], seats=[], clocks={}, late=[late],
                       server_ms=0)
    (kept,) = view["late"]
    assert tuple(kept) == LATE_KEYS
    assert tuple(kept["count"]) == LATE_COUNT_KEYS


def test_a_players_page_is_a_selection_of_the_public_view() -> None:
    t = _evening()
    view = _view(t)
    assert t.main is not None
    loser = t.main.bracket.rounds[0][0].b
    winner = t.main.bracket.rounds[0][0].a
    pid = next(p["id"] for p in view["players"] if p["name"] == winner)
    mine = player_view(view, pid)
    assert mine is not None and tuple(mine) == PLAYER_PAGE_KEYS
    assert mine["url"] == player_path(7, pid) == f"/p/7/player/{pid}"
    assert mine["player"]["name"] == winner
    assert [(r["result"], r["opponent"], r["score"]) for r in mine["results"]] == [
        ("won", loser, [5, 2])]
    # the winner waits in round 2 for the winner of match 2 (decided: its opponent known)
    assert mine["next"] == {"event": "main", "round": 1, "table": None,
                            "opponent": t.main.bracket.rounds[1][0].b}
    seated = view["pairings"][0]
    at = next(p["id"] for p in view["players"] if p["name"] == seated["a"])
    theirs = player_view(view, at)
    assert theirs is not None
    assert theirs["next"] == {"event": "main", "round": 0, "table": seated["table"],
                              "opponent": seated["b"]}
    assert theirs["match"] is not None and theirs["match"]["table"] == seated["table"]
    assert player_view(view, 99) is None
    # nothing on it that the public view does not carry
    text = json.dumps(view)
    for r in mine["results"]:
        assert json.dumps(r) in text
