"""``bench/attack.py``'s classes for what a credential may read and what a
malformed body does (issue 18 §3): run by ``attack.py`` after its own.

- ``room_poll``: 20 clients read ``room.json`` and ``events.json`` with the
  room token (the link on the room's screen) as fast as they can, over a
  tournament whose appeal was decided with votes and hearing notes; the
  summary counts the reads and any secret seen (goal: none).
- ``bad_bodies``: the director's routes fed bodies that are not UTF-8, a
  players' CSV with a field over Python csv's 131,072-character limit, lone
  surrogates and look-alike names; the summary counts the answers by class
  (goal: no 5xx).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

HEARING = "hearing-notes-the-room-must-not-read"
#: What the room token must never read.
SECRETS = (HEARING, '"votes"', '"hearing"', '"federation_id"', '"seed"', "FIBT")


async def _tournament_with_a_decided_appeal(ctx: Any) -> tuple[int, str]:
    http = ctx.http
    t = (await http.post("/api/tournaments", json={"name": "room attack"})).json()
    base = f"/api/tournaments/{t['id']}"
    csv = "name,federation_id\n" + "".join(f"R{i},FIBT{i}\n" for i in range(1, 9))
    await http.post(f"{base}/players.csv", content=csv.encode(),
                    headers={"content-type": "text/csv"})
    for i in range(1, 9):
        await http.post(f"{base}/players/{i}/check-in", json={})
    await http.post(f"{base}/settings", json={"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "none"}]})
    await http.post(f"{base}/draw", json={"seed": 5})
    state = (await http.post(f"{base}/rounds", json={"round": 0})).json()["state"]
    m = state["matches"][0]
    ids = {p["name"]: p["id"] for p in state["players"]}
    panel = [i for n, i in ids.items() if n not in (m["a"], m["b"])][:3]
    await http.post(f"{base}/committee", json={"members": panel})
    await http.post(f"{base}/appeals", json={"round": 0, "match": m["match"],
                                             "by": ids[m["a"]], "ruling": "cocked dice"})
    votes = {str(p): "uphold" for p in panel}
    r = await http.post(f"{base}/appeals/1/decision", json={"votes": votes, "hearing": HEARING})
    if r.status_code == 422 and "director" in r.text:  # the director votes with the panel
        await http.post(f"{base}/appeals/1/decision", json={
            "votes": {**votes, "director": "uphold"}, "hearing": HEARING})
    room = (await http.get(f"{base}/state")).json()["room_url"].split("token=")[1]
    return int(t["id"]), room


async def room_poll(ctx: Any) -> str:
    """20 clients poll the room's JSON with its token as fast as they can."""
    tid, token = await _tournament_with_a_decided_appeal(ctx)
    reads = leaks = 0
    statuses: Counter[int] = Counter()

    async def one(i: int) -> None:
        nonlocal reads, leaks
        path = "room.json" if i % 2 else "events.json"
        while time.monotonic() < ctx.until:
            r = await ctx.http.get(f"/api/tournaments/{tid}/{path}?token={token}",
                                   headers={"Authorization": ""})
            reads += 1
            statuses[r.status_code] += 1
            leaks += any(s in r.text for s in SECRETS)

    await asyncio.gather(*(one(i) for i in range(20)), return_exceptions=True)
    return (f"{reads} reads ({dict(statuses)}), {leaks} with a secret (votes, hearing, "
            "federation ids, seeds)")


async def bad_bodies(ctx: Any) -> str:
    """Malformed bodies on the director's routes, round after round."""
    t = (await ctx.http.post("/api/tournaments", json={"name": "bodies"})).json()
    base = f"/api/tournaments/{t['id']}"
    json_type = {"content-type": "application/json"}
    csv_type = {"content-type": "text/csv"}
    cases: list[tuple[str, bytes, dict[str, str]]] = [
        (f"{base}/players", b'{"name": "Caf\xe9"}', json_type),
        (f"{base}/players", b'{"name": "\\ud800"}', json_type),
        (f"{base}/players", '{"name": "R\u03bfssi"}'.encode(), json_type),
        (f"{base}/players", '{"name": "Ro\u200bssi"}'.encode(), json_type),
        (f"{base}/settings", b'{"seed": "\xff"}', json_type),
        (f"{base}/tables", b'{"rules": "usbgf-2013-delay", "players": ["\xff", "B"]}',
         json_type),
        (f"{base}/players.csv", b"name\n" + b"x" * 140_000 + b"\n", csv_type),
        ("/api/tournaments", b"\xff\xfe", json_type),
    ]
    await ctx.http.post(f"{base}/players", json={"name": "Rossi"})
    answers: Counter[str] = Counter()
    while time.monotonic() < ctx.until:
        for path, body, headers in cases:
            r = await ctx.http.post(path, content=body, headers=headers)
            answers[f"{r.status_code // 100}xx"] += 1
    return f"{sum(answers.values())} bodies: {dict(sorted(answers.items()))}"


EDGE_ATTACKS = [room_poll, bad_bodies]
