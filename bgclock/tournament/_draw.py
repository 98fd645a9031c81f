"""The draw: the Main and its Progressive Consolation (tournament.md section 4),
with seeds, groups kept apart and a Last Chance (the spec's ``bgclock draw``).

"The board of the Main will be drawn randomly. Byes of the Progressive
Consolation will be drawn if possible first among players without a bye in
the Main. On the tournament board, late arrivals will be assigned in
numerical order: the tournament director will decide how many late arrivals
to keep available and how long."

Theory of operation
-------------------
A bracket of size S (a power of 2) has S first-round slots; match i of round 1
is slots 2i and 2i+1, and match i of round r+1 takes the winners of matches
2i and 2i+1 of round r.  The draw places the *non-players* first: one per
first-round match at most, spread by halving — at every node of the bracket
the two halves get counts differing by at most one, for the non-players as a
whole and for the byes among them (so the late-arrival slots are spread too).
Then the registered players fill the other slots in a random order.  All
randomness comes from one ``random.Random`` passed in: the same seed gives the
same draw.

Seeding and separation (issue 23) take a second path, used only when the
director gives seeds or groups (so the draws without them stay as they were).
``_layout`` walks the bracket from the root: at every node the seeds it holds
are split pairwise by rank (1 and 2 to opposite halves, 3 and 4, 5 and 6,
...), which puts seeds 1..2^j in 2^j different sub-brackets of size S/2^j,
and the node's non-players and byes are split so the halves differ by at most
one, the extra going where it keeps every half able to hold its seeds and,
where possible, gives the top seeds byes.  Only seeds 1..S/2 are laid out
so (one match each); seeds past half the bracket can only face them, and are
drawn with the other players.  ``_separate`` then fills the free slots,
keeping apart the members of one group whenever the slots left allow it (the
condition is Hall's, per group; see the function); with groups, a seed layout
that leaves a group too few slots is drawn again (``LAYOUT_TRIES``).  Late
arrivals are never seeded; they have no group unless the mapping gives one.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from ._errors import IllegalContest, InvalidContest

MAX_PLAYERS: Final = 4096

#: What a first-round slot holds before names are known.
BYE: Final = "bye"
LATE: Final = "late"


def bracket_size(n: int) -> int:
    """The smallest power of 2 holding ``n`` entries (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def spread(rng: random.Random, matches: int, non_players: int, byes: int) -> list[str | None]:
    """Which first-round matches get a non-player, and which of those are
    byes: a list over matches of BYE, LATE or None, halves differing by at
    most one at every level for both counts."""
    if not 0 <= byes <= non_players <= matches:
        raise ValueError("cannot spread more non-players than matches")
    if matches == 1:
        if non_players == 0:
            return [None]
        return [BYE if byes else LATE]
    half = matches // 2
    e_hi, e_lo = (non_players + 1) // 2, non_players // 2
    b_hi, b_lo = (byes + 1) // 2, byes // 2
    if non_players % 2 == 0 and byes % 2 == 1 and rng.random() < 0.5:
        # equal halves of non-players: the extra bye may go either way
        left = spread(rng, half, e_lo, b_lo)
        right = spread(rng, half, e_hi, b_hi)
        return left + right
    first_gets_extra = rng.random() < 0.5
    big = spread(rng, half, e_hi, b_hi)
    small = spread(rng, half, e_lo, b_lo)
    return big + small if first_gets_extra else small + big


#: ``_layout``'s slot codes: a seed is its 0-based rank (>= 0).
FREE: Final = -1
BYE_SLOT: Final = -2
LATE_SLOT: Final = -3


def _layout(rng: random.Random, width: int, non_players: int, byes: int,
            seeds: list[int], top: int) -> list[int]:
    """The first-round slots of a sub-bracket of ``width`` slots: seed ranks
    (0-based), FREE, BYE_SLOT or LATE_SLOT.

    ``seeds`` are the ranks this sub-bracket holds, ascending; the ranks below
    ``top`` should get a bye where the spread allows it.  Capacity holds at
    every node: ``len(seeds) + non_players <= width`` and ``non_players <=
    width // 2`` (at most one non-player per match)."""
    if width == 2:
        pair: list[int]
        if non_players:
            pair = [seeds[0] if seeds else FREE, BYE_SLOT if byes else LATE_SLOT]
        else:
            pair = (seeds + [FREE, FREE])[:2]
        if rng.random() < 0.5:
            pair.reverse()
        return pair
    half, half_matches = width // 2, width // 4
    pairs = [(seeds[i], seeds[i + 1]) for i in range(0, len(seeds) - 1, 2)]
    odd = seeds[-1] if len(seeds) % 2 else None
    flips = [rng.random() < 0.5 for _ in pairs]
    # the one pair with a top seed and a seed below the top is the only pair
    # whose orientation changes what the halves need; the odd seed's side too
    straddle = next((i for i, (x, y) in enumerate(pairs) if x < top <= y), None)
    e_hi, e_lo = (non_players + 1) // 2, non_players // 2
    b_hi, b_lo = (byes + 1) // 2, byes // 2
    best: list[tuple[list[int], list[int], int, int, int, int]] = []
    best_score = -1
    for s_bit, o_bit in [(s_bit, o_bit)
                         for s_bit in ((False, True) if straddle is not None else (False,))
                         for o_bit in ((False, True) if odd is not None else (False,))]:
        left = [y if (s_bit if i == straddle else flips[i]) else x
                for i, (x, y) in enumerate(pairs)]
        right = [x if (s_bit if i == straddle else flips[i]) else y
                 for i, (x, y) in enumerate(pairs)]
        if odd is not None:
            (right if o_bit else left).append(odd)
        for e_left, e_right in {(e_hi, e_lo), (e_lo, e_hi)}:
            for b_left, b_right in {(b_hi, b_lo), (b_lo, b_hi)}:
                if (b_left > e_left or b_right > e_right or e_left > half_matches
                        or e_right > half_matches or len(left) + e_left > half
                        or len(right) + e_right > half):
                    continue
                t_left = sum(1 for x in left if x < top)
                t_right = sum(1 for x in right if x < top)
                score = (t_left <= b_left) + (t_right <= b_right)
                option = (sorted(left), sorted(right), e_left, b_left, e_right, b_right)
                if score > best_score:
                    best, best_score = [option], score
                elif score == best_score:
                    best.append(option)
    best.sort()  # the sets above have no order of their own: make the choice reproducible
    left, right, e_left, b_left, e_right, b_right = best[rng.randrange(len(best))]
    return (_layout(rng, half, e_left, b_left, left, top)
            + _layout(rng, half, e_right, b_right, right, top))


#: How many seed layouts the draw tries before it gives up keeping every
#: group apart (each try is a valid seeding; most draws need one).
LAYOUT_TRIES: Final = 40


def _misfit(codes: list[int], seeds: list[str], unseeded: list[str],
            group_of: Mapping[str, Hashable]) -> int:
    """How far a seed layout is from letting ``_separate`` keep every group
    apart: per group, the players more than the slots it may take (see
    ``_separate``).  The seeds laid out are at most one per match."""
    misfit = 0
    singles = pairs = 0
    facing: dict[Hashable, int] = {}
    for i in range(0, len(codes), 2):
        a, b = codes[i], codes[i + 1]
        if a == FREE and b == FREE:
            pairs += 1
        elif FREE in (a, b):
            other = b if a == FREE else a
            g = group_of.get(seeds[other]) if other >= 0 else None
            if g is None:
                singles += 1
            else:
                facing[g] = facing.get(g, 0) + 1
    counts: dict[Hashable, int] = {}
    for name in unseeded:
        g = group_of.get(name)
        if g is not None:
            counts[g] = counts.get(g, 0) + 1
    halves = sum(facing.values())
    for g, c in counts.items():
        misfit += max(0, c - (singles + halves - facing.get(g, 0) + pairs))
    return misfit


def _separate(rng: random.Random, slots: list[str | None], free: list[int],
              unseeded: list[str], group_of: Mapping[str, Hashable]) -> None:
    """Fill the ``free`` positions of ``slots`` with the ``unseeded`` players so
    that no first-round match pairs two players of one group whenever the
    slots allow it.

    A free slot is *single* (its match has a bye or a late slot), *half*
    (facing a seed: any group but the seed's) or one of a *free pair* (two
    free slots: two different groups).  Group g's players fit iff
    ``c_g <= U + (H - H_g) + P`` (U singles, H half slots of which H_g face g,
    P free pairs): it is Hall's condition, and only single groups matter,
    since any two groups together may use every slot.  The fill keeps that
    condition true at every step: free pairs first (the at most two *tight*
    groups, those at the bound, must give a player to each pair), then the
    half slots (a tight group gives a player or is the seed's group), then the
    singles; every other choice is at random.  Where the condition fails from
    the start, the same steps pair the fewest they can see and the caller
    reports the pairs."""
    def key(name: str) -> Hashable:
        g = group_of.get(name)
        return ("player", name) if g is None else ("group", g)

    players: dict[Hashable, list[str]] = {}
    for name in unseeded:
        players.setdefault(key(name), []).append(name)
    singles: list[int] = []
    halves: dict[Hashable, list[int]] = {}
    pairs: list[tuple[int, int]] = []
    free_set = set(free)
    for p in free:
        mate = p ^ 1
        if mate in free_set:
            if p < mate:
                pairs.append((p, mate))
        elif slots[mate] is None:
            singles.append(p)
        else:
            halves.setdefault(key(slots[mate] or ""), []).append(p)
    for names in players.values():
        rng.shuffle(names)
    for positions in halves.values():
        rng.shuffle(positions)
    rng.shuffle(pairs)
    rng.shuffle(singles)

    def count(k: Hashable) -> int:
        return len(players.get(k, ()))

    def pressure(k: Hashable) -> int:
        return count(k) + len(halves.get(k, ()))

    # groups by pressure (players left + half slots left facing it), so
    # that the tight ones are found without a scan: pressures only fall
    buckets: dict[int, dict[Hashable, None]] = {}
    for k in {**players, **halves}:
        buckets.setdefault(pressure(k), {})[k] = None
    top = [max(buckets, default=0)]

    def lower(k: Hashable) -> None:
        """``k``'s pressure has just fallen by one."""
        p = pressure(k)
        del buckets[p + 1][k]
        buckets.setdefault(p, {})[k] = None

    def tight(bound: int) -> list[Hashable]:
        while top[0] > 0 and not buckets.get(top[0]):
            top[0] -= 1
        return [k for p in range(top[0], max(bound, 1) - 1, -1)
                for k in buckets.get(p, {})]

    pool = [name for names in players.values() for name in names]
    where = {name: i for i, name in enumerate(pool)}

    def take(k: Hashable) -> str:
        name = players[k].pop()
        i = where.pop(name)
        last = pool.pop()
        if i < len(pool):
            pool[i], where[last] = last, i
        lower(k)
        return name

    def pick(exclude: Hashable | None) -> Hashable | None:
        """A random remaining player's group (each player equally likely),
        not ``exclude``."""
        for _ in range(8):
            if not pool:
                return None
            k = key(pool[rng.randrange(len(pool))])
            if k != exclude:
                return k
        keys = [k for k in players if players[k] and k != exclude]
        if not keys:
            return None
        return rng.choices(keys, weights=[len(players[k]) for k in keys])[0]

    n_halves = sum(len(v) for v in halves.values())
    total = len(singles) + n_halves + 2 * len(pairs)
    while pairs:
        bound = total - len(pairs)
        forced = [k for k in tight(bound) if count(k)]
        first = forced[0] if forced else pick(None)
        second = forced[1] if len(forced) > 1 else pick(first)
        if first is None:
            break
        if second is None:  # every player left is of one group
            second = first
        a, b = pairs.pop()
        slots[a], slots[b] = take(first), take(second)
        total -= 2
    while n_halves:
        forced = tight(total)
        choice: tuple[Hashable, Hashable] | None = None
        if forced:
            x = forced[0]
            if len(forced) > 1:
                y = forced[1]
                options = [(g, h) for g, h in ((x, y), (y, x)) if count(g) and halves.get(h)]
            else:
                options = []
                if count(x):
                    h = _pick_half(rng, halves, x)
                    if h is not None:
                        options.append((x, h))
                if halves.get(x):
                    g = pick(x)
                    if g is not None:
                        options.append((g, x))
            if options:
                choice = options[rng.randrange(len(options))]
        if choice is None:
            h = _pick_half(rng, halves, None)
            assert h is not None
            g = pick(h)
            choice = (g if g is not None else h, h)
        g, h = choice
        slots[halves[h].pop()] = take(g)
        lower(h)
        n_halves -= 1
        total -= 1
    rest = [name for names in players.values() for name in names]
    rng.shuffle(rest)
    for p in singles:
        slots[p] = rest.pop()


def _pick_half(rng: random.Random, halves: dict[Hashable, list[int]],
               exclude: Hashable | None) -> Hashable | None:
    """A random remaining half slot's class (each slot equally likely), not
    ``exclude``."""
    keys = [k for k in halves if halves[k] and k != exclude]
    if not keys:
        return None
    return rng.choices(keys, weights=[len(halves[k]) for k in keys])[0]


@dataclass(slots=True, kw_only=True)
class Match:
    """One match of a bracket: ``a``/``b`` are names, or None for a bye (or a
    slot not yet known); ``winner`` once decided."""

    a: str | None = None
    b: str | None = None
    winner: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"a": self.a, "b": self.b, "winner": self.winner}


