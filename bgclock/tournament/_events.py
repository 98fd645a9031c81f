"""Swing and couples as events of a tournament (issue 13): folded from the
same action log as the Main (``_running.Tournament`` hands these actions to
``Events``).

Theory of operation
-------------------
Swing (tournament.md section 2): ``swing_create`` names the players (ids of
registered players), the starting VP, the CPP schedule, the rule book and
whether the games are played at clock tables (with an optional clock
override, e.g. a fixed reserve).  ``swing_round`` pairs every player holding
VP with the pure ``Swing.pair`` and a ``random.Random(seed)``: the seed is in
the action (the server draws one when the director gives none) so a fold
replays the same pairing.  Each game is a 1-point match at a table number;
``swing_result`` enters a game's winner, single/gammon/backgammon and cube
(from the table's clock or by hand).  When every game of the round has its
result the round is played by ``Swing.play_round``: the VP move, a player at
0 is out, the last holder wins.

Couples (section 3): ``couples_create`` registers couples (player 1 and
player 2, ids of registered players), the format (``knockout`` or
``round_robin``), the match length, rule book and clock policy.  The
encounters are scheduled at once (round robin, the circle method) or round by
round (knockout, in the order given; an odd couple out goes through).
``couples_phase`` puts the next phase of an encounter at tables (phase 1 and
3: two tables at once; phase 2: one table, a consultation match); once an
encounter is decided (three match wins) no phase is started unless the
director asks (``more``).  ``couples_result`` enters a match's winner.
Standings: the pure ``standings`` (encounters won, the encounter between two
tied couples, matches won, points difference from the scores entered; couples
still tied share the place).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol, TypeVar

from msgspec import UnsetType, to_builtins

from . import actions as act
from ._couples import Couple, Encounter, standings
from ._errors import IllegalContest, InvalidContest
from ._swing import Swing, SwingGame, cpp_for_round
from .actions import CLOCK_KEYS, MAX_COUPLES, MAX_REASON, MAX_RULES, kind_of
from .model import Correction, GameCorrection


class _Entrant(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def withdrawn(self) -> bool: ...


class Tournament(Protocol):
    """What the Swing and couples read of the tournament they belong to
    (``_running.Tournament``, which imports this module: a protocol, not an
    import back)."""

    @property
    def players(self) -> Sequence[_Entrant]: ...

    def player(self, value: Any) -> _Entrant: ...

    def live_tables(self) -> Mapping[int, Any]: ...


__all__ = ["CLOCK_KEYS", "EVENT_ACTIONS", "EVENT_HANDLERS", "MAX_COUPLES", "Events"]

T = TypeVar("T")
D = TypeVar("D")


def _or(value: T | UnsetType, default: D) -> T | D:
    """An action's field, or ``default`` when the action does not give it."""
    return default if isinstance(value, UnsetType) else value


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


def _numbers(given: Sequence[int] | None, count: int, busy: set[int]) -> list[int]:
    """``count`` table numbers: the director's, or the lowest free ones."""
    if given is None:
        out: list[int] = []
        n = 1
        while len(out) < count:
            if n not in busy:
                out.append(n)
            n += 1
        return out
    if len(given) != count:
        raise InvalidContest(f"tables: must list {count} table numbers")
    for k, n in enumerate(given):
        if n in busy:
            raise IllegalContest(f"tables[{k}]: table {n} still has a match on",
                                  "table_busy", {"table": n})
    if len(set(given)) != len(given):
        raise InvalidContest("tables: the same table twice")
    return list(given)


def _game_result(a: act.SwingResult | act.SwingCorrect,
                 g: SwingGameAt) -> tuple[str, str, int]:
    """(winner, result, cube) of a game's result, checked."""
    if a.winner not in (g.a, g.b):
        raise InvalidContest(f"winner: must be {g.a} or {g.b}")
    cube = _or(a.cube, 1)
    if cube & (cube - 1):
        raise InvalidContest(f"cube: must be 1, 2, 4, ... (at most {act.MAX_CUBE})")
    return a.winner, _or(a.result, "single"), cube


def _names(t: Tournament, ids: Sequence[int], where: str) -> list[str]:
    names = []
    for k, pid in enumerate(ids):
        try:
            p = t.player(pid)
        except InvalidContest:
            raise InvalidContest(f"{where}[{k}]: no such player") from None
        if p.withdrawn:
            raise IllegalContest(f"{where}[{k}]: {p.name} has withdrawn", "withdrawn",
                                 {"player": p.name})
        names.append(p.name)
    if len(set(names)) != len(names):
        raise InvalidContest(f"{where}: the same player twice")
    return names


