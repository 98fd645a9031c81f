"""``bgclock serve`` prints the director's URL only once the server answers
(its tables loaded, its lifespan done): a URL opened at once never hangs."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests._serve_proc import start
from tests._server_kit import free_port


def test_the_url_is_printed_after_the_server_started(tmp_path: Path) -> None:
    serving = start(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                     "--log-level", "info"])
    try:
        # What the server logged before it printed the URL was written first:
        # the reader of its stderr has it, or has it next.
        until = time.monotonic() + 30
        while not any("Application startup complete" in x for x in serving.said):
            assert time.monotonic() < until, serving.said
            time.sleep(0.05)
        answer = httpx.get(f"{serving.base}/api/tournaments",
                           headers={"Authorization": f"Bearer {serving.key}"}, timeout=30)
        assert answer.status_code == 200
    finally:
        serving.stop()
