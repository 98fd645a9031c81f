"""Load benchmark of ``bgclock serve``: press-to-all-watchers latency and server CPU.

Simulated tables on loopback: each table has two table devices (A and B), each
pressing every 2 s (so one press a second per table, alternating; table i's
presses fall at i/n s past each second, evenly spread), and one director's
dashboard watches every table.  A press's latency is the time from its send
to the moment the *last* of its three watchers (both devices and the
dashboard) has its ``update`` (matched by table and seq, the seq from the
press's ack).  A press sent in the measured window whose update had not reached
all three watchers when the run ended (``DRAIN_S`` after the window) is
"unanswered".  The same traffic then goes through a bare WebSocket broadcast
server (``bench/bare_server.py``: same uvicorn stack, no engine, no database)
as the floor, and through the same server storing each press before its ack
(``durable``, ``bench/_durable_floor.py``: one row per press, group commit,
bgclock's kind of store on the same database as bgclock's row, and nothing
else) as the durable floor: what any server that acknowledges only stored
presses pays.

The load generator runs in worker processes (``bench/_loadgen.py``): the
dashboard in one, the table devices in ``--device-procs`` others, each on
uvloop with a minimal WebSocket client and its GC frozen after set-up.  Each
reports its CPU and its event-loop lag over the measured window, and how late
its presses went out against their schedule, so a row can say whether the
generator or the server was the bottleneck.  ``--profile DIR`` records py-spy
profiles of the server and of every worker over the measured window.

The tables' devices connect from their own loopback source addresses
(``127.1.x.y``, one per table): the server as shipped limits how many
WebSocket connections one address may open (``bgclock/server/edge/guard.py``), as
a room's phones each have their own address.

``--db postgresql://HOST/DB`` runs bgclock and the durable floor on
PostgreSQL (a fresh schema per run, dropped afterwards) instead of a SQLite
file each (in a temporary folder); the database's own CPU (the postgres
backend processes serving this server, read from ``/proc``) is then counted
beside the server's.

``--processes N`` (with ``--db``; several values run several rows) runs
bgclock as N ``bgclock serve --cluster`` processes on that database, each on
its own port, one fresh schema and one fresh Redis prefix per run (``--cluster
redis://...``, default ``redis://127.0.0.1:6379/0``; the schema is dropped and
any key under the prefix deleted afterwards).  Table i's device A connects
to process i % N first (it takes the table's lease there: that process owns
the table) and its device B to process (i + 1) % N (``--placement split``:
every table has one relayed device, so the forwarding's cost is measured), or
to the owner too (``--placement owner``); the dashboard connects last, to
process 0, so it sees the tables of the other processes through Redis in both
placements.  N = 1 is ``bgclock serve`` without ``--cluster``, as before
(``--cluster-of-one`` adds a row of one process with ``--cluster``: what the
cluster costs when nothing crosses processes).
Such a row adds the processes' count and Redis's own CPU per press (the
``redis-server`` process, from ``/proc``: a shared Redis counts everyone's
traffic, so the N = 1 rows show its background).

bgclock's clients say hello with ``batch`` (as the pages do): what one commit
sends a connection comes as one frame (a press's update and ack; a
dashboard's updates).  The bare server sends a frame per message, as bgclock
did before; ``--no-batch`` measures bgclock that way too.

Each row prints p50/p99/max, the server's CPU per press (and the database's;
with N processes, summed over all of them), the server's RSS (summed), the
machine's load average, and the ratios against the bare server's row of the
same run (CPU per press, counting the database, and p99) and against the
durable floor's (server CPU per press, server and database CPU per press
against the floor's own server and database, p99); its summary line
also splits the server's CPU per press by thread (``loop``: the event
loop's; the SQLite store's thread under its process name), from
``/proc/PID/task``.  ``--profile DIR`` samples at 100 Hz
(``BGCLOCK_BENCH_PYSPY_RATE`` for another rate). The machine may be
shared: CPU per press and the ratios are the figures that
move least with other load.

Run: ``python bench/load.py`` (100, 500 and 2,000 tables; bgclock, bare and
durable) or ``python bench/load.py --servers bgclock durable --tables 500`` or
``python bench/load.py --tables 100 --duration 5`` or
``python bench/load.py --tables 500 --db postgresql://127.0.0.1:5432/test``
or ``python bench/load.py --tables 2000 --db postgresql://127.0.0.1:5432/test
--processes 1 2 --placement split owner``.
Prints a Markdown table.  Never a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._loadgen import WorkerFailed, run_worker  # noqa: E402

KEY = "bench-director-secret"
ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: How long after the measured window the watchers' updates are still awaited.
DRAIN_S = 3.0


#: The Redis of ``--processes N`` (a fresh channel prefix per run).
DEFAULT_CLUSTER = "redis://127.0.0.1:6379/0"

#: Seconds a worker may take to answer the parent (connecting 4,000 sockets included).
WORKER_DEADLINE_S = 120.0


async def receive(pipe: Any) -> Any:
    """A worker's next message; raises if it failed, died or took too long."""
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, pipe.poll, WORKER_DEADLINE_S):
        raise RuntimeError(f"a load worker said nothing for {WORKER_DEADLINE_S:.0f} s")
    try:
        msg = pipe.recv()
    except EOFError:
        raise RuntimeError("a load worker died") from None
    if isinstance(msg, WorkerFailed):
        raise RuntimeError(msg.reason)
    return msg


