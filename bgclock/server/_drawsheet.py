"""The draw and its results exported: CSV, JSON and a printable draw sheet.

``rows(state)`` is one row per match of the Main and the consolation, in
bracket order (round, then match): its table, players, winner and how the
result came in.  ``draw_csv`` and ``draw_json`` are the exports;
``draw_html`` is a printable draw sheet of one event: one column per round,
each match a box at the height of the two it comes from, for A4 landscape
(A3 when the bracket has more than 32 slots), the way a draw sheet hangs on
the wall.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any

from bgclock.tournament import Tournament

COLUMNS = ("event", "round", "match", "table", "a", "b", "winner", "source", "score",
           "disqualified", "corrected_from", "reason")


def rows(state: Tournament) -> list[dict[str, Any]]:
    """Every match of the draw, with its result."""
    out: list[dict[str, Any]] = []
    for event in ("main", "consolation"):
        try:
            bracket = state.bracket(event)
        except Exception:  # noqa: BLE001 - not drawn yet: no rows
            continue
        for r, matches in enumerate(bracket.rounds):
            for i, m in enumerate(matches):
                result = state.results.get((event, r, i)) or {}
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
            "consolation": state.consolation.bracket.to_dict() if state.consolation else None}


CSS = """
@page { size: A4 landscape; margin: 10mm; }
@page big { size: A3 landscape; margin: 10mm; }
body { font: 10pt/1.25 system-ui, sans-serif; color: #000; background: #fff; margin: 0; }
.big { page: big; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
p.meta { margin: 0 0 4mm; color: #333; }
.draw { display: flex; gap: 4mm; align-items: stretch; }
.round { display: flex; flex-direction: column; justify-content: space-around; flex: 1;
  min-width: 0; }
.round h2 { font-size: 10pt; text-align: center; margin: 0 0 2mm; }
.m { border: 0.3mm solid #000; margin: 1mm 0; padding: 0.6mm 1.2mm; break-inside: avoid; }
.m div { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.m .w { font-weight: 700; }
.m .n { font-size: 7pt; color: #444; }
@media screen { body { margin: 8mm; } }
"""


#: The draw sheet's words in each language (``?lang=`` of its link: the
#: director's); names, numbers and the seed are the same in all.
WORDS: dict[str, dict[str, str]] = {
    "en": {"main": "Main", "consolation": "Progressive consolation", "round": "Round {n}",
           "final": "Final", "winner": "Winner", "slots": "{n} slots · seed {seed}",
           "bye": "bye", "table": "table {n}", "disqualified": "disqualified",
           "withdrawn": "withdrawn"},
    "it": {"main": "Main", "consolation": "Consolation progressiva", "round": "Turno {n}",
           "final": "Finale", "winner": "Vincitore", "slots": "{n} posti · seme {seed}",
           "bye": "bye", "table": "tavolo {n}", "disqualified": "squalificato",
           "withdrawn": "ritirato"},
}


def draw_html(name: str, event: str, state: Tournament, lang: str = "en") -> str:
    """A printable draw sheet of one event, in ``lang`` (en, it; else en)."""
    words = WORDS.get(lang, WORDS["en"])
    lang = lang if lang in WORDS else "en"
    bracket = state.bracket(event)
    label = words[event]
    cols = []
    last = len(bracket.rounds) - 1
    for r, matches in enumerate(bracket.rounds):
        title = words["final"] if r == last and r > 0 else words["round"].format(n=r + 1)
        boxes = []
        for i, m in enumerate(matches):
            result = state.results.get((event, r, i)) or {}
            table = state.tables.get((event, r, i))
            note = []
            if table is not None:
                note.append(words["table"].format(n=table))
            if result.get("score"):
                note.append("–".join(str(x) for x in result["score"]))
            if result.get("source") in ("disqualified", "withdrawn"):
                note.append(words[str(result["source"])])

            def line(who: str | None, m: Any = m, r: int = r) -> str:
                text = who or (words["bye"] if r == 0 else "")
                cls = ' class="w"' if who is not None and who == m.winner else ""
                return f"<div{cls}>{escape(text) or '&nbsp;'}</div>"

            boxes.append(f'<div class="m">{line(m.a)}{line(m.b)}'
                         f'<div class="n">{escape(" · ".join(note)) or "&nbsp;"}</div></div>')
        cols.append(f'<section class="round"><h2>{title}</h2>{"".join(boxes)}</section>')
    champion = bracket.champion if hasattr(bracket, "champion") else None
    if champion:
        cols.append(f'<section class="round"><h2>{words["winner"]}</h2>'
                    f'<div class="m"><div class="w">{escape(champion)}</div></div></section>')
    big = " big" if bracket.size > 32 else ""
    return (f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(name)} · {label}</title><style>{CSS}</style></head>"
            f'<body class="{big.strip()}"><h1>{escape(name)} · {label}</h1>'
            f'<p class="meta">{words["slots"].format(n=bracket.size, seed=state.seed)}</p>'
            f'<main class="draw">{"".join(cols)}</main></body></html>')
