"""Standings: the final placings of each event and the prize list (issue 19 §4).

Readings (tournament.md, "Standings"):

- A knockout bracket (the Main, the Progressive Consolation, the Last
  Chance): the winner of the final is 1st; a player's place comes from the
  round they lost in, and everyone who lost in the same round shares the
  places below those who went further: with ``k`` players further on and
  ``n`` losers in that round, the place is ``k+1``-``k+n`` (a range when
  ``n > 1``: 3-4, 5-8, ...).  A first-round bye is no match: the player
  who had one is placed by the match they lost.  In the first round only the
  players really there count (14 players in a bracket of 16: 9-14, not 9-16),
  so the first round's places are decided once late arrivals are closed.
- Swing: the last holder of VP is 1st; the others in the reverse order in
  which they reached 0 VP.  Players who reached 0 in the same round are
  separated by their VP at the start of that round (more VP lasted longer);
  equal VP share the place.
- Couples: the order of ``_couples.standings`` (its tie rules are that
  module's); a row's own ``place`` is used when it carries one, else equal
  (encounters, matches, points) share the place.

A place is given only when it is decided; a player whose place is not known
yet is listed *in play*.

The prize list: the director's prizes (amounts or prizes, as text) per place
and event, set by the ``prizes`` action; printed next to the places (a shared
place lists the prizes of every place it spans).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._draw import Bracket
from ._prizes import STANDING_EVENTS
from ._side import payouts
from .formats import Place

if TYPE_CHECKING:
    from ._running import Tournament


@dataclass(frozen=True, slots=True, kw_only=True)
class Placing:
    """One place of an event: ``first``-``last`` (equal unless shared) and who holds it."""

    first: int
    last: int
    names: tuple[str, ...]
    #: The 0-based round a bracket's players lost in (None: the winner, or not a bracket).
    lost_in: int | None = None

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"

    def to_dict(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last, "label": self.label,
                "names": list(self.names), "lost_in": self.lost_in}


@dataclass(frozen=True, slots=True, kw_only=True)
class EventStandings:
    """An event's placings so far, and the players whose place is not decided."""

    event: str
    placings: tuple[Placing, ...] = ()
    in_play: tuple[str, ...] = ()
    #: The event is over: every place is decided.
    complete: bool = False
    champion: str | None = None

    def place_of(self, name: str) -> Placing | None:
        return next((p for p in self.placings if name in p.names), None)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "complete": self.complete, "champion": self.champion,
                "placings": [p.to_dict() for p in self.placings],
                "in_play": list(self.in_play)}


def bracket_standings(event: str, bracket: Bracket, *, entrants_known: bool = True,
                      only: str | None = None) -> EventStandings:
    """A knockout bracket's placings.  ``entrants_known``: every first-round
    slot's player is known (late arrivals closed); ``only``: the single
    entrant of a bracket without matches (a consolation of one)."""
    if not bracket.rounds:
        if only is None:
            return EventStandings(event=event, complete=True)
        return EventStandings(event=event, placings=(Placing(first=1, last=1, names=(only,)),),
                              complete=True, champion=only)
    players = [x for x in bracket.slots() if x is not None]
    # the round each player lost in (a bye is no match: it is not a loss)
    lost: dict[str, int] = {}
    for r, matches in enumerate(bracket.rounds):
        for m in matches:
            if m.winner is not None and m.a is not None and m.b is not None:
                lost[m.b if m.winner == m.a else m.a] = r
    for m in (m for matches in bracket.rounds for m in matches if m.winner is None):
        for name in (m.a, m.b):  # a re-entry still in play is not out (``_jackpot``)
            lost.pop(name or "", None)
    champion = bracket.champion
    lost.pop(champion or "", None)
    last = len(bracket.rounds) - 1
    placings: list[Placing] = []
    if champion is not None:
        placings.append(Placing(first=1, last=1, names=(champion,)))
    for r in range(last, -1, -1):
        names = tuple(sorted(n for n, lr in lost.items() if lr == r))
        if not names:
            continue
        if r == 0 and not entrants_known:
            continue  # how many share the first round's places is not known yet
        further = len(bracket.rounds[r])  # every match of round r sends one on
        count = len(bracket.rounds[r]) if r > 0 else len(players) - further
        placings.append(Placing(first=further + 1, last=further + count, names=names,
                                lost_in=r))
    placed = {n for p in placings for n in p.names}
    in_play = tuple(sorted({n for n in players if n not in placed}))
    complete = champion is not None and entrants_known and not in_play
    return EventStandings(event=event, placings=tuple(placings), in_play=in_play,
                          complete=complete, champion=champion)


