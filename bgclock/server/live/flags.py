"""A table's flags: the expiry timer, the flag, and a provisional flag made final.

One timer per running clock fires at the engine's expiry instant and is
re-armed after every accepted event (``rearm``); a command judged at an
instant past the expiry applies the expiry first (``flag``, from the
runner), so a press never loses to a late tick nor wins against an early
one.

A flag the server works out while the keeper is away is *provisional*
(``live.table_state.flag``): shown as such, never a result.  It becomes
final (``settle``) when the keeper reconciles without withdrawing it, when
the director confirms it (its alert handled), or when the keeper stays
silent past ``hub.provisional_bound_ms``; it is withdrawn when a press of
the keeper comes back from before it.  A final flag of a kept table is
stored (a ``flag_final`` note), so a restart does not make it provisional
again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bgclock.core import SIDES, MatchState
from bgclock.server.live.messages import dumps, provisional_key
from bgclock.server.live.table import Table
from bgclock.server.live.table_state import Flag, provisional_final
from bgclock.server.live.table_state import flag as flag_of

log = logging.getLogger("bgclock.server")


class Flags:
    """The expiry timer and the flags of one table; ``report_over`` is what
    the table does with a result (``TableRunner.report_over``: tell the
    tournament once)."""

    def __init__(self, table: Table, report_over: Callable[[MatchState], None]) -> None:
        self.table = table
        self.report_over = report_over

    # ------------------------------------------------------------ the timer

    def rearm(self) -> None:
        """The timer at the running clock's expiry (none if no clock runs)."""
        t = self.table
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        expiry = t.match.expires_at()
        if expiry is not None and not t.closed:
            t.timer = t.hub.clock.call_at(t.row.created_ms + expiry, self._on_timer)

    def _on_timer(self) -> None:
        t = self.table
        t.timer = None
        expiry = t.match.expires_at()
        if expiry is None:
            return
        if t.match_now() < expiry:  # the loop's clock fired early
            self.rearm()
            return
        self.flag(expiry)

    def flag(self, expiry: int) -> None:
        """The running clock reached 0 at ``expiry``: tell every watcher.
        While the keeper is away the flag is provisional (``live.table_state.flag``):
        shown as such, never a result until it is final."""
        t = self.table
        decided = flag_of(t.table_state())
        provisional = decided is not None and decided.provisional
        if provisional and (expiry in t.final_flags or t.handled.get(
                provisional_key(t.id, expiry)) is not None):
            provisional = False  # final already (before a restart)
        elif not provisional and t.keeper is not None:
            self.flag_final(expiry, "keeper online")
        side = SIDES[t.match.on_turn] if t.match.on_turn is not None else None
        state = t.match.state(expiry)
        text = dumps({"type": "expiry", "table": t.id, "seq": t.seq, "at_ms": expiry,
                      "state": state.to_dict(), "provisional": provisional})
        self.rearm()
        if provisional:
            t.provisional = Flag(expiry, provisional=True)
            t.provisional_side = side
            self._arm_bound()
        if t.committed_seq == t.seq:
            t.broadcast(text)
            if provisional:
                t.broadcast(t.table_message())
            self.report_over(state)
        else:  # keep the order: the updates before it go out first
            def after_commit(error: BaseException | None) -> None:
                t.broadcast(text)
                if provisional:
                    t.broadcast(t.table_message())
                self.report_over(state)

            t.hub.writer.submit(None, after_commit)

    # ---------------------------------------------------- provisional flags

    def settle(self, how: str) -> bool:
        """Make a provisional flag final (the keeper reconciled and did not
        withdraw it, the director confirmed it, or the keeper stayed silent
        past the bound): the result goes to the tournament.  True if one was."""
        t = self.table
        flag = t.provisional
        if flag is None:
            return False
        if how == "reconciled" and t.table_state().keeper_away:
            return False
        self.end()
        self.flag_final(flag.at_ms, how)
        log.info("table %d: the flag at %d ms is final (%s)", t.id, flag.at_ms, how)
        t.broadcast(t.table_message())
        state = t.match.copy().state()
        self.report_over(state)
        return True

    def flag_final(self, at_ms: int, how: str) -> None:
        """Store that the flag at ``at_ms`` is final (once)."""
        t = self.table
        if at_ms in t.final_flags or t.closed or t.quarantined is not None:
            return
        t.final_flags.add(at_ms)
        t.store_note({"type": "flag_final", "at_ms": at_ms, "how": how}, "server")

    def withdraw(self) -> None:
        """The keeper's press came before the flag: it never happened."""
        if self.table.provisional is None:
            return
        self.end()
        self.table.broadcast(self.table.table_message())

    def check_told(self) -> None:
        """The live match no longer ends as the result told to the tournament
        (a keeper's press came back before a flag made final by the bound):
        the director's alert names both."""
        t = self.table
        if (t.over_reported and t.reported is not None and t.conflict is None
                and t.match.phase != "match_over"):
            t.conflict = {"told": t.reported, "final": None}
            t.broadcast(t.table_message())

    def end(self) -> None:
        """No provisional flag any more (made final, withdrawn, or the table stops)."""
        t = self.table
        t.provisional = None
        t.provisional_side = None
        if t.provisional_timer is not None:
            t.provisional_timer.cancel()
            t.provisional_timer = None

    def _arm_bound(self) -> None:
        """The keeper silent for ``hub.provisional_bound_ms``: the flag is final."""
        t = self.table
        if t.provisional_timer is not None:
            t.provisional_timer.cancel()
        since = t.keeper_offline_since_ms
        start = t.hub.clock.now_ms() if since is None else since
        t.provisional_timer = t.hub.clock.call_at(start + t.hub.provisional_bound_ms,
                                                  self._on_bound)

    def _on_bound(self) -> None:
        t = self.table
        t.provisional_timer = None
        if t.provisional is None:
            return
        if not provisional_final(t.table_state(), offline_since_ms=t.keeper_offline_since_ms,
                                 now_ms=t.hub.clock.now_ms(),
                                 bound_ms=t.hub.provisional_bound_ms):
            # back but not reconciled yet: give its queue the same bound again
            self._arm_bound()
            return
        self.settle("bound")
