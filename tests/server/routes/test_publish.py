"""``/api/publish``: a venue's key publishes its own club's tournaments; a
wrong key is refused and logged; a batch resent doubles nothing; a gap is
refused with what the hosted server holds (issue 37 §3)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bgclock.server.edge.named_keys import PUBLISHING, add_key, new_key
from tests._server_kit import anyio_backend, live
from tests.server.routes.test_public import _stream

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

#: A tournament's first actions as a venue stores them: two players, made public.
ACTIONS = [{"do": "register", "name": "Ann"}, {"do": "register", "name": "Bob"},
           {"do": "set_public", "public": True}]


def _batch(first: int, actions: list[dict[str, Any]], tid: int = 4, **extra: Any) -> dict[str, Any]:
    return {"tournament": tid, "name": "Coppa di Lucca", "closed": False, "first": first,
            "actions": actions, "live": {"clocks": [], "late": [], "server_ms": 5}, **extra}


async def _post(live: Any, key: str, body: Any, status: int = 200) -> dict[str, Any]:
    r = await live.http.post("/api/publish", json=body, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == status, r.text
    return dict(r.json())


async def test_a_wrong_key_is_refused_and_logged_and_nothing_is_kept(
        live: Any, caplog: pytest.LogCaptureFixture) -> None:
    key = await add_key(live.server.store, PUBLISHING, "lucca")  # added while the server runs
    forged = "lucca." + key.partition(".")[2][::-1]
    with caplog.at_level(logging.WARNING, "bgclock.server.publish"):
        for bad in (forged, new_key("pisa"), "", "lucca"):
            r = await live.http.post("/api/publish", json=_batch(1, ACTIONS),
                                     headers={"Authorization": f"Bearer {bad}"} if bad else {})
            assert r.status_code == 401, r.text
        assert (await live.http.get("/api/publish")).status_code == 401
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 5 and all(forged not in m and key not in m for m in refused)
    assert await live.server.store.publications() == []
    # the director's key is not a publishing key either
    r = await live.http.post("/api/publish", json=_batch(1, ACTIONS),
                             headers={"Authorization": "Bearer director-secret-for-tests"})
    assert r.status_code == 401
    assert (await _post(live, key, _batch(1, ACTIONS)))["n"] == 3


async def test_a_batch_resent_doubles_nothing_and_a_gap_says_what_is_held(live: Any) -> None:
    key = await add_key(live.server.store, PUBLISHING, "lucca")
    assert await _post(live, key, _batch(1, ACTIONS[:2])) == {"n": 2}
    assert await _post(live, key, _batch(1, ACTIONS)) == {"n": 3}  # its first two held already
    assert await _post(live, key, _batch(1, ACTIONS)) == {"n": 3}  # the whole batch again
    gap = await _post(live, key, _batch(5, [{"do": "register", "name": "Cy"}]), 409)
    assert gap["error"] == "out_of_order" and gap["params"] == {"n": 3}
    assert await _post(live, key, _batch(4, [])) == {"n": 3}  # the live part alone
    status = (await live.http.get("/api/publish", headers={"Authorization": f"Bearer {key}"}))
    assert status.json() == {"club": "lucca", "tournaments": [{"tournament": 4, "n": 3,
                                                                    "closed": False}]}
    view = (await live.http.get("/p/lucca/4.json")).json()
    assert view["url"] == "/p/lucca/4"
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
    row = await live.server.store.publication("lucca", 4)
    assert await live.server.store.published_actions(row.id) == ACTIONS


async def test_bad_batches_name_the_field_and_keep_nothing(live: Any) -> None:
    key = await add_key(live.server.store, PUBLISHING, "lucca")
    for body, field in ((_batch(0, ACTIONS), "$.first"), (_batch(1, ACTIONS, name=""), "$.name"),
                        (_batch(1, ACTIONS, extra=1), "extra"),
                        ({**_batch(1, ACTIONS), "live": {"clocks": 3}}, "$.live.clocks")):
        said = await _post(live, key, body, 422)
        assert field in said["message"], said
    # an action the fold refuses (a third player named as the first): nothing of its batch kept
    said = await _post(live, key, _batch(1, [*ACTIONS, {"do": "register", "name": "Ann"}]), 422)
    assert said["message"].startswith("actions: action 4: "), said
    assert await live.server.store.publications() == []
    assert (await _post(live, key, _batch(1, ACTIONS)))["n"] == 3


async def test_a_key_publishes_only_under_its_own_club(live: Any) -> None:
    """Two venues' tournament 4 never meet: each is kept and served under its key's name."""
    lucca = await add_key(live.server.store, PUBLISHING, "lucca")
    pisa = await add_key(live.server.store, PUBLISHING, "pisa")
    await _post(live, lucca, _batch(1, ACTIONS))
    await _post(live, pisa, _batch(1, [{"do": "register", "name": "Pia"},
                                       {"do": "set_public", "public": True}]))
    assert [p["name"] for p in (await live.http.get("/p/lucca/4.json")).json()["players"]] \
        == ["Ann", "Bob"]
    assert [p["name"] for p in (await live.http.get("/p/pisa/4.json")).json()["players"]] \
        == ["Pia"]
    status = await live.http.get("/api/publish", headers={"Authorization": f"Bearer {pisa}"})
    assert status.json() == {"club": "pisa", "tournaments": [{"tournament": 4, "n": 2,
                                                                   "closed": False}]}
    for path in ("/p/lucca/5.json", "/p/siena/4.json", "/p/lucca/4/player/9.json"):
        assert (await live.http.get(path)).status_code == 404, path
    page = await live.http.get("/p/lucca/4")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    pid = (await live.http.get("/p/lucca/4.json")).json()["players"][0]["id"]
    mine = (await live.http.get(f"/p/lucca/4/player/{pid}.json")).json()
    assert mine["url"] == f"/p/lucca/4/player/{pid}"
    # taken down at the venue: the set_public false, published, takes it down here
    await _post(live, lucca, _batch(4, [{"do": "set_public", "public": False}]))
    assert (await live.http.get("/p/lucca/4.json")).status_code == 404
    assert (await live.http.get("/p/pisa/4.json")).status_code == 200


async def test_the_published_page_is_pushed_and_its_stream_ends_when_taken_down(
        live: Any) -> None:
    key = await add_key(live.server.store, PUBLISHING, "lucca")
    await _post(live, key, _batch(1, ACTIONS))
    async with _stream(live, "/p/lucca/4.stream") as following:
        first = await following()
        assert first is not None and len(first["players"]) == 2
        await _post(live, key, _batch(4, [{"do": "register", "name": "Cy"}]))
        after = await following()
        assert after is not None and [p["name"] for p in after["players"]] == ["Ann", "Bob", "Cy"]
        await _post(live, key, _batch(5, [{"do": "set_public", "public": False}]))
        assert await following() is None  # the open stream ended
    assert (await live.http.get("/p/lucca/4.stream")).status_code == 404
