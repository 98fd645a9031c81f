"""The table's page (``routes/pages.py``, issue 33 §4): a request with the
table's token gets the page with the table's snapshot in it, the message
the WebSocket's first snapshot sends, as inert JSON (``#table-boot``); a
request without it gets no page and no snapshot; nothing on the page is a
secret beyond the table's own token, which is already in its address."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests._server_kit import KEY, Device, anyio_backend, live

__all__ = ["anyio_backend", "live"]
pytestmark = pytest.mark.anyio

#: Player names that would end the page's script element, or open a comment
#: in it, were they written there as they are.
NASTY = ["Ann</script><!--", "Bob & <b>Co</b>"]
BOOT = re.compile(r'<script type="application/json" id="table-boot">([^<]*)</script>')


def _boot(page: str) -> Any:
    found = BOOT.findall(page)
    assert len(found) == 1, "one #table-boot element, closed where it should be"
    return json.loads(found[0])


async def test_the_page_carries_the_sockets_first_snapshot(live: Any) -> None:
    table = await live.table(players=NASTY)
    url = f"{live.ws_url}"
    async with Device.open(url, {"v": 1, "token": table["token"]}) as device:
        await device.welcome()
        assert (await device.cmd("opening_roll", dice=[3, 5]))["type"] == "ack"
        await device.send({"type": "sync", "v": 1})
        sent = await device.expect("snapshot")
    r = await live.http.get(f"/t/{table['id']}", params={"token": table["token"]})
    assert r.status_code == 200, r.text
    boot = _boot(r.text)
    assert boot["type"] == "snapshot" and boot["table"] == table["id"]
    assert boot["seq"] == sent["seq"] == 1
    assert boot["info"]["players"] == NASTY
    # the same message, read a moment later (the clock ran between them)
    for message in (boot, sent):
        message["state"].pop("at_ms")
        for side in "AB":
            message["state"][side] = {k: v for k, v in message["state"][side].items()
                                      if not k.endswith("_ms")}
        for moving in ("offline_since_ms", "state", "devices"):
            message["info"]["link"].pop(moving)
    assert boot == sent


async def test_no_secret_beyond_the_tables_own_token(live: Any) -> None:
    table = await live.table()
    other = await live.table()
    room = live.server.tourneys.room_token(table["tournament_id"])
    page = (await live.http.get(f"/t/{table['id']}", params={"token": table["token"]})).text
    assert _boot(page)["table"] == table["id"]
    for secret in (KEY, other["token"], room, table["token"]):
        assert secret not in page


async def test_no_page_and_no_snapshot_without_the_tables_token(live: Any) -> None:
    table = await live.table(players=["Zelda Secretname", "Bob"])
    other = await live.table()
    for params in ({"token": other["token"]}, {"token": "nope"}, {}):
        r = await live.http.get(f"/t/{table['id']}", params=params)
        assert r.status_code in (401, 403), (params, r.status_code)
        assert "Zelda" not in r.text and "table-boot" not in r.text
