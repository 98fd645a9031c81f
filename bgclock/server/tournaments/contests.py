"""Swing and couples on the server (issue 13): routes beside the tournament's
(``tournaments.service``), the same action log and lock, the same tables by number.

A Swing game is a 1-point match at its table (the Swing's rule book and clock
override); a couples match is a match of the event's length and rule book,
phase 2 a consultation (``teams: true``: the preset's team figures).  When a
table's match is over on the clock, ``clock_result`` enters it: for a Swing
game the points the winner scored (``score``, from 0-0) give the result and
the cube (the final ``game_over``/accept/pass made them), for a couples
match the winner and the score.
"""

from __future__ import annotations

import logging
from typing import Any

from bgclock.core import ClockError, MatchState
from bgclock.server.errors import ApiError
from bgclock.server.live.fold import new_match
from bgclock.server.tournaments.host import Host, LiveTournament, TableResult
from bgclock.store import TableSpec
from bgclock.tournament import Tournament, swing_game_result

log = logging.getLogger("bgclock.server")


# ------------------------------------------------------------------ specs

def swing_spec(state: Tournament, game: int) -> TableSpec | None:
    ev = state.events.swing
    assert ev is not None
    if ev.clock == "none":
        return None
    g = ev.games[game]
    return TableSpec(name=f"Table {g.table} · Swing R{ev.swing.round_no}", players=(g.a, g.b),
                     rules=ev.rules, length=1, clock=dict(ev.clock_override))


def couples_spec(state: Tournament, encounter: int, phase: int, match: int) -> TableSpec | None:
    ev = state.events.couples
    assert ev is not None
    if ev.clock == "none":
        return None
    enc = ev.encounters[encounter]
    x, y = enc.encounter().phases[phase][match]
    number = enc.tables[(phase, match)]
    return TableSpec(name=f"Table {number} · {enc.a.name}–{enc.b.name} phase {phase + 1}",
                     players=(x, y), rules=ev.rules, length=ev.length, teams=phase == 1)


def game_result(state: MatchState | TableResult, winner: int) -> tuple[str, int]:
    """(single/gammon/backgammon, cube) of a 1-point match's only game: the
    points its winner scored are the result's times the cube's; a game lost on
    time is a single at the cube's value (``swing_game_result``)."""
    return swing_game_result(state.score[winner], state.cube_value,
                             lost_on_time=state.stopped_reason == "time_expired")


def check_spec(spec: TableSpec) -> None:
    """The engine takes the spec's clock (the override's figures)."""

    try:
        new_match(spec)
    except (ClockError, TypeError, ValueError) as exc:
        raise ApiError(422, "invalid", f"body.clock_override: {exc}") from None


async def set_up(server: Host, hub: LiveTournament,
                 specs: list[tuple[int, TableSpec]]) -> list[dict[str, Any]]:
    """Each spec at its table number: create, re-spec or renew the table
    (as the Main's rounds do); the tables that could not take it now."""
    failed: list[dict[str, Any]] = []
    for number, spec in specs:
        refused = await server.tourneys.seat(hub, number, spec)
        if refused is not None:
            failed.append(refused)
    return failed


# ------------------------------------------------------------------ clock results

async def clock_result(server: Host, hub: LiveTournament, number: int,
                       state: TableResult) -> bool:
    """Enter a Swing game's or a couples match's result from its table's
    clock (the caller holds ``hub.lock``); False when the table holds neither."""
    if state.winner not in ("A", "B"):
        return False
    side = 0 if state.winner == "A" else 1
    action: dict[str, Any] | None = None
    swing = hub.state.events.swing
    couples = hub.state.events.couples
    if swing is not None and number in swing.live_tables():
        i = swing.live_tables()[number]
        g = swing.games[i]
        if (g.a, g.b) == state.players:
            result, cube = game_result(state, side)
            action = {"do": "swing_result", "game": i, "winner": (g.a, g.b)[side],
                      "result": result, "cube": cube, "source": "clock"}
    elif couples is not None and number in couples.live_tables():
        e, phase, m = couples.live_tables()[number]
        pair = couples.encounters[e].encounter().phases[phase][m]
        if pair == state.players:
            action = {"do": "couples_result", "encounter": e, "phase": phase + 1, "match": m,
                      "winner": pair[side], "source": "clock", "score": list(state.score)}
    if action is None:
        return False
    try:
        await server.tourneys.act(hub, [action], source="server")
    except ApiError as exc:
        if exc.code == "not_owner":
            raise
        log.warning("table %d's result was not entered: %s", state.table_id, exc.message)
    return True


# ------------------------------------------------------------------ HTTP


