"""The tournament's rules (tournament.md): late arrival, Swing, couples, the draw.

Conformance scripts run through ``bgclock contest``; the draw's invariants of
section 4 are checked with Hypothesis over many sizes, seeds and late slots
through ``bgclock draw simulate``'s own code.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.cli import main
from bgclock.contest import run_contest
from bgclock.script import ScriptError
from bgclock.tournament import (
    Couple,
    Encounter,
    IllegalContest,
    InvalidContest,
    LateArrival,
    Swing,
    SwingGame,
    cpp_for_round,
    simulate,
    standings,
    swing_game_result,
)
from tests.conftest import ROOT, SHARED
from tests.test_core_purity import FORBIDDEN, _imports

CONTESTS = ROOT / "tests" / "contests"
DATA = ROOT / "tests" / "data"


# ------------------------------------------------------------------ purity

@pytest.mark.parametrize("path", sorted((ROOT / "bgclock" / "tournament").glob("*.py")),
                         ids=lambda p: p.name)
def test_tournament_module_is_pure(path: Path) -> None:
    # randomness comes in seeded (random.Random); nothing reads the environment
    imported = _imports(path)
    assert not imported & (FORBIDDEN - {"random"}), path.name
    # msgspec declares the actions (``actions.py``): data, no I/O
    outside = {n for n in imported if n not in sys.stdlib_module_names} - {"bgclock", "msgspec"}
    assert not outside, f"{path.name} imports {outside}"


# -------------------------------------------------------- bgclock contest

def _contest(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str]:
    code = main(["contest", *map(str, paths)])
    return code, capsys.readouterr().out


def _scripts(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


@pytest.mark.parametrize(
    "path", _scripts(CONTESTS) + _scripts(SHARED / "spec" / "contest-examples"),
    ids=lambda p: p.name)
def test_contest_scripts_pass(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _contest(capsys, path)
    assert code == 0, out


@pytest.mark.parametrize("path", _scripts(DATA / "contests-invalid"), ids=lambda p: p.name)
def test_invalid_contest_scripts_exit_2_naming_the_field(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _contest(capsys, path)
    assert code == 2 and "invalid script: " in out, out


#: The field each invalid contest script must name (tournament.md: "2 for an
#: invalid script (naming the field)").
INVALID_FIELDS = {
    "couples-phase-two-before-phase-one.json": "results[1][0]",
    "couples-winner-not-in-the-pair.json": "results[0][0]",
    "late-absent-as-a-list.json": "absent",
    "late-arrive-twice.json": "steps[1].do",
    "late-bad-phase-value.json": "absent",
    "late-reserve-without-rules.json": "steps[0].expect.reserve_ms",
    "late-score-at-the-length.json": "score",
    "late-time-goes-back.json": "steps[1].at_ms",
    "late-unknown-key.json": "grace_ms",
    "swing-cpp-falls.json": "cpp[1]",
    "swing-cpp-repeats-a-step.json": "cpp[1]",
    "swing-cube-three.json": "rounds[0].games[0].cube",
    "swing-game-without-result.json": "rounds[0].games[0].result",
    "swing-player-out-plays.json": "rounds[1].games",
    "swing-player-twice-in-a-round.json": "rounds[0].games",
    "swing-unknown-key.json": "colour",
    "unknown-contest.json": "contest",
}


@pytest.mark.parametrize("path", _scripts(DATA / "contests-invalid"), ids=lambda p: p.name)
def test_invalid_contest_scripts_name_their_field(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _contest(capsys, path)
    assert code == 2, out
    assert out.split("invalid script: ", 1)[1].startswith(INVALID_FIELDS[path.name] + ":"), out


@pytest.mark.parametrize(("edit", "field"), [
    # late arrival: the spec's keys and nothing else
    ({"absent": "C"}, "absent"),
    ({"absent": ["A", "B"]}, "absent"),
    ({"scheduled_ms": -1}, "scheduled_ms"),
    ({"scheduled_ms": 1.5}, "scheduled_ms"),
    ({"score": [0, 7]}, "score"),
    ({"score": [0]}, "score"),
    ({"score": [-1, 0]}, "score"),
    ({"late_ms": 5}, "late_ms"),
    ({"steps": [{"at_ms": 0, "do": "leave"}]}, "steps[0].do"),
    ({"steps": [{"at_ms": 0, "expect": {"points": 1}}]}, "steps[0].expect.points"),
    ({"steps": [{"at_ms": 0, "expect": {"winner": "C"}}]}, "steps[0].expect.winner"),
])
def test_late_arrival_script_keys_are_exactly_the_specs(
    edit: dict[str, Any], field: str
) -> None:
    script = json.loads((SHARED / "spec" / "contest-examples" /
                         "late-arrival-seven-points.json").read_text())
    script.update(edit)
    with pytest.raises(ScriptError) as err:
        run_contest(script)
    assert str(err.value).startswith(field + ":"), err.value


@pytest.mark.parametrize(("edit", "field"), [
    ({"cpp": [100, 100, 200]}, "cpp[1]"),
    ({"cpp": [100, 200, 200]}, "cpp[2]"),
    ({"cpp": [200, 100]}, "cpp[1]"),
    ({"cpp": []}, "cpp"),
    ({"cpp": [0]}, "cpp[0]"),
    ({"rounds": [{"games": [{"a": "Ada", "b": "Bo", "winner": "Ada"}]}]},
     "rounds[0].games[0].result"),
    ({"rounds": [{"games": [{"a": "Ada", "b": "Bo", "winner": "Ada", "result": None}]}]},
     "rounds[0].games[0].result"),
    ({"rounds": [{"games": [{"a": "Ada", "b": "Bo", "winner": "Ada", "result": "double"}]}]},
     "rounds[0].games[0].result"),
    ({"rounds": [{"games": [], "expect": {"vp": {"Ada": -1}}}]}, "rounds[0].expect.vp.Ada"),
    ({"rounds": [{"games": [], "expect": {"out": ["Zed"]}}]}, "rounds[0].expect.out"),
])
def test_swing_script_rules_name_the_field(edit: dict[str, Any], field: str) -> None:
    script = json.loads((SHARED / "spec" / "contest-examples" /
                         "swing-three-players.json").read_text())
    script.update(edit)
    with pytest.raises(ScriptError) as err:
        run_contest(script)
    assert str(err.value).startswith(field + ":"), err.value


def test_the_swing_refuses_a_cpp_list_with_a_step_that_does_not_rise() -> None:
    with pytest.raises(InvalidContest, match=r"^cpp\[1\]"):
        Swing(["a", "b"], start_vp=10, cpp=[100, 100, 200])
    assert Swing(["a", "b"], start_vp=10, cpp=[100, 101, 200]).cpp == 100


@pytest.mark.parametrize(("points", "cube", "on_time", "want"), [
    (1, 1, False, ("single", 1)),
    (4, 2, False, ("gammon", 2)),
    (12, 4, False, ("backgammon", 4)),
    (0, 1, True, ("single", 1)),
    (0, 4, True, ("single", 4)),  # lost on time on a 4-cube: a single, times the cube
    (2, 1, True, ("single", 1)),  # ABA standard: 2 penalty points are not a gammon
])
def test_a_swing_game_from_the_clock_and_lost_on_time(
    points: int, cube: int, on_time: bool, want: tuple[str, int]
) -> None:
    assert swing_game_result(points, cube, lost_on_time=on_time) == want


@pytest.mark.parametrize("path", _scripts(DATA / "contests-failing"), ids=lambda p: p.name)
def test_failing_contest_scripts_exit_1_with_expected_and_actual(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _contest(capsys, path)
    assert code == 1 and "expected" in out and "actual" in out, out


def test_every_file_runs_and_the_exit_code_is_the_highest(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _contest(capsys, CONTESTS, DATA / "contests-failing", DATA / "contests-invalid")
    assert code == 2
    assert out.strip().splitlines()[-1].startswith(f"{len(_scripts(CONTESTS))} passed, ")


# ------------------------------------------------------------ late arrival

@given(length=st.integers(1, 25), opp=st.integers(0, 24), start=st.integers(0, 10**7),
       reads=st.lists(st.integers(0, 10**8), max_size=20))
def test_late_points_every_five_minutes_and_out_past_half(
    length: int, opp: int, start: int, reads: list[int]
) -> None:
    opp = min(opp, length - 1)
    late = LateArrival(length=length, absent=("A",), from_ms=start, score=(0, opp))
    needed = length - opp
    previous = 0
    for t in sorted(reads):
        s = late.state(t)
        points = s.score[1] - opp
        assert points >= previous  # the count never goes back
        previous = points
        due = max(0, (t - start) // 300_000)
        assert points == min(due, needed // 2 + 1)
        assert s.over == (due > needed / 2) == (s.disqualified == "A")
        assert s.score[1] <= length


# ------------------------------------------------------------------- Swing

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), start=st.integers(1, 5000),
       cpp=st.lists(st.integers(1, 800), min_size=1, max_size=4, unique=True).map(sorted),
       seed=st.integers(0, 2**32))
def test_swing_conserves_vp_and_ends_with_one_holder(
    n: int, start: int, cpp: list[int], seed: int
) -> None:
    players = [f"p{i}" for i in range(n)]
    swing = Swing(players, start_vp=start, cpp=cpp)
    rng = random.Random(seed)
    for _ in range(10_000):
        if swing.winner is not None:
            break
        pairs, sitting = swing.pair(rng)
        before = dict(swing.vp)
        games = [SwingGame(a=a, b=b, winner=rng.choice([a, b]),
                           result=rng.choice(["single", "gammon", "backgammon"]),
                           cube=rng.choice([1, 2, 4, 8])) for a, b in pairs]
        outcome = swing.play_round(games)
        assert sum(swing.vp.values()) == n * start  # conserved
        assert min(swing.vp.values()) >= 0
        for g in outcome.games:  # never more than the smaller stack
            smaller = min(before[g.game.a], before[g.game.b])
            assert g.vp_moved <= smaller
            assert g.all_in == (smaller < outcome.cpp)
            assert g.stake == min(outcome.cpp, smaller)
        if sitting is not None:  # nobody sits out twice before all once
            active = [p for p in players if before[p] > 0]
            assert swing.sat_out[sitting] - 1 <= min(swing.sat_out[p] for p in active)
    assert swing.winner is not None and swing.vp[swing.winner] == n * start


def test_cpp_keeps_rising_by_the_last_step() -> None:
    assert [cpp_for_round([100], r) for r in range(1, 5)] == [100, 200, 300, 400]
    assert [cpp_for_round([100, 150, 250], r) for r in range(1, 6)] == [100, 150, 250, 350, 450]


def test_swing_refuses_a_round_after_the_end() -> None:
    swing = Swing(["a", "b"], start_vp=10, cpp=[100])
    swing.play_round([SwingGame(a="a", b="b", winner="a")])
    assert swing.winner == "a"
    with pytest.raises(IllegalContest):
        swing.play_round([])


# ----------------------------------------------------------------- couples

def test_couples_schedule_and_three_wins() -> None:
    e = Encounter(Couple(name="A", players=("a1", "a2")), Couple(name="B", players=("b1", "b2")))
    assert e.phases == [[("a1", "b2"), ("a2", "b1")], [("A", "B")], [("a1", "b1"), ("a2", "b2")]]
    for phase, winner in [(0, "b2"), (0, "b1"), (1, "A"), (2, "a1")]:
        e.record(phase, winner)
        assert e.winner is None
    assert e.next_match() == (2, 1)
    e.record(2, "a2")
    assert e.wins == {"A": 3, "B": 2} and e.winner == "A" and e.decided_after_phase == 3
    assert e.next_match() is None


def _encounter(a: Couple, b: Couple, wins: str) -> Encounter:
    """An encounter whose matches, in schedule order, are won by couple ``a``
    or ``b`` as ``wins`` spells them (e.g. "abba"), until it is decided."""
    e = Encounter(a, b)
    order = [(p, m) for p in range(3) for m in range(len(e.phases[p]))]
    for (phase, m), w in zip(order, wins, strict=False):
        side = a if w == "a" else b
        e.record(phase, next(n for n in e.phases[phase][m]
                             if n == side.name or n in side.players))
    return e


COUPLES = {n: Couple(name=n, players=(n + "1", n + "2")) for n in ("Zeta", "Alfa", "Mu", "Beta")}


def _rr(results: list[tuple[str, str, str]]) -> list[Encounter]:
    return [_encounter(COUPLES[x], COUPLES[y], wins) for x, y, wins in results]


def _places(encs: list[Encounter], points: dict[tuple[int, str], int] | None = None
            ) -> list[tuple[int, str]]:
    return [(s.place, s.couple) for s in standings(encs, points)]


def test_couples_three_tied_in_a_circle_share_the_place_never_by_name() -> None:
    # tournament.md 3: Zeta beat Alfa 3-0, Alfa beat Mu 3-0, Mu beat Zeta 3-0:
    # one encounter and three matches each; three tied: no head to head
    encs = _rr([("Zeta", "Alfa", "aaa"), ("Alfa", "Mu", "aaa"), ("Mu", "Zeta", "aaa")])
    assert _places(encs) == [(1, "Zeta"), (1, "Alfa"), (1, "Mu")]
    # the points difference then separates them; two still tied share place 2
    pts = {(0, "Zeta"): 5, (0, "Alfa"): -5, (1, "Alfa"): 3, (1, "Mu"): -3,
           (2, "Mu"): 1, (2, "Zeta"): -1}
    assert _places(encs, pts) == [(1, "Zeta"), (2, "Alfa"), (2, "Mu")]


def test_couples_two_tied_who_met_the_winner_of_their_encounter_first() -> None:
    # Zeta and Alfa both win two encounters; Alfa won more matches, but Zeta
    # beat Alfa: head to head comes before matches. Mu and Beta: one each,
    # Mu beat Beta though Beta won more matches.
    encs = _rr([("Zeta", "Alfa", "aabba"), ("Zeta", "Mu", "aabba"), ("Beta", "Zeta", "aaba"),
                ("Alfa", "Mu", "aaa"), ("Alfa", "Beta", "aabba"), ("Mu", "Beta", "aabba")])
    rows = standings(encs)
    assert [(r.place, r.couple, r.encounters, r.matches) for r in rows] == [
        (1, "Zeta", 2, 7), (2, "Alfa", 2, 8), (3, "Mu", 1, 5), (4, "Beta", 1, 7)]
    assert rows[1].matches > rows[0].matches and rows[3].matches > rows[2].matches


def test_couples_two_tied_who_did_not_meet_go_by_matches_then_share() -> None:
    encs = _rr([("Zeta", "Mu", "aaa"), ("Alfa", "Beta", "aaa")])
    assert _places(encs) == [(1, "Zeta"), (1, "Alfa"), (3, "Mu"), (3, "Beta")]
    encs = _rr([("Zeta", "Mu", "aaba"), ("Alfa", "Beta", "aaa")])  # Mu won a match
    assert _places(encs) == [(1, "Zeta"), (1, "Alfa"), (3, "Mu"), (4, "Beta")]
    pts = {(0, "Zeta"): 2, (0, "Mu"): -2, (1, "Alfa"): 5, (1, "Beta"): -5}
    assert _places(encs, pts) == [(1, "Alfa"), (2, "Zeta"), (3, "Mu"), (4, "Beta")]


def test_couples_an_undecided_encounter_between_two_tied_is_no_head_to_head() -> None:
    encs = _rr([("Zeta", "Alfa", "ab")])
    assert _places(encs) == [(1, "Zeta"), (1, "Alfa")]


# -------------------------------------------------------------------- draw

def _check_spread(round1: list[dict[str, Any]], empty: set[int]) -> None:
    """In every sub-bracket the two halves differ by at most one."""
    marks = [1 if i in empty else 0 for i in range(2 * len(round1))]
    size = len(marks)
    width = size
    while width >= 2:
        for lo in range(0, size, width):
            half = width // 2
            left, right = sum(marks[lo:lo + half]), sum(marks[lo + half:lo + width])
            assert abs(left - right) <= 1, (width, lo, marks)
        width //= 2


def _bracket_invariants(rounds: list[list[dict[str, Any]]]) -> None:
    for r, matches in enumerate(rounds):
        for i, m in enumerate(matches):
            assert m["winner"] in (m["a"], m["b"]) and m["winner"] is not None
            if r + 1 < len(rounds):
                nxt = rounds[r + 1][i // 2]
                assert nxt["a" if i % 2 == 0 else "b"] == m["winner"]  # winners advance
            if r > 0:
                assert m["a"] is not None and m["b"] is not None


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 140), k=st.integers(0, 40), j=st.integers(0, 40),
       seed=st.integers(0, 2**31))
def test_the_draw_keeps_section_4(n: int, k: int, j: int, seed: int) -> None:
    size = 2
    while size < n + k:
        size *= 2
    j = min(j, k)
    if 2 * n < size:
        with pytest.raises(ValueError):
            simulate(n, seed=seed, late=k, arrivals=j)
        return
    draw = simulate(n, seed=seed, late=k, arrivals=j, consolation=True)
    assert draw == simulate(n, seed=seed, late=k, arrivals=j, consolation=True)  # same seed
    main_ = draw["main"]
    assert main_["size"] == size
    round1 = main_["rounds"][0]
    slots = [x for m in round1 for x in (m["a"], m["b"])]
    late = main_["late_slots"]
    assert len(late) == k and late == sorted(late)
    # late arrivals take the slots in numerical order; the rest became byes
    assert [slots[p] for p in late[:j]] == [f"L{i}" for i in range(1, j + 1)]
    assert all(slots[p] is None for p in late[j:])
    assert sorted(x for x in slots if x and x.startswith("P")) == sorted(
        f"P{i}" for i in range(1, n + 1))
    byes = {p for p, x in enumerate(slots) if x is None} - set(late)
    assert len(byes) == size - n - k
    for m in round1:  # a bye or late slot always faces a registered player
        assert (m["a"] or "P").startswith("P") or (m["b"] or "P").startswith("P")
        assert m["a"] is not None or m["b"] is not None
    _check_spread(round1, byes)
    _check_spread(round1, byes | set(late))
    _bracket_invariants(main_["rounds"])
    # the consolation: exactly the first-played-match losers
    first: dict[str, dict[str, Any]] = {}
    had_bye = {x for m in round1 for x in (m["a"], m["b"])
               if x and (m["a"] is None or m["b"] is None)}
    for matches in main_["rounds"]:
        for m in matches:
            if m["a"] and m["b"]:
                for x in (m["a"], m["b"]):
                    first.setdefault(x, m)
    losers = {x for x, m in first.items() if m["winner"] != x}
    cons = draw["consolation"]
    entrants = {x for m in cons["rounds"][0] for x in (m["a"], m["b"]) if x} if cons["rounds"] \
        else set()
    if len(losers) > 1:
        assert entrants == losers
        assert cons["size"] >= len(losers) and cons["size"] < 2 * len(losers)
        _bracket_invariants(cons["rounds"])
        c_round1 = cons["rounds"][0]
        bye_takers = {m["a"] or m["b"] for m in c_round1 if m["a"] is None or m["b"] is None}
        without = losers - had_bye
        # the byes go first to entrants who had no bye in the Main
        assert bye_takers <= without or without <= bye_takers
        c_slots = [x for m in c_round1 for x in (m["a"], m["b"])]
        _check_spread(c_round1, {p for p, x in enumerate(c_slots) if x is None})


def test_draw_simulate_prints_the_specs_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["draw", "simulate", "--players", "12", "--seed", "7", "--late", "2",
                 "--arrivals", "1", "--consolation", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(out) == {"main", "consolation"}
    assert set(out["main"]) == {"size", "late_slots", "rounds"}
    assert out["main"]["size"] == 16 and len(out["main"]["rounds"]) == 4
    assert set(out["main"]["rounds"][0][0]) == {"a", "b", "winner"}


@pytest.mark.parametrize("argv", [
    ["--players", "0", "--seed", "1"],
    ["--players", "4", "--seed", "1", "--late", "1", "--arrivals", "2"],
    ["--players", "3", "--seed", "1", "--late", "5"],
])
def test_draw_simulate_refuses_bad_arguments_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draw", "simulate", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bgclock draw: ")
