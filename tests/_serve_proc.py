"""``bgclock serve`` in a subprocess: start it, read what it printed, stop it."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO
from urllib.parse import parse_qs, unquote, urlsplit

from tests.conftest import ROOT


@dataclass
class Serving:
    """A running ``bgclock serve``.  Both of its pipes are read all along by
    threads of their own (a server whose log fills an unread pipe blocks in
    its logging call, with its event loop: every table with it)."""

    proc: subprocess.Popen[str]
    #: What it printed on stdout up to and including the director's URL.
    lines: list[str] = field(default_factory=list)
    #: Everything it wrote on stderr so far (the reader thread appends).
    said: list[str] = field(default_factory=list)
    _readers: list[threading.Thread] = field(default_factory=list)

    @property
    def director_url(self) -> str:
        found = [x for x in self.lines if x.startswith("Director: ")]
        assert found, f"no director's URL in {self.lines}"
        return found[-1].removeprefix("Director: ").strip()

    @property
    def key(self) -> str:
        """The director's key, decoded from the printed URL."""
        return parse_qs(urlsplit(self.director_url).query)["key"][0]

    @property
    def base(self) -> str:
        parts = urlsplit(self.director_url)
        return f"{parts.scheme}://{parts.netloc}"

    def stop(self) -> str:
        """Stop it (SIGTERM, then SIGKILL); what it said on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for reader in self._readers:  # the pipes end with the process
            reader.join(10)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return "".join(self.said)

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        self.stop()


def serve_command(args: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "bgclock.cli", "serve", "--no-qr", *args]


def _drain(stream: IO[str], into: list[str], lines: queue.Queue[str | None] | None) -> None:
    """Read ``stream`` to its end into ``into``; until the director's URL,
    each line also goes to ``lines`` (None when the stream ends first)."""
    with contextlib.suppress(ValueError, OSError):  # closed by ``stop``
        for line in stream:
            into.append(line)
            if lines is not None:
                lines.put(line.rstrip("\n"))
                if line.startswith("Director: "):
                    lines = None
    if lines is not None:
        lines.put(None)


def start(args: Sequence[str], *, prefix: Sequence[str] = (), timeout: float = 60,
          python: Sequence[str] = (), env: dict[str, str] | None = None) -> Serving:
    """Start ``bgclock serve ARGS`` and wait for its director's URL (the server
    then has its port and its store).  ``python``: the interpreter's command
    that runs ``bgclock.cli`` in place of ``python -m bgclock.cli``; ``env``:
    variables added to the environment."""
    env = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    command = serve_command(args)
    if python:
        command = [*python, *command[3:]]
    proc = subprocess.Popen([*prefix, *command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    serving = Serving(proc)
    assert proc.stdout is not None and proc.stderr is not None
    lines: queue.Queue[str | None] = queue.Queue()
    printed: list[str] = []
    serving._readers = [
        threading.Thread(target=_drain, args=(proc.stdout, printed, lines), daemon=True),
        threading.Thread(target=_drain, args=(proc.stderr, serving.said, None), daemon=True)]
    for reader in serving._readers:
        reader.start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            break
        serving.lines.append(line)
        if line.startswith("Director: "):
            return serving
    err = serving.stop()
    raise AssertionError(f"serve printed no director's URL: {serving.lines} {err}")


def run_serve(args: Sequence[str], timeout: float = 60,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``bgclock serve ARGS`` expecting it to stop by itself (``env``:
    variables added to the environment)."""
    env = {**os.environ, **(env or {}),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    return subprocess.run(serve_command(args), capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=timeout)


__all__ = ["Serving", "run_serve", "serve_command", "start", "unquote"]
