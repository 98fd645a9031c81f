"""The draw and its results exported: CSV, JSON and a printable draw sheet.

``rows(state)`` is one row per match of the Main and the consolation, in
bracket order (round, then match): its table, players, winner and how the
result came in.  ``draw_csv`` and ``draw_json`` are the exports;
``draw_html`` is a printable draw sheet of one event: one column per round,
each match a box level with the two it comes from and joined to them by a
connector line, for A4 landscape (A3 when the bracket has more than 32
slots), the way a draw sheet hangs on the wall; an open late-arrival slot is
written as such, not as a bye.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any

from bgclock.tournament import EVENTS, Tournament

COLUMNS = ("event", "round", "match", "table", "a", "b", "winner", "source", "score",
           "disqualified", "corrected_from", "reason")


def rows(state: Tournament) -> list[dict[str, Any]]:
    """Every match of the draw, with its result."""
    out: list[dict[str, Any]] = []
    for event in EVENTS:
        try:
            bracket = state.bracket(event)
        except Exception:  # noqa: BLE001 - not drawn yet: no rows
            continue
        for r, matches in enumerate(bracket.rounds):
            for i, m in enumerate(matches):
                detail = state.results.get((event, r, i))
                result = {} if detail is None else detail.to_dict()
                corrected = result.get("corrected") or {}
                out.append({
                    "event": event, "round": r + 1, "match": i + 1,
                    "table": state.tables.get((event, r, i)), "a": m.a, "b": m.b,
                    "winner": m.winner, "source": result.get("source"),
                    "score": result.get("score"),
                    "disqualified": result.get("player")
                    if result.get("source") == "disqualified" else None,
                    "corrected_from": corrected.get("from"),
                    "reason": corrected.get("reason") or result.get("reason"),
                })
    return out


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "-".join(str(x) for x in value)
    text = str(value)
    # a cell a spreadsheet would run as a formula is quoted
    return "'" + text if text[:1] in ("=", "+", "-", "@") and not text[1:].isdigit() else text


def draw_csv(state: Tournament) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows(state):
        writer.writerow([_cell(row[c]) for c in COLUMNS])
    return buf.getvalue()


def draw_json(name: str, state: Tournament) -> dict[str, Any]:
    return {"tournament": name, "seed": state.seed, "matches": rows(state),
            "main": state.main.bracket.to_dict() if state.main else None,
            "consolation": state.consolation.bracket.to_dict() if state.consolation else None,
            "last_chance": state.last_chance.bracket.to_dict() if state.last_chance else None}


CSS = """
@page { size: A4 landscape; margin: 10mm; }
@page big { size: A3 landscape; margin: 10mm; }
body { font: 10pt/1.25 system-ui, sans-serif; color: #000; background: #fff; margin: 0; }
.big { page: big; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
p.meta { margin: 0 0 3mm; color: #333; }
.heads, .draw { display: grid; grid-template-columns: var(--cols); column-gap: 0; }
.heads h2 { font-size: 10pt; text-align: center; margin: 0 0 1mm; }
.draw { grid-template-rows: repeat(var(--units), 1fr); height: var(--height); }
.m { border: 0.3mm solid #000; padding: 0.3mm 1.2mm; align-self: center; min-width: 0;
  font-size: var(--font); line-height: 1.2; background: #fff; }
.m div { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.m .w { font-weight: 700; }
.m .n { font-size: 0.75em; color: #444; }
.m .late { font-style: italic; color: #444; }
.c { position: relative; min-width: 0; }
.c::before { content: ""; position: absolute; left: 0; width: 50%; top: 25%; bottom: 25%;
  border: 0.3mm solid #000; border-left: 0; }
.c::after { content: ""; position: absolute; left: 50%; right: 0; top: 50%;
  border-top: 0.3mm solid #000; }
@media screen { body { margin: 8mm; } }
"""

#: The drawing's height (mm) on A4 and A3 landscape, under the title lines.
HEIGHT_MM = {False: 165, True: 250}


#: The draw sheet's words in each language (``?lang=`` of its link: the
#: director's); names, numbers and the seed are the same in all.
WORDS: dict[str, dict[str, str]] = {
    "en": {"main": "Main", "consolation": "Progressive consolation", "round": "Round {n}",
           "last_chance": "Last Chance", "final": "Final", "winner": "Winner",
           "slots": "{n} slots · seed {seed}",
           "bye": "bye", "table": "table {n}", "disqualified": "disqualified",
           "withdrawn": "withdrawn", "late": "late arrival",
           "losers": "Losers' bracket", "reset": "Final (reset)"},
    "it": {"main": "Main", "consolation": "Consolazione progressiva", "round": "Turno {n}",
           "last_chance": "Last Chance", "final": "Finale", "winner": "Vincitore",
           "slots": "{n} posti · seme {seed}",
           "bye": "bye", "table": "tavolo {n}", "disqualified": "squalificato",
           "withdrawn": "ritirato", "late": "ritardatario",
           "losers": "Tabellone dei perdenti", "reset": "Finale (spareggio)"},
}


def seed_marks(state: Tournament) -> dict[str, int]:
    """The Main's seeds as the draw placed them: name to seed number (1 the
    best), the seeds the draw had (``settings.seeds`` of the players in it,
    in their order).  Empty before the draw and in a draw without seeds."""
    if state.main is None:
        return {}
    drawn = {who for m in state.main.bracket.rounds[0] for who in (m.a, m.b) if who}
    names = [state.players[pid - 1].name for pid in state.seeds
             if 0 < pid <= len(state.players)]
    return {who: k for k, who in enumerate((n for n in names if n in drawn), start=1)}


def draw_html(name: str, event: str, state: Tournament, lang: str = "en") -> str:
    """A printable draw sheet of one event: a grid whose rows are half
    first-round matches, each match spanning the rows of the two it comes
    from (so it sits level with them), with a connector from the two to it.
    An open late-arrival slot is written as such, not as a bye.  In ``lang``
    (en, it; else en)."""
    words = WORDS.get(lang, WORDS["en"])
    lang = lang if lang in WORDS else "en"
    bracket = state.bracket(event)
    label = words[event]
    if event in ("losers", "final"):
        return _rounds_html(name, event, state, words, lang)
    big = bracket.size > 32
    units = max(bracket.size, 2)
    box_mm = HEIGHT_MM[big] / max(units // 2, 1)
    font_pt = max(5.0, min(10.0, box_mm / 3.9 / 0.3528))
    late_open = (event == "main" and state.main is not None and state.main.late_open)
    late = set(state.main.late_positions) if late_open and state.main is not None else set()
    last = len(bracket.rounds) - 1
    # the Main's seeds marked "[1] Rossi" wherever they stand (issue 32 §5);
    # the other events are not seeded, so they carry no marks
    marks = seed_marks(state) if event == "main" else {}
    heads: list[str] = []
    cells: list[str] = []
    col = 1
    for r, matches in enumerate(bracket.rounds):
        title = words["final"] if r == last and r > 0 else words["round"].format(n=r + 1)
        span = 2 ** (r + 1)
        if r > 0:  # the connectors from round r-1 into round r
            heads.append("<div></div>")
            for i in range(len(matches)):
                cells.append(f'<div class="c" style="grid-column:{col};grid-row:'
                             f'{i * span + 1} / span {span}"></div>')
            col += 1
        heads.append(f"<h2>{title}</h2>")
        for i, m in enumerate(matches):
            detail = state.results.get((event, r, i))
            result = {} if detail is None else detail.to_dict()
            table = state.tables.get((event, r, i))
            note = []
            if table is not None:
                note.append(words["table"].format(n=table))
            if result.get("score"):
                note.append("–".join(str(x) for x in result["score"]))
            if result.get("source") in ("disqualified", "withdrawn"):
                note.append(words[str(result["source"])])

            def line(who: str | None, pos: int, m: Any = m, r: int = r) -> str:
                if who is None and r == 0 and pos in late:
                    return f'<div class="late">{escape(words["late"])}</div>'
                text = who or (words["bye"] if r == 0 else "")
                cls = ' class="w"' if who is not None and who == m.winner else ""
                seed = f'<b class="s">[{marks[who]}]</b> ' if who in marks else ""
                return f"<div{cls}>{seed}{escape(text) or '&nbsp;'}</div>"

            cells.append(f'<div class="m" style="grid-column:{col};grid-row:{i * span + 1} / '
                         f'span {span}">{line(m.a, 2 * i)}{line(m.b, 2 * i + 1)}'
                         f'<div class="n">{escape(" · ".join(note)) or "&nbsp;"}</div></div>')
        col += 1
    champion = bracket.champion
    if champion:
        heads.append(f"<div></div><h2>{words['winner']}</h2>")
        cells.append(f'<div class="c one" style="grid-column:{col};grid-row:1 / span {units}">'
                     "</div>")
        seed = f'<b class="s">[{marks[champion]}]</b> ' if champion in marks else ""
        cells.append(f'<div class="m" style="grid-column:{col + 1};grid-row:1 / span {units}">'
                     f'<div class="w">{seed}{escape(champion)}</div></div>')
        col += 2
    rounds = len(bracket.rounds) + (1 if champion else 0)
    cols = " ".join(["minmax(0, 1fr)"] + ["6mm minmax(0, 1fr)"] * (rounds - 1))
    style = (f"--cols:{cols};--units:{units};--height:{HEIGHT_MM[big]}mm;"
             f"--font:{font_pt:.1f}pt")
    return (f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(name)} · {label}</title><style>{CSS}"
            ".c.one::before { top: 50%; bottom: auto; border: 0; }</style></head>"
            f'<body class="{"big" if big else ""}"><h1>{escape(name)} · {label}</h1>'
            f'<p class="meta">{words["slots"].format(n=bracket.size, seed=state.seed)}</p>'
            f'<div class="heads" style="{style}">{"".join(heads)}</div>'
            f'<main class="draw" style="{style}">{"".join(cells)}</main></body></html>')


def _rounds_html(name: str, event: str, state: Tournament, words: dict[str, str],
                 lang: str) -> str:
    """A double elimination's losers' bracket or final on A4: a column per
    round, its matches known so far in order (a bye written as such, nobody
    against nobody not listed), the winner in bold."""
    bracket = state.bracket(event)
    cols = []
    for r, matches in enumerate(bracket.rounds):
        title = words["round"].format(n=r + 1) if event == "losers" else \
            words["reset"] if r else words["final"]
        boxes = []
        for i, m in enumerate(matches):
            if m.a is None and m.b is None:
                continue  # not known yet, or nobody against nobody
            table = state.tables.get((event, r, i))
            lines = "".join(
                f'<div{" class=w" if who is not None and who == m.winner else ""}>'
                f'{escape(who) if who else (words["bye"] if m.a and m.winner else "&nbsp;")}'
                "</div>" for who in (m.a, m.b))
            note = words["table"].format(n=table) if table is not None else ""
            boxes.append(f'<div class="m">{lines}<div class="n">{escape(note) or "&nbsp;"}'
                         "</div></div>")
        cols.append(f'<section><h2>{escape(title)}</h2>{"".join(boxes)}</section>')
    label = words[event]
    return (f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(name)} · {escape(label)}</title><style>{CSS}"
            ".rounds { display: flex; gap: 6mm; align-items: flex-start; }"
            ".rounds section { flex: 1; min-width: 0; } .rounds .m { margin: 0 0 2mm; }"
            f'</style></head><body><h1>{escape(name)} · {escape(label)}</h1>'
            f'<main class="rounds" style="--font:10pt">{"".join(cols)}</main></body></html>')
