"""``/p/{club}`` and ``/p/{club}.json``: a club's public events, anyone's
(issue 37 §4): its own tournaments of this server that are public and what
its venues published here that is up; never another club's, the server
director's own or a private one; in English or Italian; nothing cached."""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.server.edge.named_keys import PUBLISHING, add_key
from bgclock.server.routes import clubs
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

#: A venue's tournament as published: two players, made public.
PUBLIC = [{"do": "register", "name": "Ann"}, {"do": "register", "name": "Bob"},
          {"do": "set_public", "public": True}]
SCRIPT = '<script>alert("x")</script> & Co'


async def _hosted(live: Any, name: str, club: str | None, *, public: bool = True,
                  closed: bool = False) -> int:
    """A tournament of this server, the club's (made as ``bgclock clubs add``'s
    director would), put up and closed by the server's director."""
    row = await live.server.store.create_tournament(name, live.server.clock.now_ms(), club)
    if public:
        r = await live.http.patch(f"/api/tournaments/{row.id}", json={"public": True},
                                  headers=DIRECTOR)
        assert r.status_code == 200 and r.json()["public"] is True, r.text
    if closed:
        r = await live.http.post(f"/api/tournaments/{row.id}/close", headers=DIRECTOR)
        assert r.status_code == 200, r.text
    return int(row.id)


