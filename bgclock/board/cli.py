"""``bgclock adjudicate``: what can still happen in a position, and the ruling.

The side on roll is the one whose time expired, who concedes, or who claims.
Exit codes: 0 a ruling was given (``unknown`` included), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bgclock.board._ids import (
    MatchState,
    match_from_id,
    position_id,
    read_position,
    xgid,
)
from bgclock.board._outcomes import (
    DEFAULT_NODE_BUDGET,
    READINGS,
    RESULTS,
    SIDES,
    Answer,
    Reading,
    Result,
    Side,
    Solver,
    outcome_table,
)
from bgclock.board._position import BoardError, Position
from bgclock.board._rulings import (
    PRESET_RULES,
    Adjudication,
    claim_ruling,
    concession_ruling,
    expiry_ruling,
)

_SIDE_NAMES = ("the side on roll", "the opponent")


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``bgclock adjudicate``."""
    parser.description = (
        "Decide what can still happen in a position (possible / possible against best "
        "defence / certain) and the ruling the rules call for: with no offer, the expiry "
        "ruling for the side on roll (BIBA gin or lost); with --concede, must_accept or "
        "invalid; with --claim, valid or invalid; unknown when the search gave up."
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        help="a gnubg Position ID (optionally ID:MATCHID) or an XGID; "
        "the side on roll is the one that expired, concedes or claims",
    )
    match = parser.add_argument_group("match (else taken from an XGID or ID:MATCHID)")
    match.add_argument("--match-id", help="a gnubg Match ID")
    match.add_argument("--length", type=int, help="match length (0 = money game)")
    match.add_argument(
        "--score", type=int, nargs=2, metavar=("ON_ROLL", "OPPONENT"),
        help="scores of the side on roll and of its opponent",
    )
    match.add_argument("--cube", type=int, help="cube value (default 1)")
    parser.add_argument(
        "--rules", default="biba-2014", choices=sorted(PRESET_RULES),
        help="rule preset (default biba-2014)",
    )
    offer = parser.add_mutually_exclusive_group()
    offer.add_argument(
        "--concede", choices=RESULTS, metavar="R",
        help="the side on roll offers to lose R (single, gammon, backgammon)",
    )
    offer.add_argument(
        "--claim", choices=RESULTS, metavar="R",
        help="the side on roll claims R (single, gammon, backgammon)",
    )
    parser.add_argument(
        "--nodes", type=int, default=DEFAULT_NODE_BUDGET,
        help=f"positions the contact search may expand in all (default {DEFAULT_NODE_BUDGET})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _match(args: argparse.Namespace, from_position: MatchState | None) -> tuple[int, int, int, int]:
    """(length, score on roll, score opponent, cube)."""
    length, on_roll, opponent, cube = 0, 0, 0, 1
    base = match_from_id(args.match_id) if args.match_id else from_position
    if base is not None:
        length, cube = base.length, base.cube
        on_roll, opponent = base.score_on_roll, base.score_opponent
    if args.length is not None:
        length = args.length
    if args.score is not None:
        on_roll, opponent = args.score
    if args.cube is not None:
        cube = args.cube
    if length < 0 or on_roll < 0 or opponent < 0:
        raise BoardError("match length and scores cannot be negative")
    if length and (on_roll >= length or opponent >= length):
        raise BoardError(
            f"a score of {on_roll}-{opponent} has already ended a {length}-point match"
        )
    if cube < 1 or cube & (cube - 1):
        raise BoardError(f"cube value {cube} is not a power of 2")
    return length, on_roll, opponent, cube


def run(args: argparse.Namespace) -> int:
    """Run ``bgclock adjudicate``."""
    try:
        position, from_position = read_position(args.position)
        length, score_on_roll, score_opponent, cube = _match(args, from_position)
    except BoardError as exc:
        print(f"bgclock adjudicate: {exc}", file=sys.stderr)
        return 2
    if args.nodes < 0:
        print("bgclock adjudicate: --nodes cannot be negative", file=sys.stderr)
        return 2
    # the ruling's own questions get the whole budget each; the table shares it
    solver = Solver(position, node_budget=args.nodes, names=_SIDE_NAMES)
    asked: dict[tuple[Side, Result, Reading], Answer] = {}

    def ask(side: Side, result: Result, reading: Reading) -> Answer:
        if (side, result, reading) not in asked:
            asked[side, result, reading] = solver.answer(side, result, reading)
        return asked[side, result, reading]

    rules = PRESET_RULES[args.rules]
    if args.concede:
        decision = concession_ruling(
            ask, rules, args.concede, length=length, score_opponent=score_opponent, cube=cube
        )
        offer = {"kind": "concede", "result": args.concede}
    elif args.claim:
        decision = claim_ruling(ask, rules, args.claim)
        offer = {"kind": "claim", "result": args.claim}
    else:
        decision = expiry_ruling(
            ask, rules, length=length, score_on_roll=score_on_roll, cube=cube
        )
        offer = {"kind": "expiry", "result": None}
    # the ruling's answers (searched further) are used as they are
    table = outcome_table(position, node_budget=args.nodes, names=_SIDE_NAMES, known=asked)
    for key, answer in asked.items():
        if table[key].value is None:
            table[key] = answer
    pips = position.pip_counts()
    if args.json:
        out: dict[str, Any] = {
            "ruling": decision.ruling,
            "result": decision.result,
            "reason": decision.reason,
            "clause": decision.clause,
            "rules": rules.id,
            "offer": offer,
            "position_id": position_id(position),
            "xgid": xgid(position, MatchState(length=length, score=(score_opponent, score_on_roll),
                                              cube=cube, on_roll=1)),
            "match": {"length": length, "score": {"on_roll": score_on_roll,
                                                  "opponent": score_opponent}, "cube": cube},
            "pips": {"on_roll": pips[0], "opponent": pips[1]},
            "contact": position.has_contact(),
            "outcomes": {
                side: {
                    result: {
                        reading: {
                            "answer": table[side, result, reading].word,
                            "reason": table[side, result, reading].reason,
                        }
                        for reading in READINGS
                    }
                    for result in RESULTS
                }
                for side in SIDES
            },
        }
        print(json.dumps(out, indent=2))
        return 0
    print(_text(position, table, decision, rules.id, length, score_on_roll, score_opponent, cube))
    return 0


def _text(
    position: Position,
    table: dict[tuple[Side, Result, Reading], Answer],
    decision: Adjudication,
    rules: str,
    length: int,
    score_on_roll: int,
    score_opponent: int,
    cube: int,
) -> str:
    pips = position.pip_counts()
    match = (
        f"{length}-point match, score {score_on_roll}-{score_opponent} (on roll first)"
        if length else "money game"
    )
    lines = [
        f"Position {position_id(position)}: pips {pips[0]} (on roll) v {pips[1]}, "
        f"{'contact' if position.has_contact() else 'no contact'}",
        f"{match}, cube {cube}",
        "",
        "What can still happen (winning at least):",
        f"  {'':<30}{'possible':<10}{'v best defence':<16}certain",
    ]
    for side in SIDES:
        who = "side on roll" if side == "on_roll" else "opponent"
        for result in RESULTS:
            cells = [table[side, result, r].word for r in READINGS]
            lines.append(f"  {who + ' wins ' + result:<30}{cells[0]:<10}{cells[1]:<16}{cells[2]}")
    lines.append("")
    lines.append("Reasons:")
    for (side, result, reading), answer in table.items():
        who = "on roll" if side == "on_roll" else "opponent"
        how = reading.replace("_", " ")
        lines.append(f"  {who} {result}, {how}: {answer.word} - {answer.reason}")
    lines.append("")
    about = f" ({decision.result})" if decision.result else ""
    lines.append(f"Ruling ({rules}): {decision.ruling}{about}")
    lines.append(f"  {decision.reason}")
    lines.append(f"  [{decision.clause}]")
    return "\n".join(lines)
