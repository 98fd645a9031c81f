"""How a table says no: ``Refused``, live's own refusal.

A table refuses a command, a summons, an edit or a hand-over by raising
``Refused`` (or, when the answer goes out later, after a store's read, by
``Watcher.refuse``).  Live says what was refused and why, in its own terms:
a stable code, the words, the engine's refusal with its parts for the
pages' catalogue, the table and the message concerned, and when to send it
again.  It never builds a protocol message: only ``ws`` turns a refusal into
the protocol's ``error`` (``ws.protocol.ProtocolError.of``, for a device
here or one another process relays), and the routes into an HTTP answer
(issue 33 §1).
"""

from __future__ import annotations

from collections.abc import Mapping

from bgclock.core import ClockError
from bgclock.server.live.table_state import Refuse


class Refused(Exception):
    """A table's no: nothing changed.  ``code`` is the stable code
    (``busy``, ``closed``, ``illegal``, ``rate_limited``, ...), ``message``
    the words; ``refusal`` and ``params`` the engine's refusal
    (``bgclock.core.REFUSALS``) when the rules refused; ``field`` the field
    to blame; ``retry_ms`` when a refusal of the moment may be sent again."""

    def __init__(self, code: str, message: str, *, table: int | None = None,
                 msg_id: str | None = None, refusal: str | None = None,
                 params: Mapping[str, str | int] | None = None, field: str | None = None,
                 retry_ms: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.table = table
        self.msg_id = msg_id
        self.refusal = refusal
        self.params = None if params is None else dict(params)
        self.field = field
        self.retry_ms = retry_ms

    @classmethod
    def of(cls, answer: Refuse) -> Refused:
        """A decision's refusal (``table_state.decide``)."""
        return cls(answer.code, answer.message, refusal=answer.refusal,
                   params=answer.params, field=answer.field)

    @classmethod
    def by_the_rules(cls, code: str, exc: ClockError) -> Refused:
        """The engine's refusal, with its stable code for the pages' catalogue."""
        params = {k: v for k, v in exc.params.items()
                  if isinstance(v, str | int) and not isinstance(v, bool)}
        return cls(code, str(exc), refusal=exc.code, params=params)

    def about(self, msg_id: str | None, table: int | None) -> Refused:
        """The same refusal, naming the message and the table it answers."""
        self.msg_id, self.table = msg_id, table
        return self
