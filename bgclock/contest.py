"""``bgclock contest FILE...``: run contest scripts (tournament.md).

Three kinds of script, named by ``contest``: ``late_arrival``, ``swing`` and
``couples``.  As ``bgclock replay`` does for clock scripts: exit 0 when every
expectation holds; 1 when one does not (file, step, field, expected, actual);
2 for an invalid script, naming the field.  Unknown keys are invalid.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bgclock.core import PRESETS, ClockError, ClockSettings, is_word
from bgclock.script import (
    ScriptError,
    _check_keys,
    _is_int,
    _need,
    _shown,
    read_json,
    run_each,
)
from bgclock.tournament import (
    DEFAULT_GRACE_MS,
    RESULTS,
    ContestError,
    Couple,
    Encounter,
    InvalidContest,
    LateArrival,
    Swing,
    SwingGame,
)
from bgclock.tournament._names import check_new_names

_SIDES: Final = ("A", "B")
_MAX_MS: Final = 2**53 - 1
_MAX_STEPS: Final = 100_000


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first expectation that does not hold."""

    step: str
    field: str
    expected: Any
    actual: Any

    def describe(self) -> str:
        return (f"{self.step}: {self.field}: expected {json.dumps(self.expected)}, "
                f"actual {json.dumps(self.actual)}")


def _same(want: Any, got: Any) -> bool:
    return bool(want == got and type(want) is type(got))


def _bounded_int(value: object, where: str, low: int, high: int) -> int:
    _need(_is_int(value) and low <= value <= high,  # type: ignore[operator]
          where, f"must be a whole number from {low} to {high}")
    assert isinstance(value, int)
    return value


def _distinct(named: list[tuple[str, str]], what: str = "player") -> None:
    """Names told apart as on the server (``tournament/_names.py``): no
    invisible characters, no two the same or looking alike."""
    try:
        check_new_names(named, what=what)
    except InvalidContest as exc:
        raise ScriptError(str(exc)) from None


def _name(value: object, where: str) -> str:
    _need(isinstance(value, str) and len(value.strip()) > 0 and len(value) <= 100, where,
          "must be a name of 1-100 characters")
    assert isinstance(value, str)
    return value


# ------------------------------------------------------------- late arrival

_LATE_KEYS: Final = frozenset({"about", "contest", "length", "absent", "from_ms",
                               "scheduled_ms", "score", "rules", "steps"})
_LATE_EXPECT: Final = frozenset({"score", "over", "winner", "disqualified", "reserve_ms"})


def _late(data: dict[str, Any]) -> Mismatch | None:
    _check_keys(data, _LATE_KEYS, "")
    length = _bounded_int(data.get("length"), "length", 1, 10_000)
    absent_raw = data.get("absent")
    _need(is_word(absent_raw, ("A", "B", "both")), "absent",
          "must be 'A', 'B' or 'both'")
    absent = ("A", "B") if absent_raw == "both" else (str(absent_raw),)
    scheduled = data.get("scheduled_ms", 0)
    _bounded_int(scheduled, "scheduled_ms", 0, _MAX_MS)
    from_ms = data.get("from_ms", scheduled + DEFAULT_GRACE_MS)
    _bounded_int(from_ms, "from_ms", 0, _MAX_MS)
    score_raw = data.get("score", [0, 0])
    _need(isinstance(score_raw, list) and len(score_raw) == 2
          and all(_is_int(s) and 0 <= s < length for s in score_raw),
          "score", "must be [A, B], each a whole number from 0 to length - 1")
    score = (score_raw[0], score_raw[1])
    rules = data.get("rules")
    if "rules" in data:  # null included: a null where a value is wanted is invalid
        _need(is_word(rules, PRESETS), "rules",
              f"unknown preset {_shown(rules)} (one of {', '.join(PRESETS)})")
    steps = data.get("steps")
    _need(isinstance(steps, list) and len(steps) <= _MAX_STEPS, "steps", "must be a list")
    assert isinstance(steps, list)
    # validate every step before running any
    previous, arrived = 0, False
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        _need(isinstance(step, dict), where, "must be an object")
        _check_keys(step, frozenset({"at_ms", "do", "expect"}), where)
        at = _bounded_int(step.get("at_ms"), f"{where}.at_ms", 0, _MAX_MS)
        _need(at >= previous, f"{where}.at_ms", f"must not decrease (previous {previous})")
        previous = at
        if "do" in step:
            _need(step["do"] == "arrive", f"{where}.do", "must be 'arrive'")
            _need(not arrived, f"{where}.do", "arrive at most once")
            arrived = True
        if "expect" in step:
            _late_expect(step["expect"], f"{where}.expect", rules is not None)
    late = LateArrival(length=length, absent=absent, from_ms=from_ms, score=score)
    for i, step in enumerate(steps):
        at = step["at_ms"]
        if "do" in step:
            try:
                late.arrive(at)
            except ContestError as exc:
                return Mismatch(f"step {i}", "do", "arrive", str(exc))
        state = late.state(at)
        for key, want in step.get("expect", {}).items():
            if key == "reserve_ms":
                got: Any = None
                if not state.over:
                    assert isinstance(rules, str)
                    try:
                        got = ClockSettings.resolve(rules, length=length,
                                                    score=state.score).reserve_ms
                    except ClockError:
                        got = None
            elif key == "score":
                got = list(state.score)
            else:
                got = getattr(state, key)
            if not _same(want, got):
                return Mismatch(f"step {i}", key, want, got)
    return None


