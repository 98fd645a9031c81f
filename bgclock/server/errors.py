"""The refusal every HTTP route answers with, and the reading of a CSV body.

``Refused`` is raised (or returned) by the tournament, desk, contest, standings
and register routes alike; this module imports no other route module, so each
of them can import it without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from bgclock.server.edge.limits import BodyTooLarge, read_bounded


class Refused(Exception):
    """A request answered with ``status`` and nothing changed."""

    def __init__(self, status: int, code: str, message: str,
                 params: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.params = dict(params or {})

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.params:
            body["params"] = self.params
        return JSONResponse(body, status_code=self.status)


async def read_csv_text(request: Request, limit: int) -> str:
    """A CSV upload's text: at most ``limit`` bytes (413), UTF-8 with or
    without a byte-order mark (422)."""
    try:
        raw = await read_bounded(request, limit)
    except BodyTooLarge as exc:
        raise Refused(413, "too_large", str(exc)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(422, "invalid", "body: must be UTF-8 text") from None
