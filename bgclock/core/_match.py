"""The match under the clock: one phase machine for every preset.

Theory of operation
-------------------
A ``Match`` is a fold over events.  Each event carries its instant; applying it
first *advances* the match to that instant (a running clock that reaches 0 on
the way expires at its exact millisecond, with the preset's consequence), then
checks the event against the rules and either raises (``InvalidCommand`` for a
malformed event, ``IllegalCommand`` for one the rules do not allow now) or
changes the state.  Every handler checks everything before it changes
anything, so a refused event leaves the match exactly as it was.

Time is integer milliseconds.  Only the running side's clock moves; it is kept
*settled* at ``_since`` (reserve and unused allowance as of that instant) and
read live by ``TimeMode.spend``.  A *period* is one turn of one side's clock:
it starts when the clock starts (opening roll, the opponent's hit, a take) and
ends at the side's own hit (with the time mode's credit) or when a game ends
(no credit, unused delay lost).  A stop pauses the period; resume continues it.

Phases (``PHASE_RULES`` below says which events each one accepts)::

    setup ──opening_roll/start──▶ playing ◀──resume── stopped ◀──stop── playing
      │  └─late_start─▶ playing (no game yet: hits do nothing)
      └──break──▶ break ──resume──▶ (back where it came from)
    playing/stopped ──concede/claim──▶ offer ──accept──▶ between_games | match_over
                                         └──reject──▶ dispute ──ruling──▶ ...
    playing/stopped ──game_over/pass──▶ between_games ──opening_roll──▶ playing
    expiry: match_over (loss), stopped (ABA penalty), dispute (BIBA gin question)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Final

from ._errors import IllegalCommand, InvalidCommand, refuse
from ._events import (
    RESULTS,
    Accept,
    Adjust,
    Break,
    Claim,
    Concede,
    Double,
    Event,
    GameOver,
    Hit,
    LateStart,
    OpeningRoll,
    Pass,
    Penalty,
    Premature,
    Reject,
    Resume,
    Ruling,
    Start,
    Stop,
    Take,
)
from ._presets import EXPIRY_BIBA, ClockSettings
from ._state import MatchState, SideState

SETUP: Final = "setup"
PLAYING: Final = "playing"
STOPPED: Final = "stopped"
OFFER: Final = "offer"
DISPUTE: Final = "dispute"
BETWEEN_GAMES: Final = "between_games"
BREAK: Final = "break"
MATCH_OVER: Final = "match_over"
PHASES: Final = (SETUP, PLAYING, STOPPED, OFFER, DISPUTE, BETWEEN_GAMES, BREAK, MATCH_OVER)

#: ABA 5.1: an expired standard clock is reset to five minutes.
ABA_RESET_MS: Final = 5 * 60_000

_ALL: Final = frozenset(PHASES)
#: event kind -> phases in which it may be accepted (finer checks in handlers).
PHASE_RULES: Final[dict[str, frozenset[str]]] = {
    "opening_roll": frozenset({SETUP, BETWEEN_GAMES, PLAYING, STOPPED}),  # the last two: late start
    "start": frozenset({SETUP}),
    "late_start": frozenset({SETUP}),
    "hit": _ALL,  # a hit when no clock runs does nothing, as on a real clock
    "double": frozenset({PLAYING}),
    "take": frozenset({PLAYING}),
    "pass": frozenset({PLAYING, STOPPED}),
    "stop": frozenset({PLAYING}),
    "resume": frozenset({STOPPED, BREAK}),
    "concede": frozenset({PLAYING, STOPPED}),
    "claim": frozenset({PLAYING, STOPPED}),
    "accept": frozenset({OFFER}),
    "reject": frozenset({OFFER}),
    "ruling": frozenset({DISPUTE}),
    "game_over": frozenset({PLAYING, STOPPED}),
    "break": frozenset({SETUP, BETWEEN_GAMES}),
    "premature": frozenset({PLAYING, STOPPED}),
    "adjust": _ALL - {MATCH_OVER},
    "penalty": _ALL - {MATCH_OVER},
}

_PHASE_WORDS: Final = {
    SETUP: "before the first game",
    PLAYING: "while a clock runs",
    STOPPED: "while the clocks are stopped",
    OFFER: "while an offer waits for an answer",
    DISPUTE: "while the director is summoned",
    BETWEEN_GAMES: "between games",
    BREAK: "during a break",
    MATCH_OVER: "after the match is over",
}

_NAMES: Final = ("A", "B")

#: The stored form of ``Match.to_snapshot``: a new number whenever what a
#: snapshot holds changes meaning (a snapshot of another number is not read).
SNAPSHOT_VERSION: Final = 1


def _index(side: str) -> int:
    return 0 if side == "A" else 1


class _Clock:
    """One side's clock and its standing in the match (mutable, private)."""

    __slots__ = (
        "reserve", "allowance", "allow_left", "in_period", "forfeit_pending",
        "forfeit_active", "no_cube_pending", "no_cube_active", "wait_left", "expired", "breaks",
        "offenses", "expired_in_game", "overtime_used",
    )

    def __init__(self, reserve: int) -> None:
        self.reserve = reserve  # settled at the match's _since when running
        self.allowance = 0  # allowance the live period started with
        self.allow_left = 0  # what is not yet used of it
        self.in_period = False
        self.forfeit_pending = False  # premature: the next period to start is forfeited
        self.forfeit_active = False  # the live period is the forfeited one
        # Italian premature: the next period to start may not use the cube.
        self.no_cube_pending = False
        self.no_cube_active = False
        # biba-2014 4.6: running time the forfeited period must still run
        # before its side may double (the period's own allowance, whatever
        # the mode: a Bronstein override forfeits the allowance, not the wait).
        self.wait_left = 0
        self.expired = False
        self.breaks = 0
        self.offenses = 0  # ABA 5.1 expiries that cost penalty points
        self.expired_in_game = False  # ABA 5.1: grace only for the first expiry in a game
        self.overtime_used = False  # USBGF overtime option: granted once a match

    def copy(self) -> _Clock:
        other = _Clock.__new__(_Clock)
        for name in _Clock.__slots__:
            setattr(other, name, getattr(self, name))
        return other


