"""What the room token sees: exactly what the room display shows.

The room display (``room/main.js``, ``room/view/contests.js`` over ``contests/view/parts.js``)
is read with the tournament's room token, a link shown to every player on the
room's screen.  Its JSON is therefore projected field by field from the
director's state: an appeal's decision but not the panel's votes nor the
hearing notes, a result's score but not the director's correction reason, no
seed (the Swing's next pairing), no federation ids, no table ids.  Each view
lists the keys it keeps (``ROOM_KEYS`` and friends), so that a field added to
the director's state never reaches the room by accident; ``tests/
test_server_room_view.py`` checks the exact key sets.

Pure functions over the state's dictionaries (no server, no clock).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: Top-level keys of ``room.json``.
ROOM_KEYS = ("tournament", "main", "consolation", "matches", "server_ms", "late", "committee",
             "appeals", *("champions", "standings", "registered", "result_order", "seats"),
             "flight", "forecast")
#: The tournament's end and start (``tournaments.standings.room_standings``): champions,
#: standings and prizes, the registered players' names, the results' order and
#: who sits where: all of it shown on the room display.
ENDS_KEYS = ("champions", "standings", "registered", "result_order", "seats")
#: A bracket's own keys: its size, and its open late-arrival slots.
BRACKET_KEYS = ("size", "late_slots", "late_open")
#: A bracket's match on the draw sheet.
BRACKET_MATCH_KEYS = ("a", "b", "winner")
#: A match of the draw at its table (``clock`` is the live clock, or null).
MATCH_KEYS = ("event", "round", "match", "table", "a", "b", "winner", "clock", "result",
              "length")
#: A finished match's result: the score, and whether it was a disqualification.
RESULT_KEYS = ("score", "source")
#: A table's live clock.
CLOCK_KEYS = ("phase", "score", "on_turn", "reserve_ms", "length", "at_ms", "provisional")
#: A late arrival, and its count.
LATE_KEYS = ("event", "round", "match", "table", "absent", "from_ms", "clock", "winner", "count")
LATE_COUNT_KEYS = ("points", "score", "over", "arrived", "next_point_ms", "out_ms")
#: A member of the ruling committee.
MEMBER_KEYS = ("id", "name")
#: An appeal: the ruling appealed, its panel and the decision; not the votes,
#: the hearing, who appealed nor whom a substitute replaced.
APPEAL_KEYS = ("appeal", "event", "round", "match", "ruling", "panel", "decision")

#: ``events.json`` (Swing and couples on the room display).
SWING_KEYS = ("players", "start_vp", "vp", "winner", "round", "cpp", "next_cpp", "under_way",
              "sitting", "games", "all_in", "history")
SWING_GAME_KEYS = ("a", "b", "table", "stake", "all_in", "winner", "result", "cube")
COUPLES_KEYS = ("standings", "champion", "encounters")
STANDING_KEYS = ("place", "couple", "encounters", "matches", "points")
ENCOUNTER_KEYS = ("encounter", "a", "b", "wins", "winner", "matches")
COUPLES_MATCH_KEYS = ("phase", "match", "a", "b", "teams", "table", "winner", "score",
                      "corrected")


def pick(source: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The ``keys`` of ``source`` that it has, in that order."""
    return {k: source[k] for k in keys if k in source}


def _bracket(bracket: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if bracket is None:
        return None
    return {**pick(bracket, BRACKET_KEYS),
            "rounds": [[pick(m, BRACKET_MATCH_KEYS) for m in r] for r in bracket["rounds"]]}


def match_entry(m: Mapping[str, Any], clock: Mapping[str, Any] | None) -> dict[str, Any]:
    """A match at its table with its live clock (also the public page's)."""
    result = m.get("result")
    return {**pick(m, MATCH_KEYS),
            "clock": None if clock is None else pick(clock, CLOCK_KEYS),
            "result": None if result is None else pick(result, RESULT_KEYS)}


def late_entry(late: Mapping[str, Any]) -> dict[str, Any]:
    """A late arrival and its count (also the public page's)."""
    out = pick(late, LATE_KEYS)
    if "count" in out:
        out["count"] = pick(out["count"], LATE_COUNT_KEYS)
    return out


def room_view(*, tournament_id: int, name: str, state: Mapping[str, Any],
              clocks: Mapping[int, Mapping[str, Any]], late: Iterable[Mapping[str, Any]],
              server_ms: int, ends: Mapping[str, Any] | None = None,
              flight: Mapping[str, Any] | None = None,
              forecast: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``room.json``: the draw sheets, every match at its table (with the live
    clock of ``clocks[i]`` for the ``i``-th of ``state["matches"]``), the late
    arrivals' counts, the committee and the appeals' decisions."""
    return {
        "tournament": {"id": tournament_id, "name": name},
        "main": _bracket(state.get("main")),
        "consolation": _bracket(state.get("consolation")),
        "matches": [match_entry(m, clocks.get(i)) for i, m in enumerate(state["matches"])],
        "server_ms": server_ms,
        "late": [late_entry(x) for x in late],
        "committee": [pick(x, MEMBER_KEYS) for x in state.get("committee", [])],
        "appeals": [pick(x, APPEAL_KEYS) for x in state.get("appeals", [])],
        **pick(ends or {}, ENDS_KEYS),
        # the room's events by name (``_flights.room_flights``: names, tables, players)
        "flight": None if flight is None else _flight(flight),
        # when the round's matches are expected to end (``tournaments.forecast``)
        "forecast": None if forecast is None else dict(forecast),
    }


#: The room's events (flights) as the room display shows them.
FLIGHT_KEYS = ("room", "tables", "events")
FLIGHT_EVENT_KEYS = ("name", "precedence", "this", "matches", "waiting")
FLIGHT_MATCH_KEYS = ("table", "event", "round", "match", "a", "b")


def _flight(flight: Mapping[str, Any]) -> dict[str, Any]:
    out = pick(flight, FLIGHT_KEYS)
    out["events"] = [{**pick(e, FLIGHT_EVENT_KEYS),
                      "matches": [pick(m, FLIGHT_MATCH_KEYS) for m in e["matches"]],
                      "waiting": [pick(m, FLIGHT_MATCH_KEYS) for m in e["waiting"]]}
                     for e in flight["events"]]
    return out


def _swing(swing: Mapping[str, Any]) -> dict[str, Any]:
    out = pick(swing, SWING_KEYS)
    out["games"] = [pick(g, SWING_GAME_KEYS) for g in swing.get("games", [])]
    return out


def _couples(couples: Mapping[str, Any]) -> dict[str, Any]:
    out = pick(couples, COUPLES_KEYS)
    out["standings"] = [pick(s, STANDING_KEYS) for s in couples.get("standings", [])]
    encounters = []
    for e in couples.get("encounters", []):
        view = pick(e, ENCOUNTER_KEYS)
        # a corrected match is flagged; the correction's reason stays the director's
        view["matches"] = [{**pick(m, COUPLES_MATCH_KEYS), "corrected": bool(m.get("corrected"))}
                           for m in e.get("matches", [])]
        encounters.append(view)
    out["encounters"] = encounters
    return out


def events_view(events: Mapping[str, Any], *, server_ms: int) -> dict[str, Any]:
    """``events.json``: the Swing and the couples as the room shows them."""
    swing, couples = events.get("swing"), events.get("couples")
    return {"swing": None if swing is None else _swing(swing),
            "couples": None if couples is None else _couples(couples),
            "server_ms": server_ms}
