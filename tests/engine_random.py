"""Random command sequences for the differential test of the two engines.

``sequence(rng)`` builds one match (a random preset, length, score, teams,
Crawford flag and director's overrides, small reserves so flags fall) and a
list of steps: events at non-decreasing random instants and queries at random
instants between them.  The events are mostly ones that fit the phase (read
from the Python engine as it folds), with every command kind at random beside
them, malformed ones (a side 'C', dice of 7, a missing or foreign field, time
going backwards, a cube that is no power of two) and refused ones.  A `start`
often carries the cube as it stands: every kind of value and owner, either
field alone, shapes no game can show (refused) and malformed ones.
"""

from __future__ import annotations

import random
from typing import Any

from bgclock.core import PRESETS, ClockError, Event, IllegalCommand, Match

SIDES = ("A", "B")
KINDS = (
    "opening_roll", "start", "late_start", "hit", "double", "take", "pass", "stop", "resume",
    "concede", "claim", "accept", "reject", "ruling", "game_over", "break", "premature",
    "adjust", "penalty",
)
RESULTS = ("single", "gammon", "backgammon")
REASONS = ("concession", "break", "fallen_dice", "dispute", "director", "dice_not_left", "other")


#: Cube values a `start` may carry, and values that make it malformed.
CUBE_VALUES = (1, 1, 2, 2, 4, 8, 16, 64, 1024, 2**20)
BAD_CUBE_VALUES = (0, 3, 6, -2, 2**21, 1.5, True, "2", None, [2])


def _cube(rng: random.Random) -> Any:
    """A `start`'s cube: mostly one a game can show (either field may be
    left out), sometimes a shape no game can show (refused: centered above 1,
    owned at 1), now and then malformed (invalid)."""
    r = rng.random()
    if r < 0.04:
        return rng.choice(([2, "A"], "centered", 2, {"value": 2, "owner": "A", "side": "B"}))
    value: Any = rng.choice(BAD_CUBE_VALUES if r < 0.1 else CUBE_VALUES)
    # a doubled cube has an owner, a cube at 1 has none: one in five is not so
    owned = (value != 1) != (rng.random() < 0.2)
    owner: Any = rng.choice(SIDES) if owned else None
    if r < 0.14:
        owner = rng.choice(("C", 1, ["A"]))
    cube: dict[str, Any] = {}
    if rng.random() < 0.85:
        cube["value"] = value
    if rng.random() < 0.85:
        cube["owner"] = owner
    return cube


def _start(rng: random.Random, side: str) -> dict[str, Any]:
    ev: dict[str, Any] = {"do": "start", "side": side}
    if rng.random() < 0.6:
        ev["cube"] = _cube(rng)
    return ev


def _match(rng: random.Random) -> dict[str, Any]:
    length = rng.choice((1, 1, 2, 3, 3, 5, 7, 9, 13, 15))
    score = [rng.randrange(length), rng.randrange(length)] if rng.random() < 0.5 else [0, 0]
    clock: dict[str, Any] = {}
    if rng.random() < 0.35:
        clock["mode"] = rng.choice(("simple_delay", "bronstein", "standard", "increment"))
    if rng.random() < 0.3:
        clock["delay_ms"] = rng.choice((0, 1, 500, 3_000, 12_000, 18_000))
    if rng.random() < 0.5:
        clock["reserve_ms"] = rng.choice((0, 1, 700, 5_000, 20_000, 60_000))
    elif rng.random() < 0.3:
        clock["per_point_ms"] = rng.choice((1_000, 10_000, 60_000))
        clock["less_per_point_ms"] = rng.choice((0, 1_000, 30_000))
    if rng.random() < 0.25:
        clock["overtime_ms"] = rng.choice((1, 2_000, 60_000))
    if rng.random() < 0.02:
        clock[rng.choice(("overtime_ms", "delay_ms", "color"))] = rng.choice((-1, 0, 1.5))
    return {"length": length, "score": score, "teams": rng.random() < 0.2,
            "crawford": rng.random() < 0.2, "clock": clock}


