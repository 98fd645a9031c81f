"""Every tournament action declared once (issue 18 §1, ``tournament/actions.py``):
each kind round-trips through its Struct and the store's bytes, its bounds
refuse with the field named, the fold's dispatch table has a handler for
every kind, and folding a log action by action is folding it at once."""

from __future__ import annotations

import random
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import ContestError, InvalidContest, Tournament
from bgclock.tournament import actions as act
from bgclock.tournament._events import EVENT_HANDLERS
from bgclock.tournament._running import HANDLERS, SETTLING
from bgclock.tournament.actions import (
    ACTION_TYPES,
    KINDS,
    decode_action,
    encode_action,
    kind_of,
)
from tests._server_kit import anyio_backend, live
from tests.test_tournament_inplace import _random_action

__all__ = ["anyio_backend", "live"]

MIN = 60_000


def _stored(action: dict[str, Any]) -> bytes:
    """An action as the store writes it (``StoredAction.body``)."""
    return msgspec.json.encode(action, order="sorted")


class _Log:
    """A tournament played through its actions, each one decided as it is
    logged (what the server stores: only accepted actions)."""

    def __init__(self) -> None:
        self.state = Tournament()
        self.log: list[dict[str, Any]] = []

    def do(self, **action: Any) -> dict[str, Any]:
        done = self.state.apply(action)
        self.log.append(action)
        return done

    def pid(self, name: str | None) -> int:
        assert name is not None
        player = self.state.by_name(name)
        assert player is not None
        return player.id


