"""``bgclock serve`` prints the director's URL only once the server answers
(its tables loaded, its lifespan done): a URL opened at once never hangs."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from tests._serve_proc import start
from tests._server_kit import free_port


def test_the_url_is_printed_after_the_server_started(tmp_path: Path) -> None:
    serving = start(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                     "--log-level", "info"])
    try:
        # What the server logged before it printed the URL is in the pipe
        # already: read it without waiting for more.
        assert serving.proc.stderr is not None
        fd = serving.proc.stderr.fileno()
        os.set_blocking(fd, False)
        logged = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            logged += chunk
        said = logged.decode(errors="replace")
        assert "Application startup complete" in said, said
        os.set_blocking(fd, True)
        answer = httpx.get(f"{serving.base}/api/tournaments",
                           headers={"Authorization": f"Bearer {serving.key}"}, timeout=30)
        assert answer.status_code == 200
    finally:
        serving.stop()
