"""The director's session: the key in an address exchanged for a cookie, and
the page a browser sees without one.

``bgclock serve`` prints the director's link once, with the key in it
(``/director?key=KEY``).  A browser that opens an address with a key
(``KeyExchange``) gets the session cookie (``edge.principal.SESSION_COOKIE``:
HttpOnly, SameSite=Lax, Secure over https, the value ``DirectorAuth.session``)
and a 303 to the same address without ``key``: the key never sits in the
history, a bookmark, a printout's footer or the server's access log of the
pages that follow, and every page and printout the dashboard opens is read
with the cookie.  A wrong key, or a director's page opened without a key
or a session, shows a small page in the browser's language (``refusal``)
saying what to do; the API keeps answering JSON 401.

Why Lax and not Strict (docs/architecture.md, "The director's session"): a
director who opens the printed link from another site's page (a webmail, a
chat's web client) makes a cross-site navigation, and a Strict cookie set by
its answer is not sent on the 303 that follows, so the dashboard would open
refused.  What Lax lets through, a cross-site top-level GET, changes nothing
on this server, and a change or a WebSocket counts the cookie only from this
server's own pages (``edge.principal.session_counts``).
"""

from __future__ import annotations

from html import escape
from typing import Final
from urllib.parse import urlencode

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from bgclock.server.context import server_of
from bgclock.server.edge.principal import SESSION_COOKIE

#: The languages of the refusal page (the dashboard's).
LANGS: Final = ("en", "it")

#: The refusal page's words: why (``missing``, ``wrong``, ``ended``) and what to do.
WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "bgclock · director",
        "heading": "The director's pages",
        "missing": "This page is the tournament director's, and this browser does not "
                   "hold the director's key.",
        "wrong": "This key does not open the director's pages: it is not the key "
                 "the server holds now.",
        "ended": "This browser's director session has ended: the director's key "
                 "was changed since.",
        "todo": "Open the director's link that bgclock serve printed when it started "
                "(the line \u201cDirector: \u2026/director?key=\u2026\u201d). This browser "
                "then remembers it, and the address shown drops the key.",
        "lost": "Link lost? Restarting bgclock serve prints it again; "
                "--rotate-director-key makes a new one and ends every old session.",
    },
    "it": {
        "title": "bgclock · direttore",
        "heading": "Le pagine del direttore",
        "missing": "Questa pagina è del direttore del torneo, e questo browser non ha "
                   "la chiave del direttore.",
        "wrong": "Questa chiave non apre le pagine del direttore: non è la chiave "
                 "che il server usa ora.",
        "ended": "La sessione del direttore in questo browser è finita: la chiave del "
                 "direttore è stata cambiata.",
        "todo": "Apri il link del direttore che bgclock serve ha stampato all'avvio "
                "(la riga \u201cDirector: \u2026/director?key=\u2026\u201d). Questo browser "
                "poi lo ricorda, e l'indirizzo mostrato perde la chiave.",
        "lost": "Link perso? Riavviando bgclock serve viene stampato di nuovo; "
                "--rotate-director-key ne crea uno nuovo e chiude ogni sessione vecchia.",
    },
}


def page_request(conn: HTTPConnection) -> bool:
    """``conn`` is a browser opening a page (a navigation), not a script's
    read: the API's JSON refusals stay for the latter."""
    mode = conn.headers.get("sec-fetch-mode")
    if mode is not None:
        return mode == "navigate"
    return "text/html" in conn.headers.get("accept", "")


def page_language(conn: HTTPConnection) -> str:
    """The refusal page's language: the address's ``lang`` if it is one of
    ``LANGS``, else the first of them the browser's ``Accept-Language``
    prefers (by its q values), else English."""
    asked = conn.query_params.get("lang")
    if asked in LANGS:
        return asked
    best, best_q = "en", 0.0
    for part in conn.headers.get("accept-language", "").split(","):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if lang in LANGS and q > best_q:
            best, best_q = lang, q
    return best


def refusal(conn: HTTPConnection, why: str) -> HTMLResponse:
    """The 401 page a browser sees on a director's page it may not open:
    ``why`` is ``missing``, ``wrong`` or ``ended``."""
    lang = page_language(conn)
    words = WORDS[lang]
    body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(words['title'])}</title><style>"
            "body{font:1.05rem/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;"
            "color:#1b1b1b;background:#fafafa}main{max-width:34rem;margin:auto}"
            "h1{font-size:1.3rem}code{font-size:.95em}</style></head><body><main>"
            f'<h1>{escape(words["heading"])}</h1>'
            f'<p id="why" data-why="{why}">{escape(words[why])}</p>'
            f'<p id="todo">{escape(words["todo"])}</p>'
            f'<p id="lost">{escape(words["lost"])}</p></main></body></html>')
    return HTMLResponse(body, status_code=401, headers={"vary": "accept-language"})


def refusal_reason(offered: str | None) -> str:
    """Why a director's page is refused, from the credential offered."""
    return {None: "missing", "session": "ended"}.get(offered, "wrong")


def session_header(conn: HTTPConnection, value: str) -> str:
    """The ``Set-Cookie`` value of the director's session for ``conn``."""
    secure = "; Secure" if conn.url.scheme in ("https", "wss") else ""
    return f"{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax{secure}"


def without_key(conn: HTTPConnection) -> str:
    """``conn``'s path and query with every ``key`` dropped (the rest kept)."""
    kept = [(k, v) for k, v in conn.query_params.multi_items() if k != "key"]
    return conn.url.path + ("?" + urlencode(kept) if kept else "")


class KeyExchange:
    """ASGI middleware: a browser opening any address with ``?key=`` gets,
    for the right key, the session cookie and a 303 to the address without
    the key; for a wrong one, the refusal page.  Everything else (a script's
    read with ``?key=``, a bearer header, a WebSocket) goes on untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD")
                or b"key=" not in scope.get("query_string", b"")):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        if "key" not in request.query_params or not page_request(request):
            await self.app(scope, receive, send)
            return
        server = server_of(request)
        answer: Response
        principal = server.principal(request)
        if principal.director:
            answer = RedirectResponse(without_key(request), status_code=303)
            # the server director's session, or the club's (``edge.named_keys``)
            value = (server.director.session() if principal.club is None
                     else server.clubs.session(principal.club))
            answer.headers.append("set-cookie", session_header(request, value))
        else:
            answer = refusal(request, "wrong")
        await answer(scope, receive, send)
