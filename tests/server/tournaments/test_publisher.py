"""A venue publishes to a hosted bgclock (issue 37 §3), two ``bgclock serve``
processes on this machine: a venue on SQLite, a hosted one on PostgreSQL
(SQLite when no PostgreSQL is configured).  Results entered at the venue
reach the hosted public page; the hosted server stopped and started again
catches up with nothing lost or doubled; a forged key is refused and logged.
Every wait is on state (the hosted page read until it shows what the venue
shows), bounded only so that a failure ends."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from tests._serve_proc import Serving, start
from tests._server_kit import POSTGRES, free_port
from tests.conftest import ROOT

#: How long a wait on the hosted page may last before the test says it failed.
PATIENCE_S = 60.0


def _keys(db: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgclock.cli", "publish-keys", *args, *db],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def _until(what: str, ready: Callable[[], Any]) -> Any:
    """``ready()`` once it is truthy (read again and again), else fail."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        found = ready()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.1)


@contextlib.contextmanager
def _hosted_db(tmp_path: Path) -> Iterator[list[str]]:
    if not POSTGRES:
        yield ["--db", str(tmp_path / "hosted.db")]
        return
    import asyncio

    from tests._server_kit import fresh_schema

    async def enter() -> tuple[Any, str]:
        cm = fresh_schema()
        return cm, await cm.__aenter__()

    cm, schema = asyncio.run(enter())
    try:
        yield ["--db", POSTGRES, "--db-schema", schema]
    finally:
        asyncio.run(cm.__aexit__(None, None, None))


def _view(http: httpx.Client, url: str) -> dict[str, Any] | None:
    try:
        r = http.get(url)
    except httpx.TransportError:
        return None
    return dict(r.json()) if r.status_code == 200 else None


def _same(venue: dict[str, Any] | None, hosted: dict[str, Any] | None) -> bool:
    """The hosted page shows what the venue's shows (but the moment it was built)."""
    if venue is None or hosted is None:
        return False
    return _still(venue) == _still(hosted)


