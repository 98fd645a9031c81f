"""``GET /api/position?id=...`` and ``POST /api/position``: read and write a board.

Read-only helpers of the dashboard's board (director only): one decoder and one
encoder, ``bgclock.board``'s, for the page.  Nothing is stored.

A side is ``{"points": [24 counts, that side's own point 1 first], "bar": n,
"off": n}``; ``on_roll`` is the side whose turn the position is.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bgclock.board import BoardError, MatchState, Position, position_id, read_position, xgid
from bgclock.board._position import BAR, CHECKERS, POINTS
from bgclock.server.edge.bodies import Board
from bgclock.server.edge.limits import LimitError, check_depth, read_bounded
from bgclock.server.edge.schema import decode_body
from bgclock.server.errors import ApiError, BodyTooLarge

MAX_ID = 200
MAX_BODY = 4096


def _invalid(message: str) -> ApiError:
    return ApiError(422, "invalid", message)


def _side(counts: tuple[int, ...]) -> dict[str, Any]:
    return {"points": list(counts[:POINTS]), "bar": counts[BAR],
            "off": CHECKERS - sum(counts)}


def decoded(text: str) -> dict[str, Any]:
    """The board a typed Position ID / ID:MATCHID / XGID describes.

    Raises ``BoardError`` (in words) when it cannot be read."""
    position, match = read_position(text)
    return {"position_id": position_id(position),
            "on_roll": _side(position.on_roll), "opponent": _side(position.opponent),
            "dice": list(match.dice) if match and match.dice else None}


def encoded(board: Board) -> dict[str, Any]:
    """Position ID and XGID of a board given as in :func:`decoded`
    (``edge.bodies.Board``); ``ValueError`` when the checkers do not make one."""
    mine = (*board.on_roll.points, board.on_roll.bar)
    theirs = (*board.opponent.points, board.opponent.bar)
    try:
        position = Position(on_roll=mine, opponent=theirs)
    except BoardError as exc:
        raise ValueError(f"position: {exc}") from None
    match = MatchState(on_roll=1, dice=board.dice)
    return {"position_id": position_id(position), "xgid": xgid(position, match)}


async def get_position(request: Request) -> Response:
    """Decode a Position ID, ``ID:MATCHID`` or XGID into the board."""
    text = request.query_params.get("id", "")
    if not text.strip():
        raise _invalid("id: a gnubg Position ID (optionally ID:MATCHID) or an XGID")
    if len(text) > MAX_ID:
        raise _invalid(f"id: at most {MAX_ID} characters")
    try:
        return JSONResponse(decoded(text))
    except BoardError as exc:
        raise _invalid(f"id: {exc}") from None


async def post_position(request: Request) -> Response:
    """Encode a board (as ``GET`` returns it) into a Position ID and XGID."""
    try:
        raw = await read_bounded(request, MAX_BODY)
        check_depth(raw)
    except (BodyTooLarge, LimitError):
        raise _invalid("the body is too large") from None
    try:
        return JSONResponse(encoded(decode_body(raw or b"null", Board, prefix="")))
    except ValueError as exc:
        raise _invalid(str(exc)) from None


#: The director's (the guard is on the Mount).
routes = [
    Route("/api/position", get_position, methods=["GET"]),
    Route("/api/position", post_position, methods=["POST"]),
]
