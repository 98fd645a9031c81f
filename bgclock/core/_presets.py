"""The rule books' clock settings as data, each figure citing its clause.

A ``Preset`` is what a rule book says; ``ClockSettings`` is what one match
uses: the preset's figures for singles or teams, the director's overrides,
and the reserve computed from the match length and the score at introduction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ._errors import InvalidCommand
from ._modes import MODES, TimeMode

MINUTE: Final = 60_000
SECOND: Final = 1_000

#: What happens when a side's clock reaches 0.
EXPIRY_LOSES: Final = "loses_match"
EXPIRY_ABA: Final = "aba_penalty"  # penalty points under standard clocks, else loss (aba 5.1)
EXPIRY_BIBA: Final = "biba_gin"


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    """One rule book's clock: figures, expiry consequence and their sources."""

    id: str
    title: str
    source: str
    mode: str
    per_point_ms: int
    less_per_point_ms: int
    delay_ms: int
    team_per_point_ms: int
    team_less_per_point_ms: int
    team_delay_ms: int
    expiry: str
    #: The clock may be introduced in the middle of a game (``start``).
    mid_game_start: bool = False
    #: Breaks per side: (in matches of at least N points, else); None = not capped.
    breaks: tuple[int, int, int] | None = None
    #: How long one break may last (informative; the director enforces it).
    break_ms: int | None = None
    #: clause -> what the engine does about it.
    clauses: dict[str, str] = field(default_factory=dict)

    def max_breaks(self, length: int) -> int | None:
        """Breaks each side may take in a match of ``length`` points."""
        if self.breaks is None:
            return None
        threshold, long_match, short_match = self.breaks
        return long_match if length >= threshold else short_match



