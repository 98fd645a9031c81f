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

``Tournament.after(action)`` is how a new action is decided: it works on a
copy and returns the new state, or raises (``InvalidContest``: malformed,
names the field; ``IllegalContest``: not allowed now) and the state it was
called on is untouched.  The server stores the action only once it was
accepted, then swaps the state in.

What the actions mean:

- ``settings``: each round's match length, rule book (a clock preset id) and
  clock policy (``required``, ``on_request``, ``none``); rounds past the list
  take its last entry; the late-arrival slots kept and the seed.  Only before
  the draw.
- ``register`` / ``check_in`` / ``withdraw``: players have ids 1, 2, ... in
  order of registration; names are unique (the draw sheet shows names).
- ``draw``: the Main of every checked-in player still in (in id order), with
  ``late_slots`` slots, drawn by ``MainDraw`` from ``random.Random(seed)``.
- ``arrive``: a registered player not in the draw takes the next late slot;
  ``close_late``: the slots left become byes.
- ``start_round``: every match of a round whose two players are known and
  which is not decided or at a table gets a table number (the director's,
  or the lowest numbers holding no live match).  ``bind_table``: the server
  records which clock table serves a number (the same table all day).
- ``result``: the winner of a match (from its clock, or entered by hand);
  the winner moves on, and once every first-match loser is known the
  Progressive Consolation is drawn from the same ``random.Random``.
  ``correct``: a decided match gets another winner, while the match its
  winner went on to is neither decided nor at a table, and never once the
  change would alter the consolation's entrants after it was drawn.
- A withdrawn player loses every match of theirs whose opponent is known.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ._draw import Bracket, ConsolationDraw, MainDraw, Match
from ._errors import IllegalContest, InvalidContest
from ._events import EVENT_ACTIONS, Events

#: Who keeps time at a round's tables.
CLOCK_POLICIES: Final = ("required", "on_request", "none")
#: The two brackets of the Main event.
EVENTS: Final = ("main", "consolation")
#: How a result came in.
RESULT_SOURCES: Final = ("clock", "hand", "withdrawn")
MAX_ROUND_SETTINGS: Final = 16
MAX_MATCH_LENGTH: Final = 64
MAX_LATE_SLOTS: Final = 512
MAX_TABLE_NUMBER: Final = 9999
MAX_SEED: Final = 2**53
MAX_PLAYER_NAME: Final = 100
MAX_FEDERATION_ID: Final = 40
MAX_REGISTERED: Final = 4096
ACTIONS: Final = ("settings", "register", "check_in", "withdraw", "draw", "arrive",
                  "close_late", "start_round", "bind_table", "result", "correct")