def _late_expect(exp: object, where: str, has_rules: bool) -> None:
    _need(isinstance(exp, dict), where, "must be an object")
    assert isinstance(exp, dict)
    _check_keys(exp, _LATE_EXPECT, where)
    if "score" in exp:
        _need(isinstance(exp["score"], list) and len(exp["score"]) == 2
              and all(_is_int(s) and s >= 0 for s in exp["score"]),
              f"{where}.score", "must be [A, B], two whole numbers")
    if "over" in exp:
        _need(isinstance(exp["over"], bool), f"{where}.over", "must be true or false")
    for key in ("winner", "disqualified"):
        if key in exp:
            _need(exp[key] is None or is_word(exp[key], _SIDES), f"{where}.{key}",
                  "must be 'A', 'B' or null")
    if "reserve_ms" in exp:
        _need(has_rules, f"{where}.reserve_ms", "needs the script's 'rules'")
        _need(exp["reserve_ms"] is None or _is_int(exp["reserve_ms"]), f"{where}.reserve_ms",
              "must be a whole number of milliseconds")


# -------------------------------------------------------------------- swing

_SWING_KEYS: Final = frozenset({"about", "contest", "players", "start_vp", "cpp", "rounds"})
_SWING_EXPECT: Final = frozenset({"vp", "cpp", "all_in", "out", "winner"})


def _swing(data: dict[str, Any]) -> Mismatch | None:
    _check_keys(data, _SWING_KEYS, "")
    players = data.get("players")
    _need(isinstance(players, list) and 2 <= len(players) <= 4096, "players",
          "must be a list of 2 to 4096 names")
    assert isinstance(players, list)
    names = [_name(p, f"players[{i}]") for i, p in enumerate(players)]
    _need(len(set(names)) == len(names), "players", "names must be different")
    _distinct([(f"players[{i}]", n) for i, n in enumerate(names)])
    start_vp = _bounded_int(data.get("start_vp"), "start_vp", 1, 10**12)
    cpp = data.get("cpp")
    _need(isinstance(cpp, list) and 1 <= len(cpp) <= 1000, "cpp",
          "must be a list of 1 to 1000 whole numbers")
    assert isinstance(cpp, list)
    for i, c in enumerate(cpp):
        _bounded_int(c, f"cpp[{i}]", 1, 10**12)
    for i in range(1, len(cpp)):
        _need(cpp[i] > cpp[i - 1], f"cpp[{i}]",
              f"must be above cpp[{i - 1}] ({cpp[i - 1]}): the CPP is raised every round")
    rounds = data.get("rounds")
    _need(isinstance(rounds, list) and len(rounds) <= _MAX_STEPS, "rounds", "must be a list")
    assert isinstance(rounds, list)
    parsed: list[tuple[list[SwingGame], dict[str, Any] | None]] = []
    for r, rnd in enumerate(rounds):
        where = f"rounds[{r}]"
        _need(isinstance(rnd, dict), where, "must be an object")
        _check_keys(rnd, frozenset({"games", "expect"}), where)
        games_raw = rnd.get("games")
        _need(isinstance(games_raw, list) and len(games_raw) <= 2048, f"{where}.games",
              "must be a list")
        games = [_swing_game(g, f"{where}.games[{i}]", names) for i, g in enumerate(games_raw)]
        expect = rnd.get("expect")
        if "expect" in rnd:  # null included
            _swing_expect(expect, f"{where}.expect", names, len(games))
        parsed.append((games, expect))
    swing = Swing(names, start_vp=start_vp, cpp=cpp)
    for r, (games, expect) in enumerate(parsed):
        try:
            outcome = swing.play_round(games)
        except ContestError as exc:
            raise ScriptError(f"rounds[{r}].games: {exc}") from None
        for key, want in (expect or {}).items():
            got: Any
            if key == "vp":
                for name, vp in want.items():
                    if not _same(vp, swing.vp[name]):
                        return Mismatch(f"round {r}", f"vp.{name}", vp, swing.vp[name])
                continue
            if key == "cpp":
                got = outcome.cpp
            elif key == "all_in":
                got = outcome.all_in
                if sorted(want) == got:
                    continue  # a set of games: any order
            elif key == "out":
                got = swing.out()
                if sorted(want) == sorted(got):
                    continue
            else:
                got = swing.winner
            if not _same(want, got):
                return Mismatch(f"round {r}", key, want, got)
    return None


