"""The hosted side of publishing: the tournaments venues publish here,
folded from the same actions, served as the same public pages.

Theory of operation
-------------------
A venue's bgclock (``bgclock serve --publish-to URL``, ``tournaments.publisher``)
sends its public tournaments' actions, numbered ``n`` as it stored them,
with the live tables' public fields of the moment (``render.public.live_view``),
as the ``publisher`` NAME its key makes it (``edge.principal``).  Each is
kept here by (NAME, the venue's tournament id) in the store's ``published``
tables, folded by the same pure ``Tournament`` as at the venue, and served
at ``/p/{NAME}/{id}`` (the venue's own ``public_url`` path) by the same
projection (``render.public.public_view``).

Taking a publication is idempotent: actions this server holds already
(``n`` at or below the last kept) are skipped, so a venue that resends after
a lost answer doubles nothing; a gap (an action missing before the first
sent) is refused with the last ``n`` kept, from which the venue resends.
Each action is decided by the fold before it is stored (one refused, by a
venue whose bgclock folds differently, stores nothing of its batch); the
batch and the live part are stored in one transaction.

A publication's page is up while its fold is public: the venue's
``set_public`` false, published like any action, takes it down here too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Final

from bgclock.server.live.roomfeed import RoomFeed
from bgclock.server.live.time import ServerClock
from bgclock.server.render.public import live_clocks, public_view
from bgclock.store import OutOfOrder, Publication, Store
from bgclock.tournament import ContestError, Tournament, final_standings, player_results, seats

#: A long batch gives the event loop back after this many actions.
SLICE: Final = 128


class ActionRefused(Exception):
    """The fold refused the published action ``n`` (``error`` says why):
    nothing of its batch was kept."""

    def __init__(self, n: int, error: ContestError) -> None:
        super().__init__(f"action {n}: {error}")
        self.n, self.error = n, error


class PublishedHub:
    """One published tournament: its row, its actions and their fold."""

    def __init__(self, club: str, tournament_id: int, row: Publication | None,
                 log: list[dict[str, Any]]) -> None:
        self.club = club
        self.tournament_id = tournament_id
        self.row = row
        self.log = log
        self.state = Tournament.fold(log)
        self.lock = asyncio.Lock()

    @property
    def n(self) -> int:
        """The actions kept (the last one's ``n``)."""
        return len(self.log)

    def rebuild(self) -> None:
        """The state folded again from the kept actions (after a batch that
        was refused midway or could not be stored)."""
        self.state = Tournament.fold(self.log)


class Published:
    """Every publication this server has folded so far, and their pages' push."""

    def __init__(self, store: Store, clock: ServerClock) -> None:
        self.store = store
        self.clock = clock
        self.hubs: dict[tuple[str, int], PublishedHub] = {}
        self._by_id: dict[int, PublishedHub] = {}
        self._loading = asyncio.Lock()
        #: The published pages' streams, by the publication's id.
        self.feed = RoomFeed(self._body, event="public")

    async def get(self, club: str, tournament_id: int, *,
                  create: bool = False) -> PublishedHub | None:
        """The publication, folded from the store the first time; None if
        there is none (with ``create``: a new, empty one)."""
        key = (club, tournament_id)
        hub = self.hubs.get(key)
        if hub is not None:
            return hub
        async with self._loading:
            hub = self.hubs.get(key)
            if hub is None:
                row = await self.store.publication(club, tournament_id)
                if row is None and not create:
                    return None
                log = await self.store.published_actions(row.id) if row is not None else []
                hub = PublishedHub(club, tournament_id, row, log)
                self.hubs[key] = hub
                if row is not None:
                    self._by_id[row.id] = hub
        return hub

    async def status(self, club: str) -> list[dict[str, Any]]:
        """What ``club`` has published here: each tournament, its last ``n``
        and whether it is closed."""
        return [{"tournament": p.tournament_id, "n": p.n, "closed": p.closed}
                for p in await self.store.publications(club)]

    async def take(self, club: str, body: Mapping[str, Any]) -> int:
        """A venue's batch (``PublishBody``'s fields): its new actions decided
        and stored with its live part; the last ``n`` kept.  ``OutOfOrder``
        (a gap: nothing kept), ``ActionRefused`` (an action the fold refuses:
        nothing kept)."""
        tid = int(body["tournament"])
        hub = await self.get(club, tid, create=True)
        assert hub is not None
        async with hub.lock:
            first = int(body["first"])
            if first > hub.n + 1:
                raise OutOfOrder(f"actions from {first}: {hub.n} are kept", hub.n)
            fresh = [dict(a) for a in body["actions"][hub.n + 1 - first:]]
            try:
                for k, action in enumerate(fresh):
                    if k and k % SLICE == 0:
                        await asyncio.sleep(0)
                    try:
                        hub.state.apply(dict(action))
                    except ContestError as exc:
                        raise ActionRefused(hub.n + 1 + k, exc) from None
                row = await self.store.publish(
                    club=club, tournament_id=tid, name=str(body["name"]),
                    closed=bool(body["closed"]), first=hub.n + 1, actions=fresh,
                    live=body["live"], now_ms=self.clock.now_ms())
            except OutOfOrder:
                # the store holds more than this fold (a write that landed after
                # its deadline): folded afresh from the store at the next ask
                self.hubs.pop((club, tid), None)
                raise
            except BaseException:
                if fresh:
                    hub.rebuild()
                raise
            hub.log.extend(fresh)
            hub.row = row
            self._by_id[row.id] = hub
        if not hub.state.public:
            self.feed.end(row.id)  # taken down at the venue: its open streams end
        else:
            self.feed.changed(row.id)
        return hub.n

    def view(self, hub: PublishedHub) -> dict[str, Any] | None:
        """The publication's public view (``/p/{club}/{id}.json``), or None
        while it is not public."""
        row = hub.row
        if row is None or not hub.state.public:
            return None
        state = hub.state.to_dict()
        live = row.live
        server_ms = live.get("server_ms")
        return public_view(tournament_id=hub.tournament_id, name=row.name, closed=row.closed,
                           state=state, standings=final_standings(hub.state).to_dict(),
                           results=player_results(hub.state), seats=seats(hub.state),
                           clocks=live_clocks(state, live),
                           late=[x for x in live.get("late", []) if isinstance(x, dict)],
                           server_ms=server_ms if isinstance(server_ms, int)
                           else row.updated_ms, club=hub.club)

    async def _body(self, publication_id: int) -> dict[str, Any] | None:
        hub = self._by_id.get(publication_id)
        return None if hub is None else self.view(hub)
