"""What anyone sees: a public tournament's page and a player's own page.

A tournament the director made public (``set_public``) has a page anyone
may open without a key (``/p/{id}``, its data at ``/p/{id}.json``, pushed at
``/p/{id}.stream``; ``routes/public.py``).  Its JSON is built here, and only
here, field by field from the director's state: each part lists the keys it
keeps (``PUBLIC_KEYS`` and friends, or the room's lists it shares), so a
field added to the director's state never reaches the public by accident.

What is never on it: the director's key, a table's token or link, the room
token, a sheet PIN, a player's federation id or register entry, a device's
name, a correction's reason, the committee's votes and hearing notes (no
appeal at all: the committee's work stays in the room), the draw's seed.
``tests/server/render/test_public.py`` checks the exact key sets, and
``tests/server/routes/test_public.py`` crawls every public page for the
secrets of a tournament that holds all of them.

A player's page (``/p/{id}/player/{player_id}``) is a selection of the
public view (``player_view``): nothing reaches it that the public page
does not show.

Pure functions over the state's dictionaries (no server, no clock).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bgclock.server.render.room import (
    BRACKET_MATCH_KEYS,
    CLOCK_KEYS,
    events_view,
    late_entry,
    match_entry,
    pick,
)

#: Top-level keys of ``/p/{id}.json``.
PUBLIC_KEYS = ("tournament", "url", "server_ms", "brackets", "matches", "pairings", "results",
               "standings", "late", "players", "events")
#: The tournament itself.
TOURNAMENT_KEYS = ("id", "name", "closed")
#: The brackets (every knockout the desk runs: the Main, its consolation, the Last Chance).
BRACKETS = ("main", "consolation", "last_chance")
#: A bracket's own keys (its size; its late slots are the director's).
PUBLIC_BRACKET_KEYS = ("size",)
#: A match at a table now ("where do I play?").
PAIRING_KEYS = ("event", "round", "table", "a", "b")
#: A player's result (``tournament.player_results``): not its source's details.
PLAYER_RESULT_KEYS = ("player", "event", "round", "match", "table", "opponent", "result",
                      "score")
#: An event's standings, and a placing with its prizes.
STANDINGS_KEYS = ("event", "complete", "champion")
PLACING_KEYS = ("first", "last", "label", "names", "prizes")
#: A match at its table (with its live clock and result) and a late arrival
#: (with its count: the penalty points and the score) keep the room's keys
#: (``render.room``: ``MATCH_KEYS``, ``CLOCK_KEYS``, ``RESULT_KEYS``,
#: ``LATE_KEYS``, ``LATE_COUNT_KEYS``).
#: A registered player (no federation id, no register entry).
PLAYER_KEYS = ("id", "name", "withdrawn")

#: ``/p/{id}/player/{player_id}.json``.
PLAYER_PAGE_KEYS = ("tournament", "url", "server_ms", "player", "next", "match", "results",
                    "late", "prizes")


def public_path(tournament_id: int, club: str | None = None) -> str:
    """The public page's path (its data: the same path ending in ``.json``);
    ``club``: the name a venue publishes under (``/p/{club}/{id}``, the same
    path on the venue and on the hosted server it publishes to)."""
    return f"/p/{club}/{int(tournament_id)}" if club else f"/p/{int(tournament_id)}"


def player_path(tournament_id: int, player_id: int) -> str:
    """A player's own page's path (its data: the same path ending in ``.json``)."""
    return f"{public_path(tournament_id)}/player/{int(player_id)}"


def _bracket(event: str, bracket: Mapping[str, Any]) -> dict[str, Any]:
    return {"event": event, **pick(bracket, PUBLIC_BRACKET_KEYS),
            "rounds": [[pick(m, BRACKET_MATCH_KEYS) for m in r] for r in bracket["rounds"]]}


def _standing(event: Mapping[str, Any]) -> dict[str, Any]:
    return {**pick(event, STANDINGS_KEYS),
            "placings": [pick(p, PLACING_KEYS) for p in event.get("placings", [])]}


def public_view(*, tournament_id: int, name: str, closed: bool, state: Mapping[str, Any],
                standings: Mapping[str, Any], results: Iterable[Mapping[str, Any]],
                seats: Iterable[Mapping[str, Any]], clocks: Mapping[int, Mapping[str, Any]],
                late: Iterable[Mapping[str, Any]], server_ms: int,
                club: str | None = None) -> dict[str, Any]:
    """``/p/{id}.json``: the brackets, every match at its table (with the live
    clock of ``clocks[i]`` for the ``i``-th of ``state["matches"]``), the
    pairings now, every player's results, the standings with prizes, the
    late arrivals' counts, the players by name, the Swing and couples.

    ``state`` is ``Tournament.to_dict()``; ``standings`` the standings'
    ``to_dict()`` (with prizes); ``results`` ``player_results``; ``seats``
    the matches at tables now (``tournament.seats``); ``club``: its path's
    club (``public_path``)."""
    events = events_view(state, server_ms=server_ms)
    return {
        "tournament": pick({"id": tournament_id, "name": name, "closed": closed},
                           TOURNAMENT_KEYS),
        "url": public_path(tournament_id, club),
        "server_ms": server_ms,
        "brackets": [_bracket(e, state[e]) for e in BRACKETS if state.get(e) is not None],
        "matches": [match_entry(m, clocks.get(i)) for i, m in enumerate(state.get("matches", []))],
        "pairings": [pick(s, PAIRING_KEYS) for s in seats],
        "results": [pick(r, PLAYER_RESULT_KEYS) for r in results],
        "standings": [_standing(e) for e in standings.get("events", [])],
        "late": [late_entry(x) for x in late],
        "players": [pick(p, PLAYER_KEYS) for p in state.get("players", [])],
        "events": {"swing": events["swing"], "couples": events["couples"]},
    }


def _next(public: Mapping[str, Any], me: str) -> dict[str, Any] | None:
    """The player's match at a table now, else their match still to be
    played in a bracket (its opponent, once known), else None."""
    for s in public["pairings"]:
        if me in (s["a"], s["b"]):
            return {"event": s["event"], "round": s["round"], "table": s["table"],
                    "opponent": s["b"] if s["a"] == me else s["a"]}
    for bracket in public["brackets"]:
        for r, matches in enumerate(bracket["rounds"]):
            for m in matches:
                if m["winner"] is None and me in (m["a"], m["b"]):
                    return {"event": bracket["event"], "round": r, "table": None,
                            "opponent": m["b"] if m["a"] == me else m["a"]}
    return None


def player_view(public: Mapping[str, Any], player_id: int) -> dict[str, Any] | None:
    """``/p/{id}/player/{player_id}.json``, a selection of the public view:
    the player's next table and opponent (and that match's live clock),
    results so far, late arrivals with their penalty points, and prizes.
    None: no such player."""
    player = next((p for p in public["players"] if p["id"] == player_id), None)
    if player is None:
        return None
    me = player["name"]
    following = _next(public, me)
    match = None
    if following is not None and following["table"] is not None:
        match = next((m for m in public["matches"]
                      if m["table"] == following["table"] and m["winner"] is None
                      and me in (m["a"], m["b"])), None)
    prizes = [{"event": e["event"], "label": p["label"], "prizes": p.get("prizes", [])}
              for e in public["standings"] for p in e["placings"] if me in p["names"]]
    return {
        "tournament": public["tournament"],
        "url": f"{public['url']}/player/{int(player_id)}",
        "server_ms": public["server_ms"],
        "player": player,
        "next": following,
        "match": match,
        "results": [r for r in public["results"] if r["player"] == me],
        "late": [x for x in public["late"] if me in x.get("absent", ())],
        "prizes": prizes,
    }


# ------------------------------------------------- what a venue publishes of its tables

#: What a venue publishes of its live tables beside its tournament's actions
#: (``tournaments.publisher``): each running match's clock, named by the
#: match (its event, round and number, as both folds know it), and the late
#: arrivals with their counts, at the venue's ``server_ms``.
LIVE_KEYS = ("clocks", "late", "server_ms")
#: A published clock: the match it is of, and the room's clock keys.
MATCH_NAME_KEYS = ("event", "round", "match")


def live_view(*, state: Mapping[str, Any], clocks: Mapping[int, Mapping[str, Any]],
              late: Iterable[Mapping[str, Any]], server_ms: int) -> dict[str, Any]:
    """The venue's side: the live part of the public page, as published
    (the public fields only: ``CLOCK_KEYS``, the late arrivals' keys)."""
    matches = state.get("matches", [])
    return {"clocks": [{**pick(matches[i], MATCH_NAME_KEYS), **pick(c, CLOCK_KEYS)}
                       for i, c in sorted(clocks.items())],
            "late": [late_entry(x) for x in late],
            "server_ms": server_ms}


def live_clocks(state: Mapping[str, Any], live: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """The hosted side: the published clocks, by the index of their match
    in its own fold's ``state["matches"]`` (a match already decided there
    shows no clock)."""
    named = {tuple(c.get(k) for k in MATCH_NAME_KEYS): c for c in live.get("clocks", [])
             if isinstance(c, dict)}
    out: dict[int, dict[str, Any]] = {}
    for i, m in enumerate(state.get("matches", [])):
        found = named.get(tuple(m.get(k) for k in MATCH_NAME_KEYS))
        if found is not None and m.get("winner") is None:
            out[i] = pick(found, CLOCK_KEYS)
    return out
