"""The tournament routes' JSON bodies, each declared once (``msgspec.Struct``).

As in ``_bodies``, a declaration is the decoder with its bounds, the 422
naming the field (``body.rounds[0].length: must be at most 64``) and the
component in ``/openapi.json``.  The bounds are the pure fold's own
(``bgclock.tournament._running``), which still checks every action it folds
and decides what the values mean (a player who exists, a round that does).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from bgclock.core import PRESETS
from bgclock.tournament._running import (
    MAX_FEDERATION_ID,
    MAX_LATE_SLOTS,
    MAX_MATCH_LENGTH,
    MAX_PLAYER_NAME,
    MAX_REGISTERED,
    MAX_ROUND_SETTINGS,
    MAX_SEED,
    MAX_TABLE_NUMBER,
)

from ._schema import PRINTABLE

#: A result's reason, and a score's points (the fold's ``_text``/``_int``).
MAX_REASON = 200
MAX_SCORE = 999

Text = Annotated[str, Meta(min_length=1, pattern=PRINTABLE)]
Name = Annotated[str, Meta(min_length=1, max_length=MAX_PLAYER_NAME, pattern=PRINTABLE)]
FederationId = Annotated[str, Meta(min_length=1, max_length=MAX_FEDERATION_ID,
                                   pattern=PRINTABLE)]
Reason = Annotated[str, Meta(min_length=1, max_length=MAX_REASON, pattern=PRINTABLE)]
PlayerId = Annotated[int, Meta(ge=1, le=MAX_REGISTERED, description="a player's id")]
Index = Annotated[int, Meta(ge=0, le=MAX_REGISTERED)]
Seed = Annotated[int, Meta(ge=0, le=MAX_SEED)]
Event = Literal["main", "consolation"]
TableNumber = Annotated[int, Meta(ge=1, le=MAX_TABLE_NUMBER)]
Tables = Annotated[list[TableNumber], Meta(max_length=MAX_REGISTERED,
                                           description="one table number per ready match")]
Points = Annotated[int, Meta(ge=0, le=MAX_SCORE)]
Score = Annotated[list[Points], Meta(min_length=2, max_length=2, description="[a, b]")]
#: The rule book is the engine's preset (an unknown one is named by the route).
RuleBook = Annotated[str, Meta(min_length=1, max_length=100, pattern=PRINTABLE,
                               extra_json_schema={"enum": sorted(PRESETS)})]

_OPTS: dict[str, Any] = {"frozen": True, "forbid_unknown_fields": True, "kw_only": True}


class RoundSettingsBody(Struct, **_OPTS):
    """One round's matches: length, rule book, clock policy."""

    length: Annotated[int, Meta(ge=1, le=MAX_MATCH_LENGTH)] | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Literal["required", "on_request", "none"] | UnsetType = UNSET


class SettingsBody(Struct, **_OPTS):
    """``POST /api/tournaments/{id}/settings``: the Main's settings (before the draw)."""

    rounds: Annotated[list[RoundSettingsBody], Meta(
        min_length=1, max_length=MAX_ROUND_SETTINGS,
        description="round by round; later rounds take the last")] | UnsetType = UNSET
    late_slots: Annotated[int, Meta(ge=0, le=MAX_LATE_SLOTS)] | UnsetType = UNSET
    seed: Seed | UnsetType = UNSET


class PlayerBody(Struct, **_OPTS):
    """``POST /api/tournaments/{id}/players``: register a player."""

    name: Name
    federation_id: FederationId | None | UnsetType = UNSET


class CheckInBody(Struct, **_OPTS):
    """``POST .../players/{player_id}/check-in``: in (or out: false)."""

    checked_in: bool | UnsetType = UNSET


class DrawBody(Struct, **_OPTS):
    """``POST .../draw``: the director's seed (else the settings')."""

    seed: Seed | UnsetType = UNSET


class ArriveBody(Struct, **_OPTS):
    """``POST .../late/arrive``: a late arrival takes the next late slot."""

    player: PlayerId


class RoundBody(Struct, **_OPTS):
    """``POST .../rounds``: start a round at tables."""

    round: Index
    event: Event | UnsetType = UNSET
    tables: Tables | UnsetType = UNSET


class ResultBody(Struct, **_OPTS):
    """``POST .../results``: a result entered by hand."""

    round: Index
    match: Index
    winner: Name
    event: Event | UnsetType = UNSET
    score: Score | UnsetType = UNSET


class CorrectionBody(Struct, **_OPTS):
    """``POST .../corrections``: correct a result (logged)."""

    round: Index
    match: Index
    winner: Name
    event: Event | UnsetType = UNSET
    score: Score | UnsetType = UNSET
    reason: Reason | None | UnsetType = UNSET


#: Every tournament body, as published in ``/openapi.json``.
TOURNEY_REQUESTS = (RoundSettingsBody, SettingsBody, PlayerBody, CheckInBody, DrawBody,
                    ArriveBody, RoundBody, ResultBody, CorrectionBody)


def fields_of(body: Struct) -> dict[str, Any]:
    """The body as the plain dict the fold reads: unset fields left out (the
    fold's defaults apply)."""
    out: dict[str, Any] = msgspec.to_builtins(body)
    return out
