"""A request's principal, worked out once from its own credentials
(``edge.principal``), and a forwarded request that carries them."""

from __future__ import annotations

from starlette.requests import Request

from bgclock.server.cluster.forward import FORWARDED, forwarded_scope, request_message
from bgclock.server.edge.auth import DirectorAuth
from bgclock.server.edge.principal import PRINCIPAL, principal_of
from bgclock.server.edge.publishers import PublishKeys, digest, new_key

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


def test_a_publishing_venue_by_its_key_in_the_header_only() -> None:
    """issue 37 §3: a key publishes as its own club's name; a forged one is nobody."""
    key = new_key("lucca")
    keys = PublishKeys({"lucca": digest(key)})
    found = principal_of(_request(headers={"Authorization": f"Bearer {key}"}), AUTH, keys)
    assert (found.kind, found.publisher, found.director) == ("publisher", "lucca", False)
    forged = "lucca." + key.partition(".")[2][::-1]
    assert principal_of(_request(headers={"Authorization": f"Bearer {forged}"}), AUTH,
                        keys).kind == "nobody"
    assert principal_of(_request(f"key={key}"), AUTH, keys).publisher is None
    other = new_key("pisa")  # a name this server has no key for
    assert principal_of(_request(headers={"Authorization": f"Bearer {other}"}), AUTH,
                        keys).kind == "nobody"
