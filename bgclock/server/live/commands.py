"""The tables' vocabulary: the commands a table decides, declared once.

Every message a table acts on is declared here as a ``msgspec.Struct``: its
fields, their bounds, and that nothing else may be sent
(``forbid_unknown_fields``).  A command (``type: "cmd"``) is a tagged union
on ``do``, one Struct per clock command holding exactly that command's
fields (``HitCmd`` takes ``side``, ``AdjustCmd`` takes ``side`` and
``delta_ms``, ...), so a field of another command is refused as unknown;
beside them, the requests for the table's time (``KeepRequest`` ...), a
summons of the director (``Summon``) and the mark of an alert handled
(``Handle``).  ``bgclock.core`` still checks a command's meaning
(``Event.from_dict``), so the engine's words reach the player.

The tables (``live.hub``, ``live.table_state``) read these; the WebSocket
protocol (``ws.protocol``) decodes them off the wire, beside its own
messages (``hello``, ``ping``, ``sync``), and publishes their JSON Schemas.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Final, Literal, get_args

import msgspec
from msgspec import Meta, Struct

from bgclock.core import DECISIONS, EVENT_TYPES, MAX_CUBE, RESULTS
from bgclock.core._events import STOP_REASONS
from bgclock.server.edge.limits import DAY_MS, MAX_ALERT_KEY, MAX_POINTS
from bgclock.server.edge.schema import MsgId, TableId

#: The protocol's version (every client message's ``v``).
VERSION: Final = 1
MAX_LAG_MS: Final = 60_000
#: A table's time line is bounded: 2^53 ms (exact in every JSON reader).
MAX_TIME_MS: Final = 2**53 - 1
#: A device's short name (hello ``name``), in characters.
MAX_DEVICE_NAME: Final = 40

PLAYER_COMMANDS: Final = frozenset({
    "opening_roll", "hit", "double", "take", "pass", "stop", "resume", "concede", "claim",
    "accept", "reject", "game_over", "break",
})
DIRECTOR_ONLY: Final = frozenset(
    {"ruling", "adjust", "penalty", "premature", "late_start", "start"}
)
DIRECTOR_COMMANDS: Final = PLAYER_COMMANDS | DIRECTOR_ONLY
assert frozenset(EVENT_TYPES) == DIRECTOR_COMMANDS

#: Why a director is summoned: a premature action claimed (USBGF 4.1, BIBA 4.6),
#: a plain call, a dispute.
SUMMON_WHY: Final = ("premature", "director", "dispute")
#: Fields of a command that are the protocol's, not the event's.
ENVELOPE: Final = frozenset({"type", "v", "id", "table", "lag_ms", "device_at_ms", "handles"})


# ------------------------------------------------------------ the vocabulary

Version = Literal[1]
Side = Literal["A", "B"]
Die = Annotated[int, Meta(ge=1, le=6)]
Result = Literal["single", "gammon", "backgammon"]
#: The reasons a device may stop the clocks for (``restart`` is the server's own).
StopReason = Literal["concession", "break", "fallen_dice", "dispute", "director",
                     "dice_not_left", "other"]
Decision = Literal["accept", "invalid", "gin", "lost"]
DeltaMs = Annotated[int, Meta(ge=-DAY_MS, le=DAY_MS, description="at most a day either way")]
Points = Annotated[int, Meta(ge=1, le=MAX_POINTS)]
LagMs = Annotated[int, Meta(ge=0, le=MAX_LAG_MS,
                            description="the one-way delay the device measured (Lag)")]
DeviceAtMs = Annotated[int, Meta(ge=0, le=MAX_TIME_MS,
                                 description="when the device applied it (Device time)")]
SummonWhy = Literal["premature", "director", "dispute"]
DeviceName = Annotated[str, Meta(min_length=1, max_length=MAX_DEVICE_NAME,
                                 pattern=r"^[^\x00-\x1f\x7f]+$",
                                 description="a short, printable name for the device")]

assert set(get_args(Side)) == {"A", "B"}
assert set(get_args(Result)) == set(RESULTS)
assert set(get_args(StopReason)) == STOP_REASONS
assert set(get_args(Decision)) == DECISIONS
assert get_args(SummonWhy) == SUMMON_WHY


class ClientMessage(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
                    tag_field="type"):
    """A client message: tagged on ``type``, of protocol version ``v``."""

    v: Version = VERSION


class KeepRequest(ClientMessage, tag="keep_request", frozen=True):
    """"Ask for the time on this device": the sending table device (which
    said hello with a ``device`` id) asks for the table's time.  Granted at
    once when no device keeps it or the keeper has been silent past the
    bound; otherwise the keeper's screen is asked (``keep_asked``) and
    nothing changes until it answers (table devices only; not a clock event)."""

    id: MsgId | None = None
    table: TableId | None = None


class Keep(ClientMessage, tag="keep", frozen=True):
    """The former name of ``keep_request`` (pages cached before it): read
    as one; it no longer takes the time without the keeper's yes."""

    id: MsgId | None = None
    table: TableId | None = None


