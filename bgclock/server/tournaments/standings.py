"""The tournament's end and the wall (issue 19 §4): standings, the prize list,
every player's results, and a round's pairings printable for the wall.

Theory of operation
-------------------
Everything here reads the folded state (``bgclock.tournament``): the pure
``final_standings`` places the players, ``player_results`` lists their
matches; this module turns them into exports (CSV, JSON) and two printable
A4 pages in the director's language (``?lang=it|en``): the standings with the
prize list, and a round's pairings in large type, by table and by name (a
player finds their table).  The prize list is the one thing written: the
``prizes`` action, folded like any other (``Tournament._prizes``).
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import TYPE_CHECKING, Any, Final

from bgclock.server.render.drawsheet import _cell
from bgclock.tournament import Tournament, final_standings, seats, surname_key
from bgclock.tournament._awards import event_payouts

if TYPE_CHECKING:
    pass

LANGS: Final = ("en", "it")

#: The printed pages' words (the dashboard's are in tourney/strings.js).
WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "standings": "Standings", "pairings": "Pairings", "place": "Place", "player": "Player",
        "prize": "Prize", "in_play": "in play", "champion": "Champion",
        "main": "Main", "consolation": "Progressive Consolation", "last_chance": "Last Chance",
        "swing": "Swing", "couples": "Couples", "round": "Round {n}", "table": "Table",
        "by_table": "By table", "by_name": "By name", "opponent": "Opponent",
        "none": "No round is at its tables yet.", "not_yet": "No event has started yet.",
        "event": "Event", "side_pools": "Side pools", "entry": "entry", "pot": "pot",
        "paid": "Payout", "follow": "Follow the tournament on your phone", "each": "each",
        "swiss": "Swiss", "moreswiss": "More Swiss", "roundrobin": "Round robin",
        "double": "Double elimination", "losers": "Losers' bracket", "final": "Final",
        "bye": "Bye: {name}",
    },
    "it": {
        "standings": "Classifica", "pairings": "Abbinamenti", "place": "Posizione",
        "player": "Giocatore", "prize": "Premio", "in_play": "in gioco",
        "champion": "Campione", "main": "Main", "consolation": "Consolazione progressiva",
        "last_chance": "Last Chance", "swing": "Swing", "couples": "Coppie",
        "round": "Turno {n}", "table": "Tavolo", "by_table": "Per tavolo",
        "by_name": "Per nome", "opponent": "Avversario",
        "none": "Nessun turno è ancora ai tavoli.", "not_yet": "Nessun evento è ancora iniziato.",
        "event": "Evento", "side_pools": "Jackpot e side pool", "entry": "quota",
        "pot": "montepremi", "paid": "Vincita", "follow": "Segui il torneo sul telefono",
        "each": "ciascuno",
        "swiss": "Svizzero", "moreswiss": "More Swiss", "roundrobin": "Girone all'italiana",
        "double": "Doppia eliminazione", "losers": "Tabellone dei perdenti", "final": "Finale",
        "bye": "Turno di riposo: {name}",
    },
}

STANDINGS_COLUMNS: Final = ("event", "place", "name", "prizes")
RESULT_COLUMNS: Final = ("player", "event", "round", "match", "table", "opponent", "result",
                         "score", "source")


def standings_rows(state: Tournament) -> list[dict[str, Any]]:
    """One row per placed player (or couple) and per player in play."""
    s = final_standings(state)
    rows: list[dict[str, Any]] = []
    for e in s.events:
        for p in e.placings:
            for name in p.names:
                rows.append({"event": e.event, "place": p.label, "name": name,
                             "prizes": " + ".join(s.prizes_for(e.event, p))})
        for name in e.in_play:
            rows.append({"event": e.event, "place": "in play", "name": name, "prizes": ""})
    return rows


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])
    return buf.getvalue()


PRINT_CSS = """
@page { size: A4; margin: 12mm; }
body { font: 11pt/1.35 system-ui, sans-serif; color: #000; background: #fff; margin: 0; }
h1 { font-size: 18pt; margin: 0 0 3mm; }
h2 { font-size: 14pt; margin: 5mm 0 2mm; break-after: avoid; }
table { border-collapse: collapse; width: 100%; break-inside: auto; table-layout: fixed; }
th.prize { width: 45mm; }
th, td { border-bottom: 0.3mm solid #999; padding: 1mm 2mm; text-align: left;
  vertical-align: top; }
th { border-bottom: 0.5mm solid #000; }
tr { break-inside: avoid; }
td.place, th.place, td.table, th.table { width: 18mm; font-variant-numeric: tabular-nums; }
th.place { width: 24mm; }  /* "Posizione" in bold, clear of the next column */
.champion { font-weight: 700; }
.in-play { color: #333; font-style: italic; }
.wall { font-size: 18pt; }
.wall th, .wall td { padding: 2mm 3mm; }
.wall td.table { font-size: 24pt; font-weight: 700; text-align: center; width: 28mm; }
.wall th.table { width: 28mm; }  /* the first row sets the fixed layout's widths */
.wall td.what { font-size: 13pt; }  /* the room's wall: event · bracket · round */
.wall h1 { font-size: 26pt; }
main { position: relative; }
.qr { position: absolute; top: 0; right: 0; margin: 0; display: flex; gap: 2mm;
  align-items: center; font-size: 8pt; }
.qr svg { width: 24mm; height: 24mm; display: block; order: 2; }
.qr figcaption { width: 38mm; text-align: right; }
.qr span { word-break: break-all; }
.qr ~ h1 { padding-right: 66mm; }
.wall h2 { font-size: 20pt; break-before: page; }
.wall h2:first-of-type { break-before: auto; }
@media screen { body { margin: 8mm; max-width: 210mm; } }
"""


def _page(lang: str, title: str, body: str, cls: str = "") -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{PRINT_CSS}</style></head>"
            f'<body class="{cls}"><main>{body}</main></body></html>')


def standings_html(name: str, state: Tournament, lang: str) -> str:
    """The printable standings with the prize list, in ``lang``."""
    w = WORDS[lang]
    s = final_standings(state)
    won = _money_won(state, s, lang)
    parts = [f"<h1>{escape(name)} · {w['standings']}</h1>"]
    if not s.events:
        parts.append(f"<p>{w['not_yet']}</p>")
    for e in s.events:
        parts.append(f'<section aria-labelledby="st-{e.event}">'
                     f'<h2 id="st-{e.event}">{escape(w[_event_word(state, e.event)])}</h2>')
        rows = []
        for p in e.placings:
            prizes = escape(" + ".join(s.prizes_for(e.event, p) + won.get((e.event, p.first),
                                                                            [])))
            cls = ' class="champion"' if p.first == 1 and p.last == 1 else ""
            rows.append(f'<tr{cls}><td class="place">{escape(p.label)}</td>'
                        f"<td>{escape(', '.join(p.names))}</td><td>{prizes}</td></tr>")
        for n in e.in_play:
            rows.append(f'<tr class="in-play"><td class="place">–</td><td>{escape(n)}</td>'
                        f"<td>{w['in_play']}</td></tr>")
        parts.append(f'<table><thead><tr><th class="place" scope="col">{w["place"]}</th>'
                     f'<th scope="col">{w["player"]}</th>'
                     f'<th class="prize" scope="col">{w["prize"]}</th>'
                     f'</tr></thead><tbody>{"".join(rows)}</tbody></table></section>')
    parts += _pools_html(s.side_pools, lang)
    return _page(lang, f"{name} · {w['standings']}", "".join(parts))


def _money_won(state: Tournament, s: Any, lang: str) -> dict[tuple[str, int], list[str]]:
    """The money each placing receives, worked out from the entries (issue
    36): ``(event, first place) -> ["150.00 EUR"]`` ("each" when shared);
    nothing when the event has no fee and no money added."""
    settings = state.ledger.settings
    if not settings.fee and not settings.added:
        return {}
    out: dict[tuple[str, int], list[str]] = {}
    for a in event_payouts(state, s)["awards"]:
        amounts = sorted(set(a["cents"]), reverse=True)
        text = " / ".join(f"{money(c, lang)} {settings.currency}" for c in amounts)
        out[(a["bracket"], a["first"])] = [text + (f" {WORDS[lang]['each']}"
                                                   if len(a["names"]) > 1 else "")]
    return out


def _event_word(state: Tournament, event: str) -> str:
    """An event's word: a weekly format's name for its ``main``."""
    if event == "main" and state.double is not None:
        return "double"
    return state.weekly.format if event == "main" and state.weekly is not None else event


def money(cents: int, lang: str) -> str:
    """Cents as the director writes an amount: 12.50 (en), 12,50 (it)."""
    return f"{cents // 100}{',' if lang == 'it' else '.'}{cents % 100:02d}"


def _pools_html(pools: list[dict[str, Any]], lang: str) -> list[str]:
    """The side pools under the standings: each with its entry, pot and the
    members' pool places and payouts so far."""
    w = WORDS[lang]
    if not pools:
        return []
    parts = [f'<h2 id="st-side-pools">{w["side_pools"]}</h2>']
    for k, pool in enumerate(pools):
        rows = []
        for place in pool["places"]:
            for n, cents in zip(place["names"], place["cents"], strict=True):
                rows.append(f'<tr><td class="place">{escape(place["label"])}</td>'
                            f"<td>{escape(n)}</td><td>{money(cents, lang)}</td></tr>")
        for n in pool["in_play"]:
            rows.append(f'<tr class="in-play"><td class="place">–</td><td>{escape(n)}</td>'
                        f"<td>{w['in_play']}</td></tr>")
        title = (f"{escape(pool['pool'])} · {escape(w[pool['event']])} · {w['entry']} "
                 f"{money(pool['entry'], lang)} · {w['pot']} {money(pool['pot'], lang)}")
        parts.append(f'<section aria-labelledby="pool-{k}"><h3 id="pool-{k}">{title}</h3>'
                     f'<table><thead><tr><th class="place" scope="col">{w["place"]}</th>'
                     f'<th scope="col">{w["player"]}</th>'
                     f'<th class="prize" scope="col">{w["paid"]}</th></tr></thead>'
                     f'<tbody>{"".join(rows)}</tbody></table></section>')
    return parts


def latest_round(state: Tournament) -> tuple[str, int] | None:
    """The (event, round) of the round most recently put at its tables."""
    if not state.tables:
        return None
    event, r, _ = list(state.tables)[-1]
    return event, r


def pairings(state: Tournament, event: str, r: int) -> list[dict[str, Any]]:
    """A round's matches with both players known: table (None before the
    round starts), players, winner, sorted by table number."""
    bracket = state.bracket(event)
    out = []
    for i, m in enumerate(bracket.rounds[r] if r < len(bracket.rounds) else []):
        if m.a is None or m.b is None:
            continue
        out.append({"event": event, "round": r, "match": i,
                    "table": state.tables.get((event, r, i)), "a": m.a, "b": m.b,
                    "winner": m.winner})
    big = 10**9
    out.sort(key=lambda x: (x["table"] if x["table"] is not None else big, x["match"]))
    return out


def public_qr(url: str, lang: str) -> str:
    """The public page's QR code and address, for the wall sheet's corner."""
    import segno

    w = WORDS[lang]
    svg = segno.make(url, error="m").svg_inline(border=1, omitsize=True)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(w["follow"])}" ', 1)
    return (f'<figure class="qr">{svg}<figcaption>{escape(w["follow"])}<br>'
            f"<span>{escape(url)}</span></figcaption></figure>")


def pairings_html(name: str, state: Tournament, event: str, r: int, lang: str,
                  public_url: str | None = None) -> str:
    """A round's pairings on A4 for the wall: by table, then by name; with
    ``public_url`` (the tournament is public), its QR code in the corner."""
    w = WORDS[lang]
    title = f"{w[_event_word(state, event)]} · {w['round'].format(n=r + 1)}"
    rows = pairings(state, event, r)
    by_table = "".join(
        f'<tr><td class="table">{x["table"] if x["table"] is not None else "–"}</td>'
        f'<td>{escape(x["a"])}</td><td>{escape(x["b"])}</td></tr>' for x in rows)
    names = sorted([(x["a"], x["b"], x["table"]) for x in rows]
                   + [(x["b"], x["a"], x["table"]) for x in rows],
                   key=lambda y: surname_key(y[0]))  # by surname (issue 32 §5)
    by_name = "".join(
        f'<tr><td>{escape(me)}</td><td class="table">{n if n is not None else "–"}</td>'
        f"<td>{escape(other)}</td></tr>" for me, other, n in names)
    body = (f"<h1>{escape(name)} · {escape(title)}</h1>"
            f'<h2 id="by-table">{w["by_table"]}</h2>'
            f'<table aria-labelledby="by-table"><thead><tr><th class="table" scope="col">'
            f'{w["table"]}</th><th scope="col">{w["player"]}</th><th scope="col">'
            f'{w["opponent"]}</th></tr></thead><tbody>{by_table}</tbody></table>'
            f'<h2 id="by-name">{w["by_name"]}</h2>'
            f'<table aria-labelledby="by-name"><thead><tr><th scope="col">{w["player"]}</th>'
            f'<th class="table" scope="col">{w["table"]}</th><th scope="col">'
            f'{w["opponent"]}</th></tr></thead><tbody>{by_name}</tbody></table>')
    bye = next((m.a for m in state.bracket(event).rounds[r] if m.b is None and m.a),
               None) if state.weekly is not None and event == "main" else None
    if bye is not None:  # a weekly format's bye, said on the wall
        body += f'<p class="bye">{escape(w["bye"].format(name=bye))}</p>'
    if not rows:
        body = f"<h1>{escape(name)} · {escape(title)}</h1><p>{w['none']}</p>"
    if public_url is not None:
        body = public_qr(public_url, lang) + body
    return _page(lang, f"{name} · {title}", body, "wall")


def room_standings(state: Tournament) -> dict[str, Any]:
    """What the room display adds for the tournament's end and its start:
    each event's champion once decided, the standings, the registered
    players (the welcome view before round 1) and the order the results came
    in (the newest first), and every match at a table now ("where do I
    play?", every event)."""
    s = final_standings(state)
    return {"champions": {e.event: e.champion for e in s.events},
            "standings": [e.to_dict() for e in s.events],
            "registered": sorted((p.name for p in state.players if not p.withdrawn),
                                 key=surname_key),
            "result_order": [list(k) for k in state.results],
            "seats": seats(state)}


# ------------------------------------------------------------------ HTTP


