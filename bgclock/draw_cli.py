"""``bgclock draw simulate``: draw a Main (and its Progressive Consolation,
and its Last Chance), with seeds and groups if asked, and play it out at
random from a seed (tournament.md, ``bgclock draw``); or, with ``--format``,
a Swiss, a More Swiss, a round robin or a double elimination ("The weekly
formats", tournament.md section 6)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bgclock.tournament import ContestError, simulate
from bgclock.tournament.formats import FORMATS, simulate_format

#: The knockout's own flags, refused with another --format: (dest, flag).
KNOCKOUT_FLAGS = (("late", "--late"), ("arrivals", "--arrivals"), ("consolation", "--consolation"),
                  ("seeds", "--seeds"), ("groups", "--groups"), ("last_chance", "--last-chance"))


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sim = sub.add_parser("simulate", help="draw a Main for P1..PN and play every match at random",
                         description="Draw a Main for N players (P1..PN) with K late-arrival "
                         "slots, J of them filled (L1..LJ), P1..PK seeded and Pi in group "
                         "(i-1) mod G if asked, then play every match with a winner drawn "
                         "from the seed (and the consolation, and the Last Chance).")
    sim.add_argument("--format", choices=FORMATS, default="knockout", dest="fmt",
                     help="knockout (the Main, default), swiss (--rounds R), moreswiss "
                     "(--losses L), roundrobin or double (tournament.md section 6)")
    sim.add_argument("--players", type=int, required=True, metavar="N")
    sim.add_argument("--seed", type=int, required=True, metavar="S")
    sim.add_argument("--rounds", type=int, default=None, metavar="R",
                     help="--format swiss: the number of rounds")
    sim.add_argument("--losses", type=int, default=None, metavar="L",
                     help="--format moreswiss: a player is out at the L-th loss")
    sim.add_argument("--late", type=int, default=None, metavar="K",
                     help="late-arrival slots kept (default 0)")
    sim.add_argument("--arrivals", type=int, default=None, metavar="J",
                     help="late arrivals who came (J <= K, default 0)")
    sim.add_argument("--consolation", action="store_true",
                     help="draw and play the Progressive Consolation too")
    sim.add_argument("--seeds", type=int, default=None, metavar="K",
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


def _format_sheet(event: dict[str, Any]) -> list[str]:
    """A weekly format as text: its rounds (or brackets), then the standings."""
    fmt = event["format"]
    lines = [f"{fmt}" + (f", out at {event['losses']} losses" if "losses" in event else "")]
    parts = ([("winners' bracket", event["winners"]), ("losers' bracket", event["losers"])]
             if fmt == "double" else [("", event["rounds"])])
    for title, rounds in parts:
        if title:
            lines.append(title)
        for r, matches in enumerate(rounds, 1):
            lines.append(f"  round {r}:")
            lines += [f"    {i:>3}. {m['a']} - {m['b'] or 'bye'}: {m['winner']}"
                      for i, m in enumerate(matches, 1)]
    if fmt == "double":
        lines.append("final" + (" and reset" if len(event["final"]) > 1 else ""))
        lines += [f"    {i:>3}. {m['a']} - {m['b']}: {m['winner']}"
                  for i, m in enumerate(event["final"], 1)]
    lines.append("standings:")
    lines += [f"  {p['place']:>3}. {p['player']} ({p['wins']}-{p['losses']})"
              for p in event["standings"]]
    return lines


def _run_format(args: argparse.Namespace) -> int:
    given = [flag for dest, flag in KNOCKOUT_FLAGS if getattr(args, dest) not in (None, False)]
    try:
        if given:
            raise ContestError(f"{given[0].lstrip('-')}: {given[0]} is for --format knockout, "
                               f"not {args.fmt}")
        event = simulate_format(args.fmt, args.players, seed=args.seed, rounds=args.rounds,
                                losses=args.losses)
    except ContestError as exc:
        print(f"bgclock draw: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(event) if args.json else "\n".join(_format_sheet(event)))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.fmt != "knockout":
        return _run_format(args)
    try:
        for dest, flag in (("rounds", "--rounds"), ("losses", "--losses")):
            if getattr(args, dest) is not None:
                raise ContestError(f"{dest}: {flag} is for --format "
                                   f"{'swiss' if dest == 'rounds' else 'moreswiss'}")
        draw = simulate(args.players, seed=args.seed, late=args.late or 0,
                        arrivals=args.arrivals or 0, consolation=args.consolation,
                        seeds=args.seeds or 0, groups=args.groups,
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
