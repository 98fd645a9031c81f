"""The director's ruling on a clock dispute, computed from the position.

Bridges the clock engine and the board engine, both pure: a match in the
``dispute`` phase (a BIBA time expiration, or a rejected concession or claim)
plus the position on the board give the ``Ruling`` the rules call for, with
its reason; ``None`` when the search could not decide (the director then rules
by eye).  The side on roll in ``position`` is the side whose clock runs on
(``on_turn``): the expired side, or the side to play after an offer.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgclock.board._outcomes import DEFAULT_NODE_BUDGET, Answer, Reading, Result, Side, Solver
from bgclock.board._position import BoardError, Position
from bgclock.board._rulings import (
    PRESET_RULES,
    Adjudication,
    claim_ruling,
    concession_ruling,
    expiry_ruling,
)
from bgclock.core import MatchState as ClockState
from bgclock.core import Ruling

#: Board ruling -> the clock engine's ruling decision.
_DECISIONS = {"gin": "gin", "lost": "lost", "must_accept": "accept", "valid": "accept",
              "invalid": "invalid"}


@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeRuling:
    """What the position says about a clock dispute."""

    #: ``accept``, ``invalid``, ``gin`` or ``lost``; None when undecided.
    decision: str | None
    #: For ``gin``: the result the opponent can no longer avoid.
    result: str | None
    adjudication: Adjudication

    def event(self, at_ms: int) -> Ruling | None:
        """The engine's ``Ruling`` event, or None when the search gave up."""
        if self.decision is None:
            return None
        return Ruling(at_ms=at_ms, decision=self.decision,
                      result=self.result if self.decision == "gin" else None)


def rule_dispute(
    state: ClockState,
    position: Position,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    dice: tuple[int, int] | None = None,
) -> DisputeRuling:
    """The ruling on ``state``'s dispute given the ``position`` on the board.

    ``dice``: the side on roll has already rolled them (its first turn is that
    roll); None when it has not rolled.
    """
    if state.phase != "dispute" or state.on_turn is None:
        raise BoardError("there is no dispute to rule on")
    on_roll = state.on_turn
    other = "B" if on_roll == "A" else "A"
    score = dict(zip(("A", "B"), state.score, strict=True))
    rules = PRESET_RULES[state.rules]
    solver = Solver(position, node_budget=node_budget, names=(on_roll, other), dice=dice)
    asked: dict[tuple[Side, Result, Reading], Answer] = {}

    def ask(side: Side, result: Result, reading: Reading) -> Answer:
        key = (side, result, reading)
        if key not in asked:
            asked[key] = solver.answer(side, result, reading)
        return asked[key]

    if state.dispute == "time_expired":
        judged = expiry_ruling(ask, rules, length=state.length, score_on_roll=score[on_roll],
                               cube=state.cube_value, names=(on_roll, other))
    else:
        assert state.offer is not None
        offerer = state.offer["side"]
        result: Result = state.offer["result"]  # type: ignore[assignment]

        def from_offerer(side: Side, res: Result, reading: Reading) -> Answer:
            # The rulings ask relative to the offering side; the board's side on
            # roll may be the other one (Italian and BIBA concede after the turn).
            if offerer == on_roll:
                return ask(side, res, reading)
            return ask("opponent" if side == "on_roll" else "on_roll", res, reading)

        acceptor = other if offerer == on_roll else on_roll
        if state.offer["kind"] == "concede":
            judged = concession_ruling(from_offerer, rules, result, length=state.length,
                                       score_opponent=score[acceptor], cube=state.cube_value,
                                       names=(offerer, acceptor))
        else:
            judged = claim_ruling(from_offerer, rules, result, names=(offerer, acceptor))
    decision = _DECISIONS.get(judged.ruling)
    return DisputeRuling(decision=decision, result=judged.result, adjudication=judged)
