"""Differential test: the JavaScript engine and the Python core fold the same
random command sequences to the same states.

Thousands of sequences (fixed seeds; tests/engine_random.py) go through both:
the Python core in-process as they are generated, the JS engine in one long-lived node process fed
one JSON line per sequence.  After every step (an event, or a query at an
instant between events, time advanced) the whole state must be equal: every
field of ``MatchState.to_dict()`` (both sides' reserve, delay, running,
expired, forfeit, breaks, overtime, no-cube; phase, reason, turn, score, cube,
Crawford, freeze, winner, game, pending double, offer, dispute, break,
expiry instant), and each command must be refused by both or neither, with
the same kind (malformed / illegal) and refusal code.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.engine_random import sequence
from tests.js_engine import NODE, JsEngine

pytestmark = pytest.mark.skipif(NODE is None, reason="node is missing")

SEQUENCES = int(os.environ.get("BGCLOCK_DIFF_SEQUENCES", "5000"))
BATCHES = 10


@pytest.fixture(scope="module")
def js() -> Iterator[JsEngine]:
    engine = JsEngine()
    yield engine
    engine.close()


def _first_difference(py: Any, js: Any, path: str = "") -> str:
    if isinstance(py, dict) and isinstance(js, dict):
        for key in sorted(set(py) | set(js)):
            if key not in py or key not in js:
                return f"{path}.{key}: only in {'python' if key in py else 'js'}"
            found = _first_difference(py[key], js[key], f"{path}.{key}")
            if found:
                return found
        return ""
    if py != js or type(py) is not type(js):
        return f"{path}: python {py!r}, js {js!r}"
    return ""


@pytest.mark.parametrize("batch", range(BATCHES))
def test_both_engines_fold_random_sequences_alike(js: JsEngine, batch: int) -> None:
    compared = steps_compared = refusals = doubled_starts = 0
    per_batch = max(1, SEQUENCES // BATCHES)
    for n in range(per_batch):
        seed = batch * 1_000_003 + n
        rng = random.Random(seed)
        rules, figs, steps, py = sequence(rng, rng.randint(5, 60))
        got = js.fold({"rules": rules, "match": figs, "steps": steps})
        if got != py:
            where = "created" if got["created"] != py["created"] else ""
            for i, (a, b) in enumerate(zip(py["results"], got["results"], strict=True)):
                diff = _first_difference(a, b)
                if diff:
                    where = f"step {i} {steps[i]}: {diff}"
                    break
            pytest.fail(f"seed {seed}, {rules} {figs}: {where}")
        compared += 1
        steps_compared += len(steps)
        refusals += sum(r["refused"] is not None for r in py["results"])
        if py["created"] is None:  # a match was made: one result per step
            doubled_starts += sum(
                r["refused"] is None and r["state"]["cube"]["value"] > 1
                and s.get("event", {}).get("do") == "start"
                for s, r in zip(steps, py["results"], strict=True))
    # The sequences must exercise refusals as well as accepted events, and
    # the clock introduced on a game already doubled (clock-script `start`).
    assert compared == per_batch and refusals > 0 and refusals < steps_compared
    assert doubled_starts > 0
