"""A generator and a checker for the draw, in the manner of bbpPairings and
JaVaFo: random tournaments (sizes, late slots and arrivals, seeds, groups, a
Last Chance) drawn and played through ``bgclock draw simulate``'s code, and
every output checked against ``../shared/spec/tournament.md`` (section 4 and
its ``bgclock draw`` section) by a checker written from the spec's text.

The checker reads only the JSON the command prints (and, for general group
mappings, ``MainDraw``'s first round): it uses none of the draw's helpers, so
a mistake in them cannot hide itself.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.cli import main
from bgclock.tournament import InvalidContest, MainDraw, simulate
from tests.conftest import ROOT

Bracket = dict[str, Any]
Slots = list[str | None]


# ------------------------------------------------------------ the checker

def _pow2_at_least(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def _first_round(bracket: Bracket) -> Slots:
    """Slot 2i is match i's ``a``, 2i+1 its ``b`` (the spec's numbering)."""
    return [x for m in bracket["rounds"][0] for x in (m["a"], m["b"])] if bracket["rounds"] \
        else []


def _halves_within_one(marks: list[bool], what: str) -> None:
    """In every sub-bracket the two halves differ by at most one mark."""
    width = len(marks)
    while width >= 2:
        for lo in range(0, len(marks), width):
            left = sum(marks[lo:lo + width // 2])
            right = sum(marks[lo + width // 2:lo + width])
            assert abs(left - right) <= 1, f"{what}: sub-bracket {lo}..{lo + width - 1}"
        width //= 2


def _played_out(bracket: Bracket, what: str) -> None:
    """Rounds halve; every match has a winner, one of its two; a bye moves
    its player on; the winner takes the next round's slot."""
    rounds = bracket["rounds"]
    size = bracket["size"]
    assert len(rounds) == max(size.bit_length() - 1, 0), what
    for r, matches in enumerate(rounds):
        assert len(matches) == size >> (r + 1), what
        for i, m in enumerate(matches):
            assert set(m) == {"a", "b", "winner"}, what
            assert m["a"] is not None or m["b"] is not None, f"{what}: an empty match"
            if m["a"] is None or m["b"] is None:
                assert r == 0, f"{what}: a bye past round 1"
                assert m["winner"] == (m["a"] or m["b"]), f"{what}: a bye moves its player on"
            assert m["winner"] is not None and m["winner"] in (m["a"], m["b"]), what
            if r + 1 < len(rounds):
                nxt = rounds[r + 1][i // 2]
                assert nxt["a" if i % 2 == 0 else "b"] == m["winner"], f"{what}: winner moves on"


def _first_played_losers(bracket: Bracket) -> set[str]:
    """Every player whose first *played* match (both sides present) is a loss."""
    first: dict[str, dict[str, Any]] = {}
    for matches in bracket["rounds"]:
        for m in matches:
            if m["a"] is not None and m["b"] is not None:
                for x in (m["a"], m["b"]):
                    first.setdefault(x, m)
    return {x for x, m in first.items() if m["winner"] != x}


def _bye_holders(bracket: Bracket) -> set[str]:
    return {m["a"] or m["b"] for m in bracket["rounds"][0]
            if (m["a"] is None) != (m["b"] is None)} if bracket["rounds"] else set()


def _check_drawn_from(prev: Bracket, nxt: Bracket, what: str) -> None:
    """The Progressive Consolation (from the Main) or the Last Chance (from
    the consolation): entrants exactly the first-played-match losers, the
    next power of 2, byes spread and never two in a match, byes first to
    entrants with no bye in the bracket before, then played out."""
    entrants = _first_played_losers(prev)
    slots = _first_round(nxt)
    present = [x for x in slots if x is not None]
    if len(entrants) <= 1:
        assert nxt["size"] <= 1 and nxt["rounds"] == [], what
        return
    assert sorted(present) == sorted(entrants), f"{what}: entrants"
    assert nxt["size"] == _pow2_at_least(len(entrants)), f"{what}: size"
    for m in nxt["rounds"][0]:
        assert m["a"] is not None or m["b"] is not None, f"{what}: a bye against a bye"
    _halves_within_one([x is None for x in slots], f"{what}: byes")
    takers = _bye_holders(nxt)
    without = entrants - _bye_holders(prev)
    # "first among players without a bye": either all of those got one, or
    # only they did
    assert without <= takers or takers <= without, f"{what}: byes first to those without"
    _played_out(nxt, what)


def _check_seeding(slots: Slots, seeds: list[str], size: int) -> None:
    """For every power of two 2^j <= K, seeds 1..2^j lie each in a different
    sub-bracket of size S / 2^j."""
    where = {x: p for p, x in enumerate(slots) if x is not None}
    top = 1
    while top <= len(seeds):
        width = size // top
        blocks = [where[s] // width for s in seeds[:top]]
        assert len(set(blocks)) == top, f"seeds 1..{top} share a sub-bracket of {width}"
        top *= 2


def _slot_classes(slots: Slots, seeded: set[str], group: dict[str, Any],
                  fixed: set[str]) -> tuple[int, Counter[Any], int]:
    """What the unseeded players had to fill, given where the seeds and the
    non-players are: singles (facing a non-player, or a seed of no group),
    slots facing a seed of group g, free pairs."""
    singles, pairs = 0, 0
    facing: Counter[Any] = Counter()
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        fa = a is not None and a not in fixed
        fb = b is not None and b not in fixed
        if fa and fb:
            pairs += 1
        elif fa or fb:
            other = b if fa else a
            if other is None or other not in seeded or group.get(other) is None:
                singles += 1
            else:
                facing[group[other]] += 1
    return singles, facing, pairs


def _check_separation(slots: Slots, late: set[int], players: list[str], seeds: list[str],
                      group: dict[str, Any]) -> int:
    """No first-round match of two players of one group whenever a draw
    without one exists; returns the number of such matches."""
    together = [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)
                if slots[i] in group and slots[i + 1] in group
                and group[slots[i]] == group[slots[i + 1]]]
    for a, b in together:
        assert not (a or "").startswith("L"), "a late arrival has no group"
        assert not (b or "").startswith("L"), "a late arrival has no group"
    # at draw time the late slots are non-players: empty them again
    at_draw = [None if p in late else x for p, x in enumerate(slots)]
    # seeds 1..S/2 have one match each; the seeds past them are drawn with
    # the other players (docs/tournament.md)
    seeded = set(seeds[:len(slots) // 2])
    counts = Counter(group[p] for p in players if p not in seeded and p in group)
    if not seeds:
        # over every draw: S - N matches hold one player, the rest two; a
        # group g needs max(0, c_g - pairs) of its players alone
        alone = sum(1 for i in range(0, len(at_draw), 2)
                    if (at_draw[i] is None) != (at_draw[i + 1] is None))
        pairs = (len(players) - alone) // 2
        possible = sum(max(0, c - pairs) for c in counts.values()) <= alone
        if max(counts.values(), default=0) * 2 <= len(slots):
            assert possible, "the spec: always possible when no group holds half the bracket"
        # and where it is not, the fewest: the groups are cut down to a level
        # t by the players the lone slots take; at most one stays above the
        # pairs, and its excess over them must meet itself
        level = 0
        while sum(max(0, c - level) for c in counts.values()) > alone:
            level += 1
        assert len(together) == max(0, level - pairs), "more same-group matches than needed"
    else:
        # seeds are placed first (docs/tournament.md): over the draws with
        # those seeds' positions, group g fits iff it is not more than the
        # slots it may take (singles, slots facing another group's seed, one
        # slot per free pair)
        singles, facing, pairs = _slot_classes(at_draw, seeded, group, seeded)
        possible = all(c <= singles + sum(facing.values()) - facing[g] + pairs
                       for g, c in counts.items())
        seed_pairs = [(at_draw[i], at_draw[i + 1]) for i in range(0, len(at_draw), 2)
                      if at_draw[i] in seeded and at_draw[i + 1] in seeded]
        if any(group.get(a) is not None and group.get(a) == group.get(b)
               for a, b in seed_pairs):
            possible = False  # two seeds of one group met where the seeding put them
    if possible:
        assert not together, f"same-group first-round matches although avoidable: {together}"
    else:
        assert together, "the checker: no draw avoids it, yet this one did"
    return len(together)


def check(draw: dict[str, Any], *, n: int, k: int, j: int, seeds: int, groups: int | None,
          consolation: bool, last_chance: bool) -> None:
    """Every invariant of the spec's section 4, its ``bgclock draw`` section,
    seeding, separation and Last Chance, on one ``simulate`` output."""
    keys = {"main"} | ({"consolation"} if consolation else set()) \
        | ({"last_chance"} if last_chance else set()) | ({"groups"} if groups else set())
    assert set(draw) == keys
    main_ = draw["main"]
    assert set(main_) == {"size", "late_slots", "rounds"}
    size = main_["size"]
    assert size == max(2, _pow2_at_least(n + k)), "the smallest power of 2 holding N + K"
    slots = _first_round(main_)
    assert len(slots) == size
    players = [f"P{i}" for i in range(1, n + 1)]
    arrivals = [f"L{i}" for i in range(1, j + 1)]
    present = [x for x in slots if x is not None]
    assert sorted(present) == sorted(players + arrivals), "everyone once in round 1"
    late = main_["late_slots"]
    assert len(late) == k and late == sorted(set(late)), "K late slots in bracket order"
    assert all(0 <= p < size for p in late)
    assert [slots[p] for p in late[:j]] == arrivals, "late arrivals in numerical order"
    assert all(slots[p] is None for p in late[j:]), "the slots left became byes"
    byes = [x is None and p not in late for p, x in enumerate(slots)]
    assert sum(byes) == size - n - k, "S - N - K byes"
    _halves_within_one(byes, "byes")
    non_player = [b or p in late for p, b in enumerate(byes)]
    _halves_within_one(non_player, "byes and late slots")
    for i in range(0, size, 2):
        assert not (non_player[i] and non_player[i + 1]), "a bye or late slot faces a player"
        if non_player[i] or non_player[i + 1]:
            facing = slots[i + 1] if non_player[i] else slots[i]
            assert (facing or "").startswith("P"), "...a registered one"
    _played_out(main_, "main")
    seed_list = players[:seeds]
    _check_seeding(slots, seed_list, size)
    if groups:
        assert draw["groups"] == {p: i % groups for i, p in enumerate(players)}
        _check_separation(slots, set(late), players, seed_list, draw["groups"])
    if consolation:
        cons = draw["consolation"]
        assert set(cons) == {"size", "rounds"}
        _check_drawn_from(main_, cons, "consolation")
        if last_chance:
            last = draw["last_chance"]
            assert set(last) == {"size", "rounds"}
            _check_drawn_from(cons, last, "last chance")
            # three lives: nobody in the Last Chance lost less than twice
            assert set(_first_round(last)) - {None} <= _first_played_losers(main_)


# ---------------------------------------------------------- the generator

def _tournament(rng: random.Random) -> dict[str, Any]:
    """One random tournament: sizes from 1 to 140 players (more small ones),
    late slots and arrivals, seeds, groups, consolation and Last Chance."""
    n = rng.choice([rng.randint(1, 12), rng.randint(1, 40), rng.randint(1, 140)])
    size = max(2, _pow2_at_least(n))
    k = rng.choice([0, 0, rng.randint(0, max(0, size - n)), rng.randint(0, 2 * n)])
    while n * 2 < max(2, _pow2_at_least(n + k)):
        k -= 1
    return {"n": n, "k": k, "j": rng.randint(0, k),
            "seeds": rng.choice([0, rng.randint(0, min(n, 8)), rng.randint(0, n)]),
            "groups": rng.choice([None, rng.randint(1, 4), rng.randint(1, n + 2)]),
            "consolation": rng.random() < 0.8, "last_chance": rng.random() < 0.6}


def test_hundreds_of_random_tournaments_keep_every_invariant() -> None:
    rng = random.Random(20261124)
    together = 0
    for _ in range(400):
        t = _tournament(rng)
        seed = rng.randrange(2**31)
        last_chance = t["last_chance"] and t["consolation"]
        draw = simulate(t["n"], seed=seed, late=t["k"], arrivals=t["j"],
                        consolation=t["consolation"], seeds=t["seeds"], groups=t["groups"],
                        last_chance=last_chance)
        assert draw == simulate(t["n"], seed=seed, late=t["k"], arrivals=t["j"],
                                consolation=t["consolation"], seeds=t["seeds"],
                                groups=t["groups"], last_chance=last_chance)
        check(draw, n=t["n"], k=t["k"], j=t["j"], seeds=t["seeds"], groups=t["groups"],
              consolation=t["consolation"], last_chance=last_chance)
        if not t["groups"]:
            continue
        met = sum(1 for m in draw["main"]["rounds"][0]
                  if m["a"] and m["b"] and m["a"][0] == "P" == m["b"][0]
                  and draw["groups"][m["a"]] == draw["groups"][m["b"]])
        together += met
        size = draw["main"]["size"]
        largest = max(Counter(draw["groups"].values()).values())
        if largest * 2 <= size:
            # the spec's "always": no group holds more than half the bracket
            assert met == 0, t
    assert together > 0  # the generator does reach the unavoidable cases (one group)


@settings(max_examples=120, deadline=None)
@given(n=st.integers(1, 70), k=st.integers(0, 20), j=st.integers(0, 20),
       seeds=st.integers(0, 70), groups=st.one_of(st.none(), st.integers(1, 12)),
       seed=st.integers(0, 2**31))
def test_any_tournament_keeps_every_invariant(n: int, k: int, j: int, seeds: int,
                                              groups: int | None, seed: int) -> None:
    seeds, j = min(seeds, n), min(j, k)
    if n * 2 < max(2, _pow2_at_least(n + k)):
        with pytest.raises(InvalidContest):
            simulate(n, seed=seed, late=k, arrivals=j, seeds=seeds, groups=groups)
        return
    draw = simulate(n, seed=seed, late=k, arrivals=j, consolation=True, seeds=seeds,
                    groups=groups, last_chance=True)
    check(draw, n=n, k=k, j=j, seeds=seeds, groups=groups, consolation=True, last_chance=True)


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 64), seeds=st.integers(1, 64), seed=st.integers(0, 2**31))
def test_byes_go_to_the_top_seeds(n: int, seeds: int, seed: int) -> None:
    # docs/tournament.md: without late slots, seeds 1..min(B, K) have the B byes
    seeds = min(seeds, n)
    draw = simulate(n, seed=seed, seeds=seeds)
    size = draw["main"]["size"]
    holders = _bye_holders(draw["main"])
    top = min(size - n, seeds)
    assert {f"P{i}" for i in range(1, top + 1)} <= holders


def test_seeds_one_and_two_in_opposite_halves_three_and_four_in_the_other_quarters() -> None:
    for seed in range(40):
        draw = simulate(32, seed=seed, seeds=8)
        where = {x: p for p, x in enumerate(_first_round(draw["main"])) if x}
        assert where["P1"] // 16 != where["P2"] // 16
        quarters = {where[f"P{i}"] // 8 for i in range(1, 5)}
        assert quarters == {0, 1, 2, 3}
        assert {where[f"P{i}"] // 4 for i in range(1, 9)} == set(range(8))


def test_the_rest_is_drawn_at_random() -> None:
    # seed 1's half varies, and so does the position of an unseeded player
    halves, spots = set(), set()
    for seed in range(60):
        where = {x: p for p, x in enumerate(_first_round(simulate(16, seed=seed, seeds=4)["main"]))
                 if x}
        halves.add(where["P1"] // 8)
        spots.add(where["P16"])
    assert halves == {0, 1} and len(spots) >= 8


# -------------------------------------------- general groups (the pure API)

@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(2, 48), seed=st.integers(0, 2**31))
def test_any_group_mapping_is_kept_apart_where_the_slots_allow(
        data: st.DataObject, n: int, seed: int) -> None:
    names = [f"N{i}" for i in range(n)]
    size = max(2, _pow2_at_least(n))
    k = data.draw(st.integers(0, max(0, size - n)), label="late")
    # groups of any sizes, some players in none (a club, a family, nobody)
    labels = data.draw(st.lists(st.one_of(st.none(), st.integers(0, 5), st.sampled_from("xy")),
                                min_size=n, max_size=n), label="groups")
    group = {name: g for name, g in zip(names, labels, strict=True) if g is not None}
    n_seeds = data.draw(st.integers(0, n), label="seeds")
    seeds = data.draw(st.permutations(names), label="order")[:n_seeds]
    draw = MainDraw(names, late_slots=k, rng=random.Random(seed), seeds=seeds, groups=group)
    slots: Slots = draw.bracket.slots()
    late = set(draw.late_positions)
    together = _check_separation(slots, late, names, seeds, group)
    assert together == len(draw.unavoidable)
    assert draw.unavoidable == draw.same_group_matches()
    _check_seeding(slots, seeds, draw.size)
    for p in late:
        assert slots[p] is None


def test_a_late_arrival_with_a_group_is_reported_not_moved() -> None:
    names = ["A", "B", "C"]
    draw = MainDraw(names, late_slots=1, rng=random.Random(3), groups={"A": 1, "B": 1, "C": 1,
                                                                       "Z": 1})
    assert len(draw.unavoidable) == 1  # three of one club in two matches
    position = draw.arrive("Z")
    mate = draw.bracket.slots()[position ^ 1]
    assert len(draw.same_group_matches()) == 2 and ("Z" in (draw.same_group_matches()[0]
                                                          + draw.same_group_matches()[1]))
    assert mate in names


@pytest.mark.parametrize("kwargs, field", [
    ({"seeds": ["A", "Q"]}, "seeds"),
    ({"seeds": ["A", "A"]}, "seeds"),
    ({"seeds": "AB"}, "seeds"),
    ({"groups": {"A": 1.5}}, "groups"),
    ({"groups": {"A": [1]}}, "groups"),
    ({"groups": {"": 1}}, "groups"),
    ({"groups": ["A"]}, "groups"),
])
def test_the_pure_draw_refuses_bad_seeds_and_groups(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidContest, match=f"^{field}: "):
        MainDraw(["A", "B", "C"], late_slots=0, rng=random.Random(1), **kwargs)


# ------------------------------------------------------- the Last Chance

def test_the_last_chance_leaves_the_main_and_consolation_as_they_were() -> None:
    for seed in range(30):
        with_lc = simulate(24, seed=seed, consolation=True, seeds=4, groups=3, last_chance=True)
        without = simulate(24, seed=seed, consolation=True, seeds=4, groups=3)
        assert with_lc["main"] == without["main"]
        assert with_lc["consolation"] == without["consolation"]


def test_a_last_chance_entrant_lost_twice() -> None:
    draw = simulate(24, seed=5, consolation=True, last_chance=True)
    entrants = set(_first_round(draw["last_chance"])) - {None}
    assert entrants == _first_played_losers(draw["consolation"])
    assert len(entrants) >= 4
    for name in entrants:
        assert name in _first_played_losers(draw["main"])


# ----------------------------------------------------------- the command

def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["draw", "simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["--players", "12", "--seed", "7", "--late", "2", "--arrivals", "1", "--consolation",
     "--seeds", "4", "--groups", "3", "--last-chance"],
    ["--players", "5", "--seed", "1", "--seeds", "5", "--groups", "1"],
    ["--players", "33", "--seed", "9", "--consolation", "--last-chance", "--seeds", "8"],
    ["--players", "1", "--seed", "2", "--consolation", "--last-chance", "--groups", "2"],
])
def test_the_command_prints_a_draw_the_checker_accepts(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run([*argv, "--json"], capsys)
    assert code == 0
    draw = json.loads(out)
    value = {a: int(b) for a, b in zip(argv, [*argv[1:], "0"], strict=True)
             if a in ("--players", "--late", "--arrivals", "--seeds", "--groups")}
    check(draw, n=value["--players"], k=value.get("--late", 0), j=value.get("--arrivals", 0),
          seeds=value.get("--seeds", 0), groups=value.get("--groups"),
          consolation="--consolation" in argv, last_chance="--last-chance" in argv)
    code, text, _ = _run(argv, capsys)
    assert code == 0 and "Main (bracket of" in text
    assert ("Last Chance (bracket of" in text) == ("--last-chance" in argv)


def test_the_command_says_which_same_group_matches_it_could_not_avoid(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["--players", "8", "--seed", "3", "--groups", "1", "--json"], capsys)
    assert code == 0 and len(json.loads(out)["main"]["rounds"][0]) == 4
    assert err.startswith("bgclock draw: could not keep apart")
    code, text, _ = _run(["--players", "8", "--seed", "3", "--groups", "2"], capsys)
    assert "first-round matches of one group (none where a draw avoids them): none" in text
    code, text, _ = _run(["--players", "8", "--seed", "3", "--groups", "1"], capsys)
    last = text.strip().splitlines()[-1]  # one club of 8: its four matches
    assert last.startswith("first-round matches of one group") and last.count(" - ") == 4


@pytest.mark.parametrize("argv, flag", [
    (["--players", "6", "--seeds", "7"], "--seeds"),
    (["--players", "6", "--seeds", "-1"], "--seeds"),
    (["--players", "6", "--groups", "0"], "--groups"),
    (["--players", "6", "--groups", "4097"], "--groups"),
    (["--players", "6", "--last-chance"], "--last-chance"),
])
def test_the_command_refuses_bad_flags_naming_them(
        argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run([*argv, "--seed", "1", "--json"], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bgclock draw: ") and flag in lines[0]


def test_the_command_end_to_end_in_a_process() -> None:
    argv = [sys.executable, "-m", "bgclock.cli", "draw", "simulate", "--players", "20",
            "--seed", "11", "--consolation", "--last-chance", "--seeds", "4", "--groups", "4",
            "--json"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    draw = json.loads(done.stdout)
    check(draw, n=20, k=0, j=0, seeds=4, groups=4, consolation=True, last_chance=True)
    assert draw == simulate(20, seed=11, consolation=True, seeds=4, groups=4, last_chance=True)
    bad = subprocess.run(argv[:-1] + ["--seeds", "21"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "--seeds" in bad.stderr


def test_seeds_and_two_clubs_are_kept_apart() -> None:
    # two clubs of half the players each and many seeds: the seeds' layout
    # must leave each club enough matches against the other (the draw tries
    # other valid seedings until it does)
    rng = random.Random(86)
    for _ in range(150):
        n = rng.randint(9, 60)
        size = _pow2_at_least(n)
        k = rng.randint(0, size - n)
        seeds = rng.randint(1, n)
        draw = simulate(n, seed=rng.randrange(2**31), late=k, seeds=seeds, groups=2)
        check(draw, n=n, k=k, j=0, seeds=seeds, groups=2, consolation=False,
              last_chance=False)
        groups = draw["groups"]
        assert not [m for m in draw["main"]["rounds"][0]
                    if m["a"] and m["b"] and groups[m["a"]] == groups[m["b"]]]


def test_the_same_seed_gives_the_same_draw_whatever_the_hash_seed() -> None:
    # groups named by strings: nothing in the draw may depend on set order
    code = ("import random, json\n"
            "from bgclock.tournament import MainDraw\n"
            "out = []\n"
            "for s in range(40):\n"
            "    r = random.Random(s)\n"
            "    names = [f'N{i}' for i in range(r.randint(17, 30))]\n"
            "    labels = ['club-a'] * 8 + ['club-b', 'family', 'x', 'y', 'z']\n"
            "    groups = {n: r.choice(labels) for n in names if r.random() < 0.9}\n"
            "    d = MainDraw(names, late_slots=r.randint(0, 2), rng=random.Random(s),\n"
            "                 seeds=names[:r.randint(0, 6)], groups=groups)\n"
            "    out.append(d.bracket.slots())\n"
            "print(json.dumps(out))\n")
    outs = set()
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True, env={"PYTHONHASHSEED": hash_seed,
                                                          "PATH": ""})
        outs.add(done.stdout)
    assert len(outs) == 1 and len(json.loads(outs.pop())) == 40