def _still(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what moves with time alone (when it was built, a
    clock's instant: the hosted page has the clocks as last published)."""
    return {**{k: v for k, v in view.items() if k != "server_ms"},
            "matches": [{**m, "clock": m["clock"] and {k: v for k, v in m["clock"].items()
                                                       if k != "at_ms"}}
                        for m in view["matches"]]}


def test_a_venue_publishes_through_an_outage_and_a_forged_key_is_refused(
        tmp_path: Path) -> None:
    with _hosted_db(tmp_path) as hosted_db:
        made = _keys(hosted_db, "add", "lucca")
        assert made.returncode == 0, made.stderr
        key = made.stdout.split()[-1]
        assert key.startswith("lucca.")
        port = free_port()
        hosted_args = [*hosted_db, "--port", str(port)]
        hosted = start(hosted_args)
        venue: Serving | None = None
        try:
            venue = start(["--db", str(tmp_path / "venue.db"), "--port", str(free_port()),
                           "--publish-to", f"http://127.0.0.1:{port}"],
                          env={"BGCLOCK_PUBLISH_KEY": key})
            _run(venue, hosted, hosted_args, key)
        finally:
            if venue is not None:
                venue.stop()
            hosted.stop()


def _run(venue: Serving, hosted: Serving, hosted_args: list[str], key: str) -> None:
    director = {"Authorization": f"Bearer {venue.key}"}
    with httpx.Client(base_url=venue.base, headers=director, timeout=10) as desk, \
            httpx.Client(timeout=10) as anyone:
        def post(path: str, body: Any = None, **kw: Any) -> dict[str, Any]:
            r = desk.post(path, json=body if body is not None else {}, **kw) if "content" \
                not in kw else desk.post(path, **kw)
            assert r.status_code in (200, 201), r.text
            return dict(r.json())

        private = post("/api/tournaments", {"name": "Sociale del giovedì"})["id"]
        post(f"/api/tournaments/{private}/players", {"name": "Mario Rossi"})
        tid = post("/api/tournaments", {"name": "Coppa di Lucca"})["id"]
        base = f"/api/tournaments/{tid}"
        post(f"{base}/settings", {"rounds": [
            {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
        post(f"{base}/players.csv", content=("name,federation_id\n" + "".join(
            f"P{i},FIBT{i}\n" for i in range(1, 9))).encode(),
             headers={"content-type": "text/csv"})
        for i in range(1, 9):
            post(f"{base}/players/{i}/check-in")
        post(f"{base}/draw", {"seed": 11})
        matches = post(f"{base}/rounds", {"round": 0})["state"]["matches"]
        up = desk.patch(base, json={"public": True}).json()
        # the address printed on the wall is the hosted page's; the venue serves the same path
        assert up["public_url"] == f"{hosted.base}/p/lucca/{tid}"
        local = f"{venue.base}/p/lucca/{tid}.json"
        there = f"{up['public_url']}.json"
        assert _view(anyone, f"{venue.base}/p/{tid}.json") is not None

        # results entered at the venue appear on the hosted page
        post(f"{base}/results", {"round": 0, "match": 0, "winner": matches[0]["a"],
                                 "score": [3, 1]})
        seen = _until("the first result on the hosted page",
                      lambda: _same(_view(anyone, local), _view(anyone, there))
                      and _view(anyone, there))
        assert seen["url"] == f"/p/lucca/{tid}"
        assert seen["matches"][0]["winner"] == matches[0]["a"]
        assert [m["clock"]["phase"] for m in seen["matches"][1:]] == ["setup"] * 3
        page = anyone.get(up["public_url"])
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        # the hosted server holds the whole log, and shows only the public projection
        shown = anyone.get(there).text + anyone.get(f"{there[:-5]}/player/1.json").text
        assert "FIBT" not in shown and venue.key not in shown and key not in shown

        # the hosted server stops; the venue goes on (its clocks and pages) and queues
        hosted.stop()
        for m in matches[1:3]:
            post(f"{base}/results", {"round": 0, "match": m["match"], "winner": m["b"],
                                     "score": [1, 3]})
        offline = _view(anyone, local)
        assert offline is not None and sum(m["winner"] is not None
                                           for m in offline["matches"]) == 3
        assert _view(anyone, there) is None

        # started again: it catches up, nothing lost or doubled
        again = start(hosted_args)
        try:
            caught = _until("the hosted page caught up",
                            lambda: _same(_view(anyone, local), _view(anyone, there))
                            and _view(anyone, there))
            assert [m["winner"] for m in caught["matches"]] == \
                [matches[0]["a"], matches[1]["b"], matches[2]["b"], None]
            assert len(caught["results"]) == len(offline["results"])
            held = anyone.get(f"{again.base}/api/publish",
                              headers={"Authorization": f"Bearer {key}"}).json()
            actions = desk.get(f"{base}/actions").json()["actions"]
            assert held == {"club": "lucca", "tournaments": [{"tournament": tid,
                                                               "n": len(actions),
                                                               "closed": False}]}

            # a forged key is refused, and the hosted server says so in its log
            forged = "lucca." + key.partition(".")[2][::-1]
            r = anyone.post(f"{again.base}/api/publish",
                            json={"tournament": tid, "name": "x", "closed": False, "first": 1,
                                  "actions": [], "live": {}},
                            headers={"Authorization": f"Bearer {forged}"})
            assert r.status_code == 401
            assert _same(caught, _view(anyone, there))

            # closed at the venue (not an action: the tournament's row): closed there too
            post(f"{base}/close")
            _until("closed on the hosted page", lambda: (_view(anyone, there) or {}).get(
                "tournament", {}).get("closed"))

            # taken down at the venue: down on the hosted server too (the private
            # tournament was never sent: the hosted server holds only the public one)
            assert desk.patch(base, json={"public": False}).status_code == 200
            _until("the hosted page taken down", lambda: anyone.get(there).status_code == 404)
            assert anyone.get(f"{again.base}/p/lucca/{private}.json").status_code == 404
        finally:
            log = again.stop()
        assert "publishing refused from 127.0.0.1: a wrong publishing key" in log
        assert forged not in log and key not in log