def _evening() -> _Log:
    """A whole evening: every kind of action at least once, as the routes and
    the server write them (settings, players, the draw, late arrivals at the
    draw and at a match, results from the clock and by hand, sheets, the
    committee and an appeal, a clash, corrections and undos, prizes, a side
    pool, a Swing and a couples event)."""
    t = _Log()
    t.do(do="settings", rounds=[{"length": 5, "rules": "it-tournament", "clock": "required"},
                                {"length": 7}], late_slots=1, seed=11, last_chance=True)
    for k in range(1, 13):
        extra: dict[str, Any] = {}
        if k == 1:
            extra = {"federation_id": "FIBA-1", "register_id": 77}
        elif k == 2:
            extra = {"federation_id": None}
        t.do(do="register", name=f"P{k}", **extra)
    t.do(do="register", name="Late")                                     # 13
    t.do(do="register", name="Entered by mistake")                       # 14
    t.do(do="delete_entry", player=14)                                   # issue 32 §3
    t.do(do="flight", room="Sala  Roma", precedence=2, tables=40)         # issue 23 §1
    for k in range(1, 13):
        t.do(do="check_in", player=k)
    t.do(do="check_in", player=12, checked_in=False)
    t.do(do="check_in", player=12, checked_in=True)
    t.do(do="withdraw", player=12)
    t.do(do="reinstate", player=12)
    t.do(do="settings", seeds=[1, 2], groups=[[3, 4]])
    t.do(do="committee", members=[1, 2, 3])
    t.do(do="draw", seed=11)
    t.do(do="arrive", player=13, at_ms=1_000)
    t.do(do="close_late")
    t.do(do="start_round", round=0)
    t.do(do="bind_table", table=1, table_id=101)
    main = t.state.bracket("main")
    ready = [i for i, m in enumerate(main.rounds[0]) if m.a and m.b]
    assert len(ready) >= 5, ready
    first, second, third, fourth, *rest = ready

    def players(i: int) -> tuple[str, str]:
        m = main.rounds[0][i]
        assert m.a is not None and m.b is not None
        return m.a, m.b

    # a late player at a match: marked absent, arrives, the director's sheet
    a, b = players(first)
    t.do(do="absent", event="main", round=0, match=first, player=t.pid(a), from_ms=20 * MIN,
         at_ms=0, clock=False)
    t.do(do="arrive", player=t.pid(a), at_ms=26 * MIN)
    t.do(do="sheet", event="main", round=0, match=first, winner=b, by="director",
         score=[1, 5], via="director")
    # too late: disqualified by the server's count
    a, b = players(second)
    t.do(do="disqualify", event="main", round=0, match=second, player=t.pid(a), reason="late",
         score=[0, 5])
    # by hand, corrected, the correction undone, then a clash with the clock's
    a, b = players(third)
    t.do(do="result", round=0, match=third, winner=a, event="main", score=[5, 3],
         source="hand")
    t.do(do="correct", round=0, match=third, winner=b, event="main", score=[3, 5],
         reason="the sheet was misread")
    t.do(do="revert", round=0, match=third, event="main")
    t.do(do="clash", table=1, table_id=101, match="Main R1 M1", players=[a, b],
         held={"winner": a, "score": [5, 3], "source": "hand"},
         clock={"winner": b, "score": None}, at_ms=1_700_000_000_000)
    t.do(do="dismiss_clash", clash=1, reason="the hand result stands")
    # two players' sheets that agree
    a, b = players(fourth)
    t.do(do="sheet", event="main", round=0, match=fourth, by="A", winner=a, score=[5, 2],
         games=[[2, 0], [2, 2], [5, 2]], via="player")
    t.do(do="sheet", event="main", round=0, match=fourth, by="B", winner=a, score=[5, 2],
         via="table")
    # an appeal at a match still on
    a, b = players(rest[0])
    committee = {f"P{k}" for k in (1, 2, 3)}
    playing = committee & {a, b}
    free = [p.id for p in t.state.players
            if p.name not in committee | {a, b} and not p.withdrawn]
    appealed = t.do(do="appeal", round=0, match=rest[0], by=t.pid(a), ruling="a die cocked",
                    event="main", substitutes=free[:len(playing)], at_ms=30 * MIN)
    votes = {str(pid): "uphold" for pid in appealed["panel"]}
    t.do(do="decide", appeal=appealed["appeal"], votes={**votes, "director": "overturn"},
         hearing="both players heard")
    # a break run over, its penalty; then only one player's sheet: the presumption
    t.do(do="break_start", event="main", round=0, match=rest[0], player=t.pid(a),
         at_ms=31 * MIN)
    t.do(do="break_end", event="main", round=0, match=rest[0], at_ms=43 * MIN)
    t.do(do="break_penalty", event="main", round=0, match=rest[0], player=t.pid(a), number=1,
         points=1, score=[1, 2], at_ms=44 * MIN)
    t.do(do="sheet", event="main", round=0, match=rest[0], by="B", winner=b, score=[2, 5],
         via="player")
    t.do(do="presume", event="main", round=0, match=rest[0], by="B")
    for i in rest[1:]:
        a, _ = players(i)
        t.do(do="result", event="main", round=0, match=i, winner=a, source="clock",
             score=[5, 1])
    t.do(do="prizes", event="main", prizes=["100 €", "50 €", ""])
    t.do(do="set_public", public=True)
    t.do(do="side_pool", pool="Jackpot", players=[1, 2, 3, 4], event="main", entry=500,
         split=[70, 30])
    # the Swing, off the clocks
    t.do(do="swing_create", players=[5, 6, 7, 8, 9], start_vp=10, cpp=[1, 2, 3],
         rules="it-tournament", clock="none", clock_override={"reserve_ms": 600_000})
    t.do(do="swing_round", seed=3)
    swing = t.state.events.swing
    assert swing is not None
    for g, game in enumerate(list(swing.games)):
        t.do(do="swing_result", game=g, winner=game.a, result="gammon", cube=2, source="hand")
    t.do(do="swing_correct", game=0, winner=swing.last_games[0].b, result="single",
         reason="a single, not a gammon")
    t.do(do="swing_round", seed=4, tables=[40, 41])
    # the couples, a knockout
    t.do(do="couples_create", couples=[{"name": "Uno", "players": [5, 6]},
                                       {"name": "Due", "players": [7, 8]}],
         format="knockout", length=3, rules="it-tournament", clock="required")
    t.do(do="couples_phase", encounter=0)
    couples = t.state.events.couples
    assert couples is not None
    enc = couples.encounters[0].encounter()
    for m, (x, _y) in enumerate(enc.phases[0]):
        t.do(do="couples_result", encounter=0, phase=1, match=m, winner=x, source="clock",
             score=[3, 1])
    t.do(do="couples_correct", encounter=0, phase=1, match=0, winner=enc.phases[0][0][1],
         score=[1, 3], reason="the clock's slip")
    t.do(do="couples_phase", encounter=0, tables=[50])
    # the entries ledger (issue 36)
    t.do(do="money", currency="EUR", fee=2000, return_pct="90", added=500, shares="",
         table=[[1, "100"], [8, "60,40"]], unit=100, points=True, division="open")
    t.do(do="payment", player=1, cents=2000, method="note", note="bonifico")
    t.do(do="reentry", player=2)
    t.do(do="payment", player=2, cents=4000)
    t.do(do="refund", player=2, cents=2000, note="una reiscrizione annullata")
    return t


