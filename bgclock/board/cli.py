"""``bgclock adjudicate``: what can still happen in a position, and the ruling.

The side on roll is the one whose time expired, who concedes, or who claims.
Dice already rolled (an XGID's or a Match ID's, or ``--dice``) are that
side's first turn: the search starts by playing them.  Without a match length
the position is judged as a money game, and the output says so.
Exit codes: 0 a ruling was given (``unknown`` included), 2 bad input (one line
on standard error, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from typing import Any, NoReturn

from bgclock.board._ids import (
    GAME_STATES,
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

_PROG = "bgclock adjudicate"
# an XGID's 26 position characters then a colon: a position, even when it starts with "-"
_XGID_BOARD = re.compile(r"[-A-Oa-o]{26}:")
_MONEY = (
    "MONEY GAME: no match length was given, so the position was judged as a money "
    "game (give --length and --score, or an XGID or Match ID with its match)"
)


class _ArgumentParser(argparse.ArgumentParser):
    """An ``argparse`` parser that reads a bare XGID starting with ``-`` as the
    position, not as an unknown option."""

    def error(self, message: str) -> NoReturn:
        """One line on standard error and exit 2 (no usage block)."""
        self.exit(2, f"{_PROG}: {_one_line(message)} (see {_PROG} --help)\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Unknown arguments are an error here, in one line, not the main parser's."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def _parse_optional(self, arg_string: str) -> Any:
        if _XGID_BOARD.match(arg_string):
            return None  # a positional argument
        return super()._parse_optional(arg_string)


def _dice(text: str) -> tuple[int, int]:
    """``--dice``: two digits 1..6, e.g. ``52`` or ``5-2``."""
    m = re.fullmatch(r"\s*([1-6])\s*[-/ ]?\s*([1-6])\s*", text)
    if m is None:
        raise argparse.ArgumentTypeError(f"dice are two numbers 1..6 such as 52 or 5-2, "
                                         f"got {text[:20]!r}")
    return int(m.group(1)), int(m.group(2))


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``bgclock adjudicate``."""
    parser.__class__ = _ArgumentParser  # a bare XGID may start with "-"
    parser.description = (
        "Decide what can still happen in a position (possible / possible against best "
        "defence / certain) and the ruling the rules call for: with no offer, the expiry "
        "ruling for the side on roll (BIBA gin or lost); with --concede, must_accept or "
        "invalid; with --claim, valid or invalid; unknown when the search gave up. "
        "Dice already rolled (in the XGID, the Match ID or --dice) are the side on "
        "roll's first turn. Without a match length the position is judged as a money game."
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        help="a gnubg Position ID (optionally ID:MATCHID) or an XGID (XGID= or xgid= "
        "prefix optional, may start with '-'); the side on roll is the one that expired, "
        "concedes or claims",
    )
    match = parser.add_argument_group("match (else taken from an XGID or ID:MATCHID)")
    match.add_argument("--match-id", help="a gnubg Match ID")
    match.add_argument("--length", type=int, help="match length (0 = money game)")
    match.add_argument(
        "--score", type=int, nargs=2, metavar=("ON_ROLL", "OPPONENT"),
        help="scores of the side on roll and of its opponent (needs a match length)",
    )
    match.add_argument("--cube", type=int, help="cube value (default 1)")
    match.add_argument("--crawford", action="store_true",
                       help="this game is the Crawford game")
    match.add_argument("--dice", type=_dice, metavar="D1D2",
                       help="the side on roll has already rolled these dice, e.g. 52")
    parser.add_argument(
        "--names", nargs=2, metavar=("ON_ROLL", "OPPONENT"),
        help="what to call the two players (default: X and O for an XGID, player 0 and "
        "player 1 for a Match ID)",
    )
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
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--brief", action="store_true",
                     help="print only the ruling, whom it is about and the reason that "
                     "decides it")


class _Refused(Exception):
    """Bad input: one line for the director."""


