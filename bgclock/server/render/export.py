"""A table's log as JSON and CSV, and its report, all by replaying the log."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from bgclock.server.live.fold import fold, in_fold_order, new_match, states_after
from bgclock.server.render.sheet import sheet
from bgclock.store import StoredEvent, StoredNote, TableSpec

CSV_COLUMNS = (
    "seq", "at_ms", "clock", "do", "side", "details", "source", "lag_credit_ms", "received_ms",
    "A_reserve_ms", "A_delay_ms", "B_reserve_ms", "B_delay_ms", "phase", "on_turn",
    "score_A", "score_B", "cube", "kind",
)


def _clock(ms: int) -> str:
    minutes, rest = divmod(ms, 60_000)
    return f"{minutes}:{rest // 1000:02d}.{rest % 1000:03d}"


def log_entries(spec: TableSpec, events: list[StoredEvent]) -> list[dict[str, Any]]:
    """Every event with its seq, source, lag credit and the state after it."""
    return [
        {"seq": e.seq, "at_ms": e.at_ms, "event": e.event, "source": e.source,
         "idem_key": e.idem_key, "lag_credit_ms": e.lag_credit_ms, "received_ms": e.received_ms,
         "state": None if state is None else state.to_dict()}
        for e, state in states_after(spec, events, 0)
    ]


def note_entries(notes: Sequence[StoredNote]) -> list[dict[str, Any]]:
    """Every note (a summons of the director) as log.json lists it."""
    return [x.to_dict() for x in notes]


def log_csv(spec: TableSpec, events: list[StoredEvent],
            notes: Sequence[StoredNote] = ()) -> str:
    """One row per event, with both reserves and delays after it; each note
    (kind ``note``, no state) after the event it followed."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    pending = sorted(notes, key=lambda x: x.n)

    def write_notes(upto_seq: int) -> None:
        while pending and pending[0].seq <= upto_seq:
            x = pending.pop(0)
            details = ";".join(f"{k}={v}" for k, v in sorted(x.note.items())
                               if k not in ("type", "side"))
            writer.writerow([x.seq, x.at_ms, _clock(x.at_ms), x.note.get("type", ""),
                             x.note.get("side", ""), details, x.source, 0, x.received_ms,
                             "", "", "", "", "", "", "", "", "", "note"])

    write_notes(0)
    for e, s in states_after(spec, events, 0):
        details = ";".join(f"{k}={'-'.join(map(str, v)) if isinstance(v, list) else v}"
                           for k, v in sorted(e.event.items())
                           if k not in ("v", "do", "at_ms", "side"))
        after: list[Any] = [""] * 9 if s is None else [
            s.A.reserve_ms, s.A.delay_ms, s.B.reserve_ms, s.B.delay_ms, s.phase,
            s.on_turn or "", s.score[0], s.score[1], s.cube_value]
        writer.writerow([
            e.seq, e.at_ms, _clock(e.at_ms), e.event["do"], e.event.get("side", ""), details,
            e.source, e.lag_credit_ms, e.received_ms, *after, "event",
        ])
        write_notes(e.seq)
    write_notes(1 << 62)
    return out.getvalue()


def report(info: dict[str, Any], spec: TableSpec, events: list[StoredEvent],
           now_ms: int, notes: Sequence[StoredNote] = ()) -> dict[str, Any]:
    """The match's report: result, each side's time and the director's actions."""
    events = in_fold_order(events)
    start = new_match(spec).state(0)
    match = fold(spec, events)
    final = match.state(max(now_ms, match.now)) if match.phase != "match_over" else match.state()
    summons = [x for x in notes if x.note.get("type") == "summon"]
    sides: dict[str, dict[str, Any]] = {}
    for side in ("A", "B"):
        mine = [e.event for e in events if e.event.get("side") == side]
        sides[side] = {
            "player": spec.players[0 if side == "A" else 1],
            "reserve_at_start_ms": start.side(side).reserve_ms,
            "reserve_ms": final.side(side).reserve_ms,
            "expired": final.side(side).expired,
            "presses": sum(1 for e in mine if e["do"] in ("hit", "double", "take")),
            "breaks": final.side(side).breaks,
            "adjusted_ms": sum(e["delta_ms"] for e in mine if e["do"] == "adjust"),
            "penalty_points": sum(e["points"] for e in mine if e["do"] == "penalty"),
            "premature": sum(1 for e in mine if e["do"] == "premature"),
            "lag_credit_ms": sum(e.lag_credit_ms for e in events if e.event.get("side") == side),
            "summons": sum(1 for x in summons if x.note.get("side") == side),
            "premature_claims": sum(1 for x in summons if x.note.get("side") == side
                                    and x.note.get("why") == "premature"),
        }
    return {
        "table": info,
        "finished": final.phase == "match_over",
        "winner": final.winner,
        "score": list(final.score),
        "games": final.game,
        "phase": final.phase,
        "stopped_reason": final.stopped_reason,
        "events": len(events),
        "first_event_ms": events[0].at_ms if events else None,
        "last_event_ms": events[-1].at_ms if events else None,
        "sides": sides,
        "restarts": sum(1 for e in events if e.event.get("reason") == "restart"),
        "director_actions": [
            {"seq": e.seq, "at_ms": e.at_ms, "event": e.event}
            for e in events if e.source == "director"
        ],
        "summons": note_entries(summons),
        "sheet": sheet(spec, events),
        "state": final.to_dict(),
    }