class KeepAnswer(ClientMessage, tag="keep_answer", frozen=True):
    """The keeper's screen answers a device's request for the time: ``yes``
    hands the time to ``device``, no leaves it where it is (the keeper only)."""

    #: The asking device's id (``keep_asked.device``).
    device: MsgId
    yes: bool
    id: MsgId | None = None
    table: TableId | None = None


class KeepGive(ClientMessage, tag="keep_give", frozen=True):
    """The director hands the table's time to ``device`` (one that asks for
    it, or is connected to the table) from the dashboard; ``name``: what the
    pages call that device from then on (director only)."""

    device: MsgId
    name: DeviceName | None = None
    id: MsgId | None = None
    table: TableId | None = None


class Summon(ClientMessage, tag="summon", frozen=True):
    """A player (or the director) summons the director: not a clock event."""

    why: SummonWhy
    #: Who summons.
    side: Side
    id: MsgId | None = None
    table: TableId | None = None


#: A dashboard alert's key, ``TABLE:KIND:MARK`` (``17:summon:2``); that it
#: names the message's own table is checked after the decode.
AlertKey = Annotated[str, Meta(max_length=MAX_ALERT_KEY,
                               pattern="^[0-9]{1,19}:[a-z_]{1,24}:[A-Za-z0-9_]{1,24}$",
                               description="TABLE:KIND:MARK, the dashboard's alert")]


class Handle(ClientMessage, tag="handle", frozen=True):
    """The director marks a dashboard alert handled: stored, then shown so
    on every dashboard (director only; not a clock event)."""

    key: AlertKey
    id: MsgId | None = None
    table: TableId | None = None


class Command(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, tag_field="do"):
    """One clock command: the envelope every command shares; each subclass
    adds exactly its event's fields (no ``at_ms``: the server stamps it)."""

    type: Literal["cmd"]
    #: The idempotency key, unique per table and sender.
    id: MsgId
    v: Version = VERSION
    table: TableId | None = None
    lag_ms: LagMs = 0
    #: The instant the device applied the command, on the table's time line
    #: (ms since the table was made): honoured, within bounds, for the table's
    #: time keeper only; every other sender is lag-compensated.
    device_at_ms: DeviceAtMs | None = None
    #: The dashboard alert (its key) this command settles: marked handled,
    #: for every dashboard, in the same commit as the command (director only).
    handles: AlertKey | None = None

    @property
    def do(self) -> str:
        """The command's name (its tag): ``hit``, ``adjust``, ..."""
        return str(self.__struct_config__.tag)

    @property
    def fields(self) -> dict[str, Any]:
        """The event's own fields, as ``Event.from_dict`` reads them (an
        object field, ``start``'s cube, as the object it was sent as)."""
        return {name: msgspec.to_builtins(value) for name in _EVENT_FIELDS[type(self)]
                if (value := getattr(self, name)) is not None}