PRESETS: Final[dict[str, Preset]] = {
    p.id: p
    for p in (
        Preset(
            id="usbgf-2013-delay",
            title="US Backgammon Federation clock rules, simple delay (March 2013)",
            source="usbgf-2013-simple-delay.txt",
            mode="simple_delay",
            expiry=EXPIRY_LOSES,
            per_point_ms=2 * MINUTE,
            less_per_point_ms=1 * MINUTE,
            delay_ms=12 * SECOND,
            team_per_point_ms=2 * MINUTE + 30 * SECOND,
            team_less_per_point_ms=1 * MINUTE + 15 * SECOND,
            team_delay_ms=18 * SECOND,
            clauses={
                "1.1": "clocks are introduced only at the start of a game: `start` is refused",
                "2.1": "singles: 2:00 per point less 1:00 per point scored; 12 s per move",
                "2.2": "doubles (teams): 2:30 per point less 1:15 per point scored; 18 s",
                "3.3": "opening roll: the lower roller starts the higher roller's clock",
                "3.4": "a hit ends the mover's period and starts the opponent's",
                "3.5": "double and take pass the clock; pass stops both clocks, ends the game",
                "4.1": "premature dice pickup forfeits the next per-move delay",
                "5.1": "concessions stop both clocks; accept, reject, director's ruling",
                "5.2": "stopping both clocks, with a reason",
                "5.3": "a side whose reserve is exhausted loses the match",
            },
        ),
        Preset(
            id="usbgf-2007-bronstein",
            title="US Backgammon clock rules, Bronstein clocks (October 2007)",
            source="usbgf-2007-bronstein.txt",
            mode="bronstein",
            expiry=EXPIRY_LOSES,
            per_point_ms=2 * MINUTE,
            less_per_point_ms=1 * MINUTE,
            delay_ms=12 * SECOND,
            team_per_point_ms=2 * MINUTE + 30 * SECOND,
            team_less_per_point_ms=1 * MINUTE + 15 * SECOND,
            team_delay_ms=18 * SECOND,
            clauses={
                "1.1": "clocks are introduced only at the start of a game: `start` is refused",
                "2.1": "singles: 2:00 per point less 1:00 per point scored; 12 s per move",
                "2.2": "doubles (teams): 2:30 per point less 1:15 per point scored; 18 s",
                "3.3": "opening roll: the lower roller starts the higher roller's clock",
                "3.4": "a hit ends the period; Bronstein credits the time used, up to 12 s",
                "3.5": "double and take pass the clock; pass stops both clocks, ends the game",
                "4.1": "premature dice pickup forfeits the next per-move deductible",
                "5.1": "concessions stop both clocks; accept, reject, director's ruling",
                "5.2": "stopping both clocks, with a reason",
                "5.3": "a side whose reserve is exhausted loses the match",
            },
        ),
        Preset(
            id="aba-2003-bronstein",
            title="ABA Unified Tournament Clock Rules, Bronstein clocks (December 2003)",
            source="aba-2003-unified.txt",
            mode="bronstein",
            per_point_ms=2 * MINUTE,
            less_per_point_ms=1 * MINUTE,
            delay_ms=12 * SECOND,
            team_per_point_ms=2 * MINUTE,
            team_less_per_point_ms=1 * MINUTE,
            team_delay_ms=12 * SECOND,
            expiry=EXPIRY_ABA,
            clauses={
                "1.1": "clocks are introduced only at the start of a new game: `start` is refused",
                "2.1": "Bronstein: 2:00 per point less 1:00 per point scored, 12 s per move",
                "3.3": "opening roll: the lower roller starts the higher roller's clock",
                "3.4": "a hit ends the period; Bronstein credit up to 12 s",
                "3.5": "double and take start the opponent's clock; pass stops both",
                "3.6": "concessions and claims stop both clocks; accept, reject, ruling",
                "4.1": "stopping both clocks, with a reason",
                "5.1": "with Bronstein clocks a side whose time expires loses the match",
                "5.2": "penalty points (director's) bringing a side within one point "
                "freeze the cube",
            },
        ),
        Preset(
            id="aba-2003-standard",
            title="ABA Unified Tournament Clock Rules, standard clocks (December 2003)",
            source="aba-2003-unified.txt",
            mode="standard",
            per_point_ms=6 * MINUTE,
            less_per_point_ms=3 * MINUTE,
            delay_ms=0,
            team_per_point_ms=6 * MINUTE,
            team_less_per_point_ms=3 * MINUTE,
            team_delay_ms=0,
            expiry=EXPIRY_ABA,
            clauses={
                "1.1": "clocks are introduced only at the start of a new game: `start` is refused",
                "2.1": "standard: 6:00 per point less 3:00 per point scored, no allowance",
                "3.3": "opening roll: the lower roller starts the higher roller's clock",
                "3.5": "double and take start the opponent's clock; pass stops both",
                "3.6": "concessions and claims stop both clocks; accept, reject, ruling",
                "4.1": "stopping both clocks, with a reason",
                "5.1": "expiry: 2 penalty points to the opponent, 1 for each repeat offense, "
                "the expired clock reset to 5:00; a grace reset in games that end the match",
                "5.2": "penalty points bringing a side within one point freeze the cube "
                "for the rest of the game and the next",
            },
        ),
        Preset(
            id="biba-2014",
            title="British (BIBA) clock rules (2014)",
            source="biba-2014.txt",
            mode="simple_delay",
            per_point_ms=2 * MINUTE,
            less_per_point_ms=1 * MINUTE,
            delay_ms=12 * SECOND,
            team_per_point_ms=2 * MINUTE,
            team_less_per_point_ms=1 * MINUTE,
            team_delay_ms=12 * SECOND,
            expiry=EXPIRY_BIBA,
            mid_game_start=True,
            clauses={
                "Issuance": "the director may issue clocks to complete a match: `start` mid-game",
                "Time Allowances": "12 s per move plus 2:00 per point, less 1:00 per point "
                "scored; the reserve is used only past 12 s",
                "Stopping the clocks": "both clocks stop, with a reason; both reserves are "
                "recorded before a break",
                "Time Expiration": "the expired side loses unless at match point in a gin "
                "position (gammons count x cube): the director rules",
                "4.5": "a hit ends the mover's period and starts the opponent's",
                "4.6": "premature dice pickup or double forfeits the next 12 s",
                "4.9": "concessions after completing the turn; accept, reject, ruling",
                "5.4": "double and take start the opponent's clock; pass pauses the clocks",
            },
        ),
        Preset(
            id="it-tournament",
            title="Italian tournament rules, clock section (Bronstein)",
            source="italian-tournament-rules.txt",
            mode="bronstein",
            per_point_ms=3 * MINUTE,
            less_per_point_ms=1 * MINUTE + 30 * SECOND,
            delay_ms=12 * SECOND,
            team_per_point_ms=3 * MINUTE,
            team_less_per_point_ms=1 * MINUTE + 30 * SECOND,
            team_delay_ms=12 * SECOND,
            expiry=EXPIRY_LOSES,
            mid_game_start=True,
            breaks=(13, 2, 1),
            break_ms=10 * MINUTE,
            clauses={
                "Clock": "the clock may be introduced during a game in progress: `start`",
                "Bronstein": "3:00 per point plus 12 s per move; at 0 the player loses the "
                "match; introduced mid-game, the average needed points set the reserve",
                "Breaks": "two 10-minute breaks per side in 13+ point matches, else one, "
                "between games",
                "Late arrival": "if a clock is in use the director starts the late "
                "player's clock: `late_start`",
                "Cube": "Crawford rule; a centered cube is worth 1",
                "Conceding a game": "no player may refuse a concession of the maximum "
                "(backgammon)",
                "Claiming a game": "a claim stops both clocks; the opponent verifies it",
                "Stopping the clock": "both clocks stop, with a reason",
            },
        ),
    )
}

