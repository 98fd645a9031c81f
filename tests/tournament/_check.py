"""A checker of the weekly formats written from tournament.md section 6's
text, reading only the printed JSON (``bgclock draw simulate --format``).
It shares no code with bgclock.tournament.formats: the pairing's optimum is
found here by brute force (every perfect pairing) for pools of up to 10
players, and by the absence of any improving exchange of partners above."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Match = dict[str, Any]

#: Pools up to this size are checked against every perfect pairing.
BRUTE_MAX = 10


def perfect_pairings(pool: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not pool:
        yield []
        return
    first = pool[0]
    for i in range(1, len(pool)):
        for rest in perfect_pairings(pool[1:i] + pool[i + 1:]):
            yield [(first, pool[i]), *rest]


def cost(pairs: list[tuple[str, str]], losses: dict[str, int],
         met: set[frozenset[str]]) -> tuple[int, int]:
    """(a) pairs that already met, (b) the sum of squared loss differences."""
    return (sum(1 for a, b in pairs if frozenset((a, b)) in met),
            sum((losses[a] - losses[b]) ** 2 for a, b in pairs))


def best_cost(pool: list[str], losses: dict[str, int],
              met: set[frozenset[str]]) -> tuple[int, int]:
    return min(cost(p, losses, met) for p in perfect_pairings(sorted(pool)))


def no_better_exchange(pairs: list[tuple[str, str]], losses: dict[str, int],
                       met: set[frozenset[str]]) -> bool:
    """No two pairs can swap partners for a better (rematches, spread)."""
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            (a, b), (c, d) = pairs[i], pairs[j]
            now = cost([(a, b), (c, d)], losses, met)
            if cost([(a, c), (b, d)], losses, met) < now or \
                    cost([(a, d), (b, c)], losses, met) < now:
                return False
    return True


def check_paired_rounds(rounds: list[list[Match]], players: list[str], *,
                        out_at: int | None) -> dict[str, dict[str, int]]:
    """Section 6's record, bye and pairing rules, round by round; the final
    records (wins, losses, byes)."""
    rec = {p: {"wins": 0, "losses": 0, "byes": 0} for p in players}
    met: set[frozenset[str]] = set()
    for r, matches in enumerate(rounds):
        inside = [p for p in players if out_at is None or rec[p]["losses"] < out_at]
        seen = [x for m in matches for x in (m["a"], m["b"]) if x is not None]
        assert sorted(seen) == sorted(inside), f"round {r + 1}: every player in plays once"
        byes = [m for m in matches if m["b"] is None]
        assert len(byes) == len(inside) % 2, f"round {r + 1}: a bye iff the players in are odd"
        if byes:
            bye = byes[0]["a"]
            assert byes[0]["winner"] == bye
            fewest = min(rec[p]["byes"] for p in inside)
            assert rec[bye]["byes"] == fewest, f"round {r + 1}: bye to one with the fewest byes"
            most = max(rec[p]["losses"] for p in inside if rec[p]["byes"] == fewest)
            assert rec[bye]["losses"] == most, f"round {r + 1}: bye to the most losses"
        pairs = [(m["a"], m["b"]) for m in matches if m["b"] is not None]
        losses = {p: rec[p]["losses"] for p in inside}
        pool = [x for pair in pairs for x in pair]
        if len(pool) <= BRUTE_MAX:
            assert cost(pairs, losses, met) == best_cost(pool, losses, met), \
                f"round {r + 1}: not an optimal pairing"
        else:
            assert no_better_exchange(pairs, losses, met), f"round {r + 1}: an exchange improves"
        for m in matches:
            assert m["winner"] in (m["a"], m["b"]) and m["winner"] is not None
            rec[m["winner"]]["wins"] += 1
            if m["b"] is None:
                rec[m["a"]]["byes"] += 1
            else:
                loser = m["b"] if m["winner"] == m["a"] else m["a"]
                rec[loser]["losses"] += 1
                met.add(frozenset((m["a"], m["b"])))
        played = {rec[p]["wins"] + rec[p]["losses"] for p in inside}
        assert len(played) == 1, "everyone still in has played the same number of rounds"
    return rec


def check_places(standings: list[dict[str, Any]], players: list[str], key: Any) -> None:
    """Every player once, in place order; equal keys share the best place."""
    assert sorted(s["player"] for s in standings) == sorted(players)
    keys = [key(s["player"]) for s in standings]
    assert keys == sorted(keys), "standings out of order"
    for i, s in enumerate(standings):
        expected = next(j for j in range(len(keys)) if keys[j] == keys[i]) + 1
        assert s["place"] == expected, f"{s['player']}: place {s['place']}, expected {expected}"


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


def check_swiss(data: dict[str, Any], n: int, rounds: int) -> None:
    assert data["format"] == "swiss" and len(data["rounds"]) == rounds
    players = names(n)
    rec = check_paired_rounds(data["rounds"], players, out_at=None)
    opp: dict[str, int] = dict.fromkeys(players, 0)
    for matches in data["rounds"]:
        for m in matches:
            if m["b"] is not None:
                opp[m["a"]] += rec[m["b"]]["wins"]
                opp[m["b"]] += rec[m["a"]]["wins"]
    for s in data["standings"]:
        assert (s["wins"], s["losses"]) == (rec[s["player"]]["wins"], rec[s["player"]]["losses"])
    check_places(data["standings"], players, lambda p: (-rec[p]["wins"], -opp[p]))


def check_moreswiss(data: dict[str, Any], n: int, losses: int) -> None:
    assert data["format"] == "moreswiss" and data["losses"] == losses
    players = names(n)
    rec = check_paired_rounds(data["rounds"], players, out_at=losses)
    inside = [p for p in players if rec[p]["losses"] < losses]
    assert len(inside) == 1, "rounds go on while two or more players are in"
    out_round: dict[str, int] = {}
    count = dict.fromkeys(players, 0)
    for r, matches in enumerate(data["rounds"]):
        for m in matches:
            if m["b"] is not None:
                loser = m["b"] if m["winner"] == m["a"] else m["a"]
                count[loser] += 1
                if count[loser] == losses:
                    out_round[loser] = r
    for s in data["standings"]:
        assert (s["wins"], s["losses"]) == (rec[s["player"]]["wins"], rec[s["player"]]["losses"])
    check_places(data["standings"], players,
                 lambda p: (0, 0) if p not in out_round else (1, -out_round[p]))
    assert data["standings"][0]["player"] == inside[0]


def check_roundrobin(data: dict[str, Any], n: int) -> None:
    assert data["format"] == "roundrobin"
    players = names(n)
    assert len(data["rounds"]) == (n - 1 if n % 2 == 0 else n)
    met: dict[frozenset[str], int] = {}
    byes = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    for matches in data["rounds"]:
        seen = [x for m in matches for x in (m["a"], m["b"]) if x is not None]
        assert sorted(seen) == sorted(players), "every player once a round"
        assert sum(m["b"] is None for m in matches) == n % 2
        for m in matches:
            assert m["winner"] in (m["a"], m["b"]) and m["winner"] is not None
            wins[m["winner"]] += 1
            if m["b"] is None:
                byes[m["a"]] += 1
            else:
                key = frozenset((m["a"], m["b"]))
                met[key] = met.get(key, 0) + 1
                losses[m["b"] if m["winner"] == m["a"] else m["a"]] += 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}, "every two meet once"
    assert set(byes.values()) == {n % 2}, "each player exactly one bye (odd N)"
    h2h = dict.fromkeys(players, 0)
    for matches in data["rounds"]:
        for m in matches:
            if m["b"] is not None and wins[m["a"]] == wins[m["b"]]:
                h2h[m["winner"]] += 1
    for s in data["standings"]:
        assert (s["wins"], s["losses"]) == (wins[s["player"]], losses[s["player"]])
    check_places(data["standings"], players, lambda p: (-wins[p], -h2h[p]))


def check_double(data: dict[str, Any], n: int) -> None:
    assert data["format"] == "double"
    players = names(n)
    size = 2
    while size < n:
        size *= 2
    winners, losers, final = data["winners"], data["losers"], data["final"]
    # the winners' bracket: a Main of section 4 without late slots
    assert [len(r) for r in winners] == [size >> (i + 1) for i in range(size.bit_length() - 1)]
    first = winners[0]
    assert sorted(x for m in first for x in (m["a"], m["b"]) if x is not None) == sorted(players)
    assert sum(m["b"] is None for m in first) == size - n, "a bye faces a player"
    for r in range(1, len(winners)):
        for i, m in enumerate(winners[r]):
            assert {m["a"], m["b"]} == {winners[r - 1][2 * i]["winner"],
                                        winners[r - 1][2 * i + 1]["winner"]}
    lost = dict.fromkeys(players, 0)
    out_stage: dict[str, int] = {}
    wb_losers = []
    for matches in winners:
        for m in matches:
            assert m["winner"] in (m["a"], m["b"]) and m["winner"] is not None
            if m["b"] is not None:
                loser = m["b"] if m["winner"] == m["a"] else m["a"]
                lost[loser] += 1
                wb_losers.append(loser)
    assert len(losers) == max(0, 2 * (size.bit_length() - 2))
    in_losers: list[str] = []
    for r, matches in enumerate(losers):
        for m in matches:
            assert m["winner"] in (m["a"], m["b"]) and m["winner"] is not None
            for x in (m["a"], m["b"]):
                if x is not None:
                    assert lost[x] == 1, f"{x} plays the losers' bracket with one loss"
                    if x not in in_losers:
                        in_losers.append(x)
            if m["b"] is not None:
                loser = m["b"] if m["winner"] == m["a"] else m["a"]
                lost[loser] += 1
                out_stage[loser] = r
    wb_champion = winners[-1][0]["winner"]
    lb_champion = [x for x in players if lost[x] == 1 and x != wb_champion]
    if losers:
        assert sorted(in_losers) == sorted(wb_losers), "every first loss drops in"
    assert len(lb_champion) == 1, "one player in with one loss: the losers' champion"
    assert final[0]["a"] == wb_champion and final[0]["b"] == lb_champion[0]
    if final[0]["winner"] == lb_champion[0]:
        assert len(final) == 2, "the losers' champion won the final: the reset"
        assert {final[1]["a"], final[1]["b"]} == {final[0]["a"], final[0]["b"]}
    else:
        assert len(final) == 1
    for m in final:
        loser = m["b"] if m["winner"] == m["a"] else m["a"]
        lost[loser] += 1
    champion = final[-1]["winner"]
    out_stage[final[-1]["b"] if champion == final[-1]["a"] else final[-1]["a"]] = len(losers)
    assert all(lost[p] == 2 for p in players if p != champion), "out at the second loss"
    assert lost[champion] <= 1
    check_places(data["standings"], players,
                 lambda p: (0, 0) if p == champion else (1, -out_stage[p]))
