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

from html import escape
from typing import Any

from bgclock.server.live.fold import states_after
from bgclock.store import StoredEvent, TableSpec

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
        if state is None:
            break  # a quarantined log: the sheet ends where the engine stopped
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


def _clock(ms: int | None) -> str:
    if ms is None:
        return ""
    s = max(0, ms) // 1000
    return f"{s // 60}:{s % 60:02d}"


def _chart(moves: list[int], name: str, words: dict[str, str] | None = None) -> str:
    """An SVG bar chart of one player's time per move (seconds)."""
    words = words or WORDS["en"]
    if not moves:
        return f"<p>{escape(name)}: —</p>"
    w, h, top = 640, 120, max(moves)
    step = w / len(moves)
    bars = "".join(
        f'<rect x="{i * step:.1f}" y="{h - 16 - (m / top) * (h - 24):.1f}" '
        f'width="{max(step - 1, 1):.1f}" height="{(m / top) * (h - 24):.1f}"/>'
        for i, m in enumerate(moves))
    said = words["moves"].format(n=len(moves), longest=_clock(top),
                             average=_clock(sum(moves) // len(moves)))
    return (f'<figure><figcaption>{escape(name)}: {said}</figcaption>'
            f'<svg viewBox="0 0 {w} {h}" class="chart" role="img">{bars}'
            f'<text x="0" y="{h - 2}">1</text><text x="{w}" y="{h - 2}" '
            f'text-anchor="end">{len(moves)}</text></svg></figure>')


#: The printed sheet's words per language (``?lang=``: the director's).
WORDS: dict[str, dict[str, str]] = {
    "en": {"points": "{n} points", "points.one": "{n} point", "final": "final score",
           "winner": "winner", "sheet": "Score sheet", "game": "Game", "cube": "Cube",
           "won": "Won", "result": "Result", "score": "Score", "time": "{name} time",
           "breaks": "Breaks", "who": "Who", "after": "After game", "length": "Length",
           "limit": "Limit", "per_move": "Time per move",
           "moves": "{n} moves, longest {longest}, average {average}",
           "single": "single", "gammon": "gammon", "backgammon": "backgammon",
           "pass": "pass", "penalty": "penalty"},
    "it": {"points": "{n} punti", "points.one": "{n} punto", "final": "punteggio finale",
           "winner": "vincitore", "sheet": "Referto", "game": "Partita", "cube": "Cubo",
           "won": "Vince", "result": "Risultato", "score": "Punteggio",
           "time": "tempo di {name}", "breaks": "Pause", "who": "Chi",
           "after": "Dopo la partita", "length": "Durata", "limit": "Limite",
           "per_move": "Tempo per mossa",
           "moves": "{n} mosse, la più lunga {longest}, media {average}",
           "single": "semplice", "gammon": "gammon", "backgammon": "backgammon",
           "pass": "rifiuto del cubo", "penalty": "penalità"},
}


def _word(words: dict[str, str], code: Any) -> str:
    """A result or event code in words (a code not listed stays as it is)."""
    return words.get(str(code), str(code)) if code else ""


def sheet_html(report: dict[str, Any], lang: str = "en") -> str:
    """The report's score sheet and time charts as a page printable on A4, in
    ``lang`` (en, it; else en)."""
    lang = lang if lang in WORDS else "en"
    w = WORDS[lang]
    info, sh = report["table"], report["sheet"]
    players = info.get("players") or ["A", "B"]
    a, b = escape(players[0]), escape(players[1])
    rows = "".join(
        f"<tr><td>{g['game'] if g['kind'] == 'game' else '—'}</td>"
        f"<td>{g['cube'] or ''}</td><td>{escape(players[0 if g['winner'] == 'A' else 1])} "
        f"+{g['points']}</td><td>{escape(_word(w, g['result'] or g['how']))}</td>"
        f"<td>{g['score'][0]}–{g['score'][1]}</td>"
        f"<td>{_clock(g['reserves_ms'][0])}</td><td>{_clock(g['reserves_ms'][1])}</td></tr>"
        for g in sh["games"])
    brk = "".join(
        f"<tr><td>{escape(players[0 if x['side'] == 'A' else 1])}</td><td>{x['game']}</td>"
        f"<td>{_clock(x['length_ms'])}</td><td>{_clock(x['limit_ms'])}</td>"
        f"<td>{_clock(x['reserves_ms'][0])}</td><td>{_clock(x['reserves_ms'][1])}</td></tr>"
        for x in sh["breaks"])
    won = (f" · {w['winner']} " + escape(players[0 if report["winner"] == "A" else 1])
           if report.get("winner") else "")
    title = escape(f"{info.get('name') or '#' + str(info.get('id'))}: {players[0]} – {players[1]}")
    length = info.get("length")
    points = w["points.one" if length == 1 else "points"].format(n=length)
    ta, tb = w["time"].format(name=a), w["time"].format(name=b)
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<style>
body {{ font: 14px/1.35 system-ui, sans-serif; margin: 1.5em; color: #000; background: #fff; }}
table {{ border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; }}
th, td {{ border: 1px solid #444; padding: 0.25em 0.5em; text-align: left;
  font-variant-numeric: tabular-nums; }}
.chart {{ width: 100%; height: auto; }} .chart rect {{ fill: #333; }}
.chart text {{ font-size: 10px; }}
@page {{ size: A4; margin: 14mm; }}
@media print {{ body {{ margin: 0; font-size: 11pt; }} figure, tr {{ break-inside: avoid; }} }}
</style></head><body class="report-sheet">
<h1>{title}</h1>
<p>{escape(str(info.get('rules', '')))} · {points} · {w['final']}
{report['score'][0]}–{report['score'][1]}{won}</p>
<h2>{w['sheet']}</h2>
<table id="games"><thead><tr><th>{w['game']}</th><th>{w['cube']}</th><th>{w['won']}</th>
<th>{w['result']}</th><th>{w['score']}</th><th>{ta}</th><th>{tb}</th></tr></thead>
<tbody>{rows}</tbody></table>
<h2>{w['breaks']}</h2>
<table id="breaks"><thead><tr><th>{w['who']}</th><th>{w['after']}</th><th>{w['length']}</th>
<th>{w['limit']}</th><th>{ta}</th><th>{tb}</th></tr></thead><tbody>{brk}</tbody></table>
<h2>{w['per_move']}</h2>
{_chart(sh['moves']['A'], players[0], w)}
{_chart(sh['moves']['B'], players[1], w)}
</body></html>"""
