"""A tournament run from the director's desk: its state is a fold of the
director's actions (tournament.md section 4, issue 12).

Theory of operation
-------------------
The server keeps one append-only log of *actions* per tournament (register a
player, check in, withdraw, draw, a late arrival, close late arrivals, start a
round at tables, a result, a correction).  ``Tournament.fold(actions)`` replays
them in order; the same log always gives the same state, because the only
randomness (the draw of the Main, later the draw of the Progressive
Consolation) comes from one ``random.Random`` seeded with the director's
seed, used in log order.

``Tournament.apply(action)`` is how a new action is decided, in place and
in time proportional to the action (never to the tournament): every handler
validates the action against the current state first and only then changes
it, so a refused action (``InvalidContest``: malformed, names the field;
``IllegalContest``: not allowed now) leaves the state untouched.  Each
action is first decoded into its declaration (``actions.py``: one msgspec
Struct per kind, its bounds checked there, the field named when one is out
of them), so a handler reads typed fields and checks only what depends on
the state (``model.py`` types that state).  The dispatch is a table
(``HANDLERS``, keyed by the action's type) of one handler per action; the
consequences that can follow an action (a withdrawn player's matches, the
consolation's draw) are settled only after the actions that can cause them
(``SETTLING``).  ``Tournament.after(action)`` decides on a copy (tests and
what-ifs; the server never copies the state).

What the actions mean:

- ``settings``: each round's match length, rule book (a clock preset id) and
  clock policy (``required``, ``on_request``, ``none``); rounds past the list
  take its last entry; the late-arrival slots kept and the seed; whether a
  Last Chance is played (``last_chance``, off unless asked); the seeds
  (``seeds``: player ids, best first) and the groups kept apart in the first
  round (``groups``: lists of player ids, a club or a family each).  Only
  before the draw.
- ``register`` / ``check_in`` / ``withdraw``: players have ids 1, 2, ... in
  order of registration; names are unique (the draw sheet shows names).
- ``draw``: the Main of every checked-in player still in (in id order), with
  ``late_slots`` slots, drawn by ``MainDraw`` from ``random.Random(seed)``;
  the action's own ``seed`` (the server writes the one it drew from a
  cryptographic source, or the director's) else the settings' (older logs).
  the seeds and groups of the players in the draw go with it (a seed who is
  not in the draw is left out, the others keep their order); it says which
  same-group first-round matches it could not avoid.
- ``arrive``: a registered player not in the draw takes the next late slot;
  ``close_late``: the slots left become byes.
- ``start_round``: every match of a round whose two players are known and
  which is not decided or at a table gets a table number (the director's,
  or the lowest numbers holding no live match).  ``bind_table``: the server
  records which clock table serves a number (the same table all day).
- ``result``: the winner of a match (from its clock, or entered by hand);
  the winner moves on, and once every first-match loser is known the
  Progressive Consolation is drawn from the same ``random.Random``; with
  ``last_chance`` on, once every first *played* consolation loser is known,
  the Last Chance is drawn from it the same way (issue 23 §2).
  ``correct``: a decided match gets another winner, while the match its
  winner went on to is neither decided nor at a table, and never once the
  change would alter the consolation's entrants after it was drawn.
- A withdrawn player loses every match of theirs whose opponent is known.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol, TypeVar

from msgspec import UnsetType

from . import actions as act
from ._breaks import BreakRecord, allowance
from ._double import DOUBLE_EVENTS, DoubleDesk
from ._draw import Bracket, ConsolationDraw, MainDraw, Match
from ._errors import IllegalContest, InvalidContest
from ._events import EVENT_HANDLERS, Events
from ._flights import Flight, room_key
from ._jackpot import Jackpot, check_jackpot
from ._late import LateArrival
from ._ledger import Ledger, entered, ledger_view, owed
from ._prizes import STANDING_EVENTS, set_prizes
from ._sheets import Settlement, Sheet, parse_sheet, settle
from ._side import SidePool, set_pool
from ._weekly import WEEKLY, Weekly
from .actions import (
    CLOCK_POLICIES,
    EVENTS,
    MAX_CLASHES,
    MAX_FEDERATION_ID,
    MAX_LATE_SLOTS,
    MAX_MATCH_LABEL,
    MAX_MATCH_LENGTH,
    MAX_PLAYER_NAME,
    MAX_REASON,
    MAX_REGISTERED,
    MAX_ROUND_SETTINGS,
    MAX_RULING,
    MAX_SEED,
    MAX_TABLE_NUMBER,
    RESULT_SOURCES,
    Action,
    decode_action,
    kind_of,
)
from .model import (
    AppealRecord,
    ClashRecord,
    Correction,
    LateCount,
    MatchKey,
    Player,
    PriorResult,
    ResultDetail,
    RoundSettings,
    TableResult,
)
from .model import text as _text
from .model import whole as _int

#: The director's key among an appeal's votes (the director votes with the panel).
DIRECTOR_VOTE: Final = "director"
#: The Main's actions (the Swing and couples ones are ``_events.EVENT_ACTIONS``),
#: by their ``do`` string.
ACTIONS: Final = ("settings", "register", "check_in", "withdraw", "draw", "arrive",
                  "close_late", "start_round", "bind_table", "result", "correct",
                  # late arrivals at a match, score sheets, the ruling committee
                  "absent", "disqualify", "sheet", "committee", "appeal", "decide",
                  # a table's final result that disagrees with the one held
                  "clash", "dismiss_clash",
                  # the prize list (issue 19 §4, ``_standings``)
                  "prizes",
                  # compensating actions: the director's undo (issue 19 §2)
                  "reinstate", "revert",
                  # side pools (jackpots) of an event (issue 23 §5, ``_side``)
                  "side_pool",
                  # the event's room, shared with other events (issue 23 §1, ``_flights``)
                  "flight",
                  # one sheet handed in: the presumption (issue 38 §4)
                  "presume",
                  # breaks at a match without a clock (issue 38 §3, ``_breaks``)
                  "break_start", "break_end", "break_penalty",
                  # an entry made by mistake, deleted before the draw (issue 32 §3)
                  "delete_entry",
                  # the public page up or down (issue 37 §1)
                  "set_public",
                  # the entries ledger and the money (issue 36, ``_ledger``)
                  "money", "payment", "refund", "reentry",

                  # a weekly format's round paired when it starts (issue 35, ``_weekly``)
                  "pair_round",
                  # a re-entry: a seat and one more entry fee (issue 35 §3, ``_jackpot``)
                  "reenter")
__all__ = ["CLOCK_POLICIES", "EVENTS", "MAX_FEDERATION_ID", "MAX_LATE_SLOTS",
           "MAX_MATCH_LENGTH", "MAX_PLAYER_NAME", "MAX_REGISTERED", "MAX_ROUND_SETTINGS",
           "MAX_SEED", "MAX_TABLE_NUMBER", "RESULT_SOURCES", "ACTIONS", "HANDLERS",
           "SETTLING", "Player", "RoundSettings", "Tournament", "entrants", "first_losers"]

T = TypeVar("T")
D = TypeVar("D")


def _or(value: T | UnsetType, default: D) -> T | D:
    """An action's field, or ``default`` when the action does not give it."""
    return default if isinstance(value, UnsetType) else value


class _MatchRef(Protocol):
    """An action naming a match of a bracket."""

    @property
    def event(self) -> str | UnsetType: ...
    @property
    def round(self) -> int: ...
    @property
    def match(self) -> int: ...


def _round_settings(body: act.RoundSettingsBody, where: str) -> RoundSettings:
    """A round's settings from a ``settings`` action (the defaults where it gives none)."""
    try:
        return RoundSettings(length=_or(body.length, 7), rules=_or(body.rules, "it-tournament"),
                             clock=_or(body.clock, "required"))
    except InvalidContest as exc:
        raise InvalidContest(f"{where}.{exc}") from None




def _pair(score: Sequence[int] | None) -> tuple[int, int] | None:
    """A score ``[a, b]`` as the state keeps it (None: none given)."""
    return None if score is None else (score[0], score[1])


