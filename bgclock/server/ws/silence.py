"""A link that pinged and then fell silent is gone: one watch per
connection (the table's sessions, ``ws.session``, and the devices relayed
to another process that owns their table)."""

from __future__ import annotations

import asyncio
from typing import Final

#: A client that has pinged and then says nothing for this long is gone
#: (the pages ping every second and give up after 2.5 s themselves).
SILENT_LINK_S: Final = 5.0


class SilenceWatch:
    """Closes a connection that pinged and then fell silent for ``limit_s``:
    one timer per connection, re-armed only when it fires (a message just
    notes its instant), and the session's receive cancelled when it finds
    the link silent."""

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.last = self.loop.time()
        self.timer: asyncio.TimerHandle | None = None
        self.fired = False

    def heard(self) -> None:
        self.last = self.loop.time()

    def start(self) -> None:
        """The client pings: from now on, silence closes it."""
        if self.timer is None and not self.fired:
            self.timer = self.loop.call_at(self.last + self.limit_s, self._check)

    def _check(self) -> None:
        due = self.last + self.limit_s
        if self.loop.time() < due:
            self.timer = self.loop.call_at(due, self._check)
            return
        self.timer = None
        self.fired = True
        if self.task is not None:
            self.task.cancel()

    def silenced(self) -> bool:
        """The receive was cancelled by this watch (not from outside)."""
        if not self.fired or self.task is None:
            return False
        self.task.uncancel()
        return True

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
