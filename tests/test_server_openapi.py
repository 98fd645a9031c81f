"""One declaration per input: the OpenAPI document and the protocol's schemas
are made from the msgspec Structs the server decodes with, so a message the
server accepts follows the published schema and one it refuses does not."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest

from bgclock.server.edge.bodies import (
    Adjudicate,
    Board,
    BoardSide,
    ClockOverrides,
    NewTournament,
    TableSpecBody,
)
from bgclock.server.edge.schema import decode_body
from bgclock.server.live.commands import COMMANDS
from bgclock.server.render.openapi import MESSAGES, REQUESTS, openapi
from bgclock.server.ws.protocol import SCHEMAS, ProtocolError, decode
from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]

ROOT = Path(__file__).resolve().parent.parent
DOC = json.loads(json.dumps(openapi()))  # as served: plain JSON
SCHEMAS_JSON = json.loads(json.dumps(SCHEMAS))


def _validator(name: str) -> jsonschema.protocols.Validator:
    """A validator for the component ``name``, its ``$ref``s resolved in the document."""
    schema = {"$ref": f"#/components/schemas/{name}", "components": DOC["components"]}
    return jsonschema.Draft202012Validator(schema)


def _examples() -> list[str]:
    """The client messages of docs/protocol.md, one JSON text a line."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = text.split("### Client → server")[1].split("```json")[1].split("```")[0]
    return block.strip().splitlines()


def test_every_declaration_is_a_component_of_the_document() -> None:
    names = set(DOC["components"]["schemas"])
    declared = [*(t for t in REQUESTS), ClockOverrides, BoardSide,
                *(t for t in MESSAGES if isinstance(t, type)), *COMMANDS]
    for struct in declared:
        assert struct.__name__ in names, struct
        # the component is the declaration's own schema, not a copy kept by hand
        own = msgspec.json.schema(struct, ref_template="#/components/schemas/{name}")
        assert json.loads(json.dumps(own["$defs"][struct.__name__])) == \
            DOC["components"]["schemas"][struct.__name__]
    paths = DOC["paths"]
    body = paths["/api/tournaments/{tournament_id}/tables"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == \
        {"$ref": "#/components/schemas/TableSpecBody"}
    assert paths["/api/tables/{table_id}"]["patch"]["requestBody"]["content"][
        "application/json"]["schema"] == {"$ref": "#/components/schemas/TablePatch"}


def test_every_ref_resolves() -> None:
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(DOC)
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/")
        assert ref.rsplit("/", 1)[1] in DOC["components"]["schemas"], ref


@pytest.mark.parametrize("text", _examples())
def test_the_protocol_pages_examples_round_trip_and_follow_the_document(text: str) -> None:
    message = decode(text)
    again = decode(msgspec.json.encode(message).decode())
    assert again == message
    sent = json.loads(text)
    _validator("ClientMessage").validate(sent)
    jsonschema.validate(sent, SCHEMAS_JSON[sent["type"]])
    # the encoded form (defaults filled in) follows the schema too
    _validator("ClientMessage").validate(json.loads(msgspec.json.encode(message)))


@pytest.mark.parametrize("text", [
    '{"type": "cmd", "id": "x", "do": "hit", "side": "A", "at_ms": 5}',
    '{"type": "cmd", "id": "x", "do": "hit", "side": "A", "dice": [1, 2]}',
    '{"type": "cmd", "id": "x", "do": "adjust", "side": "A", "delta_ms": 86400001}',
    '{"type": "cmd", "id": "x", "do": "penalty", "side": "A", "points": 0}',
    '{"type": "cmd", "id": "", "do": "resume"}',
    '{"type": "cmd", "id": "x", "do": "teleport"}',
    '{"type": "cmd", "id": "x", "do": "stop", "side": "A", "reason": "restart"}',
    '{"type": "hello", "last_seq": 9223372036854775808}',
    '{"type": "hello", "queued": 10001}',
    '{"type": "summon", "why": "coffee", "side": "A"}',
    '{"type": "sync", "table": 0}',
    '{"type": "ping", "v": 2}',
])
def test_what_the_server_refuses_the_document_refuses(text: str) -> None:
    with pytest.raises(ProtocolError):
        decode(text)
    with pytest.raises(jsonschema.ValidationError):
        _validator("ClientMessage").validate(json.loads(text))


@pytest.mark.parametrize(("struct", "body"), [
    (NewTournament, {"name": "Spring Open"}),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 7}),
    (TableSpecBody, {"rules": "aba-2003-standard", "length": 5, "score": [1, 2],
                     "players": ["Cy", "Di"], "name": "7", "teams": False, "crawford": True,
                     "clock": {"mode": "standard", "reserve_ms": 60000}, "warn_s": [30, 10]}),
    (Adjudicate, {"position": "4HPwATDgc/ABMA", "nodes": 5000}),
    (Board, {"on_roll": {"points": [0] * 23 + [2], "bar": 0, "off": 13},
             "opponent": {"points": [0] * 5 + [15] + [0] * 18}, "dice": [6, 1]}),
])
def test_a_good_body_decodes_round_trips_and_follows_the_document(
        struct: type[msgspec.Struct], body: dict[str, Any]) -> None:
    decoded = decode_body(json.dumps(body).encode(), struct)
    assert decode_body(msgspec.json.encode(decoded), struct) == decoded
    _validator(struct.__name__).validate(body)


