"""The money's pages and exports (issue 36): the prize-giving sheet (who
receives what, in Italian and English, printable on A4, with a column to
sign for it), the ledger for the club's books and the master points as
CSV.  Everything is read from the folded state (``bgclock.tournament``'s
``event_payouts``, ``event_points``, ``ledger_view``): nothing here works
money out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any, Final

from bgclock.server.tournaments.standings import WORDS as STANDING_WORDS
from bgclock.server.tournaments.standings import _csv, _page, money
from bgclock.store import StoredAction
from bgclock.tournament import Tournament, final_standings
from bgclock.tournament._awards import event_payouts, event_points

#: The sheet's own words (the brackets' names are the standings').
WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {"title": "Prize giving", "place": "Place", "player": "Player", "amount": "Amount",
           "prize": "Prize", "points": "Master points", "signature": "Signature",
           "pool": "Prize pool: {entries} entries × {fee} × {ret} % + {added} added = {pool}",
           "undecided": "Not decided yet: {amount}", "side_pools": "Side pools",
           "none": "No place is decided yet.",
           "points_note": "USBGF master points ({division}); source: {source}.",
           "provisional": "Provisional: the tournament is not closed."},
    "it": {"title": "Premiazione", "place": "Posizione", "player": "Giocatore",
           "amount": "Importo", "prize": "Premio", "points": "Master point",
           "signature": "Firma",
           "pool": "Montepremi: {entries} iscrizioni × {fee} × {ret} % + {added} aggiunti = "
                   "{pool}",
           "undecided": "Non ancora assegnato: {amount}", "side_pools": "Jackpot e side pool",
           "none": "Nessuna posizione è ancora decisa.",
           "points_note": "Master point USBGF ({division}); fonte: {source}.",
           "provisional": "Provvisorio: il torneo non è chiuso."},
}
DIVISIONS: Final = {"en": {"open": "Open", "intermediate": "Intermediate", "novice": "Novice"},
                    "it": {"open": "Open", "intermediate": "Intermedi", "novice": "Novizi"}}

LEDGER_COLUMNS: Final = ("n", "date", "kind", "player", "name", "federation_id", "method",
                         "note", "amount", "currency")
POINTS_COLUMNS: Final = ("rank", "name", "federation_id", "won", "match_win", "placement",
                         "total", "division", "players", "source")


def ledger_csv(state: Tournament, stored: Sequence[StoredAction]) -> str:
    """One row per payment and refund, in the order written, with the date
    (UTC) the server took it: a refund's amount negative."""
    players = {p.id: p for p in state.players}
    currency = state.ledger.settings.currency
    rows: list[dict[str, Any]] = []
    for s in stored:
        a = s.action
        if a.get("do") not in ("payment", "refund"):
            continue
        p = players.get(a["player"])
        cents = a["cents"] if a["do"] == "payment" else -a["cents"]
        rows.append({"n": len(rows) + 1,
                     "date": datetime.fromtimestamp(s.at_ms / 1000, UTC).strftime(
                         "%Y-%m-%d %H:%M:%S"),
                     "kind": a["do"], "player": a["player"],
                     "name": p.name if p else "", "federation_id": p.federation_id if p else "",
                     "method": a.get("method", "cash") if a["do"] == "payment" else "",
                     "note": a.get("note", ""),
                     "amount": f"{'-' if cents < 0 else ''}{money(abs(cents), 'en')}",
                     "currency": currency})
    return _csv(LEDGER_COLUMNS, rows)


def points_csv(state: Tournament) -> str:
    """The master points a federation reads: one row per placed player."""
    pts = event_points(state)
    return _csv(POINTS_COLUMNS, [
        {**r, "federation_id": r["federation_id"] or "", "match_win": f"{r['match_win']:.2f}",
         "placement": f"{r['placement']:.2f}", "total": f"{r['total']:.2f}",
         "division": pts["division"], "players": pts["players"], "source": pts["source"]}
        for r in pts["rows"]])


