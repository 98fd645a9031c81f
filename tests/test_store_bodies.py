"""The stored form of event and note bodies: orjson writes the bytes the
standard library always wrote (``canonical_json``)."""

from __future__ import annotations

import json
import random

from bgclock.core import ClockError, Event
from bgclock.store import StoredEvent, StoredNote, canonical_json
from tests.engine_random import sequence


def stdlib(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def test_every_kind_of_event_is_stored_as_the_standard_library_wrote_it() -> None:
    rng = random.Random(21)
    bodies = 0
    for _ in range(200):
        _, _, steps, _ = sequence(rng, 40)
        for step in steps:
            if "query_ms" in step:
                continue
            try:
                body = Event.from_dict(step).to_dict()
            except (ClockError, KeyError, TypeError, ValueError):
                body = step  # a malformed one: still a JSON object
            assert canonical_json(body) == stdlib(body), body
            bodies += 1
    assert bodies > 2000


def test_text_orjson_would_write_otherwise_goes_through_the_standard_library() -> None:
    for body in ({"type": "keeper", "device": "tablette-Élodie"},
                 {"why": "premature", "name": "Zoë \u2014 \U0001f3b2"},
                 {"n": 2**70, "neg": -(2**65)},
                 {"s": "quote \" backslash \\ tab \t nl \n ctl \x01 del \x7f"},
                 {"b": "z", "a": [1, {"y": None, "x": True}], "c": False},
                 {"lone": "\ud800"}):
        assert canonical_json(body) == stdlib(body), body


def test_stored_events_and_notes_use_it() -> None:
    event = StoredEvent(table_id=1, seq=1, idem_key="k", at_ms=5,
                        event={"v": 1, "do": "hit", "side": "A", "at_ms": 5}, source="table",
                        lag_credit_ms=0, received_ms=7)
    note = StoredNote(table_id=1, n=1, seq=1, idem_key=None, at_ms=5,
                      note={"type": "summon", "why": "other", "side": "B"}, source="table",
                      received_ms=7)
    assert event.body() == '{"at_ms":5,"do":"hit","side":"A","v":1}'
    assert note.body() == '{"side":"B","type":"summon","why":"other"}'
