"""The base install serves (issue 31): with every optional extra hidden
(redis, the test tools), ``bgclock serve`` starts, answers its pages and its
API on one process and never imports the cluster's code; ``--cluster``
without redis is one line and exit 2.  CI also runs the README's first
command's install in a fresh venv (``.ci/run``)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests._serve_proc import ROOT, start
from tests._server_kit import free_port

#: What ``pip install -e .`` does not bring (pyproject's extras; websockets comes
#: with uvicorn[standard]).
EXTRAS = ("redis", "pytest", "hypothesis", "httpx", "jsonschema", "playwright",
          "cryptography", "gnubg", "gnubg_nn", "pydantic", "ruff", "mypy")

#: Run ``bgclock`` with the extras unimportable, and report which modules
#: were loaded: on stderr at exit (``LOADED <json>``), and, when the
#: environment names a file in ``BGCLOCK_TEST_LOADED``, in it every 0.1 s
#: (a server ended by SIGTERM does not run its exit hooks).
HIDDEN = f"""
import atexit, json, os, sys, threading, time
from importlib.abc import MetaPathFinder
HIDE = {EXTRAS!r}
class Hide(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDE:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
for name in list(sys.modules):
    if name.split(".")[0] in HIDE:
        del sys.modules[name]
sys.meta_path.insert(0, Hide())
atexit.register(lambda: print("LOADED " + json.dumps(sorted(sys.modules)), file=sys.stderr))
def report(path):
    while True:
        with open(path + ".tmp", "w") as f:
            json.dump(sorted(sys.modules), f)
        os.replace(path + ".tmp", path)
        time.sleep(0.1)
if os.environ.get("BGCLOCK_TEST_LOADED"):
    threading.Thread(target=report, args=(os.environ["BGCLOCK_TEST_LOADED"],),
                     daemon=True).start()
from bgclock.cli import main
sys.exit(main())
"""


def _hidden(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", HIDDEN, *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def _loaded(stderr: str) -> list[str]:
    line = next(x for x in stderr.splitlines() if x.startswith("LOADED "))
    return list(json.loads(line[7:]))


def test_serve_help_needs_no_extra() -> None:
    done = _hidden(["serve", "--help"])
    assert done.returncode == 0, done.stderr
    assert "--cluster" in done.stdout
    assert not any(m.split(".")[0] == "redis" for m in _loaded(done.stderr))


def test_cluster_without_redis_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _hidden(["serve", "--no-qr", "--db", "postgresql://127.0.0.1:5432/test",
                    "--cluster", "redis://127.0.0.1:6379/0"])
    assert done.returncode == 2
    said = [x for x in done.stderr.splitlines() if not x.startswith("LOADED ")]
    assert said == ["bgclock serve: --cluster needs the redis package, which the base install "
                    "does not bring: .venv/bin/pip install -e '.[cluster]' (docs/cluster.md)"]


def test_a_single_process_serves_its_pages_and_api_without_any_extra(tmp_path: Path) -> None:
    serving = start(["--db", str(tmp_path / "base.db"), "--port", str(free_port())],
                    python=[sys.executable, "-c", HIDDEN],
                    env={"BGCLOCK_TEST_LOADED": str(tmp_path / "loaded.json")})
    try:
        url = serving.director_url
        base, key = url.split("/director?key=")
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
        tournament = _post(f"{base}/api/tournaments", key, {"name": "Club"})
        table = _post(f"{base}/api/tournaments/{tournament['id']}/tables", key,
                      {"rules": "it-tournament", "length": 7})
        with urllib.request.urlopen(str(table["url"]), timeout=10) as r:
            assert r.status == 200
        loaded = json.loads((tmp_path / "loaded.json").read_text())
    finally:
        serving.stop()
    assert "bgclock.server.routes.tables" in loaded
    assert not [m for m in loaded if m.split(".")[0] in EXTRAS
                or m.startswith("bgclock.server.cluster.node")]



def _post(url: str, key: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(url, method="POST", data=json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}",
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        answer: dict[str, object] = json.loads(r.read())
    return answer
