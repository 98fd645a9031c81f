"""The tournament routes' JSON bodies, each declared once (``msgspec.Struct``).

As in ``edge.bodies``, a declaration is the decoder with its bounds, the 422
naming the field (``body.rounds[0].length: must be at most 64``) and the
component in ``/openapi.json``.  The bounds are the pure fold's own
(``bgclock.tournament._running``), which still checks every action it folds
and decides what the values mean (a player who exists, a round that does).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from bgclock.core import MODES, PRESETS
from bgclock.server.edge.schema import PRINTABLE
from bgclock.tournament._events import CLOCK_KEYS, MAX_COUPLES
from bgclock.tournament._prizes import MAX_PRIZE_TEXT, MAX_PRIZES
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
from bgclock.tournament._swing import MAX_VP

#: A result's reason, and a score's points (the fold's ``_text``/``_int``).
MAX_REASON = 200
MAX_SCORE = 999
#: A ruling appealed, a hearing, a time (the fold's ``_text``/``_int``).
MAX_RULING = 500
MAX_HEARING = 1000
MAX_MS = 2**53
#: A Swing: its CPP schedule's steps, a clock override, a cube (``_swing``, ``_events``).
MAX_CPP = 1000
#: A score sheet's running score: at most this many lines.
MAX_SHEET_GAMES = 256
MAX_OVERRIDE_MS = 10**9
MAX_CUBE = 4096

Text = Annotated[str, Meta(min_length=1, pattern=PRINTABLE)]
Name = Annotated[str, Meta(min_length=1, max_length=MAX_PLAYER_NAME, pattern=PRINTABLE)]
FederationId = Annotated[str, Meta(min_length=1, max_length=MAX_FEDERATION_ID,
                                   pattern=PRINTABLE)]
Reason = Annotated[str, Meta(min_length=1, max_length=MAX_REASON, pattern=PRINTABLE)]
PlayerId = Annotated[int, Meta(ge=1, le=MAX_REGISTERED, description="a player's id")]
Index = Annotated[int, Meta(ge=0, le=MAX_REGISTERED)]
Seed = Annotated[int, Meta(ge=0, le=MAX_SEED)]
Event = Literal["main", "consolation", "last_chance"]
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
    #: The consolation's first-match losers play a Last Chance (issue 23 §2).
    last_chance: bool | UnsetType = UNSET
    #: Seeded players' ids, best first (issue 23 §3).
    seeds: Annotated[list[PlayerId], Meta(max_length=MAX_REGISTERED,
                                          description="player ids, best first")] \
        | UnsetType = UNSET
    #: Groups (a club, a family) kept apart in the Main's first round.
    groups: Annotated[list[Annotated[list[PlayerId], Meta(min_length=2,
                                                          max_length=MAX_REGISTERED)]],
                      Meta(max_length=MAX_REGISTERED,
                           description="lists of player ids, a player in one at most")] \
        | UnsetType = UNSET


class SeedingBody(Struct, **_OPTS):
    """``POST .../seeding``: seeds and groups from the players' register: the
    ``seeds`` best rated players in the draw, and (``clubs``) the players
    of one club kept apart (issue 23 §3)."""

    seeds: Annotated[int, Meta(ge=0, le=MAX_REGISTERED,
                               description="how many, best rated first")] | UnsetType = UNSET
    clubs: bool | UnsetType = UNSET


class PlayerBody(Struct, **_OPTS):
    """``POST /api/tournaments/{id}/players``: register a player."""

    name: Name
    federation_id: FederationId | None | UnsetType = UNSET
    #: The players' register entry this player is (``GET .../register-search``).
    register_id: Annotated[int, Meta(ge=1, le=MAX_MS)] | UnsetType = UNSET


class CheckInBody(Struct, **_OPTS):
    """``POST .../players/{player_id}/check-in``: in (or out: false)."""

    checked_in: bool | UnsetType = UNSET


class DrawBody(Struct, **_OPTS):
    """``POST .../draw``: the director's seed (else the settings', else one
    the server draws from a cryptographic source)."""

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
    """``POST .../results``: a result entered by hand; while the match's
    table clock runs it is refused (``clock_running``) unless ``stop_clock``
    (the director confirmed: the server stops that clock first)."""

    round: Index
    match: Index
    winner: Name
    event: Event | UnsetType = UNSET
    score: Score | UnsetType = UNSET
    stop_clock: bool | UnsetType = UNSET


class CorrectionBody(Struct, **_OPTS):
    """``POST .../corrections``: correct a result (logged)."""

    round: Index
    match: Index
    winner: Name
    event: Event | UnsetType = UNSET
    score: Score | UnsetType = UNSET
    reason: Reason | None | UnsetType = UNSET


class RevertBody(Struct, **_OPTS):
    """``POST .../results/revert``: undo a match's last correction, else its
    result entered by hand (a compensating action in the log)."""

    round: Index
    match: Index
    event: Event | UnsetType = UNSET


class DismissBody(Struct, **_OPTS):
    """``POST .../clashes/{clash}/dismiss``: the director has seen a clash
    between a table's result and the one held."""

    reason: Reason | None | UnsetType = UNSET


