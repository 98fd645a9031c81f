"""A table's flags (``live.flags``), without a server: the expiry timer, and a
flag worked out while the keeper is away, provisional until it is final
(docs/protocol.md "Provisional flags")."""

from __future__ import annotations

from bgclock.core import OpeningRoll
from bgclock.server.live.table_state import Keeper
from tests.server.live.conftest import AtTable


def _running(at_table: AtTable, *, kept: bool) -> int:
    """A's clock runs (the opening roll at 0); its expiry, on the table's time line."""
    table = at_table.table
    table.match.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    if kept:  # its keeper is away
        table.keeper = Keeper("phone", "Tavolo 3")
        table.keeper_offline_since_ms = at_table.clock.now_ms()
    table.flags.rearm()
    expiry = table.match.expires_at()
    assert expiry is not None
    return expiry


def test_the_timer_flags_at_the_expiry_not_before_and_the_result_is_told(
        at_table: AtTable) -> None:
    expiry = _running(at_table, kept=False)
    at_table.clock.advance(expiry - 1)
    assert "expiry" not in at_table.director.kinds()
    at_table.clock.advance(1)
    flagged = at_table.director.last("expiry")
    assert flagged["at_ms"] == expiry and flagged["provisional"] is False
    assert [s.winner for s in at_table.told] == ["B"]


def test_a_flag_while_the_keeper_is_away_is_provisional_until_the_director_confirms_it(
        at_table: AtTable) -> None:
    table = at_table.table
    expiry = _running(at_table, kept=True)
    at_table.clock.advance(expiry)
    assert at_table.director.last("expiry")["provisional"] is True
    assert table.provisional is not None and not at_table.told  # never a result yet
    assert table.flags.settle("director")
    assert table.provisional is None and table.final_flags == {expiry}
    assert [s.winner for s in at_table.told] == ["B"]
    note = at_table.commit()
    assert getattr(note, "note", None) == {"type": "flag_final", "at_ms": expiry,
                                           "how": "director"}


def test_a_provisional_flag_is_final_once_the_keeper_is_silent_past_the_bound(
        at_table: AtTable) -> None:
    table = at_table.table
    expiry = _running(at_table, kept=True)
    at_table.clock.advance(expiry)
    at_table.clock.advance(at_table.hub.provisional_bound_ms - expiry - 1)
    assert table.provisional is not None and not at_table.told
    at_table.clock.advance(1)
    assert table.provisional is None and [s.winner for s in at_table.told] == ["B"]


def test_a_withdrawn_flag_is_never_told(at_table: AtTable) -> None:
    table = at_table.table
    expiry = _running(at_table, kept=True)
    at_table.clock.advance(expiry)
    table.flags.withdraw()  # the keeper's press came before it
    assert table.provisional is None and table.info()["provisional"] is None
    at_table.clock.advance(at_table.hub.provisional_bound_ms)
    assert not at_table.told and not table.final_flags
