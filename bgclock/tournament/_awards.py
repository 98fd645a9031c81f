"""What the event pays and counts, worked out from the folded state (issue
36 §2, §4; the rules in ``_ledger``'s docstring): the prize pool paid out
over the brackets' places to the players the standings place there, and the
Main's USBGF master points.  Read by the server's pages; the fold never
reads it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._ledger import entered, entry_count, pool_for
from ._rating import RATED_SOURCES
from ._standings import Standings
from ._standings import standings as final_standings
from .money import hierarchy_payouts, payouts, shares_for_field, show_percent
from .points import SOURCE, Finisher, master_points

if TYPE_CHECKING:
    from ._running import Tournament


def entries(t: Tournament) -> int:
    """The event's entries: its players' entries and re-entries."""
    return entry_count(t.ledger, entered(t.players, t.draw_names()))


def event_payouts(t: Tournament, st: Standings | None = None) -> dict[str, Any]:
    """The event's prize pool paid out: each paid place's amount
    (``places``: bracket, place, amount), what each placed player receives
    (``awards``), and the money of places not decided yet (``undecided``):
    the awards and ``undecided`` add up to the pool."""
    s = t.ledger.settings
    n = entries(t)
    pool = pool_for(s, n)
    shares = s.shares if s.shares is not None else shares_for_field(max(n, 1), s.table)
    if s.hierarchy is not None:
        slots = hierarchy_payouts(pool, s.hierarchy, shares)
    else:
        amounts = payouts(pool, shares, unit=s.unit).amounts
        slots = [{"bracket": "main", "place": k, "amount": a}
                 for k, a in enumerate(amounts, 1)]
    st = final_standings(t) if st is None else st
    awards: list[dict[str, Any]] = []
    by_bracket: dict[str, dict[int, int]] = {}
    for slot in slots:
        by_bracket.setdefault(slot["bracket"], {})[slot["place"]] = slot["amount"]
    for bracket, amounts_of in by_bracket.items():
        standing = st.event(bracket)
        for p in standing.placings if standing is not None else ():
            total = sum(amounts_of.get(q, 0) for q in range(p.first, p.last + 1))
            if not any(q in amounts_of for q in range(p.first, p.last + 1)):
                continue
            names = sorted(p.names, key=str.casefold)
            each, odd = divmod(total, len(names))
            awards.append({"bracket": bracket, "first": p.first, "last": p.last,
                           "label": p.label, "names": names,
                           "cents": [each + (1 if k < odd else 0) for k in range(len(names))]})
    given = sum(sum(a["cents"]) for a in awards)
    return {"currency": s.currency, "entries": n, "fee": s.fee,
            "return_pct": show_percent(s.return_pct), "added": s.added, "pool": pool,
            "shares": [show_percent(x) for x in shares], "places": slots, "awards": awards,
            "undecided": pool - given}


def award_of(payout: dict[str, Any], bracket: str, name: str) -> int | None:
    """What ``name`` receives in ``bracket`` (None: no paid place)."""
    for a in payout["awards"]:
        if a["bracket"] == bracket and name in a["names"]:
            return int(a["cents"][a["names"].index(name)])
    return None


def event_points(t: Tournament, st: Standings | None = None) -> dict[str, Any]:
    """The Main's master points (USBGF 2019): ``{"on", "source", "division",
    "players", "in_play", "rows": [{"player", "name", "federation_id",
    "rank", "won", "match_win", "placement", "total"}]}``, rows by total,
    best first; ``on`` false and no rows when the director switched them off."""
    s = t.ledger.settings
    out: dict[str, Any] = {"on": s.points, "source": SOURCE, "division": s.division,
                           "event_weight": 1, "players": 0, "in_play": 0, "rows": []}
    if not s.points or t.main is None:
        return out
    st = final_standings(t) if st is None else st
    main = st.event("main")
    if main is None:
        return out
    field_size = sum(len(p.names) for p in main.placings) + len(main.in_play)
    out["players"], out["in_play"] = field_size, len(main.in_play)
    if field_size < 2:
        return out
    won: dict[str, list[int]] = {}
    for (event, r, i), detail in t.results.items():
        if detail.source not in RATED_SOURCES:
            continue
        m = t.bracket(event).rounds[r][i]
        if m.winner is not None and m.a is not None and m.b is not None:
            won.setdefault(m.winner, []).append(t.settings_for(r).length)
    finishers = [Finisher(name=n, won=tuple(won.get(n, ())), first=p.first, last=p.last)
                 for p in main.placings for n in p.names]
    labels = {n: p.label for p in main.placings for n in p.names}
    rows = master_points(field_size, finishers, division=s.division)
    players = {p.name: p for p in t.players}
    for row in rows:
        who = players.get(row["name"])
        row.update(player=None if who is None else who.id,
                   federation_id=None if who is None else who.federation_id,
                   rank=labels[row["name"]], won=len(won.get(row["name"], ())))
    rows.sort(key=lambda r: (-r["total"], r["name"].casefold()))
    out["rows"] = rows
    return out


__all__ = ["award_of", "entries", "event_payouts", "event_points"]