def weekly_standings(places: Sequence[Place], *, complete: bool) -> EventStandings:
    """A weekly format's standings (``formats``: its tie-breaks; equal
    places shared), as the Main's placings: before the last round is over
    they are the standings so far, every player still listed in play."""
    placings: list[Placing] = []
    for p in places:
        if placings and placings[-1].first == p.place:
            last = placings[-1]
            placings[-1] = Placing(first=last.first, last=last.last + 1,
                                   names=(*last.names, p.player))
        else:
            placings.append(Placing(first=p.place, last=p.place, names=(p.player,)))
    champion = placings[0].names[0] if complete and placings and \
        len(placings[0].names) == 1 else None
    return EventStandings(event="main", placings=tuple(placings) if complete else (),
                          in_play=() if complete else tuple(p.player for p in places),
                          complete=complete, champion=champion)


def swing_standings(players: Sequence[str], history: Sequence[Mapping[str, int]],
                    winner: str | None) -> EventStandings:
    """The Swing's placings from every player's VP after each round
    (``history[0]``: the start): the last holder 1st, then by the round a
    player reached 0 VP (later is better), then by VP at that round's start."""
    out_at: dict[str, tuple[int, int]] = {}
    for k in range(1, len(history)):
        before, after = history[k - 1], history[k]
        for name in players:
            if before.get(name, 0) > 0 and after.get(name, 0) == 0:
                out_at[name] = (k, before[name])
    placings: list[Placing] = []
    ranked = sorted(out_at.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    # the places above the eliminated: the winner's, or every player in play
    first = len(players) - len(out_at) + 1
    if winner is not None:
        placings.append(Placing(first=1, last=1, names=(winner,)))
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][1] == ranked[i][1]:
            j += 1
        names = tuple(n for n, _ in ranked[i:j])
        placings.append(Placing(first=first, last=first + len(names) - 1, names=names,
                                lost_in=ranked[i][1][0] - 1))
        first += len(names)
        i = j
    in_play = tuple(n for n in players if n not in out_at and n != winner)
    return EventStandings(event="swing", placings=tuple(placings), in_play=in_play,
                          complete=winner is not None, champion=winner)


def couples_standings(rows: Sequence[Mapping[str, Any]], *, complete: bool,
                      champion: str | None = None) -> EventStandings:
    """The couples' placings from their standings rows, best first
    (``CouplesEvent.to_dict()["standings"]``: couple, encounters, matches,
    points, and a ``place`` when the rows carry one); in play until
    ``complete``."""
    if not complete:
        return EventStandings(event="couples", in_play=tuple(str(r["couple"]) for r in rows))
    groups: list[tuple[Any, list[str]]] = []
    for row in rows:
        if "place" in row:
            tie: Any = ("place", row["place"])
        else:
            tie = (row.get("encounters"), row.get("matches"), row.get("points"))
        if groups and groups[-1][0] == tie:
            groups[-1][1].append(str(row["couple"]))
        else:
            groups.append((tie, [str(row["couple"])]))
    placings: list[Placing] = []
    at = 1
    for _, names in groups:
        placings.append(Placing(first=at, last=at + len(names) - 1, names=tuple(names)))
        at += len(names)
    top = placings[0].names[0] if placings and len(placings[0].names) == 1 else None
    return EventStandings(event="couples", placings=tuple(placings), complete=True,
                          champion=champion or top)


@dataclass(slots=True, kw_only=True)
class Standings:
    """Every event's standings, and the prize list."""

    events: list[EventStandings] = field(default_factory=list)
    prizes: dict[str, list[str]] = field(default_factory=dict)
    #: The side pools with their payouts (``_side.payouts``).
    side_pools: list[dict[str, Any]] = field(default_factory=list)

    def event(self, name: str) -> EventStandings | None:
        return next((e for e in self.events if e.event == name), None)

    def prizes_for(self, event: str, placing: Placing) -> list[str]:
        """The prizes of every place ``placing`` spans (a shared place pools them)."""
        listed = self.prizes.get(event, [])
        return [p for p in listed[placing.first - 1:placing.last] if p]

    def to_dict(self) -> dict[str, Any]:
        events = []
        for e in self.events:
            d = e.to_dict()
            for p, row in zip(e.placings, d["placings"], strict=True):
                row["prizes"] = self.prizes_for(e.event, p)
            events.append(d)
        return {"events": events, "prizes": {k: list(v) for k, v in self.prizes.items()},
                "side_pools": [dict(p) for p in self.side_pools]}