def stop_workers(workers: list[tuple[Any, Any]]) -> None:
    """Each worker process joined (killed if it lingers) and its pipe closed."""
    for p, pipe in workers:
        p.join(5)
        if p.is_alive():
            p.kill()
        pipe.close()


def launch_worker(ctx: Any, workers: list[tuple[Any, Any]], spec: dict[str, Any]) -> Any:
    """A load worker for ``spec``, started and kept in ``workers``; its pipe."""
    here, there = ctx.Pipe()
    p = ctx.Process(target=run_worker, args=(spec, there), daemon=True)
    p.start()
    there.close()  # the worker's end: a dead worker then reads as EOF here
    workers.append((p, here))
    return here


def device_specs(port: int, hellos: list[tuple[int, dict[str, Any]]],
                 device_procs: int) -> list[dict[str, Any]]:
    """The table devices' workers: the tables shared among ``device_procs``."""
    index_of = {str(tid): i for i, (tid, _) in enumerate(hellos)}
    shares = [hellos[i::device_procs] for i in range(device_procs)]
    return [{"role": "devices", "port": port, "tables": share, "total_tables": len(hellos),
             "index_of": index_of} for share in shares if share]


async def start_clocks(workers: list[tuple[Any, Any]]) -> None:
    """Every table's opening roll (A is then on turn), each worker's at once."""
    for _, pipe in workers:
        pipe.send("roll")
    for _, pipe in workers:
        await receive(pipe)


def send_plan(workers: list[tuple[Any, Any]], warmup: float,
              duration: float) -> tuple[float, float]:
    """The schedule to every worker: presses from half a second on, measured
    after ``warmup`` for ``duration``; the measured window."""
    t0 = time.monotonic() + 0.5
    measure_from = t0 + warmup
    measure_to = measure_from + duration
    plan = {"t0": t0, "end": measure_to, "stop": measure_to + DRAIN_S,
            "measure_from": measure_from, "measure_to": measure_to}
    for _, pipe in workers:
        pipe.send(plan)
    return measure_from, measure_to


#: The cluster's secret of a run's processes (a bench run on loopback): set
#: in the environment once, so that every worker process of the run (spawned
#: after this import) and every server it starts share it.
BENCH_SECRET = os.environ.setdefault("BGCLOCK_CLUSTER_SECRET", secrets.token_hex(32))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_ports(n: int) -> list[int]:
    """``n`` distinct free ports."""
    ports: list[int] = []
    while len(ports) < n:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


def redis_pid() -> int | None:
    """The ``redis-server`` process of this machine (``pgrep -x``), if one runs."""
    try:
        out = subprocess.run(["pgrep", "-x", "redis-server"], capture_output=True, text=True,
                             timeout=5, check=False).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return int(out[0]) if out else None


def redis_cpu(pid: int | None) -> float:
    """CPU seconds of Redis so far (0 when none is found or readable)."""
    if pid is None:
        return 0.0
    try:
        return cpu_seconds(pid)
    except OSError:
        return 0.0


