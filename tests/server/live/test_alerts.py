"""A table's summonses and handled alerts (``live.alerts``), without a server."""

from __future__ import annotations

import pytest

from bgclock.core import OpeningRoll
from bgclock.server.live.commands import Handle, Summon
from bgclock.server.live.messages import provisional_key
from bgclock.server.live.refusal import Refused
from bgclock.server.live.table_state import Keeper
from tests.server.live.conftest import AtTable, Sink


def test_a_summons_is_told_once_stored_and_the_same_call_again_is_not_a_second(
        at_table: AtTable) -> None:
    table = at_table.table
    phone = at_table.device("phone")
    table.summon(phone, "table", Summon(why="director", side="A", id="s-1", table=1))
    assert "summon" not in at_table.director.kinds()  # not before it is stored
    at_table.commit()
    assert at_table.director.last("summon")["why"] == "director"
    assert phone.last("ack")["id"] == "s-1"
    # nothing happened since: the director is already called
    table.summon(phone, "table", Summon(why="director", side="A", id="s-2", table=1))
    again = phone.last("ack")
    assert again["id"] == "s-2" and again["duplicate"] is True and not at_table.saved


def test_marking_a_provisional_flags_alert_handled_confirms_the_flag(
        at_table: AtTable) -> None:
    table = at_table.table
    table.match.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    table.keeper = Keeper("phone", "Tavolo 3")
    table.keeper_offline_since_ms = at_table.clock.now_ms()
    expiry = table.match.expires_at()
    assert expiry is not None
    table.flags.flag(expiry)
    key = provisional_key(table.id, expiry)
    table.handle(at_table.director, "director", Handle(key=key, id="h-1", table=1))
    assert table.provisional is not None  # not before it is stored
    at_table.commit()
    assert at_table.director.last("handled")["keys"] == [key]
    assert table.provisional is None and [s.winner for s in at_table.told] == ["B"]
    assert getattr(at_table.commit(), "note", None) == {"type": "flag_final", "at_ms": expiry,
                                                       "how": "director"}
    # a second dashboard's mark: acked as the first's
    other = Sink()
    table.handle(other, "director", Handle(key=key, id="h-2", table=1))
    assert other.last("ack")["duplicate"] is True and not at_table.saved


def test_only_the_director_marks_an_alert_handled(at_table: AtTable) -> None:
    phone = at_table.device("phone")
    with pytest.raises(Refused) as refused:
        at_table.table.handle(phone, "table", Handle(key="1:summon:1", table=1))
    assert refused.value.code == "forbidden"
