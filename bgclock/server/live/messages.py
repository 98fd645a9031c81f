"""What a table says: the server's messages, in their one JSON form.

Every message the tables send (an ``update`` after a commit, an ``ack``, a
summons, the alerts handled, ...) is built here as a dict and sent as the
text ``dumps`` makes of it, once per message whatever the number of its
watchers.  Beside them, the keys a table stores its commands and notes
under (``idem_key``, ``handled_key``), and the dashboard's key of a
provisional flag's alert.
"""

from __future__ import annotations

from typing import Any

import orjson

from bgclock.store import StoredEvent, StoredNote


def dumps(message: dict[str, Any]) -> str:
    """The compact JSON form every server message is sent in (UTF-8, not
    ``\\u`` escapes; orjson: a tenth of the standard library's time, and a
    state is encoded once per update whatever the number of watchers)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def update_message(stored: StoredEvent, state: dict[str, Any]) -> dict[str, Any]:
    """A committed event and the state right after it, for every watcher."""
    return {"type": "update", "table": stored.table_id, "seq": stored.seq, "event": stored.event,
            "source": stored.source, "lag_credit_ms": stored.lag_credit_ms, "state": state}


def idem_key(role: str, msg_id: str) -> str:
    """A command id as stored: the director's ids are kept apart from the
    devices' (``director/``; a message id never holds a ``/``), so a device's
    id can never swallow the director's command, nor the other way round."""
    return f"director/{msg_id}" if role == "director" else msg_id


def message_id(key: str | None) -> str | None:
    """The id the sender gave, from its stored key."""
    return None if key is None else key.rpartition("/")[2]


def ack_message(stored: StoredEvent, *, duplicate: bool) -> dict[str, Any]:
    """The sender's ack of a committed command (``duplicate``: stored before)."""
    return {"type": "ack", "id": message_id(stored.idem_key), "table": stored.table_id,
            "seq": stored.seq, "at_ms": stored.at_ms, "lag_credit_ms": stored.lag_credit_ms,
            "duplicate": duplicate}


def summon_message(note: StoredNote) -> dict[str, Any]:
    """A stored summons, for the director and the table's devices."""
    return {"type": "summon", "table": note.table_id, "why": note.note["why"],
            "side": note.note["side"], "at_ms": note.at_ms, "seq": note.seq, "n": note.n,
            "source": note.source}


def note_ack_message(note: StoredNote, *, duplicate: bool) -> dict[str, Any]:
    """The sender's ack of a stored note (a summons, a mark of an alert handled)."""
    return {"type": "ack", "id": note.idem_key, "table": note.table_id, "seq": note.seq,
            "at_ms": note.at_ms, "lag_credit_ms": 0, "duplicate": duplicate, "note": note.n}


def handled_key(key: str) -> str:
    """A handled note's idem key: one per alert and table (a message id never
    holds a ``/``, so no summons' id can take it)."""
    return f"handled/{key}"


def handled_message(table_id: int, keys: list[str]) -> dict[str, Any]:
    """The alerts of a table the director handled, for every dashboard."""
    return {"type": "handled", "table": table_id, "keys": keys}


def provisional_key(table_id: int, at_ms: int) -> str:
    """The dashboard alert of a provisional flag; the director confirms the
    flag by marking it handled."""
    return f"{table_id}:provisional:{at_ms}"