class OpeningRollCmd(Command, tag="opening_roll", frozen=True):
    dice: tuple[Die, Die]


class StartCube(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
                omit_defaults=True):
    """The cube as it stands when the clock is introduced in a game in
    progress (clock-script ``start``): either field may be left out (value 1,
    centered).  That the value is a power of two, and that a game can show
    that cube, the engine checks (``Event.from_dict``, ``Match``)."""

    value: Annotated[int, Meta(ge=1, le=MAX_CUBE)] = 1
    owner: Side | None = None


class StartCmd(Command, tag="start", frozen=True):
    side: Side
    #: The cube as it stands on the board (absent: centered at 1).
    cube: StartCube | None = None


class LateStartCmd(Command, tag="late_start", frozen=True):
    side: Side


class HitCmd(Command, tag="hit", frozen=True):
    side: Side


class DoubleCmd(Command, tag="double", frozen=True):
    side: Side


class TakeCmd(Command, tag="take", frozen=True):
    side: Side


class PassCmd(Command, tag="pass", frozen=True):
    side: Side


class StopCmd(Command, tag="stop", frozen=True):
    side: Side
    reason: StopReason


class ResumeCmd(Command, tag="resume", frozen=True):
    pass


class ConcedeCmd(Command, tag="concede", frozen=True):
    side: Side
    result: Result


class ClaimCmd(Command, tag="claim", frozen=True):
    side: Side
    result: Result


class AcceptCmd(Command, tag="accept", frozen=True):
    side: Side


class RejectCmd(Command, tag="reject", frozen=True):
    side: Side


class RulingCmd(Command, tag="ruling", frozen=True):
    decision: Decision
    #: Only with a ``gin`` decision: the result the opponent cannot avoid.
    result: Result | None = None


class GameOverCmd(Command, tag="game_over", frozen=True):
    winner: Side
    result: Result


class BreakCmd(Command, tag="break", frozen=True):
    side: Side


class PrematureCmd(Command, tag="premature", frozen=True):
    side: Side


class AdjustCmd(Command, tag="adjust", frozen=True):
    side: Side
    delta_ms: DeltaMs


class PenaltyCmd(Command, tag="penalty", frozen=True):
    side: Side
    points: Points


COMMANDS: Final[tuple[type[Command], ...]] = (
    OpeningRollCmd, StartCmd, LateStartCmd, HitCmd, DoubleCmd, TakeCmd, PassCmd, StopCmd,
    ResumeCmd, ConcedeCmd, ClaimCmd, AcceptCmd, RejectCmd, RulingCmd, GameOverCmd, BreakCmd,
    PrematureCmd, AdjustCmd, PenaltyCmd,
)
_EVENT_FIELDS: Final[dict[type[Command], tuple[str, ...]]] = {
    cls: tuple(f for f in cls.__struct_fields__ if f not in ENVELOPE) for cls in COMMANDS
}
# One Struct per engine event, holding exactly the event's fields but its instant.
assert {str(c.__struct_config__.tag): set(f) for c, f in _EVENT_FIELDS.items()} == {
    kind: {f.name for f in dataclasses.fields(cls) if f.name != "at_ms"}
    for kind, cls in EVENT_TYPES.items()}

#: Any command (``type: "cmd"``), tagged on ``do``.
AnyCommand = (OpeningRollCmd | StartCmd | LateStartCmd | HitCmd | DoubleCmd | TakeCmd | PassCmd
              | StopCmd | ResumeCmd | ConcedeCmd | ClaimCmd | AcceptCmd | RejectCmd | RulingCmd
              | GameOverCmd | BreakCmd | PrematureCmd | AdjustCmd | PenaltyCmd)
#: The messages that move the table's time (docs/protocol.md "The time
#: changes hands only with consent").
KeepMessage = KeepRequest | Keep | KeepAnswer | KeepGive
