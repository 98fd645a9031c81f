"""Rulings: an expiry, a concession or a claim, judged by the rule texts.

Each preset row cites the clauses it applies (rule texts in ``shared/rules``).
The rulings use the readings of ``_outcomes``:

- BIBA gin (biba-2014, "Time Expiration"): the expired side, on roll, is at a
  score where this game can win it the match (points needed <= 3 x cube) and
  the opponent can no longer avoid a result R worth the match (R x cube >=
  points needed) against the expired side's best defence, i.e. R is
  *certain* for the expired side.  Otherwise the match is lost.
- Concession (USBGF 5.1, ABA 3.6, BIBA 4.9, Italian "Conceding a game"): the
  side on roll offers to lose R; the opponent must accept when no better
  result for it is *possible against the conceder's best defence* (in a
  match, a result that already wins the acceptor the match has nothing
  better).  Otherwise the offer is invalid.
- Claim (ABA 3.6, Italian "Claiming a game"): the side on roll claims R; valid
  when R is *certain*.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bgclock.board._outcomes import RESULT_POINTS, RESULTS, Answer, Reading, Result, Side

Ruling = Literal["gin", "lost", "penalty", "must_accept", "invalid", "valid", "unknown"]
Ask = Callable[[Side, Result, Reading], Answer]


@dataclass(frozen=True, slots=True, kw_only=True)
class PresetRules:
    """What a rule set says about expiry, concessions and claims."""

    id: str
    expiry: Literal["gin", "loses", "penalty"]
    expiry_clause: str
    concede_clause: str
    claim_clause: str
    max_concession_unrefusable: bool = False


PRESET_RULES: Final[dict[str, PresetRules]] = {
    p.id: p
    for p in (
        PresetRules(
            id="usbgf-2013-delay", expiry="loses",
            expiry_clause="USBGF 2013 5.3 Time expiration: the player is declared the loser",
            concede_clause="USBGF 2013 5.1: accept when no outcome more favorable can occur",
            claim_clause="no claim clause in USBGF 2013; judged as ABA 3.6 (result certain)",
        ),
        PresetRules(
            id="usbgf-2007-bronstein", expiry="loses",
            expiry_clause="USBGF 2007 5.3 Time expiration: the player is declared the loser",
            concede_clause="USBGF 2007 5.1: accept when no outcome more favorable can occur",
            claim_clause="no claim clause in USBGF 2007; judged as ABA 3.6 (result certain)",
        ),
        PresetRules(
            id="aba-2003-bronstein", expiry="loses",
            expiry_clause="ABA 2003 5.1: with Bronstein clocks a player whose time expires "
            "loses the match",
            concede_clause="ABA 2003 3.6: accept if no outcome more favorable can occur",
            claim_clause="ABA 2003 3.6: accept if no outcome more favorable can occur",
        ),
        PresetRules(
            id="aba-2003-standard", expiry="penalty",
            expiry_clause="ABA 2003 5.1: with standard clocks an expiry gives the opponent "
            "penalty points and resets the clock to five minutes",
            concede_clause="ABA 2003 3.6: accept if no outcome more favorable can occur",
            claim_clause="ABA 2003 3.6: accept if no outcome more favorable can occur",
        ),
        PresetRules(
            id="biba-2014", expiry="gin",
            expiry_clause="BIBA 2014 Time Expiration: lost unless at match point in a gin "
            "position (gammons count x cube)",
            concede_clause="BIBA 2014 4.9: concessions where it is mathematically impossible "
            "for the opponent to do better",
            claim_clause="no claim clause in BIBA 2014; judged as ABA 3.6 (result certain)",
        ),
        PresetRules(
            id="it-tournament", expiry="loses",
            expiry_clause="Italian rules, clock section: Bronstein clocks, an expired player "
            "loses the match",
            concede_clause="Italian rules, Conceding a game (a concession of the maximum "
            "possible points cannot be refused)",
            claim_clause="Italian rules, Claiming a game: when the outcome is certain",
            max_concession_unrefusable=True,
        ),
    )
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjudication:
    """A ruling with its reason; ``result`` is the result it is about.

    ``headline``: the ruling in one sentence naming the player ("B, whose time
    expired, keeps the match: gin (single)"); ``reason``: the one fact that
    decides it, in sentences a director can check on the board.
    """

    ruling: Ruling
    result: Result | None
    reason: str
    clause: str
    headline: str = ""


#: The names the rulings use when the caller gives none.
DEFAULT_NAMES: Final = ("the side on roll", "the opponent")


def _article(result: Result) -> str:
    return {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}[
        result
    ]


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def expiry_ruling(
    ask: Ask,
    rules: PresetRules,
    *,
    length: int,
    score_on_roll: int,
    cube: int,
    names: tuple[str, str] = DEFAULT_NAMES,
) -> Adjudication:
    """The ruling when the side on roll's time has expired.

    ``names``: the expired side and its opponent, as the reasons name them.
    """
    me, other = names
    clause = rules.expiry_clause
    lost = f"{me}, whose time expired, loses the match"
    if rules.expiry == "loses":
        return Adjudication(
            ruling="lost", result=None, clause=clause, headline=lost,
            reason=_sentence(
                "under these rules a player whose time expires loses the match, "
                "whatever the position"),
        )
    if rules.expiry == "penalty":
        return Adjudication(
            ruling="penalty", result=None, clause=clause,
            headline=f"{me}'s time expired: {other} is awarded the penalty points, "
            f"and {me} plays on",
            reason=_sentence(
                "under these rules an expiry costs penalty points, not the match"),
        )
    if length <= 0:
        return Adjudication(
            ruling="lost", result=None, clause=clause, headline=lost,
            reason=_sentence(
                "this was judged as a money game (no match length given), and a gin needs "
                "a game that can win the match"),
        )
    needed = length - score_on_roll
    if needed > 3 * cube:
        return Adjudication(
            ruling="lost", result=None, clause=clause, headline=lost,
            reason=_sentence(
                f"{me} needs {_points(needed)} to win the {length}-point match, and this "
                f"game is worth at most {_points(3 * cube)} (a backgammon with the cube at "
                f"{cube}), so {me} is not at match point"),
        )
    winning = [r for r in RESULTS if RESULT_POINTS[r] * cube >= needed]
    smallest = winning[0]
    first = ask("on_roll", smallest, "certain")
    need_text = (
        f"{me} needs {_points(needed)} with the cube at {cube}: {_article(smallest)} "
        f"or more wins {me} the match"
    )
    if first.value is None:
        return Adjudication(
            ruling="unknown", result=smallest, clause=clause,
            headline=f"undecided: the search could not settle whether {me}, whose time "
            f"expired, keeps the match; the director rules",
            reason=_sentence(need_text) + " " + _sentence(
                f"whether {other} can still avoid it is unknown: {first.reason}"),
        )
    if first.value is False:
        return Adjudication(
            ruling="lost", result=None, clause=clause, headline=lost,
            reason=_sentence(need_text) + " " + _sentence(
                f"{other} can still avoid it with some rolls, whatever {me} plays: "
                f"{first.reason}"),
        )
    best, best_answer = smallest, first
    for r in winning[1:]:
        a = ask("on_roll", r, "certain")
        if a.value is not True:
            break
        best, best_answer = r, a
    return Adjudication(
        ruling="gin", result=best, clause=clause,
        headline=f"{me}, whose time expired, keeps the match: gin ({best})",
        reason=_sentence(need_text) + " " + _sentence(
            f"{other} can no longer avoid {_article(best)}, whatever the dice and "
            f"whatever {other} plays: {best_answer.reason}"),
    )


def concession_ruling(
    ask: Ask,
    rules: PresetRules,
    offered: Result,
    *,
    length: int,
    score_opponent: int,
    cube: int,
    names: tuple[str, str] = DEFAULT_NAMES,
) -> Adjudication:
    """The side on roll offers to lose ``offered``: must the opponent accept?

    ``names``: the conceding side and the side it concedes to.
    """
    me, other = names
    clause = rules.concede_clause
    offer = f"{me}'s concession of {_article(offered)}"
    accept = f"{other} must accept {offer}"
    if offered == "backgammon":
        return Adjudication(
            ruling="must_accept", result=offered, clause=clause, headline=accept,
            reason=_sentence("a backgammon is the most a game can give, so nothing better "
                             f"can happen for {other}"),
        )
    points = RESULT_POINTS[offered] * cube
    if length > 0 and length - score_opponent <= points:
        return Adjudication(
            ruling="must_accept", result=offered, clause=clause, headline=accept,
            reason=_sentence(
                f"{_article(offered)} with the cube at {cube} gives {other} "
                f"{_points(points)}, which wins {other} the match ({other} needs "
                f"{length - score_opponent}): nothing better can happen"),
        )
    better: Result = RESULTS[RESULTS.index(offered) + 1]
    a = ask("opponent", better, "against_best_defence")
    if a.value is None:
        return Adjudication(
            ruling="unknown", result=offered, clause=clause,
            headline=f"undecided: the search could not settle whether {other} must accept "
            f"{offer}; the director rules",
            reason=_sentence(
                f"whether {other} can still win {_article(better)} is unknown: {a.reason}"),
        )
    if a.value:
        return Adjudication(
            ruling="invalid", result=offered, clause=clause,
            headline=f"{offer} is invalid: {other} may refuse it and play on",
            reason=_sentence(
                f"{other} can still win {_article(better)} against {me}'s best defence: "
                f"{a.reason}"),
        )
    return Adjudication(
        ruling="must_accept", result=offered, clause=clause, headline=accept,
        reason=_sentence(
            f"{other} cannot win {_article(better)} against {me}'s best defence: {a.reason}"),
    )


def claim_ruling(
    ask: Ask, rules: PresetRules, claimed: Result, *, names: tuple[str, str] = DEFAULT_NAMES
) -> Adjudication:
    """The side on roll claims ``claimed``: is the claim valid?

    ``names``: the claiming side and its opponent.
    """
    me, other = names
    clause = rules.claim_clause
    claim = f"{me}'s claim of {_article(claimed)}"
    a = ask("on_roll", claimed, "certain")
    if a.value is None:
        return Adjudication(
            ruling="unknown", result=claimed, clause=clause,
            headline=f"undecided: the search could not settle {claim}; the director rules",
            reason=_sentence(
                f"whether {_article(claimed)} for {me} is certain is unknown: {a.reason}"),
        )
    if a.value:
        return Adjudication(
            ruling="valid", result=claimed, clause=clause,
            headline=f"{claim} is valid: {other} must accept it",
            reason=_sentence(
                f"{_article(claimed)} for {me} is certain, whatever the dice and {other}'s "
                f"play: {a.reason}"),
        )
    return Adjudication(
        ruling="invalid", result=claimed, clause=clause,
        headline=f"{claim} is invalid: play goes on",
        reason=_sentence(f"{_article(claimed)} for {me} is not certain: {a.reason}"),
    )
