"""The tournament's state, typed: what the fold of the actions keeps.

Theory of operation
-------------------
``Tournament`` (``_running``) holds the brackets (``_draw``), the players and
these records; the Swing and couples events (``_events``) hold theirs.  Each
record is a slotted dataclass, its fields named and typed, written by one
action's handler only: a result's detail (how a match was decided), a late
count at a match, an appeal, a clash between a table's result and the one
held.  ``to_dict`` gives the view the screens read (the same JSON as before
the records were typed); nothing in the fold reads a view back.

Records that a later action may change in place (a late count's arrivals,
an appeal's decision) are mutable; the others are frozen and replaced whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from ._errors import InvalidContest
from .actions import CLOCK_POLICIES, MAX_MATCH_LENGTH, MAX_RULES

#: A match of a bracket: (event, round, match), 0-based.
MatchKey = tuple[str, int, int]

_CONTROL: Final = re.compile("[\x00-\x1f\x7f]")


def whole(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, else refused naming ``name``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidContest(f"{name}: must be a whole number from {low} to {high}")
    return value


def text(value: Any, name: str, limit: int) -> str:
    """``value`` as a text of 1 to ``limit`` characters (outer spaces
    stripped), else refused naming ``name``."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidContest(f"{name}: must be a text of 1 to {limit} characters")
    if _CONTROL.search(value):
        raise InvalidContest(f"{name}: must not hold control characters")
    return value.strip()


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSettings:
    """One round's matches: length, rule book (clock preset id), clock policy."""

    length: int = 7
    rules: str = "it-tournament"
    clock: str = "required"

    def __post_init__(self) -> None:
        whole(self.length, "length", 1, MAX_MATCH_LENGTH)
        text(self.rules, "rules", MAX_RULES)
        if self.clock not in CLOCK_POLICIES:
            raise InvalidContest(f"clock: must be one of {', '.join(CLOCK_POLICIES)}")

    def to_dict(self) -> dict[str, Any]:
        return {"length": self.length, "rules": self.rules, "clock": self.clock}


@dataclass(slots=True, kw_only=True)
class Player:
    """A registered player."""

    id: int
    name: str
    federation_id: str | None = None
    checked_in: bool = False
    withdrawn: bool = False
    #: The players' register entry this player is (None: not linked).
    register_id: int | None = None
    #: Deleted before the draw (an entry made by mistake): in no list.
    deleted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "federation_id": self.federation_id,
                "checked_in": self.checked_in, "withdrawn": self.withdrawn,
                "register_id": self.register_id}


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction:
    """A result corrected: the winner it had (``was``) and the director's reason."""

    was: str | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.was, "reason": self.reason}


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultDetail:
    """How a decided match was decided."""

    #: ``clock``, ``hand``, ``withdrawn`` or ``disqualified`` (``actions.RESULT_SOURCES``).
    source: str
    score: tuple[int, int] | None = None
    corrected: Correction | None = None
    #: A result from score sheets: ``director``, ``agreed`` or ``trailing``.
    sheets: str | None = None
    #: ``trailing``: whose sheet made the result, the first game where they differ.
    trailing: str | None = None
    game: int | None = None
    #: ``disqualified``: who, and why.
    player: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source}
        if self.player is not None:
            out["player"] = self.player
        if self.reason is not None:
            out["reason"] = self.reason
        if self.sheets is not None:
            out["sheets"] = self.sheets
        if self.score is not None:
            out["score"] = list(self.score)
        if self.sheets == "trailing":
            out["trailing"] = self.trailing
            out["game"] = self.game
        if self.corrected is not None:
            out["corrected"] = self.corrected.to_dict()
        return out


#: A match's result before a correction (what ``revert`` puts back).
@dataclass(frozen=True, slots=True, kw_only=True)
class PriorResult:
    """A match's winner and detail before one of its corrections."""

    winner: str | None
    detail: ResultDetail


@dataclass(slots=True, kw_only=True)
class LateCount:
    """Late arrivals at a match's start: who is absent, the count's start,
    when it was marked, whether a clock at the table keeps the time, and the
    arrivals (name -> ms)."""

    absent: list[str]
    from_ms: int
    at_ms: int
    clock: bool
    arrived_ms: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class AppealRecord:
    """An appeal of a ruling at a match, its panel and (once heard) its decision."""

    appeal: int
    event: str
    round: int
    match: int
    by: int
    ruling: str
    panel: list[int]
    #: A committee member who plays the match (id as text) -> their substitute.
    replaced: dict[str, int]
    at_ms: int | None
    #: ``upheld`` or ``overturned``; None until decided.
    decision: str | None = None
    #: Each panel member's (id as text) and the director's vote.
    votes: dict[str, str] = field(default_factory=dict)
    hearing: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "appeal": self.appeal, "event": self.event, "round": self.round,
            "match": self.match, "by": self.by, "ruling": self.ruling,
            "panel": list(self.panel), "replaced": dict(self.replaced), "at_ms": self.at_ms,
            "decision": self.decision}
        if self.decision is not None:
            out["votes"] = dict(self.votes)
            out["hearing"] = self.hearing
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class TableResult:
    """One side of a clash: a winner, the score (when known) and, for the
    result held, how it came in."""

    winner: str
    score: tuple[int, int] | None = None
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner}
        if self.source is not None:
            out["source"] = self.source
        if self.score is not None:
            out["score"] = list(self.score)
        return out


@dataclass(slots=True, kw_only=True)
class ClashRecord:
    """A table's final result (``clock``) that disagrees with the one the
    tournament held (``held``): the director's alert until dismissed."""

    clash: int
    table: int
    table_id: int
    match: str
    players: list[str]
    held: TableResult
    clock: TableResult
    at_ms: int
    #: The director's reason once dismissed (``dismissed`` True).
    dismissed: bool = False
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"clash": self.clash, "table": self.table, "table_id": self.table_id,
                "match": self.match, "players": list(self.players),
                "held": self.held.to_dict(), "clock": self.clock.to_dict(),
                "at_ms": self.at_ms,
                "dismissed": {"reason": self.reason} if self.dismissed else None}


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCorrection:
    """A Swing game's result corrected: what it was (winner, result, cube) and why."""

    winner: str | None
    result: str
    cube: int
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"from": [self.winner, self.result, self.cube], "reason": self.reason}


__all__ = ["AppealRecord", "ClashRecord", "Correction", "GameCorrection", "LateCount",
           "MatchKey", "Player", "PriorResult", "ResultDetail", "RoundSettings",
           "TableResult", "text", "whole"]