@pytest.mark.parametrize(("struct", "body", "field"), [
    (NewTournament, {"name": ""}, "body.name"),
    (NewTournament, {"name": "Open", "year": 2026}, "body.year"),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 65}, "body.length"),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 3, "score": [0, 129]},
     "body.score[1]"),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 3, "players": ["A", "B\x01"]},
     "body.players[1]"),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 3, "clock": {"delay_ms": -1}},
     "body.clock.delay_ms"),
    (TableSpecBody, {"rules": "usbgf-2013-delay", "length": 3, "warn_s": []}, "body.warn_s"),
    (Adjudicate, {"position": "x", "nodes": 0}, "body.nodes"),
    (Board, {"on_roll": {"points": [0] * 23 + [16]}, "opponent": {"points": [0] * 24}},
     "body.on_roll.points[23]"),
])
def test_a_bad_body_is_refused_naming_the_field_and_the_document_refuses_it(
        struct: type[msgspec.Struct], body: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(field)}: "):
        decode_body(json.dumps(body).encode(), struct)
    with pytest.raises(jsonschema.ValidationError):
        _validator(struct.__name__).validate(body)


def test_protocol_errors_name_the_field() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode('{"type": "cmd", "id": "c1", "table": 4, "do": "hit", "side": "C"}')
    error = caught.value.to_message()
    assert error["code"] == "invalid" and error["field"] == "cmd.side"
    assert error["id"] == "c1" and error["table"] == 4
    assert error["message"] == "cmd.side: must be one of A, B, not 'C'"
    with pytest.raises(ProtocolError) as caught:
        decode('{"type": "cmd", "id": "c2", "do": "hit", "side": "A", "lag_ms": 60001}')
    assert caught.value.code == "bad_message" and caught.value.field == "cmd.lag_ms"
    assert "at most 60000" in caught.value.message


#: The tournament's POST routes that take no JSON body (CSV: its own reader).
_NO_JSON_BODY = {"/players.csv", "/players/{player_id}/withdraw",
                 "/players/{player_id}/reinstate", "/late/close", "/close",
                 "/players/{player_id}/reenter"}


def test_every_tournament_post_body_is_a_component() -> None:
    base = "/api/tournaments/{tournament_id}"
    seen = 0
    for path, ops in DOC["paths"].items():
        if not path.startswith(base) or "post" not in ops:
            continue
        if path[len(base):] in _NO_JSON_BODY:
            assert "requestBody" not in ops["post"] or path.endswith(".csv"), path
            continue
        schema = ops["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert set(schema) == {"$ref"}, path
        assert schema["$ref"].rsplit("/", 1)[1] in DOC["components"]["schemas"], path
        seen += 1
    assert seen >= 8


@pytest.mark.anyio
@pytest.mark.parametrize(("route", "body", "component", "field"), [
    ("settings", {"rounds": [{"length": 65}]}, "SettingsBody", "body.rounds[0].length"),
    ("players", {"name": "Ann", "rank": 1}, "EntryBody", "body.rank"),
    ("draw", {"seed": -1}, "DrawBody", "body.seed"),
    ("rounds", {"round": 0, "tables": [0]}, "RoundBody", "body.tables[0]"),
    ("results", {"round": 0, "match": 0, "winner": "A", "score": [1]}, "ResultBody",
     "body.score"),
    ("committee", {"members": [1, 2]}, "CommitteeBody", "body.members"),
    ("appeals/1/decision", {"votes": {"1": "maybe"}}, "DecisionBody", "body.votes[...]"),
    ("swing", {"start_vp": 10, "cpp": [0]}, "SwingBody", "body.cpp[0]"),
    ("couples", {"couples": [{"name": "X", "players": [1]}]}, "CouplesBody",
     "body.couples[0].players"),
    ("couples/results", {"encounter": 0, "phase": 4, "match": 0, "winner": "A"},
     "CouplesResultBody", "body.phase"),
])
async def test_a_bad_tournament_body_is_refused_by_the_server_and_the_schema(
        live: Any, route: str, body: dict[str, Any], component: str, field: str) -> None:
    with pytest.raises(jsonschema.ValidationError):
        _validator(component).validate(body)
    r = await live.http.post("/api/tournaments", json={"name": "Open"}, headers=DIRECTOR)
    r = await live.http.post(f"/api/tournaments/{r.json()['id']}/{route}", json=body,
                             headers=DIRECTOR)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(f"{field}: "), r.text
