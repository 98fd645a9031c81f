"""``GET /api/position?id=...`` and ``POST /api/position``: read and write a board.

Read-only helpers of the dashboard's board (director only): one decoder and one
encoder, ``bgclock.board``'s, for the page.  Nothing is stored.

A side is ``{"points": [24 counts, that side's own point 1 first], "bar": n,
"off": n}``; ``on_roll`` is the side whose turn the position is.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.board import BoardError, MatchState, Position, position_id, read_position, xgid
from bgclock.board._position import BAR, CHECKERS, POINTS

MAX_ID = 200
MAX_BODY = 4096


def _error(message: str) -> JSONResponse:
    return JSONResponse({"error": "invalid", "message": message}, status_code=422)


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


def _counts(data: Any, name: str) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise ValueError(f"{name}: an object with points (24 counts) and bar")
    unknown = set(data) - {"points", "bar", "off"}
    if unknown:
        raise ValueError(f"{name}.{sorted(unknown)[0]}: unknown field")
    points, bar = data.get("points"), data.get("bar", 0)
    if not isinstance(points, list) or len(points) != POINTS:
        raise ValueError(f"{name}.points: a list of 24 checker counts")
    for i, n in enumerate(points):
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= CHECKERS:
            raise ValueError(f"{name}.points[{i}]: a count from 0 to 15")
    if isinstance(bar, bool) or not isinstance(bar, int) or not 0 <= bar <= CHECKERS:
        raise ValueError(f"{name}.bar: a count from 0 to 15")
    return (*points, bar)


def encoded(data: Any) -> dict[str, Any]:
    """Position ID and XGID of a board given as in :func:`decoded`.

    Raises ``ValueError`` naming the field for anything wrong."""
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    unknown = set(data) - {"on_roll", "opponent", "dice"}
    if unknown:
        raise ValueError(f"{sorted(unknown)[0]}: unknown field")
    mine = _counts(data.get("on_roll"), "on_roll")
    theirs = _counts(data.get("opponent"), "opponent")
    dice = data.get("dice")
    if dice is not None and not (
            isinstance(dice, list) and len(dice) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise ValueError("dice: two numbers from 1 to 6, or null before the roll")
    try:
        position = Position(on_roll=mine, opponent=theirs)
    except BoardError as exc:
        raise ValueError(f"position: {exc}") from None
    match = MatchState(on_roll=1, dice=(dice[0], dice[1]) if dice else None)
    return {"position_id": position_id(position), "xgid": xgid(position, match)}


async def get_position(server: Any, request: Request) -> Response:
    """Decode a Position ID, ``ID:MATCHID`` or XGID into the board."""
    text = request.query_params.get("id", "")
    if not text.strip():
        return _error("id: a gnubg Position ID (optionally ID:MATCHID) or an XGID")
    if len(text) > MAX_ID:
        return _error(f"id: at most {MAX_ID} characters")
    try:
        return JSONResponse(decoded(text))
    except BoardError as exc:
        return _error(f"id: {exc}")


async def post_position(server: Any, request: Request) -> Response:
    """Encode a board (as ``GET`` returns it) into a Position ID and XGID."""
    body = await request.body()
    if len(body) > MAX_BODY:
        return _error("the body is too large")
    try:
        data = json.loads(body or b"null")
    except ValueError:
        return _error("the body must be JSON")
    try:
        return JSONResponse(encoded(data))
    except ValueError as exc:
        return _error(str(exc))
