"""A person is one entry (issue 32 §3, docs/tournament.md "A person is one
entry"): a register person entered in one event of a room is refused in
another of the same room (``already_entered``, naming the other event) unless
the director confirms; an entry made by mistake is deleted before the draw;
the event's CSV import links its rows to the register."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live_server, store_factory
from tests.test_server_tourney import _post, _state, _tournament

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio


async def _person(live: Any, name: str, fed: str | None = None) -> int:
    body: dict[str, Any] = {"name": name, "rating": 160000}
    if fed is not None:
        body["federation_id"] = fed
    r = await live.http.post("/api/register", json=body, headers=DIRECTOR)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


async def test_a_person_is_refused_in_a_second_event_of_the_room_unless_confirmed(
        tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        champ = await _tournament(live, "Campionato")
        begin = await _tournament(live, "Principianti")
        apart = await _tournament(live, "Altrove")
        for base in (champ, begin):
            await _post(live, f"{base}/flight", {"room": "Sala", "tables": 12})
        anna = await _person(live, "Anna Rossi")
        await _post(live, f"{champ}/players", {"name": "Anna Rossi", "register_id": anna},
                    status=201)
        r = await live.http.post(f"{begin}/players", json={"name": "Anna Rossi",
                                                           "register_id": anna},
                                 headers=DIRECTOR)
        assert r.status_code == 409, r.text
        refused = r.json()
        assert refused["error"] == "already_entered"
        assert refused["params"]["event"] == "Campionato" and "Campionato" in refused["message"]
        assert (await _state(live, begin))["players"] == []  # nothing changed
        # another room's event, or the director's confirmation: entered
        await _post(live, f"{apart}/players", {"name": "Anna Rossi", "register_id": anna},
                    status=201)
        await _post(live, f"{begin}/players", {"name": "Anna Rossi", "register_id": anna,
                                               "confirm": True}, status=201)
        # a malformed confirmation names the field
        bad = await live.http.post(f"{begin}/players", json={"name": "Bo", "confirm": "yes"},
                                   headers=DIRECTOR)
        assert bad.status_code == 422 and "confirm" in bad.text


async def test_an_entry_made_by_mistake_is_deleted_before_the_draw_only(
        tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        base = await _tournament(live)
        for name in ("Ann", "Bob", "Cy"):
            await _post(live, f"{base}/players", {"name": name}, status=201)
        r = await live.http.delete(f"{base}/players/2", headers=DIRECTOR)
        assert r.status_code == 200, r.text
        assert [p["name"] for p in r.json()["state"]["players"]] == ["Ann", "Cy"]
        missing = await live.http.delete(f"{base}/players/2", headers=DIRECTOR)
        assert missing.status_code == 422 and "player" in missing.text
        for pid in (1, 3):
            await _post(live, f"{base}/players/{pid}/check-in")
        await _post(live, f"{base}/draw", {"seed": 1})
        drawn = await live.http.delete(f"{base}/players/1", headers=DIRECTOR)
        assert drawn.status_code == 409 and drawn.json()["error"] == "already_drawn_delete"


async def test_the_events_csv_import_links_its_rows_to_the_register(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        champ = await _tournament(live, "Campionato")
        base = await _tournament(live, "Intermedio")
        for b in (champ, base):
            await _post(live, f"{b}/flight", {"room": "Sala", "tables": 12})
        anna = await _person(live, "Anna Rossi", "FIBA-1")
        bruno = await _person(live, "Bruno Bianchi")
        text = "nome,federation_id\nAnna Rossi,FIBA-1\nBruno Bianchi\nCarla Verdi\n"
        r = await live.http.post(f"{base}/players.csv", content=text.encode(),
                                 headers={**DIRECTOR, "content-type": "text/csv"})
        assert r.status_code == 201, r.text
        assert r.json()["unlinked"] == ["Carla Verdi"]
        links = {p["name"]: p["register_id"] for p in r.json()["state"]["players"]}
        assert links == {"Anna Rossi": anna, "Bruno Bianchi": bruno, "Carla Verdi": None}
        # the same person by CSV into another event of the room: refused, then confirmed
        again = await live.http.post(f"{champ}/players.csv", content=b"name\nBruno Bianchi\n",
                                     headers={**DIRECTOR, "content-type": "text/csv"})
        assert again.status_code == 409, again.text
        assert again.json()["error"] == "already_entered"
        assert again.json()["message"].startswith("line 2: Bruno Bianchi")
        ok = await live.http.post(f"{champ}/players.csv?confirm=true",
                                  content=b"name\nBruno Bianchi\n",
                                  headers={**DIRECTOR, "content-type": "text/csv"})
        assert ok.status_code == 201, ok.text