def first_losers(bracket: Bracket) -> list[str] | None:
    """Every player whose first *played* match in ``bracket`` is a loss, as
    soon as they are known (every first-round slot known: an empty one is a
    bye); None while one is not known.  A player's first played match is the
    first round's (both present) or, after a bye, the second round's."""
    rounds = bracket.rounds
    if not rounds:
        return []
    losers: list[str] = []
    won: set[str] = set()
    for i, m in enumerate(rounds[0]):
        if m.a is not None and m.b is not None:
            if m.winner is None:
                return None
            losers.append(m.b if m.winner == m.a else m.a)
            won.add(m.winner)
            continue
        holder = m.a or m.b
        if holder is None or len(rounds) == 1:
            continue
        nxt = rounds[1][i // 2]
        if nxt.a is None or nxt.b is None or nxt.winner is None:
            return None
        if nxt.winner != holder:
            losers.append(holder)
        else:
            won.add(holder)
    # a player re-entered (``_jackpot``) enters once, and only when every
    # one of their entries lost its first played match
    return [n for n in dict.fromkeys(losers) if n not in won]


def entrants(main: MainDraw) -> list[str] | None:
    """The consolation's entrants as soon as they are known: every player
    whose first *played* Main match is a loss; None while one is not known.

    Once late arrivals are closed, an empty first-round slot is a bye, so a
    player's first played match is the first round's (both present) or, after
    a bye, the second round's: it does not wait for the rest of the Main
    (``first_match_losers`` waits for every later slot)."""
    if main.late_open:
        return None
    return first_losers(main.bracket)


@dataclass(slots=True, kw_only=True)
class Tournament:
    """The folded state of one tournament's Main event and its consolation."""

    rounds: list[RoundSettings] = field(default_factory=lambda: [RoundSettings()])
    late_slots: int = 0
    seed: int = 0
    #: Whether a ``settings`` action gave the seed (else the server draws one).
    seed_given: bool = False
    #: Whether the consolation's first-match losers play a Last Chance.
    last_chance_on: bool = False
    #: Seeded players' ids, best first (issue 23 §3).
    seeds: list[int] = field(default_factory=list)
    #: Groups of player ids kept apart in the Main's first round.
    groups: list[list[int]] = field(default_factory=list)
    #: The event's format (``knockout``: the Main; else ``_weekly.WEEKLY``),
    #: a Swiss's rounds and a More Swiss's losses.
    format: str = "knockout"
    swiss_rounds: int | None = None
    losses: int | None = None
    #: A weekly format's field and rounds (drawn: instead of ``main``).
    weekly: Weekly | None = None
    #: A double elimination's losers' bracket and final (drawn: beside ``main``).
    double: DoubleDesk | None = None
    #: A jackpot's size, length and room (``_jackpot``); the re-entries'
    #: deadline and each name's re-entries into the Main.
    jackpot: Jackpot | None = None
    reentry_until_ms: int | None = None
    reentered: dict[str, int] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    main: MainDraw | None = None
    consolation: ConsolationDraw | None = None
    #: The Last Chance (drawn from the consolation, when the settings ask).
    last_chance: ConsolationDraw | None = None
    rng: random.Random | None = None
    #: Which table number each match was given (kept once decided: the record).
    tables: dict[MatchKey, int] = field(default_factory=dict)
    #: The clock table serving each table number.
    table_ids: dict[int, int] = field(default_factory=dict)
    #: How each decided match was decided: {"source", "score"?, "corrected"?}.
    results: dict[MatchKey, ResultDetail] = field(default_factory=dict)
    #: Late arrivals at a match's start: {"absent": [names], "from_ms",
    #: "at_ms", "clock": bool (a clock at the table keeps the time),
    #: "arrived_ms": {name: ms}}.
    lates: dict[MatchKey, LateCount] = field(default_factory=dict)
    #: Each corrected match's results before its corrections, oldest first
    #: (what ``revert`` puts back; not part of the view).
    corrected_from: dict[MatchKey, list[PriorResult]] = field(default_factory=dict)
    #: Score sheets of hand-entered results: {"A"|"B"|"director": Sheet} (``_sheets``).
    sheets: dict[MatchKey, dict[str, Sheet]] = field(default_factory=dict)
    #: Breaks taken at matches without a clock, in order (``_breaks``).
    breaks: dict[MatchKey, list[BreakRecord]] = field(default_factory=dict)
    #: The ruling committee: 3 to 5 player ids.
    committee: list[int] = field(default_factory=list)
    #: Appeals of rulings, in order (number = index + 1).
    appeals: list[AppealRecord] = field(default_factory=list)
    #: Tables whose final result disagrees with the result the tournament
    #: already held (a race between a hand and a clock result), in order
    #: (number = index + 1): the director's alerts until dismissed.
    clashes: list[ClashRecord] = field(default_factory=list)
    #: The Swing and couples events (issue 13), folded from the same log.
    events: Events = field(default_factory=Events)
    #: The director's prize list: event -> prize per place, 1st first (``_standings``).
    prizes: dict[str, list[str]] = field(default_factory=dict)
    #: The side pools (jackpots) by name, in the order first set (``_side``).
    side_pools: dict[str, SidePool] = field(default_factory=dict)
    #: Actions folded so far.
    count: int = 0
    #: Registered players by name (the names are unique): a lookup per
    #: registration, not a scan.
    names: dict[str, Player] = field(default_factory=dict)
    #: The matches each table number was given, in order (an index of
    #: ``tables``: a clock result finds its match without a scan).
    by_number: dict[int, list[MatchKey]] = field(default_factory=dict)
    #: The names of the players who withdrew: settling scans the brackets
    #: for their matches only when there is one.
    withdrawn: set[str] = field(default_factory=set)
    #: The room this event shares its table numbers with (``_flights``).
    flight: Flight | None = None
    #: Matches a round start left waiting for a table, in order (a match
    #: seated or no longer ready since is skipped on reading: ``waiting_matches``).
    waiting: list[MatchKey] = field(default_factory=list)
    #: Whether the tournament's public page is up (``set_public``): anyone
    #: may read its projection (``server/render/public.py``) without a key.
    public: bool = False
    #: The entries ledger: fee, payments, refunds, re-entries (``_ledger``).
    ledger: Ledger = field(default_factory=Ledger)

    # ------------------------------------------------------------ folding

    @classmethod
    def fold(cls, actions: Sequence[Mapping[str, Any] | Action]) -> Tournament:
        """The state a stored log gives (each action was accepted when stored)."""
        state = cls()
        for action in actions:
            state._apply(action)
        return state

    def after(self, action: Mapping[str, Any] | Action) -> tuple[Tournament, dict[str, Any]]:
        """The state after ``action`` and what it did, decided on a copy
        (tests and what-ifs: it costs a copy of the whole tournament); raises
        ``ContestError`` (and ``self`` is untouched) when it is refused."""
        state = copy.deepcopy(self)
        done = state._apply(action)
        return state, done

    def apply(self, action: Mapping[str, Any] | Action) -> dict[str, Any]:
        """Decide ``action`` (an ``actions`` Struct, or the stored dict it
        decodes from) in place; what it did.  Raises ``ContestError`` when it
        is refused, and then the state is untouched."""
        return self._apply(action)

    def _apply(self, action: Mapping[str, Any] | Action) -> dict[str, Any]:
        decided = decode_action(action)
        kind = type(decided)
        done = HANDLERS[kind](self, decided)
        if kind in SETTLING:
            self._settle()
        self.count += 1
        return done

    # ------------------------------------------------------------ reading

    def player(self, value: Any) -> Player:
        pid = _int(value, "player", 1, MAX_REGISTERED)
        if pid > len(self.players) or self.players[pid - 1].deleted:
            raise InvalidContest(f"player: no player {pid}")
        return self.players[pid - 1]

    def by_name(self, name: str) -> Player | None:
        return self.names.get(name)

    def settings_for(self, round_index: int) -> RoundSettings:
        return self.rounds[min(round_index, len(self.rounds) - 1)]

    def bracket(self, event: Any) -> Bracket:
        if event not in EVENTS:
            raise InvalidContest(f"event: must be one of {', '.join(EVENTS)}")
        if event == "main":
            if self.weekly is not None:
                return self.weekly.bracket
            if self.main is None:
                raise IllegalContest("the draw is not made yet", "not_drawn")
            return self.main.bracket
        if event in DOUBLE_EVENTS:
            if self.double is None:
                raise IllegalContest(f"this event has no {event} bracket: it is not a "
                                     "double elimination, or not drawn", "not_double")
            return self.double.bracket(event)
        if event == "last_chance":
            if self.last_chance is None:
                if self.last_chance_on:
                    raise IllegalContest("the Last Chance is not drawn: not every first "
                                         "consolation loser is known yet",
                                         "last_chance_not_drawn")
                raise IllegalContest("this tournament has no Last Chance "
                                     "(settings.last_chance)", "no_last_chance")
            return self.last_chance.bracket
        if self.consolation is None:
            raise IllegalContest("the consolation is not drawn yet: not every first-match "
                                 "loser is known", "consolation_not_drawn")
        return self.consolation.bracket

    def match(self, action: Mapping[str, Any]) -> tuple[MatchKey, Match]:
        """The match a (route's) body names: its key and the match."""
        return self.locate(action.get("event", "main"), action.get("round"),
                           action.get("match"))

    def locate(self, event: Any, round_index: Any, match: Any) -> tuple[MatchKey, Match]:
        """Match ``match`` of round ``round_index`` of ``event``'s bracket."""
        bracket = self.bracket(event)
        r = _int(round_index, "round", 0, max(len(bracket.rounds) - 1, 0))
        if not bracket.rounds:
            raise IllegalContest("this bracket has no matches", "no_matches")
        i = _int(match, "match", 0, len(bracket.rounds[r]) - 1)
        return (str(event), r, i), bracket.rounds[r][i]

    def _at(self, a: _MatchRef) -> tuple[MatchKey, Match]:
        return self.locate(_or(a.event, "main"), a.round, a.match)

    def ready(self, event: Any, r: int) -> list[int]:
        """The matches of round ``r`` that a round start would seat now."""
        bracket = self.bracket(event)
        if not 0 <= r < len(bracket.rounds):
            return []
        return [i for i, m in enumerate(bracket.rounds[r])
                if m.a is not None and m.b is not None and m.winner is None
                and (event, r, i) not in self.tables]

    def live_tables(self) -> dict[int, MatchKey]:
        """Table numbers holding a match not yet decided."""
        out: dict[int, MatchKey] = {}
        for key, number in self.tables.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if m.winner is None:
                out[number] = key
        return out

    def at_table(self, number: int) -> tuple[MatchKey, Match] | None:
        """The undecided match at table ``number`` (None: none)."""
        for key in reversed(self.by_number.get(number, ())):
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if m.winner is None:
                return key, m
        return None

    def waiting_matches(self) -> list[MatchKey]:
        """The matches left waiting for a table that are still ready to start."""
        out = []
        for key in self.waiting:
            if key not in out and key[2] in self.ready(key[0], key[1]):
                out.append(key)
        return out

    def to_dict(self) -> dict[str, Any]:
        def bracket(b: Bracket | None) -> dict[str, Any] | None:
            return None if b is None else b.to_dict()

        matches = []
        for (event, r, i), number in sorted(self.tables.items()):
            m = self.bracket(event).rounds[r][i]
            matches.append({"event": event, "round": r, "match": i, "table": number,
                            "table_id": self.table_ids.get(number), "a": m.a, "b": m.b,
                            "winner": m.winner, **self.settings_for(r).to_dict(),
                            "result": self._result_view((event, r, i))})
        return {
            "settings": {"rounds": [s.to_dict() for s in self.rounds],
                         "late_slots": self.late_slots, "seed": self.seed,
                         "seed_given": self.seed_given,
                         "last_chance": self.last_chance_on, "seeds": list(self.seeds),
                         "groups": [list(g) for g in self.groups],
                         "format": self.format, "swiss_rounds": self.swiss_rounds,
                         "losses": self.losses,
                         "jackpot": None if self.jackpot is None else self.jackpot.to_dict(),
                         "reentry_until_ms": self.reentry_until_ms},
            "players": [p.to_dict() for p in self.players if not p.deleted],
            "drawn": self.main is not None or self.weekly is not None,
            "weekly": None if self.weekly is None else self.weekly.to_dict(self.withdrawn),
            "main": self._weekly_view() if self.weekly is not None else None
            if self.main is None else {
                **self.main.bracket.to_dict(), "late_slots": list(self.main.late_positions),
                "late_open": self.main.late_open, "arrivals": list(self.main.arrivals),
                "same_group": [list(x) for x in self.main.same_group_matches()]},
            "consolation": bracket(self.consolation.bracket if self.consolation else None),
            "last_chance": bracket(self.last_chance.bracket if self.last_chance else None),
            "double": None if self.double is None else self.double.to_dict(),
            "reentered": dict(self.reentered),
            "matches": matches,
            # how every decided match was decided, at a table or not (the
            # undo's confirmation and what it names: ``revert``)
            "results": [{"event": e, "round": r, "match": i, **self._result_dict((e, r, i), d)}
                        for (e, r, i), d in sorted(self.results.items())],
            "tables": {str(n): t for n, t in sorted(self.table_ids.items())},
            "late": [self._late_dict(k, None) for k in sorted(self.lates)],
            "sheets": [self._sheet_dict(k) for k in sorted(self.sheets)],
            "breaks": [self._breaks_dict(k, None) for k in sorted(self.breaks)],
            "committee": [{"id": pid, "name": self.players[pid - 1].name}
                          for pid in self.committee],
            "appeals": [x.to_dict() for x in self.appeals],
            "clashes": [x.to_dict() for x in self.clashes],
            "prizes": {k: list(v) for k, v in self.prizes.items()},
            "side_pools": [p.to_dict() for p in self.side_pools.values()],
            "actions": self.count,
            "flight": None if self.flight is None else self.flight.to_dict(),
            "public": self.public,
            "waiting": [{"event": e, "round": r, "match": i,
                         "a": self.bracket(e).rounds[r][i].a, "b": self.bracket(e).rounds[r][i].b}
                        for e, r, i in self.waiting_matches()],
            **self.events.to_dict(),
            "money": ledger_view(self.ledger, self.players, self.draw_names(),
                                 list(self.side_pools.values())),
        }

    def _weekly_view(self) -> dict[str, Any]:
        """A weekly format's rounds as the screens read a bracket."""
        assert self.weekly is not None
        return {**self.weekly.bracket.to_dict(), "late_slots": [], "late_open": False,
                "arrivals": [], "same_group": []}

    def _result_view(self, key: MatchKey) -> dict[str, Any] | None:
        detail = self.results.get(key)
        return None if detail is None else self._result_dict(key, detail)

    def _result_dict(self, key: MatchKey, detail: ResultDetail) -> dict[str, Any]:
        view = detail.to_dict()
        if key in self.corrected_from:  # how many corrections an undo would walk back
            view["corrections"] = len(self.corrected_from[key])
        return view

    # ------------------------------------------------------------ actions

    def _settings(self, a: act.Settings) -> dict[str, Any]:
        if self.main is not None or self.weekly is not None:
            raise IllegalContest("the draw is made: its settings can no longer change",
                                 "settings_locked")
        seeds = self.seeds if isinstance(a.seeds, UnsetType) else self._seeds(a.seeds)
        groups = self.groups if isinstance(a.groups, UnsetType) else self._groups(a.groups)
        rounds = self.rounds if isinstance(a.rounds, UnsetType) else [
            _round_settings(x, f"rounds[{i}]") for i, x in enumerate(a.rounds)]
        jackpot = self.jackpot if isinstance(a.jackpot, UnsetType) else \
            None if a.jackpot is None else Jackpot.of(a.jackpot)
        if jackpot is not None and not isinstance(a.jackpot, UnsetType):
            rounds = [RoundSettings(length=jackpot.length)]
        check_jackpot(jackpot, _or(a.format, self.format), _or(a.late_slots, self.late_slots))
        if _or(a.format, self.format) == "double" and _or(a.late_slots, self.late_slots):
            raise InvalidContest("late_slots: a double elimination takes no late-arrival "
                                 "slots (0)")
        self.jackpot = jackpot
        self.reentry_until_ms = _or(a.reentry_until_ms, self.reentry_until_ms)
        self.rounds = rounds
        self.late_slots = _or(a.late_slots, self.late_slots)
        self.seed = _or(a.seed, self.seed)
        self.seed_given = self.seed_given or not isinstance(a.seed, UnsetType)
        self.last_chance_on = _or(a.last_chance, self.last_chance_on)
        self.seeds, self.groups = seeds, groups
        self.format = _or(a.format, self.format)
        self.swiss_rounds = _or(a.swiss_rounds, self.swiss_rounds)
        self.losses = _or(a.losses, self.losses)
        return {}

    def rating_seeds(self, ratings: Mapping[int, int], count: int) -> list[int]:
        """The ``count`` best rated players who would be drawn now (checked in,
        not withdrawn), best first: ``ratings`` maps player id to rating (a
        player without one is not seeded); equal ratings go by id (the first
        registered first).  What ``settings.seeds`` then holds."""
        count = _int(count, "count", 0, MAX_REGISTERED)
        rated = [p for p in self.players
                 if p.checked_in and not p.withdrawn and p.id in ratings]
        rated.sort(key=lambda p: (-ratings[p.id], p.id))
        return [p.id for p in rated[:count]]

    def club_groups(self, clubs: Mapping[int, str]) -> list[list[int]]:
        """The groups of players sharing a club (``clubs``: player id to club,
        compared without case or outer spaces), two or more each, in the order
        of their first member's id.  What ``settings.groups`` then holds."""
        by_club: dict[str, list[int]] = {}
        for p in self.players:
            club = clubs.get(p.id)
            if club and club.strip() and not p.withdrawn and not p.deleted:
                by_club.setdefault(club.strip().casefold(), []).append(p.id)
        return [ids for ids in by_club.values() if len(ids) >= 2]

    def _seeds(self, value: Sequence[int]) -> list[int]:
        """The seeds: registered players' ids, best first, each once."""
        if not isinstance(value, list) or len(value) > MAX_REGISTERED:
            raise InvalidContest(f"seeds: must be a list of at most {MAX_REGISTERED} player ids, "
                                 "best first")
        out: list[int] = []
        for k, pid in enumerate(value):
            pid = _int(pid, f"seeds[{k}]", 1, MAX_REGISTERED)
            if pid > len(self.players) or self.players[pid - 1].deleted:
                raise InvalidContest(f"seeds[{k}]: no player {pid}")
            if pid in out:
                raise InvalidContest(f"seeds[{k}]: player {pid} is seeded twice")
            out.append(pid)
        return out

    def _groups(self, value: Sequence[Sequence[int]]) -> list[list[int]]:
        """The groups kept apart: lists of registered players' ids, a player in
        one group at most."""
        if not isinstance(value, list) or len(value) > MAX_REGISTERED:
            raise InvalidContest(f"groups: must be a list of at most {MAX_REGISTERED} groups "
                                 "(lists of player ids)")
        seen: set[int] = set()
        out: list[list[int]] = []
        for g, members in enumerate(value):
            if not isinstance(members, list) or not 2 <= len(members) <= MAX_REGISTERED:
                raise InvalidContest(f"groups[{g}]: must be a list of 2 or more player ids")
            group: list[int] = []
            for k, pid in enumerate(members):
                pid = _int(pid, f"groups[{g}][{k}]", 1, MAX_REGISTERED)
                if pid > len(self.players) or self.players[pid - 1].deleted:
                    raise InvalidContest(f"groups[{g}][{k}]: no player {pid}")
                if pid in seen:
                    raise InvalidContest(f"groups[{g}][{k}]: player {pid} is already in a "
                                         "group")
                seen.add(pid)
                group.append(pid)
            out.append(group)
        return out

    def _register(self, a: act.Register) -> dict[str, Any]:
        name = _text(a.name, "name", MAX_PLAYER_NAME)
        fed = _or(a.federation_id, None)
        if fed is not None:
            fed = _text(fed, "federation_id", MAX_FEDERATION_ID)
        link = _or(a.register_id, None)
        if link is not None and any(p.register_id == link and not p.deleted
                                    for p in self.players):
            raise InvalidContest(f"register_id: register entry {link} is already "
                                 "registered in this tournament")
        if self.by_name(name) is not None:
            raise InvalidContest(f"name: {name} is already registered")
        check_entry(self)
        if len(self.players) >= MAX_REGISTERED:
            raise IllegalContest(f"at most {MAX_REGISTERED} players", "too_many_players",
                                 {"n": MAX_REGISTERED})
        player = Player(id=len(self.players) + 1, name=name, federation_id=fed,
                        register_id=link, checked_in=self.jackpot is not None)
        self.players.append(player)
        self.names[name] = player
        return {"player": player.id}

    def _check_in(self, a: act.CheckIn) -> dict[str, Any]:
        player = self.player(a.player)
        flag = _or(a.checked_in, True)
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                                 {"player": player.name})
        if not flag and (self.main is not None or self.weekly is not None) \
                and self._in_draw(player.name):
            raise IllegalContest(f"{player.name} is in the draw: withdraw instead", "in_draw",
                                 {"player": player.name})
        player.checked_in = flag
        return {"player": player.id}

    def _withdraw(self, a: act.Withdraw) -> dict[str, Any]:
        player = self.player(a.player)
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has already withdrawn", "already_withdrawn",
                                 {"player": player.name})
        player.withdrawn = True
        self.withdrawn.add(player.name)
        return {"player": player.id}

    def _delete_entry(self, a: act.DeleteEntry) -> dict[str, Any]:
        """An entry made by mistake leaves the event, while it is not drawn:
        off the seeds and the separation groups, its name and register link
        free again.  Its id stays taken (ids are the order of registration),
        so the log's later actions keep naming the players they named."""
        player = self.player(a.player)
        if self.main is not None or self.weekly is not None:
            raise IllegalContest(f"the draw is made: {player.name} can only withdraw now",
                                 "already_drawn_delete", {"player": player.name})
        if player.id in self.committee:
            raise IllegalContest(f"{player.name} sits on the ruling committee: name another "
                                 "committee first", "on_committee", {"player": player.name})
        player.deleted, player.checked_in = True, False
        del self.names[player.name]
        self.seeds = [pid for pid in self.seeds if pid != player.id]
        groups = [[pid for pid in g if pid != player.id] for g in self.groups]
        self.groups = [g for g in groups if len(g) >= 2]
        return {"player": player.id, "name": player.name}

    def _draw(self, a: act.Draw) -> dict[str, Any]:
        seed = _or(a.seed, self.seed)
        if self.main is not None or self.weekly is not None:
            raise IllegalContest("the draw is already made", "already_drawn")
        names = [p.name for p in self.players if p.checked_in and not p.withdrawn]
        if not names:
            raise IllegalContest("nobody is checked in", "nobody_checked_in")
        if self.format in WEEKLY:
            return self._draw_weekly(names, seed)
        rng = random.Random(seed)
        in_draw = set(names)
        seeds = [self.players[pid - 1].name for pid in self.seeds
                 if self.players[pid - 1].name in in_draw]
        groups = {self.players[pid - 1].name: g
                  for g, members in enumerate(self.groups) for pid in members}
        if seeds or groups:
            main = MainDraw(names, late_slots=self.late_slots, rng=rng, seeds=seeds,
                            groups=groups)
        else:  # the draw it always was for the seed
            main = MainDraw(names, late_slots=self.late_slots, rng=rng)
        if self.format == "double":
            self.double = DoubleDesk.over(main)
        self.rng, self.main, self.seed = rng, main, seed
        done: dict[str, Any] = {"seed": self.seed, "size": main.size}
        if groups:
            done["same_group"] = [list(x) for x in main.unavoidable]
        return done

    def _draw_weekly(self, names: list[str], seed: int) -> dict[str, Any]:
        """A weekly format's field: no round is paired yet (``pair_round``)."""
        fmt = self.format
        if len(names) < 2:
            raise IllegalContest(f"a {fmt} needs two players or more checked in",
                                 "too_few_players", {"n": 2})
        if self.late_slots:
            raise InvalidContest(f"late_slots: a {fmt} takes no late-arrival slots (0)")
        if fmt == "swiss" and self.swiss_rounds is None:
            raise InvalidContest("swiss_rounds: a Swiss needs its number of rounds")
        if fmt == "moreswiss" and self.losses is None:
            raise InvalidContest("losses: a More Swiss needs the loss that puts a player out")
        self.weekly = Weekly(format=fmt, players=names, seed=seed,
                             total=self.swiss_rounds if fmt == "swiss" else None,
                             losses=self.losses if fmt == "moreswiss" else None)
        self.seed = seed
        return {"seed": seed, "size": len(names), "format": fmt}

    def next_pairing(self, seed: int) -> dict[str, Any]:
        """The ``pair_round`` action of the next round of a weekly format,
        drawn now from ``random.Random(seed)`` and the results known."""
        if self.weekly is None:
            raise IllegalContest("this event has no rounds to pair: the draw is not made "
                                 "or it is a knockout", "not_weekly")
        pairs = self.weekly.next_pairing(seed, self.withdrawn)
        return {"do": "pair_round", "round": len(self.weekly.bracket.rounds), "seed": seed,
                "pairs": [[x, y] for x, y in pairs if y is not None],
                "bye": next((x for x, y in pairs if y is None), None)}

    def _pair_round(self, a: act.PairRound) -> dict[str, Any]:
        if self.weekly is None:
            raise IllegalContest("this event has no rounds to pair: the draw is not made "
                                 "or it is a knockout", "not_weekly")
        return self.weekly.pair(a.round, a.seed, a.pairs, a.bye, self.withdrawn)

    def _arrive(self, a: act.Arrive) -> dict[str, Any]:
        player = self.player(a.player)
        stopped = self._late_arrive(a, player) if self.lates else None
        if stopped is not None:
            return stopped
        if self.weekly is not None:
            raise IllegalContest(f"a {self.weekly.format} takes no late arrivals",
                                 "no_late_slots")
        if self.main is None:
            raise IllegalContest("the draw is not made yet: check the player in instead",
                                 "not_drawn_check_in")
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                                 {"player": player.name})
        position = self.main.arrive(player.name)
        player.checked_in = True
        return {"player": player.id, "position": position}

    def _close_late(self, a: act.CloseLate) -> dict[str, Any]:
        if self.weekly is not None:
            raise IllegalContest(f"a {self.weekly.format} takes no late arrivals",
                                 "no_late_slots")
        if self.main is None:
            raise IllegalContest("the draw is not made yet", "not_drawn")
        if not self.main.late_open:
            raise IllegalContest("late arrivals are already closed", "late_closed")
        self.main.close_late()
        return {}

    def _start_round(self, a: act.StartRound) -> dict[str, Any]:
        event = _or(a.event, "main")
        bracket = self.bracket(event)
        if not bracket.rounds:
            raise IllegalContest("this bracket has no matches", "no_matches")
        r = _int(a.round, "round", 0, len(bracket.rounds) - 1)
        ready = self.ready(event, r)
        if not ready:
            raise IllegalContest("no match of this round is ready to start", "round_not_ready",
                                 {"round": r + 1})
        seat = ready
        given = _or(a.matches, None)
        if given is not None:  # a flight's share of the room's tables: the rest wait
            if len(given) > len(ready):
                raise InvalidContest(f"matches: must list at most {len(ready)} matches of "
                                     "this round ready to start")
            for k, i in enumerate(given):
                _int(i, f"matches[{k}]", 0, len(bracket.rounds[r]) - 1)
                if i not in ready:
                    raise IllegalContest(f"matches[{k}]: match {i + 1} is not ready to start",
                                         "match_not_ready", {"match": i + 1})
            if len(set(given)) != len(given):
                raise InvalidContest("matches: the same match twice")
            seat = sorted(given)
        live = self.events.busy_tables(self)  # a Swing or couples table is busy too
        numbers = _or(a.tables, None)
        if numbers is None:
            numbers, n = [], 1
            while len(numbers) < len(seat):
                if n not in live:
                    numbers.append(n)
                n += 1
        else:
            if len(numbers) != len(seat):
                raise InvalidContest(f"tables: must list {len(seat)} table numbers, one per "
                                     "match ready to start")
            for k, n in enumerate(numbers):
                if n in live:
                    raise IllegalContest(f"tables[{k}]: table {n} still has a match on",
                                      "table_busy", {"table": n})
            if len(set(numbers)) != len(numbers):
                raise InvalidContest("tables: the same table twice")
        assigned = []
        for i, n in zip(seat, numbers, strict=True):
            self.tables[(str(event), r, i)] = n
            self.by_number.setdefault(n, []).append((str(event), r, i))
            assigned.append({"event": event, "round": r, "match": i, "table": n})
        left = [(str(event), r, i) for i in ready if i not in seat]
        self.waiting = [k for k in self.waiting_matches() if k not in left] + left
        return {"assigned": assigned,
                "waiting": [{"event": event, "round": r, "match": i} for _, _, i in left]}

    def _flight(self, a: act.Flight) -> dict[str, Any]:
        """The event's room (``room``: null leaves it), its precedence and
        the room's table count.  The room changes only while none of the
        event's matches is at a table or waiting for one."""
        room = _or(a.room, None)
        if room is None:
            flight = None
            for k in ("precedence", "tables"):
                if not isinstance(getattr(a, k), UnsetType):
                    raise InvalidContest(f"{k}: an event outside a room has no {k}")
        else:
            flight = Flight(room=" ".join(room.split()), precedence=_or(a.precedence, 1),
                            tables=_or(a.tables, 0))
        same_room = (flight is not None and self.flight is not None
                     and room_key(flight.room) == room_key(self.flight.room))
        if not same_room and (self.events.busy_tables(self) or self.waiting_matches()):
            raise IllegalContest("room: this event has matches at tables or waiting for "
                                 "one; its room can change once they are over", "flight_busy")
        self.flight = flight
        return {"flight": None if flight is None else flight.to_dict()}

    def _bind_table(self, a: act.BindTable) -> dict[str, Any]:
        n, tid = a.table, a.table_id
        if n in self.table_ids:
            raise IllegalContest(f"table {n} already has its clock table", "table_bound",
                                 {"table": n})
        self.table_ids[n] = tid
        return {}

    def _result(self, a: act.Result) -> dict[str, Any]:
        key, m = self._at(a)
        winner = a.winner
        source = _or(a.source, "hand")
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner: correct it instead",
                                 "already_decided")
        self.bracket(key[0]).set_winner(key[1], key[2], winner)
        self.results[key] = ResultDetail(source=source, score=_pair(_or(a.score, None)))
        return {"winner": winner}

    def _correct(self, a: act.Correct) -> dict[str, Any]:
        key, m = self._at(a)
        winner = a.winner
        if m.winner is None:
            raise IllegalContest("this match has no result to correct", "no_result")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        reason = _or(a.reason, None)
        if reason is not None:
            _text(reason, "reason", MAX_REASON)
        event, r, i = key
        bracket = self.bracket(event)
        nxt = bracket.rounds[r + 1][i // 2] if r + 1 < len(bracket.rounds) else None
        if self.weekly is not None and event == "main":
            nxt = None  # nothing moves on: the later rounds' pairings must hold
            self._weekly_guard(key, winner)
        if event in DOUBLE_EVENTS:
            nxt = None  # the losers' bracket and the final move on by ``_double``
        if nxt is not None and (nxt.winner is not None or (event, r + 1, i // 2) in self.tables):
            raise IllegalContest("the next match of its winner has started or is "
                                 "decided: correct that one first", "next_match_started",
                                 {"event": event, "round": r + 2})
        if self.double is not None:
            self.double.check([(key, winner)], self._held())
        score = None if isinstance(a.score, UnsetType) else list(a.score)
        before = sorted(entrants(self.main) or []) if event == "main" and \
            self.main is not None else None
        cons_before = sorted(first_losers(self.consolation.bracket) or []) \
            if event == "consolation" and self.consolation is not None else None
        old = m.winner
        was_next = None if nxt is None else (nxt.a, nxt.b)
        m.winner = winner
        if nxt is not None:
            if i % 2 == 0:
                nxt.a = winner
            else:
                nxt.b = winner
        if (event == "main" and self.consolation is not None and self.main is not None
                and sorted(entrants(self.main) or []) != before):
            m.winner = old  # refused: the state is left as it was
            if nxt is not None and was_next is not None:
                nxt.a, nxt.b = was_next
            raise IllegalContest("the consolation is drawn: this correction would change "
                                     "its entrants", "consolation_drawn")
        if (event == "consolation" and self.last_chance is not None
                and self.consolation is not None
                and sorted(first_losers(self.consolation.bracket) or []) != cons_before):
            m.winner = old  # refused: the state is left as it was
            if nxt is not None and was_next is not None:
                nxt.a, nxt.b = was_next
            raise IllegalContest("the Last Chance is drawn: this correction would change "
                                 "its entrants", "last_chance_drawn")
        held = self.results.get(key, ResultDetail(source="hand"))
        self.corrected_from.setdefault(key, []).append(PriorResult(winner=old, detail=held))
        self.results[key] = replace(held, corrected=Correction(was=old, reason=reason),
                                    score=held.score if score is None else _pair(score))
        return {"winner": winner, "was": old}

    # ------------------------------------------------ the director's undo

    def _weekly_guard(self, key: MatchKey, winner: str | None) -> None:
        """Refused unless match ``key`` of a weekly format can have ``winner``
        (None: undecided) with every later round's pairing as it is."""
        assert self.weekly is not None
        m = self.weekly.bracket.rounds[key[1]][key[2]]
        was = m.winner

        def change() -> Callable[[], None]:
            m.winner = winner

            def undo() -> None:
                m.winner = was
            return undo
        self.weekly.check_change(key[1], change, self.withdrawn)

    def _held(self) -> set[MatchKey]:
        """The matches at a table or decided (a double elimination's
        correction must leave their players as they are)."""
        return set(self.tables) | set(self.results)

    def _next_free(self, key: MatchKey) -> Match | None:
        """The next match of match ``key``'s winner (None: a final); refused
        (changing nothing) when it has started or is decided."""
        event, r, i = key
        if (self.weekly is not None and event == "main") or event in DOUBLE_EVENTS:
            return None
        bracket = self.bracket(event)
        nxt = bracket.rounds[r + 1][i // 2] if r + 1 < len(bracket.rounds) else None
        if nxt is not None and (nxt.winner is not None or (event, r + 1, i // 2) in self.tables):
            raise IllegalContest(
                "the next match of its winner has started or is decided: undo that one first",
                "next_match_started", {"event": event, "round": r + 2})
        return nxt

    def _reseat(self, changes: list[tuple[MatchKey, str | None]]) -> None:
        """Give each match its new winner (None: undecided again), and its
        next match the winner's slot; all or none: refused (the state left
        as it was) when the next match has started or the consolation is
        drawn with entrants this would change."""
        steps = []
        for key, winner in changes:
            if self.weekly is not None and key[0] == "main":
                self._weekly_guard(key, winner)
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            steps.append((key, m, self._next_free(key), winner))
        if self.double is not None:
            self.double.check(changes, self._held())
        main_changed = any(key[0] == "main" for key, _ in changes)
        before = None
        if main_changed and self.consolation is not None and self.main is not None:
            before = sorted(entrants(self.main) or [])
        saved = [(m.winner, None if nxt is None else (nxt.a, nxt.b)) for _, m, nxt, _ in steps]
        for key, m, nxt, winner in steps:
            m.winner = winner
            if nxt is not None:
                if key[2] % 2 == 0:
                    nxt.a = winner
                else:
                    nxt.b = winner
        if before is not None and self.main is not None and \
                sorted(entrants(self.main) or []) != before:
            for (_, m, nxt, _), (was, was_next) in zip(steps, saved, strict=True):
                m.winner = was  # refused: the state is left as it was
                if nxt is not None and was_next is not None:
                    nxt.a, nxt.b = was_next
            raise IllegalContest("the consolation is drawn with the entrants this result "
                                 "gave: it can no longer change", "consolation_drawn")

    def _reinstate(self, a: act.Reinstate) -> dict[str, Any]:
        """A withdrawn player comes back: the matches their withdrawal
        decided become undecided again, while nothing later depends on them."""
        player = self.player(a.player)
        if not player.withdrawn:
            raise IllegalContest(f"{player.name} has not withdrawn", "not_withdrawn",
                                 {"player": player.name})
        undo: list[MatchKey] = []
        if self.main is not None or self.weekly is not None:
            for event, bracket in (("main", self.bracket("main")),
                                   ("consolation", self.consolation.bracket
                                    if self.consolation else None),
                                   *self._double_brackets()):
                if bracket is None:
                    continue
                for r, matches in enumerate(bracket.rounds):
                    for i, m in enumerate(matches):
                        detail = self.results.get((event, r, i))
                        if (detail is not None and detail.source == "withdrawn"
                                and player.name in (m.a, m.b) and m.winner != player.name):
                            undo.append((event, r, i))
        self._reseat([(key, None) for key in undo])
        for key in undo:
            del self.results[key]
        player.withdrawn = False
        self.withdrawn.discard(player.name)
        return {"player": player.id,
                "undecided": [{"event": k[0], "round": k[1], "match": k[2]} for k in undo]}

    def _revert(self, a: act.Revert) -> dict[str, Any]:
        """Undo a match's last correction (its result before it comes back),
        else its result entered by hand (the match is undecided again)."""
        key, m = self._at(a)
        result = self.results.get(key)
        if m.winner is None or result is None:
            raise IllegalContest("this match has no result to undo", "no_result")
        stack = self.corrected_from.get(key)
        seen = _or(a.corrections, None)
        if _or(a.winner, m.winner) != m.winner or (seen is not None and seen != len(stack or ())):
            # another dashboard changed it first: undo only what the director saw
            raise IllegalContest(f"this match's result has changed meanwhile ({m.winner} won "
                                 "now): look at it again", "result_changed",
                                 {"name": m.winner})
        if stack:
            back = stack[-1]
            if back.winner != m.winner:
                self._reseat([(key, back.winner)])
            stack.pop()
            if not stack:
                del self.corrected_from[key]
            self.results[key] = back.detail
            return {"winner": m.winner, "reverted": "correction"}
        if result.source != "hand":
            raise IllegalContest(f"a result from the {result.source} cannot be undone: "
                                 "correct it instead", "not_reversible",
                                 {"source": result.source})
        self._reseat([(key, None)])
        del self.results[key]
        return {"winner": None, "reverted": "result"}

    # ------------------------------------------------ late arrivals at a match

    def _side_of(self, m: Match, player: Player) -> str:
        if player.name == m.a:
            return "A"
        if player.name == m.b:
            return "B"
        raise InvalidContest(f"player: {player.name} does not play this match")

    def late_arrival(self, key: MatchKey) -> LateArrival:
        """The pure count of a match's late arrival (points from ``from_ms``)."""
        late = self.lates[key]
        m = self.bracket(key[0]).rounds[key[1]][key[2]]
        absent = tuple(sorted("A" if n == m.a else "B" for n in late.absent))
        return LateArrival(length=self.settings_for(key[1]).length, absent=absent,
                           from_ms=late.from_ms)

    def late_state(self, key: MatchKey, now_ms: int) -> dict[str, Any]:
        """The count at ``now_ms``: points, score, over (the late side is out);
        it stops at the (first) arrival of a late player."""
        late = self.lates[key]
        count = self.late_arrival(key)
        arrived = late.arrived_ms
        at = max(now_ms, late.from_ms)
        if arrived:
            count.arrive(max(min(arrived.values()), 0))
        state = count.state(max(at, count.now))
        out_at = None
        limit = count._limit()
        if limit is not None and not state.over and not state.arrived:
            out_at = late.from_ms + limit[0] * 300_000
        next_at = None
        if not state.over and not state.arrived and count.late_side is not None:
            next_at = late.from_ms + (state.points + 1) * 300_000
        return {"at_ms": now_ms, "points": state.points, "score": list(state.score),
                "over": state.over,
                "disqualified": state.disqualified, "arrived": state.arrived,
                "next_point_ms": next_at, "out_ms": out_at}

    def _late_dict(self, key: MatchKey, now_ms: int | None) -> dict[str, Any]:
        late = self.lates[key]
        event, r, i = key
        m = self.bracket(event).rounds[r][i]
        out = {"event": event, "round": r, "match": i, "table": self.tables.get(key),
               "a": m.a, "b": m.b, "absent": list(late.absent), "from_ms": late.from_ms,
               "at_ms": late.at_ms, "clock": late.clock,
               "arrived_ms": dict(late.arrived_ms), "winner": m.winner}
        if now_ms is not None and not late.clock:
            out["count"] = self.late_state(key, now_ms)
        return out

    def running_lates(self) -> list[MatchKey]:
        """Matches whose late count the server keeps (no clock, nobody arrived,
        not decided)."""
        out = []
        for key, late in self.lates.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if not late.clock and not late.arrived_ms and m.winner is None:
                out.append(key)
        return out

    def _absent(self, a: act.Absent) -> dict[str, Any]:
        key, m = self._at(a)
        player = self.player(a.player)
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        side = self._side_of(m, player)
        if m.winner is not None:
            raise IllegalContest("this match is decided", "already_decided")
        from_ms = _int(_or(a.from_ms, None), "from_ms", 0, 2**53)
        at_ms = _or(a.at_ms, from_ms)
        clock = _or(a.clock, False)
        late = self.lates.get(key)
        if late is None:
            late = self.lates[key] = LateCount(absent=[], from_ms=from_ms, at_ms=at_ms,
                                               clock=clock)
        elif late.arrived_ms:
            raise IllegalContest("a late player of this match has arrived: the count is over",
                                 "late_arrived")
        if player.name in late.absent:
            raise IllegalContest(f"{player.name} is already marked absent at this match",
                                 "already_absent", {"player": player.name})
        late.absent.append(player.name)
        late.from_ms = from_ms
        return {"player": player.id, "side": side, "from_ms": from_ms}

    def _late_arrive(self, a: act.Arrive, player: Player) -> dict[str, Any] | None:
        """``arrive`` of a player marked absent at a match: the count stops."""
        for key, late in self.lates.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if player.name in late.absent and m.winner is None \
                    and player.name not in late.arrived_ms:
                at = _int(_or(a.at_ms, None), "at_ms", 0, 2**53)
                late.arrived_ms[player.name] = at
                count = None if late.clock else self.late_state(key, at)
                return {"player": player.id, "match": list(key), "late": count}
        return None

    def _disqualify(self, a: act.Disqualify) -> dict[str, Any]:
        key, m = self._at(a)
        player = self.player(a.player)
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        self._side_of(m, player)
        if m.winner is not None:
            raise IllegalContest("this match is decided", "already_decided")
        reason = _text(_or(a.reason, "late"), "reason", MAX_REASON)
        winner = m.b if player.name == m.a else m.a
        assert winner is not None
        self.bracket(key[0]).set_winner(key[1], key[2], winner)
        self.results[key] = ResultDetail(source="disqualified", player=player.name,
                                         reason=reason, score=_pair(_or(a.score, None)))
        return {"winner": winner, "disqualified": player.name}

    # ------------------------------------------------ score sheets

    def _sheet_dict(self, key: MatchKey) -> dict[str, Any]:
        event, r, i = key
        m = self.bracket(event).rounds[r][i]
        sheets = self.sheets[key]
        a, b = sheets.get("A"), sheets.get("B")
        settled = settle(a, b, self._start_score(key))
        result = self.results.get(key)
        return {"event": event, "round": r, "match": i, "table": self.tables.get(key),
                "a": m.a, "b": m.b, "sheets": {k: v.to_dict() for k, v in sheets.items()},
                "winner": m.winner,
                "mismatch": m.winner is None and settled.mismatch,
                # the trailing player's sheet made the result: the director is told
                "flagged": result is not None and result.sheets == "trailing",
                "outcome": settled.outcome, "trailing": settled.trailing,
                "game": settled.game, "why": settled.why,
                # one player's sheet in, the other's missing: the director
                # may confirm the kept one (``presume``)
                "presumption": self._presumption(key) if m.winner is None else None}

    def _presumption(self, key: MatchKey) -> dict[str, Any] | None:
        """The sheet a presumption would keep: exactly one player's sheet is
        in (``by``), the other's is missing; None otherwise."""
        sheets = self.sheets.get(key, {})
        kept = [side for side in ("A", "B") if side in sheets]
        if len(kept) != 1:
            return None
        sheet = sheets[kept[0]]
        return {"by": kept[0], "missing": "B" if kept[0] == "A" else "A",
                "winner": sheet.winner,
                "score": None if sheet.score is None else list(sheet.score), "via": sheet.via}

    def _presume(self, a: act.Presume) -> dict[str, Any]:
        """The one sheet handed in makes the result, the director confirming.

        **Reading** (rule book: "Failure to keep score creates presumption in
        favor of an opponent in case of dispute"): a player whose sheet is
        missing when the director asks for the result did not keep score;
        the kept sheet stands, as the opponent's in a dispute, once the
        director confirms it (never by itself: the missing sheet may still
        come).  ``by`` names the sheet the director saw kept; a result held
        since, or a second sheet come in, refuses it."""
        key, m = self._at(a)
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner: correct it instead",
                                 "already_decided")
        presumed = self._presumption(key)
        if presumed is None or presumed["by"] != a.by:
            sheets = self.sheets.get(key, {})
            if a.by not in sheets:
                raise IllegalContest(f"no score sheet of {a.by} is in for this match",
                                     "no_sheet", {"side": a.by})
            raise IllegalContest("both players' score sheets are in: they decide, not a "
                                 "presumption", "both_sheets")
        sheet = self.sheets[key][a.by]
        self.bracket(key[0]).set_winner(key[1], key[2], sheet.winner)
        self.results[key] = ResultDetail(source="hand", sheets="presumed", score=sheet.score)
        return {"winner": sheet.winner, "by": a.by, "missing": presumed["missing"]}

    def _start_score(self, key: MatchKey) -> tuple[int, int]:
        """The score a match began at: 0-0, or the points a late arrival cost
        (the count the server kept, stopped at the arrival)."""
        late = self.lates.get(key)
        if late is None or late.clock or not late.arrived_ms:
            return 0, 0
        score = self.late_state(key, min(late.arrived_ms.values()))["score"]
        return score[0], score[1]

    def _sheet(self, a: act.Sheet) -> dict[str, Any]:
        """A score sheet: a player's (``by`` A or B) or the director's (final).

        Two players' sheets decide by ``settle`` (``_sheets``): the same and
        both the players' own (``via`` ``player`` or ``director``): the result,
        ``agreed``; different, with the running score: the trailing player's
        sheet makes the result, flagged (``trailing``); otherwise they wait for
        the director.  An action without ``via`` (a log written before it
        existed) counts as the player's own, as it did then."""
        key, m = self._at(a)
        by = a.by
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        via = _or(a.via, "director")
        if by == "director" and via != "director":
            raise InvalidContest("via: the director's sheet is the director's")
        start = self._start_score(key)
        sheet = parse_sheet(a.winner, _or(a.score, None), _or(a.games, None), (m.a, m.b),
                            self.settings_for(key[1]).length, via, start)
        if m.winner is not None:
            raise IllegalContest("this match already has its winner: correct it instead",
                                 "already_decided")
        sheets = self.sheets.setdefault(key, {})
        sheets[by] = sheet
        if by == "director":
            settled = Settlement(outcome="director", winner=sheet.winner, score=sheet.score)
        else:
            settled = settle(sheets.get("A"), sheets.get("B"), start)
        final = by == "director" or settled.outcome in ("agreed", "trailing")
        if final:
            assert settled.winner is not None
            self.bracket(key[0]).set_winner(key[1], key[2], settled.winner)
            self.results[key] = ResultDetail(
                source="hand", sheets="director" if by == "director" else settled.outcome,
                score=settled.score, trailing=settled.trailing, game=settled.game)
        return {"final": final, "mismatch": not final and settled.mismatch,
                "winner": settled.winner if final else None,
                "outcome": "director" if by == "director" else settled.outcome,
                "trailing": settled.trailing, "why": None if final else settled.why}

    # ------------------------------------------------ breaks without a clock

    def _breaks_dict(self, key: MatchKey, now_ms: int | None) -> dict[str, Any]:
        """A match's breaks (with their time at ``now_ms``, when given), its
        length and each player's allowance."""
        event, r, i = key
        m = self.bracket(event).rounds[r][i]
        length = self.settings_for(r).length
        taken = self.breaks.get(key, [])
        return {"event": event, "round": r, "match": i, "table": self.tables.get(key),
                "a": m.a, "b": m.b, "winner": m.winner, "length": length,
                "allowance": allowance(length),
                "used": {"A": sum(1 for b in taken if b.side == "A"),
                         "B": sum(1 for b in taken if b.side == "B")},
                "breaks": [b.to_dict() if now_ms is None else b.view(now_ms) for b in taken]}

    def break_views(self, now_ms: int) -> list[dict[str, Any]]:
        """Every match being played at a table (both players known, not
        decided) with its breaks timed at ``now_ms``: the desk's "Pausa"
        and its alerts (a break past its 10 minutes with no penalty decided)."""
        out = []
        for key in sorted(self.tables):
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if m.a is not None and m.b is not None and m.winner is None:
                out.append(self._breaks_dict(key, now_ms))
        return out

    def _break_match(self, a: act.BreakStart | act.BreakEnd | act.BreakPenalty
                     ) -> tuple[MatchKey, Match, list[BreakRecord]]:
        """The match a break action names: being played (at a table, both
        players known, not decided), and its breaks so far."""
        key, m = self._at(a)
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        if m.winner is not None:
            raise IllegalContest("this match is decided", "already_decided")
        if key not in self.tables:
            raise IllegalContest("this match is not at a table yet", "not_at_table")
        taken = self.breaks.get(key, [])
        last = max([x for b in taken for x in (b.start_ms, b.end_ms, b.penalty_ms)
                    if x is not None], default=0)
        if a.at_ms < last:
            raise InvalidContest(f"at_ms: time cannot go backwards at this match "
                                 f"({a.at_ms} < {last})")
        return key, m, taken

    def _break_start(self, a: act.BreakStart) -> dict[str, Any]:
        """A player's break starts: one at a time at a match, within the
        player's allowance (two in a match of 13 points or more, else one)."""
        key, m, taken = self._break_match(a)
        player = self.player(a.player)
        side = self._side_of(m, player)
        running = next((b for b in taken if b.end_ms is None), None)
        if running is not None:
            raise IllegalContest(f"{running.player}'s break is still running at this match",
                                 "break_running", {"player": running.player})
        length = self.settings_for(key[1]).length
        allowed = allowance(length)
        used = sum(1 for b in taken if b.side == side)
        if used >= allowed:
            raise IllegalContest(f"{player.name} has taken the {allowed} break(s) a match of "
                                 f"{length} points allows", "no_break_left",
                                 {"player": player.name, "n": allowed, "length": length})
        record = BreakRecord(player=player.name, side=side, number=used + 1,
                             start_ms=a.at_ms)
        self.breaks.setdefault(key, []).append(record)
        return {"player": player.id, "side": side, "number": record.number,
                "allowance": allowed, "limit_ms": record.limit_ms}

    def _break_end(self, a: act.BreakEnd) -> dict[str, Any]:
        """The break running at a match ends: how long it ran, how far over
        its 10 minutes, the penalty offered (the director decides)."""
        _, _, taken = self._break_match(a)
        running = next((b for b in taken if b.end_ms is None), None)
        if running is None:
            raise IllegalContest("no break is running at this match", "no_break")
        running.end_ms = a.at_ms
        view = running.view(a.at_ms)
        return {"player": running.player, "number": running.number,
                "over_ms": view["over_ms"], "suggested": view["suggested"]}

    def _break_penalty(self, a: act.BreakPenalty) -> dict[str, Any]:
        """The director's penalty for a break past its 10 minutes: ``points``
        to the opponent (0: none).  Given the score before it, points that
        bring the opponent to the match length end the match, the opponent
        winning, as a late arrival's points do (``disqualified``, reason
        ``break``)."""
        key, m, taken = self._break_match(a)
        player = self.player(a.player)
        side = self._side_of(m, player)
        record = next((b for b in taken if b.side == side and b.number == a.number), None)
        if record is None:
            raise InvalidContest(f"number: {player.name} has taken no break {a.number} "
                                 "at this match")
        if record.penalty is not None:
            raise IllegalContest(f"the penalty for {player.name}'s break {a.number} is "
                                 "already decided", "penalty_decided",
                                 {"player": player.name})
        if record.over_ms(a.at_ms) <= 0:
            raise IllegalContest(f"{player.name}'s break {a.number} has not run over its "
                                 "10 minutes", "break_in_time", {"player": player.name})
        length = self.settings_for(key[1]).length
        if a.points > length:
            raise InvalidContest(f"points: at most the match length, {length}")
        score = _or(a.score, None)
        if score is not None and max(score) >= length:
            raise InvalidContest(f"score: {list(score)} is not a score of a match of "
                                 f"{length} still being played")
        record.penalty, record.penalty_ms = a.points, a.at_ms
        done: dict[str, Any] = {"player": player.id, "number": a.number, "points": a.points}
        if score is None or a.points == 0:
            return done
        opponent = 1 if side == "A" else 0
        after = [score[0], score[1]]
        after[opponent] = min(length, after[opponent] + a.points)
        done["score"] = after
        if after[opponent] >= length:  # the penalty ends the match
            winner = m.b if side == "A" else m.a
            assert winner is not None
            if record.end_ms is None:
                record.end_ms = a.at_ms
            self.bracket(key[0]).set_winner(key[1], key[2], winner)
            self.results[key] = ResultDetail(source="disqualified", player=player.name,
                                             reason="break", score=(after[0], after[1]))
            done["winner"] = winner
        return done

    # ------------------------------------------------ the ruling committee

    def _committee(self, a: act.Committee) -> dict[str, Any]:
        ids = [self.player(x).id for x in a.members]
        if len(set(ids)) != len(ids):
            raise InvalidContest("members: the same player twice")
        for pid in ids:
            if self.players[pid - 1].withdrawn:
                raise IllegalContest(f"{self.players[pid - 1].name} has withdrawn", "withdrawn",
                                     {"player": self.players[pid - 1].name})
        self.committee = ids
        return {"members": ids}

    def _appeal(self, a: act.Appeal) -> dict[str, Any]:
        """An appeal of a ruling at a match; committee members who play it are
        replaced by ``substitutes`` (in order)."""
        if not self.committee:
            raise IllegalContest("there is no ruling committee yet", "no_committee")
        key, m = self._at(a)
        by = self.player(a.by)
        if by.name not in (m.a, m.b):
            raise InvalidContest(f"by: {by.name} does not play this match")
        ruling = _text(a.ruling, "ruling", MAX_RULING)
        subs = _or(a.substitutes, [])
        sub_ids = [self.player(x).id for x in subs]
        playing = {m.a, m.b}
        panel: list[int] = []
        replaced: dict[str, int] = {}
        pool = list(sub_ids)
        for pid in self.committee:
            if self.players[pid - 1].name not in playing:
                panel.append(pid)
                continue
            if pool and (self.players[pool[0] - 1].name in playing
                            or pool[0] in self.committee or pool[0] in panel):
                raise InvalidContest(f"substitutes: {self.players[pool[0] - 1].name} "
                                     "plays this match or sits on the committee")
            if not pool:
                raise IllegalContest(f"{self.players[pid - 1].name} sits on the committee "
                                     "and plays this match: name a substitute",
                                     "on_committee", {"player": self.players[pid - 1].name})
            sub = pool.pop(0)
            replaced[str(pid)] = sub
            panel.append(sub)
        if pool:
            raise InvalidContest("substitutes: more than the members to replace")
        number = len(self.appeals) + 1
        self.appeals.append(AppealRecord(appeal=number, event=key[0], round=key[1],
                                         match=key[2], by=by.id, ruling=ruling, panel=panel,
                                         replaced=replaced, at_ms=_or(a.at_ms, None)))
        return {"appeal": number, "panel": panel}

    def _decide(self, a: act.Decide) -> dict[str, Any]:
        """The hearing and its vote: the director and at least two panel
        members sit and vote, the majority of those votes decides, and a tie
        upholds the ruling.

        **Reading** (rule book: "To resolve an appeal at least 2 members of
        the committee shall be convene with the tournament director ... A
        ruling will be taken by majority decision"): the hearing is lawful
        with any two or more of the panel (the committee, each member who
        plays the match replaced) and the director, who sits and votes
        (``votes["director"]``): the smallest hearing, two members and the
        director, is an odd three.  A panel member who does not sit casts no
        vote and counts for nothing; the majority is of the votes cast.  With
        an even count a tie leaves the ruling standing (an appeal needs a
        majority to overturn)."""
        number = a.appeal
        if number > len(self.appeals):
            raise InvalidContest(f"appeal: no appeal {number}")
        appeal = self.appeals[number - 1]
        if appeal.decision is not None:
            raise IllegalContest(f"appeal {number} is already decided", "appeal_decided",
                                 {"appeal": number})
        votes = a.votes
        panel = {str(p) for p in appeal.panel}
        strangers = sorted(set(votes) - panel - {DIRECTOR_VOTE})
        if strangers:
            raise InvalidContest(f"votes: {', '.join(strangers)} does not sit on this "
                                 f"appeal's panel, {sorted(panel)}")
        if DIRECTOR_VOTE not in votes:
            raise InvalidContest("votes: the director sits with the panel and votes "
                                 "('director')")
        if len(set(votes) & panel) < 2:
            raise InvalidContest(f"votes: at least 2 members of the panel, {sorted(panel)}, "
                                 "hear an appeal with the director")
        hearing = _or(a.hearing, None)
        if hearing is not None:
            hearing = _text(hearing, "hearing", act.MAX_HEARING)
        over = sum(1 for v in votes.values() if v == "overturn")
        decision = "overturned" if over * 2 > len(votes) else "upheld"
        appeal.decision, appeal.votes, appeal.hearing = decision, dict(votes), hearing
        return {"appeal": number, "decision": decision}

    # ------------------------------------------------ a table's result that clashes

    @staticmethod
    def _clash_result(value: act.ClockResult | act.HeldResult, where: str,
                      players: list[str]) -> TableResult:
        if value.winner not in players:
            raise InvalidContest(f"{where}.winner: must be {players[0]} or {players[1]}")
        return TableResult(winner=value.winner, score=_pair(_or(value.score, None)),
                           source=value.source if isinstance(value, act.HeldResult) else None)

    def _clash(self, a: act.Clash) -> dict[str, Any]:
        """A table's final result (``clock``) disagrees with the result the
        tournament already holds for its match (``held``): the server records
        it for the director, who corrects the match or dismisses the alert.
        Nothing else changes: the held result stands until corrected."""
        label = _text(a.match, "match", MAX_MATCH_LABEL)
        names = [_text(p, f"players[{k}]", MAX_PLAYER_NAME) for k, p in enumerate(a.players)]
        held = self._clash_result(a.held, "held", names)
        clock = self._clash_result(a.clock, "clock", names)
        if len(self.clashes) >= MAX_CLASHES:
            raise IllegalContest(f"at most {MAX_CLASHES} clashes", "too_many_clashes",
                                 {"n": MAX_CLASHES})
        number = len(self.clashes) + 1
        self.clashes.append(ClashRecord(clash=number, table=a.table, table_id=a.table_id,
                                        match=label, players=names, held=held, clock=clock,
                                        at_ms=a.at_ms))
        return {"clash": number}

    def _dismiss_clash(self, a: act.DismissClash) -> dict[str, Any]:
        """The director has seen a clash (and corrected the match, or kept
        the result held): it leaves the alerts."""
        number = a.clash
        if number > len(self.clashes):
            raise InvalidContest(f"clash: no clash {number}")
        reason = _or(a.reason, None)
        if reason is not None:
            reason = _text(reason, "reason", MAX_REASON)
        clash = self.clashes[number - 1]
        if clash.dismissed:
            raise IllegalContest(f"clash {number} is already dismissed", "clash_dismissed",
                                 {"clash": number})
        clash.dismissed, clash.reason = True, reason
        return {"clash": number}

    # ------------------------------------------------ the prize list

    def _prizes(self, a: act.Prizes) -> dict[str, Any]:
        """An event's prize list (``_standings.set_prizes``)."""
        return set_prizes(self.prizes, a.event, a.prizes)

    def _side_pool(self, a: act.SidePool) -> dict[str, Any]:
        """A side pool of an event: entry, members, split (``_side.set_pool``)."""
        return set_pool(self.side_pools, a.pool, a.players, _or(a.event, None),
                        _or(a.entry, None), _or(a.split, None), STANDING_EVENTS,
                        [p.name for p in self.players])

    # ------------------------------------------------ the public page

    def _set_public(self, a: act.SetPublic) -> dict[str, Any]:
        """The public page up or down: it changes nothing of play, so it is
        taken at any time (before the draw, during, after the last result)."""
        self.public = a.public
        return {"public": a.public}
    def _money(self, a: act.Money) -> dict[str, Any]:
        """The money's settings (``_ledger.Ledger.set_money``)."""
        return self.ledger.set_money(a)

    def _payment(self, a: act.Payment) -> dict[str, Any]:
        """A payment at the desk, never above what the player owes."""
        player = self.player(a.player)
        ids = entered(self.players, self.draw_names())
        return self.ledger.pay(a, player, owed(self.ledger, player, ids,
                                               self.side_pools.values()))

    def _refund(self, a: act.Refund) -> dict[str, Any]:
        return self.ledger.refund(a, self.player(a.player))

    def _reentry(self, a: act.Reentry) -> dict[str, Any]:
        player = self.player(a.player)
        return self.ledger.reenter(a, player,
                                   player.id in entered(self.players, self.draw_names()))

    def draw_names(self) -> set[str] | None:
        """The names in the draw (the Main's, drawn or arrived late, or a weekly
        format's field); None before it."""
        if self.weekly is not None:
            return set(self.weekly.players)
        if self.main is None:
            return None
        return {n for n in self.main.bracket.slots() if n is not None} | set(self.main.arrivals)

    def _event(self, a: Action) -> dict[str, Any]:
        """A Swing or couples action (``_events.EVENT_HANDLERS``)."""
        return self.events.apply(a, self)

    # ------------------------------------------------------------ settling

    def _double_brackets(self) -> list[tuple[str, Bracket | None]]:
        """A double elimination's losers' bracket and final (else none)."""
        if self.double is None:
            return []
        return [(e, self.double.bracket(e)) for e in DOUBLE_EVENTS]

    def _double_brackets_view(self) -> list[Any]:
        return [b.to_dict() if b is not None else None for _, b in self._double_brackets()]

    def _reenter(self, a: act.Reenter) -> dict[str, Any]:
        """A re-entry: a seat and one more entry fee (``_jackpot``)."""
        return reenter(self, a)

    def _in_draw(self, name: str) -> bool:
        if self.weekly is not None:
            return name in self.weekly.players
        assert self.main is not None
        return name in self.main.bracket.slots() or name in self.main.arrivals

    def _settle(self) -> None:
        """Withdrawn players lose the matches they face; the consolation is
        drawn as soon as every first-match loser is known, the Last Chance
        (when on) as soon as every first consolation loser is."""
        if self.main is None and self.weekly is None:
            return
        withdrawn = self.withdrawn
        changed = True
        while changed:
            changed = False
            for event, bracket in (("main", self.bracket("main")),
                                   ("consolation", self.consolation.bracket
                                    if self.consolation else None),
                                   ("last_chance", self.last_chance.bracket
                                    if self.last_chance else None),
                                   *self._double_brackets()):
                if bracket is None or not withdrawn:
                    continue
                for r, matches in enumerate(bracket.rounds):
                    for i, m in enumerate(matches):
                        if m.winner or m.a is None or m.b is None:
                            continue
                        if m.a in withdrawn or m.b in withdrawn:
                            winner = m.b if m.a in withdrawn and m.b not in withdrawn else m.a
                            bracket.set_winner(r, i, winner)
                            self.results[(event, r, i)] = ResultDetail(source="withdrawn")
                            changed = True
            if self.double is not None:  # its losers' bracket instead of a consolation
                before = self._double_brackets_view()
                self.double.sync()
                changed = changed or self._double_brackets_view() != before
                continue
            if self.main is None:
                break  # a weekly format: no consolation
            if self.consolation is None:
                losers = entrants(self.main)
                if losers is not None:
                    assert self.rng is not None
                    self.consolation = ConsolationDraw(self.main, losers, self.rng)
                    changed = True
            if self.last_chance_on and self.consolation is not None and \
                    self.last_chance is None:
                cons_losers = first_losers(self.consolation.bracket)
                if cons_losers is not None:
                    assert self.rng is not None
                    self.last_chance = ConsolationDraw(self.consolation, cons_losers,
                                                       self.rng)
                    changed = True


Handler = Callable[[Tournament, Any], dict[str, Any]]

#: Each action type's handler: the dispatch table of ``Tournament.apply``
#: (a Swing or couples action goes on to ``Events``).

# ------------------------------------------------ jackpots and re-entries (``_jackpot``)
# (here, beside the state they read: ``_jackpot`` holds the settings alone,
# so that it imports nothing of this module)

def entries(t: Tournament) -> int:
    """The players entered and still in (registered, not withdrawn)."""
    return sum(1 for p in t.players if not p.deleted and not p.withdrawn)


def check_entry(t: Tournament) -> None:
    """Refused when a registration would overfill the jackpot."""
    jp = t.jackpot
    if jp is None:
        return
    if t.main is not None or entries(t) >= jp.size:
        raise IllegalContest(f"the jackpot is full ({jp.size} players)", "jackpot_full",
                             {"n": jp.size})


def jackpot_due(t: Tournament) -> bool:
    """Whether the jackpot is full and not drawn yet: the server draws it
    and starts its round 1 now."""
    jp = t.jackpot
    return jp is not None and t.main is None and sum(
        1 for p in t.players if p.checked_in and not p.withdrawn and not p.deleted) == jp.size


def _lost(t: Tournament, name: str) -> tuple[int, bool]:
    """How many Main matches ``name`` lost, and whether they are in play
    (in a Main match without a winner)."""
    assert t.main is not None
    lost, live = 0, False
    for matches in t.main.bracket.rounds:
        for m in matches:
            if name not in (m.a, m.b):
                continue
            if m.winner is None:
                live = True
            elif m.a is not None and m.b is not None and m.winner != name:
                lost += 1
    return lost, live


def reenter(t: Tournament, a: act.Reenter) -> dict[str, Any]:
    """A re-entry: the seat (the Main's next late slot, or a More Swiss's
    next round) and one more entry in the ledger, or neither."""
    player = t.player(a.player)
    until = t.reentry_until_ms
    if player.withdrawn:
        raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                             {"player": player.name})
    if until is None:
        raise IllegalContest("re-entries are not taken: the director has set no re-entry "
                             "deadline (settings.reentry_until_ms)", "no_reentries")
    if a.at_ms > until:
        raise IllegalContest("the re-entry deadline has passed", "reentry_closed",
                             {"until_ms": until})
    weekly = t.weekly
    if weekly is not None:
        if weekly.format != "moreswiss":
            raise IllegalContest(f"a {weekly.format} takes no re-entries", "no_reentries_format",
                                 {"format": weekly.format})
        round_index = weekly.check_reenter(player.name, t.withdrawn)
        done = t.ledger.reenter(act.Reentry(player=player.id), player, True)
        weekly.reenter(player.name)
        return {"player": player.id, "round": round_index, "entries": done["entries"]}
    if t.double is not None:
        raise IllegalContest("a double elimination takes no re-entries",
                             "no_reentries_format", {"format": "double"})
    main = t.main
    if main is None:
        raise IllegalContest("the draw is not made yet: register the player instead",
                             "not_drawn")
    if player.name not in (t.draw_names() or set()):
        raise IllegalContest(f"{player.name} is not in the draw: a late arrival takes a "
                             "slot instead", "not_in_draw", {"player": player.name})
    lost, live = _lost(t, player.name)
    if live or lost < 1 + t.reentered.get(player.name, 0):
        raise IllegalContest(f"{player.name} is still in the Main", "not_knocked_out",
                             {"player": player.name})
    if not main.late_open or len(main.arrivals) >= len(main.late_positions):
        raise IllegalContest("no late slot of the Main is open: a re-entry takes one",
                             "no_late_slot")
    done = t.ledger.reenter(act.Reentry(player=player.id), player, True)
    position = main.arrive(player.name, again=True)
    t.reentered[player.name] = t.reentered.get(player.name, 0) + 1
    return {"player": player.id, "position": position, "entries": done["entries"]}


HANDLERS: Final[dict[type[Any], Handler]] = {
    act.Settings: Tournament._settings, act.Register: Tournament._register,
    act.CheckIn: Tournament._check_in, act.Withdraw: Tournament._withdraw,
    act.Draw: Tournament._draw, act.Arrive: Tournament._arrive,
    act.CloseLate: Tournament._close_late, act.StartRound: Tournament._start_round,
    act.BindTable: Tournament._bind_table, act.Result: Tournament._result,
    act.Correct: Tournament._correct, act.Absent: Tournament._absent,
    act.Disqualify: Tournament._disqualify, act.Sheet: Tournament._sheet,
    act.Committee: Tournament._committee, act.Appeal: Tournament._appeal,
    act.Decide: Tournament._decide, act.Clash: Tournament._clash,
    act.DismissClash: Tournament._dismiss_clash, act.Prizes: Tournament._prizes,
    act.Reinstate: Tournament._reinstate, act.Revert: Tournament._revert,
    act.SidePool: Tournament._side_pool, act.Flight: Tournament._flight,
    act.Presume: Tournament._presume, act.BreakStart: Tournament._break_start,
    act.BreakEnd: Tournament._break_end, act.BreakPenalty: Tournament._break_penalty,
    act.DeleteEntry: Tournament._delete_entry,
    act.SetPublic: Tournament._set_public,
    act.Money: Tournament._money, act.Payment: Tournament._payment,
    act.Refund: Tournament._refund, act.Reentry: Tournament._reentry,
    act.PairRound: Tournament._pair_round, act.Reenter: Tournament._reenter,
    **{kind: Tournament._event for kind in EVENT_HANDLERS},
}
assert set(HANDLERS) == set(act.ACTION_TYPES)
assert {kind_of(k) for k in HANDLERS} - set(ACTIONS) == {kind_of(k) for k in EVENT_HANDLERS}
#: The actions after which a withdrawn player's matches and the consolation's
#: draw are settled (no other action can make either due).
SETTLING: Final = frozenset({act.Withdraw, act.Draw, act.Arrive, act.CloseLate, act.Result,
                             act.Correct, act.Disqualify, act.Sheet, act.Reinstate,
                             act.Revert, act.Presume, act.BreakPenalty, act.PairRound,
                             act.Reenter})
