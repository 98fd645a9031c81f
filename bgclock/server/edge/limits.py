"""Bounds every input is held to before it reaches ``core`` or the store.

Checked at the edge so that a number or a name the store cannot hold (a
length of 2**31, an id past 63 bits, a NUL in a name) is refused with the
field named instead of failing deep down, and so that a message nested
thousands deep is refused before a parser recurses into it.

The numbers here are the bounds; the declarations of every input
(``ws.protocol``, ``edge.bodies``, in msgspec) hold each field to them, names
included (printable: no NUL or other control characters, no lone
surrogates, ``edge.schema.PRINTABLE``).  What a declaration cannot say lives
here: the depth pre-scan, ids from URL paths, the bounded body read.
"""

from __future__ import annotations

import re
from typing import Any, Final

from bgclock.server.errors import BodyTooLarge

#: A day in milliseconds: the most any time field may say (deltas, reserves, overrides).
DAY_MS: Final = 86_400_000
#: The longest match a table may be set to.
MAX_LENGTH: Final = 64
#: Points a score or a penalty may reach: the match length and a margin.
MAX_POINTS: Final = MAX_LENGTH + 64
#: Ids (tournaments, tables, seqs) fit a signed 64-bit integer.
MAX_ID: Final = 2**63 - 1
#: How deeply a JSON message or body may nest arrays and objects.
MAX_DEPTH: Final = 8
#: Characters in a name (tournament, table, player).
MAX_NAME: Final = 200
#: Characters in a dashboard alert's key (``TABLE:KIND:MARK``).
MAX_ALERT_KEY: Final = 80
_ALERT_KEY: Final = re.compile(r"([0-9]{1,19}):[a-z_]{1,24}:[A-Za-z0-9_]{1,24}")

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_STRINGS: Final = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS: Final = re.compile(rb"[\[\]{}]")


class LimitError(ValueError):
    """An input past a bound; ``field`` names where (``body.name``, ``t``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def check_depth(raw: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON text nested deeper than ``limit`` without parsing it.

    Strings are blanked first (a bracket inside a string is not nesting); the
    scan is iterative, so 100,000 levels cost a pass, not a recursion."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= limit:
        return  # cannot nest deeper than it has openers (the common case: no scan)
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b'""', data)):
        if bracket in b"[{":
            depth += 1
            if depth > limit:
                raise LimitError("message", f"nested more than {limit} levels deep")
        else:
            depth -= 1


def check_name(field: str, value: Any, *, limit: int = MAX_NAME, empty: bool = True) -> str:
    """A printable name: a string of at most ``limit`` characters, no NUL or
    other control characters, no lone surrogates."""
    if not isinstance(value, str):
        raise LimitError(field, "must be a string")
    if not empty and not value:
        raise LimitError(field, "must not be empty")
    if len(value) > limit:
        raise LimitError(field, f"must have at most {limit} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise LimitError(field, "must not hold NUL or other control characters")
    if _SURROGATE.search(value):
        raise LimitError(field, "must be valid Unicode (no lone surrogates)")
    return value


def check_id(field: str, raw: str) -> int:
    """An id from a URL path: digits that fit 63 bits (else ``LimitError``)."""
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19 or int(raw) > MAX_ID:
        raise LimitError(field, f"must be a whole number 0..{MAX_ID}")
    return int(raw)


def check_alert_key(field: str, value: Any, table: int | None) -> str:
    """A dashboard alert's key, ``TABLE:KIND:MARK`` (``17:summon:2``,
    ``17:flag:41``, ``17:overtime:A``), naming ``table`` when it is given."""
    if not isinstance(value, str):
        raise LimitError(field, "must be a string")
    if len(value) > MAX_ALERT_KEY:
        raise LimitError(field, f"must have at most {MAX_ALERT_KEY} characters")
    found = _ALERT_KEY.fullmatch(value)
    if found is None:
        raise LimitError(field, "must be TABLE:KIND:MARK (digits : a-z _ : A-Z a-z 0-9 _)")
    if table is not None and int(found.group(1)) != table:
        raise LimitError(field, f"must name table {table}, not {int(found.group(1))}")
    return value


async def read_bounded(request: Any, limit: int) -> bytes:
    """A request's body, refused (``BodyTooLarge``) as soon as its declared
    Content-Length or the bytes streamed so far pass ``limit``."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BodyTooLarge(f"the body may have at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"the body may have at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
