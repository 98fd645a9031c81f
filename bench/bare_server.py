"""A bare WebSocket broadcast server: the floor the tournament server is measured against.

The same stack (uvicorn, Starlette's WebSocket) and the same traffic as
``bgclock serve`` (hello, a press, an update of the same size to every watcher
of the table and to the director, an ack), with no clock engine, no database,
no checks.  Run by ``bench/load.py``; ``python bench/bare_server.py --port N``.

``--durable sqlite:PATH`` or ``--durable postgresql://...`` (tables in
``--schema``) makes it the durable floor: each press is stored before its
update and its ack go out, with group commit and bgclock's kind of store, and
nothing else (``bench/_durable_floor.py`` says what it mirrors).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._durable_floor import Floor, open_floor  # noqa: E402

#: A state of the size bgclock sends.
STATE: dict[str, Any] = {
    "at_ms": 123456, "rules": "usbgf-2013-delay", "length": 25, "teams": False,
    "A": {"reserve_ms": 2999000, "delay_ms": 12000, "running": False, "expired": False,
          "forfeit_delay": False, "breaks": 0},
    "B": {"reserve_ms": 2999000, "delay_ms": 12000, "running": True, "expired": False,
          "forfeit_delay": False, "breaks": 0},
    "phase": "playing", "stopped_reason": None, "on_turn": "B", "score": [0, 0],
    "cube": {"value": 1, "owner": None}, "crawford": False, "cube_frozen": False,
    "winner": None, "game": 1, "double_offered_by": None, "offer": None, "dispute": None,
    "break": None, "expires_at_ms": 3135456,
}

watchers: dict[int, set[WebSocket]] = {}
directors: set[WebSocket] = set()
seqs: dict[int, int] = {}
#: The durable floor (``--durable``), or None: the bare server.
floor: Floor | None = None


async def endpoint(ws: WebSocket) -> None:
    await ws.accept()
    hello = json.loads(await ws.receive_text())
    table = hello.get("table")
    batches[ws] = bool(hello.get("batch"))
    if hello.get("director"):
        directors.add(ws)
    else:
        watchers.setdefault(table, set()).add(ws)
    await ws.send_text(json.dumps({"type": "welcome"}))
    try:
        while True:
            msg = json.loads(await ws.receive_text())
            if msg.get("type") != "cmd":
                continue
            seq = seqs[table] = seqs.get(table, 0) + 1
            if floor is not None:
                store_press(floor, ws, table, seq, msg, batches[ws])
                continue
            text = json.dumps({"type": "update", "table": table, "seq": seq,
                               "event": {"v": 1, "do": msg["do"], "at_ms": 1, "side": msg["side"]},
                               "source": "table", "lag_credit_ms": 0, "state": STATE},
                              separators=(",", ":"))
            for w in list(watchers.get(table, ())) + list(directors):
                with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                    await w.send_text(text)
            await ws.send_text(json.dumps({"type": "ack", "id": msg["id"], "seq": seq}))
    except WebSocketDisconnect:
        pass
    finally:
        directors.discard(ws)
        batches.pop(ws, None)
        watchers.get(table, set()).discard(ws)


def store_press(floor: Floor, ws: WebSocket, table: int, seq: int, msg: dict[str, Any],
                batch: bool) -> None:
    """The press stored (its row queued for the next commit); once committed,
    its update to every watcher and the director, and its ack (the durable floor)."""
    now = int(time.time() * 1000)
    event = {"v": 1, "do": msg["do"], "at_ms": now, "side": msg["side"]}
    row = (table, seq, str(msg["id"]), now, json.dumps(event, separators=(",", ":")),
           "table", 0, now)

    def done(error: BaseException | None) -> None:
        if error is not None:
            floor.send(ws, json.dumps({"type": "error", "id": msg["id"],
                                       "reason": f"not stored: {error!r}"}), batch)
            return
        text = json.dumps({"type": "update", "table": table, "seq": seq, "event": event,
                           "source": "table", "lag_credit_ms": 0, "state": STATE},
                          separators=(",", ":"))
        for w in list(watchers.get(table, ())) + list(directors):
            floor.send(w, text, batches.get(w, False))
        floor.send(ws, json.dumps({"type": "ack", "id": msg["id"], "seq": seq}), batch)

    floor.submit(row, done)


#: Each connection's hello said ``batch`` (the durable floor sends it one
#: frame per commit).
batches: dict[WebSocket, bool] = {}
#: ``--durable`` and ``--schema``, read at start-up.
durable: tuple[str, str] | None = None


@contextlib.asynccontextmanager
async def lifespan(_: Starlette) -> AsyncIterator[None]:
    global floor
    if durable is not None:  # before the port opens: load.py waits for it
        floor = await open_floor(*durable)
    yield


app = Starlette(routes=[WebSocketRoute("/ws", endpoint)], lifespan=lifespan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--durable", default=None, metavar="sqlite:PATH|postgresql://...",
                        help="store each press before its ack (the durable floor)")
    parser.add_argument("--schema", default="bench_floor",
                        help="with --durable postgresql://...: the schema of its table")
    args = parser.parse_args()
    global durable
    if args.durable is not None:
        if not args.durable.startswith(("sqlite:", "postgresql://", "postgres://")):
            parser.error("--durable: sqlite:PATH or postgresql://...")
        durable = (args.durable, args.schema)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning",
                ws="websockets-sansio", ws_max_size=64 * 1024, ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