async def _publish(live: Any, key: str, tid: int, name: str, actions: list[dict[str, Any]],
                   *, first: int = 1, closed: bool = False) -> None:
    body = {"tournament": tid, "name": name, "closed": closed, "first": first,
            "actions": actions, "live": {"clocks": [], "late": [], "server_ms": 5}}
    r = await live.http.post("/api/publish", json=body,
                             headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text


async def _events(live: Any, club: str) -> dict[str, Any]:
    r = await live.http.get(f"/p/{club}.json")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return dict(r.json())


async def _two_clubs(live: Any) -> dict[str, int]:
    """Lucca's and Pisa's events, the server director's own, and Lucca's
    and Pisa's venues' publications: some public, some not, some closed."""
    made = {
        "open": await _hosted(live, "Coppa di Lucca", "lucca"),
        "closed": await _hosted(live, "Autunno lucchese", "lucca", closed=True),
        "private": await _hosted(live, "Lucca segreta", "lucca", public=False),
        "pisa": await _hosted(live, "Pisa Open", "pisa"),
        "own": await _hosted(live, "Torneo del server", None),
    }
    lucca = await add_key(live.server.store, PUBLISHING, "lucca")
    pisa = await add_key(live.server.store, PUBLISHING, "pisa")
    await _publish(live, lucca, 4, "Bar Sport Lucca", PUBLIC)
    await _publish(live, lucca, 5, "Circolo chiuso", PUBLIC, closed=True)
    await _publish(live, lucca, 6, "Lucca privata", PUBLIC[:2])  # never made public
    await _publish(live, lucca, 7, "Lucca ritirata", PUBLIC)
    await _publish(live, lucca, 7, "Lucca ritirata", [{"do": "set_public", "public": False}],
                   first=4)  # taken down at the venue
    await _publish(live, pisa, 4, "Pisa al bar", PUBLIC)
    return made


async def test_a_club_lists_exactly_its_own_public_events(live: Any) -> None:
    made = await _two_clubs(live)
    listed = await _events(live, "lucca")
    assert listed == {"club": "lucca", "events": [
        {"name": "Bar Sport Lucca", "url": f"{live.url}/p/lucca/4", "closed": False,
         "from": "venue"},
        {"name": "Coppa di Lucca", "url": f"{live.url}/p/{made['open']}", "closed": False,
         "from": "hosted"},
        {"name": "Autunno lucchese", "url": f"{live.url}/p/{made['closed']}", "closed": True,
         "from": "hosted"},
        {"name": "Circolo chiuso", "url": f"{live.url}/p/lucca/5", "closed": True,
         "from": "venue"},
    ]}
    # each url is the event's own page, up; the hosted ones are the state's public_url
    for event in listed["events"]:
        assert (await live.http.get(event["url"] + ".json")).status_code == 200, event
    state = await live.http.get(f"/api/tournaments/{made['open']}/state", headers=DIRECTOR)
    assert state.json()["public_url"] == f"{live.url}/p/{made['open']}"
    # Pisa's are Pisa's own
    assert [(e["name"], e["from"]) for e in (await _events(live, "pisa"))["events"]] == [
        ("Pisa al bar", "venue"), ("Pisa Open", "hosted")]
    # taken down: no longer listed
    r = await live.http.patch(f"/api/tournaments/{made['open']}", json={"public": False},
                              headers=DIRECTOR)
    assert r.status_code == 200
    assert "Coppa di Lucca" not in [e["name"] for e in (await _events(live, "lucca"))["events"]]


async def test_nothing_private_is_told(live: Any) -> None:
    made = await _two_clubs(live)
    listed = await _events(live, "lucca")
    assert set(listed) == {"club", "events"}
    assert all(set(e) == {"name", "url", "closed", "from"} for e in listed["events"])
    raw = (await live.http.get("/p/lucca.json")).text + (await live.http.get("/p/lucca")).text
    for secret in ("Ann", "Bob", "Lucca segreta", "Lucca privata", "Lucca ritirata",
                   "Pisa", "Torneo del server", "director-secret-for-tests", "token",
                   f"/p/{made['private']}\"", f"/p/{made['own']}\""):
        assert secret not in raw, secret


async def test_the_page_in_english_and_in_italian(live: Any) -> None:
    made = await _two_clubs(live)
    english = await live.http.get("/p/lucca")
    assert english.status_code == 200 and english.headers["cache-control"] == "no-store"
    assert english.headers["content-type"].startswith("text/html")
    page = english.text
    assert '<html lang="en">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<h1>lucca</h1>" in page
    assert f'<a href="{live.url}/p/{made["open"]}">Coppa di Lucca</a></li>' in page
    assert f'<a href="{live.url}/p/lucca/5">Circolo chiuso</a> ' \
           '<span class="closed">(closed)</span>' in page
    assert page.index("Bar Sport Lucca") < page.index("Coppa di Lucca") \
        < page.index("Autunno lucchese") < page.index("Circolo chiuso")
    assert "<script" not in page and "(concluso)" not in page
    for italian in (await live.http.get("/p/lucca?lang=it"),
                    await live.http.get("/p/lucca", headers={"Accept-Language": "it-IT,en;q=0.5"})):
        assert '<html lang="it">' in italian.text
        assert "(concluso)" in italian.text and "(closed)" not in italian.text
    # the address's lang wins over the browser's
    forced = await live.http.get("/p/lucca?lang=en", headers={"Accept-Language": "it"})
    assert '<html lang="en">' in forced.text


async def test_an_unknown_club_and_a_club_with_nothing_public_list_nothing(live: Any) -> None:
    await _two_clubs(live)
    await _hosted(live, "Siena nascosta", "siena", public=False)
    for club in ("siena", "firenze"):
        assert await _events(live, club) == {"club": club, "events": []}
        page = await live.http.get(f"/p/{club}")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        assert "No public events yet." in page.text and "<li>" not in page.text
        italian = await live.http.get(f"/p/{club}?lang=it")
        assert "Nessun evento pubblico per ora." in italian.text
        assert "Siena nascosta" not in page.text + italian.text


async def test_every_name_is_escaped(live: Any) -> None:
    await _hosted(live, SCRIPT, "lucca")
    assert (await _events(live, "lucca"))["events"][0]["name"] == SCRIPT
    page = (await live.http.get("/p/lucca")).text
    assert "<script" not in page and SCRIPT not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</a>" in page


async def test_the_club_and_the_tournament_pages_do_not_shadow_each_other(live: Any) -> None:
    made = await _two_clubs(live)
    tid = made["open"]
    hosted = (await live.http.get(f"/p/{tid}.json")).json()
    assert hosted["tournament"]["name"] == "Coppa di Lucca"
    assert (await live.http.get(f"/p/{tid}")).status_code == 200
    venue = (await live.http.get("/p/lucca/4.json")).json()
    assert venue["tournament"]["name"] == "Bar Sport Lucca"
    assert (await _events(live, "lucca"))["club"] == "lucca"
    for path in ("/p/Lucca.json", "/p/9lucca.json", "/p/lucca.json/x", f"/p/{made['private']}"):
        assert (await live.http.get(path)).status_code == 404, path


async def test_at_most_so_many_events_are_listed(live: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    await _two_clubs(live)
    monkeypatch.setattr(clubs, "MAX_EVENTS", 2)
    assert [e["name"] for e in (await _events(live, "lucca"))["events"]] == [
        "Bar Sport Lucca", "Coppa di Lucca"]