def _stat_cpu(stat: str) -> float:
    """User plus system CPU seconds of a ``/proc/.../stat`` line."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def cpu_seconds(pid: int) -> float:
    return _stat_cpu(Path(f"/proc/{pid}/stat").read_text())


def thread_cpu(pids: list[int]) -> dict[str, float]:
    """CPU seconds of the servers' threads by name (``loop``: each process's
    main thread, where the event loop runs; others by their names)."""
    out: dict[str, float] = {}
    for pid in pids:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                stat = (task / "stat").read_text()
            except OSError:
                continue
            name = "loop" if task.name == str(pid) else stat[stat.index("(") + 1:stat.rindex(")")]
            out[name] = out.get(name, 0.0) + _stat_cpu(stat)
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def app_name(port: int) -> str:
    return f"bgclock_bench_{port}"


def pg_url(db: str, port: int) -> str:
    """The server's database URL, naming its connections (the store names its
    pool's sessions itself since: ``serves`` finds both)."""
    return f"{db}{'&' if '?' in db else '?'}application_name={app_name(port)}"


def serves(name: str, ports: list[int], pids: list[int]) -> bool:
    """Whether a PostgreSQL session named ``name`` (``application_name``)
    serves one of the servers (``ports``, ``pids``): the store names its
    sessions ``bgclock HOST pid PID TOKEN``, a cluster's lease connection
    ``bgclock lease NODE`` (the node named after its port)."""
    if any(name == f"bgclock lease {app_name(p)}" or name == app_name(p) for p in ports):
        return True
    return name.startswith("bgclock ") and any(f" pid {pid} " in name for pid in pids)


async def db_cpu(db: str | None, ports: list[int], pids: list[int]) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving the servers on ``ports``
    (processes ``pids``), empty on SQLite: the database runs inside the
    server's process."""
    if db is None:
        return {}
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(db)
    try:
        backends = [r[0] for r in await conn.fetch(
            "SELECT pid, application_name FROM pg_stat_activity")
            if serves(str(r[1] or ""), ports, pids)]
    finally:
        await conn.close()
    out = {}
    for pid in backends:
        with contextlib.suppress(OSError):
            out[pid] = cpu_seconds(pid)
    return out


async def drop_schema(db: str, port: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS bench_{port} CASCADE")
    finally:
        await conn.close()


async def drop_prefix(redis_url: str, prefix: str) -> None:
    """Delete every Redis key under the cluster's prefix (its traffic is
    pub/sub, which leaves none: this only makes sure)."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(redis_url, socket_connect_timeout=5)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


def floor_path(workdir: Path, port: int) -> Path:
    """The durable floor's SQLite file (of the server on ``port``)."""
    return workdir / f"floor-{port}.db"


async def start_server(kind: str, port: int, workdir: Path,
                       db: str | None = None,
                       cluster: tuple[str, str, int] | None = None) -> subprocess.Popen[bytes]:
    """Start one server on ``port``; ``cluster`` (Redis URL, prefix, the port
    of the cluster's first process, which names the schema) makes it one
    process of a cluster."""
    if kind == "bgclock":
        schema_port = cluster[2] if cluster else port
        where = ([pg_url(db, port), "--db-schema", f"bench_{schema_port}"] if db
                 else [str(workdir / f"bench-{port}.db")])
        joined = (["--cluster", cluster[0], "--cluster-prefix", cluster[1],
                   "--node-name", app_name(port)] if cluster else [])
        cmd = [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), "--db",
               *where, *joined, "--director-password", KEY, "--no-qr"]
    elif kind == "durable":
        where = ([pg_url(db, port), "--schema", f"bench_{port}"] if db
                 else [f"sqlite:{floor_path(workdir, port)}"])
        cmd = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--port", str(port),
               "--durable", *where]
    else:
        cmd = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--port", str(port)]
    log = os.environ.get("BGCLOCK_BENCH_SERVER_LOG")  # the server's stderr, to debug a run
    err: Any = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    # the processes of one run share a secret of the run's own (docs/cluster.md)
    env = {**os.environ, "BGCLOCK_CLUSTER_SECRET": BENCH_SECRET}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
    for _ in range(400):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
            return proc
        await asyncio.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{kind} server did not start")


