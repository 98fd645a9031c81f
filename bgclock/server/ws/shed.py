"""Excess traffic shed in order, pings never.

Theory of operation
-------------------
A connection may send so many messages a second (``edge.auth.RateLimiter``:
a table device 30 at once, then 10 a second).  Past that a message is
*shed*: refused with ``rate_limited`` naming its id and ``retry_ms``, a
refusal the pages understand (they send it again, in order, after
``retry_ms``), never dropped in silence.

Three rules keep a shed harmless:

- **Pings are not traffic.**  A ping keeps the link alive: a page that hears
  no pong declares the link dead and reconnects, resending its whole queue,
  which is more traffic still.  Pings have a bucket of their own
  (``PING_RATE``), which a page's one ping a second never empties, and are
  never refused by the messages' bucket.
- **Order is kept.**  Once a command is shed, the connection's later
  commands are shed too until the shed one comes back (or ``HOLD_S``
  passes): a device's commands are decided in the order it made them, so a
  press shed and sent again never lands after the presses that followed it.
- **A flood ends.**  ``FLOOD_CLOSE`` messages shed in a row close the
  connection (1008).
"""

from __future__ import annotations

import time
from typing import Any, Final

from bgclock.server.edge.auth import RateLimiter
from bgclock.server.live.commands import Command, Handle, KeepMessage, Summon
from bgclock.server.ws.protocol import ProtocolError

#: A connection's pings: 10 at once, then 5 a second (a page pings once a second).
PING_RATE: Final = (10.0, 5.0)
#: What a shed message's sender is told to wait before sending it again.
RETRY_MS: Final = 1000
#: How long a connection's later commands wait for its shed one to come back.
HOLD_S: Final = 10.0
#: Consecutive shed messages after which the connection is closed.
FLOOD_CLOSE: Final = 200


class Shed:
    """One connection's shedding: its buckets and the command it waits for."""

    __slots__ = ("limiter", "pings", "waiting_for", "until", "in_a_row")

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter
        self.pings = RateLimiter(*PING_RATE)
        #: The id of the shed command the connection's later commands wait for.
        self.waiting_for: str | None = None
        self.until = 0.0
        #: Messages shed in a row.
        self.in_a_row = 0

    @property
    def flooding(self) -> bool:
        return self.in_a_row >= FLOOD_CLOSE

    def ping(self) -> bool:
        """Answer this ping (a ping past its own bucket is dropped: a flood)."""
        return self.pings.allow()

    def admit(self, message: Any) -> bool:
        """Take ``message`` (anything but a ping; None: one that did not decode)
        now, or shed it (``refusal``)."""
        held = self.waiting_for
        if held is not None and (getattr(message, "id", None) == held
                                 or time.monotonic() >= self.until):
            self.waiting_for = held = None
        if (held is not None and isinstance(message, Command)) or not self.limiter.allow():
            self.in_a_row += 1
            if self.waiting_for is None and isinstance(message, Command):
                self.wait_for(message.id)
            return False
        self.in_a_row = 0
        return True

    def wait_for(self, msg_id: str) -> None:
        """The connection's command ``msg_id`` was shed: its later commands
        wait for it."""
        self.waiting_for = msg_id
        self.until = time.monotonic() + HOLD_S

    @staticmethod
    def refusal(message: Any, table: int | None) -> ProtocolError:
        """What a shed message's sender is told."""
        msg_id = (message.id if isinstance(message, Command | Summon | Handle | KeepMessage)
                  else None)
        return ProtocolError("rate_limited", "too many messages: slow down (sent again in "
                             "order)", msg_id=msg_id, table=table, retry_ms=RETRY_MS)
