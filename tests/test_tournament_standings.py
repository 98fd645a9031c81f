"""Standings, the prize list and every player's results (issue 19 §4; tournament.md
"Standings")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import (
    Bracket,
    ConsolationDraw,
    InvalidContest,
    MainDraw,
    Tournament,
    bracket_standings,
    couples_standings,
    final_standings,
    first_match_losers,
    player_results,
    swing_standings,
)


def _run(actions: list[dict[str, Any]]) -> Tournament:
    t = Tournament()
    for a in actions:
        t, _ = t.after(a)
    return t


def _players(n: int) -> list[dict[str, Any]]:
    return ([{"do": "register", "name": f"P{i}"} for i in range(1, n + 1)]
            + [{"do": "check_in", "player": i} for i in range(1, n + 1)])


def _play(t: Tournament, event: str, rng: random.Random, *, rounds: int = 99) -> Tournament:
    for r in range(min(rounds, len(t.bracket(event).rounds))):
        for i in range(len(t.bracket(event).rounds[r])):
            m = t.bracket(event).rounds[r][i]
            if m.winner is None and m.a is not None and m.b is not None:
                t, _ = t.after({"do": "result", "event": event, "round": r, "match": i,
                                "winner": rng.choice([m.a, m.b])})
    return t


def _labels(s: Any) -> dict[str, str]:
    return {n: p.label for p in s.placings for n in p.names}


def test_a_full_bracket_places_by_the_round_lost_in() -> None:
    t = _play(_run([{"do": "settings", "seed": 3}, *_players(8), {"do": "draw"}]), "main",
              random.Random(1))
    main = final_standings(t).event("main")
    assert main is not None and main.complete and main.in_play == ()
    assert [p.label for p in main.placings] == ["1", "2", "3–4", "5–8"]
    assert main.champion == t.bracket("main").champion
    final = t.bracket("main").rounds[-1][0]
    runner_up = final.b if final.winner == final.a else final.a
    assert main.placings[1].names == (runner_up,)
    for p in main.placings[2:]:
        assert p.last - p.first + 1 == len(p.names)


def test_byes_share_only_the_places_of_the_players_there() -> None:
    # 14 players in a bracket of 16: the six first-round losers are 9-14, not 9-16
    t = _play(_run([{"do": "settings", "seed": 5}, *_players(14), {"do": "draw"}]), "main",
              random.Random(2))
    main = final_standings(t).event("main")
    assert main is not None
    assert [p.label for p in main.placings] == ["1", "2", "3–4", "5–8", "9–14"]
    assert len(main.placings[-1].names) == 6


def test_undecided_places_are_in_play() -> None:
    t = _play(_run([{"do": "settings", "seed": 7}, *_players(8), {"do": "draw"}]), "main",
              random.Random(3), rounds=1)
    main = final_standings(t).event("main")
    assert main is not None and not main.complete and main.champion is None
    assert [p.label for p in main.placings] == ["5–8"]
    assert len(main.in_play) == 4


def test_first_round_places_wait_for_late_arrivals_to_close() -> None:
    t = _run([{"do": "settings", "seed": 1, "late_slots": 2}, *_players(6), {"do": "draw"}])
    for i, m in enumerate(t.bracket("main").rounds[0]):
        if m.a is not None and m.b is not None:
            t, _ = t.after({"do": "result", "event": "main", "round": 0, "match": i,
                            "winner": m.a})
    main = final_standings(t).event("main")
    assert main is not None and main.placings == () and len(main.in_play) == 6
    t, _ = t.after({"do": "close_late"})
    main = final_standings(t).event("main")
    assert main is not None and [p.label for p in main.placings] == ["5–6"]


def test_the_consolation_and_a_last_chance_are_placed_like_the_main() -> None:
    t = _run([{"do": "settings", "seed": 11}, *_players(16), {"do": "draw"}])
    rng = random.Random(4)
    t = _play(t, "main", rng)
    t = _play(t, "consolation", rng)
    assert t.consolation is not None
    losers = first_match_losers(t.consolation)
    assert losers is not None
    last = ConsolationDraw(t.consolation, losers, random.Random(9))
    for r, matches in enumerate(last.bracket.rounds):
        for i, m in enumerate(matches):
            if m.winner is None:
                last.bracket.set_winner(r, i, m.a)
    s = final_standings(t, last_chance=last.bracket)
    cons, lc = s.event("consolation"), s.event("last_chance")
    assert cons is not None and cons.complete
    assert [p.label for p in cons.placings] == ["1", "2", "3–4", "5–8"]
    assert lc is not None and lc.complete and [p.label for p in lc.placings] == ["1", "2", "3–4"]


def test_a_consolation_of_one_places_its_only_entrant() -> None:
    s = bracket_standings("consolation", Bracket(size=1, rounds=[]), only="P3")
    assert s.complete and s.champion == "P3" and s.placings[0].names == ("P3",)


def test_swing_places_by_the_reverse_order_of_elimination() -> None:
    players = ["A", "B", "C", "D", "E"]
    history = [{n: 100 for n in players},
               {"A": 200, "B": 0, "C": 150, "D": 50, "E": 100},
               {"A": 300, "B": 0, "C": 0, "D": 0, "E": 200},
               {"A": 500, "B": 0, "C": 0, "D": 0, "E": 0}]
    s = swing_standings(players, history, "A")
    # C had 150 VP at the start of round 2, D 50: C lasted longer
    assert _labels(s) == {"A": "1", "E": "2", "C": "3", "D": "4", "B": "5"}
    assert s.complete


def test_swing_players_out_in_one_round_with_equal_vp_share_the_place() -> None:
    players = ["A", "B", "C", "D"]
    history = [{n: 100 for n in players}, {"A": 200, "B": 0, "C": 200, "D": 0}]
    s = swing_standings(players, history, None)
    assert _labels(s) == {"B": "3–4", "D": "3–4"}
    assert s.in_play == ("A", "C") and not s.complete


def test_swing_places_below_the_players_in_play_while_it_runs() -> None:
    players = ["A", "B", "C", "D", "E", "F"]
    history = [{n: 100 for n in players},
               {"A": 200, "B": 0, "C": 150, "D": 50, "E": 100, "F": 100},
               {"A": 300, "B": 0, "C": 0, "D": 0, "E": 150, "F": 150}]
    s = swing_standings(players, history, None)
    # three in play hold 1-3; C (150 VP at round 2's start) 4th, D 5th, B 6th
    assert _labels(s) == {"C": "4", "D": "5", "B": "6"}
    assert s.in_play == ("A", "E", "F")


def test_a_player_who_withdraws_is_placed_by_the_match_forfeited() -> None:
    t = _run([{"do": "settings", "seed": 3}, *_players(4), {"do": "draw"}])
    m = t.bracket("main").rounds[0][0]
    quitter = next(p for p in t.players if p.name == m.a)
    t, _ = t.after({"do": "withdraw", "player": quitter.id})
    main = final_standings(t).event("main")
    assert main is not None and main.place_of(quitter.name) is not None
    assert main.place_of(quitter.name).label == "3–4"  # type: ignore[union-attr]


def test_couples_keep_the_order_and_ties_of_their_standings() -> None:
    rows = [{"couple": "X", "encounters": 2, "matches": 7, "points": 5},
            {"couple": "Y", "encounters": 1, "matches": 5, "points": 0},
            {"couple": "Z", "encounters": 1, "matches": 5, "points": 0}]
    s = couples_standings(rows, complete=True)
    assert _labels(s) == {"X": "1", "Y": "2–3", "Z": "2–3"} and s.champion == "X"
    # a place the rows carry (the couples module's own tie rule) wins
    rows2 = [{**r, "place": p} for r, p in zip(rows, (1, 2, 3), strict=True)]
    assert _labels(couples_standings(rows2, complete=True)) == {"X": "1", "Y": "2", "Z": "3"}
    assert couples_standings(rows, complete=False).in_play == ("X", "Y", "Z")


def test_the_prize_list_is_folded_and_printed_with_the_places() -> None:
    t = _run([{"do": "settings", "seed": 3}, *_players(8), {"do": "draw"},
              {"do": "prizes", "event": "main", "prizes": ["€100", "€50", "€20", "€20", ""]}])
    t = _play(t, "main", random.Random(1))
    d = final_standings(t).to_dict()
    main = d["events"][0]
    assert [p["prizes"] for p in main["placings"]] == [["€100"], ["€50"], ["€20", "€20"], []]
    assert t.to_dict()["prizes"] == {"main": ["€100", "€50", "€20", "€20"]}
    # an empty list clears it
    t, _ = t.after({"do": "prizes", "event": "main", "prizes": []})
    assert t.prizes == {}


@pytest.mark.parametrize(("action", "field"), [
    ({"event": "bowling", "prizes": []}, "event"),
    ({"event": "main", "prizes": "100"}, "prizes"),
    ({"event": "main", "prizes": ["x" * 101]}, "prizes[0]"),
    ({"event": "main", "prizes": ["ok", "a\nb"]}, "prizes[1]"),
    ({"event": "main", "prizes": [""] * 65}, "prizes"),
    ({"event": "main", "prizes": [], "extra": 1}, "extra"),
])
def test_a_bad_prize_list_names_its_field_and_changes_nothing(action: dict[str, Any],
                                                              field: str) -> None:
    t = _run(_players(2))
    with pytest.raises(InvalidContest, match=rf"^{field.replace('[', '.').replace(']', '.')}:"):
        t.after({"do": "prizes", **action})
    assert t.prizes == {}


def test_every_player_results_are_listed_from_their_side() -> None:
    t = _run([{"do": "settings", "seed": 3}, *_players(4), {"do": "draw"}])
    m = t.bracket("main").rounds[0][0]
    t, _ = t.after({"do": "result", "event": "main", "round": 0, "match": 0,
                    "winner": m.b, "score": [3, 7]})
    rows = [r for r in player_results(t) if r["round"] == 1 and r["match"] == 1]
    by = {r["player"]: r for r in rows}
    assert by[m.b]["result"] == "won" and by[m.b]["score"] == [7, 3]
    assert by[m.a]["result"] == "lost" and by[m.a]["opponent"] == m.b
    assert by[m.a]["source"] == "hand"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), late=st.integers(0, 4), seed=st.integers(0, 2**32),
       played=st.integers(0, 8))
def test_each_player_is_placed_once_and_the_places_fit_the_bracket(
        n: int, late: int, seed: int, played: int) -> None:
    if n * 2 < _size(n + late):
        late = 0
    main = MainDraw([f"P{i}" for i in range(n)], late_slots=late, rng=random.Random(seed))
    main.close_late()
    rng = random.Random(seed + 1)
    for r, matches in enumerate(main.bracket.rounds[:played]):
        for i, m in enumerate(matches):
            if m.winner is None and m.a is not None and m.b is not None:
                main.bracket.set_winner(r, i, rng.choice([m.a, m.b]))
    s = bracket_standings("main", main.bracket)
    names = [x for p in s.placings for x in p.names] + list(s.in_play)
    assert sorted(names) == sorted(f"P{i}" for i in range(n))  # each player once
    taken: set[int] = set()
    for p in s.placings:
        places = set(range(p.first, p.last + 1))
        assert len(places) == len(p.names) and not places & taken  # ranges tile
        taken |= places
        if p.lost_in is not None:  # a loser of round r is behind everyone further on
            assert p.first == len(main.bracket.rounds[p.lost_in]) + 1
    undecided = set(range(1, n + 1)) - taken
    assert len(undecided) == len(s.in_play)
    if s.complete:
        assert taken == set(range(1, n + 1)) and s.placings[0].names == (s.champion,)


def _size(k: int) -> int:
    size = 2
    while size < k:
        size *= 2
    return size


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_swing_places_each_player_once(n: int, seed: int) -> None:
    from bgclock.tournament import Swing, SwingGame

    rng = random.Random(seed)
    names = [f"S{i}" for i in range(n)]
    swing = Swing(names, start_vp=100, cpp=[20, 40])
    history = [dict(swing.vp)]
    while swing.winner is None:
        pairs, _ = swing.pair(rng)
        swing.play_round([SwingGame(a=a, b=b, winner=rng.choice([a, b]),
                                    result=rng.choice(["single", "gammon"])) for a, b in pairs])
        history.append(dict(swing.vp))
    s = swing_standings(names, history, swing.winner)
    placed = [x for p in s.placings for x in p.names]
    assert sorted(placed) == sorted(names) and s.in_play == ()
    assert s.placings[0].names == (swing.winner,)
    taken = [k for p in s.placings for k in range(p.first, p.last + 1)]
    assert sorted(taken) == list(range(1, n + 1))
    # part-way through: the players in play hold the top places, the others tile the rest
    for cut in range(1, len(history)):
        part = swing_standings(names, history[:cut], None)
        held = [k for p in part.placings for k in range(p.first, p.last + 1)]
        assert sorted(held) == list(range(len(part.in_play) + 1, n + 1))
        assert sorted([x for p in part.placings for x in p.names] + list(part.in_play)) \
            == sorted(names)


def test_where_do_i_play_lists_every_event_at_its_tables() -> None:
    from bgclock.tournament import seats

    t = _run([{"do": "settings", "seed": 3}, *_players(8), {"do": "draw"},
              {"do": "start_round", "event": "main", "round": 0, "tables": [1, 2, 3, 4]},
              {"do": "swing_create", "players": [1, 2, 3, 4, 5, 6, 7, 8], "start_vp": 100,
               "cpp": [10, 20], "clock": "none"},
              {"do": "swing_round", "seed": 1, "tables": [11, 12, 13, 14]}])
    found = seats(t)
    assert [s["table"] for s in found] == [1, 2, 3, 4, 11, 12, 13, 14]
    assert {s["event"] for s in found} == {"main", "swing"}
    m = t.bracket("main").rounds[0][0]
    t, _ = t.after({"do": "result", "event": "main", "round": 0, "match": 0, "winner": m.a})
    assert 1 not in [s["table"] for s in seats(t)]  # a decided match is at no table now
    game = t.events.swing.games[0] if t.events.swing else None
    assert game is not None and {"event": "swing", "round": 0, "table": game.table,
                                 "a": game.a, "b": game.b, "winner": None} in seats(t)
