"""Events: the commands a table or the director gives, once accepted.

Every event carries the instant it happened (``at_ms``, integer milliseconds of
the match's own time line).  Field names and values are those of the clock
script format, so ``Event.from_dict`` reads a script step and the stored log
alike.  Construction validates the fields (``InvalidCommand``); whether the
event is allowed *now* is the match's business (``IllegalCommand``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final

from ._errors import InvalidCommand

SIDES: Final = ("A", "B")
RESULTS: Final = {"single": 1, "gammon": 2, "backgammon": 3}
STOP_REASONS: Final = frozenset(
    {"concession", "break", "fallen_dice", "dispute", "director", "dice_not_left", "other"}
)
#: Reasons only the server gives (a clock brought back after a restart).
SERVER_STOP_REASONS: Final = frozenset({"restart"})
DECISIONS: Final = frozenset({"accept", "invalid", "gin", "lost"})

#: The stored form's version; ``from_dict`` accepts this and older ones.
EVENT_FORMAT_VERSION: Final = 1


def _check_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidCommand(f"{name} must be a whole number, not {value!r}")


def is_word(value: object, words: Collection[str]) -> bool:
    """``value`` is one of ``words``: a string, never a list, an object or a
    number that an ``in`` test would choke on or let through (``True == 1``).
    Every enum field of the event and script formats is checked with it."""
    return isinstance(value, str) and value in words


def _check_side(name: str, value: object) -> None:
    if not is_word(value, SIDES):
        raise InvalidCommand(f"{name} must be 'A' or 'B', not {value!r}")


def _check_result(name: str, value: object) -> None:
    if not is_word(value, RESULTS):
        raise InvalidCommand(f"{name} must be single, gammon or backgammon, not {value!r}")


def _check_reason(name: str, value: object) -> None:
    if not is_word(value, STOP_REASONS | SERVER_STOP_REASONS):
        raise InvalidCommand(f"{name} must be one of {', '.join(sorted(STOP_REASONS))}")


def _check_optional_side(name: str, value: object) -> None:
    if value is not None:
        _check_side(name, value)


def _check_dice(name: str, value: object) -> None:
    if (
        not isinstance(value, tuple)
        or len(value) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)
    ):
        raise InvalidCommand(f"{name} must be two dice from 1 to 6, not {value!r}")


def _check_decision(name: str, value: object) -> None:
    if not is_word(value, DECISIONS):
        raise InvalidCommand(f"{name} must be one of {', '.join(sorted(DECISIONS))}")


def _check_points(name: str, value: object) -> None:
    _check_int(name, value)
    if value < 1:  # type: ignore[operator]
        raise InvalidCommand(f"{name} must be at least 1")


#: The highest cube value a ``start`` may carry (clock-script ``start``: "a
#: power of two from 1 to 2^20").
MAX_CUBE: Final = 2**20


@dataclass(frozen=True, slots=True, kw_only=True)
class Cube:
    """The cube as it stands on the board (``start``'s ``cube``): its value
    and its owner (None: centered).  Only the form is checked here; whether
    the game can be in that state (a centered cube above 1, an owned cube at
    1, a cube in the Crawford game) is the match's to refuse."""

    value: int = 1
    owner: str | None = None

    def __post_init__(self) -> None:
        v = self.value
        if not (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_CUBE
                and v & (v - 1) == 0):
            raise InvalidCommand(
                f"cube.value must be a power of two from 1 to {MAX_CUBE}, not {v!r}")
        if self.owner is not None and not is_word(self.owner, SIDES):
            raise InvalidCommand(f"cube.owner must be 'A', 'B' or null, not {self.owner!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "owner": self.owner}

    @staticmethod
    def from_dict(data: object) -> Cube:
        """``{"value", "owner"}``, either field alone (the other as on a new
        game: 1, centered)."""
        if not isinstance(data, dict):
            raise InvalidCommand(f"cube must be an object {{value, owner}}, not {data!r}")
        unknown = sorted(set(data) - {"value", "owner"})
        if unknown:
            raise InvalidCommand(f"cube: unknown field {unknown[0]!r}")
        return Cube(value=data.get("value", 1), owner=data.get("owner"))


def _check_cube(name: str, value: object) -> None:
    if not isinstance(value, Cube):
        raise InvalidCommand(f"{name} must be a Cube, not {value!r}")


_CHECKS: Final = {
    "at_ms": _check_int,
    "side": _check_side,
    "winner": _check_side,
    "result": _check_result,
    "reason": _check_reason,
    "dice": _check_dice,
    "decision": _check_decision,
    "delta_ms": _check_int,
    "points": _check_points,
    "cube": _check_cube,
}

#: Fields whose stored form is an object read into a value class.
_READERS: Final[dict[str, Callable[[object], Any]]] = {"cube": Cube.from_dict}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every event: something that happened at ``at_ms``."""

    kind: ClassVar[str] = ""
    #: Fields that may be None (everything else is required).
    optional: ClassVar[frozenset[str]] = frozenset()
    at_ms: int

    def __post_init__(self) -> None:
        for name, check, may_be_none in _plan(type(self)):
            value = getattr(self, name)
            if value is None and may_be_none:
                continue
            if check is not None:
                check(name, value)
        if self.at_ms < 0:
            raise InvalidCommand("at_ms must not be negative")

    def to_dict(self) -> dict[str, Any]:
        """The stored form: ``{"v": 1, "do": kind, "at_ms": ..., fields...}``."""
        out: dict[str, Any] = {"v": EVENT_FORMAT_VERSION, "do": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Cube):
                out[f.name] = value.to_dict()
            else:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        """Read a stored event or a clock-script step's event fields."""
        if not isinstance(data, dict):
            raise InvalidCommand("an event must be a JSON object")
        version = data.get("v", EVENT_FORMAT_VERSION)
        if version != EVENT_FORMAT_VERSION:
            raise InvalidCommand(f"unknown event format version {version!r}")
        kind = data.get("do")
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise InvalidCommand(f"unknown event {kind!r}")
        plan = _plan(cls)
        kwargs: dict[str, Any] = {}
        for name, _, may_be_none in plan:
            if name in data:
                value = data[name]
                reader = _READERS.get(name)
                if reader is not None and value is not None:
                    kwargs[name] = reader(value)
                else:
                    kwargs[name] = tuple(value) if isinstance(value, list) else value
            elif not may_be_none:
                raise InvalidCommand(f"{kind}: missing field {name!r}")
        if len(kwargs) + 1 + ("v" in data) != len(data):
            names = {name for name, _, _ in plan}
            unknown = sorted(set(data) - names - {"v", "do"})
            raise InvalidCommand(f"{kind}: unknown field {unknown[0]!r}")
        return cls(**kwargs)


@dataclass(frozen=True, slots=True, kw_only=True)
class OpeningRoll(Event):
    """Each side rolled one die; the higher roller's clock starts."""

    kind: ClassVar[str] = "opening_roll"
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Event):
    """The clock is introduced in the middle of a game; ``side`` is on turn
    and ``cube`` is the cube as it stands (None: centered at 1)."""

    kind: ClassVar[str] = "start"
    optional: ClassVar[frozenset[str]] = frozenset({"cube"})
    side: str
    cube: Cube | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LateStart(Event):
    """The director starts an absent player's clock (late arrival)."""

    kind: ClassVar[str] = "late_start"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit(Event):
    """``side`` hits the clock: its period ends, the opponent's starts."""

    kind: ClassVar[str] = "hit"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Double(Event):
    """``side`` offers the cube and passes the clock."""

    kind: ClassVar[str] = "double"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Take(Event):
    """The doubled side takes and passes the clock back."""

    kind: ClassVar[str] = "take"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Event):
    """The doubled side passes: the game ends."""

    kind: ClassVar[str] = "pass"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(Event):
    """``side`` stops both clocks for ``reason``; the running period is paused.

    Only the server's own stop (a clock brought back after a restart) names
    no side: nobody pressed it.
    """

    kind: ClassVar[str] = "stop"
    optional: ClassVar[frozenset[str]] = frozenset({"side"})
    reason: str
    side: str | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if self.side is None and self.reason not in SERVER_STOP_REASONS:
            raise InvalidCommand("stop: missing field 'side'")


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(Event):
    """The paused clock runs again, or a break ends (no side: the clock that
    ran before the stop is the one that runs)."""

    kind: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True, kw_only=True)