def _weekly_evening() -> _Log:
    """A Swiss of five at the desk: its first round paired when it starts
    (``pair_round``, issue 35), the kind the Main's evening cannot hold."""
    t = _Log()
    t.do(do="settings", format="swiss", swiss_rounds=2)
    for i in range(1, 6):
        t.do(do="register", name=f"S{i}")
        t.do(do="check_in", player=i)
    t.do(do="draw", seed=5)
    t.do(**t.state.next_pairing(9))
    t.do(do="start_round", round=0)
    return t


def _reentry_evening() -> _Log:
    """A knockout with a late slot and a re-entry deadline: a player out
    re-enters (``reenter``, issue 35 §3)."""
    t = _Log()
    t.do(do="settings", late_slots=1, reentry_until_ms=1_000)
    for i in range(1, 6):
        t.do(do="register", name=f"R{i}")
        t.do(do="check_in", player=i)
    t.do(do="draw", seed=5)
    main = t.state.bracket("main").rounds[0]
    i, m = next((i, m) for i, m in enumerate(main) if m.a and m.b)
    t.do(do="result", round=0, match=i, winner=m.a)
    loser = t.state.by_name(m.b or "")
    assert loser is not None
    t.do(do="reenter", player=loser.id, at_ms=500)
    return t


EVENING = _evening()
WEEKLY = _weekly_evening()
REENTRY = _reentry_evening()


# ------------------------------------------------------------ round trips

def test_the_evening_holds_every_kind_of_action() -> None:
    assert {a["do"] for a in EVENING.log + WEEKLY.log + REENTRY.log} == set(KINDS)


@pytest.mark.parametrize("action", EVENING.log + WEEKLY.log + REENTRY.log,
                         ids=lambda a: str(a["do"]))
def test_an_action_round_trips_and_its_stored_bytes_do_not_change(
        action: dict[str, Any]) -> None:
    decoded = decode_action(action)
    assert kind_of(type(decoded)) == action["do"]
    assert encode_action(decoded) == action
    assert _stored(encode_action(decoded)) == _stored(action)
    # from the stored bytes, the same Struct; encoded, the same bytes
    again = decode_action(_stored(action))
    assert again == decoded
    assert msgspec.json.encode(again, order="sorted") == _stored(action)


def test_the_stored_log_folds_from_its_bytes_to_the_state_it_was_decided_into() -> None:
    stored = [_stored(a) for a in EVENING.log]
    from_bytes = Tournament.fold([decode_action(b) for b in stored])
    assert from_bytes.to_dict() == EVENING.state.to_dict()
    assert Tournament.fold(EVENING.log).to_dict() == EVENING.state.to_dict()


def test_an_action_decoded_is_a_frozen_struct_that_leaves_out_what_it_was_not_given() -> None:
    a = decode_action({"do": "result", "round": 0, "match": 1, "winner": "Ann"})
    assert isinstance(a, act.Result)
    assert a.source is msgspec.UNSET and a.event is msgspec.UNSET
    assert encode_action(a) == {"do": "result", "round": 0, "match": 1, "winner": "Ann"}
    with pytest.raises(AttributeError):
        a.winner = "Bob"  # type: ignore[misc]


# ------------------------------------------------------------ bounds

COUPLES = [{"name": "Uno", "players": [1, 2]}, {"name": "Due", "players": [3, 4]}]

