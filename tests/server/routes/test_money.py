"""Entries, money and points at the desk on the server (issue 36): the fee
set, entries paid (cash and a note) and one left unpaid, refusals naming
the field or the rule, the ledger for the books, the payouts, the standings
and the prize-giving sheet with the money, and the master points at close;
on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

NAMES = ("Anna", "Bruno", "Carla", "Dario")


async def _post(live: Any, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    r = await live.http.post(path, json=body if body is not None else {}, headers=DIRECTOR)
    assert r.status_code == status, r.text
    return dict(r.json())


async def _get(live: Any, path: str) -> Any:
    r = await live.http.get(path, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    return r


async def _entries(live: Any) -> str:
    r = await live.http.post("/api/tournaments", json={"name": "Coppa"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await _post(live, f"{base}/settings", {"rounds": [{"length": 5, "clock": "none"}]})
    await _post(live, f"{base}/money", {"currency": "EUR", "fee": 2500, "return_pct": "80",
                                        "added": 1000})
    for k, name in enumerate(NAMES, start=1):
        await _post(live, f"{base}/players", {"name": name}, status=201)
        await _post(live, f"{base}/players/{k}/check-in")
    return base


async def test_entries_paid_at_the_desk_the_books_and_the_prize_giving(live: Any) -> None:
    base = await _entries(live)
    await _post(live, f"{base}/payments", {"player": 1, "cents": 2500})
    await _post(live, f"{base}/payments", {"player": 2, "cents": 2500, "method": "note",
                                           "note": "assegno 123"})
    done = await _post(live, f"{base}/payments", {"player": 3, "cents": 2500})
    # the state the desk reads says who has not paid, before the draw
    assert done["state"]["money"]["unpaid"] == [{"player": 4, "name": "Dario", "due": 2500}]
    ledger = (await _get(live, f"{base}/ledger.json")).json()
    assert ledger["totals"]["cash"] == 5000 and ledger["totals"]["notes"] == 2500
    # 4 x 25.00 x 80 % + 10.00 = 90.00
    assert ledger["totals"]["pool"] == 9000
    assert [x["method"] for x in ledger["entries"]] == ["cash", "note", "cash"]
    await _post(live, f"{base}/payments", {"player": 4, "cents": 2500})
    state = (await _post(live, f"{base}/draw", {"seed": 2}))["state"]
    for r in range(2):
        ready = [i for i, m in enumerate(state["main"]["rounds"][r])
                 if m["a"] and m["b"] and not m["winner"]]
        for i in ready:
            m = state["main"]["rounds"][r][i]
            state = (await _post(live, f"{base}/results", {
                "event": "main", "round": r, "match": i, "winner": m["a"],
                "score": [5, 0]}))["state"]
    champion = state["main"]["rounds"][1][0]["winner"]
    pay = (await _get(live, f"{base}/payouts.json")).json()
    # fewer than 8 entries: the winner alone, 100 %
    assert pay["pool"] == 9000 and pay["places"] == [{"bracket": "main", "place": 1,
                                                      "amount": 9000}]
    assert pay["awards"][0]["names"] == [champion]
    books = list(csv.DictReader(io.StringIO((await _get(live, f"{base}/ledger.csv")).text)))
    assert [(b["name"], b["method"], b["amount"], b["currency"]) for b in books] == [
        ("Anna", "cash", "25.00", "EUR"), ("Bruno", "note", "25.00", "EUR"),
        ("Carla", "cash", "25.00", "EUR"), ("Dario", "cash", "25.00", "EUR")]
    assert books[1]["note"] == "assegno 123"
    sheet = (await _get(live, f"{base}/prize-giving.html?lang=it")).text
    assert "Premiazione" in sheet and champion in sheet and "90,00 EUR" in sheet
    assert "Provvisorio" in sheet and "Firma" in sheet
    standings = (await _get(live, f"{base}/standings.html?lang=en")).text
    assert "90.00 EUR" in standings
    closed = await _post(live, f"{base}/close")
    assert closed["points"] == {"on": True, "players": 4, "rows": 4}
    points = (await _get(live, f"{base}/points.json")).json()
    assert points["closed"] and points["rows"][0]["name"] == champion
    # 4 players, 2 wins to 5: 2 x sqrt(5)/3 = 1.49; 0.6 x log2(4) x 1 = 1.20
    assert points["rows"][0]["total"] == 2.69
    rows = list(csv.DictReader(io.StringIO((await _get(live, f"{base}/points.csv")).text)))
    assert rows[0]["name"] == champion and rows[0]["total"] == "2.69"
    assert "USBGF" in rows[0]["source"]
    sheet = (await _get(live, f"{base}/prize-giving.html?lang=en")).text
    assert "Provisional" not in sheet and "Master points" in sheet and "2.69" in sheet


async def test_bad_money_is_refused_naming_the_field_or_the_rule(live: Any) -> None:
    base = await _entries(live)
    r = await live.http.post(f"{base}/payments", json={"player": 1, "cents": 0.5},
                             headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.cents: "), r.text
    r = await live.http.post(f"{base}/payments", json={"player": 1, "cents": 100,
                                                       "method": "card"}, headers=DIRECTOR)
    assert r.status_code == 422 and "body.method" in r.json()["message"], r.text
    r = await live.http.post(f"{base}/money", json={"return_pct": "90.5%"}, headers=DIRECTOR)
    assert r.status_code == 422 and r.json()["message"].startswith("body.return_pct"), r.text
    r = await live.http.post(f"{base}/money", json={"shares": "50,30"}, headers=DIRECTOR)
    assert r.status_code == 422 and "shares: must add to 100" in r.json()["message"], r.text
    r = await live.http.post(f"{base}/payments", json={"player": 1, "cents": 2501},
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "overpaid", r.text
    assert r.json()["params"]["due"] == "25.00"
    r = await live.http.post(f"{base}/refunds", json={"player": 1, "cents": 1},
                             headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "refund_too_much", r.text
    ledger = (await _get(live, f"{base}/ledger.json")).json()
    assert ledger["lines"] == 0 and len(ledger["unpaid"]) == 4


async def test_points_switched_off_are_not_worked_out_at_close(live: Any) -> None:
    base = await _entries(live)
    await _post(live, f"{base}/money", {"points": False})
    closed = await _post(live, f"{base}/close")
    assert closed["points"] == {"on": False, "players": 0, "rows": 0}
    text = (await _get(live, f"{base}/points.csv")).text
    assert text.strip() == "rank,name,federation_id,won,match_win,placement,total,division," \
                           "players,source"
