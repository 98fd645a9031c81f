"""The WebSocket messages (protocol version 1): decoding, the session's own messages.

Every client message is declared once as a ``msgspec.Struct``: its fields,
their bounds, and that nothing else may be sent (``forbid_unknown_fields``).
The declaration is at once the decoder, the error the client gets (naming
the field: ``cmd.lag_ms: must be at most 60000``) and the JSON Schema served
at ``/protocol/schemas.json`` (``SCHEMAS``).  What a table decides (the
commands, the requests for its time, a summons, an alert handled) is the
tables' vocabulary, declared in ``live.commands``; the session's own
messages (``hello``, ``ping``, ``sync``) are declared here.

Messages are a tagged union on ``type``; a command (``type: "cmd"``) is a
second tagged union on ``do`` (``live.commands.AnyCommand``).

``decode`` turns one text frame into a checked message or raises
``ProtocolError`` with the error code the client gets (docs/protocol.md).
Before anything is parsed, the frame's size and nesting are bounded (msgspec
has no depth limit of its own).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, get_args

import msgspec
import orjson
from msgspec import Meta

from bgclock.server.edge.limits import MAX_DEPTH, MAX_ID, LimitError, check_alert_key, check_depth
from bgclock.server.edge.schema import MsgId, Seq, TableId, explain, standalone
from bgclock.server.live.commands import (
    ENVELOPE,
    VERSION,
    AnyCommand,
    ClientMessage,
    Command,
    Decision,
    DeviceName,
    Handle,
    Keep,
    KeepAnswer,
    KeepGive,
    KeepMessage,
    KeepRequest,
    Result,
    Side,
    StopReason,
    Summon,
    SummonWhy,
)
from bgclock.server.live.refusal import Refused

MAX_MESSAGE_BYTES: Final = 4096
#: Commands a device may say it queued while offline.
MAX_QUEUED: Final = 10_000


class ProtocolError(Exception):
    """A message the server will not act on; ``code`` is the error's code,
    ``field`` (when one field is to blame) names it: ``cmd.lag_ms``."""

    def __init__(self, code: str, message: str, *, msg_id: str | None = None,
                 table: int | None = None, refusal: str | None = None,
                 params: dict[str, Any] | None = None, field: str | None = None,
                 retry_ms: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.table = table
        #: The engine's refusal code (``bgclock.core.REFUSALS``) and its words' parts.
        self.refusal = refusal
        self.params = params
        self.field = field
        #: A refusal of the moment (``rate_limited``): send it again after this.
        self.retry_ms = retry_ms

    @classmethod
    def of(cls, refused: Refused) -> ProtocolError:
        """A table's refusal (live's ``Refused``), as the protocol says it."""
        return cls(refused.code, refused.message, msg_id=refused.msg_id, table=refused.table,
                   refusal=refused.refusal, params=refused.params, field=refused.field,
                   retry_ms=refused.retry_ms)

    def to_message(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "id": self.msg_id, "table": self.table,
                               "code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.retry_ms is not None:
            out["retry_ms"] = self.retry_ms
        if self.refusal is not None:
            out["refusal"] = self.refusal
            out["params"] = self.params or {}
        return out


_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,64}")

Secret = Annotated[str, Meta(max_length=200)]
Queued = Annotated[int, Meta(ge=0, le=MAX_QUEUED)]


class Hello(ClientMessage, tag="hello", frozen=True):
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


class Ping(ClientMessage, tag="ping", frozen=True):
    """Anything in ``t`` comes back in the ``pong`` (the device's clock, usually)."""

    t: Any = None


class Sync(ClientMessage, tag="sync", frozen=True):
    """Ask for a fresh snapshot of the table (the director: every table)."""

    table: TableId | None = None


class _CmdHead(ClientMessage, tag="cmd", frozen=True, forbid_unknown_fields=False):
    """Only routes a command to ``_COMMANDS`` (its fields are read there)."""


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
    invalid = (kind == "cmd" and top not in ENVELOPE) or (kind == "summon"
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


#: The JSON Schema of every client message, by its ``type``, made from the
#: declarations (each self-contained: its own ``$defs``).
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
