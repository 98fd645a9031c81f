"""The WebSocket messages (protocol version 1): declarations, decoding, roles.

Every client message is declared once below as a ``msgspec.Struct``: its
fields, their bounds, and that nothing else may be sent
(``forbid_unknown_fields``).  The declaration is at once the decoder, the
error the client gets (naming the field: ``cmd.lag_ms: must be at most
60000``) and the JSON Schema served at ``/protocol/schemas.json`` (``SCHEMAS``).

Messages are a tagged union on ``type``; a command (``type: "cmd"``) is a
second tagged union on ``do``, one Struct per clock command holding exactly
that command's fields (``HitCmd`` takes ``side``, ``AdjustCmd`` takes ``side``
and ``delta_ms``, ...), so a field of another command is refused as unknown.
``bgclock.core`` still checks the command's meaning (``Event.from_dict``), so
the engine's words reach the player.

``decode`` turns one text frame into a checked message or raises
``ProtocolError`` with the error code the client gets (docs/protocol.md).
Before anything is parsed, the frame's size and nesting are bounded (msgspec
has no depth limit of its own).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated, Any, Final, Literal, get_args

import msgspec
import orjson
from msgspec import Meta, Struct

from bgclock.core import DECISIONS, EVENT_TYPES, MAX_CUBE, RESULTS
from bgclock.core._events import STOP_REASONS
from bgclock.server.edge.limits import (
    DAY_MS,
    MAX_ALERT_KEY,
    MAX_DEPTH,
    MAX_ID,
    MAX_POINTS,
    LimitError,
    check_alert_key,
    check_depth,
)
from bgclock.server.edge.schema import MsgId, Seq, TableId, explain, standalone
from bgclock.server.errors import ProtocolError

VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 4096
MAX_LAG_MS: Final = 60_000
#: A table's time line is bounded: 2^53 ms (exact in every JSON reader).
MAX_TIME_MS: Final = 2**53 - 1
#: Commands a device may say it queued while offline.
MAX_QUEUED: Final = 10_000
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
_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: Fields of a command that are the protocol's, not the event's.
_ENVELOPE: Final = frozenset({"type", "v", "id", "table", "lag_ms", "device_at_ms", "handles"})


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
Secret = Annotated[str, Meta(max_length=200)]
Queued = Annotated[int, Meta(ge=0, le=MAX_QUEUED)]
SummonWhy = Literal["premature", "director", "dispute"]
DeviceName = Annotated[str, Meta(min_length=1, max_length=MAX_DEVICE_NAME,
                                 pattern=r"^[^\x00-\x1f\x7f]+$",
                                 description="a short, printable name for the device")]

assert set(get_args(Side)) == {"A", "B"}
assert set(get_args(Result)) == set(RESULTS)
assert set(get_args(StopReason)) == STOP_REASONS
assert set(get_args(Decision)) == DECISIONS
assert get_args(SummonWhy) == SUMMON_WHY


class _Message(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
               tag_field="type"):
    v: Version = VERSION


class Hello(_Message, tag="hello", frozen=True):
    """The first message: a table device's ``token`` or the director's ``key`` (or
    neither: the director's session cookie on the handshake, ``edge.principal``)."""

    token: Secret | None = None
    key: Secret | None = None
    #: A table device's last seq seen.
    last_seq: Seq | None = None
    #: The director's last seq seen, per table.
    since: dict[Seq, Seq] = {}
    #: The table device's own id (kept by the page): the device that makes
    #: the table's first roll or press claims its time (see ``KeepRequest``).
    device: MsgId | None = None
    #: A short name for the device, shown to the director and the table's
    #: other devices when it keeps the time ("Tavolo 3").
    name: DeviceName | None = None
    #: How many queued commands the device resends right after this hello.
    queued: Queued = 0
    #: The client reads ``batch`` frames: what one commit sends it (a
    #: press's update and ack, a dashboard's updates) comes as one frame.
    batch: bool = False


class KeepRequest(_Message, tag="keep_request", frozen=True):
    """"Ask for the time on this device": the sending table device (which
    said hello with a ``device`` id) asks for the table's time.  Granted at
    once when no device keeps it or the keeper has been silent past the
    bound; otherwise the keeper's screen is asked (``keep_asked``) and
    nothing changes until it answers (table devices only; not a clock event)."""

    id: MsgId | None = None
    table: TableId | None = None


class Keep(_Message, tag="keep", frozen=True):
    """The former name of ``keep_request`` (pages cached before it): read
    as one; it no longer takes the time without the keeper's yes."""

    id: MsgId | None = None
    table: TableId | None = None


class KeepAnswer(_Message, tag="keep_answer", frozen=True):
    """The keeper's screen answers a device's request for the time: ``yes``
    hands the time to ``device``, no leaves it where it is (the keeper only)."""

    #: The asking device's id (``keep_asked.device``).
    device: MsgId
    yes: bool
    id: MsgId | None = None
    table: TableId | None = None


class KeepGive(_Message, tag="keep_give", frozen=True):
    """The director hands the table's time to ``device`` (one that asks for
    it, or is connected to the table) from the dashboard; ``name``: what the
    pages call that device from then on (director only)."""

    device: MsgId
    name: DeviceName | None = None
    id: MsgId | None = None
    table: TableId | None = None


class Summon(_Message, tag="summon", frozen=True):
    """A player (or the director) summons the director: not a clock event."""

    why: SummonWhy
    #: Who summons.
    side: Side
    id: MsgId | None = None
    table: TableId | None = None


class Ping(_Message, tag="ping", frozen=True):
    """Anything in ``t`` comes back in the ``pong`` (the device's clock, usually)."""

    t: Any = None


#: A dashboard alert's key, ``TABLE:KIND:MARK`` (``17:summon:2``); that it
#: names the message's own table is checked after the decode.
AlertKey = Annotated[str, Meta(max_length=MAX_ALERT_KEY,
                               pattern="^[0-9]{1,19}:[a-z_]{1,24}:[A-Za-z0-9_]{1,24}$",
                               description="TABLE:KIND:MARK, the dashboard's alert")]


class Handle(_Message, tag="handle", frozen=True):
    """The director marks a dashboard alert handled: stored, then shown so
    on every dashboard (director only; not a clock event)."""

    key: AlertKey
    id: MsgId | None = None
    table: TableId | None = None


class Sync(_Message, tag="sync", frozen=True):
    """Ask for a fresh snapshot of the table (the director: every table)."""

    table: TableId | None = None


class _CmdHead(_Message, tag="cmd", frozen=True, forbid_unknown_fields=False):
    """Only routes a command to ``_COMMANDS`` (its fields are read there)."""


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
    cls: tuple(f for f in cls.__struct_fields__ if f not in _ENVELOPE) for cls in COMMANDS
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
Message = Hello | Command | Summon | Handle | Ping | Sync | KeepMessage

_MESSAGES: Final = msgspec.json.Decoder(Hello | Summon | Handle | Ping | Sync | KeepRequest | Keep
                                        | KeepAnswer | KeepGive | _CmdHead)
_COMMANDS: Final = msgspec.json.Decoder(AnyCommand)
#: How our own clients open a command: read at once as one (a single parse).
_CMD_OPENINGS: Final = ('{"type":"cmd"', '{"type": "cmd"')
#: The allowed values of the enumerated fields, named in the errors.
_CHOICES: Final = {"side": get_args(Side), "winner": get_args(Side), "result": get_args(Result),
                   "reason": get_args(StopReason), "decision": get_args(Decision),
                   "why": get_args(SummonWhy)}
_KINDS: Final = {"hello": Hello, "cmd": Command, "summon": Summon, "handle": Handle,
                  "ping": Ping, "sync": Sync, "keep": Keep, "keep_request": KeepRequest,
                  "keep_answer": KeepAnswer, "keep_give": KeepGive}


def decode(text: str | bytes | None) -> Message:
    """Check one frame; raise ``ProtocolError`` with the code to answer."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages are JSON text frames")
    if len(text) > MAX_MESSAGE_BYTES // 4 and (
            len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES):
        raise ProtocolError("too_large", f"a message may have at most {MAX_MESSAGE_BYTES} bytes")
    try:
        check_depth(text)
    except LimitError:
        raise ProtocolError("too_deep",
                            f"a message may nest at most {MAX_DEPTH} levels deep") from None
    try:
        if text.startswith(_CMD_OPENINGS):
            message: Message = _COMMANDS.decode(text)
        else:
            head = _MESSAGES.decode(text)
            message = _COMMANDS.decode(text) if isinstance(head, _CmdHead) else head
    except msgspec.ValidationError as exc:
        raise _refusal(text, exc) from None
    except msgspec.DecodeError:
        raise ProtocolError("bad_message", "a message must be valid JSON") from None
    # what a declaration cannot say: an alert's key names the message's table
    if isinstance(message, Handle) or (isinstance(message, Command)
                                       and message.handles is not None):
        name = "key" if isinstance(message, Handle) else "handles"
        kind = "handle" if isinstance(message, Handle) else "cmd"
        try:
            check_alert_key(name, getattr(message, name), message.table)
        except LimitError as exc:
            raise ProtocolError("invalid", f"{kind}.{exc}", msg_id=message.id,
                                table=message.table, field=f"{kind}.{name}") from None
    return message


def _refusal(text: str, exc: msgspec.ValidationError) -> ProtocolError:
    """The error for a message that breaks its declaration (a rare path: the
    frame is read again for its ``type``, ``id`` and ``table``)."""
    try:
        data = orjson.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if kind not in _KINDS:
        return ProtocolError("bad_message", f"unknown message type {kind!r}", field="type")
    msg_id = data.get("id") if isinstance(data.get("id"), str) else None
    if msg_id is not None and not _ID.fullmatch(msg_id):
        msg_id = None
    table = data.get("table")
    if not (isinstance(table, int) and not isinstance(table, bool) and 1 <= table <= MAX_ID):
        table = None
    path, words = explain(exc, _CHOICES)
    top = re.split(r"[.\[]", path, maxsplit=1)[0]
    field = f"{kind}.{path}" if path else str(kind)
    # A command's event fields and a summons' reasons are the player's to get
    # right ("invalid"); the envelope is the client program's ("bad_message").
    alert = (kind == "handle" and top == "key") or (kind == "cmd" and top == "handles")
    invalid = (kind == "cmd" and top not in _ENVELOPE) or (kind == "summon"
                                                         and top in ("why", "side")) or alert
    code = "invalid" if invalid else "bad_message"
    if alert:
        # the key's own words (what the pattern means), as the check says them
        try:
            check_alert_key(top, data.get(top), None)
        except LimitError as exc:
            words = str(exc).split(": ", 1)[1]
    if top == "v":
        words = f"this server speaks protocol version {VERSION}"
    elif kind == "cmd" and top == "do":
        words = f"unknown command {data.get('do')!r}"
    elif kind == "cmd" and top == "at_ms":
        words = "the server stamps the instant: do not send at_ms"
    elif kind == "cmd" and top == "reason" and data.get("reason") == "restart":
        words = "only the server stops a clock for a restart"
    return ProtocolError(code, f"{field}: {words}", msg_id=msg_id, table=table, field=field)


def dumps(message: dict[str, Any]) -> str:
    """The compact JSON form every server message is sent in (UTF-8, not
    ``\\u`` escapes; orjson: a tenth of the standard library's time, and a
    state is encoded once per update whatever the number of watchers)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


#: The JSON Schema of every client message, by its ``type``, made from the
#: declarations above (each self-contained: its own ``$defs``).
SCHEMAS: Final[dict[str, Any]] = {
    "hello": standalone(Hello),
    "cmd": standalone(AnyCommand),
    "summon": standalone(Summon),
    "ping": standalone(Ping),
    "handle": standalone(Handle),
    "sync": standalone(Sync),
    "keep": standalone(Keep),
    "keep_request": standalone(KeepRequest),
    "keep_answer": standalone(KeepAnswer),
    "keep_give": standalone(KeepGive),
}
