"""The vocabulary every input is declared in, and msgspec's errors in words.

Each WebSocket message (``ws.protocol``) and each HTTP body (``edge.bodies``) is a
``msgspec.Struct`` declared once: the declaration is the decoder (bounds and
all), the error (with the path of the field) and the JSON Schema
(``components``).  What a declaration cannot say is checked before or after
it: the size and the depth pre-scan (``edge.limits.check_depth``) before any
parse, since msgspec has no depth limit of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Annotated, Any, Final, TypeVar

import msgspec
from msgspec import Meta

from bgclock.server.edge.limits import MAX_ID, MAX_NAME

T = TypeVar("T")

#: No control characters (NUL included) and no lone surrogates: the pattern is
#: a Python ``re`` pattern (msgspec uses ``re``), so a string carrying a lone
#: surrogate (which only the standard library's reader lets through) fails it.
PRINTABLE: Final = "^[^\\x00-\\x1f\\x7f\\ud800-\\udfff]*$"
#: A message's or a device's id: the idempotency key's form.
ID_PATTERN: Final = "^[A-Za-z0-9._:-]{1,64}$"

MsgId = Annotated[str, Meta(pattern=ID_PATTERN,
                            description="1-64 characters from A-Z a-z 0-9 . _ : -")]
TableId = Annotated[int, Meta(ge=1, le=MAX_ID, description="a table's number")]
Seq = Annotated[int, Meta(ge=0, le=MAX_ID)]


#: Names (tournament, table, player, rules preset): printable text, bounded.
TournamentName = Annotated[str, Meta(min_length=1, max_length=MAX_NAME, pattern=PRINTABLE)]
TableName = Annotated[str, Meta(max_length=100, pattern=PRINTABLE)]
PlayerName = Annotated[str, Meta(min_length=1, max_length=100, pattern=PRINTABLE)]


#: msgspec's words for a failed constraint, and ours (``{0}``: its number).
_WORDS: Final = [
    (re.compile(r"Expected `int` >= (-?\d+)"), "must be at least {0}"),
    (re.compile(r"Expected `int` <= (-?\d+)"), "must be at most {0}"),
    (re.compile(r"Expected `str` of length <= (\d+)"), "must have at most {0} characters"),
    (re.compile(r"Expected `str` of length >= 1"), "must not be empty"),
    (re.compile(r"Expected `str` matching regex '\^\[A-Za-z"),
     "must be 1-64 characters from A-Z a-z 0-9 . _ : -"),
    (re.compile(r"Expected `str` matching regex '\^\[\^"),
     "must be printable: no NUL or other control characters, no lone surrogates"),
    (re.compile(r"Expected `array` of length (.*)"), "must have {0} items"),
    (re.compile(r"Expected `int(?: \| null)?`, got `(\w+)`"), "must be a whole number, not {0}"),
    (re.compile(r"Expected `str(?: \| null)?`, got `(\w+)`"), "must be a string, not {0}"),
    (re.compile(r"Expected `bool`, got `(\w+)`"), "must be true or false, not {0}"),
    (re.compile(r"Expected `(array|object)`, got `(\w+)`"), "must be an {0}, not {1}"),
    (re.compile(r"Invalid enum value (.*)"), "{0} is not one of the allowed values"),
    (re.compile(r"Object contains unknown field"), "unknown field"),
    (re.compile(r"Object missing required field"), "missing field"),
]
_AT: Final = re.compile(r" - at `([^`]*)`(?: in `([^`]*)`)?$")
_NAMED: Final = re.compile(r"(?:unknown|missing required) field `([^`]*)`")


def explain(exc: msgspec.ValidationError,
            choices: dict[str, tuple[Any, ...]] | None = None) -> tuple[str, str]:
    """``(path, words)`` of a validation error: ``("score[0]", "must be at
    most 128")``; the path is "" for the whole input (msgspec's ``$``).
    ``choices``: the allowed values of enumerated fields, by the field's last
    name, so that a wrong one is answered with the right ones."""
    text = str(exc)
    path = ""
    at = _AT.search(text)
    if at is not None:
        text = text[:at.start()]
        path = (at.group(2) or at.group(1))[1:].lstrip(".")  # "$.a.b" -> "a.b"
    named = _NAMED.search(text)
    if named is not None:
        path = f"{path}.{named.group(1)}" if path else named.group(1)
    last = re.split(r"[.\[]", path)[-1]
    if choices and last in choices and text.startswith("Invalid enum value"):
        allowed = ", ".join(str(c) for c in choices[last])
        return path, f"must be one of {allowed}, not {text[len('Invalid enum value '):]}"
    for pattern, words in _WORDS:
        found = pattern.match(text)
        if found is not None:
            return path, words.format(*found.groups())
    return path, text[:1].lower() + text[1:]


def field_name(prefix: str, path: str) -> str:
    """``body`` + ``score[0]`` -> ``body.score[0]``; ``body`` + "" -> ``body``;
    no prefix: the path alone (``the body`` for the whole)."""
    if not prefix:
        return path or "the body"
    if not path:
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def _path_matching(value: Any, pattern: re.Pattern[str], path: str = "") -> str | None:
    """The path of the first string (or key) of ``value`` in which ``pattern``
    is found, or None."""
    if isinstance(value, str):
        return path if pattern.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if pattern.search(key):
                return path  # the key itself: the object holding it
            found = _path_matching(item, pattern, f"{path}.{key}" if path else key)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _path_matching(item, pattern, f"{path}[{i}]")
            if found is not None:
                return found
    return None


#: Bytes kept by ``surrogateescape`` (not UTF-8), and any lone surrogate.
_ESCAPED: Final = re.compile("[\udc80-\udcff]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def not_utf8(raw: bytes, prefix: str = "body") -> BodyError:
    """The error for a body whose bytes are not all UTF-8: it names the field
    holding them when the rest is JSON (``body.name``), else the body (400)."""
    try:
        raw.decode("utf-8")
        at = -1
    except UnicodeDecodeError as exc:
        at = exc.start
    try:
        data = json.loads(raw.decode("utf-8", "surrogateescape"))
        path = _path_matching(data, _ESCAPED)
    except (ValueError, RecursionError):
        path = None
    words = f"must be UTF-8 text (byte {at} is not)"
    if path is None:
        return BodyError(prefix or "the body", words, status=400)
    return BodyError(field_name(prefix, path), words)


class BodyError(ValueError):
    """A body that does not follow its declaration; ``field`` names where."""

    def __init__(self, field: str, words: str, *, status: int = 422) -> None:
        super().__init__(f"{field}: {words}")
        self.field = field
        #: 400: not JSON at all; 422: JSON of the wrong shape.
        self.status = status


def decode_body(raw: bytes, into: type[T], *, prefix: str = "body",
                choices: dict[str, tuple[Any, ...]] | None = None) -> T:
    """A JSON body decoded into its declaration (an empty body is ``{}``).

    msgspec refuses a lone surrogate as malformed JSON, while the standard
    library's reader keeps it: such a body is read by the latter and then
    held to the same declaration (``msgspec.convert``), so the answer names
    the field (``body.players[1]``) rather than "not JSON".  ``prefix``: what
    the fields are named under ("": the field alone); ``choices``: as for
    ``explain``."""
    try:
        return msgspec.json.decode(raw or b"{}", type=into)
    except msgspec.ValidationError as exc:
        path, words = explain(exc, choices)
        raise BodyError(field_name(prefix, path), words) from None
    except UnicodeDecodeError:  # msgspec: bytes in a string that are not UTF-8
        raise not_utf8(raw, prefix) from None
    except msgspec.DecodeError:
        pass
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise not_utf8(raw, prefix) from None
    except (ValueError, RecursionError):
        raise BodyError(prefix or "the body", "must be JSON", status=400) from None
    try:
        return msgspec.convert(data, into)
    except msgspec.ValidationError as exc:
        path, words = explain(exc, choices)
        raise BodyError(field_name(prefix, path), words) from None
    except UnicodeEncodeError:  # a lone surrogate where msgspec checks the text
        where = _path_matching(data, _SURROGATE) or ""
        raise BodyError(field_name(prefix, where),
                        "must be valid Unicode (no lone surrogates)") from None


def components(types: Iterable[Any], *, ref: str = "#/components/schemas/{name}",
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The JSON Schemas of ``types`` (each a ``$ref`` into the components) and
    the components themselves, from the declarations alone."""
    schemas, defs = msgspec.json.schema_components(list(types), ref_template=ref)
    return list(schemas), dict(defs)


def standalone(tp: Any) -> dict[str, Any]:
    """One declaration's JSON Schema with its own ``$defs`` (self-contained)."""
    return msgspec.json.schema(tp)