def _swing_game(raw: object, where: str, names: list[str]) -> SwingGame:
    _need(isinstance(raw, dict), where, "must be an object")
    assert isinstance(raw, dict)
    _check_keys(raw, frozenset({"a", "b", "winner", "result", "cube"}), where)
    for key in ("a", "b", "winner"):
        _need(is_word(raw.get(key), names), f"{where}.{key}",
              f"unknown player {_shown(raw.get(key))}")
    _need(raw["a"] != raw["b"], f"{where}.b", "a player cannot play itself")
    _need(raw["winner"] in (raw["a"], raw["b"]), f"{where}.winner", "must be a or b")
    _need("result" in raw, f"{where}.result", "is required (single, gammon or backgammon)")
    result = raw["result"]
    _need(isinstance(result, str) and result in RESULTS, f"{where}.result",
          "must be single, gammon or backgammon")
    cube = raw.get("cube", 1)
    _need(_is_int(cube) and 1 <= cube <= 4096 and cube & (cube - 1) == 0, f"{where}.cube",
          "must be 1, 2, 4, ... (at most 4096)")
    return SwingGame(a=raw["a"], b=raw["b"], winner=raw["winner"], result=result, cube=cube)


def _swing_expect(exp: object, where: str, names: list[str], games: int) -> None:
    _need(isinstance(exp, dict), where, "must be an object")
    assert isinstance(exp, dict)
    _check_keys(exp, _SWING_EXPECT, where)
    if "vp" in exp:
        _need(isinstance(exp["vp"], dict), f"{where}.vp", "must map players to VP")
        for name, vp in exp["vp"].items():
            _need(name in names, f"{where}.vp.{name}", "unknown player")
            _need(_is_int(vp) and vp >= 0, f"{where}.vp.{name}", "must be a whole number >= 0")
    if "cpp" in exp:
        _need(_is_int(exp["cpp"]) and exp["cpp"] >= 1, f"{where}.cpp",
              "must be a whole number >= 1")
    if "all_in" in exp:
        _need(isinstance(exp["all_in"], list)
              and all(_is_int(i) and 0 <= i < games for i in exp["all_in"]),
              f"{where}.all_in", "must list the round's games by index")
    if "out" in exp:
        _need(isinstance(exp["out"], list) and all(is_word(n, names) for n in exp["out"]),
              f"{where}.out", "must list players")
    if "winner" in exp:
        _need(exp["winner"] is None or is_word(exp["winner"], names), f"{where}.winner",
              "must be a player or null")


# ------------------------------------------------------------------ couples

_COUPLES_KEYS: Final = frozenset({"about", "contest", "couples", "expect_schedule", "results",
                                  "expect"})