async def create_tables(port: int, n: int) -> list[tuple[int, str]]:
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=headers,
                                 timeout=30) as http:
        t = (await http.post("/api/tournaments", json={"name": "bench"})).json()
        sem = asyncio.Semaphore(20)

        async def one(i: int) -> tuple[int, str]:
            async with sem:
                r = await http.post(f"/api/tournaments/{t['id']}/tables",
                                    json={"rules": "usbgf-2013-delay", "length": 25,
                                          "name": str(i)})
                body = r.json()
                return int(body["id"]), str(body["token"])

        return list(await asyncio.gather(*(one(i) for i in range(n))))


def machine_busy() -> float:
    """CPU seconds every process of the machine has used (all cores, /proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(x) for x in fields]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLK_TCK  # less idle and iowait


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def join(logs: list[Any], measure_from: float, measure_to: float,
         n: int) -> dict[str, Any]:
    """Latency of every press sent in the measured window: its send to the
    last of its three watchers' ``update`` (both devices and the dashboard)."""
    acks: dict[str, int] = {}
    seen: dict[tuple[int, int], list[float]] = {}
    #: (table, seq) -> watcher -> arrival (0, 1: the table's devices A and B; 2: dashboard)
    each: dict[tuple[int, int], dict[int, float]] = {}
    for log in logs:
        acks.update(log.acks)
        for table, seq, watcher, at in log.updates:
            seen.setdefault((table, seq), []).append(at)
            each.setdefault((table, seq), {})[watcher] = at
    per_watcher: list[list[float]] = [[], [], []]
    latencies: list[float] = []
    unanswered = 0
    late_sends: list[float] = []
    series: list[tuple[float, float]] = []
    for log in logs:
        for pid, table, planned, sent in log.sent:
            if not measure_from <= sent < measure_to:
                continue
            late_sends.append(sent - planned)
            seq = acks.get(pid)
            got = seen.get((table, seq)) if seq is not None else None
            if got is None or len(got) < 3:
                unanswered += 1
                continue
            latencies.append(max(got) - sent)
            series.append((sent, max(got) - sent))
            for watcher, at in each[(table, seq)].items():
                per_watcher[watcher].append(at - sent)
    latencies.sort()
    late_sends.sort()
    for one in per_watcher:
        one.sort()
    lags = sorted(lag for log in logs for at, lag in log.lags if measure_from <= at < measure_to)
    return {"presses": len(latencies) + unanswered, "unanswered": unanswered,
            "p50": pct(latencies, 0.50) * 1000, "p99": pct(latencies, 0.99) * 1000,
            "max": latencies[-1] * 1000 if latencies else float("nan"),
            "mean": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
            "send_late_p99": pct(late_sends, 0.99) * 1000,
            "lag_p99": pct(lags, 0.99) * 1000, "lag_max": lags[-1] * 1000 if lags else 0.0,
            "series": sorted(series), "errors": sum(log.errors for log in logs),
            # each watcher's own p50/p99 (ms): A, B (relayed in a split
            # cluster), the dashboard (relayed for the other processes' tables)
            "watchers": [(pct(one, 0.50) * 1000, pct(one, 0.99) * 1000) for one in per_watcher],
            "error_sample": next((log.error_sample for log in logs if log.error_sample), "")}


async def misplaced(db: str, schema_port: int, ports: list[int], table_ids: list[int]) -> int:
    """How many tables are not owned by the process their device A reached
    (table i by process i % N, its lease row says), of a cluster's run."""
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        owners = {int(r[0]): str(r[1]) for r in await conn.fetch(
            f"SELECT id, owner FROM bench_{schema_port}.leases WHERE kind = 'table'")}
    finally:
        await conn.close()
    return sum(owners.get(tid) != app_name(ports[i % len(ports)])
               for i, tid in enumerate(table_ids))


def device_ports(ports: list[int], i: int, placement: str) -> tuple[int, int]:
    """The processes (ports) table ``i``'s devices A and B connect to: A to
    process i % N (it connects first: that process owns the table), B to the
    next one (``split``) or to the owner too (``owner``)."""
    n = len(ports)
    owner = ports[i % n]
    return owner, (ports[(i + 1) % n] if placement == "split" else owner)


