"""The register imports an Italian spreadsheet (issue 32 §5): Excel's
"CSV" on an Italian PC (semicolons, Windows-1252, Italian headers with the
surname apart, a decimal comma and thousands' dots) or a UTF-8 one with
commas and English headers; ``?preview=true`` says what the import will do
(how many added, updated, the first rows as they will be saved) and saves
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]
pytestmark = pytest.mark.anyio
CSV = {**DIRECTOR, "content-type": "text/csv"}
ITALIAN = ("Cognome;Nome;N. Tessera;Circolo;Punteggio\r\n"
           "Rossi;Nicolò;IT001;Società Scacchi & Dadi;1.522,36\r\n"
           "Bianchi;Anna;;Roma;1500\r\n").encode("cp1252")


async def test_an_italian_excel_export_is_previewed_then_imported(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        r = await live.http.post("/api/register", json={"name": "Anna Bianchi"},
                                 headers=DIRECTOR)
        assert r.status_code == 201, r.text
        r = await live.http.post("/api/register.csv?preview=true", content=ITALIAN,
                                 headers=CSV)
        assert r.status_code == 200, r.text
        seen = r.json()
        assert seen["preview"] and seen["encoding"] == "cp1252" and seen["separator"] == ";"
        assert (seen["added"], seen["updated"]) == (1, 1)
        assert seen["rows"][0] == {"row": 2, "name": "Nicolò Rossi", "federation_id": "IT001",
                                   "club": "Società Scacchi & Dadi", "rating": "1522.36",
                                   "entry": None}
        assert seen["rows"][1]["name"] == "Anna Bianchi" and seen["rows"][1]["entry"] == 1
        listed = (await live.http.get("/api/register", headers=DIRECTOR)).json()
        assert listed["total"] == 1  # the preview saved nothing
        r = await live.http.post("/api/register.csv", content=ITALIAN, headers=CSV)
        assert r.status_code == 201 and r.json() == {"imported": 2, "added": 1, "updated": 1}
        listed = (await live.http.get("/api/register?q=rossi", headers=DIRECTOR)).json()
        assert [(e["name"], e["rating_points"], e["club"]) for e in listed["entries"]] == [
            ("Nicolò Rossi", "1522.36", "Società Scacchi & Dadi")]


async def test_commas_english_headers_and_utf8_still_import(tmp_path: Path) -> None:
    async with store_factory("sqlite", tmp_path) as make, live_server(make) as live:
        text = "\ufeffName,Federation ID,Club,Rating\nCarla Verdi,IT9,Milano,\"1600,5\"\n"
        r = await live.http.post("/api/register.csv", content=text.encode(), headers=CSV)
        assert r.status_code == 201 and r.json()["added"] == 1, r.text
        entry = (await live.http.get("/api/register?q=carla", headers=DIRECTOR)).json()
        assert entry["entries"][0]["rating_points"] == "1600.50"
        assert entry["entries"][0]["federation_id"] == "IT9"
        # an unknown column is still named, in any language
        r = await live.http.post("/api/register.csv", content=b"Nome;Elo\nAnna;1\n",
                                 headers=CSV)
        assert r.status_code == 422 and r.json()["message"].startswith("row 1: elo:"), r.text