class Match:
    """A match under the clock: apply events, read the state at an instant.

    >>> m = Match.new("usbgf-2013-delay", length=7)
    >>> m.apply(OpeningRoll(at_ms=0, dice=(5, 3)))
    >>> m.state(20_000).A.reserve_ms
    832000
    """

    __slots__ = (
        "settings", "now", "phase", "stopped_reason", "on_turn", "_since", "_clocks",
        "score", "cube_value", "cube_owner", "doubler", "game", "game_on", "late",
        "crawford_now", "crawford_pending", "crawford_done", "cube_frozen", "freeze_next",
        "winner", "offer", "dispute", "break_from", "break_info",
    )

    def __init__(self, settings: ClockSettings, *, crawford: bool = False) -> None:
        self.settings = settings
        self.now = 0
        self.phase = SETUP
        self.stopped_reason: str | None = None
        self.on_turn: int | None = None
        self._since = 0
        self._clocks = (_Clock(settings.reserve_ms), _Clock(settings.reserve_ms))
        self.score = list(settings.score)
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.doubler: int | None = None  # a double is pending
        self.game = 0
        self.game_on = False  # a game is in progress
        self.late = False  # a late player's clock runs before the first game
        needs_one = any(s == settings.length - 1 for s in settings.score)
        self.crawford_now = False
        self.crawford_pending = bool(crawford)
        # Without the flag, a side already at match point means the Crawford
        # game was played before the clock came (clock-script "match.crawford").
        self.crawford_done = needs_one and not crawford
        self.cube_frozen = False
        self.freeze_next = False
        self.winner: int | None = None
        self.offer: tuple[str, int, str] | None = None  # (kind, side, result)
        self.dispute: str | None = None  # "offer" or "time_expired"
        self.break_from = SETUP
        self.break_info: dict[str, object] | None = None

    @classmethod
    def new(
        cls,
        rules: str,
        *,
        length: int,
        score: tuple[int, int] = (0, 0),
        teams: bool = False,
        crawford: bool = False,
        clock: dict[str, object] | None = None,
    ) -> Match:
        """A match in ``setup`` under preset ``rules`` with director overrides ``clock``."""
        settings = ClockSettings.resolve(
            rules, length=length, score=score, teams=teams, overrides=clock
        )
        return cls(settings, crawford=crawford)

    # ------------------------------------------------------------------ time

    def expires_at(self) -> int | None:
        """The instant the running clock reaches 0, or None if none runs."""
        if self.phase != PLAYING or self.on_turn is None:
            return None
        c = self._clocks[self.on_turn]
        return self._since + self.settings.mode.time_to_expiry(c.reserve, c.allow_left)

    def advance(self, at_ms: int) -> None:
        """Move the match's time to ``at_ms``, applying an expiry on the way."""
        if at_ms < self.now:
            raise InvalidCommand(
                f"time cannot go backwards: {at_ms} ms is before {self.now} ms",
                code="time_backwards", params={"at_ms": at_ms, "now_ms": self.now},
            )
        expiry = self.expires_at()
        if expiry is not None and expiry <= at_ms:
            self._settle(expiry)
            self._expire(expiry)
        self.now = at_ms

    def _settle(self, t: int) -> None:
        """Bring the running clock's stored figures to instant ``t``."""
        if self.phase == PLAYING and self.on_turn is not None:
            c = self._clocks[self.on_turn]
            c.reserve, c.allow_left = self.settings.mode.spend(
                c.reserve, c.allow_left, t - self._since
            )
            c.wait_left = max(0, c.wait_left - (t - self._since))
        self._since = t

    # --------------------------------------------------------------- applying

    def apply(self, event: Event) -> None:
        """Apply one event; raise ``ClockError`` (and change nothing) if refused."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise InvalidCommand(f"not an event: {event!r}")
        self.advance(event.at_ms)
        if self.phase not in PHASE_RULES[event.kind]:
            raise self._phase_refusal(event)
        handler(self, event)
        # An event can leave a running clock at 0 (a Bronstein period started
        # on an empty reserve, or an adjust): it expires at this very instant.
        self.advance(event.at_ms)

    def _phase_refusal(self, event: Event) -> IllegalCommand:
        """Why ``event`` cannot be taken in this phase, in a player's words."""
        kind, phase = event.kind, self.phase
        words = kind.replace("_", " ")
        if phase == MATCH_OVER:
            return refuse("match_over", event=words)
        if kind in ("accept", "reject"):
            return refuse("no_offer", event=words)
        if kind == "ruling":
            return refuse("no_dispute")
        if kind == "break" and phase in (PLAYING, STOPPED, OFFER, DISPUTE):
            return refuse("break_between_games")
        if kind == "start":
            if phase == BETWEEN_GAMES and not self.settings.preset.mid_game_start:
                return refuse("start_at_game_start", rules=self.settings.preset.id)
            return refuse("clock_in_use", event=words)
        if kind == "late_start":
            return refuse("clock_in_use", event=words)
        if phase == DISPUTE:
            if self.dispute == "time_expired":
                return refuse("director_must_rule", event=words)
            return refuse("dispute_open", event=words)
        if phase == OFFER:
            return refuse("offer_open", event=words)
        if kind == "resume":
            return refuse("not_stopped")
        if kind == "stop":
            return refuse("not_running")
        if kind in ("double", "take", "game_over", "concede", "claim", "premature", "pass") \
                and phase in (SETUP, BETWEEN_GAMES, BREAK):
            return refuse("no_game", event=words)
        return refuse("not_in_phase", event=words, when=_PHASE_WORDS[phase], phase=phase)

    # A copy is what the property tests compare a refused event against.
    def copy(self) -> Match:
        """An independent copy of this match (the state, not a log)."""
        other = Match.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other._clocks = (self._clocks[0].copy(), self._clocks[1].copy())
        other.score = list(self.score)
        other.break_info = dict(self.break_info) if self.break_info else None
        return other

    # -------------------------------------------------------------- snapshot

    def to_snapshot(self) -> dict[str, object]:
        """The match's whole state as plain JSON values, versioned
        (``SNAPSHOT_VERSION``): what ``from_snapshot`` makes the same match
        from, without the log.  The settings are not in it: they come from
        the table's spec, as for ``Match.new``."""
        fields: dict[str, object] = {}
        for name in Match.__slots__:
            if name in ("settings", "_clocks"):
                continue
            value = getattr(self, name)
            fields[name] = list(value) if isinstance(value, tuple) else value
        fields["_clocks"] = [{n: getattr(c, n) for n in _Clock.__slots__} for c in self._clocks]
        return {"v": SNAPSHOT_VERSION, "slots": _SNAPSHOT_SLOTS, "match": fields}

    @classmethod
    def from_snapshot(cls, settings: ClockSettings, data: dict[str, Any]) -> Match:
        """The match ``to_snapshot`` wrote, under ``settings``; ``ValueError``
        if ``data`` is of another version or shape (the caller folds the
        whole log instead)."""
        if data.get("v") != SNAPSHOT_VERSION or data.get("slots") != _SNAPSHOT_SLOTS:
            raise ValueError(f"snapshot version {data.get('v')!r} is not {SNAPSHOT_VERSION}")
        fields = data.get("match")
        if not isinstance(fields, dict) or set(fields) != set(Match.__slots__) - {"settings"}:
            raise ValueError("snapshot fields do not match the engine's")
        clocks = fields["_clocks"]
        if not isinstance(clocks, list) or len(clocks) != 2 or any(
                not isinstance(c, dict) or set(c) != set(_Clock.__slots__) for c in clocks):
            raise ValueError("snapshot clocks do not match the engine's")
        match = cls.__new__(cls)
        match.settings = settings
        for name, value in fields.items():
            if name != "_clocks":
                setattr(match, name, value)
        pair = []
        for stored in clocks:
            c = _Clock.__new__(_Clock)
            for name in _Clock.__slots__:
                setattr(c, name, stored[name])
            pair.append(c)
        match._clocks = (pair[0], pair[1])
        match.score = list(match.score)
        if match.offer is not None:
            kind, side, result = match.offer
            match.offer = (str(kind), int(side), str(result))
        if match.break_info is not None:
            match.break_info = dict(match.break_info)
        for name in ("now", "_since", "cube_value", "game"):
            if type(getattr(match, name)) is not int:
                raise ValueError(f"snapshot field {name} is not an integer")
        return match

    # ---------------------------------------------------------- period logic

    def _start_period(self, side: int, t: int) -> None:
        c = self._clocks[side]
        forfeited = c.forfeit_pending
        c.forfeit_pending = False
        c.forfeit_active = forfeited
        c.no_cube_active = c.no_cube_pending
        c.no_cube_pending = False
        mode, delay = self.settings.mode, self.settings.delay_ms
        c.allowance = c.allow_left = mode.period_allowance(delay, forfeited)
        c.wait_left = (
            mode.period_allowance(delay, False)
            if forfeited and self.settings.preset.id == "biba-2014" else 0
        )
        c.in_period = True
        self.on_turn = side
        self.phase = PLAYING
        self.stopped_reason = None
        self._since = t

    def _end_period(self, side: int, *, credit: bool) -> None:
        c = self._clocks[side]
        if credit:
            c.reserve += self.settings.mode.credit(c.allowance, c.allow_left)
        c.in_period = False
        c.forfeit_active = False
        c.no_cube_active = False
        c.allowance = c.allow_left = c.wait_left = 0

    def _pass_clock(self, side: int, t: int) -> None:
        """``side`` ends its period with its credit; the opponent's starts."""
        self._settle(t)
        self._end_period(side, credit=True)
        self._start_period(1 - side, t)

    def _stop_all(self) -> None:
        """Both clocks stop for good: live periods end with no credit."""
        for side in (0, 1):
            if self._clocks[side].in_period:
                self._end_period(side, credit=False)
        self.on_turn = None
        self.doubler = None
        self.offer = None
        self.dispute = None
        self.late = False

    def _needs(self, side: int) -> int:
        return self.settings.length - self.score[side]

    # ---------------------------------------------------- scoring and endings

    def _add_points(self, side: int, points: int, *, penalty: bool) -> bool:
        """Score ``points`` for ``side``; True when that wins the match."""
        self.score[side] += points
        if self.score[side] >= self.settings.length:
            return True
        at_match_point = self.score[side] == self.settings.length - 1
        if at_match_point and not self.crawford_done and not self.crawford_pending:
            self.crawford_pending = True  # the next game is the Crawford game
        if penalty and at_match_point and self.settings.preset.id.startswith("aba-"):
            # aba-2003 5.2: frozen for the rest of this game and the next.
            if self.game_on:
                self.cube_frozen = True
            self.freeze_next = True
        return False

    def _finish_match(self, winner: int, reason: str | None) -> None:
        self._stop_all()
        self.game_on = False
        self.phase = MATCH_OVER
        self.stopped_reason = reason
        self.winner = winner
        self.crawford_now = self.crawford_pending = False
        self.cube_frozen = self.freeze_next = False
        self.break_info = None

    def _end_game(self, winner: int, points: int, t: int) -> None:
        self._settle(t)
        self._stop_all()
        self.game_on = False
        self.crawford_now = False
        self.cube_frozen = False
        if self._add_points(winner, points, penalty=False):
            self._finish_match(winner, None)
            return
        self.phase = BETWEEN_GAMES
        self.stopped_reason = None

    def _reset_expired(self, c: _Clock, reserve: int) -> None:
        """Both clocks stop; the expired clock is set to ``reserve``, and its
        period's running time counts from 0 again on resume."""
        self.phase = STOPPED
        self.stopped_reason = "time_expired"
        c.reserve = reserve
        c.allow_left = c.allowance
        c.expired = False

    def _expire(self, t: int) -> None:
        """The running side's clock reached 0 at ``t``: the preset's consequence."""
        assert self.on_turn is not None
        side = self.on_turn
        c = self._clocks[side]
        c.reserve = 0
        c.expired = True
        settings = self.settings
        if settings.penalty_on_expiry:
            # aba-2003 5.1: stop, then grace, or penalty points and a 5:00 reset.
            self.phase = STOPPED
            self.stopped_reason = "time_expired"
            every_result_ends = self.game_on and all(
                self._needs(s) <= self.cube_value for s in (0, 1)
            )
            first_in_game = not c.expired_in_game
            c.expired_in_game = True
            if not (every_result_ends and first_in_game):
                # Not the grace (the side's first expiry in this game): an offense.
                c.offenses += 1
                points = 2 if c.offenses == 1 else 1
                if self._add_points(1 - side, points, penalty=True):
                    self._finish_match(1 - side, "time_expired")
                    return
            self._reset_expired(c, ABA_RESET_MS)
            return
        if settings.overtime_ms > 0 and not c.overtime_used:
            # USBGF Rules Options, Overtime: the first expiry in the match stops
            # both clocks and gives the side its overtime, as the ABA reset does.
            c.overtime_used = True
            self._reset_expired(c, settings.overtime_ms)
            return
        if (
            settings.preset.expiry == EXPIRY_BIBA
            and self.game_on
            and self._needs(side) <= 3 * self.cube_value
        ):
            # biba-2014 Time Expiration: the director decides whether it is gin.
            self.phase = DISPUTE
            self.stopped_reason = "time_expired"
            self.dispute = "time_expired"
            return
        self._finish_match(1 - side, "time_expired")

    # --------------------------------------------------------------- handlers

    def _new_game(self) -> None:
        self.game += 1
        self.game_on = True
        self.cube_value = 1
        self.cube_owner = None
        self.doubler = None
        self.crawford_now = self.crawford_pending
        if self.crawford_pending:
            self.crawford_done = True
            self.crawford_pending = False
        self.cube_frozen = self.freeze_next
        self.freeze_next = False
        for c in self._clocks:
            c.expired_in_game = False

    def _opening_roll(self, e: OpeningRoll) -> None:
        a, b = e.dice
        if self.phase in (PLAYING, STOPPED) and not self.late:
            raise refuse("opening_roll_in_game")
        if a == b:
            raise refuse("opening_dice_equal", a=a, b=b)
        if self.late and self.on_turn is not None:
            # The late player's period ends as at a game's end (no credit).
            self._settle(e.at_ms)
            self._end_period(self.on_turn, credit=False)
            self.late = False
        self._new_game()
        self.break_info = None
        self._start_period(0 if a > b else 1, e.at_ms)

    def _start(self, e: Start) -> None:
        preset = self.settings.preset
        if not preset.mid_game_start:
            raise refuse("start_at_game_start", rules=preset.id)
        # The cube as it stands when the clock arrives (clock-script ``start``):
        # a game already doubled goes on at its value, and only the owner may
        # redouble; a cube no game can show is refused.
        value = 1 if e.cube is None else e.cube.value
        owner = None if e.cube is None else e.cube.owner
        if owner is None and value > 1:
            raise refuse("start_cube_centered", value=value)
        if owner is not None and value == 1:
            raise refuse("start_cube_owned_at_one", side=owner)
        if value > 1 and self.crawford_pending:
            raise refuse("start_cube_crawford", value=value)
        self._new_game()
        self.cube_value = value
        self.cube_owner = None if owner is None else _index(owner)
        self._start_period(_index(e.side), e.at_ms)

    def _late_start(self, e: LateStart) -> None:
        self.late = True
        self._start_period(_index(e.side), e.at_ms)

    def _hit(self, e: Hit) -> None:
        side = _index(e.side)
        if self.phase != PLAYING or side != self.on_turn:
            return  # the idle side's button does nothing
        if self.doubler is not None:
            raise refuse("doubled_must_answer", side=e.side)
        if self.late:
            return  # no game yet: the late player's clock runs on
        self._pass_clock(side, e.at_ms)

    def _double(self, e: Double) -> None:
        side = _index(e.side)
        who = e.side
        if self.late or not self.game_on:
            raise refuse("no_game", event="double")
        if self.doubler is not None:
            raise refuse("double_pending", side=who)
        if side != self.on_turn:
            raise refuse("double_not_turn", side=who)
        if self.crawford_now:
            raise refuse("crawford_no_double", side=who)
        if self.cube_frozen:
            raise refuse("cube_frozen", side=who)
        if self.cube_owner is not None and self.cube_owner != side:
            raise refuse("cube_owned_by_opponent", side=who)
        c = self._clocks[side]
        if c.no_cube_active:
            # Italian rules: "A premature roller cannot use the cube".
            raise refuse("premature_no_cube", side=who)
        if c.wait_left - (e.at_ms - self._since) > 0:
            # biba-2014 4.6: "cannot ... continue with their double ... until
            # their 12 seconds have elapsed" (the period's running time, stops
            # excluded, under every mode: docs/rules.md).
            raise refuse("premature_delay_running", side=who)
        self._pass_clock(side, e.at_ms)
        self.doubler = side

    def _doubled_side(self, side: str, action: str) -> int:
        if self.doubler is None:
            raise refuse("no_double_to_answer", side=side, event=action)
        if _index(side) == self.doubler:
            raise refuse("own_double", side=side, event=action)
        return 1 - self.doubler

    def _take(self, e: Take) -> None:
        side = self._doubled_side(e.side, "take")
        self._pass_clock(side, e.at_ms)
        self.cube_value *= 2
        self.cube_owner = side
        self.doubler = None

    def _pass(self, e: Pass) -> None:
        self._doubled_side(e.side, "pass")
        doubler = self.doubler
        assert doubler is not None
        self._end_game(doubler, self.cube_value, e.at_ms)

    def _stop(self, e: Stop) -> None:
        self._settle(e.at_ms)
        self.phase = STOPPED
        self.stopped_reason = e.reason

    def _resume(self, e: Resume) -> None:
        if self.phase == BREAK:
            self.phase = self.break_from
            self.stopped_reason = None
            self.break_info = None
            return
        self.phase = PLAYING
        self.stopped_reason = None
        self._since = e.at_ms

    def _offer(self, e: Concede | Claim) -> None:
        if not self.game_on:
            raise refuse("no_game", event=e.kind)
        self._settle(e.at_ms)
        self.phase = OFFER
        self.stopped_reason = "concession"
        self.offer = (e.kind, _index(e.side), e.result)

    def _answerer(self, side: str, action: str) -> tuple[str, int, str]:
        assert self.offer is not None
        if _index(side) == self.offer[1]:
            raise refuse("own_offer", side=side, event=action)
        return self.offer

    def _settle_offer(self, offer: tuple[str, int, str], t: int) -> None:
        kind, offerer, result = offer
        winner = 1 - offerer if kind == "concede" else offerer
        self._end_game(winner, RESULTS[result] * self.cube_value, t)

    def _accept(self, e: Accept) -> None:
        self._settle_offer(self._answerer(e.side, "accept"), e.at_ms)

    def _reject(self, e: Reject) -> None:
        kind, _, result = self._answerer(e.side, "reject")
        if kind == "concede" and result == "backgammon" and self.settings.preset.id == (
            "it-tournament"
        ):
            raise refuse("max_concession", side=e.side)
        self.phase = DISPUTE
        self.stopped_reason = "dispute"
        self.dispute = "offer"

    def _ruling(self, e: Ruling) -> None:
        if self.dispute == "offer":
            if e.decision not in ("accept", "invalid"):
                raise refuse("ruling_for_offer", decision=e.decision)
            assert self.offer is not None
            if e.decision == "accept":
                self._settle_offer(self.offer, e.at_ms)
                return
            # The offer is invalid: the clock that ran before it runs again.
            self.offer = None
            self.dispute = None
            self.phase = PLAYING
            self.stopped_reason = None
            self._since = e.at_ms
            return
        if e.decision not in ("gin", "lost"):
            raise refuse("ruling_for_expiry", decision=e.decision)
        assert self.on_turn is not None
        expired = self.on_turn
        if e.decision == "gin":
            assert e.result is not None
            # biba-2014: gammons and backgammons count x cube for the expired side.
            if self._add_points(expired, RESULTS[e.result] * self.cube_value, penalty=False):
                self._finish_match(expired, None)
                return
        self._finish_match(1 - expired, "time_expired")

    def _game_over(self, e: GameOver) -> None:
        if not self.game_on:
            raise refuse("no_game", event="game over")
        if self.doubler is not None:
            raise refuse("game_over_double_pending")
        self._end_game(_index(e.winner), RESULTS[e.result] * self.cube_value, e.at_ms)

    def _break(self, e: Break) -> None:
        side = _index(e.side)
        c = self._clocks[side]
        limit = self.settings.max_breaks
        if limit is not None and c.breaks >= limit:
            raise refuse("break_limit", side=e.side, limit=limit, length=self.settings.length)
        c.breaks += 1
        self.break_from = self.phase
        self.phase = BREAK
        self.stopped_reason = "break"
        self.break_info = {
            "side": e.side,
            "started_ms": e.at_ms,
            "reserves": [self._clocks[0].reserve, self._clocks[1].reserve],
            "limit_ms": self.settings.preset.break_ms,
        }

    def _premature(self, e: Premature) -> None:
        if not self.game_on:
            raise refuse("no_game", event="premature")
        # The next period to start for that side is forfeited; a second
        # premature before it starts changes nothing.  The Italian rules have
        # no time penalty: that period may not use the cube instead.
        c = self._clocks[_index(e.side)]
        if self.settings.preset.id == "it-tournament":
            c.no_cube_pending = True
        else:
            c.forfeit_pending = True

    def _adjust(self, e: Adjust) -> None:
        side = _index(e.side)
        self._settle(e.at_ms)
        if e.delta_ms == 0:
            return  # an adjust of 0 changes nothing
        c = self._clocks[side]
        c.reserve = max(0, c.reserve + e.delta_ms)
        if e.delta_ms > 0:
            c.expired = False
        # A running side whose time is now used up expires at this instant:
        # ``apply`` advances once more after the handler, and under simple
        # delay the delay still to run keeps it alive until it runs out.

    def _penalty(self, e: Penalty) -> None:
        side = _index(e.side)
        self._settle(e.at_ms)
        if self._add_points(side, e.points, penalty=True):
            self._finish_match(side, None)

    # ----------------------------------------------------------------- reading

    def state(self, at_ms: int | None = None) -> MatchState:
        """The state at ``at_ms`` (default: the match's current instant)."""
        if at_ms is not None:
            self.advance(at_ms)
        t = self.now
        mode = self.settings.mode
        delay = self.settings.delay_ms
        sides = []
        for i, c in enumerate(self._clocks):
            running = self.phase == PLAYING and self.on_turn == i
            if running:
                reserve, allow_left = mode.spend(c.reserve, c.allow_left, t - self._since)
            else:
                reserve, allow_left = c.reserve, c.allow_left
            sides.append(
                SideState(
                    reserve_ms=reserve,
                    delay_ms=allow_left if c.in_period else mode.idle_delay(
                        delay, c.forfeit_pending
                    ),
                    running=running,
                    expired=c.expired,
                    forfeit_delay=c.forfeit_pending or c.forfeit_active,
                    breaks=c.breaks,
                    overtime=c.overtime_used,
                    no_cube=c.no_cube_pending or c.no_cube_active,
                )
            )
        over = self.phase == MATCH_OVER
        shows_turn = self.phase in (PLAYING, STOPPED, OFFER, DISPUTE)
        offer = None
        if self.offer is not None:
            offer = {"kind": self.offer[0], "side": _NAMES[self.offer[1]], "result": self.offer[2]}
        return MatchState(
            at_ms=t,
            rules=self.settings.preset.id,
            length=self.settings.length,
            teams=self.settings.teams,
            A=sides[0],
            B=sides[1],
            phase=self.phase,
            stopped_reason=self.stopped_reason,
            on_turn=_NAMES[self.on_turn] if shows_turn and self.on_turn is not None else None,
            score=(self.score[0], self.score[1]),
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner is None else _NAMES[self.cube_owner],
            crawford=False if over else (
                self.crawford_now if self.game_on else self.crawford_pending
            ),
            cube_frozen=False if over else (
                self.cube_frozen if self.game_on else self.freeze_next
            ),
            winner=None if self.winner is None else _NAMES[self.winner],
            game=self.game,
            double_offered_by=None if self.doubler is None else _NAMES[self.doubler],
            offer=offer,
            dispute=self.dispute,
            break_info=dict(self.break_info) if self.break_info else None,
            expires_at_ms=self.expires_at(),
        )