def _fitting(rng: random.Random, st: dict[str, Any], at: int) -> dict[str, Any]:
    """An event that usually fits the phase of state ``st``."""
    phase, turn = st["phase"], st["on_turn"]
    other = None if turn is None else ("B" if turn == "A" else "A")
    side = rng.choice(SIDES)
    r = rng.random()
    if phase == "setup" and st.get("rules") in ("it-tournament", "biba-2014") and r < 0.3:
        return _start(rng, side)  # the clock introduced mid-game, often on a doubled cube
    if phase in ("setup", "between_games"):
        if r < 0.68:
            return {"do": "opening_roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        if r < 0.8:
            return _start(rng, side)
        if r < 0.85:
            return {"do": "late_start", "side": side}
        return {"do": "break", "side": side}
    if phase == "playing":
        if st["double_offered_by"] is not None:
            return {"do": rng.choice(("take", "take", "pass", "hit")), "side": other}
        if r < 0.6:
            return {"do": "hit", "side": turn}
        if r < 0.7:
            return {"do": "double", "side": turn}
        if r < 0.76:
            return {"do": "stop", "side": side, "reason": rng.choice(REASONS)}
        if r < 0.82:
            return {"do": "game_over", "winner": side, "result": rng.choice(RESULTS)}
        if r < 0.88:
            return {"do": rng.choice(("concede", "claim")), "side": side,
                    "result": rng.choice(RESULTS)}
        return {"do": "premature", "side": side}
    if phase == "stopped":
        if r < 0.7:
            return {"do": "resume"}
        if r < 0.8:
            return {"do": "game_over", "winner": side, "result": rng.choice(RESULTS)}
        return {"do": rng.choice(("premature", "pass", "concede")), "side": side,
                **({"result": rng.choice(RESULTS)} if r > 0.9 else {})}
    if phase == "offer":
        offerer = st["offer"]["side"]
        answerer = "B" if offerer == "A" else "A"
        return {"do": rng.choice(("accept", "reject", "reject")), "side":
                answerer if r < 0.9 else offerer}
    if phase == "dispute":
        decision = rng.choice(("accept", "invalid", "gin", "lost"))
        ev: dict[str, Any] = {"do": "ruling", "decision": decision}
        if decision == "gin":
            ev["result"] = rng.choice(RESULTS)
        return ev
    if phase == "break":
        return {"do": "resume"}
    return _any(rng)


def _any(rng: random.Random) -> dict[str, Any]:
    """Any command kind with plausible fields."""
    kind = rng.choice(KINDS)
    ev: dict[str, Any] = {"do": kind}
    if kind == "opening_roll":
        ev["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    elif kind == "resume":
        pass
    elif kind == "start":
        ev = _start(rng, rng.choice(SIDES))
    elif kind == "ruling":
        ev["decision"] = rng.choice(("accept", "invalid", "gin", "lost"))
        if ev["decision"] == "gin" or rng.random() < 0.05:
            ev["result"] = rng.choice(RESULTS)
    elif kind == "game_over":
        ev["winner"] = rng.choice(SIDES)
        ev["result"] = rng.choice(RESULTS)
    else:
        ev["side"] = rng.choice(SIDES)
        if kind in ("concede", "claim"):
            ev["result"] = rng.choice(RESULTS)
        elif kind == "stop":
            ev["reason"] = rng.choice(REASONS)
            if rng.random() < 0.1:
                ev["reason"] = "restart"
                del ev["side"]
        elif kind == "adjust":
            ev["delta_ms"] = rng.choice((0, 1, -1, 5_000, -5_000, 60_000, -10**6))
        elif kind == "penalty":
            ev["points"] = rng.choice((1, 1, 2, 5))
    return ev


def _malformed(rng: random.Random, ev: dict[str, Any]) -> dict[str, Any]:
    ev = dict(ev)
    r = rng.random()
    if r < 0.2:
        ev["side"] = "C"
    elif r < 0.35:
        ev["dice"] = [7, 1]
    elif r < 0.5:
        ev["color"] = "red"
    elif r < 0.6 and len(ev) > 2:
        del ev[rng.choice([k for k in ev if k not in ("do", "at_ms")])]
    elif r < 0.7:
        ev["do"] = "fly"
    elif r < 0.8:
        ev["at_ms"] = ev["at_ms"] + 0.5
    elif r < 0.9:
        ev["v"] = 2
    else:
        ev["points"] = 0
    return ev


def _refusal(exc: ClockError) -> dict[str, str]:
    return {"kind": "illegal" if isinstance(exc, IllegalCommand) else "invalid", "code": exc.code}


def sequence(
    rng: random.Random, steps: int
) -> tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(rules, match figures, steps, the Python core's fold of them).

    The steps are folded through the Python core as they are built (the
    phase picks the next event); the fold is in the JS runner's answer
    format: ``{"created": None | refusal, "results": [{refused, state}]}``.
    """
    match_figs = _match(rng)
    rules = rng.choice(sorted(PRESETS))
    created = None
    try:
        m: Match | None = Match.new(rules, **match_figs)
    except ClockError as exc:
        m, created = None, _refusal(exc)
    out: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    now = 0
    st = m.state().to_dict() if m is not None else {"phase": "setup", "on_turn": None}
    for _ in range(steps):
        if st["phase"] == "match_over" and rng.random() < 0.5:
            break  # a few commands after the end are refused; more teach nothing
        r = rng.random()
        if r < 0.15:
            dt = 0
        elif r < 0.75:
            dt = rng.randint(1, 15_000)
        elif r < 0.95:
            dt = rng.randint(1_000, 120_000)
        else:
            dt = rng.randint(100_000, 2_000_000)
        if rng.random() < 0.15:
            query = now + rng.randint(0, dt)
            out.append({"query_ms": query})
            if m is not None:
                st = m.state(query).to_dict()
                results.append({"refused": None, "state": st})
            now, dt = query, dt - (query - now)
        at = now + dt
        r = rng.random()
        ev = _fitting(rng, st, at) if r < 0.75 else _any(rng)
        ev["at_ms"] = at
        if rng.random() < 0.03:
            ev["at_ms"] = max(0, now - rng.randint(1, 5_000))  # time going backwards
        elif rng.random() < 0.04:
            ev = _malformed(rng, ev)
        out.append({"event": ev})
        if m is not None:
            refused = None
            try:
                m.apply(Event.from_dict(ev))
            except ClockError as exc:
                refused = _refusal(exc)
            st = m.state().to_dict()
            results.append({"refused": refused, "state": st})
            now = m.now
        else:
            now = at
    return rules, match_figs, out, {"created": created, "results": results}
