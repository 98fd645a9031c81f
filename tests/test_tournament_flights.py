"""Flights: several events in one room share its table numbers (issue 23 §1).

The rule book: "Matches of the Championship and Intermediate take precedence"
(italian-tournament-rules.txt, the seating clauses); the director gives each
event its precedence number (docs/tournament.md, "Flights")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import IllegalContest, InvalidContest, Tournament
from bgclock.tournament._flights import Claim, Flight, allocate, free_numbers, room_key, room_tables


def claim(event: str, precedence: int, r: int = 0, i: int = 0, bracket: str = "main",
          tid: int = 1) -> Claim:
    return Claim(tournament=tid, event=event, precedence=precedence, bracket=bracket,
                 round=r, match=i)


def test_tables_are_shared_a_busy_number_is_never_given() -> None:
    plan = allocate([claim("Intermediate", 2, i=k, tid=2) for k in range(3)],
                    busy={1, 2, 4}, tables=0)
    assert plan.numbers() == [3, 5, 6] and plan.waiting == ()


def test_the_championship_is_seated_before_the_intermediate_and_beginners() -> None:
    # italian-tournament-rules: "Matches of the Championship and Intermediate take precedence"
    claims = [claim("Beginners", 3, i=0, tid=3), claim("Intermediate", 2, i=0, tid=2),
              claim("Championship", 1, i=1, tid=1), claim("Championship", 1, i=0, tid=1)]
    plan = allocate(claims, busy=set(), tables=3)
    assert [(c.event, c.match, n) for c, n in plan.seated] == [
        ("Championship", 0, 1), ("Championship", 1, 2), ("Intermediate", 0, 3)]
    assert [c.event for c in plan.waiting] == ["Beginners"]


def test_within_an_event_earlier_rounds_then_the_main_go_first() -> None:
    claims = [claim("Open", 1, r=2, i=0), claim("Open", 1, r=1, i=3, bracket="consolation"),
              claim("Open", 1, r=1, i=5), claim("Open", 1, r=1, i=0, bracket="last_chance")]
    plan = allocate(claims, busy={1}, tables=4)
    assert [(c.round, c.bracket, n) for c, n in plan.seated] == [
        (1, "main", 2), (1, "consolation", 3), (1, "last_chance", 4)]
    assert [(c.round, c.bracket) for c in plan.waiting] == [(2, "main")]


def test_fewer_tables_than_matches_the_rest_wait_in_order() -> None:
    claims = [claim("B", 2, i=k, tid=2) for k in range(4)] + [claim("A", 1, i=k) for k in range(3)]
    plan = allocate(claims, busy={2}, tables=3)
    assert [(c.event, n) for c, n in plan.seated] == [("A", 1), ("A", 3)]
    assert [(c.event, c.match) for c in plan.waiting] == [("A", 2)] + [("B", k) for k in range(4)]
    # every table taken: everybody waits
    full = allocate(claims, busy={1, 2, 3}, tables=3)
    assert full.seated == () and len(full.waiting) == 7


def test_a_claim_named_twice_is_seated_once() -> None:
    c = claim("A", 1)
    assert allocate([c, c], busy=set(), tables=0).numbers() == [1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 5), st.integers(0, 7),
                          st.sampled_from(["main", "consolation"])), max_size=30),
       st.sets(st.integers(1, 20)), st.integers(0, 20))
def test_no_table_is_double_booked(raw: list[tuple[int, int, int, str]], busy: set[int],
                                   tables: int) -> None:
    claims = [claim(f"E{p}", p, r, i, b, tid=p) for p, r, i, b in raw]
    plan = allocate(claims, busy=busy, tables=tables)
    numbers = plan.numbers()
    assert len(set(numbers)) == len(numbers)          # no number twice
    assert not set(numbers) & busy                     # none another match holds
    assert all(n <= tables for n in numbers) or tables == 0
    assert len(plan.seated) + len(plan.waiting) == len(set(claims))
    # nobody waits while a claim after it in precedence order got a table
    order = [c.order() for c, _ in plan.seated]
    assert order == sorted(order)
    if plan.waiting and plan.seated:
        assert max(order) < min(c.order() for c in plan.waiting)
    # a waiting claim means the pool is exhausted
    if plan.waiting:
        assert len(free_numbers(busy, tables, len(claims))) == len(plan.seated)


def test_the_flight_is_checked_naming_the_field() -> None:
    with pytest.raises(InvalidContest, match="room"):
        Flight(room=" ")
    with pytest.raises(InvalidContest, match="precedence"):
        Flight(room="Sala", precedence=0)
    with pytest.raises(InvalidContest, match="tables"):
        Flight(room="Sala", tables=10_000)
    with pytest.raises(InvalidContest, match="tables"):
        allocate([], busy=set(), tables=-1)
    assert room_key("  Sala   Grande ") == room_key("sala grande")
    assert room_tables([Flight(room="S", tables=12), Flight(room="S"),
                        Flight(room="S", tables=8)]) == 8
    assert room_tables([Flight(room="S")]) == 0


def _drawn(n: int = 8) -> Tournament:
    t = Tournament()
    for k in range(n):
        t.apply({"do": "register", "name": f"P{k}"})
    for k in range(1, n + 1):
        t.apply({"do": "check_in", "player": k})
    t.apply({"do": "draw", "seed": 3})
    return t


def test_a_round_start_seats_the_matches_given_and_the_rest_wait() -> None:
    t = _drawn()
    t.apply({"do": "flight", "room": "Sala", "precedence": 2, "tables": 6})
    done = t.apply({"do": "start_round", "round": 0, "matches": [1, 3], "tables": [5, 6]})
    assert [(a["match"], a["table"]) for a in done["assigned"]] == [(1, 5), (3, 6)]
    assert done["waiting"] == [{"event": "main", "round": 0, "match": 0},
                               {"event": "main", "round": 0, "match": 2}]
    assert t.waiting_matches() == [("main", 0, 0), ("main", 0, 2)]
    # a waiting match seated later leaves the queue; the other stays
    t.apply({"do": "start_round", "round": 0, "matches": [2], "tables": [1]})
    assert t.waiting_matches() == [("main", 0, 0)]
    view = t.to_dict()
    assert view["flight"] == {"room": "Sala", "precedence": 2, "tables": 6}
    assert [(w["match"], w["a"] is not None) for w in view["waiting"]] == [(0, True)]
    # the log replays to the same state
    assert Tournament.fold(_log(t)).to_dict() == view


def _log(t: Tournament) -> list[dict[str, object]]:
    out: list[dict[str, object]] = [{"do": "register", "name": f"P{k}"} for k in range(8)]
    out += [{"do": "check_in", "player": k} for k in range(1, 9)]
    out += [{"do": "draw", "seed": 3},
            {"do": "flight", "room": "Sala", "precedence": 2, "tables": 6},
            {"do": "start_round", "round": 0, "matches": [1, 3], "tables": [5, 6]},
            {"do": "start_round", "round": 0, "matches": [2], "tables": [1]}]
    return out


def test_refused_flight_and_round_actions_change_nothing() -> None:
    t = _drawn()
    t.apply({"do": "flight", "room": "Sala"})
    t.apply({"do": "start_round", "round": 0, "matches": [0], "tables": [1]})
    before = t.to_dict()
    for action, err, words in [
        ({"do": "flight", "room": "Altra sala"}, IllegalContest, "room"),
        ({"do": "flight", "room": None, "precedence": 2}, InvalidContest, "precedence"),
        ({"do": "flight", "room": "Sala", "precedence": 100}, InvalidContest, "precedence"),
        ({"do": "flight", "room": "Sala", "seats": 1}, InvalidContest, "seats"),
        ({"do": "start_round", "round": 0, "matches": [0]}, IllegalContest, "matches[0]"),
        ({"do": "start_round", "round": 0, "matches": [1, 1]}, InvalidContest, "matches"),
        ({"do": "start_round", "round": 0, "matches": "1"}, InvalidContest, "matches"),
        ({"do": "start_round", "round": 0, "matches": [1], "tables": [1]}, IllegalContest,
         "tables[0]"),
        ({"do": "start_round", "round": 0, "matches": [1], "tables": [2, 3]}, InvalidContest,
         "tables"),
    ]:
        with pytest.raises(err, match=words.replace("[", r"\[")):
            t.apply(action)
        assert t.to_dict() == before, action
    # the same room again (precedence changed; case and spacing aside) is fine while
    # matches are on
    t.apply({"do": "flight", "room": " sala ", "precedence": 3})
    assert t.flight == Flight(room="sala", precedence=3)


def test_without_matches_a_round_start_seats_every_ready_match_as_before() -> None:
    t = _drawn(8)
    done = t.apply({"do": "start_round", "round": 0})
    assert [a["table"] for a in done["assigned"]] == [1, 2, 3, 4] and done["waiting"] == []
    assert t.flight is None and t.to_dict()["flight"] is None


def test_random_rooms_never_double_book() -> None:
    """Three events' rounds started in random order against a shared pool:
    every number is held by one match at a time."""
    rng = random.Random(5)
    for _ in range(30):
        events = [_drawn(rng.choice([4, 6, 8])) for _ in range(3)]
        tables = rng.randint(1, 6)
        for p, t in enumerate(events, 1):
            t.apply({"do": "flight", "room": "Sala", "precedence": p, "tables": tables})
        for _step in range(12):
            t = rng.choice(events)
            # results free tables
            for e, r, i in list(t.live_tables().values()):
                if rng.random() < 0.4:
                    m = t.bracket(e).rounds[r][i]
                    t.apply({"do": "result", "event": e, "round": r, "match": i,
                             "winner": m.a})
            busy: set[int] = set()
            for x in events:
                busy |= set(x.live_tables())
            claims = [Claim(tournament=k, event=str(k), precedence=k, bracket=e, round=r, match=i)
                      for k, x in enumerate(events, 1) for e, r, i in x.waiting_matches()]
            r = min((r for r, rnd in enumerate(t.bracket("main").rounds)
                     if t.ready("main", r)), default=None)
            k = events.index(t) + 1
            if r is not None:
                claims += [Claim(tournament=k, event=str(k), precedence=k, bracket="main",
                                 round=r, match=i) for i in t.ready("main", r)]
            plan = allocate(claims, busy, tables)
            for j, x in enumerate(events, 1):
                share: dict[tuple[str, int], list[tuple[int, int]]] = {}
                for c, n in plan.seated:
                    if c.tournament == j:
                        share.setdefault((c.bracket, c.round), []).append((c.match, n))
                if j == k and r is not None:
                    share.setdefault(("main", r), [])
                for (e, rr), pairs in sorted(share.items()):
                    pairs.sort()
                    x.apply({"do": "start_round", "event": e, "round": rr,
                             "matches": [i for i, _ in pairs], "tables": [n for _, n in pairs]})
            held: list[int] = []
            for x in events:
                held += list(x.live_tables())
            assert len(held) == len(set(held)) and all(n <= tables for n in held)
