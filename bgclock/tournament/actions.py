"""Every tournament action, declared once: one ``msgspec.Struct`` per action.

Theory of operation
-------------------
A tournament's state is the fold of its action log (``_running``).  Each
kind of action (``{"do": "register", "name": "Ann"}``) is a frozen Struct
tagged by its ``do`` string, its fields bounded by ``Meta`` constraints whose
numbers are the named constants below; the fold reads those same constants
for what a declaration cannot say (a table number not already busy, a player
who exists).  ``decode_action`` turns a stored or posted action (JSON bytes
or a dict) into its Struct, or raises ``InvalidContest`` naming the field
(``rounds[1].clock: must be one of required, on_request, none, not ...``).

The director's part of an action (what an HTTP route receives) is a base
Struct, ``...Body``; the action adds what the server writes itself (the
player of the path, the instant, where a result came from).  The routes
decode their bodies with these bases (``bgclock.server.edge.tourney_bodies``),
so a bound is declared in one place for the route, the fold and
``/openapi.json``.

Encoding a decoded action gives the stored body back: a field the action did
not carry is ``UNSET`` (and left out), never a default written in, so a log
stored before these declarations folds and reads as it was written
(``msgspec.json.encode(..., order="sorted")``, the store's form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, cast

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from bgclock.core import MODES, PRESETS

from ._breaks import MAX_ALLOWANCE
from ._errors import InvalidContest
from ._flights import MAX_PRECEDENCE, MAX_ROOM_NAME, MAX_ROOM_TABLES
from ._prizes import MAX_PRIZE_TEXT, MAX_PRIZES, STANDING_EVENTS
from ._sheets import MAX_GAMES, MAX_POINTS, VIAS
from ._side import MAX_ENTRY_CENTS, MAX_POOL_NAME, MAX_SPLIT
from ._swing import MAX_VP
from .money import MAX_ADDED_CENTS, MAX_UNIT_CENTS

# ------------------------------------------------------------------ bounds

#: Rounds of settings a tournament lists (later rounds take the last).
MAX_ROUND_SETTINGS: Final = 16
MAX_MATCH_LENGTH: Final = 64
MAX_LATE_SLOTS: Final = 512
MAX_TABLE_NUMBER: Final = 9999
#: A seed of ``random.Random`` (a JSON number every reader keeps exact).
MAX_SEED: Final = 2**53
MAX_PLAYER_NAME: Final = 100
MAX_FEDERATION_ID: Final = 40
MAX_REGISTERED: Final = 4096
#: A rule book's id (a clock preset), a result's reason, a ruling, a hearing.
MAX_RULES: Final = 100
MAX_REASON: Final = 200
MAX_RULING: Final = 500
MAX_HEARING: Final = 1000
#: A score's points (a result, a correction, a couples match).
MAX_SCORE: Final = 999
#: An instant (ms since 1970) or an id the store gives.
MAX_MS: Final = 2**53
MAX_TABLE_ID: Final = 2**63 - 1
#: A table's result that clashes with the one held: at most this many, and
#: the label of its match.
MAX_CLASHES: Final = 4096
MAX_MATCH_LABEL: Final = 200
#: A Swing: its CPP schedule's steps, a clock override, a cube.
MAX_CPP: Final = 1000
MAX_OVERRIDE_MS: Final = 10**9
MAX_CUBE: Final = 4096
#: The corrections a revert says it saw on a match (a bound on input, not on play).
MAX_CORRECTIONS: Final = 100_000
MAX_COUPLES: Final = 256
#: The money's settings: a shares or hierarchy text, the rows of a table of
#: places paid by field size (the largest rounding unit and the money added:
#: ``money``'s bounds).
MAX_MONEY_TEXT: Final = 1000
MAX_PAYOUT_ROWS: Final = 64
#: An appeal's substitutes (a committee has at most 5 members).
MAX_COMMITTEE: Final = 5
MAX_APPEALS: Final = 2**31
#: A score sheet's running score: at most this many lines (``_sheets``).
MAX_SHEET_GAMES: Final = MAX_GAMES

#: A Swiss's rounds and a More Swiss's losses (``formats``' bounds).
MAX_SWISS_ROUNDS: Final = 200
MAX_FORMAT_LOSSES: Final = 20

#: Who keeps time at a round's tables.
CLOCK_POLICIES: Final = ("required", "on_request", "none")
#: The brackets of the Main event (a double elimination's losers' bracket
#: and final: ``losers`` and ``final``, ``_double``).
EVENTS: Final = ("main", "consolation", "last_chance", "losers", "final")
#: How a result came in.
RESULT_SOURCES: Final = ("clock", "hand", "withdrawn", "disqualified")
#: The clock overrides a Swing's single games may carry.
CLOCK_KEYS: Final = frozenset({"reserve_ms", "delay_ms", "per_point_ms", "less_per_point_ms",
                               "mode"})

#: Printable text: no NUL or other control characters, no lone surrogates.
PRINTABLE: Final = "^[^\\x00-\\x1f\\x7f\\ud800-\\udfff]*$"

Name = Annotated[str, Meta(min_length=1, max_length=MAX_PLAYER_NAME, pattern=PRINTABLE)]
FederationId = Annotated[str, Meta(min_length=1, max_length=MAX_FEDERATION_ID,
                                   pattern=PRINTABLE)]
Reason = Annotated[str, Meta(min_length=1, max_length=MAX_REASON, pattern=PRINTABLE)]
PlayerId = Annotated[int, Meta(ge=1, le=MAX_REGISTERED, description="a player's id")]
Index = Annotated[int, Meta(ge=0, le=MAX_REGISTERED)]
Seed = Annotated[int, Meta(ge=0, le=MAX_SEED)]
Event = Literal["main", "consolation", "last_chance", "losers", "final"]
TableNumber = Annotated[int, Meta(ge=1, le=MAX_TABLE_NUMBER)]
Tables = Annotated[list[TableNumber], Meta(max_length=MAX_REGISTERED,
                                           description="one table number per ready match")]
Points = Annotated[int, Meta(ge=0, le=MAX_SCORE)]
Score = Annotated[list[Points], Meta(min_length=2, max_length=2, description="[a, b]")]
Ms = Annotated[int, Meta(ge=0, le=MAX_MS, description="milliseconds since 1970")]
#: The rule book is the engine's preset (an unknown one is named by the route).
RuleBook = Annotated[str, Meta(min_length=1, max_length=MAX_RULES, pattern=PRINTABLE,
                               extra_json_schema={"enum": sorted(PRESETS)})]
MatchLength = Annotated[int, Meta(ge=1, le=MAX_MATCH_LENGTH)]
SheetPoints = Annotated[int, Meta(ge=0, le=MAX_POINTS)]
SheetLine = Annotated[list[SheetPoints], Meta(min_length=2, max_length=2,
                                              description="[A, B]")]
#: A sheet's running score: [A, B] after each game (``_sheets``).
Games = Annotated[list[SheetLine], Meta(min_length=1, max_length=MAX_SHEET_GAMES,
                                        description="the score [A, B] after each game")]
VP = Annotated[int, Meta(ge=1, le=MAX_VP)]
Override = Annotated[int, Meta(ge=0, le=MAX_OVERRIDE_MS)]
Policy = Literal["required", "none"]
Cube = Annotated[int, Meta(ge=1, le=MAX_CUBE, description="1, 2, 4, ...")]
GameResult = Literal["single", "gammon", "backgammon"]
EncounterIndex = Annotated[int, Meta(ge=0, le=MAX_COUPLES * MAX_COUPLES)]
Phase = Annotated[int, Meta(ge=1, le=3)]
StandingEvent = Literal["main", "consolation", "last_chance", "swing", "couples"]

assert STANDING_EVENTS == ("main", "consolation", "last_chance", "swing", "couples")
assert VIAS == ("player", "director", "table")


# ------------------------------------------------------------------ the Main

class RoundSettingsBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One round's matches: length, rule book, clock policy."""

    length: MatchLength | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Literal["required", "on_request", "none"] | UnsetType = UNSET


class JackpotBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A jackpot's size, match length and room (its tables: ``_flights``)."""

    size: Literal[4, 8]
    length: MatchLength
    room: Annotated[str, Meta(min_length=1, max_length=MAX_ROOM_NAME, pattern=PRINTABLE)] \
        | None | UnsetType = UNSET


class SettingsBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
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
    #: The event's format (issue 35 §2): the Main's knockout (the default), a
    #: Swiss of ``swiss_rounds`` rounds, a More Swiss out at ``losses``
    #: losses, or a round robin (``_weekly``).
    format: Literal["knockout", "swiss", "moreswiss", "roundrobin", "double"] \
        | UnsetType = UNSET
    swiss_rounds: Annotated[int, Meta(ge=1, le=MAX_SWISS_ROUNDS)] | UnsetType = UNSET
    losses: Annotated[int, Meta(ge=1, le=MAX_FORMAT_LOSSES)] | UnsetType = UNSET
    #: Groups (a club, a family) kept apart in the Main's first round.
    groups: Annotated[list[Annotated[list[PlayerId], Meta(min_length=2,
                                                          max_length=MAX_REGISTERED)]],
                      Meta(max_length=MAX_REGISTERED,
                           description="lists of player ids, a player in one at most")] \
        | UnsetType = UNSET
    #: A jackpot (issue 35 §3): a knockout of 4 or 8 that draws and starts
    #: by itself when its last place is taken (``_jackpot``).
    jackpot: JackpotBody | None | UnsetType = UNSET
    #: Re-entries (``reenter``) are taken until this instant (ms since 1970).
    reentry_until_ms: Ms | None | UnsetType = UNSET


