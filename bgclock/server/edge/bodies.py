"""The HTTP API's JSON bodies, each declared once (``msgspec.Struct``).

As with the WebSocket messages (``ws.protocol``), a declaration is the decoder
with its bounds, the 422 naming the field (``body.score[0]: must be at most
128``) and the schema in ``/openapi.json`` (``render.openapi``).  ``bgclock.core``
still decides what the values mean (a rules preset it knows, a clock it can
run), in its own words.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Final

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from bgclock.board import DEFAULT_NODE_BUDGET
from bgclock.board._position import CHECKERS, POINTS
from bgclock.core import MODES, OVERRIDE_KEYS, PRESETS
from bgclock.server.edge.limits import DAY_MS, MAX_LENGTH, MAX_POINTS
from bgclock.server.edge.schema import PRINTABLE, PlayerName, TableName, TournamentName
from bgclock.store import DEFAULT_WARN_S

#: A table's low-time warnings: how many, and the highest (seconds of reserve).
MAX_WARNINGS: Final = 5
MAX_WARN_S: Final = 3600
#: The node budget an adjudication may ask for, and the longest position text.
MAX_NODES: Final = 1_000_000
MAX_POSITION: Final = 200

OverrideMs = Annotated[int, Meta(ge=0, le=DAY_MS, description="ms, at most a day")]
#: The preset and time mode names are the engine's (it names an unknown one);
#: the schema lists them.
Rules = Annotated[str, Meta(min_length=1, max_length=100, pattern=PRINTABLE,
                            extra_json_schema={"enum": sorted(PRESETS)})]
ModeName = Annotated[str, Meta(max_length=100, pattern=PRINTABLE,
                               extra_json_schema={"enum": sorted(MODES)})]
Score = Annotated[int, Meta(ge=0, le=MAX_POINTS)]
WarnS = Annotated[list[Annotated[int, Meta(ge=1, le=MAX_WARN_S)]],
                  Meta(min_length=1, max_length=MAX_WARNINGS,
                       extra_json_schema={"uniqueItems": True,
                                          "default": list(DEFAULT_WARN_S)},
                       description="the table page's low-time warnings (seconds of reserve)")]


class NewTournament(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments``."""

    name: TournamentName


class ClockOverrides(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A table's changes to its preset's clock (each one optional)."""

    mode: ModeName | UnsetType = UNSET
    per_point_ms: OverrideMs | UnsetType = UNSET
    less_per_point_ms: OverrideMs | UnsetType = UNSET
    delay_ms: OverrideMs | UnsetType = UNSET
    reserve_ms: OverrideMs | UnsetType = UNSET
    overtime_ms: OverrideMs | UnsetType = UNSET


assert frozenset(ClockOverrides.__struct_fields__) == OVERRIDE_KEYS


class TableSpecBody(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments/{id}/tables``: a new table's match and clock."""

    rules: Rules
    length: Annotated[int, Meta(ge=1, le=MAX_LENGTH)]
    name: TableName = ""
    players: tuple[PlayerName, PlayerName] = ("A", "B")
    score: tuple[Score, Score] = (0, 0)
    teams: bool = False
    crawford: bool = False
    clock: ClockOverrides = msgspec.field(default_factory=ClockOverrides)
    warn_s: WarnS = msgspec.field(default_factory=lambda: list(DEFAULT_WARN_S))


def _patch_of(whole: type[Struct], name: str) -> Any:
    """The same declaration with every field optional (absent: unchanged)."""
    hints = typing.get_type_hints(whole, include_extras=True)
    return msgspec.defstruct(
        name, [(f, hints[f] | UnsetType, UNSET) for f in whole.__struct_fields__],
        frozen=True, forbid_unknown_fields=True, kw_only=True, module=__name__)


#: ``PATCH /api/tables/{id}``: any of a table's fields, before play starts.
TablePatch: Final = _patch_of(TableSpecBody, "TablePatch")


class Adjudicate(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tables/{id}/adjudicate``: the position on the board."""

    position: Annotated[str, Meta(
        min_length=1, max_length=MAX_POSITION,
        description="a gnubg Position ID (optionally ID:MATCHID) or an XGID; the side on "
                    "roll is the state's on_turn, the match (score, cube) is the table's")]
    nodes: Annotated[int, Meta(ge=1, le=MAX_NODES,
                               description="positions the contact search may expand")
                     ] = DEFAULT_NODE_BUDGET


Count = Annotated[int, Meta(ge=0, le=CHECKERS, description="checkers")]


class BoardSide(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One side of a board: its checkers on each point (its own point 1
    first), on the bar; ``off`` (as ``GET`` gives it) is read and ignored."""

    points: Annotated[list[Count], Meta(min_length=POINTS, max_length=POINTS)]
    bar: Count = 0
    off: Count | None = None


class Board(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/position``: a board to encode (``dice``: null before the roll)."""

    on_roll: BoardSide
    opponent: BoardSide
    dice: tuple[Annotated[int, Meta(ge=1, le=6)], Annotated[int, Meta(ge=1, le=6)]] | None = None


def spec_fields(body: Any) -> dict[str, Any]:
    """A body's fields as plain data; the ones it does not give are left out."""
    out: dict[str, Any] = msgspec.to_builtins(body)
    return out