BOUNDS = [
    ({"do": "settings", "late_slots": act.MAX_LATE_SLOTS + 1}, "late_slots"),
    ({"do": "settings", "seed": act.MAX_SEED + 1}, "seed"),
    ({"do": "settings", "seed": -1}, "seed"),
    ({"do": "settings", "rounds": [{"length": act.MAX_MATCH_LENGTH + 1}]}, "rounds[0].length"),
    ({"do": "settings", "rounds": [{}] * (act.MAX_ROUND_SETTINGS + 1)}, "rounds"),
    ({"do": "settings", "rounds": [{"length": 5}, {"clock": "sometimes"}]}, "rounds[1].clock"),
    ({"do": "settings", "last_chance": 1}, "last_chance"),
    ({"do": "settings", "seeds": [act.MAX_REGISTERED + 1]}, "seeds[0]"),
    ({"do": "settings", "groups": [[1]]}, "groups[0]"),
    ({"do": "register", "name": "x" * (act.MAX_PLAYER_NAME + 1)}, "name"),
    ({"do": "register", "name": "a\x00b"}, "name"),
    ({"do": "register", "name": ""}, "name"),
    ({"do": "register", "name": "x", "federation_id": "9" * (act.MAX_FEDERATION_ID + 1)},
     "federation_id"),
    ({"do": "register", "name": "x", "register_id": 0}, "register_id"),
    ({"do": "register", "name": "x", "club": "Roma"}, "club"),
    ({"do": "check_in", "player": 0}, "player"),
    ({"do": "check_in", "player": 1, "checked_in": "yes"}, "checked_in"),
    ({"do": "withdraw"}, "player"),
    ({"do": "draw", "seed": act.MAX_SEED + 1}, "seed"),
    ({"do": "arrive", "player": 1, "at_ms": -1}, "at_ms"),
    ({"do": "start_round", "round": 0, "tables": [act.MAX_TABLE_NUMBER + 1]}, "tables[0]"),
    ({"do": "start_round", "round": -1}, "round"),
    ({"do": "start_round", "round": 0, "event": "side"}, "event"),
    ({"do": "bind_table", "table": 0, "table_id": 1}, "table"),
    ({"do": "bind_table", "table": 1, "table_id": act.MAX_TABLE_ID + 1}, "table_id"),
    ({"do": "result", "round": 0, "match": 0, "winner": "A", "score": [act.MAX_SCORE + 1, 0]},
     "score[0]"),
    ({"do": "result", "round": 0, "match": 0, "winner": "A", "score": [1]}, "score"),
    ({"do": "result", "round": 0, "match": 0, "winner": "A", "source": "withdrawn"}, "source"),
    ({"do": "result", "round": 0, "match": 0}, "winner"),
    ({"do": "correct", "round": 0, "match": 0, "winner": "A",
      "reason": "x" * (act.MAX_REASON + 1)}, "reason"),
    ({"do": "absent", "round": 0, "match": 0, "player": 1, "from_ms": act.MAX_MS + 1},
     "from_ms"),
    ({"do": "absent", "round": 0, "match": 0, "player": 1, "from_ms": 0, "clock": "no"},
     "clock"),
    ({"do": "sheet", "round": 0, "match": 0, "winner": "A", "by": "C"}, "by"),
    ({"do": "sheet", "round": 0, "match": 0, "winner": "A", "via": "phone"}, "via"),
    ({"do": "sheet", "round": 0, "match": 0, "winner": "A",
      "games": [[1, 0]] * (act.MAX_SHEET_GAMES + 1)}, "games"),
    ({"do": "committee", "members": [1, 2]}, "members"),
    ({"do": "committee", "members": [1, 2, 3, 4, 5, 6]}, "members"),
    ({"do": "appeal", "round": 0, "match": 0, "by": 1, "ruling": "r" * (act.MAX_RULING + 1)},
     "ruling"),
    ({"do": "appeal", "round": 0, "match": 0, "by": 1, "ruling": "r",
      "substitutes": [4, 5, 6, 7, 8, 9]}, "substitutes"),
    ({"do": "decide", "appeal": 1, "votes": {"director": "maybe"}}, "votes"),
    ({"do": "decide", "appeal": 0, "votes": {}}, "appeal"),
    ({"do": "decide", "appeal": 1, "votes": {}, "hearing": "h" * (act.MAX_HEARING + 1)},
     "hearing"),
    ({"do": "clash", "table": 1, "table_id": 1, "match": "m" * (act.MAX_MATCH_LABEL + 1),
      "players": ["A", "B"], "held": {"winner": "A", "source": "hand"},
      "clock": {"winner": "B"}, "at_ms": 0}, "match"),
    ({"do": "clash", "table": 1, "table_id": 1, "match": "m", "players": ["A", "B"],
      "held": {"winner": "A", "source": "sheet"}, "clock": {"winner": "B"}, "at_ms": 0},
     "held.source"),
    ({"do": "dismiss_clash", "clash": act.MAX_CLASHES + 1}, "clash"),
    ({"do": "prizes", "event": "main", "prizes": ["p"] * (act.MAX_PRIZES + 1)}, "prizes"),
    ({"do": "prizes", "event": "team", "prizes": []}, "event"),
    ({"do": "side_pool", "pool": "J", "players": [1, 2], "entry": act.MAX_ENTRY_CENTS + 1},
     "entry"),
    ({"do": "side_pool", "pool": "J", "players": [1, 2], "split": [101]}, "split[0]"),
    ({"do": "flight", "room": "Sala", "precedence": 0}, "precedence"),
    ({"do": "flight", "room": "Sala", "tables": act.MAX_ROOM_TABLES + 1}, "tables"),
    ({"do": "flight", "room": ""}, "room"),
    ({"do": "swing_create", "start_vp": 0, "cpp": [1]}, "start_vp"),
    ({"do": "swing_create", "start_vp": 5, "cpp": list(range(1, act.MAX_CPP + 2))}, "cpp"),
    ({"do": "swing_create", "start_vp": 5, "cpp": [1], "clock": "on_request"}, "clock"),
    ({"do": "swing_create", "start_vp": 5, "cpp": [1],
      "clock_override": {"reserve_ms": act.MAX_OVERRIDE_MS + 1}}, "clock_override.reserve_ms"),
    ({"do": "swing_create", "start_vp": 5, "cpp": [1], "clock_override": {"byoyomi": 1}},
     "clock_override.byoyomi"),
    ({"do": "swing_round", "seed": act.MAX_SEED + 1}, "seed"),
    ({"do": "swing_result", "game": 0, "winner": "A", "cube": act.MAX_CUBE * 2}, "cube"),
    ({"do": "swing_result", "game": 0, "winner": "A", "result": "triple"}, "result"),
    ({"do": "swing_correct", "game": -1, "winner": "A"}, "game"),
    ({"do": "couples_create", "couples": [{"name": "U", "players": [1, 2]}]}, "couples"),
    ({"do": "couples_create", "couples": [{"name": "U", "players": [1]}] * 2},
     "couples[0].players"),
    ({"do": "couples_create", "couples": COUPLES, "format": "swiss"}, "format"),
    ({"do": "couples_create", "couples": COUPLES, "length": act.MAX_MATCH_LENGTH + 1},
     "length"),
    ({"do": "couples_phase", "encounter": 0, "more": 1}, "more"),
    ({"do": "couples_result", "encounter": 0, "phase": 4, "match": 0, "winner": "U"}, "phase"),
    ({"do": "couples_correct", "encounter": 0, "phase": 1, "match": 0, "winner": "U",
      "score": [0, act.MAX_SCORE + 1]}, "score[1]"),
    ({"do": "nothing"}, "do"),
    ({"name": "x"}, "do"),
]


