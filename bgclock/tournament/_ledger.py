"""The entries ledger, the event's payouts and its master points (issue 36
§1, §2, §4): folded from the ``money``, ``payment``, ``refund`` and
``reentry`` actions, worked out from the state by ``money`` and ``points``
(the payouts and the points: ``_awards``, which the fold never reads).

Theory of operation
-------------------
Money is integer cents in one currency per tournament (``money.currency``,
fixed once the first payment or refund is written).  The ledger keeps only
what happened at the desk: the payments (cash, or a note: a cheque, a
transfer, a promise the director accepts; its text says which), the
refunds and the re-entries.  What each player owes is worked out, never
typed:

- **an entry** is owed by a player who plays: before the draw every
  registered player not withdrawn (they came to play); from the draw, the
  players in it (drawn, or a late arrival), withdrawn later or not (they
  played).  A player left out of the draw owes nothing.  A re-entry is
  one more entry (one more fee, one more entry in the pool).
- **a side pool's entry** is owed by each of its members (``_side``).

A player's payments less refunds go to their entries first, then to their
side pools in the order the pools were set: that is how the totals per
event and per pool count what was collected.  A payment above what the
player still owes is refused (a double "Paid" at two desks pays once); a
refund above what the player paid is refused.

**The prize pool** of the event is its entries × fee × return, rounded down
to the cent, plus the money added (``money.prize_pool``); it is paid by the
director's shares, or by the places paid for the field's size from the
director's table (``money.shares_for_field``), over the brackets in the
order the director ranks them (``hierarchy``: "main 1, main 2, consolation
1, main 3/4"; by default the Main's places in order).  Players who share a
place in the standings (the semi-final losers, 3–4) share the money of the
paid places it spans equally; the odd cents of that sum go one each to
those players in name order (the side pools' rule).  Money of a place not
decided yet is listed as undecided, so the amounts always add up to the
pool.

**Master points** (``points``, the USBGF's 2019 formula): the Main's players
are the field; each placed player's placement points from the ranks their
Main placing spans, and match-win points for every match they won by play
(a bye, a withdrawal or a disqualification is not play:
``_rating.RATED_SOURCES``) in any of the event's brackets, each at its
round's length.  A director can switch them off (``money.points``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final

from msgspec import UnsetType

from ._errors import IllegalContest, InvalidContest
from ._prizes import STANDING_EVENTS
from ._side import SidePool
from .actions import Money, Payment, Reentry, Refund
from .model import Player
from .money import (
    DEFAULT_TABLE,
    MAX_ENTRY_CENTS,
    Tier,
    check_table,
    hierarchy_payouts,
    parse_hierarchy,
    parse_shares,
    percent,
    prize_pool,
    show_percent,
)

#: A player's re-entries: at most this many.
MAX_REENTRIES: Final = 99
#: Lines of the ledger (payments and refunds) a tournament keeps.
MAX_LINES: Final = 100_000

Table = tuple[tuple[int, tuple[Fraction, ...]], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MoneySettings:
    """The money of the event: currency, fee, return, money added, the
    payout structure (``shares``: None pays by field size from ``table``),
    the brackets' hierarchy, the rounding unit and the master points."""

    currency: str = "EUR"
    fee: int = 0
    return_pct: Fraction = Fraction(100)
    added: int = 0
    shares: tuple[Fraction, ...] | None = None
    table: Table = DEFAULT_TABLE
    hierarchy: tuple[Tier, ...] | None = None
    unit: int = 1
    points: bool = True
    division: str = "open"

    def to_dict(self) -> dict[str, Any]:
        return {"currency": self.currency, "fee": self.fee,
                "return_pct": show_percent(self.return_pct), "added": self.added,
                "shares": None if self.shares is None else ",".join(
                    show_percent(s) for s in self.shares),
                "table": [[least, ",".join(show_percent(s) for s in shares)]
                          for least, shares in self.table],
                "hierarchy": None if self.hierarchy is None else ", ".join(
                    f"{t.bracket} {'/'.join(map(str, t.places))}" for t in self.hierarchy),
                "unit": self.unit, "points": self.points, "division": self.division}


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerLine:
    """A payment or a refund, as the desk wrote it."""

    n: int
    kind: str
    player: int
    cents: int
    method: str | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "kind": self.kind, "player": self.player, "cents": self.cents,
                "method": self.method, "note": self.note}


def _or(value: Any, default: Any) -> Any:
    return default if isinstance(value, UnsetType) else value


def _table(rows: Sequence[Sequence[int | str]]) -> Table:
    out: list[tuple[int, str]] = []
    for k, row in enumerate(rows):
        least, shares = row[0], row[1]
        if not isinstance(least, int) or not isinstance(shares, str):
            raise InvalidContest(f"table[{k}]: must be [fewest entries, \"shares\"]")
        out.append((least, shares))
    return check_table(out)