def prize_giving_html(name: str, state: Tournament, lang: str, closed: bool) -> str:
    """The prize-giving sheet: each bracket's paid places (name, amount,
    the prize list's text, the master points) with a column to sign, the
    side pools' payouts, and the pool's working."""
    w, sw = WORDS[lang], STANDING_WORDS[lang]
    st = final_standings(state)
    pay = event_payouts(state, st)
    pts = event_points(state, st)
    points_of = {r["name"]: r["total"] for r in pts["rows"]}
    cur = escape(pay["currency"])

    def amount(cents: int) -> str:
        return f"{money(cents, lang)} {cur}"

    def pts_text(value: float) -> str:
        text = f"{value:.2f}"
        return text.replace(".", ",") if lang == "it" else text

    parts = [f"<h1>{escape(name)} · {w['title']}</h1>",
             "<p>" + escape(w["pool"].format(
                 entries=pay["entries"], fee=amount(pay["fee"]),
                 ret=pay["return_pct"].replace(".", ",") if lang == "it" else pay["return_pct"],
                 added=amount(pay["added"]), pool=amount(pay["pool"]))) + "</p>"]
    if not closed:
        parts.append(f'<p class="in-play">{w["provisional"]}</p>')
    show_points = pts["on"] and bool(pts["rows"])
    brackets: list[str] = []
    for a in pay["awards"]:
        if a["bracket"] not in brackets:
            brackets.append(a["bracket"])
    for bracket in brackets:
        rows = []
        for a in (x for x in pay["awards"] if x["bracket"] == bracket):
            for who, cents in zip(a["names"], a["cents"], strict=True):
                placing = st.event(bracket)
                prizes = ""
                if placing is not None:
                    p = placing.place_of(who)
                    prizes = " + ".join(st.prizes_for(bracket, p)) if p is not None else ""
                pcell = (f'<td class="n">{pts_text(points_of[who])}</td>'
                         if show_points and bracket == "main" and who in points_of else
                         ('<td></td>' if show_points else ""))
                rows.append(f'<tr><td class="place">{escape(a["label"])}</td>'
                            f"<td>{escape(who)}</td><td class=\"n\">{amount(cents)}</td>"
                            f"<td>{escape(prizes)}</td>{pcell}<td class=\"sign\"></td></tr>")
        head = (f'<th class="place" scope="col">{w["place"]}</th>'
                f'<th scope="col">{w["player"]}</th><th class="n" scope="col">{w["amount"]}</th>'
                f'<th scope="col">{w["prize"]}</th>'
                + (f'<th class="n" scope="col">{w["points"]}</th>' if show_points else "")
                + f'<th class="sign" scope="col">{w["signature"]}</th>')
        parts.append(f'<section aria-labelledby="pg-{bracket}"><h2 id="pg-{bracket}">'
                     f"{escape(sw[bracket])}</h2><table><thead><tr>{head}</tr></thead>"
                     f'<tbody>{"".join(rows)}</tbody></table></section>')
    if not pay["awards"]:
        parts.append(f"<p>{w['none']}</p>")
    if pay["undecided"]:
        left = escape(w["undecided"].format(amount=amount(pay["undecided"])))
        parts.append(f'<p class="in-play">{left}</p>')
    pools = [p for p in st.side_pools if p["places"]]
    if pools:
        parts.append(f'<h2 id="pg-pools">{w["side_pools"]}</h2>')
        for k, pool in enumerate(pools):
            rows = [f'<tr><td class="place">{escape(place["label"])}</td><td>{escape(n)}</td>'
                    f'<td class="n">{amount(c)}</td><td class="sign"></td></tr>'
                    for place in pool["places"]
                    for n, c in zip(place["names"], place["cents"], strict=True)]
            parts.append(f'<h3 id="pg-pool-{k}">{escape(pool["pool"])} · '
                         f'{escape(sw[pool["event"]])}</h3><table aria-labelledby="pg-pool-{k}">'
                         f'<thead><tr><th class="place" scope="col">{w["place"]}</th>'
                         f'<th scope="col">{w["player"]}</th>'
                         f'<th class="n" scope="col">{w["amount"]}</th>'
                         f'<th class="sign" scope="col">{w["signature"]}</th></tr></thead>'
                         f'<tbody>{"".join(rows)}</tbody></table>')
    if show_points:
        parts.append('<p class="note">' + escape(w["points_note"].format(
            division=DIVISIONS[lang][pts["division"]], source=pts["source"])) + "</p>")
    style = ("<style>td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; "
             "width: 30mm; } th.sign, td.sign { width: 35mm; } p.note { font-size: 9pt; }"
             "</style>")
    return _page(lang, f"{name} · {w['title']}", style + "".join(parts))


__all__ = ["LEDGER_COLUMNS", "POINTS_COLUMNS", "WORDS", "ledger_csv", "points_csv",
           "prize_giving_html"]