def replay(
    events: list[Event] | tuple[Event, ...],
    rules: str,
    *,
    length: int,
    score: tuple[int, int] = (0, 0),
    teams: bool = False,
    crawford: bool = False,
    clock: dict[str, object] | None = None,
) -> Match:
    """Fold a log of accepted events into the match they made."""
    match = Match.new(rules, length=length, score=score, teams=teams, crawford=crawford,
                      clock=clock)
    for event in events:
        match.apply(event)
    return match


#: The state a snapshot holds, by name: a renamed or added slot makes every
#: stored snapshot unreadable (``from_snapshot`` refuses it), never misread.
_SNAPSHOT_SLOTS: Final = hashlib.blake2b(",".join(
    [*Match.__slots__, *(f"_clocks.{n}" for n in _Clock.__slots__)]).encode(),
    digest_size=6).hexdigest()

#: event class -> its handler (one table for the class: a copy binds nothing).
_HANDLERS: Final[dict[type[Event], Callable[[Match, Any], None]]] = {
    OpeningRoll: Match._opening_roll, Start: Match._start, LateStart: Match._late_start,
    Hit: Match._hit, Double: Match._double, Take: Match._take, Pass: Match._pass,
    Stop: Match._stop, Resume: Match._resume, Concede: Match._offer, Claim: Match._offer,
    Accept: Match._accept, Reject: Match._reject, Ruling: Match._ruling,
    GameOver: Match._game_over, Break: Match._break, Premature: Match._premature,
    Adjust: Match._adjust, Penalty: Match._penalty,
}