#: Override keys a director may set (clock-script ``match.clock``).
OVERRIDE_KEYS: Final = frozenset(
    {"mode", "per_point_ms", "less_per_point_ms", "delay_ms", "reserve_ms", "overtime_ms"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """The clock one match uses, resolved from a preset and its overrides."""

    preset: Preset
    length: int
    score: tuple[int, int]
    teams: bool
    mode: TimeMode
    delay_ms: int
    reserve_ms: int
    max_breaks: int | None
    #: USBGF Rules Options, Overtime: reserve given at a side's first expiry (0: none).
    overtime_ms: int = 0

    @classmethod
    def resolve(
        cls,
        preset_id: str,
        *,
        length: int,
        score: tuple[int, int] = (0, 0),
        teams: bool = False,
        overrides: dict[str, object] | None = None,
    ) -> ClockSettings:
        """Compute the match's clock; raise ``InvalidCommand`` on bad figures."""
        preset = PRESETS.get(preset_id)
        if preset is None:
            raise InvalidCommand(f"unknown rules preset {preset_id!r}")
        if not _is_int(length) or length < 1:
            raise InvalidCommand("match length must be a whole number of points, at least 1")
        if len(score) != 2 or not all(_is_int(s) and 0 <= s < length for s in score):
            raise InvalidCommand("each score must be a whole number from 0 to length - 1")
        over = dict(overrides or {})
        unknown = set(over) - OVERRIDE_KEYS
        if unknown:
            raise InvalidCommand(f"unknown clock override {sorted(unknown)[0]!r}")
        mode_name = over.get("mode", preset.mode)
        if not isinstance(mode_name, str) or mode_name not in MODES:
            raise InvalidCommand(f"unknown time mode {mode_name!r}")
        for key in OVERRIDE_KEYS - {"mode"}:
            if key in over and (not _is_int(over[key]) or over[key] < 0):  # type: ignore[operator]
                raise InvalidCommand(f"clock override {key} must be a whole number >= 0")
        per_point = int(
            over.get("per_point_ms", preset.team_per_point_ms if teams else preset.per_point_ms)  # type: ignore[call-overload]
        )
        less = int(
            over.get(  # type: ignore[call-overload]
                "less_per_point_ms",
                preset.team_less_per_point_ms if teams else preset.less_per_point_ms,
            )
        )
        delay = int(over.get("delay_ms", preset.team_delay_ms if teams else preset.delay_ms))  # type: ignore[call-overload]
        mode = MODES[mode_name]
        if mode_name == "standard":
            delay = 0  # standard clocks have no allowance, whatever is set
        if "reserve_ms" in over:
            reserve = int(over["reserve_ms"])  # type: ignore[call-overload]
        else:
            reserve = per_point * length - less * (score[0] + score[1])
        if reserve < 0:
            raise InvalidCommand(f"the computed reserve is below zero ({reserve} ms)")
        overtime = int(over.get("overtime_ms", 0))  # type: ignore[call-overload]
        if "overtime_ms" in over and overtime < 1:
            raise InvalidCommand(
                "clock override overtime_ms must be a positive number of milliseconds"
            )
        if "overtime_ms" in over and not _expiry_loses(preset):
            raise InvalidCommand(
                f"clock override overtime_ms: {preset.id} does not lose the match on expiry, "
                "so it has no overtime (USBGF Rules Options)"
            )
        return cls(
            preset=preset,
            length=length,
            score=(score[0], score[1]),
            teams=bool(teams),
            mode=mode,
            delay_ms=delay,
            reserve_ms=reserve,
            max_breaks=preset.max_breaks(length),
            overtime_ms=overtime,
        )

    @property
    def penalty_on_expiry(self) -> bool:
        """ABA 5.1: standard clocks give penalty points; Bronstein ones lose."""
        return self.preset.expiry == EXPIRY_ABA and self.mode.name == "standard"


def _expiry_loses(preset: Preset) -> bool:
    """Under the preset's own mode, an expiry loses the match (no penalty
    points, no gin question): the presets that may take the USBGF overtime."""
    if preset.expiry == EXPIRY_BIBA:
        return False
    return not (preset.expiry == EXPIRY_ABA and preset.mode == "standard")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
