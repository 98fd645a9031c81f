"""The round's forecast from the live clocks (issue 32 §8): the inputs read
off each table, and the view the dashboard and the room display show.

The arithmetic is ``bgclock.tournament.forecast`` (pure); here a table's
clock becomes a ``MatchClock`` (its reserves and game now, its delay and
reserves at the start, the match's start: the table row's ``created_ms``,
as ``TableResult.match_started_ms``), and the forecasts of the matches
still at their tables become ``{"end_ms", "holding", "matches",
"unclocked", "server_ms"}``.  The room's view names matches by event,
round, match and room table only (no table ids: ``render.room``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bgclock.core import MatchState
from bgclock.server.live.fold import new_match
from bgclock.tournament.forecast import MatchClock, forecast_round

if TYPE_CHECKING:
    from bgclock.server.live.hub import TableRunner


def clock_inputs(table: TableRunner, s: MatchState) -> dict[str, Any]:
    """What the forecast needs of a table's clock beyond the room's fields."""
    start = new_match(table.row.spec).state(0)
    return {"game": s.game, "delay_ms": max(start.A.delay_ms, start.B.delay_ms),
            "start_reserve_ms": [start.A.reserve_ms, start.B.reserve_ms],
            "started_ms": table.row.created_ms, "table_id": table.id}


def round_forecast(state: Mapping[str, Any], clocks: Mapping[int, Mapping[str, Any]],
                   now_ms: int, *, with_ids: bool) -> dict[str, Any]:
    """The forecast of every match of ``state["matches"]`` still at its
    table with a live clock (``clocks[i]``, as ``service._clocks`` reads
    them); ``unclocked``: undecided matches without one (not forecast).
    ``with_ids``: each match names its clock table's id (the director's)."""
    inputs: list[MatchClock] = []
    seen: dict[int, dict[str, Any]] = {}
    unclocked = 0
    for i, m in enumerate(state.get("matches", [])):
        if m.get("winner") is not None:
            continue
        c = clocks.get(i)
        if c is None or "game" not in c:
            unclocked += 1
            continue
        inputs.append(MatchClock(
            key=i, length=int(c["length"]), score=(int(c["score"][0]), int(c["score"][1])),
            game=max(1, int(c["game"])),
            reserve_ms=(max(0, int(c["reserve_ms"][0])), max(0, int(c["reserve_ms"][1]))),
            delay_ms=int(c["delay_ms"]),
            start_reserve_ms=(int(c["start_reserve_ms"][0]), int(c["start_reserve_ms"][1])),
            started_ms=min(int(c["started_ms"]), now_ms), now_ms=now_ms,
            over=c["phase"] == "match_over"))
        seen[i] = {"event": m.get("event"), "round": m.get("round"), "match": m.get("match"),
                   "table": m.get("table"),
                   **({"table_id": c["table_id"]} if with_ids else {})}
    f = forecast_round(inputs)
    matches = [{**seen[int(str(x.key))], "end_ms": x.end_ms, "bounded": x.bounded}
               for x in f.matches]
    holding = None if f.holding is None else seen[int(str(f.holding))]
    return {"end_ms": f.end_ms, "holding": holding, "matches": matches,
            "unclocked": unclocked, "server_ms": now_ms}


__all__ = ["clock_inputs", "round_forecast"]