@dataclass(slots=True, kw_only=True)
class Ledger:
    """The desk's money: the settings, the lines in order, the re-entries
    and each player's payments less refunds (cents)."""

    settings: MoneySettings = field(default_factory=MoneySettings)
    lines: list[LedgerLine] = field(default_factory=list)
    reentries: dict[int, int] = field(default_factory=dict)
    paid: dict[int, int] = field(default_factory=dict)

    # ------------------------------------------------------------ actions

    def set_money(self, a: Money) -> dict[str, Any]:
        """The ``money`` action: the fields given replace theirs, checked
        together (a hierarchy names one share per bracket place)."""
        s = self.settings
        currency = _or(a.currency, s.currency)
        if currency != s.currency and self.lines:
            raise IllegalContest(f"currency: money is already taken in {s.currency}; one "
                                 "currency per tournament", "currency_fixed",
                                 {"currency": s.currency})
        shares_text = _or(a.shares, None)
        shares = s.shares if isinstance(a.shares, UnsetType) else (
            parse_shares(shares_text) if shares_text else None)
        hierarchy_text = _or(a.hierarchy, None)
        hierarchy = s.hierarchy if isinstance(a.hierarchy, UnsetType) else (
            parse_hierarchy(hierarchy_text) if hierarchy_text else None)
        new = replace(
            s, currency=currency, fee=_or(a.fee, s.fee),
            return_pct=s.return_pct if isinstance(a.return_pct, UnsetType)
            else percent(a.return_pct, "return_pct"),
            added=_or(a.added, s.added), shares=shares,
            table=s.table if isinstance(a.table, UnsetType)
            else (_table(a.table) if a.table else DEFAULT_TABLE),
            hierarchy=hierarchy, unit=_or(a.unit, s.unit), points=_or(a.points, s.points),
            division=_or(a.division, s.division))
        if new.hierarchy is not None:
            if new.shares is None:
                raise InvalidContest("hierarchy: give its shares too (one per bracket place, "
                                     "in the hierarchy's order)")
            for tier in new.hierarchy:
                if tier.bracket not in STANDING_EVENTS:
                    raise InvalidContest(f"hierarchy: {tier.bracket} is not one of "
                                         f"{', '.join(STANDING_EVENTS)}")
            if new.unit != 1:
                raise InvalidContest("unit: a hierarchy pays to the cent (unit 1)")
            hierarchy_payouts(0, new.hierarchy, new.shares)  # one share per place
        self.settings = new
        return {"money": new.to_dict()}

    def _line(self, line: LedgerLine) -> None:
        if len(self.lines) >= MAX_LINES:
            raise IllegalContest(f"at most {MAX_LINES} payments and refunds",
                                 "too_many_lines", {"n": MAX_LINES})
        self.lines.append(line)
        self.paid[line.player] = self.paid.get(line.player, 0) + (
            line.cents if line.kind == "payment" else -line.cents)

    def pay(self, a: Payment, player: Player, owed: int) -> dict[str, Any]:
        """A payment of ``player``, who owes ``owed`` cents in all."""
        due = owed - self.paid.get(player.id, 0)
        if a.cents > due:
            raise IllegalContest(
                f"{player.name} owes {_show(max(due, 0))} {self.settings.currency}: a payment "
                f"of {_show(a.cents)} is more than that", "overpaid",
                {"name": player.name, "due": _show(max(due, 0)), "cents": _show(a.cents)})
        line = LedgerLine(n=len(self.lines) + 1, kind="payment", player=player.id,
                          cents=a.cents, method=_or(a.method, "cash"),
                          note=_or(a.note, None) or None)
        self._line(line)
        return {"payment": line.to_dict()}

    def refund(self, a: Refund, player: Player) -> dict[str, Any]:
        """Money given back to ``player``: never more than they paid."""
        paid = self.paid.get(player.id, 0)
        if a.cents > paid:
            raise IllegalContest(f"{player.name} paid {_show(paid)}: a refund of "
                                 f"{_show(a.cents)} is more than that", "refund_too_much",
                                 {"name": player.name, "paid": _show(paid),
                                  "cents": _show(a.cents)})
        line = LedgerLine(n=len(self.lines) + 1, kind="refund", player=player.id,
                          cents=a.cents, note=_or(a.note, None) or None)
        self._line(line)
        return {"refund": line.to_dict()}

    def reenter(self, a: Reentry, player: Player, entered: bool) -> dict[str, Any]:
        """One more entry of ``player`` (who must have an entry)."""
        if not entered:
            raise IllegalContest(f"{player.name} has no entry to enter again", "not_entered",
                                 {"name": player.name})
        k = self.reentries.get(player.id, 0)
        if k >= MAX_REENTRIES:
            raise IllegalContest(f"at most {MAX_REENTRIES} re-entries", "too_many_reentries",
                                 {"n": MAX_REENTRIES})
        self.reentries[player.id] = k + 1
        return {"player": player.id, "entries": k + 2}