def _int(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidContest(f"{name}: must be a whole number from {low} to {high}")
    return value


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidContest(f"{name}: must be a text of 1 to {limit} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
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

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "federation_id": self.federation_id,
                "checked_in": self.checked_in, "withdrawn": self.withdrawn}


MatchKey = tuple[str, int, int]


def entrants(main: MainDraw) -> list[str] | None:
    """The consolation's entrants as soon as they are known: every player
    whose first *played* Main match is a loss; None while one is not known.

    Once late arrivals are closed, an empty first-round slot is a bye, so a
    player's first played match is the first round's (both present) or, after
    a bye, the second round's: it does not wait for the rest of the Main
    (``first_match_losers`` waits for every later slot)."""
    if main.late_open:
        return None
    rounds = main.bracket.rounds
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


@dataclass(slots=True, kw_only=True)
class Tournament:
    """The folded state of one tournament's Main event and its consolation."""

    rounds: list[RoundSettings] = field(default_factory=lambda: [RoundSettings()])
    late_slots: int = 0
    seed: int = 0
    players: list[Player] = field(default_factory=list)
    main: MainDraw | None = None
    consolation: ConsolationDraw | None = None
    rng: random.Random | None = None
    #: Which table number each match was given (kept once decided: the record).
    tables: dict[MatchKey, int] = field(default_factory=dict)
    #: The clock table serving each table number.
    table_ids: dict[int, int] = field(default_factory=dict)
    #: How each decided match was decided: {"source", "score"?, "corrected"?}.
    results: dict[MatchKey, dict[str, Any]] = field(default_factory=dict)
    #: The Swing and couples events (issue 13), folded from the same log.
    events: Events = field(default_factory=Events)
    #: Actions folded so far.
    count: int = 0

    # ------------------------------------------------------------ folding

    @classmethod
    def fold(cls, actions: list[Mapping[str, Any]]) -> Tournament:
        """The state a stored log gives (each action was accepted when stored)."""
        state = cls()
        for action in actions:
            state._apply(action)
        return state

    def after(self, action: Mapping[str, Any]) -> tuple[Tournament, dict[str, Any]]:
        """The state after ``action`` and what it did; raises ``ContestError``
        (and ``self`` is untouched) when it is refused."""
        state = copy.deepcopy(self)
        done = state._apply(action)
        return state, done

    def _apply(self, action: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(action, Mapping):
            raise InvalidContest("action: must be an object")
        do = action.get("do")
        if do in EVENT_ACTIONS:
            did = self.events.apply(action, self)
            self.count += 1
            return did
        if do not in ACTIONS:
            raise InvalidContest(f"do: must be one of {', '.join(ACTIONS + EVENT_ACTIONS)}")
        done: dict[str, Any] = getattr(self, f"_{do}")(action)
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
        return next((p for p in self.players if p.name == name), None)

    def settings_for(self, round_index: int) -> RoundSettings:
        return self.rounds[min(round_index, len(self.rounds) - 1)]

    def bracket(self, event: Any) -> Bracket:
        if event not in EVENTS:
            raise InvalidContest("event: must be main or consolation")
        if event == "main":
            if self.main is None:
                raise IllegalContest("the draw is not made yet")
            return self.main.bracket
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

    def live_tables(self) -> dict[int, MatchKey]:
        """Table numbers holding a match not yet decided."""
        out: dict[int, MatchKey] = {}
        for key, number in self.tables.items():
            m = self.bracket(key[0]).rounds[key[1]][key[2]]
            if m.winner is None:
                out[number] = key
        return out

    def at_table(self, number: int) -> tuple[MatchKey, Match] | None:
        key = self.live_tables().get(number)
        if key is None:
            return None
        return key, self.bracket(key[0]).rounds[key[1]][key[2]]

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
                         "late_slots": self.late_slots, "seed": self.seed},
            "players": [p.to_dict() for p in self.players],
            "drawn": self.main is not None,
            "main": None if self.main is None else {
                **self.main.bracket.to_dict(), "late_slots": list(self.main.late_positions),
                "late_open": self.main.late_open, "arrivals": list(self.main.arrivals)},
            "consolation": bracket(self.consolation.bracket if self.consolation else None),
            "matches": matches,
            "tables": {str(n): t for n, t in sorted(self.table_ids.items())},
            "actions": self.count,
            **self.events.to_dict(),
        }

    # ------------------------------------------------------------ actions

    def _settings(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"rounds", "late_slots", "seed"})
        if self.main is not None:
            raise IllegalContest("the draw is made: its settings can no longer change")
        if "rounds" in a:
            rounds = a["rounds"]
            if not isinstance(rounds, list) or not 1 <= len(rounds) <= MAX_ROUND_SETTINGS:
                raise InvalidContest(f"rounds: must be a list of 1 to {MAX_ROUND_SETTINGS} rounds")
            self.rounds = [RoundSettings.from_dict(x, f"rounds[{i}]")
                           for i, x in enumerate(rounds)]
        if "late_slots" in a:
            self.late_slots = _int(a["late_slots"], "late_slots", 0, MAX_LATE_SLOTS)
        if "seed" in a:
            self.seed = _int(a["seed"], "seed", 0, MAX_SEED)
        return {}

    def _register(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"name", "federation_id"})
        name = _text(a.get("name"), "name", MAX_PLAYER_NAME)
        fed = a.get("federation_id")
        if fed is not None:
            fed = _text(fed, "federation_id", MAX_FEDERATION_ID)
        if self.by_name(name) is not None:
            raise InvalidContest(f"name: {name} is already registered")
        if len(self.players) >= MAX_REGISTERED:
            raise IllegalContest(f"at most {MAX_REGISTERED} players")
        player = Player(id=len(self.players) + 1, name=name, federation_id=fed)
        self.players.append(player)
        return {"player": player.id}

    def _check_in(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player", "checked_in"})
        player = self.player(a.get("player"))
        flag = a.get("checked_in", True)
        if not isinstance(flag, bool):
            raise InvalidContest("checked_in: must be true or false")
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn")
        if not flag and self.main is not None and self._in_draw(player.name):
            raise IllegalContest(f"{player.name} is in the draw: withdraw instead")
        player.checked_in = flag
        return {"player": player.id}

    def _withdraw(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player"})
        player = self.player(a.get("player"))
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has already withdrawn")
        player.withdrawn = True
        return {"player": player.id}

    def _draw(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, set())
        if self.main is not None:
            raise IllegalContest("the draw is already made")
        names = [p.name for p in self.players if p.checked_in and not p.withdrawn]
        if not names:
            raise IllegalContest("nobody is checked in")
        self.rng = random.Random(self.seed)
        self.main = MainDraw(names, late_slots=self.late_slots, rng=self.rng)
        return {"seed": self.seed, "size": self.main.size}

    def _arrive(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"player"})
        player = self.player(a.get("player"))
        if self.main is None:
            raise IllegalContest("the draw is not made yet: check the player in instead")
        if player.withdrawn:
            raise IllegalContest(f"{player.name} has withdrawn")
        position = self.main.arrive(player.name)
        player.checked_in = True
        return {"player": player.id, "position": position}

    def _close_late(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, set())
        if self.main is None:
            raise IllegalContest("the draw is not made yet")
        if not self.main.late_open:
            raise IllegalContest("late arrivals are already closed")
        self.main.close_late()
        return {}

    def _start_round(self, a: Mapping[str, Any]) -> dict[str, Any]:
        _only(a, {"event", "round", "tables"})
        event = a.get("event", "main")
        bracket = self.bracket(event)
        if not bracket.rounds:
            raise IllegalContest("this bracket has no matches")
        r = _int(a.get("round"), "round", 0, len(bracket.rounds) - 1)
        ready = [i for i, m in enumerate(bracket.rounds[r])
                 if m.a is not None and m.b is not None and m.winner is None
                 and (event, r, i) not in self.tables]
        if not ready:
            raise IllegalContest("no match of this round is ready to start")
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
            raise IllegalContest("this match's players are not both known")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner: correct it instead")
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
            raise IllegalContest("this match has no result to correct")
        if winner not in (m.a, m.b):
            raise InvalidContest(f"winner: must be {m.a} or {m.b}")
        reason = a.get("reason")
        if reason is not None:
            _text(reason, "reason", 200)
        event, r, i = key
        bracket = self.bracket(event)
        if r + 1 < len(bracket.rounds):
            nxt_key = (event, r + 1, i // 2)
            nxt = bracket.rounds[r + 1][i // 2]
            if nxt.winner is not None or nxt_key in self.tables:
                raise IllegalContest("the next match of its winner has started or is "
                                     "decided: correct that one first")
        before = sorted(entrants(self.main) or []) if event == "main" and \
            self.main is not None else None
        old = m.winner
        m.winner = winner
        if r + 1 < len(bracket.rounds):
            nxt = bracket.rounds[r + 1][i // 2]
            if i % 2 == 0:
                nxt.a = winner
            else:
                nxt.b = winner
        if (event == "main" and self.consolation is not None and self.main is not None
                and sorted(entrants(self.main) or []) != before):
            raise IllegalContest("the consolation is drawn: this correction would change "
                                     "its entrants")
        detail = dict(self.results.get(key, {"source": "hand"}))
        detail["corrected"] = {"from": old, "reason": reason}
        if "score" in a:
            detail["score"] = self._score(a["score"])
        self.results[key] = detail
        return {"winner": winner, "was": old}

    # ------------------------------------------------------------ settling

    def _in_draw(self, name: str) -> bool:
        assert self.main is not None
        return name in self.main.bracket.slots() or name in self.main.arrivals

    def _settle(self) -> None:
        """Withdrawn players lose the matches they face; the consolation is
        drawn as soon as every first-match loser is known."""
        if self.main is None:
            return
        withdrawn = {p.name for p in self.players if p.withdrawn}
        changed = True
        while changed:
            changed = False
            for event, bracket in (("main", self.main.bracket),
                                   ("consolation", self.consolation.bracket
                                    if self.consolation else None)):
                if bracket is None:
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
