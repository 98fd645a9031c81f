"""Clock scripts: the conformance format of ``../shared/spec/clock-script.md``.

``load_script`` validates a script's JSON (``ScriptError`` names the field that
is wrong); ``run_script`` plays it on a ``bgclock.core.Match`` and reports the
first step that does not hold.  ``bgclock replay FILE|DIR...`` is a thin wrapper.
Pure: the caller reads files and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bgclock.core import (
    EVENT_TYPES,
    MODES,
    OVERRIDE_KEYS,
    PHASES,
    PRESETS,
    SIDES,
    STOP_REASONS,
    ClockError,
    ClockSettings,
    Event,
    IllegalCommand,
    Match,
    MatchState,
    is_word,
)

_TOP_KEYS: Final = frozenset({"about", "rules", "match", "steps"})
_MATCH_KEYS: Final = frozenset({"length", "score", "teams", "crawford", "clock"})
_CLOCK_INT_KEYS: Final = OVERRIDE_KEYS - {"mode"}
_STEP_KEYS: Final = frozenset({"at_ms", "do", "expect", "refused"})
_SIDE_FIELDS: Final[dict[str, type]] = {
    "reserve_ms": int, "delay_ms": int, "running": bool, "expired": bool,
    "forfeit_delay": bool, "breaks": int,
}
_STOPPED_REASONS: Final = STOP_REASONS | {"time_expired"}
_EXPECT_KEYS: Final = frozenset({
    "A", "B", "phase", "stopped_reason", "on_turn", "score", "cube", "crawford",
    "cube_frozen", "winner", "game",
})


class ScriptError(ValueError):
    """The file is not a valid clock script; the message names the field."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One step: an optional event and an optional expectation at ``at_ms``."""

    index: int
    at_ms: int
    event: Event | None
    refused: bool
    expect: dict[str, Any] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Script:
    """A validated clock script."""

    rules: str
    length: int
    score: tuple[int, int]
    teams: bool
    crawford: bool
    clock: dict[str, Any]
    steps: tuple[Step, ...]
    about: str | None = None

    def new_match(self) -> Match:
        return Match.new(self.rules, length=self.length, score=self.score, teams=self.teams,
                         crawford=self.crawford, clock=self.clock)


@dataclass(frozen=True, slots=True, kw_only=True)
class Failure:
    """The first step that did not hold."""

    step: int
    field: str
    expected: Any
    actual: Any
    detail: str = ""

    def describe(self) -> str:
        text = (f"step {self.step}: {self.field}: expected {json.dumps(self.expected)}, "
                f"actual {json.dumps(self.actual)}")
        return f"{text} ({self.detail})" if self.detail else text


@dataclass(slots=True, kw_only=True)
class Outcome:
    """What running a script gave: its failure (if any) and the final state."""

    failure: Failure | None
    state: MatchState
    refusals: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failure is None


# ------------------------------------------------------------------ validation

def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


#: The longest JSON integer read as a number (Python's conversion limit).
MAX_INT_DIGITS: Final = sys.get_int_max_str_digits() or 4300