class Concede(Event):
    """``side`` offers to lose ``result``; both clocks stop."""

    kind: ClassVar[str] = "concede"
    side: str
    result: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Event):
    """``side`` claims to win ``result``; both clocks stop."""

    kind: ClassVar[str] = "claim"
    side: str
    result: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Accept(Event):
    """The other side accepts the offer: the game ends with it."""

    kind: ClassVar[str] = "accept"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Reject(Event):
    """The other side rejects the offer: the director is summoned."""

    kind: ClassVar[str] = "reject"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling(Event):
    """The director ends a dispute."""

    kind: ClassVar[str] = "ruling"
    optional: ClassVar[frozenset[str]] = frozenset({"result"})
    decision: str
    result: str | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if self.decision == "gin" and self.result is None:
            raise InvalidCommand("a gin ruling needs the result the opponent cannot avoid")
        if self.decision != "gin" and self.result is not None:
            raise InvalidCommand(f"a ruling of {self.decision!r} takes no result")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(Event):
    """``winner`` bore off; it scores result x cube."""

    kind: ClassVar[str] = "game_over"
    winner: str
    result: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Break(Event):
    """``side`` takes a break between games; both reserves are recorded."""

    kind: ClassVar[str] = "break"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Premature(Event):
    """A confirmed premature action: ``side`` forfeits its next allowance."""

    kind: ClassVar[str] = "premature"
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjust(Event):
    """The director adds (or removes) reserve time."""

    kind: ClassVar[str] = "adjust"
    side: str
    delta_ms: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty(Event):
    """The director awards penalty points to ``side``."""

    kind: ClassVar[str] = "penalty"
    side: str
    points: int


_PLANS: dict[type[Event], tuple[tuple[str, Callable[[str, object], None] | None, bool], ...]] = {}


def _plan(cls: type[Event]) -> tuple[tuple[str, Callable[[str, object], None] | None, bool], ...]:
    """Per event class: (field, its check, may be None), computed once."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple((f.name, _CHECKS.get(f.name), f.name in cls.optional) for f in fields(cls))
        _PLANS[cls] = plan
    return plan


EVENT_TYPES: Final[dict[str, type[Event]]] = {
    cls.kind: cls
    for cls in (
        OpeningRoll, Start, LateStart, Hit, Double, Take, Pass, Stop, Resume, Concede,
        Claim, Accept, Reject, Ruling, GameOver, Break, Premature, Adjust, Penalty,
    )
}
