"""The server's pages: the table clock, the director's dashboard, the room
display, the public page and the index, rendered from their static files in
``bgclock/web/static`` (served at ``/static/``).  A page is its file with the
few things it needs from the server filled in: the versioned address of its
files, the presets' time modes (so the page counts each mode down the way
the engine does), the table's id and its snapshot; the table page's head
comes from ``render.modules`` (its bundle, or its modules preloaded;
docs/pages.md, "Loading on a poor link").
"""

from __future__ import annotations

import hashlib
import html
import json
from functools import lru_cache
from pathlib import Path
from typing import Final

from bgclock.core import PRESETS
from bgclock.server.render.modules import deliver

#: The pages' files, served at ``/static/``.
STATIC_DIR: Final = Path(__file__).resolve().parents[2] / "web" / "static"
#: Where the server mounts ``STATIC_DIR``.
STATIC_URL: Final = "/static"
#: The versioned mount: ``/static/v/<version>/...`` serves the same files,
#: cached for a year (docs/pages.md, "Caching").
VERSIONED_PREFIX: Final = STATIC_URL + "/v/"

__all__ = ["STATIC_DIR", "STATIC_URL", "VERSIONED_PREFIX", "director_page", "index_page",
           "inert_json", "presets_json", "public_page", "room_page", "static_version", "table_page",
           "table_worker", "versioned_url"]


@lru_cache(maxsize=4)
def static_version(folder: Path = STATIC_DIR) -> str:
    """A digest of every file under ``folder`` (names and bytes): 12 hex
    characters that change whenever any file the pages load changes.

    Read once per process: the files of an installed server do not change
    while it runs, and an upgrade restarts it."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix().encode("utf-8")
        data = path.read_bytes()
        digest.update(len(name).to_bytes(4, "big") + name)
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:12]


def versioned_url(folder: Path = STATIC_DIR) -> str:
    """Where the pages load their files from: ``/static/v/<version>`` (the
    modules' relative imports stay under it)."""
    return VERSIONED_PREFIX + static_version(folder)


@lru_cache(maxsize=1)
def presets_json() -> str:
    """Each preset's time mode, allowances and break limit, as the pages read them."""
    data = {
        p.id: {
            "title": p.title,
            "mode": p.mode,
            "delay_ms": p.delay_ms,
            "team_delay_ms": p.team_delay_ms,
            "break_ms": p.break_ms,
            "mid_game_start": p.mid_game_start,
            "expiry": p.expiry,
        }
        for p in PRESETS.values()
    }
    # "</" cannot end the script element it sits in.
    return json.dumps(data, sort_keys=True).replace("</", "<\\/")


#: What JSON text may not say as itself inside a ``<script>`` element (it
#: could end the element or open a comment there), and its JSON escape.
_INERT: Final = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                 "\u2028": "\\u2028", "\u2029": "\\u2029"}


def inert_json(text: str) -> str:
    """JSON text made safe inside a ``<script type="application/json">``
    element: the same JSON value, no ``<``, ``>`` or ``&`` left as such."""
    for char, escape in _INERT.items():
        text = text.replace(char, escape)
    return text


@lru_cache(maxsize=8)
def _template(name: str, entry: str | None = None) -> str:
    """A page's file with its script's head (its bundle, or its modules
    preloaded: render/modules.py), read once per process as
    ``static_version`` is: each page opened only fills it in."""
    html = (STATIC_DIR / name).read_text(encoding="utf-8")
    return html if entry is None else deliver(html, STATIC_DIR, entry)


def _render(name: str, entry: str | None = None, **values: str) -> str:
    html = _template(name, entry)
    values = {"STATIC": versioned_url(), "PRESETS": presets_json(), **values}
    for key, value in values.items():
        html = html.replace("{{" + key + "}}", value)
    return html


def table_page(table_id: int, refused_host: str | None = None,
               snapshot: str | None = None) -> str:
    """The table clock page of table ``table_id`` (its token stays in the URL).
    ``refused_host``: the name the page was opened at, when the server would
    refuse its WebSocket there (the page says so instead of reconnecting).
    ``snapshot``: the table's snapshot message as the WebSocket's first
    would send it (JSON text), carried in the page (``#table-boot``) so
    that it draws the clock before the socket answers (docs/pages.md, "The
    clock before the link")."""
    return _render("table.html", entry="table/main.js", TABLE_ID=str(int(table_id)),
                   REFUSED_HOST=html.escape(refused_host or "", quote=True),
                   BOOT=inert_json(snapshot or "null"))


def director_page(club: str | None = None) -> str:
    """The director's dashboard; ``club``: a club's director's (a hosted
    server of many clubs), whose dashboard names the club (its Register
    screen is the club's own register: the API keeps it to the club)."""
    return _render("director.html", CLUB=html.escape(club or "", quote=True))


def room_page() -> str:
    """The room display of a tournament: its draw sheet and every table live
    (read-only; the room token stays in the URL)."""
    return _render("room.html")


def public_page() -> str:
    """A public tournament's page and a player's own page (one page: it reads
    which from its address; no key, nothing private: ``render.public``)."""
    return _render("public.html")


def table_worker() -> str:
    """The table page's service worker (``static/table-sw.js``), served at
    ``/table-sw.js``: a worker's scope cannot reach above its own folder."""
    return _template("table-sw.js")


def index_page() -> str:
    """What ``/`` says: where the links are."""
    return """<!doctype html><html><head><meta charset="utf-8"><title>bgclock</title></head>
<body><h1>bgclock</h1><p>Tournament clock server. Open your table's link, or the
director's link printed when the server started.</p></body></html>"""