class HugeInt:
    """A JSON integer too long to convert (over ``sys.get_int_max_str_digits()``
    digits): kept as this marker, which no field accepts, so that the script is
    refused naming the field instead of the parser aborting the batch."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __str__(self) -> str:
        return f"<an integer of {self.digits} digits>"

    __repr__ = __str__


def _parse_int(text: str) -> int | HugeInt:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return HugeInt(digits)
    return int(text)


#: The largest script file read (the longest of the conformance suite is 13 KB;
#: a device or a FIFO, ``/dev/zero``, would otherwise be read for ever).
MAX_SCRIPT_BYTES: Final = 16 * 1024 * 1024


def read_json(path: Path) -> Any:
    """A script file's JSON (at most ``MAX_SCRIPT_BYTES``; ``ValueError``
    past it); an integer too long to convert becomes a ``HugeInt`` (refused
    by the field's check)."""
    with path.open("rb") as f:
        raw = f.read(MAX_SCRIPT_BYTES + 1)
    if len(raw) > MAX_SCRIPT_BYTES:
        raise ValueError(f"larger than {MAX_SCRIPT_BYTES // (1024 * 1024)} MiB")
    return json.loads(raw.decode("utf-8"), parse_int=_parse_int)


def _shown(value: object, limit: int = 60) -> str:
    """A value as JSON for a message, cut to ``limit`` characters."""
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise ScriptError(f"{where}: {what}")


def _check_keys(obj: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in obj:
        _need(key in allowed, f"{where}.{key}" if where else key, "unknown key")


def _validate_expect(exp: object, where: str) -> dict[str, Any]:
    _need(isinstance(exp, dict), where, "must be an object")
    assert isinstance(exp, dict)
    _check_keys(exp, _EXPECT_KEYS, where)
    checks: dict[str, Callable[[Any], bool]] = {
        "phase": lambda v: is_word(v, PHASES),
        "stopped_reason": lambda v: v is None or is_word(v, _STOPPED_REASONS),
        "on_turn": lambda v: v is None or is_word(v, SIDES),
        "winner": lambda v: v is None or is_word(v, SIDES),
        "score": lambda v: isinstance(v, list) and len(v) == 2 and all(_is_int(s) for s in v),
        "crawford": lambda v: isinstance(v, bool),
        "cube_frozen": lambda v: isinstance(v, bool),
        "game": lambda v: _is_int(v) and v >= 0,
    }
    for key, value in exp.items():
        path = f"{where}.{key}"
        if key in ("A", "B"):
            _need(isinstance(value, dict), path, "must be an object")
            _check_keys(value, frozenset(_SIDE_FIELDS), path)
            for name, typ in _SIDE_FIELDS.items():
                if name in value:
                    v = value[name]
                    good = isinstance(v, bool) if typ is bool else _is_int(v)
                    want = "true or false" if typ is bool else "a whole number"
                    _need(good, f"{path}.{name}", f"must be {want}")
        elif key == "cube":
            _need(isinstance(value, dict), path, "must be an object")
            _check_keys(value, frozenset({"value", "owner"}), path)
            if "value" in value:
                _need(_is_int(value["value"]) and value["value"] >= 1, f"{path}.value",
                      "must be a whole number >= 1")
            if "owner" in value:
                _need(value["owner"] is None or is_word(value["owner"], SIDES), f"{path}.owner",
                      "must be 'A', 'B' or null")
        else:
            if not checks[key](value):
                raise ScriptError(f"{path}: invalid value {_shown(value)}")
    return exp


def _validate_step(raw: object, index: int, previous_at: int) -> Step:
    where = f"steps[{index}]"
    _need(isinstance(raw, dict), where, "must be an object")
    assert isinstance(raw, dict)
    at = raw.get("at_ms")
    _need(_is_int(at), f"{where}.at_ms", "must be a whole number of milliseconds")
    assert isinstance(at, int)
    _need(at >= 0, f"{where}.at_ms", "must not be negative")
    _need(at >= previous_at, f"{where}.at_ms", f"must not decrease (previous {previous_at})")
    kind = raw.get("do")
    event: Event | None = None
    if "do" not in raw:
        _check_keys(raw, frozenset({"at_ms", "expect"}), where)
    else:
        _need(isinstance(kind, str) and kind in EVENT_TYPES, f"{where}.do",
              f"unknown event {_shown(kind)}")
        fields = {k: v for k, v in raw.items() if k not in _STEP_KEYS}
        # Each event takes exactly its own fields: no stored-form version, no
        # field given as null in place of being left out.
        _need("v" not in fields, f"{where}.v", "unknown key")
        for name, value in fields.items():
            _need(value is not None, f"{where}.{name}", "must not be null")
        if kind == "stop":
            _need("reason" not in fields or is_word(fields["reason"], STOP_REASONS),
                  f"{where}.reason", f"must be one of {', '.join(sorted(STOP_REASONS))}")
        try:
            event = Event.from_dict({"do": kind, "at_ms": at, **fields})
        except ClockError as exc:
            raise ScriptError(f"{where}: {exc}") from None
    refused = raw.get("refused", False)
    _need(isinstance(refused, bool), f"{where}.refused", "must be true or false")
    _need(not refused or event is not None, f"{where}.refused", "needs an event ('do')")
    expect = None
    if "expect" in raw:
        expect = _validate_expect(raw["expect"], f"{where}.expect")
    return Step(index=index, at_ms=at, event=event, refused=refused, expect=expect)


def load_script(data: object) -> Script:
    """Validate a parsed script; raise ``ScriptError`` naming the bad field."""
    _need(isinstance(data, dict), "script", "must be a JSON object")
    assert isinstance(data, dict)
    _check_keys(data, _TOP_KEYS, "")
    for key in ("rules", "match", "steps"):
        _need(key in data, key, "missing")
    about = data.get("about")
    _need("about" not in data or isinstance(about, str), "about", "must be text")
    rules = data["rules"]
    _need(is_word(rules, PRESETS), "rules",
          f"unknown preset {_shown(rules)} (one of {', '.join(PRESETS)})")
    match = data["match"]
    _need(isinstance(match, dict), "match", "must be an object")
    _check_keys(match, _MATCH_KEYS, "match")
    length = match.get("length")
    _need(_is_int(length) and length >= 1, "match.length", "must be a whole number >= 1")
    score = match.get("score", [0, 0])
    _need(isinstance(score, list) and len(score) == 2 and all(_is_int(s) for s in score),
          "match.score", "must be [A, B], two whole numbers")
    _need(all(0 <= s < length for s in score), "match.score",
          "each score must be from 0 to length - 1")
    teams = match.get("teams", False)
    _need(isinstance(teams, bool), "match.teams", "must be true or false")
    crawford = match.get("crawford", False)
    _need(isinstance(crawford, bool), "match.crawford", "must be true or false")
    clock = match.get("clock", {})
    _need(isinstance(clock, dict), "match.clock", "must be an object")
    _check_keys(clock, OVERRIDE_KEYS, "match.clock")
    if "mode" in clock:
        _need(is_word(clock["mode"], MODES), "match.clock.mode",
              f"must be one of {', '.join(MODES)}")
    for key in _CLOCK_INT_KEYS & set(clock):
        _need(_is_int(clock[key]) and clock[key] >= 0, f"match.clock.{key}",
              "must be a whole number of milliseconds >= 0")
    if "overtime_ms" in clock:
        _need(clock["overtime_ms"] >= 1, "match.clock.overtime_ms",
              "must be a positive number of milliseconds")
    try:
        ClockSettings.resolve(rules, length=length, score=(score[0], score[1]), teams=teams,
                              overrides=clock)
    except ClockError as exc:
        raise ScriptError(f"match: {exc}") from None
    steps_raw = data["steps"]
    _need(isinstance(steps_raw, list), "steps", "must be a list")
    steps: list[Step] = []
    previous = 0
    for i, raw in enumerate(steps_raw):
        step = _validate_step(raw, i, previous)
        previous = step.at_ms
        steps.append(step)
    return Script(rules=rules, length=length, score=(score[0], score[1]), teams=teams,
                  crawford=crawford, clock=dict(clock), steps=tuple(steps), about=about)


# --------------------------------------------------------------------- running

def state_fields(state: MatchState) -> dict[str, Any]:
    """The state with exactly the fields a script's ``expect`` can name."""
    full = state.to_dict()
    out = {key: full[key] for key in (
        "A", "B", "phase", "stopped_reason", "on_turn", "score", "cube", "crawford",
        "cube_frozen", "winner", "game",
    )}
    for side in ("A", "B"):
        out[side] = {k: full[side][k] for k in _SIDE_FIELDS}
    return out


def _compare(expect: dict[str, Any], actual: dict[str, Any], step: int) -> Failure | None:
    for key, want in expect.items():
        if isinstance(want, dict):  # A, B, cube: only the named fields
            for sub, sub_want in want.items():
                got = actual[key][sub]
                if got != sub_want or type(got) is not type(sub_want):
                    return Failure(step=step, field=f"{key}.{sub}", expected=sub_want,
                                   actual=got)
        else:
            got = actual[key]
            if got != want or type(got) is not type(want):
                return Failure(step=step, field=key, expected=want, actual=got)
    return None


def run_script(script: Script) -> Outcome:
    """Play every step; stop at the first that does not hold."""
    match = script.new_match()
    refusals: list[tuple[int, str]] = []
    for step in script.steps:
        if step.event is not None:
            try:
                match.apply(step.event)
                accepted, reason = True, ""
            except IllegalCommand as exc:
                accepted, reason = False, str(exc)
                refusals.append((step.index, reason))
            except ClockError as exc:
                accepted, reason = False, str(exc)
                refusals.append((step.index, reason))
            if accepted == step.refused:
                return Outcome(
                    failure=Failure(
                        step=step.index, field="refused", expected=step.refused,
                        actual=not accepted,
                        detail=f"{step.event.kind}: {reason}" if reason else step.event.kind,
                    ),
                    state=match.state(step.at_ms), refusals=refusals,
                )
        state = match.state(step.at_ms)
        if step.expect is not None:
            failure = _compare(step.expect, state_fields(state), step.index)
            if failure is not None:
                return Outcome(failure=failure, state=state, refusals=refusals)
    return Outcome(failure=None, state=match.state(), refusals=refusals)


_TOO_DEEP: Final = "the JSON nests too deeply (lists or objects inside each other)"


def script_files(name: str) -> list[Path]:
    """The files ``name`` stands for: itself, or every ``*.json`` under a
    folder (recursively, sorted by path)."""
    path = Path(name)
    if path.is_dir():
        return sorted(p for p in path.rglob("*.json") if p.is_file())
    return [path]


def run_file(path: Path) -> tuple[int, str, Outcome | None]:
    """Run one file: (exit code, report line, outcome)."""
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON, too large
        return 2, f"{path}: invalid script: {exc}", None
    except RecursionError:
        return 2, f"{path}: invalid script: {_TOO_DEEP}", None
    try:
        script = load_script(data)
    except ScriptError as exc:
        return 2, f"{path}: invalid script: {exc}", None
    except RecursionError:  # a value nested just below the parser's limit
        return 2, f"{path}: invalid script: {_TOO_DEEP}", None
    outcome = run_script(script)
    if outcome.failure is not None:
        return 1, f"{path}: FAIL {outcome.failure.describe()}", outcome
    return 0, f"{path}: ok ({len(script.steps)} steps)", outcome


# ------------------------------------------------------------------------- CLI

def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="clock script (JSON), or a folder: every *.json under it")
    parser.add_argument("--state", action="store_true",
                        help="print each file's final state as JSON")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only failures and the summary")


def run_each(names: list[str], what: str, one: Callable[[Path], int]) -> int:
    """Run ``one`` on every file the names stand for (a folder: every
    ``*.json`` under it); print the summary; the highest exit code."""
    worst = 0
    counts = {0: 0, 1: 0, 2: 0}
    for name in names:
        paths = script_files(name)
        if not paths:
            counts[2] += 1
            worst = 2
            print(f"{name}: no {what} (*.json) in this folder")
            continue
        for path in paths:
            code = one(path)
            counts[code] += 1
            worst = max(worst, code)
    print(f"{counts[0]} passed, {counts[1]} failed, {counts[2]} invalid")
    return worst


def run(args: argparse.Namespace) -> int:
    def one(path: Path) -> int:
        code, line, outcome = run_file(path)
        if code or not args.quiet:
            print(line)
        if args.state and outcome is not None:
            print(json.dumps(state_fields(outcome.state), sort_keys=True))
        return code

    return run_each(args.files, "clock scripts", one)
