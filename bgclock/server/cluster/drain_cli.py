"""``bgclock drain PID``: a cluster's process hands its tables over, then stops.

What ``SIGTERM`` does to a ``bgclock serve --cluster`` process (``drain``):
it takes no new connection, hands each table over to another process (the
devices follow) and exits.  This command sends it and waits for the exit,
so an upgrade script (docs/cluster.md) knows when the next process may go.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

#: How long the command waits for the process to exit by default (s): a
#: drain is bounded at 10 s, and the exit's own shutdown at 5 more.
WAIT_S = 30.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pid", metavar="PID", help="the process id of the bgclock serve "
                        "process to drain (systemd: systemctl show -p MainPID UNIT)")
    parser.add_argument("--wait", type=float, default=WAIT_S, metavar="S",
                        help=f"seconds to wait for it to exit (default {WAIT_S:g})")


def _alive(pid: int) -> bool:
    """The process runs (an exited one its parent has not reaped yet does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _command_of(pid: int) -> str | None:
    """Its command line (Linux's /proc), None where it cannot be read."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def run(args: argparse.Namespace) -> int:
    try:
        pid = int(args.pid)
    except ValueError:
        pid = 0
    if pid <= 0:
        print(f"bgclock drain: PID: a process id, not {args.pid!r}", file=sys.stderr)
        return 2
    if not 0 < args.wait <= 3600:
        print(f"bgclock drain: --wait: 0 to 3600 seconds, not {args.wait:g}", file=sys.stderr)
        return 2
    if not _alive(pid):
        print(f"bgclock drain: PID: no process {pid}", file=sys.stderr)
        return 1
    command = _command_of(pid)
    if command is not None and not ("bgclock" in command and "serve" in command):
        print(f"bgclock drain: PID: process {pid} is not a bgclock serve process "
              f"({command[:80]})", file=sys.stderr)
        return 1
    try:
        os.kill(pid, signal.SIGTERM)
    except PermissionError:
        print(f"bgclock drain: PID: not allowed to signal process {pid} (run it as the "
              "server's user)", file=sys.stderr)
        return 1
    print(f"bgclock drain: process {pid} hands its tables over...", flush=True)
    until = time.monotonic() + args.wait
    while _alive(pid) and not _reaped(pid):
        if time.monotonic() > until:
            print(f"bgclock drain: process {pid} still runs after {args.wait:g} s",
                  file=sys.stderr)
            return 1
        time.sleep(0.05)
    print(f"bgclock drain: process {pid} drained and stopped", flush=True)
    return 0


def _reaped(pid: int) -> bool:
    """A child of this process that exited (a zombie until reaped) is gone."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return False
    return done == pid
