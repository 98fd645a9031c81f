"""``bgclock payouts``: an event's prize pool and what each place wins
(docs/tournament.md, "Money and points").

Every amount is whole cents; a bad option is one line naming it, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from bgclock.tournament import ContestError, InvalidContest
from bgclock.tournament.money import (
    MAX_ADDED_CENTS,
    MAX_ENTRIES,
    MAX_ENTRY_CENTS,
    MAX_UNIT_CENTS,
    parse_shares,
    parse_tied,
    payouts,
    percent,
    prize_pool,
    shares_for_field,
    show_percent,
    whole,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("The prize pool (entries x fee x return, rounded down to the cent, "
                          "plus money added) and each place's amount: shares per place, or "
                          "the places paid by field size; tied places share their money "
                          "equally; the amounts add up to the pool and never rise.")
    parser.add_argument("--entries", required=True, metavar="N",
                        help=f"entries paid (1 to {MAX_ENTRIES})")
    parser.add_argument("--fee", required=True, metavar="CENTS",
                        help=f"entry fee in cents (0 to {MAX_ENTRY_CENTS})")
    parser.add_argument("--return", dest="return_pct", required=True, metavar="PCT",
                        help="per cent of the fees paid back, like 90 or 93.25 (0 to 100)")
    parser.add_argument("--added", default="0", metavar="CENTS",
                        help=f"money added to the pool, in cents (0 to {MAX_ADDED_CENTS}; "
                        "default 0)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--shares", metavar="PCTS",
                     help="per cent per place, 1st first, adding to 100, never rising: "
                     "50,25,12.5,12.5")
    how.add_argument("--places", metavar="auto",
                     help="auto (the default): places paid by field size (1 below 8 entries, "
                     "2 from 8, 4 from 16, 8 from 32; each round's losers get half of what "
                     "each loser of the next round gets)")
    parser.add_argument("--tied", action="append", default=[], metavar="PLACES",
                        help="consecutive paid places shared by tied players, like 3,4 "
                        "(repeat for several runs)")
    parser.add_argument("--unit", default="1", metavar="CENTS",
                        help="pay in multiples of this (100: whole dollars or euros; "
                        "the cents below it go to 1st; default 1)")
    parser.add_argument("--json", action="store_true",
                        help='print {"pool": CENTS, "places": [{"place": 1, "amount": CENTS}, '
                        "...]}")


def _money(cents: int) -> str:
    return f"{cents // 100:,}.{cents % 100:02d}"


def run(args: argparse.Namespace) -> int:
    try:
        entries = whole(args.entries, "--entries", 1, MAX_ENTRIES)
        fee = whole(args.fee, "--fee", 0, MAX_ENTRY_CENTS)
        back = percent(args.return_pct, "--return")
        added = whole(args.added, "--added", 0, MAX_ADDED_CENTS)
        unit = whole(args.unit, "--unit", 1, MAX_UNIT_CENTS)
        if args.places is not None and args.places.strip() != "auto":
            raise InvalidContest("--places: must be auto (or give --shares)")
        if args.shares is None:
            shares = shares_for_field(entries)
        else:
            shares = parse_shares(args.shares, "--shares")
            if len(shares) > entries:
                raise InvalidContest(f"--shares: {len(shares)} places paid, more than the "
                                     f"{entries} entries")
        tied = parse_tied(args.tied, len(shares), "--tied")
        paid = payouts(prize_pool(entries, fee, back, added), shares, tied, unit)
    except ContestError as exc:
        print(f"bgclock payouts: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"pool": paid.pool, "places": paid.to_dict()["places"]}))
        return 0
    shared = {p: run for run in paid.tied for p in run}
    lines = [f"pool {_money(paid.pool)} = {entries} x {_money(fee)} x {show_percent(back)} %"
             + (f" + {_money(added)} added" if added else ""),
             f"{'place':<8}{'share':>9}  {'amount':>14}"]
    for place, (share, amount) in enumerate(zip(paid.shares, paid.amounts, strict=True), 1):
        run = shared.get(place)
        label = f"{run[0]}-{run[-1]}" if run else str(place)
        lines.append(f"{label:<8}{show_percent(share) + ' %':>9}  {_money(amount):>14}")
    lines.append(f"{'total':<8}{'':>9}  {_money(sum(paid.amounts)):>14}")
    print("\n".join(lines))
    return 0
