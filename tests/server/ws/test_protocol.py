"""``ws.protocol``: a table's refusal (live's ``Refused``) as the protocol's
``error`` message, every part of it kept (issue 33 §1)."""

from __future__ import annotations

from bgclock.core import IllegalCommand
from bgclock.server.live.refusal import Refused
from bgclock.server.live.table_state import Refuse
from bgclock.server.ws.protocol import ProtocolError


def test_a_rules_refusal_keeps_its_code_and_params_for_the_pages_catalogue() -> None:
    exc = IllegalCommand("B cannot double: this is the Crawford game",
                         code="crawford_no_double", params={"side": "B", "late": True})
    said = ProtocolError.of(Refused.by_the_rules("illegal", exc).about("c-7", 3)).to_message()
    assert said == {"type": "error", "id": "c-7", "table": 3, "code": "illegal",
                    "message": "B cannot double: this is the Crawford game",
                    "refusal": "crawford_no_double", "params": {"side": "B"}}


def test_a_decisions_refusal_names_its_field_and_a_refusal_of_the_moment_when_to_retry() -> None:
    decided = Refused.of(Refuse("invalid", "cmd.lag_ms: too large", field="cmd.lag_ms"))
    assert ProtocolError.of(decided).to_message() == {
        "type": "error", "id": None, "table": None, "code": "invalid",
        "message": "cmd.lag_ms: too large", "field": "cmd.lag_ms"}
    busy = ProtocolError.of(Refused("rate_limited", "slow down", table=2, retry_ms=500))
    assert busy.to_message()["retry_ms"] == 500 and busy.table == 2

