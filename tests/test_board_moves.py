"""Legal plays: hand-picked rule cases, and GNU Backgammon as the oracle."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bgclock.board import ROLLS, Position, legal_plays, resulting_positions
from tests.board_random import random_position

CASES = json.loads((Path(__file__).parent / "data" / "board_cases.json").read_text())["cases"]


def _point(name: str) -> int:
    special = {"bar": 25, "off": 0}
    return special[name] if name in special else int(name)


def apply_moves(pos: Position, notation: str) -> Position:
    """Replay moves written as ``13/7 10/7*/5`` (independently of the generator)."""
    mine = list(pos.on_roll)
    theirs = list(pos.opponent)
    for chain in notation.split():
        stops = [_point(s.rstrip("*")) for s in chain.split("/")]
        for src, dst in zip(stops, stops[1:], strict=False):
            mine[src - 1] -= 1
            assert mine[src - 1] >= 0, f"no checker on {src} in {notation!r}"
            if dst:
                if theirs[24 - dst] == 1:  # a blot: hit it
                    theirs[24 - dst] = 0
                    theirs[24] += 1
                assert theirs[24 - dst] == 0, f"{dst} is held in {notation!r}"
                mine[dst - 1] += 1
    return Position(on_roll=tuple(theirs), opponent=tuple(mine))


def _side(spec: dict[str, int]) -> dict[int, int]:
    return {int(k): v for k, v in spec.items()}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_picked_case(case: dict[str, Any]) -> None:
    pos = Position.from_points(_side(case["on_roll"]), _side(case["opponent"]))
    expected = {apply_moves(pos, play) for play in case["plays"]}
    d1, d2 = case["dice"]
    assert resulting_positions(pos, d1, d2) == expected, case["why"]
    # the moves each play reports lead to its position
    for play in legal_plays(pos, d1, d2):
        assert apply_moves(pos, play.notation().replace("(no move)", "")) == play.position


def test_opening_roll_counts() -> None:
    # the number of distinct plays of each opening roll, as gnubg lists them
    counts = {r: len(legal_plays(Position.initial(), *r)) for r in ROLLS}
    assert counts[(1, 3)] == 16
    assert counts[(6, 6)] == 11


def test_dice_out_of_range_refused() -> None:
    with pytest.raises(ValueError, match="1..6"):
        legal_plays(Position.initial(), 0, 3)


def _gnubg_results(gnubg_nn: Any, pos: Position, d1: int, d2: int) -> set[Position]:
    keys = gnubg_nn.moves([list(pos.opponent), list(pos.on_roll)], d1, d2)
    if not keys:  # gnubg lists nothing when the roll cannot be played
        return {pos.swapped()}
    out = set()
    for key in keys:
        other, mover = gnubg_nn.board_from_position_key(key)
        out.add(Position(on_roll=tuple(other), opponent=tuple(mover)))
    return out


def test_plays_agree_with_gnubg_on_20000_random_positions() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    rng = random.Random(20240501)
    kinds: dict[str, int] = {}
    differences = []
    for i in range(20_000):
        kind = ("contact", "bar", "closed", "bearoff", "race", "mixed")[i % 6]
        kinds[kind] = kinds.get(kind, 0) + 1
        pos = random_position(rng, kind)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        ours = resulting_positions(pos, d1, d2)
        if ours != _gnubg_results(gnubg_nn, pos, d1, d2):
            differences.append((str(pos), d1, d2))
    assert not differences, differences[:5]
    assert min(kinds.values()) > 3000
