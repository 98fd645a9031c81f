"""``POST /api/tables/{table_id}/adjudicate``: the ruling a position calls for.

The director types the position on the board of a table in ``dispute`` (a
BIBA time expiration, or a rejected concession or claim); the board engine
(``bgclock.board.rule_dispute``) says what the rules call for, with its reason
and clause.  It only *suggests*: nothing is applied or stored; the director
confirms by sending the ``ruling`` command it returns, as usual.

The search is CPU-bound (up to a second or two for a contact position, more
with a bigger node budget), so it runs in a worker thread, one at a time per
server (a second request waits its turn), never on the event loop.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.board import DEFAULT_NODE_BUDGET, BoardError, read_position, rule_dispute
from bgclock.core import MatchState
from bgclock.server.context import server_of
from bgclock.server.edge.bodies import Adjudicate
from bgclock.server.edge.limits import LimitError, check_depth, read_bounded
from bgclock.server.edge.schema import decode_body
from bgclock.server.errors import ApiError, BodyTooLarge

#: A position is short: a body past this is not one.
MAX_BODY = 4096


class _Table(Protocol):
    closed: bool
    committed_seq: int

    def state_now(self) -> MatchState: ...


#: One adjudication at a time per server: the searches share the interpreter.
_turns: weakref.WeakKeyDictionary[object, asyncio.Lock] = weakref.WeakKeyDictionary()


def _read_body(body: bytes) -> tuple[str, int]:
    """(position, nodes) from the request's JSON (``edge.bodies.Adjudicate``);
    ValueError says what is wrong."""
    if len(body) > MAX_BODY:
        raise ValueError("the body is too large")
    try:
        check_depth(body)
    except LimitError:
        raise ValueError("the body must be JSON") from None
    data = decode_body(body, Adjudicate)
    if not data.position.strip():
        raise ValueError("body.position: a gnubg Position ID (optionally ID:MATCHID) or an XGID")
    return data.position, data.nodes


def suggestion(state: MatchState, text: str, *, nodes: int = DEFAULT_NODE_BUDGET,
               ) -> dict[str, Any]:
    """The suggested ruling on ``state``'s dispute for the position ``text``.

    The side on roll in the position is ``state.on_turn``; the match (length,
    score, cube) is the table's, whatever match an ID carries.  Raises
    ``BoardError`` (with words) for an unreadable position.  CPU-bound."""
    position, match = read_position(text)
    # dice already rolled (an XGID's or a Match ID's) are the side on roll's first turn
    ruled = rule_dispute(state, position, node_budget=nodes,
                         dice=match.dice if match is not None else None)
    command: dict[str, Any] | None = None
    if ruled.decision is not None:
        command = {"do": "ruling", "decision": ruled.decision}
        if ruled.decision == "gin":
            command["result"] = ruled.result
    judged = ruled.adjudication
    return {"decision": ruled.decision, "result": ruled.result, "ruling": judged.ruling,
            "headline": judged.headline, "reason": judged.reason, "clause": judged.clause,
            "on_roll": state.on_turn, "command": command}


async def adjudicate(request: Request) -> Response:
    """Suggest the ruling on a table's dispute from the position on its board."""
    server = server_of(request)
    table: _Table = await server.table_or_404(request)
    try:
        text, nodes = _read_body(await read_bounded(request, MAX_BODY))
    except BodyTooLarge as exc:
        raise ApiError(413, "too_large", str(exc)) from None
    except ValueError as exc:
        raise ApiError(422, "invalid", str(exc)) from None
    if table.closed:
        raise ApiError(409, "closed", "this table is closed")
    state = table.state_now()
    if state.phase != "dispute":
        raise ApiError(409, "not_in_dispute",
                      "there is no dispute at this table to rule on (phase "
                      f"{state.phase.replace('_', ' ')})")
    try:
        read_position(text)  # unreadable: answered at once, without waiting a turn
    except BoardError as exc:
        raise ApiError(422, "invalid", str(exc)) from None
    seq = table.committed_seq
    turn = _turns.setdefault(server, asyncio.Lock())
    async with turn:
        try:
            out = await asyncio.to_thread(suggestion, state, text, nodes=nodes)
        except BoardError as exc:
            raise ApiError(422, "invalid", str(exc)) from None
    return JSONResponse({**out, "seq": seq})
