"""The tournament routes' JSON bodies: the director's part of each action
as ``bgclock.tournament.actions`` declares it, once for the route, the fold
and ``/openapi.json`` (a declaration is the decoder with its bounds and the
422 naming the field: ``body.rounds[0].length: must be at most 64``).

Only what a route reads and the fold never sees is declared here: a result's
``stop_clock``, an absence's ``scheduled_ms``, a table sheet's ``pin``, the
seeding asked of the players' register.  The fold still decides what the
values mean (a player who exists, a round that does).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from bgclock.tournament import actions as act
from bgclock.tournament.actions import (
    MAX_REGISTERED,
    AppealBody,
    ArriveBody,
    BreakBody,
    BreakPenaltyBody,
    CheckInBody,
    CommitteeBody,
    CorrectionBody,
    CoupleBody,
    CouplesBody,
    CouplesCorrectionBody,
    CouplesPhaseBody,
    CouplesResultBody,
    DecisionBody,
    DismissBody,
    DrawBody,
    FlightBody,
    MatchBody,
    MoneyBody,
    Ms,
    PaymentBody,
    PlayerBody,
    PresumeBody,
    PrizesBody,
    PublicBody,
    ReentryBody,
    RefundBody,
    RevertBody,
    RoundBody,
    RoundSettingsBody,
    SettingsBody,
    SheetBody,
    SidePoolBody,
    SwingBody,
    SwingClockOverride,
    SwingCorrectionBody,
    SwingResultBody,
    SwingRoundBody,
)

__all__ = [
    "AbsentBody", "AppealBody", "ArriveBody", "CheckInBody", "CommitteeBody",
    "CorrectionBody", "CoupleBody", "CouplesBody", "CouplesCorrectionBody",
    "CouplesPhaseBody", "CouplesResultBody", "DecisionBody", "DismissBody", "DrawBody",
    "EntryBody", "FlightBody",
    "PlayerBody", "PrizesBody", "PublicBody", "ResultBody", "RevertBody", "RoundBody",
    "RoundSettingsBody", "SeedingBody", "SettingsBody", "SheetBody", "SidePoolBody",
    "SwingBody", "SwingClockOverride", "SwingCorrectionBody", "SwingResultBody",
    "SwingRoundBody", "TableSheetBody", "TOURNEY_REQUESTS", "choices_of", "fields_of",
    "MoneyBody", "PaymentBody", "RefundBody", "ReentryBody",
    "CheckInAllBody",
]


class SeedingBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../seeding``: seeds and groups from the players' register: the
    ``seeds`` best rated players in the draw, and (``clubs``) the players
    of one club kept apart (issue 23 §3).  Folded as the ``settings`` they give."""

    seeds: Annotated[int, Meta(ge=0, le=MAX_REGISTERED,
                               description="how many, best rated first")] | UnsetType = UNSET
    clubs: bool | UnsetType = UNSET


class EntryBody(PlayerBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../players``: an entry; a register person already entered in
    another event of the same room is refused (``already_entered``) unless
    ``confirm`` (the director said this person plays both)."""

    confirm: bool | UnsetType = UNSET


class ResultBody(act.ResultBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../results``: a result entered by hand; while the match's
    table clock runs it is refused (``clock_running``) unless ``stop_clock``
    (the director confirmed: the server stops that clock first)."""

    stop_clock: bool | UnsetType = UNSET


class AbsentBody(act.AbsentBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../late/absent``: a player absent at a match's start (the
    count from ``from_ms``, else ``scheduled_ms`` + the grace, else now + it)."""

    scheduled_ms: Ms | UnsetType = UNSET


class CheckInAllBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../players/check-in``: these players are present ("all
    present" at the desk), checked in by one composite action (issue 32 §5)."""

    players: Annotated[list[act.PlayerId], Meta(min_length=1, max_length=MAX_REGISTERED,
                                                description="the players' ids")]


#: A player's own sheet PIN (``TableTokens.sheet_pin``).
Pin = Annotated[str, Meta(min_length=8, max_length=8, pattern=r"^[0-9]{8}$")]


class TableSheetBody(act.SheetFields, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tables/{id}/sheet?token=``: a player's score sheet; with
    the player's ``pin`` it is their own (``via`` player), else the table's."""

    by: Literal["A", "B"]
    pin: Pin | UnsetType = UNSET


#: Every tournament body, as published in ``/openapi.json``.
TOURNEY_REQUESTS = (RoundSettingsBody, SettingsBody, EntryBody, CheckInBody, DrawBody,
                    ArriveBody, RoundBody, ResultBody, CorrectionBody, RevertBody, DismissBody,
                    AbsentBody, SheetBody, TableSheetBody, CommitteeBody, AppealBody,
                    DecisionBody, SwingClockOverride, SwingBody, SwingRoundBody,
                    SwingResultBody, SwingCorrectionBody, CoupleBody, CouplesBody,
                    CouplesPhaseBody, CouplesResultBody, CouplesCorrectionBody, PrizesBody,
                    SidePoolBody, SeedingBody, FlightBody, PublicBody,
                    MoneyBody, PaymentBody, RefundBody, ReentryBody,
                    BreakBody, BreakPenaltyBody, MatchBody, PresumeBody, CheckInAllBody)


def choices_of(struct: type[Struct]) -> dict[str, tuple[Any, ...]]:
    """The allowed values of a body's enumerated fields (its nested bodies'
    too), by field name: a wrong one is answered with the right ones."""
    out: dict[str, tuple[Any, ...]] = {}

    def walk(tp: Any, name: str | None) -> None:
        if isinstance(tp, type) and issubclass(tp, Struct):
            for field, hint in typing.get_type_hints(tp, include_extras=True).items():
                walk(hint, field)
        elif typing.get_origin(tp) is Literal and name is not None:
            out[name] = typing.get_args(tp)
        else:
            for arg in typing.get_args(tp):
                walk(arg, name)

    walk(struct, None)
    return out


def fields_of(body: Struct) -> dict[str, Any]:
    """The body as the plain dict the fold reads: unset fields left out (the
    fold's defaults apply)."""
    out: dict[str, Any] = msgspec.to_builtins(body)
    return out