class Settings(SettingsBody, tag="settings", tag_field="do",
               frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Each round's length, rule book and clock; late slots; the seed; the
    Last Chance; seeds and groups.  Only before the draw."""


class PlayerBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments/{id}/players``: register a player."""

    name: Name
    federation_id: FederationId | None | UnsetType = UNSET
    #: The players' register entry this player is (``GET .../register-search``).
    register_id: Annotated[int, Meta(ge=1, le=MAX_MS)] | UnsetType = UNSET


class Register(PlayerBody, tag="register", tag_field="do",
               frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A new player (ids 1, 2, ... in order of registration; names unique)."""


class CheckInBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../players/{player_id}/check-in``: in (or out: false)."""

    checked_in: bool | UnsetType = UNSET


class CheckIn(CheckInBody, tag="check_in", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player checks in (``checked_in`` false: out again, before the draw)."""

    player: PlayerId


class Withdraw(Struct, tag="withdraw", tag_field="do",
               frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player withdraws: they lose every match whose opponent is known."""

    player: PlayerId


class Reinstate(Struct, tag="reinstate", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A withdrawn player comes back (the director's undo)."""

    player: PlayerId


class DeleteEntry(Struct, tag="delete_entry", tag_field="do",
                  frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An entry made by mistake is deleted, while the event is not drawn: it
    leaves the lists, its name and register link are free again (its id is
    never given again)."""

    player: PlayerId


class DrawBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../draw``: the director's seed (else the settings', else one
    the server draws from a cryptographic source)."""

    seed: Seed | UnsetType = UNSET


class Draw(DrawBody, tag="draw", tag_field="do",
           frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The Main of every checked-in player still in; ``seed`` absent (older
    logs): the settings' seed."""


class ArriveBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../late/arrive``: a late arrival takes the next late slot."""

    player: PlayerId


class Arrive(ArriveBody, tag="arrive", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A late arrival: the next late slot of the Main, or (a player marked
    absent at a match) the end of their late count at ``at_ms``."""

    at_ms: Ms | UnsetType = UNSET


class PairRound(Struct, tag="pair_round", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A weekly format's next round paired (the server's, when the director
    starts it): the pairs and the bye as drawn from ``random.Random(seed)``
    by the pure pairing from the results known then (``_weekly``); the fold
    keeps them as they are, so the log replays the same round."""

    round: Index
    seed: Seed
    pairs: Annotated[list[Annotated[list[Name], Meta(min_length=2, max_length=2)]],
                     Meta(max_length=MAX_REGISTERED, description="[a, b] per match")]
    bye: Name | None = None


class Reenter(Struct, tag="reenter", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../players/{player_id}/reenter``: a player knocked out of the
    Main takes its next open late slot (a More Swiss: re-enters its next
    round at 0-0), as a new entry: one more
    entry fee in the ledger too (``_jackpot``).  ``at_ms``: the server's
    time, checked against ``settings.reentry_until_ms``."""

    player: PlayerId
    at_ms: Ms


class CloseLate(Struct, tag="close_late", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The late slots left become byes."""


class RoundBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../rounds``: start a round at tables."""

    round: Index
    event: Event | UnsetType = UNSET
    tables: Tables | UnsetType = UNSET


class StartRound(RoundBody, tag="start_round", tag_field="do",
                 frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Every ready match of a round gets a table number; with ``matches``
    (the server's, for an event in a room: its share of the room's free
    tables) only those do and the round's other ready matches wait."""

    matches: Annotated[list[Index], Meta(max_length=MAX_REGISTERED)] | UnsetType = UNSET


class BindTable(Struct, tag="bind_table", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The clock table serving a table number (the server's)."""

    table: TableNumber
    table_id: Annotated[int, Meta(ge=1, le=MAX_TABLE_ID)]


class MatchBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A match of an event's bracket: round and match (0-based)."""

    round: Index
    match: Index
    event: Event | UnsetType = UNSET


class ResultBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A match's winner and its score."""

    winner: Name
    score: Score | UnsetType = UNSET


class Result(ResultBody, tag="result", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A match's winner, from its table's clock or entered by hand."""

    source: Literal["clock", "hand"] | UnsetType = UNSET


class CorrectionBody(ResultBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../corrections``: correct a result (logged)."""

    reason: Reason | None | UnsetType = UNSET


class Correct(CorrectionBody, tag="correct", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A decided match gets another winner."""


class RevertBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../results/revert``: undo a match's last correction, else its
    result entered by hand (a compensating action in the log).  ``winner``
    and ``corrections``: what the director saw undone (the match's winner,
    and how many corrections it had: 0 undoes the result itself); when the
    match has changed since (another dashboard undid it first), the undo is
    refused instead of undoing the next thing down."""

    winner: Name | UnsetType = UNSET
    corrections: Annotated[int, Meta(ge=0, le=MAX_CORRECTIONS)] | UnsetType = UNSET


class Revert(RevertBody, tag="revert", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A match's last correction undone, else its hand-entered result."""


# ------------------------------------------------------------------ the desk

class AbsentBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player absent at a match's start; the count runs from ``from_ms``."""

    player: PlayerId
    from_ms: Annotated[Ms, Meta(description="the count's start (default scheduled + 20 min)")
                       ] | UnsetType = UNSET


class Absent(AbsentBody, tag="absent", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player absent at a match's start (``from_ms`` required here: the
    route fills it in); ``clock``: a clock at the table keeps the time."""

    at_ms: Ms | UnsetType = UNSET
    clock: bool | UnsetType = UNSET


class Disqualify(MatchBody, tag="disqualify", tag_field="do",
                 frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player loses a match (too late: the server's count ran out)."""

    player: PlayerId
    reason: Reason | UnsetType = UNSET
    score: Score | UnsetType = UNSET


class SheetFields(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A score sheet: the winner, the final score, the score after each game."""

    winner: Name
    score: Score | UnsetType = UNSET
    games: Games | UnsetType = UNSET


class SheetBody(SheetFields, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../sheets``: the director's score sheet (final) or a player's
    paper sheet entered by the director (the player's own: ``via`` director)."""

    round: Index
    match: Index
    event: Event | UnsetType = UNSET
    by: Literal["director", "A", "B"] = "director"


class Sheet(SheetBody, tag="sheet", tag_field="do",
            frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A score sheet: a player's (``by`` A or B) or the director's (final);
    ``via``: who handed it in (absent, older logs: the player's own)."""

    via: Literal["player", "director", "table"] | UnsetType = UNSET


class CommitteeBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../committee``: the ruling committee, 3 to 5 players."""

    members: Annotated[list[PlayerId], Meta(min_length=3, max_length=MAX_COMMITTEE)]


class Committee(CommitteeBody, tag="committee", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The ruling committee."""


class AppealBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../appeals``: an appeal of a ruling at a match."""

    by: PlayerId
    ruling: Annotated[str, Meta(min_length=1, max_length=MAX_RULING, pattern=PRINTABLE)]
    substitutes: Annotated[list[PlayerId], Meta(max_length=MAX_COMMITTEE)] | UnsetType = UNSET


class Appeal(AppealBody, tag="appeal", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An appeal, heard by the committee (members who play it replaced)."""

    at_ms: Ms | None | UnsetType = UNSET


class DecisionBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../appeals/{appeal}/decision``: the votes of the director and of
    the panel members who sat (at least two), and the hearing."""

    votes: Annotated[dict[Annotated[str, Meta(max_length=8)],
                          Literal["uphold", "overturn"]],
                     Meta(max_length=MAX_COMMITTEE + 1, description="the director's and "
                          "each sitting panel member's (at least two) id: their vote (the "
                          "majority of these decides, a tie upholds)")]
    hearing: Annotated[str, Meta(min_length=1, max_length=MAX_HEARING, pattern=PRINTABLE)
                       ] | None | UnsetType = UNSET


class Decide(DecisionBody, tag="decide", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The panel's decision of appeal number ``appeal`` (1, 2, ...)."""

    appeal: Annotated[int, Meta(ge=1, le=MAX_APPEALS)]


class PresumeBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../sheets/presume``: one player's sheet is in and the other's
    is missing; the director confirms the kept sheet's result ("Failure to
    keep score creates presumption in favor of an opponent in case of
    dispute").  ``by``: the side whose sheet the director saw and keeps."""

    by: Literal["A", "B"]


class Presume(PresumeBody, tag="presume", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The one sheet handed in makes the match's result (``_running``)."""


# ------------------------------------------------------------------ breaks (``_breaks``)

class BreakBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../breaks``: a player's break starts at a match played
    without a clock (the server writes the instant)."""

    player: PlayerId


class BreakStart(BreakBody, tag="break_start", tag_field="do",
                 frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A player's break starts at ``at_ms`` (within the rule book's allowance)."""

    at_ms: Ms


class BreakEnd(MatchBody, tag="break_end", tag_field="do",
               frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The break running at a match ends at ``at_ms``
    (``POST .../breaks/end``, the body a ``MatchBody``)."""

    at_ms: Ms


class BreakPenaltyBody(MatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../breaks/penalty``: the director's penalty for a break that
    ran over its 10 minutes: ``points`` to the opponent (0: none); with
    ``score`` (the score before it) the points can end the match."""

    player: PlayerId
    number: Annotated[int, Meta(ge=1, le=MAX_ALLOWANCE, description="the player's 1st or "
                                "2nd break")]
    points: Annotated[int, Meta(ge=0, le=MAX_MATCH_LENGTH)]
    score: Score | UnsetType = UNSET


class BreakPenalty(BreakPenaltyBody, tag="break_penalty", tag_field="do",
                   frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The director's decision on a break that ran over, at ``at_ms``."""

    at_ms: Ms


class ClockResult(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A table's final result: the winner and (when known) the score."""

    winner: Name
    score: Score | None | UnsetType = UNSET


class HeldResult(ClockResult, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The result the tournament holds, and how it came in."""

    source: Literal["clock", "hand", "withdrawn", "disqualified"]


class Clash(Struct, tag="clash", tag_field="do",
            frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A table's final result disagrees with the one held (the server's)."""

    table: TableNumber
    table_id: Annotated[int, Meta(ge=1, le=MAX_TABLE_ID)]
    match: Annotated[str, Meta(min_length=1, max_length=MAX_MATCH_LABEL, pattern=PRINTABLE)]
    players: Annotated[list[Name], Meta(min_length=2, max_length=2)]
    held: HeldResult
    clock: ClockResult
    at_ms: Ms


class DismissBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../clashes/{clash}/dismiss``: the director has seen a clash
    between a table's result and the one held."""

    reason: Reason | None | UnsetType = UNSET


class DismissClash(DismissBody, tag="dismiss_clash", tag_field="do",
                   frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A clash leaves the alerts."""

    clash: Annotated[int, Meta(ge=1, le=MAX_CLASHES)]


# ------------------------------------------------------------------ the prize list

class PrizesBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../prizes``: one event's prize per place, 1st first ("" for none)."""

    event: StandingEvent
    prizes: Annotated[list[Annotated[str, Meta(max_length=MAX_PRIZE_TEXT, pattern=PRINTABLE)]],
                      Meta(max_length=MAX_PRIZES, description="an amount or a prize per "
                           "place, 1st first")]


class Prizes(PrizesBody, tag="prizes", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An event's prize list (replaces that event's)."""


class SidePoolBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../side-pools``: a side pool (jackpot) of one event; an empty
    ``players`` removes the pool of that name (issue 23 §5)."""

    pool: Annotated[str, Meta(min_length=1, max_length=MAX_POOL_NAME, pattern=PRINTABLE,
                              description="its name (the same name replaces it)")]
    players: Annotated[list[PlayerId], Meta(max_length=MAX_REGISTERED,
                                            description="the members' ids (empty: remove)")]
    event: StandingEvent | UnsetType = UNSET
    entry: Annotated[int, Meta(ge=0, le=MAX_ENTRY_CENTS, description="cents")] \
        | UnsetType = UNSET
    split: Annotated[list[Annotated[int, Meta(ge=0, le=100)]], Meta(
        min_length=1, max_length=MAX_SPLIT,
        description="per cent of the pot per pool place, 1st first, adding to 100")] \
        | UnsetType = UNSET


class SidePool(SidePoolBody, tag="side_pool", tag_field="do",
               frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A side pool added, replaced or (no players) removed."""


class FlightBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../flight``: the event's room, whose table numbers it shares
    with the room's other events (null: none), its precedence (1 first:
    the rule book's Championship before Intermediate) and the room's
    table count (0: no limit); issue 23 §1, ``_flights``."""

    room: Annotated[str, Meta(min_length=1, max_length=MAX_ROOM_NAME, pattern=PRINTABLE)] \
        | None | UnsetType = UNSET
    precedence: Annotated[int, Meta(ge=1, le=MAX_PRECEDENCE)] | UnsetType = UNSET
    tables: Annotated[int, Meta(ge=0, le=MAX_ROOM_TABLES)] | UnsetType = UNSET


class Flight(FlightBody, tag="flight", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The event joins a room (or leaves it: ``room`` null)."""


# ------------------------------------------------------------------ the public page

class PublicBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``PATCH /api/tournaments/{id}``: ``public`` true puts the tournament's
    public page up (anyone may read it, no key), false takes it down."""

    public: bool


class SetPublic(PublicBody, tag="set_public", tag_field="do",
                frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The tournament's public page up or down (issue 37 §1)."""


# ------------------------------------------------------------------ Swing

class SwingClockOverride(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The clock a Swing's single games are played on (each field optional)."""

    mode: Annotated[str, Meta(max_length=MAX_RULES, pattern=PRINTABLE,
                              extra_json_schema={"enum": sorted(MODES)})] | UnsetType = UNSET
    reserve_ms: Override | UnsetType = UNSET
    delay_ms: Override | UnsetType = UNSET
    per_point_ms: Override | UnsetType = UNSET
    less_per_point_ms: Override | UnsetType = UNSET


assert frozenset(SwingClockOverride.__struct_fields__) == CLOCK_KEYS


class SwingBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../swing``: create the Swing."""

    start_vp: VP
    cpp: Annotated[list[VP], Meta(min_length=1, max_length=MAX_CPP)]
    players: Annotated[list[PlayerId], Meta(min_length=2, max_length=MAX_REGISTERED,
                                            description="default: every player not withdrawn")
                       ] | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Policy | UnsetType = UNSET
    clock_override: SwingClockOverride | UnsetType = UNSET


class SwingCreate(SwingBody, tag="swing_create", tag_field="do",
                  frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The Swing: its players, starting VP, CPP schedule, rule book, clock."""


class SwingRoundBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../swing/rounds``: pair the next round (``seed``: else drawn, logged)."""

    seed: Seed | UnsetType = UNSET
    tables: Tables | UnsetType = UNSET


class SwingRound(SwingRoundBody, tag="swing_round", tag_field="do",
                 frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The next round paired from ``random.Random(seed)`` (the route writes
    the seed it drew: the fold needs one)."""


class SwingGameBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Swing game of the round under way: its winner and the cube."""

    game: Index
    winner: Name
    cube: Cube | UnsetType = UNSET


class SwingResultBody(SwingGameBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../swing/results``: a game's result entered by hand (``result``
    required, as in a contest script: no game is taken as a single unsaid)."""

    result: GameResult


class SwingResult(SwingGameBody, tag="swing_result", tag_field="do", frozen=True,
                  forbid_unknown_fields=True, kw_only=True):
    """A game's result, from its table's clock or by hand (absent ``result``,
    a log written before it was required: a single)."""

    result: GameResult | UnsetType = UNSET
    source: Literal["clock", "hand"] | UnsetType = UNSET
    score: Score | UnsetType = UNSET


class SwingCorrectionBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../swing/corrections``: another result for a game."""

    game: Index
    winner: Name
    result: GameResult | UnsetType = UNSET
    cube: Cube | UnsetType = UNSET
    reason: Reason | None | UnsetType = UNSET


class SwingCorrect(SwingCorrectionBody, tag="swing_correct", tag_field="do",
                   frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Another result for a game (the last round is played again)."""


# ------------------------------------------------------------------ couples

class CoupleBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A couple: its name, player 1 and player 2."""

    name: Name
    players: Annotated[list[PlayerId], Meta(min_length=2, max_length=2)]


class CouplesBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../couples``: create the couples event."""

    couples: Annotated[list[CoupleBody], Meta(min_length=2, max_length=MAX_COUPLES)]
    format: Literal["knockout", "round_robin"] | UnsetType = UNSET
    length: MatchLength | UnsetType = UNSET
    rules: RuleBook | UnsetType = UNSET
    clock: Policy | UnsetType = UNSET


class CouplesCreate(CouplesBody, tag="couples_create", tag_field="do",
                    frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The couples event and its encounters."""


class CouplesPhaseBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../couples/phases``: an encounter's next phase at tables."""

    encounter: EncounterIndex
    tables: Tables | UnsetType = UNSET
    more: bool | UnsetType = UNSET


class CouplesPhase(CouplesPhaseBody, tag="couples_phase", tag_field="do",
                   frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An encounter's next phase at tables (``more``: after it is decided)."""


class CouplesMatchBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A couples match: encounter, phase (1-3), match; its winner and score."""

    encounter: EncounterIndex
    phase: Phase
    match: Index
    winner: Name
    score: Score | UnsetType = UNSET


class CouplesResultBody(CouplesMatchBody, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../couples/results``: a couples match's result by hand."""


class CouplesResult(CouplesResultBody, tag="couples_result", tag_field="do",
                    frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A couples match's winner, from its clock or by hand."""

    source: Literal["clock", "hand"] | UnsetType = UNSET


class CouplesCorrectionBody(CouplesMatchBody, frozen=True, forbid_unknown_fields=True,
                            kw_only=True):
    """``POST .../couples/corrections``: another winner for a couples match."""

    reason: Reason | None | UnsetType = UNSET


class CouplesCorrect(CouplesCorrectionBody, tag="couples_correct", tag_field="do",
                     frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Another winner for a couples match."""


# ------------------------------------------------------------------ entries and money

#: A currency: its ISO 4217 code (EUR, USD, CHF).
Currency = Annotated[str, Meta(pattern="^[A-Z]{3}$", description="ISO 4217 code: EUR")]
Cents = Annotated[int, Meta(ge=0, le=MAX_ENTRY_CENTS, description="cents")]
#: A per cent as text ("90", "12.5"): exact, never a float (``money.percent``).
PercentText = Annotated[str, Meta(min_length=1, max_length=8, pattern=r"^\d{1,3}(\.\d{1,4})?$",
                                  description="a per cent like 90 or 12.5")]
#: Shares per place, 1st first ("50,25,12.5,12.5"); "" pays by field size.
SharesText = Annotated[str, Meta(max_length=MAX_MONEY_TEXT, pattern=PRINTABLE,
                                 description="per cents per place, 1st first; empty: "
                                 "by field size")]
#: Places paid by field size: rows [fewest entries, "shares"].
TableRow = Annotated[list[int | SharesText], Meta(min_length=2, max_length=2,
                                                  description="[fewest entries, shares]")]
PAYMENT_METHODS: Final = ("cash", "note")
DIVISIONS: Final = ("open", "intermediate", "novice")


class MoneyBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../money``: the entry fee, its currency, the return, the money
    added, the payout structure and the master points (issue 36); a field not
    given keeps its value."""

    currency: Currency | UnsetType = UNSET
    fee: Cents | UnsetType = UNSET
    return_pct: PercentText | UnsetType = UNSET
    added: Annotated[int, Meta(ge=0, le=MAX_ADDED_CENTS, description="cents")] \
        | UnsetType = UNSET
    shares: SharesText | UnsetType = UNSET
    table: Annotated[list[TableRow], Meta(max_length=MAX_PAYOUT_ROWS)] | UnsetType = UNSET
    #: Brackets ranked best first: "main 1, main 2, consolation 1, main 3/4".
    hierarchy: SharesText | UnsetType = UNSET
    #: The amounts in multiples of this many cents (100: whole euros).
    unit: Annotated[int, Meta(ge=1, le=MAX_UNIT_CENTS)] | UnsetType = UNSET
    points: bool | UnsetType = UNSET
    division: Literal["open", "intermediate", "novice"] | UnsetType = UNSET


class Money(MoneyBody, tag="money", tag_field="do",
            frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The money's settings (the currency fixed once money is taken)."""


class PaymentBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../payments``: money a player paid at the desk."""

    player: PlayerId
    cents: Annotated[int, Meta(ge=1, le=MAX_ENTRY_CENTS, description="cents")]
    method: Literal["cash", "note"] | UnsetType = UNSET
    note: Annotated[str, Meta(max_length=MAX_REASON, pattern=PRINTABLE)] | UnsetType = UNSET


class Payment(PaymentBody, tag="payment", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A payment (cash, or a note: a cheque, a transfer, an IOU the director takes)."""


class RefundBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../refunds``: money given back to a player."""

    player: PlayerId
    cents: Annotated[int, Meta(ge=1, le=MAX_ENTRY_CENTS, description="cents")]
    note: Annotated[str, Meta(max_length=MAX_REASON, pattern=PRINTABLE)] | UnsetType = UNSET


class Refund(RefundBody, tag="refund", tag_field="do",
             frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A refund (never more than the player has paid)."""


class ReentryBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST .../reentries``: a player enters again (one more entry fee, one
    more entry in the pool)."""

    player: PlayerId


class Reentry(ReentryBody, tag="reentry", tag_field="do",
              frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A re-entry."""


# ------------------------------------------------------------------ the union

Action = (Settings | Register | CheckIn | Withdraw | Draw | Arrive | CloseLate | StartRound
          | PairRound
          | BindTable | Result | Correct | Absent | Disqualify | Sheet | Committee | Appeal
          | Decide | Clash | DismissClash | Prizes | Reinstate | Revert | SidePool | Flight
          | Presume | BreakStart | BreakEnd | BreakPenalty | DeleteEntry | SetPublic
          | SwingCreate | SwingRound | SwingResult | SwingCorrect
          | CouplesCreate | CouplesPhase | CouplesResult | CouplesCorrect
          | Money | Payment | Refund | Reentry | Reenter)
"""Any tournament action (a tagged union: ``do`` names the kind)."""

#: Every kind of action, in the order of the union.
ACTION_TYPES: Final[tuple[type[Struct], ...]] = (
    Settings, Register, CheckIn, Withdraw, Draw, Arrive, CloseLate, StartRound, BindTable,
    Result, Correct, Absent, Disqualify, Sheet, Committee, Appeal, Decide, Clash,
    DismissClash, Prizes, Reinstate, Revert, SidePool, Flight,
    Presume, BreakStart, BreakEnd, BreakPenalty, DeleteEntry, SetPublic,
    SwingCreate, SwingRound, SwingResult, SwingCorrect,
    CouplesCreate, CouplesPhase, CouplesResult, CouplesCorrect,
    Money, Payment, Refund, Reentry, PairRound, Reenter)


def kind_of(action_type: type[Struct]) -> str:
    """The ``do`` string of an action type: ``kind_of(Register) == "register"``."""
    tag = action_type.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


#: Each ``do`` string's action type.
KINDS: Final[dict[str, type[Struct]]] = {kind_of(t): t for t in ACTION_TYPES}
assert len(KINDS) == len(ACTION_TYPES)

_DECODER: Final = msgspec.json.Decoder(Action)


# ------------------------------------------------------------------ errors

#: msgspec's words for a failed constraint, and ours (``{0}``: its number).
_WORDS: Final = [
    (re.compile(r"Expected `int` >= (-?\d+)"), "must be at least {0}"),
    (re.compile(r"Expected `int` <= (-?\d+)"), "must be at most {0}"),
    (re.compile(r"Expected `str` of length <= (\d+)"), "must have at most {0} characters"),
    (re.compile(r"Expected `str` of length >= 1"), "must not be empty"),
    (re.compile(r"Expected `str` matching regex"),
     "must be printable: no NUL or other control characters, no lone surrogates"),
    (re.compile(r"Expected `(?:array|object)` of length (.*)"), "must have {0} items"),
    (re.compile(r"Expected `int(?: \| null)?`, got `(\w+)`"), "must be a whole number, not {0}"),
    (re.compile(r"Expected `str(?: \| null)?`, got `(\w+)`"), "must be a text, not {0}"),
    (re.compile(r"Expected `bool`, got `(\w+)`"), "must be true or false, not {0}"),
    (re.compile(r"Expected `(array|object)(?: \| null)?`, got `(\w+)`"),
     "must be an {0}, not {1}"),
    (re.compile(r"Invalid (?:enum )?value (.*)"), "{0} is not one of the allowed values"),
    (re.compile(r"Object contains unknown field"), "unknown field"),
    (re.compile(r"Object missing required field"), "missing field"),
]
_AT: Final = re.compile(r" - at `([^`]*)`$")
_NAMED: Final = re.compile(r"(?:unknown|missing required) field `([^`]*)`")


def _choices(path: str, kind: str | None = None) -> tuple[str, ...] | None:
    """The allowed values of the enumerated field at ``path`` (``rounds[0].clock``)
    of an action of ``kind`` (when known)."""
    last = re.split(r"[.\[]", path)[-1]
    if last == "format" and kind == "settings":
        return ("knockout", "swiss", "moreswiss", "roundrobin", "double")
    return {"do": tuple(KINDS), "event": EVENTS + STANDING_EVENTS[3:],
            "clock": CLOCK_POLICIES, "source": RESULT_SOURCES, "by": ("director", "A", "B"),
            "via": VIAS, "format": ("knockout", "round_robin"),
            "result": ("single", "gammon", "backgammon"),
            "votes": ("uphold", "overturn"), "method": PAYMENT_METHODS,
            "division": DIVISIONS}.get(last)


def explain(exc: msgspec.ValidationError | msgspec.DecodeError,
            kind: str | None = None) -> InvalidContest:
    """An ``InvalidContest`` naming the field, from msgspec's error:
    ``rounds[0].length: must be at most 64``."""
    text = str(exc)
    path = ""
    at = _AT.search(text)
    if at is not None:
        text = text[:at.start()]
        # "$.a.b" -> "a.b"; a map's value ("$.votes[...]"): the map
        path = at.group(1)[1:].lstrip(".").replace("[...]", "")
    named = _NAMED.search(text)
    if named is not None:
        path = f"{path}.{named.group(1)}" if path else named.group(1)
    if not path:
        return InvalidContest(f"action: {text[:1].lower()}{text[1:]}")
    choices = _choices(path, kind)
    if choices is not None and (text.startswith("Invalid enum value")
                                or text.startswith("Invalid value")):
        given = text.split(" ", 3)[-1]
        return InvalidContest(f"{path}: must be one of {', '.join(choices)}, not {given}")
    for pattern, words in _WORDS:
        found = pattern.match(text)
        if found is not None:
            return InvalidContest(f"{path}: {words.format(*found.groups())}")
    return InvalidContest(f"{path}: {text[:1].lower()}{text[1:]}")


def decode_action(data: bytes | str | Mapping[str, Any] | Action) -> Action:
    """The action a stored or posted body is (JSON text or a dict); raises
    ``InvalidContest`` naming the field when it is not one (a kind unknown,
    a field missing, unknown or out of its bounds)."""
    if isinstance(data, ACTION_TYPES):
        return data
    try:
        if isinstance(data, (bytes, str)):
            decoded: Action = _DECODER.decode(data)
            return decoded
        if not isinstance(data, Mapping):
            raise InvalidContest("action: must be an object")
        kind = KINDS.get(data["do"]) if "do" in data and isinstance(data["do"], str) else None
        if kind is None:
            given = f", not {data['do']!r}" if "do" in data else ""
            raise InvalidContest(f"do: must be one of {', '.join(KINDS)}{given}")
        # the kind's own Struct, not the union: msgspec keeps a Struct's
        # decoder, and would read the union's 31 anew on every call
        return cast("Action", msgspec.convert(data, kind))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        tag = data.get("do") if isinstance(data, Mapping) else None
        raise explain(exc, tag if isinstance(tag, str) else None) from None


def encode_action(action: Action) -> dict[str, Any]:
    """The action as the plain dict the store keeps (``do`` and the fields
    given: an unset field is left out)."""
    out: dict[str, Any] = msgspec.to_builtins(action)
    return out


def body_fields(body: Struct) -> dict[str, Any]:
    """A route body as the plain dict of an action's fields (unset ones left out)."""
    out: dict[str, Any] = msgspec.to_builtins(body)
    return out


__all__ = [
    "ACTION_TYPES", "Action", "KINDS", "decode_action", "encode_action", "explain", "kind_of",
    "body_fields",
    "Settings", "Register", "CheckIn", "Withdraw", "Draw", "Arrive", "CloseLate", "StartRound",
    "BindTable", "Result", "Correct", "Absent", "Disqualify", "Sheet", "Committee", "Appeal",
    "Decide", "Clash", "DismissClash", "Prizes", "Reinstate", "Revert", "SidePool",
    "SwingCreate", "SwingRound", "SwingResult", "SwingCorrect", "CouplesCreate",
    "CouplesPhase", "CouplesResult", "CouplesCorrect",
    "Presume", "PresumeBody", "BreakBody", "BreakStart", "BreakEnd", "BreakPenaltyBody",
    "BreakPenalty", "PublicBody", "SetPublic",
    "Money", "MoneyBody", "Payment", "PaymentBody", "Refund", "RefundBody", "Reentry",
    "ReentryBody", "JackpotBody", "Reenter",
    "PairRound",
]
