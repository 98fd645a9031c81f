"""A bare WebSocket broadcast server: the floor the tournament server is measured against.

The same stack (uvicorn, Starlette's WebSocket) and the same traffic as
``bgclock serve`` (hello, a press, an update of the same size to every watcher
of the table and to the director, an ack), with no clock engine, no database,
no checks.  Run by ``bench/load.py``; ``python bench/bare_server.py --port N``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

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


async def endpoint(ws: WebSocket) -> None:
    await ws.accept()
    hello = json.loads(await ws.receive_text())
    table = hello.get("table")
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
        watchers.get(table, set()).discard(ws)


app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning",
                ws="websockets-sansio", ws_max_size=64 * 1024, ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