def _couples(data: dict[str, Any]) -> Mismatch | None:
    _check_keys(data, _COUPLES_KEYS, "")
    couples_raw = data.get("couples")
    _need(isinstance(couples_raw, dict) and len(couples_raw) == 2, "couples",
          "must name two couples, each [player 1, player 2]")
    assert isinstance(couples_raw, dict)
    couples = []
    for name, pair in couples_raw.items():
        where = f"couples.{name}"
        _name(name, where)
        _need(isinstance(pair, list) and len(pair) == 2, where, "must be [player 1, player 2]")
        couples.append(Couple(name=name, players=(_name(pair[0], f"{where}[0]"),
                                                  _name(pair[1], f"{where}[1]"))))
    _distinct([(f"couples.{c.name}", c.name) for c in couples], what="couple")
    _distinct([(f"couples.{c.name}[{k}]", p) for c in couples for k, p in enumerate(c.players)])
    try:
        encounter = Encounter(couples[0], couples[1])
    except ContestError as exc:
        raise ScriptError(f"couples: {exc}") from None
    results = data.get("results", [])
    _need(isinstance(results, list) and len(results) <= 3, "results",
          "must be a list of at most three phases")
    for p, phase in enumerate(results):
        _need(isinstance(phase, list) and len(phase) <= len(encounter.phases[p]),
              f"results[{p}]", f"phase {p + 1} has {len(encounter.phases[p])} match(es)")
        for m, winner in enumerate(phase):
            try:
                encounter.record(p, winner, director_asked=True)
            except ContestError as exc:
                raise ScriptError(f"results[{p}][{m}]: {exc}") from None
    if "expect_schedule" in data:
        want = data["expect_schedule"]
        _need(isinstance(want, list) and all(
            isinstance(ph, list) and all(isinstance(pr, list) and len(pr) == 2
                                         and all(isinstance(x, str) for x in pr) for pr in ph)
            for ph in want), "expect_schedule", "must be a list of phases of [x, y] pairs")
        full = [[list(pr) for pr in ph] for ph in encounter.phases]
        scheduled = [[list(pr) for pr in ph] for ph in encounter.scheduled()]
        if want != full and want != scheduled:
            return Mismatch("expect_schedule", "schedule", want, full)
    exp = data.get("expect")
    if "expect" in data:  # null included
        _need(isinstance(exp, dict), "expect", "must be an object")
        assert isinstance(exp, dict)
        _check_keys(exp, frozenset({"wins", "winner", "decided_after_phase"}), "expect")
        names = [c.name for c in couples]
        if "wins" in exp:
            _need(isinstance(exp["wins"], dict) and all(
                k in names and _is_int(v) and v >= 0 for k, v in exp["wins"].items()),
                "expect.wins", "must map couples to whole numbers")
        if "winner" in exp:
            _need(exp["winner"] is None or is_word(exp["winner"], names), "expect.winner",
                  "must be a couple or null")
        if "decided_after_phase" in exp:
            phase = exp["decided_after_phase"]
            _need(phase is None or _is_int(phase) and phase in (1, 2, 3),
                  "expect.decided_after_phase", "must be 1, 2, 3 or null")
        for key, want in exp.items():
            if key == "wins":
                wins = encounter.wins
                for name, n in want.items():
                    if not _same(n, wins[name]):
                        return Mismatch("expect", f"wins.{name}", n, wins[name])
                continue
            got = encounter.winner if key == "winner" else encounter.decided_after_phase
            if not _same(want, got):
                return Mismatch("expect", key, want, got)
    return None


# ---------------------------------------------------------------- running

_KINDS: Final = {"late_arrival": _late, "swing": _swing, "couples": _couples}


def run_contest(data: object) -> Mismatch | None:
    """Validate and run one parsed contest script (``ScriptError`` if invalid)."""
    _need(isinstance(data, dict), "script", "must be a JSON object")
    assert isinstance(data, dict)
    kind = data.get("contest")
    _need(isinstance(kind, str) and kind in _KINDS, "contest",
          f"must be one of {', '.join(_KINDS)}, not {_shown(kind)}")
    _need("about" not in data or isinstance(data["about"], str), "about", "must be text")
    try:
        return _KINDS[str(kind)](data)
    except ContestError as exc:  # a rule the validation above did not foresee
        raise ScriptError(str(exc)) from None


def run_file(path: Path) -> tuple[int, str]:
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON, too large
        return 2, f"{path}: invalid script: {exc}"
    except RecursionError:
        return 2, f"{path}: invalid script: the JSON nests too deeply"
    try:
        mismatch = run_contest(data)
    except ScriptError as exc:
        return 2, f"{path}: invalid script: {exc}"
    except RecursionError:
        return 2, f"{path}: invalid script: the JSON nests too deeply"
    if mismatch is not None:
        return 1, f"{path}: FAIL {mismatch.describe()}"
    return 0, f"{path}: ok ({data['contest']})"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="contest script (JSON), or a folder: every *.json under it")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only failures and the summary")


def run(args: argparse.Namespace) -> int:
    def one(path: Path) -> int:
        code, line = run_file(path)
        if code or not args.quiet:
            print(line)
        return code

    return run_each(args.files, "contest scripts", one)
