"""The server's own index page.

The table clock, the director's dashboard and the room display are static
files in ``bgclock/web/static`` rendered by ``bgclock.web`` (the table page's
head: ``bgclock.web.modules``, its bundle or its modules preloaded;
docs/pages.md, "Loading on a poor link").
"""

from __future__ import annotations


def index_page() -> str:
    """What ``/`` says: where the links are."""
    return """<!doctype html><html><head><meta charset="utf-8"><title>bgclock</title></head>
<body><h1>bgclock</h1><p>Tournament clock server. Open your table's link, or the
director's link printed when the server started.</p></body></html>"""
