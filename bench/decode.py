"""Benchmark of the WebSocket message decode path: today's hand decode
(orjson + checks, ``bgclock.server._protocol.decode``) against the same
messages declared once in msgspec and in pydantic 2, bounds included.

Prints ns per message, per message type; never a timed test.
Run: ``python bench/decode.py [--n 20000]`` (``pip install .[bench]``). msgspec is optional here
(the figures for it are skipped when it is not installed).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bgclock.server._limits import DAY_MS, MAX_ID, MAX_POINTS, check_depth
from bgclock.server._protocol import MAX_LAG_MS, decode

MESSAGES: dict[str, str] = {
    "hello": orjson.dumps({"type": "hello", "token": "12.abcdefghijklmnopqrstuv",
                           "last_seq": 41}).decode(),
    "cmd hit": orjson.dumps({"type": "cmd", "id": "c17-a1b2c3", "do": "hit", "side": "A",
                             "lag_ms": 35}).decode(),
    "cmd adjust": orjson.dumps({"type": "cmd", "id": "d4", "table": 12, "do": "adjust",
                                "side": "B", "delta_ms": 30000}).decode(),
    "summon": orjson.dumps({"type": "summon", "id": "s1", "why": "dispute",
                            "side": "A"}).decode(),
    "ping": orjson.dumps({"type": "ping", "t": 1234567.5}).decode(),
    "sync": orjson.dumps({"type": "sync", "table": 3}).decode(),
}

Side = Literal["A", "B"]
MsgId = Annotated[str, Field(pattern=r"^[A-Za-z0-9._:-]{1,64}$")]
TableId = Annotated[int, Field(ge=1, le=MAX_ID)]


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PHello(_P):
    type: Literal["hello"]
    v: Literal[1] = 1
    token: Annotated[str, Field(max_length=200)] | None = None
    key: Annotated[str, Field(max_length=200)] | None = None
    last_seq: Annotated[int, Field(ge=0, le=MAX_ID)] | None = None


class PCmd(_P):
    type: Literal["cmd"]
    v: Literal[1] = 1
    id: MsgId
    table: TableId | None = None
    do: str
    lag_ms: Annotated[int, Field(ge=0, le=MAX_LAG_MS)] = 0
    side: Side | None = None
    dice: tuple[int, int] | None = None
    delta_ms: Annotated[int, Field(ge=-DAY_MS, le=DAY_MS)] | None = None
    points: Annotated[int, Field(ge=1, le=MAX_POINTS)] | None = None
    reason: str | None = None


class PSummon(_P):
    type: Literal["summon"]
    v: Literal[1] = 1
    id: MsgId | None = None
    table: TableId | None = None
    why: Literal["premature", "director", "dispute"]
    side: Side


class PPing(_P):
    type: Literal["ping"]
    v: Literal[1] = 1
    t: Any = None


class PSync(_P):
    type: Literal["sync"]
    v: Literal[1] = 1
    table: TableId | None = None


PMessage = TypeAdapter(Annotated[PHello | PCmd | PSummon | PPing | PSync,
                                 Field(discriminator="type")])


def pydantic_decode(text: str) -> Any:
    check_depth(text)
    return PMessage.validate_json(text)


try:
    import msgspec
    from msgspec import Meta, Struct
except ImportError:  # pragma: no cover - msgspec is optional for this bench
    msgspec = None

_MDecoder: Any = None
if msgspec is not None:
    MId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9._:-]{1,64}$")]
    MTable = Annotated[int, Meta(ge=1, le=MAX_ID)]

    class MHello(Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
        v: Literal[1] = 1
        token: Annotated[str, Meta(max_length=200)] | None = None
        key: Annotated[str, Meta(max_length=200)] | None = None
        last_seq: Annotated[int, Meta(ge=0, le=MAX_ID)] | None = None

    class MCmd(Struct, tag="cmd", tag_field="type", forbid_unknown_fields=True):
        id: MId
        do: str
        v: Literal[1] = 1
        table: MTable | None = None
        lag_ms: Annotated[int, Meta(ge=0, le=MAX_LAG_MS)] = 0
        side: Side | None = None
        dice: tuple[int, int] | None = None
        delta_ms: Annotated[int, Meta(ge=-DAY_MS, le=DAY_MS)] | None = None
        points: Annotated[int, Meta(ge=1, le=MAX_POINTS)] | None = None
        reason: str | None = None

    class MSummon(Struct, tag="summon", tag_field="type", forbid_unknown_fields=True):
        why: Literal["premature", "director", "dispute"]
        side: Side
        v: Literal[1] = 1
        id: MId | None = None
        table: MTable | None = None

    class MPing(Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
        v: Literal[1] = 1
        t: Any = None

    class MSync(Struct, tag="sync", tag_field="type", forbid_unknown_fields=True):
        v: Literal[1] = 1
        table: MTable | None = None

    _MDecoder = msgspec.json.Decoder(MHello | MCmd | MSummon | MPing | MSync)


def msgspec_decoder() -> Callable[[str], Any] | None:
    """The msgspec decoder, or None when msgspec is not installed."""
    if _MDecoder is None:
        return None
    decoder = _MDecoder

    def msgspec_decode(text: str) -> Any:
        check_depth(text)
        return decoder.decode(text)

    return msgspec_decode


def ns_per_op(fn: Callable[[str], Any], text: str, n: int) -> float:
    fn(text)  # warm, and fail loudly if the declaration refuses a good message
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter_ns()
        for _ in range(n):
            fn(text)
        best = min(best, (time.perf_counter_ns() - start) / n)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20_000, help="decodes per figure")
    args = parser.parse_args()
    ways: dict[str, Callable[[str], Any]] = {"hand (today)": decode,
                                             "pydantic 2": pydantic_decode}
    fast = msgspec_decoder()
    if fast is not None:
        ways["msgspec"] = fast
    print(f"{'message':<12}" + "".join(f"{w:>16}" for w in ways) + "   (ns/op, best of 3)")
    for kind, text in MESSAGES.items():
        row = [ns_per_op(fn, text, args.n) for fn in ways.values()]
        print(f"{kind:<12}" + "".join(f"{x:>16.0f}" for x in row))
    depth_only = ns_per_op(check_depth, MESSAGES["cmd hit"], args.n)
    print(f"the depth pre-scan alone on 'cmd hit': {depth_only:.0f} ns")


if __name__ == "__main__":
    main()
