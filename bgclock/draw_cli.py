"""``bgclock draw simulate``: draw a Main (and its Progressive Consolation,
and its Last Chance), with seeds and groups if asked, and play it out at
random from a seed (tournament.md, ``bgclock draw``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bgclock.tournament import ContestError, simulate


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sim = sub.add_parser("simulate", help="draw a Main for P1..PN and play every match at random",
                         description="Draw a Main for N players (P1..PN) with K late-arrival "
                         "slots, J of them filled (L1..LJ), P1..PK seeded and Pi in group "
                         "(i-1) mod G if asked, then play every match with a winner drawn "
                         "from the seed (and the consolation, and the Last Chance).")
    sim.add_argument("--players", type=int, required=True, metavar="N")
    sim.add_argument("--seed", type=int, required=True, metavar="S")
    sim.add_argument("--late", type=int, default=0, metavar="K",
                     help="late-arrival slots kept (default 0)")
    sim.add_argument("--arrivals", type=int, default=0, metavar="J",
                     help="late arrivals who came (J <= K, default 0)")
    sim.add_argument("--consolation", action="store_true",
                     help="draw and play the Progressive Consolation too")
    sim.add_argument("--seeds", type=int, default=0, metavar="K",
                     help="P1..PK are seeds 1..K, placed at the seeding positions (default 0)")
    sim.add_argument("--groups", type=int, default=None, metavar="G",
                     help="Pi is in group (i-1) mod G; no first-round match of one group "
                     "where the draw can avoid it")
    sim.add_argument("--last-chance", action="store_true",
                     help="with --consolation: draw and play the Last Chance of the players "
                     "whose first played consolation match is a loss")
    sim.add_argument("--json", action="store_true", help="print the draw as JSON")


def _sheet(name: str, bracket: dict[str, Any]) -> list[str]:
    lines = [f"{name} (bracket of {bracket['size']})"]
    for r, matches in enumerate(bracket["rounds"], 1):
        lines.append(f"  round {r}:")
        for i, m in enumerate(matches, 1):
            a, b = m["a"] or "bye", m["b"] or "bye"
            lines.append(f"    {i:>3}. {a} - {b}: {m['winner'] or '?'}")
    return lines


def _same_group(draw: dict[str, Any]) -> list[tuple[str, str]]:
    """The first-round matches of the Main whose players share a group (the
    draw pairs them only where no draw keeps them apart)."""
    groups = draw.get("groups") or {}
    out = []
    for m in draw["main"]["rounds"][0]:
        a, b = m["a"], m["b"]
        if a in groups and b in groups and groups[a] == groups[b]:
            out.append((a, b))
    return out


def _pairs(pairs: list[tuple[str, str]]) -> str:
    return ", ".join(f"{a} - {b}" for a, b in pairs)


def run(args: argparse.Namespace) -> int:
    try:
        draw = simulate(args.players, seed=args.seed, late=args.late, arrivals=args.arrivals,
                        consolation=args.consolation, seeds=args.seeds, groups=args.groups,
                        last_chance=args.last_chance)
    except ContestError as exc:
        print(f"bgclock draw: {exc}", file=sys.stderr)
        return 2
    together = _same_group(draw)
    if args.json:
        print(json.dumps(draw))
        if together:
            print(f"bgclock draw: could not keep apart {_pairs(together)} (one group each)",
                  file=sys.stderr)
        return 0
    main = draw["main"]
    assert isinstance(main, dict)
    lines = [f"seed {args.seed}; late-arrival slots (0-based): {main['late_slots']}"]
    lines += _sheet("Main", main)
    if "consolation" in draw:
        consolation = draw["consolation"]
        assert isinstance(consolation, dict)
        lines += _sheet("Progressive Consolation", consolation)
    if "last_chance" in draw:
        last = draw["last_chance"]
        assert isinstance(last, dict)
        lines += _sheet("Last Chance", last)
    if "groups" in draw:
        lines.append("first-round matches of one group (none where a draw avoids them): "
                     + (_pairs(together) or "none"))
    print("\n".join(lines))
    return 0