def _names(args: argparse.Namespace, text: str, from_position: MatchState | None,
           has_match_id: bool) -> tuple[str, str]:
    if args.names:
        a, b = (n.strip() for n in args.names)
        if not a or not b or a == b:
            raise _Refused("--names: two different, non-empty names")
        return a, b
    if from_position is None and not has_match_id:
        return "the side on roll", "the opponent"
    on_roll = (from_position or match_from_id(args.match_id)).on_roll
    if not has_match_id and (text.strip()[:5].upper() == "XGID=" or text.count(":") == 9):
        return ("X", "O") if on_roll == 1 else ("O", "X")
    return f"player {on_roll}", f"player {1 - on_roll}"


def _match(args: argparse.Namespace, from_position: MatchState | None) -> MatchState:
    """The match: the ID's (or the position's), with the options applied."""
    base = match_from_id(args.match_id) if args.match_id else from_position
    m = base or MatchState(on_roll=1)
    length = m.length if args.length is None else args.length
    if args.score is not None and length == 0:
        raise _Refused(
            "--score needs a match length: give --length (a score means nothing in a "
            "money game)")
    if length < 0:
        raise _Refused(f"--length: a match length is 0 (money) or more, got {length}")
    score_on_roll, score_opponent = (
        (m.score_on_roll, m.score_opponent) if args.score is None else args.score)
    if length and base is not None and args.length is not None and args.score is None \
            and base.length == 0:
        score_on_roll, score_opponent = 0, 0  # a money session's score is no match score
    if min(score_on_roll, score_opponent) < 0:
        raise _Refused("--score: scores cannot be negative")
    cube = m.cube if args.cube is None else args.cube
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        raise _Refused(f"--cube: the cube is a power of 2 from 1 to 32768, got {cube}")
    overridden = args.length is not None or args.score is not None
    crawford = args.crawford or (m.crawford and not overridden)
    score = [0, 0]
    score[m.on_roll], score[1 - m.on_roll] = score_on_roll, score_opponent
    return replace(
        m, length=length, score=(score[0], score[1]), cube=cube,
        cube_owner=None if cube == 1 else m.cube_owner, crawford=crawford,
        dice=args.dice if args.dice is not None else m.dice,
        jacoby=None if length != m.length else m.jacoby,
    )


def _check_playable(position: Position, m: MatchState, names: tuple[str, str]) -> None:
    """Refuse what the ruling cannot take into account, rather than drop it."""
    if m.game_state != 1:
        raise _Refused(
            f"the match says {GAME_STATES[m.game_state]}: there is no game in progress "
            f"to adjudicate")
    if m.resigned:
        raise _Refused(
            f"the match shows a resignation of {m.resigned} point(s) pending: judge it with "
            f"--concede single|gammon|backgammon on a position without it")
    if m.double_offered:
        raise _Refused(
            "the match shows a double offered and not yet answered: take or drop it "
            "first, then adjudicate the position")
    if m.dice is not None and position.winner is not None:
        raise _Refused(
            f"{names[0]} has dice {m.dice[0]}-{m.dice[1]} but the game is already over")


def _prepare(args: argparse.Namespace) -> tuple[Position, MatchState, tuple[str, str]]:
    if args.nodes < 0:
        raise _Refused("--nodes cannot be negative")
    position, from_position = read_position(args.position)
    m = _match(args, from_position)
    names = _names(args, args.position, from_position, bool(args.match_id))
    _check_playable(position, m, names)
    return position, m, names


