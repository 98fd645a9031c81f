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
    """A ruling with its reason; ``result`` is the result it is about."""

    ruling: Ruling
    result: Result | None
    reason: str
    clause: str


def _article(result: Result) -> str:
    return {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}[
        result
    ]


def expiry_ruling(
    ask: Ask, rules: PresetRules, *, length: int, score_on_roll: int, cube: int
) -> Adjudication:
    """The ruling when the side on roll's time has expired."""
    clause = rules.expiry_clause
    if rules.expiry == "loses":
        return Adjudication(
            ruling="lost", result=None, clause=clause,
            reason="under these rules an expired player loses the match whatever the position",
        )
    if rules.expiry == "penalty":
        return Adjudication(
            ruling="penalty", result=None, clause=clause,
            reason="under these rules an expiry costs penalty points, not the match",
        )
    if length <= 0:
        return Adjudication(
            ruling="lost", result=None, clause=clause,
            reason="no match length given: gin needs a game that can win the match",
        )
    needed = length - score_on_roll
    if needed > 3 * cube:
        return Adjudication(
            ruling="lost", result=None, clause=clause,
            reason=(
                f"the expired side needs {needed} points; this game is worth at most "
                f"{3 * cube} (backgammon x cube {cube}), so it is not at match point"
            ),
        )
    winning = [r for r in RESULTS if RESULT_POINTS[r] * cube >= needed]
    smallest = winning[0]
    first = ask("on_roll", smallest, "certain")
    need_text = f"the expired side needs {needed} point{'s' if needed != 1 else ''}" + (
        f" (cube {cube}): {_article(smallest)} or more wins it the match"
    )
    if first.value is None:
        return Adjudication(
            ruling="unknown", result=smallest, clause=clause,
            reason=f"{need_text}; whether the opponent can still avoid it is unknown: "
            f"{first.reason}",
        )
    if first.value is False:
        return Adjudication(
            ruling="lost", result=None, clause=clause,
            reason=f"{need_text}; the opponent can still avoid it against the expired "
            f"side's best defence: {first.reason}",
        )
    best, best_answer = smallest, first
    for r in winning[1:]:
        a = ask("on_roll", r, "certain")
        if a.value is not True:
            break
        best, best_answer = r, a
    return Adjudication(
        ruling="gin", result=best, clause=clause,
        reason=f"{need_text}; the opponent can no longer avoid {_article(best)}: "
        f"{best_answer.reason}",
    )


def concession_ruling(
    ask: Ask,
    rules: PresetRules,
    offered: Result,
    *,
    length: int,
    score_opponent: int,
    cube: int,
) -> Adjudication:
    """The side on roll offers to lose ``offered``: must the opponent accept?"""
    clause = rules.concede_clause
    if offered == "backgammon":
        return Adjudication(
            ruling="must_accept", result=offered, clause=clause,
            reason="a backgammon is the most a game can give: nothing better can happen",
        )
    points = RESULT_POINTS[offered] * cube
    if length > 0 and length - score_opponent <= points:
        return Adjudication(
            ruling="must_accept", result=offered, clause=clause,
            reason=(
                f"{_article(offered)} ({points} points) already wins the opponent the match "
                f"(it needs {length - score_opponent}): nothing better can happen"
            ),
        )
    better: Result = RESULTS[RESULTS.index(offered) + 1]
    a = ask("opponent", better, "against_best_defence")
    if a.value is None:
        return Adjudication(
            ruling="unknown", result=offered, clause=clause,
            reason=f"whether the opponent can still win {_article(better)} is unknown: "
            f"{a.reason}",
        )
    if a.value:
        return Adjudication(
            ruling="invalid", result=offered, clause=clause,
            reason=f"the opponent can still win {_article(better)} against the conceding "
            f"side's best defence: {a.reason}",
        )
    return Adjudication(
        ruling="must_accept", result=offered, clause=clause,
        reason=f"the opponent cannot win {_article(better)} against the conceding side's "
        f"best defence: {a.reason}",
    )


def claim_ruling(ask: Ask, rules: PresetRules, claimed: Result) -> Adjudication:
    """The side on roll claims ``claimed``: is the claim valid?"""
    clause = rules.claim_clause
    a = ask("on_roll", claimed, "certain")
    if a.value is None:
        return Adjudication(
            ruling="unknown", result=claimed, clause=clause,
            reason=f"whether {_article(claimed)} is certain is unknown: {a.reason}",
        )
    if a.value:
        return Adjudication(
            ruling="valid", result=claimed, clause=clause,
            reason=f"{_article(claimed)} is certain: {a.reason}",
        )
    return Adjudication(
        ruling="invalid", result=claimed, clause=clause,
        reason=f"{_article(claimed)} is not certain: {a.reason}",
    )
