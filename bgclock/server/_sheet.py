"""The score sheet players keep, derived by folding a table's stored log.

The Italian rules (players "write down on their score sheets their time" when
a break is taken) and BIBA's ask players to keep, game by game, the cube, the
result, the running score and both reserves at each game's end and at each
break.  Here every figure comes from replaying the log with ``bgclock.core``
(``states_after``): nothing is stored twice.

``sheet(spec, events)`` -> ``{"games": [...], "breaks": [...], "moves": {"A": [...], "B": [...]}}``:

- a game row: game number, cube, winner, points, result (single / gammon /
  backgammon, or ``pass`` when a double was passed), how it ended (the event),
  the running score after it and both reserves then; a penalty is a row of its
  own (``kind`` ``penalty``);
- a break row: the side, the game, the reserves when it began, its length and
  its limit;
- each side's time per move: the clock time of every turn (ms), in order.
"""

from __future__ import annotations

from typing import Any

from bgclock.store import StoredEvent, TableSpec

from ._hub import states_after

RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}
SIDES = ("A", "B")


def sheet(spec: TableSpec, events: list[StoredEvent]) -> dict[str, Any]:
    """Games, breaks and the time per move of a table, by replaying its log."""
    games: list[dict[str, Any]] = []
    breaks: list[dict[str, Any]] = []
    moves: dict[str, list[int]] = {"A": [], "B": []}
    turn_ms = {"A": 0, "B": 0}
    prev: dict[str, Any] | None = None
    open_break: dict[str, Any] | None = None
    for stored, state in states_after(spec, events, 0):
        cur = state.to_dict()
        ev = stored.event
        if prev is not None:
            for side in SIDES:
                if prev["phase"] == "playing" and prev[side]["running"]:
                    turn_ms[side] += cur["at_ms"] - prev["at_ms"]
                if prev[side]["running"] and not cur[side]["running"] and turn_ms[side] > 0:
                    moves[side].append(turn_ms[side])
                    turn_ms[side] = 0
            gained = [cur["score"][i] - prev["score"][i] for i in (0, 1)]
            if any(g > 0 for g in gained):
                i = 0 if gained[0] > 0 else 1
                row: dict[str, Any] = {
                    "game": prev["game"], "winner": SIDES[i], "points": gained[i],
                    "score": list(cur["score"]), "seq": stored.seq, "at_ms": stored.at_ms,
                    "reserves_ms": [cur["A"]["reserve_ms"], cur["B"]["reserve_ms"]],
                }
                if ev.get("do") == "penalty":
                    row.update(kind="penalty", cube=None, result=None, how="penalty")
                else:
                    cube = prev["cube"]["value"]
                    result = ("pass" if ev.get("do") == "pass"
                              else RESULTS.get(gained[i] // cube) if gained[i] % cube == 0
                              else None)
                    row.update(kind="game", cube=cube, result=result, how=ev.get("do"))
                games.append(row)
        if ev.get("do") == "break":
            open_break = {"side": ev.get("side"), "game": cur["game"], "at_ms": stored.at_ms,
                          "reserves_ms": [cur["A"]["reserve_ms"], cur["B"]["reserve_ms"]],
                          "limit_ms": (cur.get("break") or {}).get("limit_ms"),
                          "length_ms": None}
            breaks.append(open_break)
        elif open_break is not None and prev is not None and prev["phase"] == "break" \
                and cur["phase"] != "break":
            open_break["length_ms"] = stored.at_ms - open_break["at_ms"]
            open_break = None
        prev = cur
    return {"games": games, "breaks": breaks, "moves": moves}
