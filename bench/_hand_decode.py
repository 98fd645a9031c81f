"""The WebSocket decode as it was before msgspec (by hand: orjson, then each
field checked in Python), kept only so that ``bench/decode.py`` can print its
figure next to today's path.  A copy of ``bgclock/server/_protocol.py`` at
commit 736d008 (``decode`` and its helpers), renamed; not used by the server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import orjson

from bgclock.core import EVENT_TYPES
from bgclock.server.edge.limits import (
    DAY_MS,
    MAX_DEPTH,
    MAX_ID,
    MAX_POINTS,
    LimitError,
    check_depth,
)
from bgclock.server.live.commands import MAX_LAG_MS, MAX_TIME_MS, SUMMON_WHY, VERSION
from bgclock.server.ws.protocol import MAX_MESSAGE_BYTES, MAX_QUEUED, ProtocolError

_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_ENVELOPE: Final = frozenset({"type", "v", "id", "table", "lag_ms", "device_at_ms"})


@dataclass(frozen=True, slots=True)
class HandHello:
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
class HandCommand:
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


@dataclass(frozen=True, slots=True)
class HandSummon:
    """A player (or the director) summons the director: not a clock event."""

    id: str | None
    table: int | None
    why: str
    side: str


@dataclass(frozen=True, slots=True)
class HandPing:
    t: Any


@dataclass(frozen=True, slots=True)
class HandSync:
    table: int | None


HandMessage = HandHello | HandCommand | HandSummon | HandPing | HandSync


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


def hand_decode(text: str | bytes | None) -> HandMessage:
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
        return HandPing(data.get("t"))
    if kind == "sync":
        _check_keys(data, {"type", "v", "table"}, "sync")
        return HandSync(_table_field(data))
    if kind == "summon":
        return _summon(data)
    if kind == "hello":
        return _hello(data)
    raise ProtocolError("bad_message", f"unknown message type {kind!r}")


def _hello(data: dict[str, Any]) -> HandHello:
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
    return HandHello(token, key, last_seq, since, device, int(queued))


def _summon(data: dict[str, Any]) -> HandSummon:
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
    return HandSummon(msg_id, table, str(why), str(side))


def _command(data: dict[str, Any]) -> HandCommand:
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
    fields = {k: v for k, v in data.items() if k not in _ENVELOPE}
    if fields.get("reason") == "restart":
        raise ProtocolError("invalid", "only the server stops a clock for a restart",
                            msg_id=msg_id, table=table)
    for name, (low, high) in _FIELD_BOUNDS.items():
        value = fields.get(name)
        if _is_int(value) and not low <= value <= high:
            raise ProtocolError("invalid", f"cmd: {name} must be within {low}..{high}",
                                msg_id=msg_id, table=table)
    fields.pop("device_at_ms", None)
    return HandCommand(msg_id, table, do, int(lag), fields, device_at)


#: Bounds of a command's integer fields (``core`` checks their meaning; these
#: keep a number such as 2**64-1 from ever reaching the engine or the store).
_FIELD_BOUNDS: Final = {"delta_ms": (-DAY_MS, DAY_MS), "points": (1, MAX_POINTS)}