@dataclass(slots=True, kw_only=True)
class Bracket:
    """A single-elimination bracket: rounds of matches in bracket order."""

    size: int
    rounds: list[list[Match]] = field(default_factory=list)

    @classmethod
    def empty(cls, size: int) -> Bracket:
        rounds = []
        n = size // 2
        while n >= 1:
            rounds.append([Match() for _ in range(n)])
            n //= 2
        return cls(size=size, rounds=rounds)

    def slots(self) -> list[str | None]:
        return [x for m in self.rounds[0] for x in (m.a, m.b)] if self.rounds else []

    def advance_byes(self) -> None:
        """A bye moves its player on at once."""
        for i, m in enumerate(self.rounds[0] if self.rounds else []):
            if m.winner is None and (m.a is None) != (m.b is None):
                self.set_winner(0, i, m.a or m.b)

    def set_winner(self, round_index: int, match_index: int, winner: str | None) -> None:
        m = self.rounds[round_index][match_index]
        if winner is None or winner not in (m.a, m.b):
            raise IllegalContest(f"winner: must be {m.a} or {m.b}")
        if m.winner is not None:
            raise IllegalContest("this match already has its winner")
        m.winner = winner
        self._move_on(round_index, match_index, winner)

    def _move_on(self, round_index: int, match_index: int, winner: str | None) -> None:
        """The winner of a match takes its slot in the next round's match
        (None: nobody yet, a result undone)."""
        if round_index + 1 < len(self.rounds):
            nxt = self.rounds[round_index + 1][match_index // 2]
            if match_index % 2 == 0:
                nxt.a = winner
            else:
                nxt.b = winner

    def had_bye(self, name: str) -> bool:
        """Whether ``name`` sat in a first-round match with a bye."""
        m = next((m for m in self.rounds[0] if name in (m.a, m.b)), None) if self.rounds \
            else None
        return m is not None and (m.a is None or m.b is None)

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def to_dict(self) -> dict[str, object]:
        return {"size": self.size,
                "rounds": [[m.to_dict() for m in r] for r in self.rounds]}


class MainDraw:
    """The Main: N registered players and K late-arrival slots."""

    def __init__(self, players: Sequence[str], *, late_slots: int,
                 rng: random.Random, seeds: Sequence[str] = (),
                 groups: Mapping[str, Hashable] | None = None) -> None:
        """Draw the Main.  ``seeds``: seeded players, best first (seed 1 ...);
        ``groups``: player → group (club, family, ...) whose members should
        not meet in the first round; it may name late arrivals too.  Without
        seeds and groups the draw is the one it always was for the seed."""
        names = list(players)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise InvalidContest(f"players: from 1 to {MAX_PLAYERS}")
        if len(set(names)) != len(names):
            raise InvalidContest("players: names must be different")
        if not isinstance(late_slots, int) or late_slots < 0:
            raise InvalidContest("late: must be a whole number >= 0")
        size = bracket_size(len(names) + late_slots)
        if len(names) * 2 < size:
            raise InvalidContest(
                f"late: {late_slots} late-arrival slots leave {len(names)} registered "
                f"players less than half of a bracket of {size}: a bye or a late slot "
                "would face another")
        self.bracket = Bracket.empty(size)
        self.seeds = _check_seeds(seeds, names)
        self.groups: dict[str, Hashable] = _check_groups(groups)
        self.late_positions: list[int] = []
        self.bye_positions: list[int] = []
        if self.seeds or groups is not None:
            self._draw_seeded(rng, names, size - len(names), size - len(names) - late_slots)
        else:
            self._draw_plain(rng, names, late_slots)
        #: The first-round matches of one group the draw could not avoid.
        self.unavoidable: list[tuple[str, str]] = self.same_group_matches()
        self.arrivals: list[str] = []
        self.late_open = late_slots > 0
        if not self.late_open:
            self.bracket.advance_byes()

    def _draw_plain(self, rng: random.Random, names: list[str], late_slots: int) -> None:
        """The draw without seeds or groups (unchanged since issue 12)."""
        size = self.bracket.size
        kinds = spread(rng, size // 2, size - len(names), size - len(names) - late_slots)
        order = names[:]
        rng.shuffle(order)
        slots: list[str | None] = []
        for i, kind in enumerate(kinds):
            pair: list[str | None]
            if kind is None:
                pair = [order.pop(), order.pop()]
            else:
                pair = [order.pop(), None]
                if rng.random() < 0.5:
                    pair.reverse()
                empty = 2 * i + pair.index(None)
                (self.late_positions if kind == LATE else self.bye_positions).append(empty)
            slots.extend(pair)
        self._seat(slots)

    def _draw_seeded(self, rng: random.Random, names: list[str], non_players: int,
                     byes: int) -> None:
        """Seeds at their seeding positions, byes and late slots spread, the
        top seeds given the byes where the spread allows, the other players
        drawn at random and kept apart by group where the slots allow."""
        size = self.bracket.size
        # seeds 1..S/2 take one match each; seeds past half the bracket can
        # only face them (or a non-player): they are drawn with the others
        placed = self.seeds[:size // 2]
        seeded = set(placed)
        unseeded = [n for n in names if n not in seeded]
        ranks = list(range(len(placed)))
        top = min(byes, len(placed))
        codes = _layout(rng, size, non_players, byes, ranks, top)
        if self.groups and self.seeds:
            # the seeds' layout decides which groups the other players may
            # face: try others (each a valid seeding) until the groups fit
            best, least = codes, _misfit(codes, placed, unseeded, self.groups)
            for _ in range(LAYOUT_TRIES - 1):
                if not least:
                    break
                codes = _layout(rng, size, non_players, byes, ranks, top)
                misfit = _misfit(codes, placed, unseeded, self.groups)
                if misfit < least:
                    best, least = codes, misfit
            codes = best
        slots: list[str | None] = [placed[c] if c >= 0 else None for c in codes]
        free = [p for p, c in enumerate(codes) if c == FREE]
        if self.groups:
            _separate(rng, slots, free, unseeded, self.groups)
        else:
            rng.shuffle(unseeded)
            for p in free:
                slots[p] = unseeded.pop()
        self.late_positions = [p for p, c in enumerate(codes) if c == LATE_SLOT]
        self.bye_positions = [p for p, c in enumerate(codes) if c == BYE_SLOT]
        self._seat(slots)

    def _seat(self, slots: list[str | None]) -> None:
        for i, m in enumerate(self.bracket.rounds[0]):
            m.a, m.b = slots[2 * i], slots[2 * i + 1]

    def same_group_matches(self) -> list[tuple[str, str]]:
        """First-round matches whose two players share a group, in bracket
        order (late arrivals count once they have a slot and a group)."""
        out: list[tuple[str, str]] = []
        for m in self.bracket.rounds[0]:
            if m.a is not None and m.b is not None:
                ga, gb = self.groups.get(m.a), self.groups.get(m.b)
                if ga is not None and ga == gb:
                    out.append((m.a, m.b))
        return out

    @property
    def size(self) -> int:
        return self.bracket.size

    def arrive(self, name: str, *, again: bool = False) -> int:
        """A late arrival takes the next late slot in numerical order; its
        0-based first-round position.  ``again``: a player knocked out
        re-enters (``_reentry``): the name is in the draw once more."""
        if not self.late_open:
            raise IllegalContest("late arrivals are closed")
        if not again and (name in self.bracket.slots() or name in self.arrivals):
            raise InvalidContest(f"{name} is already in the draw")
        n = len(self.arrivals)
        if n >= len(self.late_positions):
            raise IllegalContest("every late-arrival slot is taken")
        position = self.late_positions[n]
        m = self.bracket.rounds[0][position // 2]
        if position % 2 == 0:
            m.a = name
        else:
            m.b = name
        self.arrivals.append(name)
        return position

    def close_late(self) -> None:
        """The late slots left become byes; their players move on."""
        self.late_open = False
        self.bracket.advance_byes()

    def had_bye(self, name: str) -> bool:
        return self.bracket.had_bye(name)


class _Drawn(Protocol):
    """A drawn bracket (the Main or a consolation)."""

    @property
    def bracket(self) -> Bracket: ...

    def had_bye(self, name: str) -> bool: ...


def _check_seeds(seeds: Sequence[str], names: list[str]) -> list[str]:
    if isinstance(seeds, str) or not isinstance(seeds, Sequence):
        raise InvalidContest("seeds: must be a list of player names, best first")
    out = list(seeds)
    if len(out) > len(names):
        raise InvalidContest(f"seeds: {len(out)} seeds for {len(names)} players")
    known = set(names)
    for name in out:
        if name not in known:
            raise InvalidContest(f"seeds: {name!r} is not a registered player")
    if len(set(out)) != len(out):
        raise InvalidContest("seeds: a player is seeded twice")
    return out


def _check_groups(groups: Mapping[str, Hashable] | None) -> dict[str, Hashable]:
    if groups is None:
        return {}
    if not isinstance(groups, Mapping):
        raise InvalidContest("groups: must map player names to groups")
    if len(groups) > 2 * MAX_PLAYERS:
        raise InvalidContest(f"groups: at most {2 * MAX_PLAYERS} names")
    out: dict[str, Hashable] = {}
    for name, group in groups.items():
        if not isinstance(name, str) or not name:
            raise InvalidContest("groups: every key must be a player's name")
        if group is not None and (isinstance(group, bool)
                                  or not isinstance(group, (int, str))):
            raise InvalidContest(f"groups: {name}'s group must be a number or a name")
        if group is not None:
            out[name] = group
    return out


def first_match_losers(main: _Drawn) -> list[str] | None:
    """The next bracket's entrants: every player whose first *played* match
    in ``main`` (the Main, or the consolation for the Last Chance) is a loss;
    None while one of them is not known yet."""
    rounds = main.bracket.rounds
    losers: list[str] = []
    first_played: dict[str, tuple[int, Match]] = {}
    for r, matches in enumerate(rounds):
        for m in matches:
            if m.a is None or m.b is None:
                if r > 0:
                    return None  # a slot of a later round is not known yet
                continue
            for name in (m.a, m.b):
                first_played.setdefault(name, (r, m))
    players = [x for x in main.bracket.slots() if x is not None]
    for name in players:
        if name not in first_played:
            if main.bracket.champion == name:
                continue
            return None
        _, m = first_played[name]
        if m.winner is None:
            return None
        if m.winner != name:
            losers.append(name)
    return losers


class ConsolationDraw:
    """The Progressive Consolation of the Main's first-match losers: its
    byes go first to entrants who had no bye in the Main.  The Last Chance is
    one too, drawn from the consolation (``main`` is then the consolation)."""

    def __init__(self, main: _Drawn, entrants: Sequence[str], rng: random.Random) -> None:
        names = list(entrants)
        size = bracket_size(len(names)) if len(names) > 1 else 1
        self.bracket = Bracket.empty(size) if size > 1 else Bracket(size=size, rounds=[])
        if size == 1:
            self.bracket.rounds = []
            self.only = names[0] if names else None
            return
        self.only = None
        byes = size - len(names)
        kinds = spread(rng, size // 2, byes, byes)
        without = [n for n in names if not main.had_bye(n)]
        with_bye = [n for n in names if main.had_bye(n)]
        rng.shuffle(without)
        rng.shuffle(with_bye)
        first_in_line = without + with_bye  # the byes go to these first
        bye_takers = first_in_line[:byes]
        rest = first_in_line[byes:]
        rng.shuffle(rest)
        for i, kind in enumerate(kinds):
            m = self.bracket.rounds[0][i]
            if kind is None:
                m.a, m.b = rest.pop(), rest.pop()
            else:
                pair = [bye_takers.pop(), None]
                if rng.random() < 0.5:
                    pair.reverse()
                m.a, m.b = pair
        self.bracket.advance_byes()

    def had_bye(self, name: str) -> bool:
        return self.bracket.had_bye(name)


def _play(bracket: Bracket, rng: random.Random) -> None:
    """Every match left gets a winner drawn from ``rng``, round by round."""
    for r, matches in enumerate(bracket.rounds):
        for i, m in enumerate(matches):
            if m.winner is None:
                bracket.set_winner(r, i, rng.choice([m.a, m.b]))


def simulate(players: int, *, seed: int, late: int = 0, arrivals: int = 0,
             consolation: bool = False, seeds: int = 0, groups: int | None = None,
             last_chance: bool = False) -> dict[str, object]:
    """``bgclock draw simulate``: draw a Main for P1..PN with ``late`` slots,
    fill ``arrivals`` of them with L1..LJ, close late arrivals, and play every
    match with a winner drawn from the seed (tournament.md, bgclock draw).

    ``seeds`` K makes P1..PK seeds 1..K; ``groups`` G puts Pi in group
    (i - 1) mod G; ``last_chance`` (with ``consolation``) draws and plays the
    Last Chance once the consolation is played.  Without them the output is
    the one it always was for the seed."""
    if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise InvalidContest(f"players: must be a whole number from 1 to {MAX_PLAYERS}")
    if not isinstance(late, int) or not 0 <= late <= MAX_PLAYERS:
        raise InvalidContest(f"late: must be a whole number from 0 to {MAX_PLAYERS}")
    if not isinstance(arrivals, int) or not 0 <= arrivals <= late:
        raise InvalidContest("arrivals: must be a whole number from 0 to --late")
    if not isinstance(seeds, int) or isinstance(seeds, bool) or not 0 <= seeds <= players:
        raise InvalidContest(f"seeds: --seeds must be a whole number from 0 to --players "
                             f"({players})")
    if groups is not None and (not isinstance(groups, int) or isinstance(groups, bool)
                               or not 1 <= groups <= MAX_PLAYERS):
        raise InvalidContest(f"groups: --groups must be a whole number from 1 to {MAX_PLAYERS}")
    if last_chance and not consolation:
        raise InvalidContest("last-chance: --last-chance needs --consolation (the Last Chance "
                             "is drawn from the consolation)")
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(1, players + 1)]
    group_of = None if groups is None else {n: i % groups for i, n in enumerate(names)}
    main = MainDraw(names, late_slots=late, rng=rng, seeds=names[:seeds], groups=group_of)
    late_slots = list(main.late_positions)
    for j in range(1, arrivals + 1):
        main.arrive(f"L{j}")
    main.close_late()
    cons: ConsolationDraw | None = None
    rounds = main.bracket.rounds
    for r, matches in enumerate(rounds):
        for i, m in enumerate(matches):
            if m.winner is None:
                main.bracket.set_winner(r, i, rng.choice([m.a, m.b]))
        if consolation and cons is None:
            entrants = first_match_losers(main)
            if entrants is not None:
                cons = ConsolationDraw(main, entrants, rng)
    out: dict[str, object] = {"main": {"size": main.size, "late_slots": late_slots,
                                       "rounds": main.bracket.to_dict()["rounds"]}}
    if group_of is not None:
        out["groups"] = group_of
    if consolation:
        if cons is None:  # only when nobody played a match (a single player)
            cons = ConsolationDraw(main, [], rng)
        _play(cons.bracket, rng)
        out["consolation"] = cons.bracket.to_dict()
        if last_chance:
            # drawn once the consolation is played, so that the Main and the
            # consolation are the same draws with or without it
            lc_entrants = first_match_losers(cons)
            assert lc_entrants is not None  # every consolation match is decided
            last = ConsolationDraw(cons, lc_entrants, rng)
            _play(last.bracket, rng)
            out["last_chance"] = last.bracket.to_dict()
    return out