@pytest.mark.parametrize(("action", "field"), BOUNDS, ids=lambda x: str(x)[:60])
def test_a_bound_refuses_naming_the_field_and_changes_nothing(action: dict[str, Any],
                                                               field: str) -> None:
    with pytest.raises(InvalidContest) as err:
        decode_action(action)
    assert str(err.value).startswith(f"{field}: "), err.value
    before = EVENING.state.to_dict()
    with pytest.raises(InvalidContest) as err:
        EVENING.state.apply(action)
    assert str(err.value).startswith(f"{field}: "), err.value
    assert EVENING.state.to_dict() == before


@pytest.mark.parametrize(("action", "field"), [
    ({"do": "flight", "room": None, "precedence": 2}, "precedence"),
    ({"do": "flight", "tables": 3}, "tables"),
], ids=lambda x: str(x)[:60])
def test_the_fold_refuses_what_a_declaration_cannot_say(action: dict[str, Any],
                                                        field: str) -> None:
    decode_action(action)  # well formed ...
    before = EVENING.state.to_dict()
    with pytest.raises(InvalidContest) as err:  # ... but meaningless
        EVENING.state.apply(action)
    assert str(err.value).startswith(f"{field}: "), err.value
    assert EVENING.state.to_dict() == before


def test_bad_json_and_a_non_object_are_refused_as_the_action() -> None:
    for raw in (b"{", b"[1, 2]", b'"settings"'):
        with pytest.raises(InvalidContest, match="^action: "):
            decode_action(raw)
    with pytest.raises(InvalidContest, match="^action: "):
        decode_action([{"do": "close_late"}])  # type: ignore[arg-type]


