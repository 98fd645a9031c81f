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
``IllegalContest``: not allowed now) leaves the state untouched.  The
dispatch is a table (``HANDLERS``) of one handler per action; the
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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ._draw import Bracket, ConsolationDraw, MainDraw, Match
from ._errors import IllegalContest, InvalidContest
from ._events import EVENT_ACTIONS, Events
from ._late import LateArrival
from ._prizes import STANDING_EVENTS, set_prizes
from ._sheets import Settlement, Sheet, parse_sheet, settle
from ._side import SidePool, set_pool

#: Who keeps time at a round's tables.
CLOCK_POLICIES: Final = ("required", "on_request", "none")
#: The brackets of the Main event (the Last Chance only when the settings ask for it).
EVENTS: Final = ("main", "consolation", "last_chance")
#: How a result came in.
RESULT_SOURCES: Final = ("clock", "hand", "withdrawn", "disqualified")
MAX_ROUND_SETTINGS: Final = 16
MAX_MATCH_LENGTH: Final = 64
MAX_LATE_SLOTS: Final = 512
MAX_TABLE_NUMBER: Final = 9999
MAX_SEED: Final = 2**53
MAX_PLAYER_NAME: Final = 100
MAX_FEDERATION_ID: Final = 40
#: The director's key among an appeal's votes (the director votes with the panel).
DIRECTOR_VOTE: Final = "director"
MAX_REGISTERED: Final = 4096
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
                  "side_pool")
MAX_CLASHES: Final = 4096
MAX_MATCH_LABEL: Final = 200