def _show(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


# ------------------------------------------------------------------ reading
#
# What the fold's view reads (``Tournament.to_dict``): the players, the names
# in the draw (None before it) and the side pools are passed in, so this
# module knows nothing of the tournament that folds it.


def entered(players: Sequence[Player], in_draw: set[str] | None) -> set[int]:
    """The ids of the players who owe an entry (see the module's docstring):
    ``in_draw`` the names in the Main's draw, None before the draw."""
    if in_draw is None:
        return {p.id for p in players if not p.withdrawn}
    return {p.id for p in players if p.name in in_draw}


def entry_count(ledger: Ledger, ids: set[int]) -> int:
    """The event's entries: its players' entries and re-entries."""
    return len(ids) + sum(k for pid, k in ledger.reentries.items() if pid in ids)


def _pools_of(pools: Iterable[SidePool]) -> dict[str, list[tuple[str, int]]]:
    """Each player's side pools (name, entry), in the order the pools were set."""
    out: dict[str, list[tuple[str, int]]] = {}
    for pool in pools:
        for name in pool.members:
            out.setdefault(name, []).append((pool.name, pool.entry))
    return out


def owed(ledger: Ledger, player: Player, ids: set[int], pools: Iterable[SidePool]) -> int:
    """What ``player`` owes in all: entries × fee plus their side pools' entries."""
    return _owed(ledger, player, ids, _pools_of(pools))


def _owed(ledger: Ledger, player: Player, ids: set[int],
          pools: dict[str, list[tuple[str, int]]]) -> int:
    n = (1 + ledger.reentries.get(player.id, 0)) if player.id in ids else 0
    return n * ledger.settings.fee + sum(c for _, c in pools.get(player.name, ()))


def pool_for(settings: MoneySettings, n: int) -> int:
    """The event's prize pool (cents) for ``n`` entries."""
    return (settings.added if n == 0
            else prize_pool(n, settings.fee, settings.return_pct, settings.added))


def ledger_view(ledger: Ledger, players: Sequence[Player], in_draw: set[str] | None,
                side_pools: Sequence[SidePool]) -> dict[str, Any]:
    """What the desk shows: the settings, each player's line (entries, owed,
    paid, due, credit), the totals per event and per side pool, the unpaid
    (checked in, or in the draw) and the pool.  Time: proportional to the
    players, pools and lines."""
    s = ledger.settings
    ids = entered(players, in_draw)
    pools = _pools_of(side_pools)
    rows = []
    collected_entries = 0
    collected_pools: dict[str, int] = {pool.name: 0 for pool in side_pools}
    unpaid: list[dict[str, Any]] = []
    for p in players:
        due_all = _owed(ledger, p, ids, pools)
        paid = ledger.paid.get(p.id, 0)
        n = (1 + ledger.reentries.get(p.id, 0)) if p.id in ids else 0
        left = paid
        take = min(left, n * s.fee)
        collected_entries += take
        left -= take
        for name, entry in pools.get(p.name, ()):
            take = min(left, entry)
            collected_pools[name] += take
            left -= take
        due = max(due_all - paid, 0)
        rows.append({"player": p.id, "name": p.name, "entries": n, "owed": due_all,
                     "paid": paid, "due": due, "credit": max(paid - due_all, 0),
                     "status": "none" if due_all == 0 and paid == 0
                     else ("unpaid" if due else "paid")})
        if due and (p.checked_in or in_draw is not None):
            unpaid.append({"player": p.id, "name": p.name, "due": due})
    n_entries = entry_count(ledger, ids)
    by_method = {"cash": 0, "note": 0}
    refunds = 0
    for line in ledger.lines:
        if line.kind == "payment":
            by_method[line.method or "cash"] += line.cents
        else:
            refunds += line.cents
    return {
        "settings": s.to_dict(),
        "players": rows,
        "unpaid": unpaid,
        "totals": {
            "entries": n_entries, "due": n_entries * s.fee, "collected": collected_entries,
            "pools": [{"pool": pool.name, "event": pool.event, "entry": pool.entry,
                       "members": len(pool.members), "pot": pool.pot,
                       "collected": collected_pools[pool.name]}
                      for pool in side_pools],
            "cash": by_method["cash"], "notes": by_method["note"], "refunds": refunds,
            "net": by_method["cash"] + by_method["note"] - refunds,
            "pool": pool_for(s, n_entries)},
        "lines": len(ledger.lines),
    }


__all__ = ["MAX_ENTRY_CENTS", "MAX_REENTRIES", "Ledger", "LedgerLine", "MoneySettings",
           "entered", "entry_count", "ledger_view", "owed", "pool_for"]
