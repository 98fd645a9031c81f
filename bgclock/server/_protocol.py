"""The WebSocket messages (protocol version 1): validation and roles.

``decode`` turns one text frame into a checked message or raises
``ProtocolError`` with the error code the client gets (docs/protocol.md).  The
command's clock fields are checked later by ``bgclock.core`` itself
(``Event.from_dict``), so the engine's words reach the player.  ``SCHEMAS`` is
the JSON Schema of every client message, served at ``/protocol/schemas.json``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import orjson

from bgclock.core import EVENT_TYPES, ClockError

from ._limits import (
    DAY_MS,
    MAX_ALERT_KEY,
    MAX_DEPTH,
    MAX_ID,
    MAX_POINTS,
    LimitError,
    check_alert_key,
    check_depth,
)

VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 4096
MAX_LAG_MS: Final = 60_000
#: A table's time line is bounded: 2^53 ms (exact in every JSON reader).
MAX_TIME_MS: Final = 2**53 - 1
#: Commands a device may say it queued while offline.
MAX_QUEUED: Final = 10_000

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


class ProtocolError(Exception):
    """A message the server will not act on; ``code`` is the error's code."""

    def __init__(self, code: str, message: str, *, msg_id: str | None = None,
                 table: int | None = None, refusal: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.table = table
        #: The engine's refusal code (``bgclock.core.REFUSALS``) and its words' parts.
        self.refusal = refusal
        self.params = params

    @classmethod
    def from_clock_error(cls, code: str, exc: ClockError) -> ProtocolError:
        """The engine's refusal, with its stable code for the pages' catalogue."""
        params = {k: v for k, v in exc.params.items()
                  if isinstance(v, str | int) and not isinstance(v, bool)}
        return cls(code, str(exc), refusal=exc.code, params=params)

    def to_message(self) -> dict[str, Any]:
        out = {"type": "error", "id": self.msg_id, "table": self.table, "code": self.code,
               "message": self.message}
        if self.refusal is not None:
            out["refusal"] = self.refusal
            out["params"] = self.params or {}
        return out


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None
    key: str | None
    last_seq: int | None
    since: dict[int, int]
    #: The table device's own id (kept by the page): the first device of a
    #: table keeps its time (see ``device_at_ms``).
    device: str | None = None
    #: How many queued commands the device resends right after this hello.
    queued: int = 0


@dataclass(frozen=True, slots=True)
class Command:
    id: str
    table: int | None
    do: str
    lag_ms: int
    #: The event's own fields (no ``at_ms``: the server stamps it).
    fields: dict[str, Any]
    #: The instant the device applied the command, on the table's time line
    #: (ms since the table was made): honoured, within bounds, for the table's
    #: time keeper only; every other sender is lag-compensated.
    device_at_ms: int | None = None
    #: The dashboard alert (its key) this command settles: marked handled,
    #: for every dashboard, in the same commit as the command (director only).
    handles: str | None = None


@dataclass(frozen=True, slots=True)
class Summon:
    """A player (or the director) summons the director: not a clock event."""

    id: str | None
    table: int | None
    why: str
    side: str


@dataclass(frozen=True, slots=True)
class Handle:
    """The director marks a dashboard alert handled: stored, then shown so
    on every dashboard (director only; not a clock event)."""

    id: str | None
    table: int | None
    key: str


@dataclass(frozen=True, slots=True)
class Ping:
    t: Any


@dataclass(frozen=True, slots=True)
class Sync:
    table: int | None


Message = Hello | Command | Summon | Handle | Ping | Sync


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _table_field(data: dict[str, Any], msg_id: str | None = None) -> int | None:
    table = data.get("table")
    if table is None:
        return None
    if not _is_int(table) or not 1 <= table <= MAX_ID:
        raise ProtocolError("bad_message", "table must be a table number", msg_id=msg_id)
    return int(table)


def _check_keys(data: dict[str, Any], allowed: set[str], kind: str) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise ProtocolError("bad_message", f"{kind}: unknown field {sorted(unknown)[0]!r}")


def decode(text: str | bytes | None) -> Message:
    """Check one frame; raise ``ProtocolError`` with the code to answer."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages are JSON text frames")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may have at most {MAX_MESSAGE_BYTES} bytes")
    try:
        check_depth(text)
    except LimitError:
        raise ProtocolError("too_deep",
                            f"a message may nest at most {MAX_DEPTH} levels deep") from None
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):  # orjson.JSONDecodeError is a ValueError
        raise ProtocolError("bad_message", "a message must be valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    if data.get("v", VERSION) != VERSION:
        raise ProtocolError("bad_message", f"this server speaks protocol version {VERSION}")
    kind = data.get("type")
    if kind == "cmd":
        return _command(data)
    if kind == "ping":
        _check_keys(data, {"type", "v", "t"}, "ping")
        return Ping(data.get("t"))
    if kind == "sync":
        _check_keys(data, {"type", "v", "table"}, "sync")
        return Sync(_table_field(data))
    if kind == "summon":
        return _summon(data)
    if kind == "handle":
        return _handle(data)
    if kind == "hello":
        return _hello(data)
    raise ProtocolError("bad_message", f"unknown message type {kind!r}")


def _hello(data: dict[str, Any]) -> Hello:
    _check_keys(data, {"type", "v", "token", "key", "last_seq", "since", "device", "queued"},
                "hello")
    token, key = data.get("token"), data.get("key")
    for name, value in (("token", token), ("key", key)):
        if value is not None and (not isinstance(value, str) or len(value) > 200):
            raise ProtocolError("bad_message", f"hello: {name} must be a string")
    last_seq = data.get("last_seq")
    if last_seq is not None and (not _is_int(last_seq) or not 0 <= last_seq <= MAX_ID):
        raise ProtocolError("bad_message", "hello: last_seq must be a whole number >= 0")
    since_raw = data.get("since", {})
    if not isinstance(since_raw, dict):
        raise ProtocolError("bad_message", "hello: since must map table numbers to seqs")
    since: dict[int, int] = {}
    for k, v in since_raw.items():
        if (not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 19)
                or not _is_int(v) or not 0 <= v <= MAX_ID):
            raise ProtocolError("bad_message", "hello: since must map table numbers to seqs")
        since[int(k)] = v
    device = data.get("device")
    if device is not None and (not isinstance(device, str) or not _ID.fullmatch(device)):
        raise ProtocolError("bad_message",
                            "hello: device must be 1-64 characters from A-Z a-z 0-9 . _ : -")
    queued = data.get("queued", 0)
    if not _is_int(queued) or not 0 <= queued <= MAX_QUEUED:
        raise ProtocolError("bad_message", f"hello: queued must be a whole number 0-{MAX_QUEUED}")
    return Hello(token, key, last_seq, since, device, int(queued))


def _summon(data: dict[str, Any]) -> Summon:
    _check_keys(data, {"type", "v", "id", "table", "why", "side"}, "summon")
    msg_id = data.get("id")
    if msg_id is not None and (not isinstance(msg_id, str) or not _ID.fullmatch(msg_id)):
        raise ProtocolError("bad_message",
                            "summon: id must be 1-64 characters from A-Z a-z 0-9 . _ : -")
    table = _table_field(data, msg_id)
    why, side = data.get("why"), data.get("side")
    if why not in SUMMON_WHY:
        raise ProtocolError("invalid", f"summon: why must be one of {', '.join(SUMMON_WHY)}",
                            msg_id=msg_id, table=table)
    if side not in ("A", "B"):
        raise ProtocolError("invalid", "summon: side must be A or B (who summons)",
                            msg_id=msg_id, table=table)
    return Summon(msg_id, table, str(why), str(side))


def _handle(data: dict[str, Any]) -> Handle:
    _check_keys(data, {"type", "v", "id", "table", "key"}, "handle")
    msg_id = data.get("id")
    if msg_id is not None and (not isinstance(msg_id, str) or not _ID.fullmatch(msg_id)):
        raise ProtocolError("bad_message",
                            "handle: id must be 1-64 characters from A-Z a-z 0-9 . _ : -")
    table = _table_field(data, msg_id)
    try:
        key = check_alert_key("key", data.get("key"), table)
    except LimitError as exc:
        raise ProtocolError("invalid", f"handle: {exc}", msg_id=msg_id, table=table) from None
    return Handle(msg_id, table, key)


def _command(data: dict[str, Any]) -> Command:
    msg_id = data.get("id")
    if not isinstance(msg_id, str) or not _ID.fullmatch(msg_id):
        raise ProtocolError("bad_message",
                            "cmd: id must be 1-64 characters from A-Z a-z 0-9 . _ : -")
    table = _table_field(data, msg_id)
    do = data.get("do")
    if not isinstance(do, str) or do not in EVENT_TYPES:
        raise ProtocolError("invalid", f"unknown command {do!r}", msg_id=msg_id, table=table)
    lag = data.get("lag_ms", 0)
    if not _is_int(lag) or not 0 <= lag <= MAX_LAG_MS:
        raise ProtocolError("bad_message", f"cmd: lag_ms must be a whole number 0-{MAX_LAG_MS}",
                            msg_id=msg_id, table=table)
    device_at = data.get("device_at_ms")
    if device_at is not None and (not _is_int(device_at) or not 0 <= device_at <= MAX_TIME_MS):
        raise ProtocolError("bad_message",
                            f"cmd: device_at_ms must be a whole number 0-{MAX_TIME_MS}",
                            msg_id=msg_id, table=table)
    if "at_ms" in data:
        raise ProtocolError("invalid", "the server stamps the instant: do not send at_ms",
                            msg_id=msg_id, table=table)
    handles = data.get("handles")
    if handles is not None:
        try:
            check_alert_key("handles", handles, table)
        except LimitError as exc:
            raise ProtocolError("invalid", f"cmd: {exc}", msg_id=msg_id, table=table) from None
    fields = {k: v for k, v in data.items() if k not in _ENVELOPE}
    if fields.get("reason") == "restart":
        raise ProtocolError("invalid", "only the server stops a clock for a restart",
                            msg_id=msg_id, table=table)
    for name, (low, high) in _FIELD_BOUNDS.items():
        value = fields.get(name)
        if _is_int(value) and not low <= value <= high:
            raise ProtocolError("invalid", f"cmd: {name} must be within {low}..{high}",
                                msg_id=msg_id, table=table)
    return Command(msg_id, table, do, int(lag), fields, device_at, handles)


#: Bounds of a command's integer fields (``core`` checks their meaning; these
#: keep a number such as 2**64-1 from ever reaching the engine or the store).
_FIELD_BOUNDS: Final = {"delta_ms": (-DAY_MS, DAY_MS), "points": (1, MAX_POINTS)}


def dumps(message: dict[str, Any]) -> str:
    """The compact JSON form every server message is sent in (UTF-8, not
    ``\\u`` escapes; orjson: a tenth of the standard library's time, and a
    state is encoded once per update whatever the number of watchers)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


_V = {"const": VERSION}
_TABLE = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
_SIDE = {"enum": ["A", "B"]}
_ALERT = {"type": "string", "maxLength": MAX_ALERT_KEY,
          "pattern": "^[0-9]{1,19}:[a-z_]{1,24}:[A-Za-z0-9_]{1,24}$"}

SCHEMAS: Final[dict[str, Any]] = {
    "hello": {
        "type": "object", "required": ["type"], "additionalProperties": False,
        "properties": {
            "type": {"const": "hello"}, "v": _V,
            "token": {"type": "string", "maxLength": 200},
            "key": {"type": "string", "maxLength": 200},
            "last_seq": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
            "since": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                      "additionalProperties": {"type": "integer", "minimum": 0,
                                                "maximum": MAX_ID}},
            "device": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"},
            "queued": {"type": "integer", "minimum": 0, "maximum": MAX_QUEUED},
        },
    },
    "cmd": {
        "type": "object", "required": ["type", "id", "do"], "not": {"required": ["at_ms"]},
        "properties": {
            "type": {"const": "cmd"}, "v": _V,
            "id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"},
            "table": _TABLE,
            "do": {"enum": sorted(EVENT_TYPES)},
            "lag_ms": {"type": "integer", "minimum": 0, "maximum": MAX_LAG_MS},
            "device_at_ms": {"type": "integer", "minimum": 0, "maximum": MAX_TIME_MS},
            "handles": _ALERT,
            "side": _SIDE, "winner": _SIDE,
            "dice": {"type": "array", "minItems": 2, "maxItems": 2,
                     "items": {"type": "integer", "minimum": 1, "maximum": 6}},
            "result": {"enum": ["single", "gammon", "backgammon"]},
            "reason": {"enum": ["concession", "break", "fallen_dice", "dispute", "director",
                                "dice_not_left", "other"]},
            "decision": {"enum": ["accept", "invalid", "gin", "lost"]},
            "delta_ms": {"type": "integer", "minimum": -DAY_MS, "maximum": DAY_MS},
            "points": {"type": "integer", "minimum": 1, "maximum": MAX_POINTS},
        },
    },
    "summon": {
        "type": "object", "required": ["type", "why", "side"], "additionalProperties": False,
        "properties": {
            "type": {"const": "summon"}, "v": _V,
            "id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"},
            "table": _TABLE,
            "why": {"enum": list(SUMMON_WHY)},
            "side": _SIDE,
        },
    },
    "handle": {
        "type": "object", "required": ["type", "table", "key"], "additionalProperties": False,
        "properties": {
            "type": {"const": "handle"}, "v": _V,
            "id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"},
            "table": _TABLE,
            "key": _ALERT,
        },
    },
    "ping": {"type": "object", "required": ["type"], "additionalProperties": False,
             "properties": {"type": {"const": "ping"}, "v": _V, "t": {}}},
    "sync": {"type": "object", "required": ["type"], "additionalProperties": False,
             "properties": {"type": {"const": "sync"}, "v": _V, "table": _TABLE}},
}
