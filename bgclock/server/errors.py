"""How the server says no over HTTP: ``ApiError`` raised anywhere under a
route, and the exception handlers ``create_app`` installs.  (A table's no
is live's own ``live.refusal.Refused``; the WebSocket's ``error`` message
is made only in ``ws``: ``ws.protocol.ProtocolError``.)

Every refusal is ``{"error": CODE, "message": WORDS}`` (with ``params`` when
the rules give them) and its status; nothing is changed by a refused
request.  No route answers an error by hand: it raises ``ApiError`` (or lets
``NotFound`` / ``StoreError`` through) and the handlers here answer.  This
module imports no route module, so every one of them can import it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bgclock.store import NotFound, StoreError, StoreUnavailable
from bgclock.tournament import ContestError, InvalidContest

log = logging.getLogger("bgclock.server")


class BodyTooLarge(ValueError):
    """A body past its limit (``edge.limits.read_bounded``): answered 413
    before the rest of it is read."""


class ApiError(Exception):
    """A request answered with ``status`` and nothing changed."""

    def __init__(self, status: int, code: str, message: str,
                 params: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.params = dict(params or {})
        #: Headers the answer carries (``Retry-After``).
        self.headers: dict[str, str] = {}

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.params:
            body["params"] = self.params
        return JSONResponse(body, status_code=self.status, headers=self.headers or None)


def body_refused(exc: ValueError, status: int = 400) -> ApiError:
    """A body that could not be read or decoded: 413 too large, else
    ``status`` (400 ``bad_request``, 422 ``invalid``)."""
    if isinstance(exc, BodyTooLarge):
        return ApiError(413, "too_large", str(exc))
    return ApiError(status, "bad_request" if status == 400 else "invalid", str(exc))


# ------------------------------------------------------------------ handlers

async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return exc.response()


async def store_failing(request: Request, exc: Exception) -> Response:
    """A request the store could not serve (the database is away, stalled
    past its deadline, or refused): 503 and when to try again, never a 500.
    Sent again, it is done once (what a deadline cut off and landed unseen
    is removed, or done again to the same effect).  ``NotFound``: 404."""
    if isinstance(exc, NotFound):
        return ApiError(404, "not_found", str(exc)).response()
    deadline_s: float = request.app.state.server.store.deadline_s
    retry = max(1, math.ceil(deadline_s))
    log.warning("%s %s: the store failed: %s", request.method, request.url.path, exc)
    said = str(exc) if isinstance(exc, StoreUnavailable) else f"the database refused: {exc}"
    refused = ApiError(503, "storage", f"{said}: try again in {retry} s")
    refused.headers["Retry-After"] = str(retry)
    return refused.response()


async def no_route(request: Request, exc: Exception) -> Response:
    """No route for the path (a path id out of bounds included): the API's
    404 (``not_found``) under ``/api/``; elsewhere Starlette's own answer."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return ApiError(exc.status_code, "not_found", "no such resource").response()
    return Response(exc.detail, status_code=exc.status_code, headers=exc.headers)


#: ``Starlette(exception_handlers=...)``.
HANDLERS: Mapping[Any, Any] = {
    ApiError: api_error,
    StoreError: store_failing,
    404: no_route,
}


def refusal(exc: ContestError) -> ApiError:
    """The answer to a tournament action the rules refused: its stable code
    (``illegal`` / ``invalid`` where the rules gave none) and params."""
    if isinstance(exc, InvalidContest):
        return ApiError(422, exc.code or "invalid", f"body.{exc}", exc.params)
    return ApiError(409, exc.code or "illegal", str(exc), exc.params)
