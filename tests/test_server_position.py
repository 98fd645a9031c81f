"""``GET /api/position?id=`` and ``POST /api/position``: the dashboard's board.

One decoder and one encoder (``bgclock.board``'s): a typed ID comes back as
points, bar and borne-off counts; a board entered by clicks goes back as the
same Position ID.  Director only; bad input is a 422 naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest

from bgclock.board import Position, position_id, read_position
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]

pytestmark = pytest.mark.anyio

# A bears off: 2 on its 1 point and 13 off; B has 15 on its 6 point.
BEAR_OFF = Position.from_points({1: 2}, {6: 15})


async def test_a_typed_id_is_decoded_into_points_bar_and_off(live: Any) -> None:
    r = await live.http.get("/api/position", params={"id": " 4HPwATDgc/ABMA "}, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["position_id"] == "4HPwATDgc/ABMA"
    start = Position.initial()
    for name, counts in (("on_roll", start.on_roll), ("opponent", start.opponent)):
        assert out[name]["points"] == list(counts[:24])
        assert out[name]["bar"] == 0 and out[name]["off"] == 0
    assert out["dice"] is None
    r = await live.http.get("/api/position", params={"id": position_id(BEAR_OFF)}, headers=DIRECTOR)
    assert r.json()["on_roll"]["off"] == 13 and r.json()["on_roll"]["points"][0] == 2


async def test_an_xgid_brings_its_dice(live: Any) -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    r = await live.http.get("/api/position", params={"id": text}, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    assert r.json()["dice"] == [5, 2]
    assert r.json()["position_id"] == position_id(read_position(text)[0])


async def test_a_board_is_encoded_into_the_same_id(live: Any) -> None:
    body = {"on_roll": {"points": list(BEAR_OFF.on_roll[:24]), "bar": 0},
            "opponent": {"points": list(BEAR_OFF.opponent[:24]), "bar": 0}, "dice": [3, 1]}
    r = await live.http.post("/api/position", json=body, headers=DIRECTOR)
    assert r.status_code == 200, r.text
    assert r.json()["position_id"] == position_id(BEAR_OFF)
    pos, match = read_position(r.json()["xgid"])
    assert pos == BEAR_OFF and match is not None and match.dice == (3, 1)
    # and back: what GET decodes, POST encodes to the same ID
    back = (await live.http.get("/api/position", params={"id": r.json()["position_id"]},
                                headers=DIRECTOR)).json()
    r2 = await live.http.post("/api/position", json={"on_roll": back["on_roll"],
                                                      "opponent": back["opponent"]},
                              headers=DIRECTOR)
    assert r2.json()["position_id"] == position_id(BEAR_OFF)


async def test_only_the_director_reads_or_writes_boards(live: Any) -> None:
    r = await live.http.get("/api/position", params={"id": "4HPwATDgc/ABMA"})
    assert r.status_code == 401
    r = await live.http.post("/api/position", json={}, headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401


@pytest.mark.parametrize(("query", "field"), [
    ({}, "id:"), ({"id": "   "}, "id:"), ({"id": "not-a-position"}, "id:"),
    ({"id": "x" * 201}, "id:"),
])
async def test_a_bad_id_is_refused_naming_the_field(live: Any, query: dict[str, str],
                                                    field: str) -> None:
    r = await live.http.get("/api/position", params=query, headers=DIRECTOR)
    assert r.status_code == 422
    assert r.json()["error"] == "invalid" and r.json()["message"].startswith(field)


def _board(**over: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"on_roll": {"points": [0] * 23 + [2], "bar": 0},
                            "opponent": {"points": [0] * 5 + [15] + [0] * 18, "bar": 0}}
    body.update(over)
    return body


@pytest.mark.parametrize(("body", "field"), [
    ([], "the body"),
    (_board(extra=1), "extra"),
    (_board(on_roll={"points": [0] * 23}), "on_roll.points"),
    (_board(on_roll={"points": [0] * 23 + [-1]}), "on_roll.points[23]"),
    (_board(opponent={"points": [0] * 24, "bar": 16}), "opponent.bar"),
    (_board(dice=[0, 7]), "dice"),
    (_board(on_roll={"points": [16] + [0] * 23}), "on_roll.points[0]"),
    (_board(on_roll={"points": [9, 9] + [0] * 22}), "position"),   # 18 checkers
    (_board(on_roll={"points": [0] * 18 + [2] + [0] * 5}), "position"),  # on B's 6 point
])
async def test_a_bad_board_is_refused_naming_the_field(live: Any, body: Any, field: str) -> None:
    r = await live.http.post("/api/position", json=body, headers=DIRECTOR)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(field), r.json()["message"]
