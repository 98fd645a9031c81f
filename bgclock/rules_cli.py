"""``bgclock rules [ID]``: the presets with their figures and sources."""

from __future__ import annotations

import argparse
import json

from bgclock.core import PRESETS, Preset
from bgclock.core._presets import EXPIRY_ABA, EXPIRY_BIBA


def _clock(ms: int) -> str:
    minutes, rest = divmod(ms, 60_000)
    seconds, millis = divmod(rest, 1000)
    text = f"{minutes}:{seconds:02d}"
    return f"{text}.{millis:03d}" if millis else text


def expiry_words(p: Preset) -> str:
    """What a flag does under this preset, as the rule book says it."""
    if p.expiry == EXPIRY_ABA:
        if p.mode == "standard":
            return ("penalty points: 2 to the opponent, then 1 per repeat offense; clock reset "
                    "to 5:00; grace at double match point; frozen cube (aba 5.1, 5.2)")
        return "loses the match (Bronstein clocks, aba 5.1)"
    if p.expiry == EXPIRY_BIBA:
        return ("loses the match, unless the game can still win it (points needed <= 3 x "
                "cube) and the director rules gin")
    return "loses the match"


def _figures(p: Preset) -> dict[str, object]:
    return {
        "id": p.id,
        "title": p.title,
        "source": p.source,
        "mode": p.mode,
        "per_point_ms": p.per_point_ms,
        "less_per_point_ms": p.less_per_point_ms,
        "delay_ms": p.delay_ms,
        "teams": {
            "per_point_ms": p.team_per_point_ms,
            "less_per_point_ms": p.team_less_per_point_ms,
            "delay_ms": p.team_delay_ms,
        },
        "on_expiry": p.expiry if p.expiry != EXPIRY_ABA or p.mode == "standard" else (
            "loses_match"),
        "on_expiry_words": expiry_words(p),
        "mid_game_start": p.mid_game_start,
        "breaks": None if p.breaks is None else {
            "at_least_points": p.breaks[0], "long_match": p.breaks[1],
            "short_match": p.breaks[2], "each_ms": p.break_ms,
        },
        "clauses": p.clauses,
    }


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="a preset id: show it in full")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.id is not None:
        preset = PRESETS.get(args.id)
        if preset is None:
            print(f"unknown preset {args.id!r}; known: {', '.join(PRESETS)}")
            return 2
        if args.json:
            print(json.dumps(_figures(preset), indent=2))
            return 0
        print(f"{preset.id}: {preset.title}")
        print(f"  source: the published rule text {preset.source} (not installed with bgclock; "
              "the clauses it implements and their readings: docs/rules.md in bgclock's "
              "source)")
        print(f"  mode: {preset.mode}")
        print(f"  singles: {_clock(preset.per_point_ms)} per point, less "
              f"{_clock(preset.less_per_point_ms)} per point scored, "
              f"{preset.delay_ms // 1000} s per move")
        print(f"  teams:   {_clock(preset.team_per_point_ms)} per point, less "
              f"{_clock(preset.team_less_per_point_ms)} per point scored, "
              f"{preset.team_delay_ms // 1000} s per move")
        print(f"  on expiry: {expiry_words(preset)}")
        print(f"  clock may start mid-game: {'yes' if preset.mid_game_start else 'no'}")
        if preset.breaks is not None:
            at_least, long_match, short_match = preset.breaks
            print(f"  breaks per side: {long_match} in matches of {at_least}+ points, else "
                  f"{short_match}, {_clock(preset.break_ms or 0)} each")
        print("  clauses:")
        for clause, text in preset.clauses.items():
            print(f"    {clause}: {text}")
        return 0
    if args.json:
        print(json.dumps([_figures(p) for p in PRESETS.values()], indent=2))
        return 0
    print(f"{'id':22} {'mode':13} {'per point':>9} {'less':>6} {'delay':>6}  source")
    for p in PRESETS.values():
        print(f"{p.id:22} {p.mode:13} {_clock(p.per_point_ms):>9} "
              f"{_clock(p.less_per_point_ms):>6} {p.delay_ms // 1000:>4} s  {p.source}")
    return 0
