"""The venue's side of publishing: its public tournaments sent to a hosted
bgclock whenever the Internet is there (``bgclock serve --publish-to URL``,
the key in ``BGCLOCK_PUBLISH_KEY``; issue 37 §3, docs/hosting.md).

Theory of operation
-------------------
One asyncio task, off the clocks' path: every ``INTERVAL_S`` it looks at the
tournaments worth publishing (public now, or taken down since the hosted
server last heard of them), and for each sends ``POST {URL}/api/publish``:
the actions the hosted server has not acknowledged yet (numbered ``n`` as
the store keeps them, at most ``BATCH`` at a time), the tournament's name
and whether it is closed, and the live tables' public fields of the moment
(``render.public.live_view``), when any of these changed.  The request is
made by ``urllib`` in a worker thread: the event loop the clocks run on only
builds the batch (the live part costs what one public page's view costs).

The queue is the store itself: nothing waits in memory.  What the hosted
server acknowledged (``n``) is the only thing kept; it is asked again
(``GET {URL}/api/publish``) at start and after every failure, so a restart
of either side, or an answer lost on the way, resumes from what the hosted
server really holds: resending is harmless there (it skips what it has).
While the hosted server cannot be reached, the task backs off (``BACKOFF_S``
doubling to ``BACKOFF_MAX_S``) and catches up when it answers again.

A private tournament is never sent; one taken down is sent up to its
``set_public`` false (the hosted page goes down too), and nothing after.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from typing import Any, Final

from bgclock.server.edge.named_keys import key_name
from bgclock.server.tournaments.host import Host, LiveTournament
from bgclock.server.tournaments.service import live_body
from bgclock.store import TournamentRow

log = logging.getLogger("bgclock.server.publish")

#: How often the tournaments are looked at while the hosted server answers.
INTERVAL_S: Final = 1.0
#: The first wait after a failure, doubled at each one after it, up to the most.
BACKOFF_S: Final = 1.0
BACKOFF_MAX_S: Final = 30.0
#: One request may take this long.
TIMEOUT_S: Final = 10.0
#: Actions in one request (the hosted server takes at most ``MAX_BATCH``).
BATCH: Final = 200
#: The live part is sent when a clock's phase, score or turn changes, and
#: at least this often while it changes otherwise (the reserves running).
LIVE_EVERY_S: Final = 10.0
#: What of a live clock moves with time alone (not a change worth a request).
MOVING: Final = ("at_ms", "reserve_ms")


def _mark(name: str, closed: bool, live: Mapping[str, Any]) -> str:
    """What a change of the live part is judged by: the name, closed, and
    the live part without what moves with time alone."""
    clocks = [{k: v for k, v in c.items() if k not in MOVING} for c in live.get("clocks", [])]
    return json.dumps([name, closed, clocks, live.get("late", [])], sort_keys=True)


class PublishError(Exception):
    """The hosted server could not be reached, or refused what was sent."""


class Publisher:
    """The task that publishes this venue's public tournaments to ``url``."""

    def __init__(self, server: Host, url: str, key: str, *,
                 interval_s: float = INTERVAL_S) -> None:
        self.server = server
        self.url = url.rstrip("/")
        self._key = key
        #: The club's name the key publishes under (its pages: ``/p/{club}/{id}``).
        self.club = key_name(key)
        self.interval_s = interval_s
        #: The hosted server's last acknowledged ``n`` of each tournament
        #: (None: to be asked, at start and after a failure).
        self.acked: dict[int, int] | None = None
        #: The name, closed and live part last sent of each tournament, and when.
        self._sent: dict[int, tuple[str, float]] = {}
        self._scanned = False
        self._task: asyncio.Task[None] | None = None
        #: Whether the last attempt reached the hosted server, and why not.
        self.online = False
        self.error: str | None = None
        #: The tournaments the hosted server holds closed (at start: those
        #: it holds whole need not be folded here).
        self._closed_there: set[int] = set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                           name="bgclock-publisher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # ------------------------------------------------------------------ loop

    async def _run(self) -> None:
        backoff = BACKOFF_S
        while True:
            try:
                await self.sync()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the network, the hosted server, the store
                if self.online or self.error != str(exc):
                    log.warning("publishing to %s: %s (trying again)", self.url, exc)
                self.online, self.error, self.acked = False, str(exc), None
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
                continue
            if not self.online:
                log.info("publishing to %s as %s", self.url, self.club)
            self.online, self.error, backoff = True, None, BACKOFF_S
            await asyncio.sleep(self.interval_s)

    async def sync(self) -> None:
        """One round: every tournament worth publishing sent what it lacks
        at the hosted server.  ``PublishError`` (or a store's error)."""
        if self.acked is None:
            status = await self._call("GET", None)
            tournaments = status.get("tournaments", [])
            self.acked = {int(t["tournament"]): int(t["n"]) for t in tournaments}
            self._closed_there = {int(t["tournament"]) for t in tournaments if t.get("closed")}
            self._sent.clear()
        rows = {row.id: row for row in await self.server.store.tournaments()}
        if not self._scanned:  # a restart: the tournaments made public before it
            await self._scan(rows.values())
        tourneys = self.server.tourneys
        for tid in sorted(set(tourneys.hubs) | set(self.acked)):
            row = rows.get(tid)
            if row is None:
                continue
            hub = await tourneys.get(tid)
            while await self._send(hub, row):
                pass

    async def _scan(self, rows: Iterable[TournamentRow]) -> None:
        """Fold the stored tournaments that were ever made public (once), but
        those closed that the hosted server holds whole and closed."""
        assert self.acked is not None
        for row in rows:
            if row.id in self.server.tourneys.hubs:
                continue
            stored = await self.server.store.actions(row.id)
            if not any(s.action.get("do") == "set_public" for s in stored):
                continue
            if row.closed_ms is not None and row.id in self._closed_there \
                    and self.acked.get(row.id, 0) >= len(stored):
                continue
            await self.server.tourneys.get(row.id)
        self._scanned = True

    async def _send(self, hub: LiveTournament, row: TournamentRow) -> bool:
        """Send ``hub``'s next batch if it has one; True if more may follow."""
        assert self.acked is not None
        acked = self.acked.get(hub.id, 0)
        log_now = hub.log
        end = len(log_now)
        public = hub.state.public
        if not public:
            # taken down: up to its last set_public, then nothing (never a private one)
            downs = [k for k, a in enumerate(log_now) if a.get("do") == "set_public"]
            if not downs or acked >= downs[-1] + 1:
                return False
            end = downs[-1] + 1
        closed = row.closed_ms is not None
        # a closed tournament's tables are done: no live part to build
        live = await live_body(self.server, hub) if public and not closed else {}
        mark = _mark(row.name, closed, live)
        loop = asyncio.get_running_loop()
        last, at = self._sent.get(hub.id, ("", 0.0))
        if acked >= end:  # nothing new: the live part, if it changed or is due again
            due = bool(live.get("clocks")) and loop.time() - at >= LIVE_EVERY_S
            if not public or (mark == last and not due):
                return False
        batch = list(log_now[acked:min(end, acked + BATCH)])
        body = {"tournament": hub.id, "name": row.name, "closed": closed,
                "first": acked + 1, "actions": batch, "live": live}
        answer = await self._call("POST", body)
        n = int(answer["n"])
        self.acked[hub.id] = n
        if n >= end:
            self._sent[hub.id] = (mark, loop.time())
        return n < end

    # ------------------------------------------------------------------ HTTP

    async def _call(self, method: str, body: Mapping[str, Any] | None) -> dict[str, Any]:
        """``{url}/api/publish``, in a worker thread; its JSON answer.
        A 409 (a gap) answers the ``n`` the hosted server holds, like a 200."""
        return await asyncio.to_thread(self._http, method, body)

    def _http(self, method: str, body: Mapping[str, Any] | None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        request = urllib.request.Request(
            f"{self.url}/api/publish", data=data, method=method,
            headers={"Authorization": f"Bearer {self._key}",
                     "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
                found = json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            text = exc.read().decode("utf-8", "replace")
            with contextlib.suppress(ValueError):
                said = json.loads(text)
                held = said.get("params", {}).get("n") if isinstance(said, dict) else None
                if exc.code == 409 and isinstance(held, int):
                    return {"n": held}  # a gap: resume from what it holds
                text = str(said.get("message", text)) if isinstance(said, dict) else text
            if exc.code in (401, 403):
                raise PublishError(f"the hosted server refused the publishing key "
                                   f"({exc.code})") from None
            raise PublishError(f"the hosted server answered {exc.code}: {text[:200]}") from None
        except (OSError, ValueError) as exc:  # unreachable, timed out, not JSON
            raise PublishError(f"the hosted server cannot be reached: {exc}") from None
        if not isinstance(found, dict):
            raise PublishError("the hosted server's answer is not a JSON object")
        return found