def _int(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidContest(f"{name}: must be a whole number from {low} to {high}")
    return value


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidContest(f"{name}: must be a text of 1 to {limit} characters")
    if _CONTROL.search(value):
        raise InvalidContest(f"{name}: must not hold control characters")
    return value.strip()


def _only(action: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(action) - allowed - {"do"}
    if unknown:
        raise InvalidContest(f"{sorted(unknown)[0]}: unknown field")


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSettings:
    """One round's matches: length, rule book (clock preset id), clock policy."""

    length: int = 7
    rules: str = "it-tournament"
    clock: str = "required"

    def __post_init__(self) -> None:
        _int(self.length, "length", 1, MAX_MATCH_LENGTH)
        _text(self.rules, "rules", 100)
        if self.clock not in CLOCK_POLICIES:
            raise InvalidContest(f"clock: must be one of {', '.join(CLOCK_POLICIES)}")

    @classmethod
    def from_dict(cls, data: Any, where: str) -> RoundSettings:
        if not isinstance(data, dict):
            raise InvalidContest(f"{where}: must be an object")
        unknown = set(data) - {"length", "rules", "clock"}
        if unknown:
            raise InvalidContest(f"{where}.{sorted(unknown)[0]}: unknown field")
        try:
            return cls(**data)
        except InvalidContest as exc:
            raise InvalidContest(f"{where}.{exc}") from None

    def to_dict(self) -> dict[str, Any]:
        return {"length": self.length, "rules": self.rules, "clock": self.clock}


@dataclass(slots=True, kw_only=True)
class Player:
    """A registered player."""

    id: int
    name: str
    federation_id: str | None = None
    checked_in: bool = False
    withdrawn: bool = False
    #: The players' register entry this player is (None: not linked).
    register_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "federation_id": self.federation_id,
                "checked_in": self.checked_in, "withdrawn": self.withdrawn,
                "register_id": self.register_id}


MatchKey = tuple[str, int, int]


def first_losers(bracket: Bracket) -> list[str] | None:
    """Every player whose first *played* match in ``bracket`` is a loss, as
    soon as they are known (every first-round slot known: an empty one is a
    bye); None while one is not known.  A player's first played match is the
    first round's (both present) or, after a bye, the second round's."""
    rounds = bracket.rounds
    if not rounds:
        return []
    losers: list[str] = []
    for i, m in enumerate(rounds[0]):
        if m.a is not None and m.b is not None:
            if m.winner is None:
                return None
            losers.append(m.b if m.winner == m.a else m.a)
            continue
        holder = m.a or m.b
        if holder is None or len(rounds) == 1:
            continue
        nxt = rounds[1][i // 2]
        if nxt.a is None or nxt.b is None or nxt.winner is None:
            return None
        if nxt.winner != holder:
            losers.append(holder)
    return losers


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
    results: dict[MatchKey, dict[str, Any]] = field(default_factory=dict)
    #: Late arrivals at a match's start: {"absent": [names], "from_ms",
    #: "at_ms", "clock": bool (a clock at the table keeps the time),
    #: "arrived_ms": {name: ms}}.
    lates: dict[MatchKey, dict[str, Any]] = field(default_factory=dict)
    #: Each corrected match's results before its corrections, oldest first
    #: (what ``revert`` puts back; not part of the view).
    corrected_from: dict[MatchKey, list[dict[str, Any]]] = field(default_factory=dict)
    #: Score sheets of hand-entered results: {"A"|"B"|"director": Sheet} (``_sheets``).
    sheets: dict[MatchKey, dict[str, Sheet]] = field(default_factory=dict)
    #: The ruling committee: 3 to 5 player ids.
    committee: list[int] = field(default_factory=list)
    #: Appeals of rulings, in order (number = index + 1).
    appeals: list[dict[str, Any]] = field(default_factory=list)
    #: Tables whose final result disagrees with the result the tournament
    #: already held (a race between a hand and a clock result), in order
    #: (number = index + 1): the director's alerts until dismissed.
    clashes: list[dict[str, Any]] = field(default_factory=list)
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

    # ------------------------------------------------------------ folding

    @classmethod
    def fold(cls, actions: Sequence[Mapping[str, Any]]) -> Tournament:
        """The state a stored log gives (each action was accepted when stored)."""
        state = cls()
        for action in actions:
            state._apply(action)
        return state

    def after(self, action: Mapping[str, Any]) -> tuple[Tournament, dict[str, Any]]:
        """The state after ``action`` and what it did, decided on a copy
        (tests and what-ifs: it costs a copy of the whole tournament); raises
        ``ContestError`` (and ``self`` is untouched) when it is refused."""
        state = copy.deepcopy(self)
        done = state._apply(action)
        return state, done

    def apply(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Decide ``action`` in place; what it did.  Raises ``ContestError``
        when it is refused, and then the state is untouched."""
        return self._apply(action)

    def _apply(self, action: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(action, Mapping):
            raise InvalidContest("action: must be an object")
        do = action.get("do")
        if do in EVENT_ACTIONS:
            did = self.events.apply(action, self)
            self.count += 1
            return did
        handler = HANDLERS.get(do) if isinstance(do, str) else None
        if handler is None:
            raise InvalidContest(f"do: must be one of {', '.join(ACTIONS + EVENT_ACTIONS)}")
        done = handler(self, action)
        if do in SETTLING:
            self._settle()
        self.count += 1
        return done

    # ------------------------------------------------------------ reading

    def player(self, value: Any) -> Player:
        pid = _int(value, "player", 1, MAX_REGISTERED)
        if pid > len(self.players):
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
            if self.main is None:
                raise IllegalContest("the draw is not made yet", "not_drawn")
            return self.main.bracket
        if event == "last_chance":
            if self.last_chance is None:
                raise IllegalContest(
                    "the Last Chance is not drawn: not every first consolation loser is "
                    "known yet" if self.last_chance_on else
                    "this tournament has no Last Chance (settings.last_chance)")
            return self.last_chance.bracket
        if self.consolation is None:
            raise IllegalContest("the consolation is not drawn yet: not every first-match "
                                 "loser is known")
        return self.consolation.bracket

    def match(self, action: Mapping[str, Any]) -> tuple[MatchKey, Match]:
        event = action.get("event", "main")
        bracket = self.bracket(event)
        r = _int(action.get("round"), "round", 0, max(len(bracket.rounds) - 1, 0))
        if not bracket.rounds:
            raise IllegalContest("this bracket has no matches")
        i = _int(action.get("match"), "match", 0, len(bracket.rounds[r]) - 1)
        return (str(event), r, i), bracket.rounds[r][i]

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

    def to_dict(self) -> dict[str, Any]:
        def bracket(b: Bracket | None) -> dict[str, Any] | None:
            return None if b is None else b.to_dict()

        matches = []
        for (event, r, i), number in sorted(self.tables.items()):
            m = self.bracket(event).rounds[r][i]
            matches.append({"event": event, "round": r, "match": i, "table": number,
                            "table_id": self.table_ids.get(number), "a": m.a, "b": m.b,
                            "winner": m.winner, **self.settings_for(r).to_dict(),
                            "result": self.results.get((event, r, i))})
        return {
            "settings": {"rounds": [s.to_dict() for s in self.rounds],
                         "late_slots": self.late_slots, "seed": self.seed,
                         "seed_given": self.seed_given,
                         "last_chance": self.last_chance_on, "seeds": list(self.seeds),
                         "groups": [list(g) for g in self.groups]},
            "players": [p.to_dict() for p in self.players],
            "drawn": self.main is not None,
            "main": None if self.main is None else {
                **self.main.bracket.to_dict(), "late_slots": list(self.main.late_positions),
                "late_open": self.main.late_open, "arrivals": list(self.main.arrivals),
                "same_group": [list(x) for x in self.main.same_group_matches()]},
            "consolation": bracket(self.consolation.bracket if self.consolation else None),
            "last_chance": bracket(self.last_chance.bracket if self.last_chance else None),
            "matches": matches,
            "tables": {str(n): t for n, t in sorted(self.table_ids.items())},
            "late": [self._late_dict(k, None) for k in sorted(self.lates)],
            "sheets": [self._sheet_dict(k) for k in sorted(self.sheets)],
            "committee": [{"id": pid, "name": self.players[pid - 1].name}
                          for pid in self.committee],
            "appeals": [dict(x) for x in self.appeals],
            "clashes": [dict(x) for x in self.clashes],
            "prizes": {k: list(v) for k, v in self.prizes.items()},
            "side_pools": [p.to_dict() for p in self.side_pools.values()],
            "actions": self.count,
            **self.events.to_dict(),
        }

    # ------------------------------------------------------------ actions

    def _settings(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"rounds", "late_slots", "seed", "last_chance", "seeds", "groups"})
        if self.main is not None:
            raise IllegalContest("the draw is made: its settings can no longer change",
                                 "settings_locked")
        rounds, late_slots, seed = self.rounds, self.late_slots, self.seed
        last_chance = self.last_chance_on
        if "last_chance" in a:
            last_chance = a["last_chance"]
            if not isinstance(last_chance, bool):
                raise InvalidContest("last_chance: must be true or false")
        seeds = self._seeds(a["seeds"]) if "seeds" in a else self.seeds
        groups = self._groups(a["groups"]) if "groups" in a else self.groups
        if "rounds" in a:
            given = a["rounds"]
            if not isinstance(given, list) or not 1 <= len(given) <= MAX_ROUND_SETTINGS:
                raise InvalidContest(f"rounds: must be a list of 1 to {MAX_ROUND_SETTINGS} rounds")
            rounds = [RoundSettings.from_dict(x, f"rounds[{i}]") for i, x in enumerate(given)]
        if "late_slots" in a:
            late_slots = _int(a["late_slots"], "late_slots", 0, MAX_LATE_SLOTS)
        if "seed" in a:
            seed = _int(a["seed"], "seed", 0, MAX_SEED)
        self.rounds, self.late_slots, self.seed = rounds, late_slots, seed
        self.seed_given = self.seed_given or "seed" in a
        self.last_chance_on, self.seeds, self.groups = last_chance, seeds, groups
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
            if club and club.strip() and not p.withdrawn:
                by_club.setdefault(club.strip().casefold(), []).append(p.id)
        return [ids for ids in by_club.values() if len(ids) >= 2]

    def _seeds(self, value: Any) -> list[int]:
        """The seeds: registered players' ids, best first, each once."""
        if not isinstance(value, list) or len(value) > MAX_REGISTERED:
            raise InvalidContest(f"seeds: must be a list of at most {MAX_REGISTERED} player ids, "
                                 "best first")
        out: list[int] = []
        for k, pid in enumerate(value):
            pid = _int(pid, f"seeds[{k}]", 1, MAX_REGISTERED)
            if pid > len(self.players):
                raise InvalidContest(f"seeds[{k}]: no player {pid}")
            if pid in out:
                raise InvalidContest(f"seeds[{k}]: player {pid} is seeded twice")
            out.append(pid)
        return out

    def _groups(self, value: Any) -> list[list[int]]:
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
                if pid > len(self.players):
                    raise InvalidContest(f"groups[{g}][{k}]: no player {pid}")
                if pid in seen:
                    raise InvalidContest(f"groups[{g}][{k}]: player {pid} is already in a "
                                         "group")
                seen.add(pid)
                group.append(pid)
            out.append(group)
        return out

    def _register(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"name", "federation_id", "register_id"})
        name = _text(a.get("name"), "name", MAX_PLAYER_NAME)
        fed = a.get("federation_id")
        if fed is not None:
            fed = _text(fed, "federation_id", MAX_FEDERATION_ID)
        link = a.get("register_id")
        if link is not None:
            link = _int(link, "register_id", 1, 2**53)
            if any(p.register_id == link for p in self.players):
                raise InvalidContest(f"register_id: register entry {link} is already "
                                     "registered in this tournament")
        if self.by_name(name) is not None:
            raise InvalidContest(f"name: {name} is already registered")
        if len(self.players) >= MAX_REGISTERED:
            raise IllegalContest(f"at most {MAX_REGISTERED} players")
        player = Player(id=len(self.players) + 1, name=name, federation_id=fed,
                        register_id=link)
        self.players.append(player)
        self.names[name] = player
        return {"player": player.id}

    def _check_in(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player", "checked_in"})
        player = self.player(a.get("player"))
        flag = a.get("checked_in", True)
        if not isinstance(flag, bool):
            raise InvalidContest("checked_in: must be true or false")
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                                 {"player": player.name})
        if not flag and self.main is not None and self._in_draw(player.name):
            raise IllegalContest(f"{player.name} is in the draw: withdraw instead", "in_draw",
                                 {"player": player.name})
        player.checked_in = flag
        return {"player": player.id}

    def _withdraw(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player"})
        player = self.player(a.get("player"))
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has already withdrawn", "already_withdrawn",
                                 {"player": player.name})
        player.withdrawn = True
        self.withdrawn.add(player.name)
        return {"player": player.id}

    def _draw(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"seed"})
        seed = self.seed if "seed" not in a else _int(a["seed"], "seed", 0, MAX_SEED)
        if self.main is not None:
            raise IllegalContest("the draw is already made", "already_drawn")
        names = [p.name for p in self.players if p.checked_in and not p.withdrawn]
        if not names:
            raise IllegalContest("nobody is checked in", "nobody_checked_in")
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
        self.rng, self.main, self.seed = rng, main, seed
        done: dict[str, Any] = {"seed": self.seed, "size": main.size}
        if groups:
            done["same_group"] = [list(x) for x in main.unavoidable]
        return done

    def _arrive(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player", "at_ms"})
        player = self.player(a.get("player"))
        stopped = self._late_arrive(a, player) if self.lates else None
        if stopped is not None:
            return stopped
        if self.main is None:
            raise IllegalContest("the draw is not made yet: check the player in instead")
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn", "withdrawn",
                                 {"player": player.name})
        position = self.main.arrive(player.name)
        player.checked_in = True
        return {"player": player.id, "position": position}

    def _close_late(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, set())
        if self.main is None:
            raise IllegalContest("the draw is not made yet", "not_drawn")
        if not self.main.late_open:
            raise IllegalContest("late arrivals are already closed", "late_closed")
        self.main.close_late()
        return {}

    def _start_round(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "tables"})
        event = a.get("event", "main")
        bracket = self.bracket(event)
        if not bracket.rounds:
            raise IllegalContest("this bracket has no matches")
        r = _int(a.get("round"), "round", 0, len(bracket.rounds) - 1)
        ready = self.ready(event, r)
        if not ready:
            raise IllegalContest("no match of this round is ready to start", "round_not_ready",
                                 {"round": r + 1})
        live = self.events.busy_tables(self)  # a Swing or couples table is busy too
        numbers = a.get("tables")
        if numbers is None:
            numbers, n = [], 1
            while len(numbers) < len(ready):
                if n not in live:
                    numbers.append(n)
                n += 1
        else:
            if not isinstance(numbers, list) or len(numbers) != len(ready):
                raise InvalidContest(f"tables: must list {len(ready)} table numbers, one per "
                                     "match ready to start")
            for k, n in enumerate(numbers):
                _int(n, f"tables[{k}]", 1, MAX_TABLE_NUMBER)
                if n in live:
                    raise IllegalContest(f"tables[{k}]: table {n} still has a match on")
            if len(set(numbers)) != len(numbers):
                raise InvalidContest("tables: the same table twice")
        assigned = []
        for i, n in zip(ready, numbers, strict=True):
            self.tables[(str(event), r, i)] = n
            self.by_number.setdefault(n, []).append((str(event), r, i))
            assigned.append({"event": event, "round": r, "match": i, "table": n})
        return {"assigned": assigned}

    def _bind_table(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"table", "table_id"})
        n = _int(a.get("table"), "table", 1, MAX_TABLE_NUMBER)
        tid = _int(a.get("table_id"), "table_id", 1, 2**63 - 1)
        if n in self.table_ids:
            raise IllegalContest(f"table {n} already has its clock table")
        self.table_ids[n] = tid
        return {}

    def _result(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "match", "winner", "source", "score"})
        key, m = self.match(a)
        winner = a.get("winner")
        source = a.get("source", "hand")
        if source not in RESULT_SOURCES[:2]:
            raise InvalidContest("source: must be clock or hand")
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner: correct it instead",
                                 "already_decided")
        detail: dict[str, Any] = {"source": source}
        if "score" in a:
            detail["score"] = self._score(a["score"])
        self.bracket(key[0]).set_winner(key[1], key[2], winner)
        self.results[key] = detail
        return {"winner": winner}

    @staticmethod
    def _score(score: Any) -> list[int]:
        if not isinstance(score, list) or len(score) != 2:
            raise InvalidContest("score: must be [a, b]")
        return [_int(score[0], "score[0]", 0, 999), _int(score[1], "score[1]", 0, 999)]

    def _correct(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "match", "winner", "score", "reason"})
        key, m = self.match(a)
        winner = a.get("winner")
        if m.winner is None:
            raise IllegalContest("this match has no result to correct", "no_result")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        reason = a.get("reason")
        if reason is not None:
            _text(reason, "reason", 200)
        event, r, i = key
        bracket = self.bracket(event)
        nxt = bracket.rounds[r + 1][i // 2] if r + 1 < len(bracket.rounds) else None
        if nxt is not None and (nxt.winner is not None or (event, r + 1, i // 2) in self.tables):
            raise IllegalContest("the next match of its winner has started or is "
                                 "decided: correct that one first", "next_match_started",
                                 {"event": event, "round": r + 2})
        score = self._score(a["score"]) if "score" in a else None
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
        self.corrected_from.setdefault(key, []).append(
            {"winner": old, "detail": copy.deepcopy(self.results.get(key, {"source": "hand"}))})
        detail = dict(self.results.get(key, {"source": "hand"}))
        detail["corrected"] = {"from": old, "reason": reason}
        if score is not None:
            detail["score"] = score
        self.results[key] = detail
        return {"winner": winner, "was": old}

    # ------------------------------------------------ the director's undo

    def _next_free(self, key: MatchKey) -> Match | None:
        """The next match of match ``key``'s winner (None: a final); refused
        (changing nothing) when it has started or is decided."""
        event, r, i = key
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
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            steps.append((key, m, self._next_free(key), winner))
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

    def _reinstate(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """A withdrawn player comes back: the matches their withdrawal
        decided become undecided again, while nothing later depends on them."""
        _only(a, {"player"})
        player = self.player(a.get("player"))
        if not player.withdrawn:
            raise IllegalContest(f"{player.name} has not withdrawn", "not_withdrawn",
                                 {"player": player.name})
        undo: list[MatchKey] = []
        if self.main is not None:
            for event, bracket in (("main", self.main.bracket),
                                   ("consolation", self.consolation.bracket
                                    if self.consolation else None)):
                if bracket is None:
                    continue
                for r, matches in enumerate(bracket.rounds):
                    for i, m in enumerate(matches):
                        if (self.results.get((event, r, i), {}).get("source") == "withdrawn"
                                and player.name in (m.a, m.b) and m.winner != player.name):
                            undo.append((event, r, i))
        self._reseat([(key, None) for key in undo])
        for key in undo:
            del self.results[key]
        player.withdrawn = False
        self.withdrawn.discard(player.name)
        return {"player": player.id,
                "undecided": [{"event": k[0], "round": k[1], "match": k[2]} for k in undo]}

    def _revert(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """Undo a match's last correction (its result before it comes back),
        else its result entered by hand (the match is undecided again)."""
        _only(a, {"event", "round", "match"})
        key, m = self.match(a)
        result = self.results.get(key)
        if m.winner is None or result is None:
            raise IllegalContest("this match has no result to undo", "no_result")
        stack = self.corrected_from.get(key)
        if stack:
            back = stack[-1]
            if back["winner"] != m.winner:
                self._reseat([(key, back["winner"])])
            stack.pop()
            if not stack:
                del self.corrected_from[key]
            self.results[key] = back["detail"]
            return {"winner": m.winner, "reverted": "correction"}
        if result.get("source") != "hand":
            raise IllegalContest(f"a result from the {result.get('source')} cannot be undone: "
                                 "correct it instead", "not_reversible",
                                 {"source": str(result.get("source"))})
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
        absent = tuple(sorted("A" if n == m.a else "B" for n in late["absent"]))
        return LateArrival(length=self.settings_for(key[1]).length, absent=absent,
                           from_ms=late["from_ms"])

    def late_state(self, key: MatchKey, now_ms: int) -> dict[str, Any]:
        """The count at ``now_ms``: points, score, over (the late side is out);
        it stops at the (first) arrival of a late player."""
        late = self.lates[key]
        count = self.late_arrival(key)
        arrived = late["arrived_ms"]
        at = max(now_ms, late["from_ms"])
        if arrived:
            count.arrive(max(min(arrived.values()), 0))
        state = count.state(max(at, count.now))
        out_at = None
        limit = count._limit()
        if limit is not None and not state.over and not state.arrived:
            out_at = late["from_ms"] + limit[0] * 300_000
        next_at = None
        if not state.over and not state.arrived and count.late_side is not None:
            next_at = late["from_ms"] + (state.points + 1) * 300_000
        return {"at_ms": now_ms, "points": state.points, "score": list(state.score),
                "over": state.over,
                "disqualified": state.disqualified, "arrived": state.arrived,
                "next_point_ms": next_at, "out_ms": out_at}

    def _late_dict(self, key: MatchKey, now_ms: int | None) -> dict[str, Any]:
        late = self.lates[key]
        event, r, i = key
        m = self.bracket(event).rounds[r][i]
        out = {"event": event, "round": r, "match": i, "table": self.tables.get(key),
               "a": m.a, "b": m.b, "absent": list(late["absent"]), "from_ms": late["from_ms"],
               "at_ms": late["at_ms"], "clock": late["clock"],
               "arrived_ms": dict(late["arrived_ms"]), "winner": m.winner}
        if now_ms is not None and not late["clock"]:
            out["count"] = self.late_state(key, now_ms)
        return out

    def running_lates(self) -> list[MatchKey]:
        """Matches whose late count the server keeps (no clock, nobody arrived,
        not decided)."""
        out = []
        for key, late in self.lates.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if not late["clock"] and not late["arrived_ms"] and m.winner is None:
                out.append(key)
        return out

    def _absent(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "match", "player", "from_ms", "at_ms", "clock"})
        key, m = self.match(a)
        player = self.player(a.get("player"))
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        side = self._side_of(m, player)
        if m.winner is not None:
            raise IllegalContest("this match is decided", "already_decided")
        from_ms = _int(a.get("from_ms"), "from_ms", 0, 2**53)
        at_ms = _int(a.get("at_ms", from_ms), "at_ms", 0, 2**53)
        clock = a.get("clock", False)
        if not isinstance(clock, bool):
            raise InvalidContest("clock: must be true or false")
        late = self.lates.get(key)
        if late is None:
            late = self.lates[key] = {"absent": [], "from_ms": from_ms, "at_ms": at_ms,
                                      "clock": clock, "arrived_ms": {}}
        elif late["arrived_ms"]:
            raise IllegalContest("a late player of this match has arrived: the count is over")
        if player.name in late["absent"]:
            raise IllegalContest(f"{player.name} is already marked absent at this match")
        late["absent"].append(player.name)
        late["from_ms"] = from_ms
        return {"player": player.id, "side": side, "from_ms": from_ms}

    def _late_arrive(self, a: Mapping[str, Any], player: Player) -> dict[str, Any] | None:
        """``arrive`` of a player marked absent at a match: the count stops."""
        for key, late in self.lates.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if player.name in late["absent"] and m.winner is None \
                    and player.name not in late["arrived_ms"]:
                at = _int(a.get("at_ms"), "at_ms", 0, 2**53)
                late["arrived_ms"][player.name] = at
                count = None if late["clock"] else self.late_state(key, at)
                return {"player": player.id, "match": list(key), "late": count}
        return None

    def _disqualify(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "match", "player", "reason", "score"})
        key, m = self.match(a)
        player = self.player(a.get("player"))
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        self._side_of(m, player)
        if m.winner is not None:
            raise IllegalContest("this match is decided", "already_decided")
        reason = _text(a.get("reason", "late"), "reason", 200)
        winner = m.b if player.name == m.a else m.a
        assert winner is not None
        detail: dict[str, Any] = {"source": "disqualified", "player": player.name,
                                  "reason": reason}
        if "score" in a:
            detail["score"] = self._score(a["score"])
        self.bracket(key[0]).set_winner(key[1], key[2], winner)
        self.results[key] = detail
        return {"winner": winner, "disqualified": player.name}

    # ------------------------------------------------ score sheets

    def _sheet_dict(self, key: MatchKey) -> dict[str, Any]:
        event, r, i = key
        m = self.bracket(event).rounds[r][i]
        sheets = self.sheets[key]
        a, b = sheets.get("A"), sheets.get("B")
        settled = settle(a, b, self._start_score(key))
        result = self.results.get(key) or {}
        return {"event": event, "round": r, "match": i, "table": self.tables.get(key),
                "a": m.a, "b": m.b, "sheets": {k: v.to_dict() for k, v in sheets.items()},
                "winner": m.winner,
                "mismatch": m.winner is None and settled.mismatch,
                # the trailing player's sheet made the result: the director is told
                "flagged": result.get("sheets") == "trailing",
                "outcome": settled.outcome, "trailing": settled.trailing,
                "game": settled.game, "why": settled.why}

    def _start_score(self, key: MatchKey) -> tuple[int, int]:
        """The score a match began at: 0-0, or the points a late arrival cost
        (the count the server kept, stopped at the arrival)."""
        late = self.lates.get(key)
        if late is None or late["clock"] or not late["arrived_ms"]:
            return 0, 0
        score = self.late_state(key, min(late["arrived_ms"].values()))["score"]
        return score[0], score[1]

    def _sheet(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """A score sheet: a player's (``by`` A or B) or the director's (final).

        Two players' sheets decide by ``settle`` (``_sheets``): the same and
        both the players' own (``via`` ``player`` or ``director``): the result,
        ``agreed``; different, with the running score: the trailing player's
        sheet makes the result, flagged (``trailing``); otherwise they wait for
        the director.  An action without ``via`` (a log written before it
        existed) counts as the player's own, as it did then."""
        _only(a, {"event", "round", "match", "by", "winner", "score", "games", "via"})
        key, m = self.match(a)
        by = a.get("by")
        if by not in ("A", "B", "director"):
            raise InvalidContest("by: must be A, B or director")
        if m.a is None or m.b is None:
            raise IllegalContest("this match's players are not both known", "players_unknown")
        via = a.get("via", "director")
        if by == "director" and via != "director":
            raise InvalidContest("via: the director's sheet is the director's")
        start = self._start_score(key)
        sheet = parse_sheet(a, (m.a, m.b), self.settings_for(key[1]).length, via, start)
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
            detail: dict[str, Any] = {"source": "hand",
                                      "sheets": "director" if by == "director"
                                      else settled.outcome}
            if settled.score is not None:
                detail["score"] = list(settled.score)
            if settled.outcome == "trailing":
                detail["trailing"] = settled.trailing
                detail["game"] = settled.game
            self.results[key] = detail
        return {"final": final, "mismatch": not final and settled.mismatch,
                "winner": settled.winner if final else None,
                "outcome": "director" if by == "director" else settled.outcome,
                "trailing": settled.trailing, "why": None if final else settled.why}

    # ------------------------------------------------ the ruling committee

    def _committee(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"members"})
        members = a.get("members")
        if not isinstance(members, list) or not 3 <= len(members) <= 5:
            raise InvalidContest("members: must list 3 to 5 players")
        ids = [self.player(x).id for x in members]
        if len(set(ids)) != len(ids):
            raise InvalidContest("members: the same player twice")
        for pid in ids:
            if self.players[pid - 1].withdrawn:
                raise IllegalContest(f"{self.players[pid - 1].name} has withdrawn")
        self.committee = ids
        return {"members": ids}

    def _appeal(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """An appeal of a ruling at a match; committee members who play it are
        replaced by ``substitutes`` (in order)."""
        _only(a, {"event", "round", "match", "by", "ruling", "substitutes", "at_ms"})
        if not self.committee:
            raise IllegalContest("there is no ruling committee yet")
        key, m = self.match(a)
        by = self.player(a.get("by"))
        if by.name not in (m.a, m.b):
            raise InvalidContest(f"by: {by.name} does not play this match")
        ruling = _text(a.get("ruling"), "ruling", 500)
        subs = a.get("substitutes", [])
        if not isinstance(subs, list):
            raise InvalidContest("substitutes: must be a list of players")
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
                                     "and plays this match: name a substitute")
            sub = pool.pop(0)
            replaced[str(pid)] = sub
            panel.append(sub)
        if pool:
            raise InvalidContest("substitutes: more than the members to replace")
        number = len(self.appeals) + 1
        self.appeals.append({"appeal": number, "event": key[0], "round": key[1],
                             "match": key[2], "by": by.id, "ruling": ruling,
                             "panel": panel, "replaced": replaced,
                             "at_ms": a.get("at_ms"), "decision": None})
        return {"appeal": number, "panel": panel}

    def _decide(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """The panel's hearing and vote: every panel member and the director
        vote, the majority decides, and a tie upholds the ruling.

        **Reading** (rule book: "at least 2 members of the committee shall be
        convene with the tournament director ... A ruling will be taken by
        majority decision"): the director sits with the members and votes
        (``votes["director"]``), so the rule book's smallest panel, two
        members and the director, is an odd three; with an even count a tie
        leaves the ruling standing (an appeal needs a majority to overturn)."""
        _only(a, {"appeal", "votes", "hearing"})
        number = _int(a.get("appeal"), "appeal", 1, max(len(self.appeals), 1))
        if number > len(self.appeals):
            raise InvalidContest(f"appeal: no appeal {number}")
        appeal = self.appeals[number - 1]
        if appeal["decision"] is not None:
            raise IllegalContest(f"appeal {number} is already decided")
        votes = a.get("votes")
        if not isinstance(votes, dict):
            raise InvalidContest("votes: must map each panel member's id and 'director' "
                                 "to uphold or overturn")
        panel = {str(p) for p in appeal["panel"]} | {DIRECTOR_VOTE}
        if set(votes) != panel:
            raise InvalidContest(f"votes: must be the panel's and the director's, "
                                 f"{sorted(panel)}")
        for pid, v in votes.items():
            if v not in ("uphold", "overturn"):
                raise InvalidContest(f"votes.{pid}: must be uphold or overturn")
        hearing = a.get("hearing")
        if hearing is not None:
            hearing = _text(hearing, "hearing", 1000)
        over = sum(1 for v in votes.values() if v == "overturn")
        decision = "overturned" if over * 2 > len(votes) else "upheld"
        appeal["decision"] = decision
        appeal["votes"] = dict(votes)
        appeal["hearing"] = hearing
        return {"appeal": number, "decision": decision}

    # ------------------------------------------------ a table's result that clashes

    @staticmethod
    def _clash_result(value: Any, where: str, players: list[str], *,
                      source: bool) -> dict[str, Any]:
        fields = {"winner", "score", "source"} if source else {"winner", "score"}
        if not isinstance(value, Mapping):
            raise InvalidContest(f"{where}: must be an object")
        unknown = set(value) - fields
        if unknown:
            raise InvalidContest(f"{where}.{sorted(unknown)[0]}: unknown field")
        winner = value.get("winner")
        if winner not in players:
            raise InvalidContest(f"{where}.winner: must be {players[0]} or {players[1]}")
        out: dict[str, Any] = {"winner": winner}
        if source:
            src = value.get("source")
            if src not in RESULT_SOURCES:
                raise InvalidContest(f"{where}.source: must be one of "
                                     f"{', '.join(RESULT_SOURCES)}")
            out["source"] = src
        if value.get("score") is not None:
            try:
                out["score"] = Tournament._score(value["score"])
            except InvalidContest as exc:
                raise InvalidContest(f"{where}.{exc}") from None
        return out

    def _clash(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """A table's final result (``clock``) disagrees with the result the
        tournament already holds for its match (``held``): the server records
        it for the director, who corrects the match or dismisses the alert.
        Nothing else changes: the held result stands until corrected."""
        _only(a, {"table", "table_id", "match", "players", "held", "clock", "at_ms"})
        table = _int(a.get("table"), "table", 1, MAX_TABLE_NUMBER)
        table_id = _int(a.get("table_id"), "table_id", 1, 2**63 - 1)
        label = _text(a.get("match"), "match", MAX_MATCH_LABEL)
        players = a.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise InvalidContest("players: must be the table's two players")
        names = [_text(p, f"players[{k}]", MAX_PLAYER_NAME) for k, p in enumerate(players)]
        held = self._clash_result(a.get("held"), "held", names, source=True)
        clock = self._clash_result(a.get("clock"), "clock", names, source=False)
        at_ms = _int(a.get("at_ms"), "at_ms", 0, 2**53)
        if len(self.clashes) >= MAX_CLASHES:
            raise IllegalContest(f"at most {MAX_CLASHES} clashes")
        number = len(self.clashes) + 1
        self.clashes.append({"clash": number, "table": table, "table_id": table_id,
                             "match": label, "players": names, "held": held,
                             "clock": clock, "at_ms": at_ms, "dismissed": None})
        return {"clash": number}

    def _dismiss_clash(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """The director has seen a clash (and corrected the match, or kept
        the result held): it leaves the alerts."""
        _only(a, {"clash", "reason"})
        number = _int(a.get("clash"), "clash", 1, MAX_CLASHES)
        if number > len(self.clashes):
            raise InvalidContest(f"clash: no clash {number}")
        reason = a.get("reason")
        if reason is not None:
            reason = _text(reason, "reason", 200)
        clash = self.clashes[number - 1]
        if clash["dismissed"] is not None:
            raise IllegalContest(f"clash {number} is already dismissed")
        clash["dismissed"] = {"reason": reason}
        return {"clash": number}

    # ------------------------------------------------ the prize list

    def _prizes(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """An event's prize list (``_standings.set_prizes``)."""
        return set_prizes(self.prizes, a)

    def _side_pool(self, a: Mapping[str, Any]) -> dict[str, Any]:
        """A side pool of an event: entry, members, split (``_side.set_pool``)."""
        return set_pool(self.side_pools, a, STANDING_EVENTS, [p.name for p in self.players])

    # ------------------------------------------------------------ settling

    def _in_draw(self, name: str) -> bool:
        assert self.main is not None
        return name in self.main.bracket.slots() or name in self.main.arrivals

    def _settle(self) -> None:
        """Withdrawn players lose the matches they face; the consolation is
        drawn as soon as every first-match loser is known, the Last Chance
        (when on) as soon as every first consolation loser is."""
        if self.main is None:
            return
        withdrawn = self.withdrawn
        changed = True
        while changed:
            changed = False
            for event, bracket in (("main", self.main.bracket),
                                   ("consolation", self.consolation.bracket
                                    if self.consolation else None),
                                   ("last_chance", self.last_chance.bracket
                                    if self.last_chance else None)):
                if bracket is None or not withdrawn:
                    continue
                for r, matches in enumerate(bracket.rounds):
                    for i, m in enumerate(matches):
                        if m.winner or m.a is None or m.b is None:
                            continue
                        if m.a in withdrawn or m.b in withdrawn:
                            winner = m.b if m.a in withdrawn and m.b not in withdrawn else m.a
                            bracket.set_winner(r, i, winner)
                            self.results[(event, r, i)] = {"source": "withdrawn"}
                            changed = True
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


#: Each action's handler: the dispatch table of ``Tournament.apply``.
HANDLERS: Final[dict[str, Callable[[Tournament, Mapping[str, Any]], dict[str, Any]]]] = {
    "settings": Tournament._settings, "register": Tournament._register,
    "check_in": Tournament._check_in, "withdraw": Tournament._withdraw,
    "draw": Tournament._draw, "arrive": Tournament._arrive,
    "close_late": Tournament._close_late, "start_round": Tournament._start_round,
    "bind_table": Tournament._bind_table, "result": Tournament._result,
    "correct": Tournament._correct, "absent": Tournament._absent,
    "disqualify": Tournament._disqualify, "sheet": Tournament._sheet,
    "committee": Tournament._committee, "appeal": Tournament._appeal,
    "decide": Tournament._decide, "clash": Tournament._clash,
    "dismiss_clash": Tournament._dismiss_clash, "prizes": Tournament._prizes,
    "reinstate": Tournament._reinstate, "revert": Tournament._revert,
    "side_pool": Tournament._side_pool,
}
assert set(HANDLERS) == set(ACTIONS)
#: The actions after which a withdrawn player's matches and the consolation's
#: draw are settled (no other action can make either due).
SETTLING: Final = frozenset({"withdraw", "draw", "arrive", "close_late", "result",
                             "correct", "disqualify", "sheet", "reinstate", "revert"})