def run(args: argparse.Namespace) -> int:
    """Run ``bgclock adjudicate``."""
    try:
        position, m, names = _prepare(args)
    except (BoardError, _Refused) as exc:
        print(f"{_PROG}: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    length, cube, dice = m.length, m.cube, m.dice
    score_on_roll, score_opponent = m.score_on_roll, m.score_opponent
    # the ruling's own questions get the whole budget each; the table shares it
    solver = Solver(position, node_budget=args.nodes, names=names, dice=dice)
    asked: dict[tuple[Side, Result, Reading], Answer] = {}

    def ask(side: Side, result: Result, reading: Reading) -> Answer:
        if (side, result, reading) not in asked:
            asked[side, result, reading] = solver.answer(side, result, reading)
        return asked[side, result, reading]

    rules = PRESET_RULES[args.rules]
    if args.concede:
        decision = concession_ruling(
            ask, rules, args.concede, length=length, score_opponent=score_opponent,
            cube=cube, names=names,
        )
        offer = {"kind": "concede", "result": args.concede}
    elif args.claim:
        decision = claim_ruling(ask, rules, args.claim, names=names)
        offer = {"kind": "claim", "result": args.claim}
    else:
        decision = expiry_ruling(
            ask, rules, length=length, score_on_roll=score_on_roll, cube=cube, names=names
        )
        offer = {"kind": "expiry", "result": None}
    if args.brief:
        if not length:
            print(_MONEY)
        print(_headline(decision, rules.id))
        print(f"  {decision.reason}")
        return 0
    # the ruling's answers (searched further) are used as they are
    table = outcome_table(position, node_budget=args.nodes, names=names, known=asked,
                          dice=dice)
    for key, answer in asked.items():
        if table[key].value is None:
            table[key] = answer
    pips = position.pip_counts()
    if args.json:
        out: dict[str, Any] = {
            "ruling": decision.ruling,
            "result": decision.result,
            "headline": decision.headline,
            "reason": decision.reason,
            "clause": decision.clause,
            "rules": rules.id,
            "offer": offer,
            "names": {"on_roll": names[0], "opponent": names[1]},
            "money_game": not length,
            "warning": _MONEY if not length else None,
            "position_id": position_id(position),
            "xgid": xgid(position, replace(m, turn=None, resigned=0, double_offered=False)),
            "match": {"length": length, "score": {"on_roll": score_on_roll,
                                                  "opponent": score_opponent}, "cube": cube},
            "crawford": m.crawford,
            "dice": list(dice) if dice else None,
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
    print(_text(position, table, decision, rules.id, m, names))
    return 0


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 400 else text[:397] + "..."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _headline(decision: Adjudication, rules: str) -> str:
    about = f" ({decision.result})" if decision.result else ""
    return f"Ruling ({rules}): {decision.ruling}{about} - {_cap(decision.headline)}."


def _question(names: tuple[str, str], side: Side, result: Result, reading: Reading) -> str:
    who = names[0] if side == "on_roll" else names[1]
    what = "wins" if result == "single" else f"wins at least a {result}"
    how = {
        "possible": "possible",
        "against_best_defence": "possible against best defence",
        "certain": "certain",
    }[reading]
    return f"{who} {what}, {how}"


def _text(
    position: Position,
    table: dict[tuple[Side, Result, Reading], Answer],
    decision: Adjudication,
    rules: str,
    m: MatchState,
    names: tuple[str, str],
) -> str:
    pips = position.pip_counts()
    on_roll, opponent = names
    if m.length:
        match = (f"{m.length}-point match, score {on_roll} {m.score_on_roll}, "
                 f"{opponent} {m.score_opponent}{', Crawford game' if m.crawford else ''}")
    else:
        match = "money game"
    rolled = f"; {on_roll} has rolled {m.dice[0]}-{m.dice[1]}" if m.dice else ""
    lines = []
    if not m.length:
        lines += [_MONEY, ""]
    lines += [
        f"Position {position_id(position)}: {on_roll} on roll{rolled}; pips {on_roll} "
        f"{pips[0]}, {opponent} {pips[1]}; {'contact' if position.has_contact() else 'no contact'}",
        f"{_cap(match)}, cube {m.cube}",
        "",
        "What can still happen (winning at least):",
        f"  {'':<30}{'possible':<10}{'v best defence':<16}certain",
    ]
    for side in SIDES:
        who = on_roll if side == "on_roll" else opponent
        for result in RESULTS:
            cells = [table[side, result, r].word for r in READINGS]
            label = f"{who} wins {result}"
            lines.append(f"  {label:<30}{cells[0]:<10}{cells[1]:<16}{cells[2]}")
    lines.append("")
    lines.append("Reasons:")
    for (side, result, reading), answer in table.items():
        lines.append(f"  {_cap(_question(names, side, result, reading))}: {answer.word}. "
                     f"{_cap(answer.reason)}")
    lines.append("")
    lines.append(_headline(decision, rules))
    lines.append(f"  {decision.reason}")
    lines.append(f"  [{decision.clause}]")
    return "\n".join(lines)