# ------------------------------------------------------------------ Swing

@dataclass(slots=True, kw_only=True)
class SwingGameAt:
    """One game of the round under way."""

    a: str
    b: str
    table: int
    stake: int
    all_in: bool
    winner: str | None = None
    result: str = "single"
    cube: int = 1
    source: str | None = None
    #: What it was, and why, once corrected.
    corrected: GameCorrection | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "table": self.table, "stake": self.stake,
                "all_in": self.all_in, "winner": self.winner, "result": self.result,
                "cube": self.cube, "source": self.source,
                "corrected": None if self.corrected is None else self.corrected.to_dict()}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedGame:
    """A game of a round played, as it was entered, and the VP it moved."""

    game: SwingGameAt
    vp_moved: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.game.to_dict(), "vp_moved": self.vp_moved}


@dataclass(slots=True, kw_only=True)
class SwingEvent:
    swing: Swing
    start_vp: int
    rules: str
    clock: str
    #: The clock of its single games: overrides of the rule book's (``CLOCK_KEYS``).
    clock_override: dict[str, int | str]
    #: The round under way: its games, who sits out, its seed.
    games: list[SwingGameAt] = field(default_factory=list)
    sitting: str | None = None
    seed: int | None = None
    #: Every player's VP after each round (round 0: the start).
    history: list[dict[str, int]] = field(default_factory=list)
    #: The games of the rounds played, as they were entered.
    played: list[list[PlayedGame]] = field(default_factory=list)
    #: The contest before the last round played and that round's games, kept
    #: until the next round is paired (a correction replays the round).
    before_last: Swing | None = None
    last_games: list[SwingGameAt] = field(default_factory=list)

    @property
    def under_way(self) -> bool:
        return bool(self.games)

    def live_tables(self) -> dict[int, int]:
        """Table number -> game index of the round under way, not yet decided."""
        return {g.table: i for i, g in enumerate(self.games) if g.winner is None}

    def to_dict(self) -> dict[str, Any]:
        s = self.swing
        return {
            "players": list(s.players), "start_vp": self.start_vp,
            "cpp_schedule": list(s.cpp_schedule), "rules": self.rules, "clock": self.clock,
            "clock_override": dict(self.clock_override),
            "vp": dict(s.vp), "out": s.out(), "winner": s.winner,
            "round": s.round_no, "cpp": s.cpp,
            "next_cpp": cpp_for_round(s.cpp_schedule, s.round_no + 1),
            "under_way": self.under_way, "seed": self.seed, "sitting": self.sitting,
            "correctable": self.before_last is not None,
            "games": [g.to_dict() for g in self.games],
            "all_in": sorted({n for g in self.games if g.all_in for n in (g.a, g.b)
                              if s.vp[n] < s.cpp}),
            "history": [dict(h) for h in self.history],
            "rounds": [{"round": r.round_no, "cpp": r.cpp, "sat_out": list(r.sat_out),
                        "games": [g.to_dict() for g in games]}
                       for r, games in zip(s.rounds, self.played, strict=True)],
        }


# ------------------------------------------------------------------ couples

