"""Errors raised by the clock engine, and the catalogue of refusals.

``InvalidCommand`` means the command is malformed (a side that is not A or B,
dice of 7, a time that goes backwards); ``IllegalCommand`` means it is well
formed but the rules do not allow it now.  Both leave the match untouched.

Every refusal carries a stable ``code`` (snake case) and the ``params`` its
words are made of, beside the English words themselves.  ``REFUSALS`` maps
each code to its English template; the pages keep the same codes in their
own message catalogue (English and Italian), so a device shows a refusal in
its own language whatever the server's.  A code is never reused for another
meaning.
"""

from __future__ import annotations

from typing import Final

#: code -> English template; ``{name}`` fields come from the error's params.
REFUSALS: Final[dict[str, str]] = {
    # -- any command at the wrong moment
    "not_in_phase": "{event} is not allowed {when}",
    "match_over": "{event} is not allowed: the match is over",
    "no_game": "{event} is not allowed: no game is in progress",
    # -- opening roll and introducing the clock
    "opening_roll_in_game": "opening roll is not allowed during a game",
    "opening_dice_equal": "the opening dice are equal ({a}-{b}): roll again",
    "start_at_game_start": (
        "{rules}: clocks are introduced only at the start of a game (1.1)"
    ),
    "clock_in_use": "{event} is not allowed: the clock is already in use",
    "start_cube_centered": (
        "the clock cannot start with a centered cube at {value}: a doubled cube has an owner"
    ),
    "start_cube_owned_at_one": (
        "the clock cannot start with {side} owning the cube at 1: a cube nobody doubled is"
        " centered"
    ),
    "start_cube_crawford": (
        "the clock cannot start with the cube at {value}: this is the Crawford game, the cube"
        " stays centered at 1"
    ),
    # -- the cube
    "doubled_must_answer": "{side} has been doubled: {side} must take or pass",
    "double_pending": "{side} cannot double: a double is waiting for an answer",
    "double_not_turn": "{side} cannot double: it is not {side}'s turn",
    "crawford_no_double": "{side} cannot double: this is the Crawford game",
    "cube_frozen": "{side} cannot double: the cube is frozen (aba-2003 5.2)",
    "cube_owned_by_opponent": "{side} cannot double: the opponent owns the cube",
    "premature_no_cube": (
        "{side} cannot double: after a premature roll the player cannot use the cube"
        " this turn (Italian rules)"
    ),
    "premature_delay_running": (
        "{side} cannot double yet: after a premature action the delay must run out first"
        " (biba-2014 4.6)"
    ),
    "no_double_to_answer": "{side} cannot {event}: no double is waiting",
    "own_double": "{side} cannot {event} its own double",
    # -- offers, disputes and rulings
    "no_offer": "{event} is not allowed: there is no offer to answer",
    "own_offer": "{side} cannot {event} its own offer",
    "max_concession": (
        "{side} cannot reject a backgammon concession: no player may refuse a concession"
        " of the maximum"
    ),
    "no_dispute": "ruling is not allowed: there is no dispute to rule on",
    "ruling_for_offer": "a rejected offer is ruled 'accept' or 'invalid', not '{decision}'",
    "ruling_for_expiry": "a BIBA time expiration is ruled 'gin' or 'lost', not '{decision}'",
    "director_must_rule": "{event} is not allowed: the director must rule: gin or lost",
    "dispute_open": "{event} is not allowed: the director must rule on the dispute",
    "offer_open": "{event} is not allowed: the offer waits for an answer",
    # -- games, breaks, stops
    "game_over_double_pending": "game over is not allowed: a double is waiting for take or pass",
    "break_between_games": "a break is not allowed during a game: breaks are taken between games",
    "break_limit": (
        "{side} cannot take another break: {limit} allowed in a {length}-point match"
    ),
    "not_stopped": "resume is not allowed: the clocks are not stopped",
    "not_running": "stop is not allowed: no clock is running",
    # -- malformed commands (InvalidCommand)
    "invalid": "{message}",
    "time_backwards": "time cannot go backwards: {at_ms} ms is before {now_ms} ms",
}


class ClockError(ValueError):
    """Base class of every error the engine raises.

    ``code`` is stable (see ``REFUSALS``); ``params`` fill its template.
    """

    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params: dict[str, object] = dict(params or {})
        if self.code == "invalid" and "message" not in self.params:
            self.params["message"] = message


class InvalidCommand(ClockError):
    """The command is malformed: it could never be accepted."""


class IllegalCommand(ClockError):
    """The command is well formed but the rules do not allow it now."""

    default_code = "not_in_phase"


def refuse(code: str, **params: object) -> IllegalCommand:
    """The refusal ``code`` with its English words made from ``params``."""
    return IllegalCommand(REFUSALS[code].format(**params), code=code, params=params)