def test_a_bound_at_its_limit_is_taken() -> None:
    decode_action({"do": "settings", "late_slots": act.MAX_LATE_SLOTS, "seed": act.MAX_SEED,
                   "rounds": [{"length": act.MAX_MATCH_LENGTH}] * act.MAX_ROUND_SETTINGS})
    decode_action({"do": "register", "name": "x" * act.MAX_PLAYER_NAME})
    decode_action({"do": "start_round", "round": 0, "tables": [act.MAX_TABLE_NUMBER]})
    decode_action({"do": "swing_result", "game": 0, "winner": "A", "cube": act.MAX_CUBE})


# ------------------------------------------------------------ the dispatch table

def _declared_actions() -> set[type[msgspec.Struct]]:
    """Every tagged Struct that ``actions`` declares (an action by its tag)."""
    return {obj for obj in vars(act).values()
            if isinstance(obj, type) and issubclass(obj, msgspec.Struct)
            and obj.__struct_config__.tag is not None}


def test_every_action_struct_is_in_the_union_and_has_its_handler() -> None:
    declared = _declared_actions()
    assert set(typing.get_args(act.Action)) == declared
    assert set(ACTION_TYPES) == declared
    assert set(HANDLERS) == declared
    assert set(EVENT_HANDLERS) <= declared
    assert set(SETTLING) <= declared
    assert {kind_of(k) for k in declared} == set(KINDS)
    for kind in declared:
        config = kind.__struct_config__
        assert config.frozen and config.forbid_unknown_fields and config.tag_field == "do"


def test_the_routes_bodies_are_the_actions_declarations() -> None:
    # each route's body is the director's part of an action (or derived from it):
    # nothing is declared twice
    from bgclock.server.edge.tourney_bodies import (
        TOURNEY_REQUESTS,
        CheckInAllBody,
        SeedingBody,
    )

    for body in TOURNEY_REQUESTS:
        if body in (SeedingBody, CheckInAllBody):  # folded as the settings, the check-ins
            continue  # they give
        assert any(base.__module__ == act.__name__ for base in body.__mro__
                   if issubclass(base, msgspec.Struct) and base is not msgspec.Struct), body


# ------------------------------------------------------------ folding

def _random_log(seed: int, players: int) -> list[dict[str, Any]]:
    """A log of accepted actions: a drawn Main, then a random walk of
    plausible actions (the refused ones are not logged)."""
    rng = random.Random(seed)
    t = Tournament()
    log: list[dict[str, Any]] = [{"do": "settings", "seed": seed, "late_slots": 1}]
    log += [{"do": "register", "name": f"P{k}"} for k in range(1, players + 1)]
    log += [{"do": "check_in", "player": k} for k in range(1, players + 1)]
    log += [{"do": "draw"}]
    for a in log:
        t.apply(a)
    for _ in range(120):
        action = _random_action(t, rng)
        try:
            t.apply(action)
        except ContestError:
            continue
        log.append(action)
    return log


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(4, 12), st.floats(0, 1))
def test_folding_a_log_action_by_action_is_folding_it_at_once(seed: int, players: int,
                                                              cut: float) -> None:
    log = _random_log(seed, players)
    at_once = Tournament.fold(log).to_dict()
    one_by_one = Tournament()
    for action in log:
        one_by_one.apply(decode_action(_stored(action)))
    assert one_by_one.to_dict() == at_once
    # a fold cut anywhere and carried on is the same fold
    k = int(cut * len(log))
    carried = Tournament.fold(log[:k])
    for action in log[k:]:
        carried.apply(action)
    assert carried.to_dict() == at_once
    # and every stored action reads back as it was written
    for action in log:
        assert _stored(encode_action(decode_action(action))) == _stored(action)