@dataclass(slots=True, kw_only=True)
class EncounterAt:
    """One encounter: its matches' winners, scores and tables by (phase, match)."""

    a: Couple
    b: Couple
    round: int
    winners: dict[tuple[int, int], str] = field(default_factory=dict)
    scores: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    tables: dict[tuple[int, int], int] = field(default_factory=dict)
    sources: dict[tuple[int, int], str] = field(default_factory=dict)
    #: The matches corrected: what they were, and why.
    corrections: dict[tuple[int, int], Correction] = field(default_factory=dict)

    def encounter(self) -> Encounter:
        """The pure encounter, the results recorded in (phase, match) order."""
        e = Encounter(self.a, self.b)
        # the matches of a phase are played at once: they may end in any order
        for (phase, _), winner in sorted(self.winners.items()):
            e.results[phase].append(winner)
            if e.decided_after_phase is None and e.winner is not None:
                e.decided_after_phase = phase + 1
        return e

    def phase_done(self, phase: int, e: Encounter) -> bool:
        return all((phase, m) in self.winners for m in range(len(e.phases[phase])))

    def points(self) -> dict[str, int]:
        """Each couple's points difference over the scores entered."""
        out = {self.a.name: 0, self.b.name: 0}
        e = Encounter(self.a, self.b)
        for (phase, m), (x, y) in self.scores.items():
            first = e.phases[phase][m][0]
            a_side = first == self.a.name or first in self.a.players
            diff = x - y if a_side else y - x
            out[self.a.name] += diff
            out[self.b.name] -= diff
        return out

    def to_dict(self, index: int) -> dict[str, Any]:
        e = self.encounter()
        matches = []
        for phase, pairs in enumerate(e.phases):
            for m, (x, y) in enumerate(pairs):
                key = (phase, m)
                matches.append({"phase": phase + 1, "match": m, "a": x, "b": y,
                                "teams": phase == 1, "table": self.tables.get(key),
                                "winner": self.winners.get(key),
                                "score": self.scores.get(key),
                                "source": self.sources.get(key),
                                "corrected": None if key not in self.corrections
                                else self.corrections[key].to_dict()})
        return {"encounter": index, "round": self.round, "a": self.a.name, "b": self.b.name,
                "wins": e.wins, "winner": e.winner, "decided_after_phase":
                e.decided_after_phase, "matches": matches}


@dataclass(slots=True, kw_only=True)
class CouplesEvent:
    couples: list[Couple]
    format: str
    length: int
    rules: str
    clock: str
    encounters: list[EncounterAt] = field(default_factory=list)

    def live_tables(self) -> dict[int, tuple[int, int, int]]:
        out = {}
        for i, enc in enumerate(self.encounters):
            for (phase, m), n in enc.tables.items():
                if (phase, m) not in enc.winners:
                    out[n] = (i, phase, m)
        return out

    def couple(self, name: str) -> Couple:
        return next(c for c in self.couples if c.name == name)

    def champion(self) -> str | None:
        if self.format != "knockout" or not self.encounters:
            return None
        last = max(e.round for e in self.encounters)
        final = [e for e in self.encounters if e.round == last]
        if len(final) == 1 and self._advancing(last) == [final[0].encounter().winner]:
            return final[0].encounter().winner
        return None

    def _advancing(self, r: int) -> list[str] | None:
        """The couples through to round ``r + 1`` (knockout), None while undecided."""
        those = [e for e in self.encounters if e.round == r]
        winners = [e.encounter().winner for e in those]
        if any(w is None for w in winners):
            return None
        through = [w for w in winners if w is not None]
        playing = {n for e in those for n in (e.a.name, e.b.name)}
        entrants = self._entrants(r)
        # the couple out without an opponent goes through, kept in its place
        return [n for n in entrants if n in through or n not in playing]

    def _entrants(self, r: int) -> list[str]:
        if r == 0:
            return [c.name for c in self.couples]
        before = self._advancing(r - 1)
        assert before is not None
        return before

    def settle(self) -> None:
        """Knockout: the next round's encounters once every one of the last is decided."""
        if self.format != "knockout":
            return
        while True:
            last = max(e.round for e in self.encounters)
            through = self._advancing(last)
            if through is None or len(through) < 2:
                return
            self._pair_round(last + 1, through)

    def _pair_round(self, r: int, names: list[str]) -> None:
        for k in range(0, len(names) - 1, 2):
            self.encounters.append(EncounterAt(a=self.couple(names[k]),
                                               b=self.couple(names[k + 1]), round=r))

    def to_dict(self) -> dict[str, Any]:
        encs = [e.encounter() for e in self.encounters]
        points = {(i, n): d for i, e in enumerate(self.encounters)
                  for n, d in e.points().items()}
        return {
            "format": self.format, "length": self.length, "rules": self.rules,
            "clock": self.clock,
            "couples": [{"name": c.name, "players": list(c.players)} for c in self.couples],
            "encounters": [e.to_dict(i) for i, e in enumerate(self.encounters)],
            "standings": [{"place": r.place, "couple": r.couple, "encounters": r.encounters,
                           "matches": r.matches, "points": r.points}
                          for r in standings(encs, points)],
            "champion": self.champion(),
        }


# ------------------------------------------------------------------ the fold

