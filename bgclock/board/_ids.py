"""Reading and writing gnubg Position IDs, gnubg Match IDs and XGIDs.

Formats (see docs/formats.md for the public descriptions they follow):

- **Position ID**: 14 characters of base64 for an 80-bit key.  For each of the
  two sides, for each of its 24 points then its bar, one ``1`` bit per checker
  followed by a ``0``; bits packed little-endian (first bit = lowest bit of the
  first byte).  gnubg's code writes the side *not* on roll first and the side
  on roll second (its ``anBoard[0]`` / ``anBoard[1]``); the manual's worked
  example is the symmetric opening position, which cannot tell them apart.
- **Match ID**: 12 characters of base64 for a 72-bit key (9 bytes, packed
  like the Position ID) of fields, each least significant bit first: cube
  log2 (4), cube owner (2: 0, 1, 3 = centred), player on roll (1), Crawford
  (1), game state (3), turn (1), double offered (1), resignation (2), die 1
  (3), die 2 (3), match length (15), score of player 0 (15), score of player
  1 (15), then bit 66: the Jacoby rule is *not* in use.  gnubg writes the
  higher die first, and writes bit 66 set for a match (Jacoby never applies
  there) and clear for a money game with Jacoby: a fresh 7-point match is
  ``MAHgAAAAAAAE``.
- **XGID**: ``XGID=`` + 10 colon-separated fields: 26 position characters
  (index 0 = top player O's bar, 1..24 = the bottom player X's points 1..24,
  25 = X's bar; ``A``..``O`` = 1..15 of X's checkers, ``a``..``o`` O's, ``-``
  empty), cube log2, cube position (1 X owns, -1 O owns, 0 centred), turn
  (1 X, -1 O), dice (``00`` not rolled, ``D`` doubled, ``B``/``R`` beaver /
  raccoon, or two digits), X's score, O's score, Crawford (match) or
  Jacoby/beaver flags (money), match length (0 = money), max cube log2.
  We number X as player 1 and O as player 0, as gnubg does for the bottom and
  top player.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, replace
from typing import Final

from bgclock.board._position import BAR, POINTS, InvalidId, InvalidPosition, Position

#: gnubg's game states (its ``gamestate`` enum), the Match ID's 3-bit field.
GAME_STATES: Final[dict[int, str]] = {
    0: "no game started", 1: "game in progress", 2: "game over",
    3: "game resigned", 4: "game ended by a dropped double",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """Everything a gnubg Match ID (or an XGID's fields after the position) says.

    Players are numbered 0 and 1 as in gnubg; ``on_roll`` is the player whose
    turn the position is.  ``length`` 0 is a money game.  ``dice`` are kept
    higher die first, as gnubg writes them.  ``jacoby``: the Jacoby rule is in
    use (None means the usual: on for money, off in a match, which is what
    gnubg writes for a fresh game); after construction it is always a bool.

    An impossible state raises :class:`InvalidPosition`:

    >>> MatchState(length=7, score=(5, 6), crawford=True).crawford
    True
    >>> MatchState(length=7, score=(5, 4), crawford=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bgclock.board._position.InvalidPosition: no Crawford game at 5-4 in a 7-point match: ...
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    dice: tuple[int, int] | None = None
    game_state: int = 1
    turn: int | None = None
    double_offered: bool = False
    resigned: int = 0
    jacoby: bool | None = None
    beavers: bool = False
    max_cube_log2: int = 10

    def __post_init__(self) -> None:
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise InvalidId(f"cube value {self.cube} is not a power of 2 up to 32768")
        if self.cube_owner not in (None, 0, 1) or self.on_roll not in (0, 1):
            raise InvalidId("players are numbered 0 and 1")
        if self.turn not in (None, 0, 1):
            raise InvalidId(f"turn {self.turn} is not a player: players are numbered 0 and 1")
        if self.length < 0 or min(self.score) < 0:
            raise InvalidId("match length and scores cannot be negative")
        if self.length >= 1 << 15 or max(self.score) >= 1 << 15:
            raise InvalidId("a match length or score must be below 32768")
        if self.dice is not None:
            if not all(1 <= d <= 6 for d in self.dice):
                raise InvalidId(f"dice {self.dice} are not in 1..6")
            if self.dice[0] < self.dice[1]:
                object.__setattr__(self, "dice", (self.dice[1], self.dice[0]))
        if self.game_state not in GAME_STATES:
            known = ", ".join(f"{k} {v}" for k, v in GAME_STATES.items())
            raise InvalidPosition(f"unknown game state {self.game_state} (known: {known})")
        if self.resigned not in (0, 1, 2, 3):
            raise InvalidId(f"resignation {self.resigned} is not 0 (none), 1, 2 or 3 points")
        if self.turn is not None and self.turn != self.on_roll and not (
            self.double_offered or self.resigned
        ):
            raise InvalidPosition(
                f"the turn passes to player {self.turn} while player {self.on_roll} is on "
                f"roll only to answer a double or a resignation, and none is pending"
            )
        if self.jacoby is None:
            object.__setattr__(self, "jacoby", self.length == 0)
        self._check_possible()

    def _check_possible(self) -> None:
        length, (a, b) = self.length, self.score
        if length and max(a, b) >= length:
            raise InvalidPosition(
                f"a score of {a}-{b} has already ended a {length}-point match "
                f"(scores must stay below {length})"
            )
        if not self.crawford:
            return
        if not length:
            raise InvalidPosition("a money game has no Crawford game")
        if length - 1 not in (a, b):
            raise InvalidPosition(
                f"no Crawford game at {a}-{b} in a {length}-point match: the Crawford game "
                f"is the one after a player first reaches {length - 1} points"
            )
        if a == b:
            raise InvalidPosition(
                f"no Crawford game at {a}-{b}: with both players one point away the "
                f"Crawford game has already been played"
            )
        if self.cube > 1:
            raise InvalidPosition(
                f"the cube is at {self.cube} in the Crawford game, where nobody may double"
            )

    @property
    def score_on_roll(self) -> int:
        """Score of the player on roll."""
        return self.score[self.on_roll]

    @property
    def score_opponent(self) -> int:
        """Score of the player not on roll."""
        return self.score[1 - self.on_roll]


def _show(text: str) -> str:
    """``text`` quoted for a message, cut short when long."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


# -- base64 helpers -----------------------------------------------------------
_B64 = re.compile(r"[A-Za-z0-9+/]+")


def _b64_to_int(text: str, chars: int, nbytes: int, what: str) -> int:
    if len(text) != chars or not _B64.fullmatch(text):
        raise InvalidId(f"a {what} is {chars} base64 characters, got {_show(text)}")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex rules this out
        raise InvalidId(f"{what} {_show(text)}: {exc}") from exc
    return int.from_bytes(raw[:nbytes], "little")


def _int_to_b64(value: int, nbytes: int, chars: int) -> str:
    return base64.b64encode(value.to_bytes(nbytes, "little")).decode("ascii")[:chars]


# -- Position ID ----------------------------------------------------------------
def position_from_id(position_id: str) -> Position:
    """Read a gnubg Position ID (the side on roll is the one the ID is for).

    >>> position_from_id("4HPwATDgc/ABMA") == Position.initial()
    True
    """
    key = _b64_to_int(position_id.strip(), 14, 10, "Position ID")
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    bit = 0
    for side in sides:
        for slot in range(25):
            while key >> bit & 1:
                side[slot] += 1
                bit += 1
                if bit > 80:
                    raise InvalidId(f"Position ID {_show(position_id)} has too many checkers")
            bit += 1
    try:
        return Position(on_roll=tuple(sides[1]), opponent=tuple(sides[0]))
    except InvalidPosition as exc:
        raise InvalidId(f"Position ID {_show(position_id)}: {exc}") from exc


def position_id(position: Position) -> str:
    """The gnubg Position ID of a position.

    >>> position_id(Position.initial())
    '4HPwATDgc/ABMA'
    """
    key = 0
    bit = 0
    for side in (position.opponent, position.on_roll):
        for n in side:
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return _int_to_b64(key, 10, 14)


# -- Match ID -------------------------------------------------------------------
_MATCH_FIELDS = (  # (name, width) in key order, from bit 0
    ("cube", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("state", 3),
    ("turn", 1), ("double", 1), ("resign", 2), ("die1", 3), ("die2", 3),
    ("length", 15), ("score0", 15), ("score1", 15), ("no_jacoby", 1),
)


def match_from_id(match_id: str) -> MatchState:
    """Read a gnubg Match ID.

    >>> m = match_from_id("cIkmAQAAAAAA")
    >>> m.length, m.score, m.cube, m.on_roll, m.dice, m.jacoby
    (9, (0, 0), 1, 1, (5, 1), True)

    An ID of an impossible state raises :class:`InvalidPosition`, one that
    cannot be read :class:`InvalidId`.
    """
    text = match_id.strip()
    key = _b64_to_int(text, 12, 9, "Match ID")
    f: dict[str, int] = {}
    bit = 0
    for name, width in _MATCH_FIELDS:
        f[name] = key >> bit & ((1 << width) - 1)
        bit += width
    if f["owner"] == 2:
        raise InvalidId(
            f"Match ID {_show(text)}: cube owner 2 does not exist (0, 1 or 3 = centred)")
    if (f["die1"] == 0) != (f["die2"] == 0) or max(f["die1"], f["die2"]) > 6:
        raise InvalidId(
            f"Match ID {_show(text)}: dice {f['die1']} and {f['die2']} are neither a roll "
            f"(both 1..6) nor 'not rolled' (both 0)"
        )
    dice = (f["die1"], f["die2"]) if f["die1"] else None
    try:
        return MatchState(
            length=f["length"],
            score=(f["score0"], f["score1"]),
            cube=1 << f["cube"],
            cube_owner=None if f["owner"] == 3 else f["owner"],
            on_roll=f["on_roll"],
            crawford=bool(f["crawford"]),
            dice=dice,
            game_state=f["state"],
            turn=f["turn"],
            double_offered=bool(f["double"]),
            resigned=f["resign"],
            jacoby=not f["no_jacoby"],
        )
    except InvalidPosition as exc:
        raise InvalidPosition(
            f"Match ID {_show(text)} describes an impossible state: {exc}") from exc
    except InvalidId as exc:
        raise InvalidId(f"Match ID {_show(text)}: {exc}") from exc


def match_id(match: MatchState) -> str:
    """The gnubg Match ID of a match state (the same string gnubg writes).

    >>> match_id(MatchState(length=7))
    'MAHgAAAAAAAE'
    >>> match_id(match_from_id("cIkmAQAAAAAA"))
    'cIkmAQAAAAAA'
    """
    dice = match.dice or (0, 0)  # higher die first, as MatchState keeps them
    values = {
        "cube": match.cube.bit_length() - 1,
        "owner": 3 if match.cube_owner is None else match.cube_owner,
        "on_roll": match.on_roll,
        "crawford": int(match.crawford),
        "state": match.game_state,
        "turn": match.on_roll if match.turn is None else match.turn,
        "double": int(match.double_offered),
        "resign": match.resigned,
        "die1": dice[0],
        "die2": dice[1],
        "length": match.length,
        "score0": match.score[0],
        "score1": match.score[1],
        "no_jacoby": int(not match.jacoby),
    }
    key = 0
    bit = 0
    for name, width in _MATCH_FIELDS:
        key |= values[name] << bit  # MatchState has checked that each one fits
        bit += width
    return _int_to_b64(key, 9, 12)


# -- XGID -------------------------------------------------------------------------
_XG_FIELDS = 10


def _xg_count(ch: str, xgid: str) -> tuple[int, int]:
    """(count of X's checkers, count of O's checkers) for one character."""
    if ch == "-":
        return 0, 0
    if "A" <= ch <= "O":
        return ord(ch) - ord("A") + 1, 0
    if "a" <= ch <= "o":
        return 0, ord(ch) - ord("a") + 1
    raise InvalidId(f"XGID {_show(xgid)}: {ch!r} is not a checker count")


def _xg_int(text: str, what: str, xgid: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,9}", text):
        raise InvalidId(f"XGID {_show(xgid)}: {what} {_show(text)} is not a number "
                        f"(at most 9 digits)")
    return int(text)


def position_from_xgid(xgid: str) -> tuple[Position, MatchState]:
    """Read an XGID (with or without its ``XGID=`` prefix).

    >>> pos, m = position_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    >>> pos == Position.initial(), m.on_roll, m.length
    (True, 1, 0)
    """
    text = xgid.strip()
    if text[:5].upper() == "XGID=":
        text = text[5:]
    fields = text.split(":")
    if len(fields) != _XG_FIELDS:
        raise InvalidId(f"XGID {_show(xgid)}: expected {_XG_FIELDS} fields, got {len(fields)}")
    board = fields[0]
    if len(board) != 26:
        raise InvalidId(f"XGID {_show(xgid)}: the position is 26 characters, got {len(board)}")
    x = [0] * 25  # X's own numbering
    o = [0] * 25  # O's own numbering
    for idx, ch in enumerate(board):
        nx, no = _xg_count(ch, xgid)
        if idx == 0:
            if nx:
                raise InvalidId(f"XGID {_show(xgid)}: X checkers on O's bar")
            o[BAR] = no
        elif idx == 25:
            if no:
                raise InvalidId(f"XGID {_show(xgid)}: O checkers on X's bar")
            x[BAR] = nx
        else:
            x[idx - 1] += nx
            o[POINTS - idx] += no
    cube_log = _xg_int(fields[1], "cube", xgid)
    cube_pos = _xg_int(fields[2], "cube position", xgid)
    turn = _xg_int(fields[3], "turn", xgid)
    if turn not in (1, -1):
        raise InvalidId(f"XGID {_show(xgid)}: turn is 1 (X) or -1 (O), got {turn}")
    if cube_pos not in (1, 0, -1) or not 0 <= cube_log <= 15:
        raise InvalidId(f"XGID {_show(xgid)}: bad cube fields")
    dice_field = fields[4]
    dice: tuple[int, int] | None = None
    doubled = False
    if dice_field in ("D", "B", "R"):
        doubled = True
    elif re.fullmatch(r"[1-6][1-6]", dice_field):
        dice = (int(dice_field[0]), int(dice_field[1]))
    elif dice_field != "00":
        raise InvalidId(f"XGID {_show(xgid)}: dice field {dice_field!r}")
    score_x = _xg_int(fields[5], "score", xgid)
    score_o = _xg_int(fields[6], "score", xgid)
    crawford = _xg_int(fields[7], "Crawford/Jacoby", xgid)
    length = _xg_int(fields[8], "match length", xgid)
    max_cube = _xg_int(fields[9], "max cube", xgid)
    x_on_roll = turn == 1
    if length and crawford not in (0, 1):
        raise InvalidId(
            f"XGID {_show(xgid)}: the Crawford field of a match is 0 or 1, got {crawford}")
    if not length and crawford not in (0, 1, 2, 3):
        raise InvalidId(
            f"XGID {_show(xgid)}: the rules field of a money game is 0..3 "
            f"(1 Jacoby + 2 beavers), got {crawford}"
        )
    try:
        pos = (
            Position(on_roll=tuple(x), opponent=tuple(o))
            if x_on_roll
            else Position(on_roll=tuple(o), opponent=tuple(x))
        )
    except InvalidPosition as exc:
        raise InvalidId(f"XGID {_show(xgid)}: {exc}") from exc
    try:
        match = MatchState(
            length=length,
            score=(score_o, score_x),
            cube=1 << cube_log,
            cube_owner={0: None, 1: 1, -1: 0}[cube_pos],
            on_roll=1 if x_on_roll else 0,
            crawford=bool(crawford) if length else False,
            dice=dice,
            double_offered=doubled,
            jacoby=bool(crawford & 1) if not length else None,
            beavers=bool(crawford & 2) if not length else False,
            max_cube_log2=max_cube,
        )
    except InvalidPosition as exc:
        raise InvalidPosition(f"XGID {_show(xgid)} describes an impossible state: {exc}") from exc
    except InvalidId as exc:
        raise InvalidId(f"XGID {_show(xgid)}: {exc}") from exc
    return pos, match


def xgid(position: Position, match: MatchState | None = None) -> str:
    """Write an XGID; ``match.on_roll`` says whether X (1) or O (0) is on roll.

    >>> xgid(Position.initial(), MatchState(on_roll=1))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10'
    """
    match = match or MatchState(on_roll=1)
    x, o = (
        (position.on_roll, position.opponent)
        if match.on_roll == 1
        else (position.opponent, position.on_roll)
    )
    chars = ["-"] * 26

    def put(idx: int, n: int, upper: bool) -> None:
        if n:
            chars[idx] = chr((ord("A") if upper else ord("a")) + n - 1)

    put(0, o[BAR], False)
    put(25, x[BAR], True)
    for p in range(1, 25):
        put(p, x[p - 1], True)
        put(p, o[POINTS - p], False)
    if match.double_offered:
        dice = "D"
    elif match.dice:
        dice = f"{match.dice[0]}{match.dice[1]}"
    else:
        dice = "00"
    cube_pos = {None: 0, 1: 1, 0: -1}[match.cube_owner]
    fields = [
        "".join(chars),
        str(match.cube.bit_length() - 1),
        str(cube_pos),
        "1" if match.on_roll == 1 else "-1",
        dice,
        str(match.score[1]),
        str(match.score[0]),
        str(int(match.crawford) if match.length else int(bool(match.jacoby)) + 2 * match.beavers),
        str(match.length),
        str(match.max_cube_log2),
    ]
    return "XGID=" + ":".join(fields)


def with_on_roll(match: MatchState, player: int) -> MatchState:
    """A copy of ``match`` with another player on roll."""
    return replace(match, on_roll=player, turn=player)


def read_position(text: str) -> tuple[Position, MatchState | None]:
    """A position typed by a person: a gnubg Position ID, ``ID:MATCHID`` or an XGID.

    The match comes with an XGID or a Match ID after the colon, else None.
    Surrounding spaces are ignored; anything unreadable raises
    :class:`InvalidId` (a :class:`BoardError`) saying what is wrong.

    >>> position, match = read_position(" 4HPwATDgc/ABMA ")
    >>> position.pip_counts(), match
    ((167, 167), None)
    >>> read_position("4HPwATDgc/ABMA:cAkgAQAAAAAA")[1].length
    9
    """
    text = text.strip()
    if not text:
        raise InvalidId(
            "no position: type a gnubg Position ID (optionally ID:MATCHID) or an XGID")
    if text.upper().startswith("XGID=") or text.count(":") == 9:
        return position_from_xgid(text)
    if ":" in text:
        pos_part, match_part = text.split(":", 1)
        return position_from_id(pos_part), match_from_id(match_part)
    return position_from_id(text), None
