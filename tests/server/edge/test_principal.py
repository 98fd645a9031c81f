"""A request's principal, worked out once from its own credentials
(``edge.principal``: the key, the director's session cookie, a token), and
a forwarded request that carries them."""

from __future__ import annotations

from starlette.requests import HTTPConnection, Request

from bgclock.server.cluster.forward import FORWARDED, forwarded_scope, request_message
from bgclock.server.edge.auth import DirectorAuth
from bgclock.server.edge.named_keys import PUBLISHING, NamedKeys, digest, new_key
from bgclock.server.edge.principal import PRINCIPAL, SESSION_COOKIE, principal_of

KEY = "the-directors-key"
AUTH = DirectorAuth(KEY)


def _request(query: str = "", headers: dict[str, str] | None = None) -> Request:
    return Request({"type": "http", "method": "POST", "path": "/api/tables/1/sheet",
                    "query_string": query.encode(),
                    "headers": [(k.lower().encode(), v.encode())
                                for k, v in (headers or {}).items()]})


def test_the_director_by_bearer_or_by_key() -> None:
    assert principal_of(_request(headers={"Authorization": f"Bearer {KEY}"}), AUTH).director
    assert principal_of(_request(f"key={KEY}"), AUTH).director
    assert not principal_of(_request("key=wrong"), AUTH).director
    assert principal_of(_request(), AUTH).kind == "nobody"
    assert principal_of(_request("token=1.abc"), AUTH).kind == "token"


def test_worked_out_once_and_kept_in_the_scope() -> None:
    request = _request(f"key={KEY}")
    first = principal_of(request, AUTH)
    assert request.scope[PRINCIPAL] is first
    assert principal_of(request, DirectorAuth("another")) is first


def test_a_forwarded_request_is_nobody_without_credentials() -> None:
    """The forged sheet of issue 31: forwarded, with no token and no key."""
    msg = request_message("b", "r1", _request().scope, b"{}")
    scope, _ = forwarded_scope(msg)
    assert FORWARDED in scope
    assert principal_of(Request(scope), AUTH).kind == "nobody"


def test_a_forwarded_request_keeps_its_credentials_and_is_checked_again() -> None:
    for request in (_request(headers={"Authorization": f"Bearer {KEY}"}),
                    _request(f"key={KEY}")):
        scope, _ = forwarded_scope(request_message("b", "r", request.scope, b""))
        assert principal_of(Request(scope), AUTH).director
    wrong = _request(headers={"Authorization": "Bearer not-the-key"})
    scope, _ = forwarded_scope(request_message("b", "r", wrong.scope, b""))
    assert not principal_of(Request(scope), AUTH).director
    # a verdict cannot travel: only the credentials do
    forged = _request()
    forged.scope[PRINCIPAL] = "director"
    scope, _ = forwarded_scope(request_message("b", "r", forged.scope, b""))
    assert PRINCIPAL not in scope


# ------------------------------------------------ the director's session cookie

SESSION = AUTH.session()


def _cookie(value: str, method: str = "GET", **headers: str) -> Request:
    request = _request(headers={"Cookie": f"{SESSION_COOKIE}={value}", **headers})
    request.scope["method"] = method
    return request


def test_the_session_cookie_is_the_director_and_is_not_the_key() -> None:
    assert SESSION != KEY and KEY not in SESSION
    principal = principal_of(_cookie(SESSION), AUTH)
    assert principal.director and principal.offered == "session"
    assert not principal_of(_cookie("forged"), AUTH).director
    assert not principal_of(_cookie(KEY), AUTH).director  # the key is not a session


def test_a_new_key_ends_every_session() -> None:
    """--rotate-director-key: a cookie made with the old key opens nothing."""
    rotated = DirectorAuth("a-fresh-key")
    assert not principal_of(_cookie(SESSION), rotated).director
    assert principal_of(_cookie(rotated.session()), rotated).director


def test_a_key_given_is_the_credential_even_beside_a_session() -> None:
    wrong = _request("key=wrong", headers={"Cookie": f"{SESSION_COOKIE}={SESSION}"})
    assert principal_of(wrong, AUTH).offered == "key"
    assert not principal_of(wrong, AUTH).director
    bad = _request(headers={"Cookie": f"{SESSION_COOKIE}={SESSION}",
                            "Authorization": "Bearer not-the-key"})
    assert not principal_of(bad, AUTH).director


def test_a_change_counts_the_session_only_from_the_servers_own_pages() -> None:
    """CSRF: another site's page can make the browser send the cookie; it
    cannot hide where the request came from."""
    host = {"Host": "bgclock.lan:8000"}
    own = {"Origin": "http://bgclock.lan:8000", "Sec-Fetch-Site": "same-origin", **host}
    assert principal_of(_cookie(SESSION, "POST", **own), AUTH).director
    assert principal_of(_cookie(SESSION, "DELETE", **host), AUTH).director  # not a browser
    # behind a TLS proxy the page is https, this hop http: the host decides
    assert principal_of(_cookie(SESSION, "POST", Origin="https://bgclock.lan:8000", **host),
                        AUTH).director
    for foreign in ({"Origin": "http://evil.example", **host},
                    {"Sec-Fetch-Site": "cross-site", **host},
                    {"Sec-Fetch-Site": "same-site", "Origin": "http://x.bgclock.lan", **host}):
        assert not principal_of(_cookie(SESSION, "POST", **foreign), AUTH).director, foreign
    # a read changes nothing: the session counts from anywhere (SameSite=Lax sends it)
    assert principal_of(_cookie(SESSION, "GET", **{"Sec-Fetch-Site": "cross-site"}), AUTH).director


def test_a_websocket_counts_the_session_only_from_the_servers_own_pages() -> None:
    def ws(origin: str) -> HTTPConnection:
        return HTTPConnection({"type": "websocket", "path": "/ws", "query_string": b"",
                               "headers": [(b"host", b"bgclock.lan"), (b"origin", origin.encode()),
                                           (b"cookie", f"{SESSION_COOKIE}={SESSION}".encode())]})
    assert principal_of(ws("http://bgclock.lan"), AUTH).director
    assert not principal_of(ws("http://evil.example"), AUTH).director


def test_a_forwarded_request_keeps_its_session_cookie_and_is_checked_again() -> None:
    for value, director in ((SESSION, True), ("forged", False)):
        scope, _ = forwarded_scope(request_message("b", "r", _cookie(value).scope, b""))
        assert principal_of(Request(scope), AUTH).director is director


def test_a_publishing_venue_by_its_key_in_the_header_only() -> None:
    """issue 37 §3: a key publishes as its own club's name; a forged one is nobody."""
    key = new_key("lucca")
    keys = NamedKeys(PUBLISHING, {"lucca": digest(key)})
    found = principal_of(_request(headers={"Authorization": f"Bearer {key}"}), AUTH, keys)
    assert (found.kind, found.publisher, found.director) == ("publisher", "lucca", False)
    forged = "lucca." + key.partition(".")[2][::-1]
    assert principal_of(_request(headers={"Authorization": f"Bearer {forged}"}), AUTH,
                        keys).kind == "nobody"
    assert principal_of(_request(f"key={key}"), AUTH, keys).publisher is None
    other = new_key("pisa")  # a name this server has no key for
    assert principal_of(_request(headers={"Authorization": f"Bearer {other}"}), AUTH,
                        keys).kind == "nobody"