@dataclass(slots=True, kw_only=True)
class Events:
    """The tournament's Swing and couples events."""

    swing: SwingEvent | None = None
    couples: CouplesEvent | None = None

    def busy_tables(self, t: Tournament) -> set[int]:
        busy = set(t.live_tables())
        if self.swing is not None:
            busy |= set(self.swing.live_tables())
        if self.couples is not None:
            busy |= set(self.couples.live_tables())
        return busy

    def apply(self, action: act.Action, t: Tournament) -> dict[str, Any]:
        """Decide a Swing or couples action in place (``EVENT_HANDLERS``)."""
        return EVENT_HANDLERS[type(action)](self, action, t)

    def to_dict(self) -> dict[str, Any]:
        return {"swing": None if self.swing is None else self.swing.to_dict(),
                "couples": None if self.couples is None else self.couples.to_dict()}

    # -------------------------------------------------------------- Swing

    def _swing_create(self, a: act.SwingCreate, t: Tournament) -> dict[str, Any]:
        if self.swing is not None:
            raise IllegalContest("the Swing is already created", "swing_exists")
        if isinstance(a.players, UnsetType):
            names = [p.name for p in t.players if not p.withdrawn]
        else:
            names = _names(t, a.players, "players")
        rules = _text(_or(a.rules, "it-tournament"), "rules", MAX_RULES)
        override: dict[str, int | str] = ({} if isinstance(a.clock_override, UnsetType)
                                          else to_builtins(a.clock_override))
        swing = Swing(names, start_vp=a.start_vp, cpp=a.cpp)
        self.swing = SwingEvent(swing=swing, start_vp=swing.vp[names[0]], rules=rules,
                                clock=_or(a.clock, "required"), clock_override=override,
                                history=[dict(swing.vp)])
        return {"players": names}

    def _swing_round(self, a: act.SwingRound, t: Tournament) -> dict[str, Any]:
        ev = self.swing
        if ev is None:
            raise IllegalContest("there is no Swing: create it first", "no_swing")
        if ev.swing.winner is not None:
            raise IllegalContest(f"the Swing is over: {ev.swing.winner} holds every VP",
                                 "swing_over", {"player": ev.swing.winner})
        if ev.under_way:
            raise IllegalContest("a round is under way: enter its results first",
                                 "swing_round_under_way")
        seed = _int(_or(a.seed, None), "seed", 0, act.MAX_SEED)
        pairs, sitting = ev.swing.pair(random.Random(seed))
        numbers = _numbers(_or(a.tables, None), len(pairs), self.busy_tables(t))
        games = []
        for (x, y), n in zip(pairs, numbers, strict=True):
            stake, all_in = ev.swing.stake(x, y)
            games.append(SwingGameAt(a=x, b=y, table=n, stake=stake, all_in=all_in))
        ev.games, ev.sitting, ev.seed = games, sitting, seed
        ev.before_last, ev.last_games = None, []
        return {"round": ev.swing.round_no, "cpp": ev.swing.cpp, "sitting": sitting,
                "assigned": [{"game": i, "table": g.table, "a": g.a, "b": g.b}
                             for i, g in enumerate(games)]}

    def _swing_result(self, a: act.SwingResult, t: Tournament) -> dict[str, Any]:
        ev = self.swing
        if ev is None or not ev.under_way:
            raise IllegalContest("no Swing round is under way", "no_swing_round")
        i = _int(a.game, "game", 0, len(ev.games) - 1)
        g = ev.games[i]
        if g.winner is not None:
            raise IllegalContest(f"game {i} already has its winner", "game_decided",
                                 {"game": i + 1})
        winner, result, cube = _game_result(a, g)
        source = _or(a.source, "hand")
        g.winner, g.result, g.cube, g.source = winner, result, cube, source
        done: dict[str, Any] = {"game": i, "winner": winner}
        if all(x.winner is not None for x in ev.games):
            before = copy.deepcopy(ev.swing)
            outcome = self._play(ev, ev.games)
            ev.played.append(outcome)
            ev.history.append(dict(ev.swing.vp))
            ev.before_last, ev.last_games = before, ev.games
            ev.games, ev.sitting = [], None
            done["round_played"] = ev.swing.round_no - 1
            done["winner_of_swing"] = ev.swing.winner
        return done

    @staticmethod
    def _play(ev: SwingEvent, games: list[SwingGameAt]) -> list[PlayedGame]:
        outcome = ev.swing.play_round([
            SwingGame(a=x.a, b=x.b, winner=x.winner or "", result=x.result, cube=x.cube)
            for x in games])
        return [PlayedGame(game=replace(x), vp_moved=o.vp_moved)
                for x, o in zip(games, outcome.games, strict=True)]

    def _swing_correct(self, a: act.SwingCorrect, t: Tournament) -> dict[str, Any]:
        """Another result for a game of the round under way, or of the last
        round played while the next is not paired (the round is played again
        from the stacks at its start)."""
        ev = self.swing
        if ev is None:
            raise IllegalContest("there is no Swing", "no_swing")
        replay = not ev.under_way
        games = ev.last_games if replay else ev.games
        if replay and ev.before_last is None:
            raise IllegalContest("only a game of the round under way, or of the last round "
                                 "played before the next is paired, can be corrected",
                                 "game_not_correctable")
        i = _int(a.game, "game", 0, max(len(games) - 1, 0))
        g = games[i]
        if g.winner is None:
            raise IllegalContest(f"game {i} has no result to correct", "game_no_result",
                                 {"game": i + 1})
        reason = _or(a.reason, None)
        if reason is not None:
            _text(reason, "reason", MAX_REASON)
        winner, result, cube = _game_result(a, g)
        old = GameCorrection(winner=g.winner, result=g.result, cube=g.cube, reason=reason)
        g.winner, g.result, g.cube = winner, result, cube
        g.corrected = old
        if replay:
            assert ev.before_last is not None
            ev.swing = copy.deepcopy(ev.before_last)
            ev.played[-1] = self._play(ev, games)
            ev.history[-1] = dict(ev.swing.vp)
        return {"game": i, "winner": winner, "was": old.winner, "replayed": replay}

    # -------------------------------------------------------------- couples

    def _couples_create(self, a: act.CouplesCreate, t: Tournament) -> dict[str, Any]:
        if self.couples is not None:
            raise IllegalContest("the couples event is already created", "couples_exists")
        couples: list[Couple] = []
        for k, c in enumerate(a.couples):
            where = f"couples[{k}]"
            name = _text(c.name, f"{where}.name", act.MAX_PLAYER_NAME)
            players = _names(t, c.players, f"{where}.players")
            couples.append(Couple(name=name, players=(players[0], players[1])))
        every = [n for c in couples for n in (c.name, *c.players)]
        if len(set(every)) != len(every):
            raise InvalidContest("couples: every couple and player must be different")
        fmt = _or(a.format, "round_robin")
        rules = _text(_or(a.rules, "it-tournament"), "rules", MAX_RULES)
        ev = CouplesEvent(couples=couples, format=fmt, length=_or(a.length, 5), rules=rules,
                          clock=_or(a.clock, "required"))
        names = [c.name for c in couples]
        if fmt == "knockout":
            ev._pair_round(0, names)
        else:
            ring: list[str | None] = [*names, *([None] if len(names) % 2 else [])]
            n = len(ring)
            for r in range(n - 1):
                for k in range(n // 2):
                    x, y = ring[k], ring[n - 1 - k]
                    if x is not None and y is not None:
                        ev.encounters.append(EncounterAt(a=ev.couple(x), b=ev.couple(y),
                                                         round=r))
                ring = [ring[0], ring[-1], *ring[1:-1]]
        self.couples = ev
        return {"encounters": len(ev.encounters)}

    def _encounter(self, encounter: int) -> tuple[int, EncounterAt]:
        if self.couples is None:
            raise IllegalContest("there is no couples event: create it first", "no_couples")
        i = _int(encounter, "encounter", 0, max(len(self.couples.encounters) - 1, 0))
        return i, self.couples.encounters[i]

    def _couples_phase(self, a: act.CouplesPhase, t: Tournament) -> dict[str, Any]:
        i, enc = self._encounter(a.encounter)
        more = _or(a.more, False)
        e = enc.encounter()
        phase = next((p for p in range(3) if any((p, m) not in enc.tables
                                                 and (p, m) not in enc.winners
                                                 for m in range(len(e.phases[p])))), None)
        if phase is None:
            raise IllegalContest("every match of this encounter is played or at a table",
                                 "encounter_seated")
        if phase > 0 and not enc.phase_done(phase - 1, e):
            raise IllegalContest(f"phase {phase + 1} cannot start before phase {phase} "
                                 "is complete", "phase_order",
                                 {"phase": phase + 1, "before": phase})
        if e.winner is not None and not more:
            raise IllegalContest(f"the encounter is decided ({e.winner}): the director must "
                                 "ask for the remaining matches (more)", "encounter_decided")
        todo = [m for m in range(len(e.phases[phase]))
                if (phase, m) not in enc.tables and (phase, m) not in enc.winners]
        numbers = _numbers(_or(a.tables, None), len(todo), self.busy_tables(t))
        assigned = []
        for m, n in zip(todo, numbers, strict=True):
            enc.tables[(phase, m)] = n
            x, y = e.phases[phase][m]
            assigned.append({"encounter": i, "phase": phase + 1, "match": m, "table": n,
                             "a": x, "b": y, "teams": phase == 1})
        return {"assigned": assigned}

    def _couples_result(self, a: act.CouplesResult, t: Tournament) -> dict[str, Any]:
        i, enc = self._encounter(a.encounter)
        phase = a.phase - 1
        e = enc.encounter()
        m = _int(a.match, "match", 0, len(e.phases[phase]) - 1)
        key = (phase, m)
        if key in enc.winners:
            raise IllegalContest("this match already has its winner", "already_decided")
        if key not in enc.tables:
            if phase > 0 and not enc.phase_done(phase - 1, e):
                raise IllegalContest(f"phase {phase + 1} cannot start before phase {phase} "
                                     "is complete", "phase_order",
                                     {"phase": phase + 1, "before": phase})
            if e.winner is not None:
                raise IllegalContest("the encounter is decided: the director must ask for "
                                     "the remaining matches", "encounter_decided")
        pair = e.phases[phase][m]
        winner = a.winner
        if winner not in pair:
            raise InvalidContest(f"winner: must be {pair[0]} or {pair[1]}")
        source = _or(a.source, "hand")
        score = None if isinstance(a.score, UnsetType) else list(a.score)
        enc.winners[key] = winner
        enc.sources[key] = source
        if score is not None:
            enc.scores[key] = score
        assert self.couples is not None
        self.couples.settle()
        return {"encounter": i, "winner": winner, "encounter_winner": enc.encounter().winner}

    def _couples_correct(self, a: act.CouplesCorrect, t: Tournament) -> dict[str, Any]:
        """Another winner for a couples match.  In a knockout, while no
        encounter of a later round has a result or a table: those are paired
        again."""
        i, enc = self._encounter(a.encounter)
        phase = a.phase - 1
        e = enc.encounter()
        m = _int(a.match, "match", 0, len(e.phases[phase]) - 1)
        key = (phase, m)
        if key not in enc.winners:
            raise IllegalContest("this match has no result to correct", "nothing_to_correct")
        pair = e.phases[phase][m]
        winner = a.winner
        if winner not in pair:
            raise InvalidContest(f"winner: must be {pair[0]} or {pair[1]}")
        reason = _or(a.reason, None)
        if reason is not None:
            _text(reason, "reason", MAX_REASON)
        score = None if isinstance(a.score, UnsetType) else list(a.score)
        ev = self.couples
        assert ev is not None
        later = [x for x in ev.encounters if x.round > enc.round]
        if ev.format == "knockout" and later:
            if any(x.winners or x.tables for x in later):
                raise IllegalContest("a later round has started: correct its matches first",
                                     "later_round_started")
            ev.encounters = [x for x in ev.encounters if x.round <= enc.round]
        old = enc.winners[key]
        enc.winners[key] = winner
        if score is not None:
            enc.scores[key] = score
        enc.corrections[key] = Correction(was=old, reason=reason)
        ev.settle()
        return {"encounter": i, "winner": winner, "was": old,
                "encounter_winner": enc.encounter().winner}


EventHandler = Callable[[Events, Any, "Tournament"], dict[str, Any]]

#: Each Swing and couples action type's handler: the dispatch table of ``Events.apply``.
EVENT_HANDLERS: Final[dict[type[Any], EventHandler]] = {
    act.SwingCreate: Events._swing_create, act.SwingRound: Events._swing_round,
    act.SwingResult: Events._swing_result, act.SwingCorrect: Events._swing_correct,
    act.CouplesCreate: Events._couples_create, act.CouplesPhase: Events._couples_phase,
    act.CouplesResult: Events._couples_result, act.CouplesCorrect: Events._couples_correct,
}
#: The Swing and couples actions' ``do`` strings.
EVENT_ACTIONS: Final = tuple(kind_of(k) for k in EVENT_HANDLERS)