async def measure(kind: str, n: int, duration: float, warmup: float, workdir: Path,
                  device_procs: int, profile: Path | None,
                  db: str | None = None, batch: bool = True, processes: int = 1,
                  placement: str = "split",
                  cluster_url: str = DEFAULT_CLUSTER,
                  cluster_of_one: bool = False, keep_store: bool = False) -> dict[str, Any]:
    """One row: ``kind`` serving ``n`` tables (``processes`` of them as a
    cluster; ``cluster_of_one``: one process with ``--cluster`` all the same).
    ``keep_store``: the durable floor's schema is left for the caller to read
    (and drop: ``drop_schema``)."""
    db = db if kind in ("bgclock", "durable") else None
    processes = processes if kind == "bgclock" else 1
    clustered = kind == "bgclock" and (processes > 1 or cluster_of_one)
    if clustered and db is None:
        raise ValueError("--processes N > 1 runs on PostgreSQL: give --db postgresql://...")
    ports = free_ports(processes)
    port = ports[0]  # the dashboard's, and the HTTP set-up's
    prefix = f"bench{secrets.token_hex(4)}"
    procs: list[subprocess.Popen[bytes]] = []
    ctx = multiprocessing.get_context("spawn")
    workers: list[tuple[Any, Any]] = []
    try:
        for p in ports:  # one after the other: the first makes the schema
            procs.append(await start_server(kind, p, workdir, db,
                                            (cluster_url, prefix, port) if clustered else None))
        if kind == "bgclock":
            tables = await create_tables(port, n)
            extra = {"batch": True} if batch else {}
            hellos = [(tid, {"type": "hello", "token": tok, **extra}) for tid, tok in tables]
            director_hello: dict[str, Any] = {"type": "hello", "key": KEY, **extra}
        else:  # the durable floor reads batch frames as bgclock's clients do
            extra = {"batch": True} if batch and kind == "durable" else {}
            hellos = [(i + 1, {"type": "hello", "table": i + 1, **extra}) for i in range(n)]
            director_hello = {"type": "hello", "director": True, **extra}
        devices = device_specs(port, hellos, device_procs)
        dashboard = {"role": "dashboard", "port": port, "tables": [], "total_tables": n,
                     "director_hello": director_hello,
                     "index_of": {str(tid): i for i, (tid, _) in enumerate(hellos)}}
        if clustered:
            where = {str(tid): device_ports(ports, i, placement)
                     for i, (tid, _) in enumerate(hellos)}
            for spec in devices:
                spec["device_ports"] = where
        if clustered:
            # The devices first (each table's A takes its lease at its
            # process), then the dashboard: at its hello, process 0 would
            # take every table nobody keeps yet.
            for pipe in [launch_worker(ctx, workers, spec) for spec in devices]:
                await receive(pipe)  # connected
            await receive(launch_worker(ctx, workers, dashboard))
        else:
            # The dashboard first: it then sees every table's setup.
            await receive(launch_worker(ctx, workers, dashboard))
            for pipe in [launch_worker(ctx, workers, spec) for spec in devices]:
                await receive(pipe)  # connected
        if kind == "bgclock":  # every clock starts: A is on turn
            await start_clocks(workers)
            await asyncio.sleep(n / 2000)
        measure_from, measure_to = send_plan(workers, warmup, duration)
        rpid = redis_pid()
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        load0 = os.getloadavg()[0]
        cpu0 = sum(cpu_seconds(pr.pid) for pr in procs)
        server_pids = [pr.pid for pr in procs]
        threads0 = thread_cpu(server_pids)
        busy0, dbs0 = machine_busy(), await db_cpu(db, ports, server_pids)
        redis0 = redis_cpu(rpid)
        profilers = []
        if profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
            pids = {(kind if k == 0 else f"{kind}{k}"): pr.pid for k, pr in enumerate(procs)}
            pids.update({f"gen{i}": p.pid for i, (p, _) in enumerate(workers)})
            for name, pid in pids.items():
                out = profile / f"{kind}-{n}-{name}.txt"
                profilers.append(subprocess.Popen(
                    ["py-spy", "record", "--pid", str(pid), "-d", str(int(duration)), "-r",
                     os.environ.get("BGCLOCK_BENCH_PYSPY_RATE", "100"),
                     "--nonblocking", "-f", "raw", "-o", str(out),
                     *os.environ.get("BGCLOCK_BENCH_PYSPY", "").split()],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        await asyncio.sleep(max(0.0, measure_to - time.monotonic()))
        cpu1 = sum(cpu_seconds(pr.pid) for pr in procs)
        threads1 = thread_cpu(server_pids)
        busy1, dbs1 = machine_busy(), await db_cpu(db, ports, server_pids)
        redis1 = redis_cpu(rpid)
        load1 = os.getloadavg()[0]
        rss = sum(rss_mb(pr.pid) for pr in procs)
        logs = [await receive(pipe) for _, pipe in workers]
        for pr in profilers:
            pr.wait()
        row = {"server": kind, "tables": n, "connections": 2 * n + 1, **join(
            logs, measure_from, measure_to, n)}
        row["processes"] = processes
        row["schema"] = f"bench_{port}" if db else None
        row["prefix"] = prefix if clustered else None
        if clustered:
            assert db is not None
            row["misplaced"] = await misplaced(db, port, ports, [tid for tid, _ in hellos])
        row["clustered"] = clustered
        row["placement"] = placement if processes > 1 else "-"
        row["batch"] = batch
        row["server_cpu"] = 100 * (cpu1 - cpu0) / duration
        row["db_cpu"] = 100 * sum(dbs1[p] - dbs0.get(p, 0.0) for p in dbs1) / duration
        # backends gone during the window: their CPU is not counted
        row["db_gone"] = len(set(dbs0) - set(dbs1))
        row["db_backends"] = len(dbs1)
        row["redis_cpu"] = 100 * (redis1 - redis0) / duration
        row["store"] = "postgresql" if db else ("sqlite" if kind != "bare" else "-")
        # every press acknowledged: (table, seq, press id), and where the
        # durable floor stored them (its SQLite file; its schema is ``schema``)
        table_of = {pid: table for log in logs for pid, table, _, _ in log.sent}
        row["acked"] = sorted((table_of[pid], seq, pid) for log in logs
                              for pid, seq in log.acks.items() if pid in table_of)
        row["store_path"] = (str(floor_path(workdir, port))
                             if kind == "durable" and not db else None)
        presses = max(1, row["presses"])
        row["cpu_press_ms"] = 1000 * (cpu1 - cpu0) / presses
        # the event loop's thread against the rest (the store's thread...);
        # a thread gone during the window is not counted
        row["thread_press_ms"] = {name: round(1000 * (t - threads0.get(name, 0.0)) / presses, 3)
                                  for name, t in sorted(threads1.items())
                                  if t - threads0.get(name, 0.0) > 0}
        row["db_press_ms"] = row["db_cpu"] * duration * 10 / presses
        row["redis_press_ms"] = row["redis_cpu"] * duration * 10 / presses
        row["rss_mb"] = rss
        row["client_cpu"] = 100 * sum(log.cpu[1] - log.cpu[0] for log in logs) / duration
        row["worker_cpu"] = [round(100 * (log.cpu[1] - log.cpu[0]) / duration) for log in logs]
        row["load"] = max(load0, load1, os.getloadavg()[0])
        if profile is not None:  # each press: seconds into the window, latency ms
            name = f"{kind}-{n}" + (f"-x{processes}-{placement}" if clustered else "")
            (profile / f"{name}-latencies.csv").write_text("".join(
                f"{sent - measure_from:.4f},{1000 * lat:.2f}\n" for sent, lat in row["series"]))
        # Everything else the machine ran meanwhile (other work, Redis, the
        # kernel's share of loopback networking not charged to a process,
        # py-spy...); the database's backends are in it too.
        row["other_cpu"] = 100 * (busy1 - busy0) / duration - row["server_cpu"] - row["client_cpu"]
        return row
    finally:
        stop_workers(workers)
        for pr in procs:
            pr.terminate()
        for pr in procs:
            try:
                pr.wait(10)
            except subprocess.TimeoutExpired:
                pr.kill()
                pr.wait()
        if db and not (keep_store and kind == "durable"):
            await drop_schema(db, port)
        if clustered:
            await drop_prefix(cluster_url, prefix)


def label(row: dict[str, Any]) -> str:
    """A row's server column: ``bgclock``, ``bgclock ×2 split``, ``bare``..."""
    name = str(row["server"])
    if row.get("processes", 1) > 1:
        name += f" ×{row['processes']} {row['placement']}"
    elif row.get("clustered"):
        name += " ×1 `--cluster`"
    if row["server"] in ("bgclock", "durable") and not row.get("batch", True):
        name += " `--no-batch`"
    return name


def variants(args: argparse.Namespace) -> list[tuple[str, int, str, bool]]:
    """(server, processes, placement, a cluster of one) of each row of one
    table count."""
    out: list[tuple[str, int, str, bool]] = []
    for kind in args.servers:
        if kind != "bgclock":
            out.append((kind, 1, "-", False))
            continue
        for procs in args.processes:
            if procs == 1:
                out.append((kind, 1, "-", False))
                if args.cluster_of_one:
                    out.append((kind, 1, "-", True))
                continue
            out.extend((kind, procs, placement, False) for placement in args.placement)
    return out


async def main_async(args: argparse.Namespace) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.tables:
            for kind, procs, placement, one in variants(args):
                row = await measure(kind, n, args.duration, args.warmup, Path(tmp),
                                    args.device_procs, args.profile, args.db,
                                    not args.no_batch, procs,
                                    placement if procs > 1 else "split", args.cluster,
                                    one)
                rows.append(row)
                print(f"# {label(row)} ({row['store']}) {n} tables: p50 {row['p50']:.1f} ms, "
                      f"p99 {row['p99']:.1f} ms, max {row['max']:.1f} ms, "
                      f"server CPU {row['server_cpu']:.0f}% "
                      f"({row['cpu_press_ms']:.3f} ms a press; by thread, ms a press: "
                      + ", ".join(f"{k} {v:.3f}" for k, v in row["thread_press_ms"].items())
                      + "), "
                      f"database CPU {row['db_cpu']:.0f}% ({row['db_press_ms']:.3f} ms a press, "
                      f"{row['db_backends']} backends"
                      + (f", {row['db_gone']} gone meanwhile" if row["db_gone"] else "") + "), "
                      f"Redis CPU {row['redis_cpu']:.0f}% "
                      f"({row['redis_press_ms']:.3f} ms a press), "
                      f"RSS {row['rss_mb']:.0f} MB, "
                      f"generator CPU {row['client_cpu']:.0f}% {row['worker_cpu']}, "
                      f"generator lag p99 {row['lag_p99']:.1f} ms (max {row['lag_max']:.1f}), "
                      f"other CPU {row['other_cpu']:.0f}%, load {row['load']:.2f}, "
                      "p50/p99 per watcher: " + ", ".join(
                          f"{who} {p50:.1f}/{p99:.1f}" for who, (p50, p99) in
                          zip(("A", "B", "dashboard"), row["watchers"], strict=True))
                      + (f", {row['unanswered']} unanswered" if row["unanswered"] else "")
                      + (f", {row['misplaced']} tables not owned by their A's process"
                         if row.get("misplaced") else "")
                      + (f", errors: {row['error_sample']}" if row["errors"] else ""),
                      file=sys.stderr, flush=True)
    print(table(rows))


def behind(r: dict[str, Any]) -> bool:
    """More than 1% of the row's presses unanswered: it handled fewer presses
    than were sent, so its CPU per press sent is not its cost per press."""
    return bool(r["unanswered"] > 0.01 * max(1, r["presses"]))


def durable_ratios(r: dict[str, Any], floor: dict[str, Any] | None) -> str:
    """A row against the durable floor's row of the same table count: server
    CPU per press, server and database CPU per press (each side's own
    database), p99."""
    if floor is None:
        return "| - | - | - |"
    p99 = f"{r['p99'] / floor['p99']:.2f}"
    if behind(r) or behind(floor):
        return f"| behind | behind | {p99} |"
    whole = (r["cpu_press_ms"] + r["db_press_ms"]) / (floor["cpu_press_ms"]
                                                       + floor["db_press_ms"])
    return f"| {r['cpu_press_ms'] / floor['cpu_press_ms']:.2f} | {whole:.2f} | {p99} |"


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of a run's rows, with the ratios against the bare
    server's row and the durable floor's row of the same table count."""
    out = ["| server | processes | store | tables | presses measured | p50 ms | p99 ms | max ms "
           "| server CPU | server ms/press | db ms/press | Redis ms/press | RSS MB "
           "| generator CPU | generator lag p99 / max ms | late sends p99 ms "
           "| other CPU | load avg | CPU/press ÷ bare | (server+db)/press ÷ bare "
           "| (server+db+Redis)/press ÷ bare | p99 ÷ bare "
           "| CPU/press ÷ durable | (server+db)/press ÷ durable's | p99 ÷ durable |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
           "---|---|---|---|"]
    bare = {r["tables"]: r for r in rows if r["server"] == "bare"}
    durable = {r["tables"]: r for r in rows if r["server"] == "durable"}
    for r in rows:
        floor = bare.get(r["tables"])
        if behind(r):
            cpu_ratio = all_ratio = redis_ratio = "behind"
            p99_ratio = f"{r['p99'] / floor['p99']:.2f}" if floor else "-"
        elif floor:
            cpu_ratio = f"{r['cpu_press_ms'] / floor['cpu_press_ms']:.2f}"
            all_ratio = f"{(r['cpu_press_ms'] + r['db_press_ms']) / floor['cpu_press_ms']:.2f}"
            whole = r["cpu_press_ms"] + r["db_press_ms"] + r["redis_press_ms"]
            redis_ratio = (f"{whole / floor['cpu_press_ms']:.2f}"
                           if r.get("clustered") else "-")
            p99_ratio = f"{r['p99'] / floor['p99']:.2f}"
        else:
            cpu_ratio = all_ratio = redis_ratio = p99_ratio = "-"
        note = f" ({r['unanswered']} unanswered, {r['errors']} errors)" if (
            r["unanswered"] or r["errors"]) else ""
        out.append(
            f"| {label(r)} | {r['processes']} | {r['store']} | {r['tables']} "
            f"| {r['presses']}{note} "
            f"| {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['server_cpu']:.0f}% "
            f"| {r['cpu_press_ms']:.3f} | {r['db_press_ms']:.3f} | {r['redis_press_ms']:.3f} "
            f"| {r['rss_mb']:.0f} "
            f"| {r['client_cpu']:.0f}% | {r['lag_p99']:.1f} / {r['lag_max']:.1f} "
            f"| {r['send_late_p99']:.1f} | {r['other_cpu']:.0f}% | {r['load']:.2f} "
            f"| {cpu_ratio} | {all_ratio} | {redis_ratio} | {p99_ratio} "
            + durable_ratios(r, durable.get(r["tables"])))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500, 2000],
                        help="table counts to run (default 100 500 2000)")
    parser.add_argument("--servers", nargs="+", default=["bgclock", "bare", "durable"],
                        choices=["bgclock", "bare", "durable"],
                        help="servers to run (default all three: durable is the bare "
                             "server storing each press, on --db or a SQLite file)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds measured per run (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of traffic before measuring (default 3)")
    parser.add_argument("--device-procs", type=int, default=1,
                        help="worker processes for the table devices (default 1; "
                             "the dashboard has its own)")
    parser.add_argument("--db", default=None,
                        help="run bgclock and the durable floor on this PostgreSQL database "
                             "(postgresql://...; a fresh schema per run) instead of a "
                             "SQLite file")
    parser.add_argument("--no-batch", action="store_true",
                        help="bgclock's and the durable floor's clients do not ask for batch "
                             "frames (a frame per message, as the bare server sends)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="bgclock as N `serve --cluster` processes (N > 1 needs --db "
                             "postgresql://...); several values run a row each (default 1: "
                             "one process, no cluster)")
    parser.add_argument("--placement", nargs="+", default=["split"], choices=["split", "owner"],
                        help="with N > 1: device B on the next process (split: relayed) or "
                             "on the table's owner with device A (owner); several values run "
                             "a row each (default split)")
    parser.add_argument("--cluster-of-one", action="store_true",
                        help="with --processes 1: a row of one `serve --cluster` process "
                             "too (what the cluster costs with nothing to forward)")
    parser.add_argument("--cluster", default=DEFAULT_CLUSTER, metavar="redis://HOST:PORT/DB",
                        help=f"the Redis of N > 1 processes (default {DEFAULT_CLUSTER})")
    parser.add_argument("--profile", type=Path, default=None,
                        help="record py-spy profiles of the measured window, and every "
                             "press's latency, into this folder")
    args = parser.parse_args()
    if args.db is not None and not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db: a postgresql://... URL (SQLite is the default)")
    if any(n < 1 for n in args.processes):
        parser.error("--processes: 1 or more")
    if (max(args.processes) > 1 or args.cluster_of_one) and args.db is None:
        parser.error("--processes N > 1: the processes share a PostgreSQL database "
                     "(--db postgresql://...)")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