def standings(t: Tournament, *, last_chance: Bracket | None = None) -> Standings:
    """The tournament's standings: the Main and its consolation (once drawn),
    the Last Chance (the tournament's once drawn, or the one given), the
    Swing and the couples."""
    out = Standings(prizes={k: list(v) for k, v in t.prizes.items()})
    if t.weekly is not None:
        out.events.append(weekly_standings(t.weekly.standings(),
                                           complete=t.weekly.finished(t.withdrawn)))
    if t.double is not None:  # the double elimination's own order (section 6)
        out.events.append(weekly_standings(t.double.standings(),
                                           complete=t.double.champion is not None))
    elif t.main is not None:
        out.events.append(bracket_standings("main", t.main.bracket,
                                            entrants_known=not t.main.late_open))
    if t.consolation is not None:
        out.events.append(bracket_standings("consolation", t.consolation.bracket,
                                            only=t.consolation.only))
    if last_chance is None and t.last_chance is not None:
        last_chance = t.last_chance.bracket
        if not last_chance.rounds:
            out.events.append(bracket_standings("last_chance", last_chance,
                                                only=t.last_chance.only))
            last_chance = None
    if last_chance is not None:
        out.events.append(bracket_standings("last_chance", last_chance))
    swing = t.events.swing
    if swing is not None:
        out.events.append(swing_standings(swing.swing.players, swing.history,
                                          swing.swing.winner))
    couples = t.events.couples
    if couples is not None:
        d = couples.to_dict()
        done = bool(couples.encounters) and all(
            e.encounter().winner is not None for e in couples.encounters)
        if couples.format == "knockout":
            done = couples.champion() is not None
        out.events.append(couples_standings(d["standings"], complete=done,
                                            champion=d.get("champion")))
    out.side_pools = [payouts(pool, out.event(pool.event)) for pool in t.side_pools.values()]
    return out


def seats(t: Tournament) -> list[dict[str, Any]]:
    """"Where do I play?": every match at a table now, of every event: event,
    round (0-based), table, the two players (a Swing game's, a couples
    match's: players, or couples in the consultation phase)."""
    out: list[dict[str, Any]] = []
    for table, (event, r, i) in t.live_tables().items():
        m = t.bracket(event).rounds[r][i]
        out.append({"event": event, "round": r, "table": table, "a": m.a, "b": m.b,
                    "winner": None})
    swing = t.events.swing
    if swing is not None:
        for g in swing.games:
            if g.winner is None:
                out.append({"event": "swing", "round": swing.swing.round_no - 1,
                            "table": g.table, "a": g.a, "b": g.b, "winner": None})
    couples = t.events.couples
    if couples is not None:
        for e in couples.encounters:
            enc = e.encounter()
            for (phase, k), at in e.tables.items():
                if (phase, k) not in e.winners:
                    x, y = enc.phases[phase][k]
                    out.append({"event": "couples", "round": e.round, "table": at,
                                "a": x, "b": y, "winner": None})
    out.sort(key=lambda x: x["table"])
    return out


def player_results(t: Tournament) -> list[dict[str, Any]]:
    """Every player's matches, in order: event, round (1-based), opponent,
    result (won/lost/bye), score from the player's side, source."""
    rows: list[dict[str, Any]] = []
    brackets = {"main": t.weekly or t.main, "consolation": t.consolation,
                "last_chance": t.last_chance}
    drawn_brackets: dict[str, Bracket] = {e: d.bracket for e, d in brackets.items()
                                          if d is not None}
    if t.double is not None:
        drawn_brackets.update((e, t.double.bracket(e)) for e in ("losers", "final"))
    for event, bracket in drawn_brackets.items():
        for r, matches in enumerate(bracket.rounds):
            for i, m in enumerate(matches):
                if m.winner is None:
                    continue
                detail = t.results.get((event, r, i))
                for me, other in ((m.a, m.b), (m.b, m.a)):
                    if me is None:
                        continue
                    held = None if detail is None else detail.score
                    score = None if held is None else list(held)
                    if score is not None and me == m.b:
                        score = [score[1], score[0]]
                    rows.append({
                        "player": me, "event": event, "round": r + 1, "match": i + 1,
                        "table": t.tables.get((event, r, i)), "opponent": other,
                        "result": "bye" if other is None else
                        ("won" if m.winner == me else "lost"),
                        "score": score,
                        "source": detail.source if other and detail is not None else None,
                    })
    swing = t.events.swing
    if swing is not None:
        for r, games in enumerate(swing.played):
            for played in games:
                g = played.game
                for me, other in ((g.a, g.b), (g.b, g.a)):
                    rows.append({"player": me, "event": "swing", "round": r + 1, "match": None,
                                 "table": g.table, "opponent": other,
                                 "result": "won" if g.winner == me else "lost",
                                 "score": None, "source": g.source})
    couples = t.events.couples
    if couples is not None:
        for e in couples.encounters:
            enc = e.encounter()
            for (phase, k), winner in sorted(e.winners.items()):
                x, y = enc.phases[phase][k]
                for me, other in ((x, y), (y, x)):
                    score = e.scores.get((phase, k))
                    if score is not None and me == y:
                        score = [score[1], score[0]]
                    rows.append({"player": me, "event": "couples", "round": e.round + 1,
                                 "match": phase + 1, "table": e.tables.get((phase, k)),
                                 "opponent": other,
                                 "result": "won" if winner == me else "lost",
                                 "score": score, "source": e.sources.get((phase, k))})
    order = [*STANDING_EVENTS, "losers", "final"]
    rows.sort(key=lambda row: (row["player"], order.index(row["event"]),
                               row["round"], row["match"] or 0))
    return rows
