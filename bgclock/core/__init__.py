"""bgclock.core: the clock engine, pure and sans-I/O.

Every command carries its instant (integer milliseconds); nothing here reads a
clock, a file, a socket or the environment.  A match is a fold over events:

>>> from bgclock.core import Match, OpeningRoll, Hit
>>> m = Match.new("usbgf-2007-bronstein", length=5)
>>> m.apply(OpeningRoll(at_ms=0, dice=(6, 2)))
>>> m.apply(Hit(at_ms=5_000, side="A"))
>>> m.state(5_000).A.reserve_ms   # 5 s used, 5 s credited back
600000
"""

from ._errors import REFUSALS, ClockError, IllegalCommand, InvalidCommand
from ._events import (
    DECISIONS,
    EVENT_TYPES,
    MAX_CUBE,
    RESULTS,
    SERVER_STOP_REASONS,
    SIDES,
    STOP_REASONS,
    Accept,
    Adjust,
    Break,
    Claim,
    Concede,
    Cube,
    Double,
    Event,
    GameOver,
    Hit,
    LateStart,
    OpeningRoll,
    Pass,
    Penalty,
    Premature,
    Reject,
    Resume,
    Ruling,
    Start,
    Stop,
    Take,
    is_word,
)
from ._match import ABA_RESET_MS, PHASE_RULES, PHASES, SNAPSHOT_VERSION, Match, replay
from ._modes import MODES, TimeMode
from ._presets import OVERRIDE_KEYS, PRESETS, ClockSettings, Preset
from ._state import MatchState, SideState

__all__ = [
    "ABA_RESET_MS", "DECISIONS", "REFUSALS", "EVENT_TYPES", "MAX_CUBE", "MODES", "OVERRIDE_KEYS",
    "PHASES", "PHASE_RULES", "PRESETS", "RESULTS", "SERVER_STOP_REASONS", "SIDES",
    "STOP_REASONS", "Accept", "Adjust", "Break", "Claim", "ClockError", "ClockSettings",
    "Concede", "Cube", "Double", "Event", "GameOver", "Hit", "IllegalCommand", "InvalidCommand",
    "LateStart", "Match", "MatchState", "OpeningRoll", "Pass", "Penalty", "Premature", "Preset",
    "Reject", "Resume", "Ruling", "SNAPSHOT_VERSION", "SideState", "Start", "Stop", "Take",
    "TimeMode", "is_word", "replay",
]