# ------------------------------------------------------------ the desk (``tournaments.desk``)

Ms = Annotated[int, Meta(ge=0, le=MAX_MS, description="milliseconds since 1970")]


class AbsentBody(Struct, **_OPTS):
    """``POST .../late/absent``: a player absent at a match's start."""

    round: Index
    match: Index
    player: PlayerId
    event: Event | UnsetType = UNSET
    from_ms: Annotated[Ms, Meta(description="the count's start (default scheduled + 20 min)")
                       ] | UnsetType = UNSET
    scheduled_ms: Ms | UnsetType = UNSET


#: A sheet's running score: [A, B] after each game (``bgclock.tournament._sheets``).
Games = Annotated[list[Score], Meta(min_length=1, max_length=MAX_SHEET_GAMES,
                                    description="the score [A, B] after each game")]
#: A player's own sheet PIN (``TableTokens.sheet_pin``).
Pin = Annotated[str, Meta(min_length=8, max_length=8, pattern=r"^[0-9]{8}$")]


class SheetBody(Struct, **_OPTS):
    """``POST .../sheets``: the director's score sheet (final) or a player's
    paper sheet entered by the director (the player's own: ``via`` director)."""

    round: Index
    match: Index
    winner: Name
    event: Event | UnsetType = UNSET
    by: Literal["director", "A", "B"] = "director"
    score: Score | UnsetType = UNSET
    games: Games | UnsetType = UNSET


class TableSheetBody(Struct, **_OPTS):
    """``POST /api/tables/{id}/sheet?token=``: a player's score sheet; with
    the player's ``pin`` it is their own (``via`` player), else the table's."""

    by: Literal["A", "B"]
    winner: Name
    score: Score | UnsetType = UNSET
    games: Games | UnsetType = UNSET
    pin: Pin | UnsetType = UNSET


class CommitteeBody(Struct, **_OPTS):
    """``POST .../committee``: the ruling committee, 3 to 5 players."""

    members: Annotated[list[PlayerId], Meta(min_length=3, max_length=5)]


class AppealBody(Struct, **_OPTS):
    """``POST .../appeals``: an appeal of a ruling at a match."""

    round: Index
    match: Index
    by: PlayerId
    ruling: Annotated[str, Meta(min_length=1, max_length=MAX_RULING, pattern=PRINTABLE)]
    event: Event | UnsetType = UNSET
    substitutes: Annotated[list[PlayerId], Meta(max_length=5)] | UnsetType = UNSET


class DecisionBody(Struct, **_OPTS):
    """``POST .../appeals/{appeal}/decision``: the panel's votes and the hearing."""

    votes: Annotated[dict[Annotated[str, Meta(max_length=8)],
                          Literal["uphold", "overturn"]],
                     Meta(max_length=6, description="each panel member's id and "
                          "'director': their vote (the majority decides, a tie upholds)")]
    hearing: Annotated[str, Meta(min_length=1, max_length=MAX_HEARING, pattern=PRINTABLE)
                       ] | None | UnsetType = UNSET


# ----------------------------------- Swing and couples (``tournaments.contests``)

VP = Annotated[int, Meta(ge=1, le=MAX_VP)]
Override = Annotated[int, Meta(ge=0, le=MAX_OVERRIDE_MS)]
Policy = Literal["required", "none"]
Cube = Annotated[int, Meta(ge=1, le=MAX_CUBE, description="1, 2, 4, ...")]


class SwingClockOverride(Struct, **_OPTS):
    """The clock a Swing's single games are played on (each field optional)."""

    mode: Annotated[str, Meta(max_length=100, pattern=PRINTABLE,
                              extra_json_schema={"enum": sorted(MODES)})] | UnsetType = UNSET
    reserve_ms: Override | UnsetType = UNSET
    delay_ms: Override | UnsetType = UNSET
    per_point_ms: Override | UnsetType = UNSET
    less_per_point_ms: Override | UnsetType = UNSET


assert frozenset(SwingClockOverride.__struct_fields__) == CLOCK_KEYS


class SwingBody(Struct, **_OPTS):
    """``POST .../swing``: create the Swing."""

    start_vp: VP
    cpp: Annotated[list[VP], Meta(min_length=1, max_length=MAX_CPP)]
    players: Annotated[list[PlayerId], Meta(min_length=2, max_length=MAX_REGISTERED,
                                            description="default: every player not withdrawn")
                       ] | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Policy | UnsetType = UNSET
    clock_override: SwingClockOverride | UnsetType = UNSET


