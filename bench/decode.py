"""Benchmark of the WebSocket message decode path: today's path
(``bgclock.server.ws.protocol.decode``: size check, depth pre-scan, msgspec
Structs tagged on ``type`` and, for a command, on ``do``) next to the hand
decode it replaced (orjson + checks in Python, ``bench/_hand_decode.py``) and
the same messages declared in pydantic 2, bounds included.

Prints ns per message, per message type; never a timed test.
Run: ``python bench/decode.py [--n 20000]`` (``pip install .[bench]`` for pydantic).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bgclock.core import Event
from bgclock.server.edge.limits import DAY_MS, MAX_ID, MAX_POINTS, check_depth
from bgclock.server.live.commands import MAX_LAG_MS
from bgclock.server.ws.protocol import decode

try:
    from bench._hand_decode import hand_decode
except ImportError:  # run as ``python bench/decode.py``
    from _hand_decode import hand_decode  # type: ignore[no-redef]

MESSAGES: dict[str, str] = {
    "hello": orjson.dumps({"type": "hello", "token": "12.abcdefghijklmnopqrstuv",
                           "last_seq": 41}).decode(),
    "cmd hit": orjson.dumps({"type": "cmd", "id": "c17-a1b2c3", "do": "hit", "side": "A",
                             "lag_ms": 35}).decode(),
    "cmd adjust": orjson.dumps({"type": "cmd", "id": "d4", "table": 12, "do": "adjust",
                                "side": "B", "delta_ms": 30000}).decode(),
    # as the table page sends it (kit/link.js: type, v, id, lag_ms, then the command)
    "cmd page": orjson.dumps({"type": "cmd", "v": 1, "id": "p-1a2b-17", "lag_ms": 12,
                              "do": "hit", "side": "B", "device_at_ms": 1843210}).decode(),
    # ``type`` not first: read twice (its type, then the command)
    "cmd v first": orjson.dumps({"v": 1, "type": "cmd", "id": "p-1a2b-17", "lag_ms": 12,
                                 "do": "hit", "side": "B", "device_at_ms": 1843210}).decode(),
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
    device: MsgId | None = None
    queued: Annotated[int, Field(ge=0, le=10_000)] = 0


class PCmd(_P):
    type: Literal["cmd"]
    v: Literal[1] = 1
    id: MsgId
    table: TableId | None = None
    do: str
    lag_ms: Annotated[int, Field(ge=0, le=MAX_LAG_MS)] = 0
    device_at_ms: Annotated[int, Field(ge=0, le=2**53 - 1)] | None = None
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
    ways: dict[str, Callable[[str], Any]] = {"hand (before)": hand_decode,
                                             "pydantic 2": pydantic_decode,
                                             "msgspec (today)": decode}
    print(f"{'message':<13}" + "".join(f"{w:>16}" for w in ways) + "   (ns/op, best of 3)")
    for kind, text in MESSAGES.items():
        row = [ns_per_op(fn, text, args.n) for fn in ways.values()]
        print(f"{kind:<13}" + "".join(f"{x:>16.0f}" for x in row))
    # what the hub then does with a command: the engine's event from its fields
    def before(text: str) -> Any:
        cmd = hand_decode(text)
        return Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": 5})

    def today(text: str) -> Any:
        cmd = decode(text)
        return Event.from_dict({**cmd.fields, "do": cmd.do, "at_ms": 5})

    edge = [ns_per_op(fn, MESSAGES["cmd page"], args.n) for fn in (before, today)]
    print(f"'cmd page' to its engine event (decode + Event.from_dict): "
          f"{edge[0]:.0f} ns before, {edge[1]:.0f} ns today")
    depth_only = ns_per_op(check_depth, MESSAGES["cmd hit"], args.n)
    print(f"the depth pre-scan alone on 'cmd hit': {depth_only:.0f} ns")


if __name__ == "__main__":
    main()
