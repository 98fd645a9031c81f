"""Swing and couples as events of a tournament (issue 13), pure: a log of
actions folds to the same state as the actions decided one by one; Swing
rounds paired from the logged seed conserve VP and end with one holder;
couples encounters are decided at three match wins whatever the order the
matches of a phase end in."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.tournament import IllegalContest, InvalidContest, Tournament


def _registered(n: int) -> tuple[Tournament, list[dict[str, Any]]]:
    t, log = Tournament(), []
    for i in range(n):
        action = {"do": "register", "name": f"P{i + 1}"}
        t, _ = t.after(action)
        log.append(action)
    return t, log


def _step(t: Tournament, log: list[dict[str, Any]], action: dict[str, Any]) -> Tournament:
    t, _ = t.after(action)
    log.append(action)
    return t


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), start=st.integers(1, 500), first=st.integers(1, 200),
       seed=st.integers(0, 2**32))
def test_a_swing_log_folds_to_the_same_state_conserves_vp_and_ends_with_one_holder(
        n: int, start: int, first: int, seed: int) -> None:
    rng = random.Random(seed)
    t, log = _registered(n)
    t = _step(t, log, {"do": "swing_create", "start_vp": start, "cpp": [first]})
    for _ in range(10_000):
        sw = t.events.swing
        assert sw is not None
        if sw.swing.winner is not None:
            break
        t = _step(t, log, {"do": "swing_round", "seed": rng.randrange(2**53)})
        sw = t.events.swing
        assert sw is not None
        active = [p for p in sw.swing.players if sw.swing.vp[p] > 0]
        assert len(sw.games) == len(active) // 2
        assert (sw.sitting is not None) == (len(active) % 2 == 1)
        for i, g in enumerate(list(sw.games)):
            t = _step(t, log, {"do": "swing_result", "game": i,
                               "winner": rng.choice([g.a, g.b]),
                               "result": rng.choice(["single", "gammon", "backgammon"]),
                               "cube": rng.choice([1, 2, 4]), "source": "hand"})
        sw = t.events.swing
        assert sw is not None
        assert sum(sw.swing.vp.values()) == start * n
        assert min(sw.swing.vp.values()) >= 0
    sw = t.events.swing
    assert sw is not None and sw.swing.winner is not None
    assert sw.swing.vp[sw.swing.winner] == start * n
    assert Tournament.fold(log).to_dict() == t.to_dict()


@settings(max_examples=80, deadline=None)
@given(winners=st.lists(st.booleans(), min_size=5, max_size=5),
       swap=st.lists(st.booleans(), min_size=3, max_size=3))
def test_an_encounter_is_decided_at_three_wins_whatever_order_a_phase_ends_in(
        winners: list[bool], swap: list[bool]) -> None:
    t, log = _registered(4)
    t = _step(t, log, {"do": "couples_create", "format": "round_robin", "clock": "none",
                       "couples": [{"name": "A", "players": [1, 2]},
                                   {"name": "B", "players": [3, 4]}]})
    assert t.events.couples is not None
    enc = t.events.couples.encounters[0]
    phases = enc.encounter().phases
    wins = {"A": 0, "B": 0}
    k = 0
    for phase in range(3):
        order = list(range(len(phases[phase])))
        if swap[phase]:
            order.reverse()
        for m in order:
            pair = phases[phase][m]
            decided = max(wins.values()) >= 3
            action = {"do": "couples_result", "encounter": 0, "phase": phase + 1, "match": m,
                      "winner": pair[0] if winners[k] else pair[1], "source": "hand"}
            if decided:
                with pytest.raises(IllegalContest):
                    t.after(action)
                continue
            t = _step(t, log, action)
            side = "A" if winners[k] else "B"
            wins[side] += 1
            k += 1
    got = t.to_dict()["couples"]["encounters"][0]
    assert got["wins"] == wins
    assert got["winner"] == ("A" if wins["A"] >= 3 else "B")
    assert Tournament.fold(log).to_dict() == t.to_dict()


def test_refusals_name_the_field() -> None:
    t, _ = _registered(3)
    for action, words in [
        ({"do": "swing_create", "start_vp": 10, "cpp": [5], "junk": 1}, "junk"),
        ({"do": "swing_round", "seed": 1}, "no Swing"),
        ({"do": "couples_create", "couples": [{"name": "A", "players": [1, 2]},
                                             {"name": "B", "players": [3, 3]}]}, "couples"),
        ({"do": "couples_phase", "encounter": 0}, "no couples"),
    ]:
        with pytest.raises((InvalidContest, IllegalContest), match=words):
            t.after(action)


def test_every_string_of_the_swing_and_couples_screens_is_in_both_languages() -> None:
    import re
    from pathlib import Path

    static = Path(__file__).resolve().parent.parent / "bgclock" / "web" / "static"
    text = (static / "contests" / "strings.js").read_text(encoding="utf-8")
    en_part, it_part = text.split("\n  it: {")
    en = set(re.findall(r'"((?:con|sw|cp)\.[a-z_]+)":', en_part))
    it = set(re.findall(r'"((?:con|sw|cp)\.[a-z_]+)":', it_part))
    used: set[str] = set()
    for path in [*sorted((static / "contests").rglob("*.js")), static / "room/view/contests.js"]:
        used |= set(re.findall(r'\bt\("([a-z]+\.[a-z_]+)"', path.read_text()))
    used |= {"sw.single", "sw.gammon", "sw.backgammon"}  # t("sw." + result)
    for name in ("room.html", "director.html"):
        html = (static / name).read_text()
        used |= {k for k in re.findall(r'data-i18n="([^"]+)"', html)
                 if k.startswith(("sw.", "cp.", "con."))}
    assert len(used) > 40
    assert not used - en, "missing in English"
    assert en == it, "English and Italian differ"