# ------------------------------------------------------------ through the server

@pytest.mark.anyio
async def test_the_routes_store_actions_that_decode_to_their_declarations(live: Any) -> None:
    """A log written by the server's own routes (both stores): every stored
    body decodes into its Struct and encodes back to the same bytes, and the
    log folds to the state the server answers; a bound of a declaration is
    the route's 422 naming the field, and nothing is stored."""
    from tests._server_kit import DIRECTOR

    async def post(path: str, body: Any, status: int = 200) -> dict[str, Any]:
        r = await live.http.post(f"{base}{path}", json=body, headers=DIRECTOR)
        assert r.status_code == status, r.text
        return dict(r.json())

    r = await live.http.post("/api/tournaments", json={"name": "Declared"}, headers=DIRECTOR)
    base = f"/api/tournaments/{r.json()['id']}"
    await post("/settings", {"rounds": [{"length": 3, "clock": "none"}], "late_slots": 0,
                             "last_chance": False})
    for k in range(1, 7):
        await post("/players", {"name": f"P{k}", **({"federation_id": "IT-1"} if k == 1
                                                    else {})}, status=201)
        await post(f"/players/{k}/check-in", {})
    await post("/committee", {"members": [4, 5, 6]})
    refused = await post("/settings", {"late_slots": act.MAX_LATE_SLOTS + 1}, status=422)
    assert refused["message"].startswith("body.late_slots: "), refused
    refused = await post("/players", {"name": "x" * (act.MAX_PLAYER_NAME + 1)}, status=422)
    assert refused["message"].startswith("body.name: "), refused
    drawn = await post("/draw", {"seed": 5})
    await post("/rounds", {"round": 0})
    first = drawn["state"]["main"]["rounds"][0]
    ready = [i for i, m in enumerate(first) if m["a"] and m["b"]]
    m0 = first[ready[0]]
    await post("/results", {"round": 0, "match": ready[0], "winner": m0["a"], "score": [3, 1]})
    await post("/corrections", {"round": 0, "match": ready[0], "winner": m0["b"],
                                "reason": "misread"})
    await post("/results/revert", {"round": 0, "match": ready[0]})
    m1 = first[ready[1]]
    await post("/sheets", {"round": 0, "match": ready[1], "winner": m1["a"], "score": [3, 0]})
    await post("/prizes", {"event": "main", "prizes": ["a cup"]})
    await post("/swing", {"start_vp": 5, "cpp": [1, 2], "players": [1, 2, 3], "clock": "none"},
               status=201)
    paired = await post("/swing/rounds", {"seed": 9})
    game = paired["tables"][0]
    await post("/swing/results", {"game": 0, "winner": game["a"], "result": "single"})
    r = await live.http.get(f"{base}/actions", headers=DIRECTOR)
    stored = [s["action"] for s in r.json()["actions"]]
    assert {"settings", "register", "check_in", "committee", "draw", "start_round", "result",
            "correct", "revert", "sheet", "prizes", "swing_create", "swing_round",
            "swing_result"} <= {a["do"] for a in stored}
    for action in stored:
        assert _stored(encode_action(decode_action(_stored(action)))) == _stored(action)
    r = await live.http.get(f"{base}/state", headers=DIRECTOR)
    state = r.json()
    folded = Tournament.fold([decode_action(_stored(a)) for a in stored]).to_dict()
    assert folded["actions"] == state["actions"] == len(stored)
    assert folded["main"] == state["main"] and folded["swing"] == state["swing"]
    assert folded["matches"] == state["matches"] and folded["players"] == state["players"]
