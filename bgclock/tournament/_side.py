"""Side pools (jackpots) of an event: entry, pot, split per place (issue 23 §5).

Reading (tournament.md, "Side pools"): a side pool is money the players who
join it put in beside an event (the Main, the consolation, the Last Chance,
the Swing, the couples): each pays ``entry`` (in cents: money is an integer
like time), the pot is ``entry`` times the members, and it is split by the
members' order *in that event*: the best placed member takes ``split[0]``
per cent of the pot, the next ``split[1]``, and so on.  Members who share a
place in the event share the pool places they span (their per cents added,
then divided equally).  Every cent is paid: a share's odd cents go one each
to the members sharing it in name order, and the cents the per cents leave
over go to the pool's 1st.  A pool place is paid once it is decided: a
member's pool place is 1 + the members still in play + the members placed
better.  A member who is not in the event (never drawn into it) takes no
place and is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from ._errors import IllegalContest, InvalidContest

MAX_POOLS: Final = 32
MAX_POOL_NAME: Final = 60
#: 100 000.00 in cents: an entry above that is a typing slip.
MAX_ENTRY_CENTS: Final = 10_000_000
MAX_SPLIT: Final = 64
_CONTROL = re.compile("[\x00-\x1f\x7f]")


class _Place(Protocol):
    @property
    def names(self) -> tuple[str, ...]: ...


class EventStandings(Protocol):
    """What a pool's payouts read of an event's standings
    (``_standings.EventStandings``, whose module imports this one)."""

    @property
    def placings(self) -> Sequence[_Place]: ...

    @property
    def in_play(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SidePool:
    """One side pool: its name, event, entry (cents), members (names, in the
    order given) and split (per cent per place, 1st first, adding to 100)."""

    name: str
    event: str
    entry: int
    members: tuple[str, ...]
    split: tuple[int, ...]

    @property
    def pot(self) -> int:
        return self.entry * len(self.members)

    def to_dict(self) -> dict[str, Any]:
        return {"pool": self.name, "event": self.event, "entry": self.entry,
                "members": list(self.members), "split": list(self.split), "pot": self.pot}


def parse_pool(name: str, players: Sequence[int], event: str | None, entry: int | None,
               split: Sequence[int] | None, events: Sequence[str],
               names: Sequence[str]) -> SidePool | str:
    """The ``side_pool`` action (``actions.SidePool``, its bounds checked)
    against the tournament: the pool, or its name alone when ``players`` is
    empty (the pool is removed).  ``names[i]`` is player ``i + 1``'s name.
    Errors name the field."""
    if (not isinstance(name, str) or not name.strip() or len(name) > MAX_POOL_NAME
            or _CONTROL.search(name)):
        raise InvalidContest(f"pool: must be a text of 1 to {MAX_POOL_NAME} characters")
    name = name.strip()
    if len(players) > len(names):
        raise InvalidContest("players: must be a list of registered player ids (empty: remove "
                             "the pool)")
    if not players:
        return name
    if event not in events:
        raise InvalidContest(f"event: must be one of {', '.join(events)}")
    if (not isinstance(entry, int) or isinstance(entry, bool)
            or not 0 <= entry <= MAX_ENTRY_CENTS):
        raise InvalidContest(f"entry: must be a whole number of cents from 0 to "
                             f"{MAX_ENTRY_CENTS}")
    members: list[str] = []
    for k, pid in enumerate(players):
        if not isinstance(pid, int) or isinstance(pid, bool) or not 1 <= pid <= len(names):
            raise InvalidContest(f"players[{k}]: no player {pid!r}")
        if names[pid - 1] in members:
            raise InvalidContest(f"players[{k}]: player {pid} is listed twice")
        members.append(names[pid - 1])
    if len(members) < 2:
        raise InvalidContest("players: a pool needs 2 or more players")
    if split is None or not 1 <= len(split) <= min(MAX_SPLIT, len(members)):
        raise InvalidContest(f"split: must be a list of 1 to {min(MAX_SPLIT, len(members))} "
                             "per cents (one per paid place, 1st first)")
    for k, pct in enumerate(split):
        if not isinstance(pct, int) or isinstance(pct, bool) or not 0 <= pct <= 100:
            raise InvalidContest(f"split[{k}]: must be a whole per cent from 0 to 100")
    if sum(split) != 100:
        raise InvalidContest(f"split: the per cents must add to 100 (they add to {sum(split)})")
    return SidePool(name=name, event=str(event), entry=entry, members=tuple(members),
                    split=tuple(split))


def set_pool(pools: dict[str, SidePool], name: str, players: Sequence[int],
             event: str | None, entry: int | None, split: Sequence[int] | None,
             events: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
    """The ``side_pool`` action: adds or replaces the pool of that name
    (``players`` empty: removes it)."""
    pool = parse_pool(name, players, event, entry, split, events, names)
    if isinstance(pool, str):
        if pool not in pools:
            raise IllegalContest(f"pool: there is no side pool {pool}", "no_pool",
                                 {"pool": pool})
        del pools[pool]
        return {"pool": pool, "removed": True}
    if pool.name not in pools and len(pools) >= MAX_POOLS:
        raise IllegalContest(f"at most {MAX_POOLS} side pools", "too_many_pools",
                             {"n": MAX_POOLS})
    pools[pool.name] = pool
    return {"pool": pool.name, "pot": pool.pot}


def payouts(pool: SidePool, standings: EventStandings | None) -> dict[str, Any]:
    """The pool with each member's pool place and payout (cents) where
    decided: ``{"pool", "event", "entry", "members", "split", "pot",
    "places": [{"label", "names", "cents": [...]}], "in_play": [...],
    "complete"}``."""
    out = pool.to_dict()
    members = set(pool.members)
    if standings is None:
        out.update(places=[], in_play=sorted(members, key=str.casefold), complete=False)
        return out
    in_play = [n for n in standings.in_play if n in members]
    rank = 1 + len(in_play)
    places: list[dict[str, Any]] = []
    for p in standings.placings:
        here = sorted((n for n in p.names if n in members), key=str.casefold)
        if not here:
            continue
        places.append({"first": rank, "last": rank + len(here) - 1, "names": here})
        rank += len(here)
    pot = pool.pot
    leftover = pot - sum(pot * pct // 100 for pct in pool.split)
    for place in places:
        first, last, names = place["first"], place["last"], place["names"]
        share = sum(pot * pct // 100 for pct in pool.split[first - 1:last])
        if first == 1:
            share += leftover
        each, odd = divmod(share, len(names))
        place["cents"] = [each + (1 if k < odd else 0) for k in range(len(names))]
        place["label"] = str(first) if first == last else f"{first}–{last}"
    out.update(places=places, in_play=in_play, complete=not in_play and bool(places))
    return out