class SwingRoundBody(Struct, **_OPTS):
    """``POST .../swing/rounds``: pair the next round (``seed``: else drawn, logged)."""

    seed: Seed | UnsetType = UNSET
    tables: Tables | UnsetType = UNSET


class SwingResultBody(Struct, **_OPTS):
    """``POST .../swing/results``: a game's result entered by hand (``result``
    required, as in a contest script: no game is taken as a single unsaid)."""

    game: Index
    winner: Name
    result: Literal["single", "gammon", "backgammon"]
    cube: Cube | UnsetType = UNSET


class SwingCorrectionBody(Struct, **_OPTS):
    """``POST .../swing/corrections``: another result for a game."""

    game: Index
    winner: Name
    result: Literal["single", "gammon", "backgammon"] | UnsetType = UNSET
    cube: Cube | UnsetType = UNSET
    reason: Reason | None | UnsetType = UNSET


class CoupleBody(Struct, **_OPTS):
    """A couple: its name, player 1 and player 2."""

    name: Name
    players: Annotated[list[PlayerId], Meta(min_length=2, max_length=2)]


class CouplesBody(Struct, **_OPTS):
    """``POST .../couples``: create the couples event."""

    couples: Annotated[list[CoupleBody], Meta(min_length=2, max_length=MAX_COUPLES)]
    format: Literal["knockout", "round_robin"] | UnsetType = UNSET
    length: Annotated[int, Meta(ge=1, le=MAX_MATCH_LENGTH)] | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Policy | UnsetType = UNSET


Encounter = Annotated[int, Meta(ge=0, le=MAX_COUPLES * MAX_COUPLES)]
Phase = Annotated[int, Meta(ge=1, le=3)]


class CouplesPhaseBody(Struct, **_OPTS):
    """``POST .../couples/phases``: an encounter's next phase at tables."""

    encounter: Encounter
    tables: Tables | UnsetType = UNSET
    more: bool | UnsetType = UNSET


class CouplesResultBody(Struct, **_OPTS):
    """``POST .../couples/results``: a couples match's result by hand."""

    encounter: Encounter
    phase: Phase
    match: Index
    winner: Name
    score: Score | UnsetType = UNSET


class CouplesCorrectionBody(Struct, **_OPTS):
    """``POST .../couples/corrections``: another winner for a couples match."""

    encounter: Encounter
    phase: Phase
    match: Index
    winner: Name
    score: Score | UnsetType = UNSET
    reason: Reason | None | UnsetType = UNSET


# --------------------------------- the prize list (``tournaments.standings``)

class PrizesBody(Struct, **_OPTS):
    """``POST .../prizes``: one event's prize per place, 1st first ("" for none)."""

    event: Literal["main", "consolation", "last_chance", "swing", "couples"]
    prizes: Annotated[list[Annotated[str, Meta(max_length=MAX_PRIZE_TEXT, pattern=PRINTABLE)]],
                      Meta(max_length=MAX_PRIZES, description="an amount or a prize per "
                           "place, 1st first")]


class SidePoolBody(Struct, **_OPTS):
    """``POST .../side-pools``: a side pool (jackpot) of one event; an empty
    ``players`` removes the pool of that name (issue 23 §5)."""

    pool: Annotated[str, Meta(min_length=1, max_length=60, pattern=PRINTABLE,
                              description="its name (the same name replaces it)")]
    players: Annotated[list[PlayerId], Meta(max_length=MAX_REGISTERED,
                                            description="the members' ids (empty: remove)")]
    event: Literal["main", "consolation", "last_chance", "swing",
                   "couples"] | UnsetType = UNSET
    entry: Annotated[int, Meta(ge=0, le=10_000_000, description="cents")] | UnsetType = UNSET
    split: Annotated[list[Annotated[int, Meta(ge=0, le=100)]], Meta(
        min_length=1, max_length=64,
        description="per cent of the pot per pool place, 1st first, adding to 100")] \
        | UnsetType = UNSET


#: Every tournament body, as published in ``/openapi.json``.
TOURNEY_REQUESTS = (RoundSettingsBody, SettingsBody, PlayerBody, CheckInBody, DrawBody,
                    ArriveBody, RoundBody, ResultBody, CorrectionBody, RevertBody, DismissBody,
                    AbsentBody, SheetBody, TableSheetBody, CommitteeBody, AppealBody,
                    DecisionBody, SwingClockOverride, SwingBody, SwingRoundBody,
                    SwingResultBody, SwingCorrectionBody, CoupleBody, CouplesBody,
                    CouplesPhaseBody, CouplesResultBody, CouplesCorrectionBody, PrizesBody,
                    SidePoolBody, SeedingBody)


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
