"""Snapshots: what the clock shows at one instant, as frozen data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True, kw_only=True)
class SideState:
    """One side's clock at an instant."""

    reserve_ms: int
    delay_ms: int
    running: bool
    expired: bool
    forfeit_delay: bool
    breaks: int
    #: The USBGF overtime option was granted to this side (its first expiry).
    overtime: bool = False
    #: Italian premature roll: this side may not double in its next (or live) period.
    no_cube: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "reserve_ms": self.reserve_ms,
            "delay_ms": self.delay_ms,
            "running": self.running,
            "expired": self.expired,
            "forfeit_delay": self.forfeit_delay,
            "breaks": self.breaks,
            "overtime": self.overtime,
            "no_cube": self.no_cube,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """The whole match at an instant: both clocks, phase, score and cube."""

    at_ms: int
    rules: str
    length: int
    teams: bool
    A: SideState
    B: SideState
    phase: str
    stopped_reason: str | None
    on_turn: str | None
    score: tuple[int, int]
    cube_value: int
    cube_owner: str | None
    crawford: bool
    cube_frozen: bool
    winner: str | None
    game: int
    #: The side that offered a double not yet taken or passed.
    double_offered_by: str | None
    #: The concession or claim on the table: {"kind", "side", "result"}.
    offer: dict[str, str] | None
    #: What the dispute is about: "offer" or "time_expired".
    dispute: str | None
    #: The break under way: {"side", "started_ms", "reserves": [A, B]}.
    break_info: dict[str, Any] | None
    #: The instant the running side's clock will reach 0, if one runs.
    expires_at_ms: int | None

    def side(self, name: str) -> SideState:
        return self.A if name == "A" else self.B

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; field names are those of the clock script format."""
        return {
            "at_ms": self.at_ms,
            "rules": self.rules,
            "length": self.length,
            "teams": self.teams,
            "A": self.A.to_dict(),
            "B": self.B.to_dict(),
            "phase": self.phase,
            "stopped_reason": self.stopped_reason,
            "on_turn": self.on_turn,
            "score": list(self.score),
            "cube": {"value": self.cube_value, "owner": self.cube_owner},
            "crawford": self.crawford,
            "cube_frozen": self.cube_frozen,
            "winner": self.winner,
            "game": self.game,
            "double_offered_by": self.double_offered_by,
            "offer": self.offer,
            "dispute": self.dispute,
            "break": self.break_info,
            "expires_at_ms": self.expires_at_ms,
        }
