"""Running the JavaScript engine (bgclock/web/static/engine) under Node.

``NODE`` is the node binary (None when missing: the JS tests skip).
``JsEngine`` is one long-lived ``node tests/js/replay.mjs --serve`` fed one
JSON line per command sequence, for the differential test and the bench.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "js" / "replay.mjs"
NODE = shutil.which("node")


class JsEngine:
    """A node subprocess folding sequences through the JS engine."""

    def __init__(self) -> None:
        assert NODE is not None
        self.proc = subprocess.Popen(
            [NODE, str(RUNNER), "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, encoding="utf-8", bufsize=1,
        )

    def fold(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one sequence, read its answer line."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the node engine process ended")
        answer: dict[str, Any] = json.loads(line)
        if "crash" in answer:
            raise RuntimeError(f"the JS engine crashed: {answer['crash']}")
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
