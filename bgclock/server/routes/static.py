"""The pages' static files, with the caching each URL deserves.

``/static/v/<version>/...`` (the version a digest of the files,
``render.pages.static_version``) is what the pages load: its bytes can never
change under that URL, so it is cached for a year (``immutable``).  A version
that is not this server's (a page opened before an upgrade, still loading a
module) gets today's files with ``no-cache``: nothing old is cached under a
name that now means something else.  The bare ``/static/...`` (the manifest's
icons, the service worker's cache, links typed by hand) is revalidated on
every use (``no-cache``; the ETag makes that a 304).  docs/pages.md,
"Caching".
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bgclock.server.render.pages import VERSIONED_PREFIX, static_version

#: A versioned file: its URL changes with its bytes.
IMMUTABLE: Final = b"public, max-age=31536000, immutable"
#: Anything else under /static: use it, but ask first.
REVALIDATE: Final = b"no-cache"


class _Cached:
    """Serve ``app``, adding ``Cache-Control: value`` to its successful answers."""

    def __init__(self, app: ASGIApp, value: bytes) -> None:
        self.app = app
        self.value = value

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", self.value)]}
            await send(message)

        await self.app(scope, receive, send_cached)


def static_routes(folder: Path) -> list[BaseRoute]:
    """The mounts serving ``folder``: this version's (cached for a year), any
    other version's and the bare ``/static`` (both revalidated)."""
    files = StaticFiles(directory=folder)
    here = VERSIONED_PREFIX + static_version(folder)
    return [
        Mount(here, app=_Cached(files, IMMUTABLE), name="static_versioned"),
        Mount(VERSIONED_PREFIX + "{version}", app=_Cached(files, REVALIDATE)),
        Mount("/static", app=_Cached(files, REVALIDATE), name="static"),
    ]
