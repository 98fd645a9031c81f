"""Where a press's server CPU goes, without the network: the table's hub and
engine, then the store's commit, in one process.

One table, one device pressing ``hit`` for alternate sides, one director
watching; each press is decided by ``TableRunner.command`` (the rules, the
engine, the stored event, the update's JSON), committed by the group-commit
writer and broadcast to its watchers (fakes that count what they get: no
socket, no WebSocket frame).  Presses are made one at a time (each commit
holds one press, as at a lightly loaded table), and CPU time is counted
(``time.process_time``: every thread of the process, the store's included).

- ``--store none``: a store whose commit does nothing (the hub and engine
  alone: what a press costs above the bare server's frame work);
- ``--store sqlite``: the SQLite store on a temporary file (WAL,
  ``synchronous=FULL``: a fsync per commit), its thread included;
- ``--store postgresql://...``: PostgreSQL (a fresh schema, dropped after);
- ``--store hop``: no disk, but each commit goes to a ``StoreThread`` (the
  SQLite store's thread and hand-off) that sleeps ``--hop-wait-us`` there in
  place of the fsync, and answers: what the hand-off and the waits cost a
  press, apart from SQLite's own work.

Compare with ``bench/load.py``'s server CPU per press: what is not here is
the WebSocket's receive and sends and the event loop's network work, which
the bare server pays too.

    python bench/press_path.py [--presses 5000] [--store none --store sqlite]
                               [--store hop --hop-wait-us 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgclock.server.edge.auth import RateLimiter  # noqa: E402
from bgclock.server.live.commands import Command  # noqa: E402
from bgclock.server.live.hub import Hub  # noqa: E402
from bgclock.server.live.time import WallClock  # noqa: E402
from bgclock.server.ws.protocol import decode  # noqa: E402
from bgclock.store import StoredEvent, StoredNote, TableSpec  # noqa: E402


class NoStore:
    """A store that stores nothing (the hub and engine's own cost)."""

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        return None

    async def put_snapshots(self, snapshots: list[Any]) -> None:
        return None


class HopStore(NoStore):
    """No disk: each commit is a call on a ``StoreThread`` (the SQLite
    store's thread and hand-off) that sleeps ``wait_s`` there, as a commit's
    fsync would, and then answers."""

    def __init__(self, wait_s: float) -> None:
        from bgclock.store._sqlite import StoreThread

        self.wait_s = wait_s
        self.thread = StoreThread()

    async def commit(self, events: list[StoredEvent], checkpoints: dict[int, int],
                     notes: Sequence[StoredNote] = ()) -> None:
        wait_s = self.wait_s
        await self.thread.submit(lambda: time.sleep(wait_s) if wait_s else None)

    def close(self) -> None:
        self.thread.shutdown(wait=True)


class Watcher:
    """A device or a dashboard that counts its messages."""

    relayed = False

    def __init__(self, device: str | None) -> None:
        self.device = device
        self.name = device
        self.received = 0
        self.heard = asyncio.Event()

    def send(self, text: str) -> None:
        self.received += 1
        self.heard.set()


def _cmd(i: int, do: str, **fields: Any) -> Command:
    message = decode(json.dumps({"type": "cmd", "id": f"m{i}", "do": do, **fields}))
    assert isinstance(message, Command)
    return message


async def run(store_kind: str, presses: int, hop_wait_s: float = 0.0) -> dict[str, Any]:
    clock = WallClock()
    store: Any
    cleanup: Any = None
    table_id = 1
    if store_kind == "none":
        store = NoStore()
    elif store_kind == "hop":
        store = HopStore(hop_wait_s)
        cleanup = store.close
    else:
        if store_kind == "sqlite":
            from bgclock.store._sqlite import SqliteStore

            tmp = tempfile.TemporaryDirectory()
            store = SqliteStore(Path(tmp.name) / "press.db")
            cleanup = tmp.cleanup
        else:
            from bgclock.store._postgres import PostgresStore

            schema = f"bench_press_{secrets.token_hex(4)}"
            store = PostgresStore(store_kind, schema=schema)

            async def drop() -> None:
                import asyncpg  # type: ignore[import-untyped]

                conn = await asyncpg.connect(store_kind)
                try:
                    await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                finally:
                    await conn.close()
            cleanup = drop
        await store.open()
    spec = TableSpec(rules="usbgf-2013-delay", length=25, score=(0, 0), teams=False,
                     crawford=True, clock={})
    hub = Hub(store, clock)
    try:
        if store_kind in ("none", "hop"):
            from bgclock.store import TableRow

            row = TableRow(id=table_id, tournament_id=1, spec=spec, created_ms=clock.now_ms())
        else:
            tournament = await store.create_tournament("Press path", clock.now_ms())
            row = await store.create_table(tournament.id, spec, clock.now_ms())
        hub.writer.start()
        table = hub.add(row)
        table.limiter = RateLimiter(1e9, 1e9)
        device, director = Watcher("device-1"), Watcher(None)
        table.watchers.add(device)
        hub.directors.add(director)
        table.command(device, "table", _cmd(0, "opening_roll", dice=[6, 1]))
        while table.committed_seq < 1:
            await asyncio.sleep(0.001)
        first = table.match.state().on_turn
        other = "B" if first == "A" else "A"
        commands = [_cmd(i, "hit", side=first if i % 2 else other) for i in range(1, presses + 1)]
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for n, cmd in enumerate(commands, start=2):
            table.command(device, "table", cmd)
            while table.committed_seq < n:  # one press per commit: its ack
                device.heard.clear()
                await device.heard.wait()
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        name = (store_kind if store_kind in ("none", "sqlite") else
                f"hop ({hop_wait_s * 1e6:.0f} µs)" if store_kind == "hop" else "postgresql")
        return {"store": name,
                "presses": presses, "cpu_us": cpu / presses * 1e6,
                "wall_us": wall / presses * 1e6, "messages": device.received + director.received}
    finally:
        await hub.writer.close()
        if store_kind not in ("none", "hop"):
            await store.close()
        if cleanup is not None:
            result = cleanup()
            if asyncio.iscoroutine(result):
                await result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=5000)
    parser.add_argument("--store", action="append",
                        help="none, hop, sqlite or a postgresql:// URL (repeatable; "
                             "default: none and sqlite)")
    parser.add_argument("--hop-wait-us", type=int, default=300,
                        help="--store hop: how long the store's thread sleeps a commit "
                             "(default 300: about this machine's fsync)")
    args = parser.parse_args()
    if not 10 <= args.presses <= 1_000_000:
        parser.error("--presses: from 10 to 1,000,000")
    if not 0 <= args.hop_wait_us <= 100_000:
        parser.error("--hop-wait-us: from 0 to 100,000")
    kinds = args.store or ["none", "sqlite"]
    for kind in kinds:
        if kind not in ("none", "hop", "sqlite") and not kind.startswith("postgresql://"):
            parser.error(f"--store: none, hop, sqlite or a postgresql:// URL, not {kind!r}")
    print("| store | presses (one per commit) | CPU per press µs | wall per press µs | load avg |")
    print("|---|---|---|---|---|")
    import os

    for kind in kinds:
        row = asyncio.run(run(kind, args.presses, args.hop_wait_us / 1e6))
        print(f"| {row['store']} | {row['presses']} | {row['cpu_us']:.1f} | "
              f"{row['wall_us']:.1f} | {os.getloadavg()[0]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
